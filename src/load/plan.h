/* SPDX-License-Identifier: MIT */
/* The plan: which implementation each family gets, from which policy row,
   with which thresholds -- and fc_select, the pure function of the CPU,
   the rows (policy.h) and the settings (settings.h) that makes it
   (select.c), and fc_commit, which puts one in force (commit.c).
   resolve.c gathers the inputs, selects and commits; the API reports a
   plan (api/explain.h).  */

#ifndef FASTCOPY_PLAN_H
#define FASTCOPY_PLAN_H 1

#include "policy.h"
#include "settings.h"

/* The values of the SIZE and BOOL keys (keys.def) that the variants
   read, each of its type's member.  */
struct fc_values
{
  struct fc_threshold size[FC_KEY_COUNT];	/* SIZE keys */
  unsigned char on[FC_KEY_COUNT];		/* BOOL keys: 0 or 1 */
};

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
  struct fc_values values;	/* settings applied */
  struct fc_values defaults;	/* the same without the settings */
};

/* The selection: the plan for CPU under SETTINGS (fc_state.settings.merged
   or another layer), from the policy rows.  It reads nothing else and
   writes only PLAN: the resolvers, fastcopy_plan_for (fastcopy-info --cpu)
   and the API all make their plans here.  The families in the bit mask
   KEPT_FAMILIES (1 << family) keep KEPT's implementation, worker and row
   (resolve.c keeps a family whose slot it cannot rewrite); KEPT may be
   NULL when the mask is 0.
   Settings were checked when parsed: an implementation they name can run
   on this CPU.  With the profile setting, each family gets its profile
   implementation, and its worker is what it would have got.  With
   glibc=on, the glibc value is on, the implementations are still this
   library's choice (what glibc's functions stand in for), and nothing is
   recorded.  A threshold that is a fraction of the L3 stays one: the
   caches are read only when the words are made (fc_values_words).  */
FC_HIDDEN FC_EARLY void fc_select (const struct fc_cpu *cpu,
				   const struct fc_layer *settings,
				   const struct fc_plan *kept,
				   unsigned int kept_families,
				   struct fc_plan *plan);

/* Put PLAN in force for CPU (commit.c): it becomes fc_state.plan and
   its values the words the variants read, fc_state.tunables.  The
   caches are read (fc_cpu_caches) only when a value is a fraction of
   the L3: reading them touches a page of libc that AMD's rows never
   need at load.  */
FC_HIDDEN FC_EARLY void fc_commit (const struct fc_plan *plan,
				   const struct fc_cpu *cpu);

/* A threshold in bytes for CPU (whose caches are read when T is a
   fraction of the L3), as a word of struct fc_tunables: a size_t holds
   every value but never on x86-64; on i386, never and any threshold of
   4 GiB or more become SIZE_MAX, which no size reaches.  */
FC_HIDDEN FC_EARLY size_t fc_threshold_bytes (const struct fc_threshold *t,
					      const struct fastcopy_cpu *cpu);

/* VALUES as the words the variants read (struct fc_tunables), for CPU
   (its caches, when a size is a fraction of the L3).  The words of the
   other keys are 0.  */
FC_HIDDEN FC_EARLY void fc_values_words (const struct fc_values *values,
					 const struct fastcopy_cpu *cpu,
					 struct fc_tunables *words);

/* A SIZE setting's value (bytes, or FC_NEVER) as a threshold.  */
FC_HIDDEN FC_EARLY struct fc_threshold fc_size_threshold (unsigned long long
							   number);

/* The key of type IMPL of FAMILY (copy, clear).  */
FC_HIDDEN FC_EARLY int fc_impl_key (enum fastcopy_family family);

#endif
