/* SPDX-License-Identifier: MIT */
/* Area: startup
   Purpose: the library's CPU reader without glibc's hwcaps call, the way
   it reads the CPU on a glibc older than 2.33 (by CPUID, its fallback),
   agrees with the library as loaded here, which takes glibc's leaves:
   the same family, model, stepping, features, vendor class and logical
   processors.  src/load/cpu-features.c is compiled into this program with the
   hwcaps call turned off and its own fc_state; the library's answer comes
   from fastcopy_cpu ().  */

#include "fctest.h"

#define FC_CPUID_ONLY 1
#define fc_cpu_init fallback_cpu_init
#define fc_cpu_caches fallback_cpu_caches
#define fc_cpu_vendor_string fallback_vendor_string
#define fc_cpu_from_description fallback_from_description
#include "load/cpu-features.c"

struct fc_load_state fc_state;

int
main (void)
{
  fct_init ();
  const struct fc_cpu *fb = fallback_cpu_caches ();
  const struct fastcopy_cpu *lib = fastcopy_cpu ();

  fct_begin ("the CPUID fallback reads what glibc's leaves give the library");
  if (fb->id.family != lib->family || fb->id.model != lib->model
      || fb->id.stepping != lib->stepping)
    fct_fail ("family %u model %u stepping %u, the library %u %u %u",
	      fb->id.family, fb->id.model, fb->id.stepping, lib->family,
	      lib->model, lib->stepping);
  if (fb->id.features != lib->features)
    fct_fail ("features %#llx, the library %#llx", fb->id.features,
	      lib->features);
  if (fb->id.l3_threads != lib->l3_threads)
    fct_fail ("%u logical processors, the library %u", fb->id.l3_threads,
	      lib->l3_threads);
  if (fb->id.l3_size != lib->l3_size)
    fct_fail ("L3 %lu, the library %lu", fb->id.l3_size, lib->l3_size);
  fct_end ();

  /* The vendor class the fallback derives from the leaves, against the
     vendor string (the one CPUID the tools run).  */
  fct_begin ("the fallback's vendor class is the vendor's");
  int amd = strcmp (lib->vendor, "AuthenticAMD") == 0
	    || strcmp (lib->vendor, "HygonGenuine") == 0;
  if ((fb->vendor == FC_VENDOR_AMD) != amd)
    fct_fail ("class %s for vendor %s", fb->vendor == FC_VENDOR_AMD
	      ? "AMD" : "Intel", lib->vendor);
  fct_end ();
  return fct_finish ();
}
