/* The policy: the tables of policy.def and policy-seed.def, and the pure
   function that turns a CPU and the settings into a plan -- which
   implementation each family gets, from which row, with which thresholds.
   resolve.c commits a plan; api.c reports it.

   Everything FC_EARLY runs inside the IFUNC resolvers: rows hold their
   texts as arrays, not pointers, so reading them needs no relocation.  */

#ifndef FASTCOPY_POLICY_H
#define FASTCOPY_POLICY_H 1

#include "fastcopy-internal.h"
#include "settings.h"

#define FC_ANY 0xffffffffu

/* A threshold of FC_L3 (NUM, DEN) is that fraction of the L3 size.  */
#define FC_L3_FLAG (1ull << 62)
#define FC_L3(num, den) \
  (FC_L3_FLAG | ((unsigned long long) (num) << 16) | (unsigned long long) (den))
#define FC_L3_UNKNOWN (8ull << 20)	/* the L3 size when CPUID gives none */

struct fc_policy_row
{
  char name[24];
  unsigned char vendor;		/* enum fc_vendor */
  unsigned char measured;
  unsigned int family_min, family_max, model_min, model_max;
  unsigned long long requires;	/* FASTCOPY_CPU_* */
  unsigned long long value[FC_KEY_COUNT];	/* keys.def order; IMPL keys
						   hold an enum fc_impl_id */
  char evidence[96];
  char reason[160];
};

enum fc_table
{
  FC_TABLE_AUTO,		/* policy.def */
  FC_TABLE_SEED,		/* policy-seed.def */
  FC_TABLE_COUNT
};

/* TABLE's rows, *COUNT of them.  */
FC_HIDDEN FC_EARLY const struct fc_policy_row *
fc_policy_rows (enum fc_table table, size_t *count);

/* The first row of TABLE that CPU meets (the last row meets any).  */
FC_HIDDEN FC_EARLY const struct fc_policy_row *
fc_policy_match (const struct fastcopy_cpu *cpu, enum fc_table table);

/* A row's threshold value for the CPU: FC_L3 fractions resolved.  */
FC_HIDDEN FC_EARLY size_t fc_policy_size (const struct fastcopy_cpu *cpu,
					  unsigned long long value);

struct fc_plan
{
  unsigned char impl[FASTCOPY_FAMILY_COUNT];	/* enum fc_impl_id */
  const struct fc_policy_row *row[FASTCOPY_FAMILY_COUNT];
				/* the row that chose it; NULL when a setting
				   named the implementation */
  struct fc_tunables values;	/* thresholds, settings applied */
  struct fc_tunables defaults;	/* the same without the settings */
};

/* The plan for CPU under SETTINGS (fc_load.settings.merged or another
   layer).
   Settings were checked when parsed: an implementation they name can run
   on this CPU.  */
FC_HIDDEN FC_EARLY void fc_plan_make (const struct fastcopy_cpu *cpu,
				      const struct fc_layer *settings,
				      struct fc_plan *plan);

/* Only the thresholds, for PLAN's implementations and rows as they are
   (resolve.c keeps an implementation it cannot rebind).  */
FC_HIDDEN FC_EARLY void fc_plan_thresholds (const struct fastcopy_cpu *cpu,
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
   streaming threshold closes, for a variant that reads both.  */
FC_HIDDEN void fc_plan_warnings (const struct fc_plan *plan,
				 const struct fc_layer *settings,
				 struct fc_diags *diags);

/* The same check for the values one layer gives (fastcopy-info --check).  */
FC_HIDDEN void fc_layer_warnings (const struct fc_layer *layer,
				  struct fc_diags *diags);

#endif
