/* SPDX-License-Identifier: MIT */
/* Area: dispatch
   Purpose: fastcopy_cpu() describes the CPU the program runs on: a vendor
   string, and feature bits; fastcopy_impl_usable says of each
   implementation what the oracle says of the CPU's class
   (usable=NAME,... and unusable=NAME,..., from lib/fc-classes.exp; a CPU
   of no class has none to compare with).  Run natively
   (model=native) the bits must match the flags the kernel reports in
   /proc/cpuinfo; under qemu, whose /proc/cpuinfo is the host's, only the
   model's absence of FSRM (none of the emulated models has it) is
   checked.  */

#include "fctest.h"

/* fastcopy feature bit -> /proc/cpuinfo flag.  */
static const struct
{
  unsigned long long bit;
  const char *flag;
} flags[] = {
  { FASTCOPY_CPU_SSE2, "sse2" },
  { FASTCOPY_CPU_ERMS, "erms" },
  { FASTCOPY_CPU_FSRM, "fsrm" },
  { FASTCOPY_CPU_AVX2, "avx2" },
  { FASTCOPY_CPU_AVX512F, "avx512f" },
  { FASTCOPY_CPU_AVX512BW, "avx512bw" },
  { FASTCOPY_CPU_AVX512VL, "avx512vl" },
  { FASTCOPY_CPU_BMI2, "bmi2" },
  { FASTCOPY_CPU_CLZERO, "clzero" },
  { FASTCOPY_CPU_AVX_VNNI, "avx_vnni" },
  { FASTCOPY_CPU_HYPERVISOR, "hypervisor" },
};

static char cpuinfo_flags[8192];

static int
has_flag (const char *flag)
{
  size_t len = strlen (flag);
  for (const char *p = cpuinfo_flags; (p = strstr (p, flag)) != NULL; p++)
    if ((p == cpuinfo_flags || p[-1] == ' ')
	&& (p[len] == ' ' || p[len] == '\n' || p[len] == 0))
      return 1;
  return 0;
}

/* NAME is an item of the comma-separated LIST.  */
static int
in_list (const char *list, const char *name)
{
  size_t len = strlen (name);
  for (const char *p = list; *p != 0; p++)
    if ((p == list || p[-1] == ',') && strncmp (p, name, len) == 0
	&& (p[len] == ',' || p[len] == 0))
      return 1;
  return 0;
}

int
main (int argc, char **argv)
{
  const char *model = "native", *usable = NULL, *unusable = NULL;
  const struct fastcopy_cpu *cpu = fastcopy_cpu ();

  fct_init ();
  for (int i = 1; i < argc; i++)
    if (strncmp (argv[i], "model=", 6) == 0)
      model = argv[i] + 6;
    else if (strncmp (argv[i], "usable=", 7) == 0)
      usable = argv[i] + 7;
    else if (strncmp (argv[i], "unusable=", 9) == 0)
      unusable = argv[i] + 9;

  fct_expect (cpu != NULL && cpu->vendor[0] != 0 && cpu->vendor[12] == 0,
	      "fastcopy_cpu reports a vendor");
  if (cpu == NULL)
    return fct_finish ();
  printf ("  note: %s family %u model %u, features %#llx\n", cpu->vendor,
	  cpu->family, cpu->model, cpu->features);

  if (usable == NULL || unusable == NULL)
    fct_unsupported ("fastcopy_impl_usable: no class, no expectation");
  else
    {
      fct_begin ("fastcopy_impl_usable says what the oracle says");
      for (size_t i = 0; i < fastcopy_impl_count (); i++)
	{
	  const struct fastcopy_impl *e = fastcopy_impl_at (i);
	  int yes = in_list (usable, e->name), no = in_list (unusable, e->name);
	  if (yes == no)
	    fct_fail ("%s: the oracle lists it %s", e->name,
		      yes ? "as both usable and unusable" : "nowhere");
	  else if (!fastcopy_impl_usable (e) != !yes)
	    fct_fail ("%s %s: fastcopy_impl_usable says %d, the oracle %d",
		      e->family == FASTCOPY_FAMILY_COPY ? "copy" : "clear",
		      e->name, fastcopy_impl_usable (e), yes);
	}
      fct_end ();
    }

  if (strcmp (model, "native") != 0)
    {
      fct_expect (!(cpu->features & FASTCOPY_CPU_FSRM),
		  "the emulated CPU has no FSRM");
      return fct_finish ();
    }

  FILE *f = fopen ("/proc/cpuinfo", "r");
  char line[8192];
  while (f != NULL && fgets (line, sizeof line, f) != NULL)
    if (strncmp (line, "flags", 5) == 0)
      {
	char *colon = strchr (line, ':');
	snprintf (cpuinfo_flags, sizeof cpuinfo_flags, "%s",
		  colon ? colon + 1 : line);
	break;
      }
  if (f != NULL)
    fclose (f);
  if (cpuinfo_flags[0] == 0)
    {
      fct_unsupported ("no flags line in /proc/cpuinfo");
      return fct_finish ();
    }
  for (size_t i = 0; i < FCT_ARRAY_SIZE (flags); i++)
    {
      int lib = (cpu->features & flags[i].bit) != 0;
      int kernel = has_flag (flags[i].flag);
      fct_expect (lib == kernel,
		  "feature %s: libfastcopy says %s, /proc/cpuinfo %s", flags[i].flag, lib ? "yes" : "no",
		  kernel ? "yes" : "no");
    }
  return fct_finish ();
}
