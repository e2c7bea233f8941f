/* SPDX-License-Identifier: MIT */
/* Everything libfastcopy writes in every process while it loads: the CPU
   as glibc describes it, the summary of the settings, the plan and the
   thresholds the variants read.  One object in a section of its own,
   aligned to its size, so that loading the library dirties one page of
   data beyond what ld.so relocates; build.exp checks that it fits.
   Whatever is written only when there is a file or a variable to parse,
   or when a tool asks, lives elsewhere (fc_settings_scratch, api.c).  */

#ifndef FASTCOPY_LOAD_STATE_H
#define FASTCOPY_LOAD_STATE_H 1

#include "plan.h"

struct fc_load_state
{
  struct fc_tunables tunables;	/* first: the assembly reads it at fc_state */
  struct fc_cpu cpu;		/* cpu-features.c */
  int cpu_ready;
  int caches_ready;		/* cpu's cache sizes too */
  int planned;			/* resolve.c */
  struct fc_plan plan;
  struct fc_settings settings;	/* settings.c */
};

#define FC_LOAD_STATE_ALIGN 1024
extern FC_HIDDEN struct fc_load_state fc_state;

#endif
