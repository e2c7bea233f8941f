/* SPDX-License-Identifier: MIT */
/* A plan explained, for the tools and the API (explain.c): why it chose
   what it chose, and what looks wrong in it.  Nothing here runs at
   load.  */

#ifndef FASTCOPY_EXPLAIN_H
#define FASTCOPY_EXPLAIN_H 1

#include "load/plan.h"

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

/* Warnings about PLAN, whose values are WORDS, under SETTINGS, into
   DIAGS: a REP window that the streaming threshold closes, for a variant
   that reads both; a recording signal without a recording.  */
FC_HIDDEN void fc_plan_warnings (const struct fc_plan *plan,
				 const struct fc_tunables *words,
				 const struct fc_layer *settings,
				 struct fc_diags *diags);

/* The same check for the values one layer gives (fastcopy-info --check).  */
FC_HIDDEN void fc_layer_warnings (const struct fc_layer *layer,
				  struct fc_diags *diags);

#endif
