/* The dispatch policy: one ordered rule list per family, and the default
   thresholds that go with the chosen variant on this CPU.

   Called from the IFUNC resolvers while libfastcopy is being relocated:
   only hidden data (RIP-relative) and hidden functions; the reason strings
   are string literals reached by RIP-relative address, not through a
   pointer table.  */

#include <stdint.h>
#include "fastcopy-internal.h"

#define NEVER SIZE_MAX

/* Until the policy runs, the variants behave as the seed patch: REP MOVSB
   from 2048 bytes, no streaming stores.  */
struct fc_tunables fc_tunables = {
  .rep_movsb_threshold = 2048,
  .copy_nt_threshold = NEVER,
  .rep_stosb_threshold = 2048,
  .clear_nt_threshold = NEVER,
  .alias_guard = 1,
};

struct fc_selection fc_selected[FASTCOPY_FAMILY_COUNT];

static FC_EARLY int
is_amd (const struct fastcopy_cpu *cpu)
{
  return cpu->vendor[0] == 'A' || cpu->vendor[0] == 'H';	/* AMD, Hygon */
}

/* Defaults for the vector variants.  */
static FC_EARLY void
set_vector_defaults (const struct fastcopy_cpu *cpu, enum fastcopy_family family)
{
  size_t l3 = cpu->l3_size ? cpu->l3_size : 8ul << 20;
  if (family == FASTCOPY_FAMILY_COPY)
    {
      fc_tunables.rep_movsb_threshold = NEVER;
      fc_tunables.copy_nt_threshold = l3 / 2;
    }
  else
    {
      fc_tunables.rep_stosb_threshold = NEVER;
      fc_tunables.clear_nt_threshold = l3 / 2;
    }
}

struct fc_selection
fc_select (enum fastcopy_family family)
{
  const struct fastcopy_cpu *cpu = fc_cpu_init ();
  unsigned long long f = cpu->features;
  int copy = family == FASTCOPY_FAMILY_COPY;
  (void) is_amd;

  if (f & FASTCOPY_CPU_AVX2)
    {
      set_vector_defaults (cpu, family);
      return (struct fc_selection) {
	copy ? FC_IMPL_COPY_AVX2 : FC_IMPL_CLEAR_AVX2,
	"CPU and OS support AVX2: 32-byte vectors" };
    }
  set_vector_defaults (cpu, family);
  return (struct fc_selection) {
    copy ? FC_IMPL_COPY_SSE2 : FC_IMPL_CLEAR_SSE2,
    "no AVX2: 16-byte SSE2 vectors (baseline x86-64)" };
}
