/* SPDX-License-Identifier: MIT */
/* The plan: which implementation each family gets, from which policy row,
   with which thresholds -- the pure function of the CPU, the rows
   (policy.h) and the settings (settings.h) that makes it.  resolve.c
   commits a plan; api.c reports it.  */

#ifndef FASTCOPY_PLAN_H
#define FASTCOPY_PLAN_H 1

#include "policy.h"
#include "settings.h"

struct fc_plan
{
  unsigned char impl[FASTCOPY_FAMILY_COUNT];	/* enum fc_impl_id */
  unsigned char worker[FASTCOPY_FAMILY_COUNT];	/* the implementation that
						   does the work: impl, or
						   the one the profile
						   implementation calls */
  const struct fc_policy_row *row[FASTCOPY_FAMILY_COUNT];
				/* the row that chose it; NULL when a setting
				   named the implementation */
  struct fc_tunables values;	/* thresholds, settings applied */
  struct fc_tunables defaults;	/* the same without the settings */
};

/* The plan for CPU under SETTINGS (fc_state.settings.merged or another
   layer).
   Settings were checked when parsed: an implementation they name can run
   on this CPU.  With the profile setting, each family gets its profile
   implementation, and its worker is what it would have got.  With
   glibc=on, the glibc word of the values is 1, the implementations are
   still this library's choice (what glibc's functions stand in for), and
   nothing is recorded.  */
FC_HIDDEN FC_EARLY void fc_plan_make (const struct fc_cpu *cpu,
				      const struct fc_layer *settings,
				      struct fc_plan *plan);

/* Only the thresholds, for PLAN's workers and rows as they are
   (resolve.c keeps an implementation it cannot rebind).  */
FC_HIDDEN FC_EARLY void fc_plan_thresholds (const struct fc_cpu *cpu,
					    const struct fc_layer *settings,
					    struct fc_plan *plan);

/* The key of type IMPL of FAMILY (copy, clear).  */
FC_HIDDEN FC_EARLY int fc_impl_key (enum fastcopy_family family);

/* The key of FAMILY whose trait is TRAIT (FC_TRAIT_REP, FC_TRAIT_NT), or
   -1.  */
FC_HIDDEN int fc_family_key (enum fastcopy_family family, unsigned int trait);

/* Why FAMILY got its implementation, into BUF: the row's reason, or the
   setting that chose it ("FASTCOPY item 2: copy=erms").  PATH is the
   configuration file the settings came from.  */
FC_HIDDEN void fc_plan_reason (const struct fc_plan *plan,
			       const struct fc_layer *settings,
			       const char *path, enum fastcopy_family family,
			       char *buf, size_t size);

/* Warnings about PLAN under SETTINGS, into DIAGS: a REP window that the
   streaming threshold closes, for a variant that reads both; a recording
   signal without a recording.  */
FC_HIDDEN void fc_plan_warnings (const struct fc_plan *plan,
				 const struct fc_layer *settings,
				 struct fc_diags *diags);

/* The same check for the values one layer gives (fastcopy-info --check).  */
FC_HIDDEN void fc_layer_warnings (const struct fc_layer *layer,
				  struct fc_diags *diags);

#endif
