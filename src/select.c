/* The dispatch policy: one ordered rule list per family.

   Called from the IFUNC resolvers while libfastcopy is being relocated:
   only hidden data (RIP-relative) and hidden functions; the reason strings
   are string literals reached by RIP-relative address, not through a
   pointer table.  */

#include "fastcopy-internal.h"

struct fc_tunables fc_tunables = {
  /* The seed patch's threshold for ERMS CPUs without FSRM.  */
  .rep_movsb_threshold = 2048,
  .rep_stosb_threshold = 2048,
};

struct fc_selection fc_selected[FASTCOPY_FAMILY_COUNT];

struct fc_selection
fc_select (enum fastcopy_family family)
{
  unsigned long long f = fc_cpu_init ()->features;
  int copy = family == FASTCOPY_FAMILY_COPY;

  if (f & FASTCOPY_CPU_FSRM)
    return (struct fc_selection) {
      copy ? FC_IMPL_COPY_FSRM : FC_IMPL_CLEAR_FSRM,
      "CPU has FSRM: REP string instructions are fast at every size" };
  if (f & FASTCOPY_CPU_ERMS)
    return (struct fc_selection) {
      copy ? FC_IMPL_COPY_ERMS : FC_IMPL_CLEAR_ERMS,
      "CPU has ERMS without FSRM: REP string instructions only above the threshold" };
  return (struct fc_selection) {
    copy ? FC_IMPL_COPY_SCALAR : FC_IMPL_CLEAR_SCALAR,
    "CPU has neither ERMS nor FSRM: no string instructions" };
}
