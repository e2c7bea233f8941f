/* The dispatch policy: which implementation each family gets on this CPU,
   why, and the default thresholds that go with it.

   Called from the IFUNC resolvers while libfastcopy is being relocated:
   only hidden data (RIP-relative) and hidden functions; the reason strings
   are string literals reached by RIP-relative address, not through a
   pointer table.  */

#include <stdint.h>
#include "fastcopy-internal.h"

#define NEVER SIZE_MAX
#define KiB 1024ul
#define MiB (1024ul * 1024ul)

/* Until a resolver runs, the variants behave as the seed patch: REP MOVSB
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

/* The seed patch's rule, kept as a policy for comparison (copy=seed):
   FSRM -> REP for every size, ERMS -> REP from 2048 bytes, else scalar.  */
FC_EARLY struct fc_selection
fc_select_seed (enum fastcopy_family family)
{
  unsigned long long f = fc_cpu_init ()->features;
  int copy = family == FASTCOPY_FAMILY_COPY;

  if (f & FASTCOPY_CPU_FSRM)
    return (struct fc_selection) {
      copy ? FC_IMPL_COPY_FSRM : FC_IMPL_CLEAR_FSRM,
      "seed policy: CPU has FSRM, REP string instructions at every size" };
  if (f & FASTCOPY_CPU_ERMS)
    return (struct fc_selection) {
      copy ? FC_IMPL_COPY_ERMS : FC_IMPL_CLEAR_ERMS,
      "seed policy: CPU has ERMS without FSRM, REP string instructions "
      "from the threshold" };
  return (struct fc_selection) {
    copy ? FC_IMPL_COPY_SCALAR : FC_IMPL_CLEAR_SCALAR,
    "seed policy: CPU has neither ERMS nor FSRM, no string instructions" };
}

/* The default policy: the widest vectors the CPU and OS support; string
   instructions and streaming stores only where the thresholds below put
   them.  */
FC_EARLY struct fc_selection
fc_select_auto (enum fastcopy_family family)
{
  unsigned long long f = fc_cpu_init ()->features;
  int copy = family == FASTCOPY_FAMILY_COPY;

  if (f & FASTCOPY_CPU_AVX2)
    return (struct fc_selection) {
      copy ? FC_IMPL_COPY_AVX2 : FC_IMPL_CLEAR_AVX2,
      "CPU and OS support AVX2: 32-byte vectors" };
  return (struct fc_selection) {
    copy ? FC_IMPL_COPY_SSE2 : FC_IMPL_CLEAR_SSE2,
    "no AVX2: 16-byte SSE2 vectors (baseline x86-64)" };
}

/* Default thresholds for FAMILY once IMPL is chosen.  Only the erms and
   vector variants read them.  */
FC_EARLY void
fc_default_thresholds (enum fastcopy_family family, enum fc_impl_id impl)
{
  const struct fastcopy_cpu *cpu = fc_cpu_init ();
  int erms = (cpu->features & FASTCOPY_CPU_ERMS) != 0;
  size_t l3 = cpu->l3_size ? cpu->l3_size : 8 * MiB;
  size_t rep = NEVER, nt = l3 / 2;

  if (impl == FC_IMPL_COPY_ERMS || impl == FC_IMPL_CLEAR_ERMS)
    {
      rep = 2048;		/* the seed patch's threshold */
      nt = NEVER;
    }
  else if (erms && !is_amd (cpu))
    rep = 4 * KiB;
  /* On AMD (Zen 3 measured) the vector loop beats REP MOVSB/STOSB hot at
     every size, so the vector variants never issue them.  */

  if (family == FASTCOPY_FAMILY_COPY)
    {
      fc_tunables.rep_movsb_threshold = rep;
      fc_tunables.copy_nt_threshold = nt;
      fc_tunables.alias_guard = 1;
    }
  else
    {
      fc_tunables.rep_stosb_threshold = rep;
      fc_tunables.clear_nt_threshold = nt;
    }
}

struct fc_selection
fc_select (enum fastcopy_family family)
{
  /* The settings (settings.c: the configuration file, then FASTCOPY) name
     a rule or an implementation; they were checked against this CPU when
     read, so a named one can run here.  Thresholds they give override the
     defaults for the chosen implementation.  */
  unsigned long long choice = fc_settings_choice (family);
  struct fc_selection s;
  if (choice == FC_CHOICE_SEED)
    s = fc_select_seed (family);
  else if (choice >= FC_CHOICE_IMPL (0)
	   && choice < FC_CHOICE_IMPL (FC_IMPL_COUNT))
    {
      s.impl = (enum fc_impl_id) (choice - FC_CHOICE_IMPL (0));
      s.reason = "";
    }
  else
    s = fc_select_auto (family);
  fc_default_thresholds (family, s.impl);
  s.reason = fc_settings_apply (family, s);
  return s;
}
