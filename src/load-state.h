/* SPDX-License-Identifier: MIT */
/* Everything libfastcopy writes in every process while it loads: the CPU
   as CPUID describes it, the summary of the settings, the plan and the
   thresholds the variants read.  One object in a section of its own,
   aligned to its size, so that loading the library dirties one page of
   data beyond what ld.so relocates; build.exp checks that it fits.
   Whatever is written only when there is a file or a variable to parse,
   or when a tool asks, lives elsewhere (fc_settings_scratch, api.c).  */

#ifndef FASTCOPY_LOAD_STATE_H
#define FASTCOPY_LOAD_STATE_H 1

#include "plan.h"

struct fc_load
{
  struct fc_tunables tunables;	/* first: the assembly reads it at fc_load */
  struct fastcopy_cpu cpu;	/* cpu-features.c */
  int cpu_ready;
  int l3_ready;			/* the L3 and its sharers too (fc_cpu_l3) */
  int caches_ready;		/* every cache size too (fc_cpu_caches) */
  unsigned int max_leaf;	/* CPUID's, from the vendor leaf */
  int topoext;			/* AMD's cache leaf 0x8000001D exists */
  int planned;			/* resolve.c */
  struct fc_plan plan;
  struct fc_settings settings;	/* settings.c */
};

#define FC_LOAD_ALIGN 1024
extern FC_HIDDEN struct fc_load fc_load;

#endif
