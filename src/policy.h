/* SPDX-License-Identifier: MIT */
/* The policy: the tables of policy.def and policy-seed.def, rows of CPU
   conditions and the implementations and thresholds for such CPUs.
   plan.h turns a row and the settings into a plan.

   Everything FC_EARLY runs inside the IFUNC resolvers: rows hold their
   texts as arrays, not pointers, so reading them needs no relocation.  */

#ifndef FASTCOPY_POLICY_H
#define FASTCOPY_POLICY_H 1

#include "fastcopy-internal.h"

#define FC_ANY 0xffffffffu

/* A threshold of FC_L3 (NUM, DEN) is that fraction of a thread's share of
   the L3: its size over the logical processors that share it
   (cpu-features.c), as glibc's non-temporal threshold is; and at least a
   quarter of the L3, as glibc takes since 2.38.  */
#define FC_L3_FLAG (1ull << 62)
#define FC_L3(num, den) \
  (FC_L3_FLAG | ((unsigned long long) (num) << 16) | (unsigned long long) (den))
/* The same, but at most MIB MiB in a virtual machine (the hypervisor bit
   of CPUID): a guest is told the L3 of the host's whole socket, a cache
   it does not have to itself.  */
#define FC_L3_VM_CAP(num, den, mib) \
  (FC_L3 (num, den) | ((unsigned long long) (mib) << 32))
#define FC_L3_VM_CAP_MIB(v) (((v) >> 32) & 0xffff)
#define FC_KiB(n) ((unsigned long long) (n) << 10)
#define FC_MiB(n) ((unsigned long long) (n) << 20)
#define FC_L3_UNKNOWN (8ull << 20)	/* the share when glibc knows no L3 */

/* A row: the CPUs it is for and what it gives them, a value for every
   key of keys.def before policy, by the key's name (policy.def) or by
   its index (value[]).  */
struct fc_policy_row
{
  char name[24];
  unsigned char vendor;		/* enum fc_vendor */
  unsigned char measured;
  unsigned int family_min, family_max, model_min, model_max;
  unsigned long long requires;	/* FASTCOPY_CPU_* */
  union
  {
    unsigned long long value[FC_KEY_COUNT];	/* IMPL keys hold an enum
						   fc_impl_id */
    struct
    {
#define FC_KEY(id, name, family, type, trait) unsigned long long name;
#include "keys.def"
#undef FC_KEY
    };
  };
  char evidence[96];
  char reason[160];
};
_Static_assert (sizeof ((struct fc_policy_row *) 0)->value
		== FC_KEY_COUNT * sizeof (unsigned long long),
		"a policy row's named values are its value[]");

/* In a row, a value policy.def did not give (policy.c's FC_POLICY); no
   row keeps one (libfastcopy.classes checks fastcopy-info --policy).  */
#define FC_UNSET (FC_NEVER - 1)

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
fc_policy_match (const struct fc_cpu *cpu, enum fc_table table);

/* A threshold as a word of struct fc_tunables, and back.  A size_t holds
   every value but never (FC_NEVER) on x86-64; on i386, never and any
   threshold of 4 GiB or more become SIZE_MAX, which no size reaches, and
   SIZE_MAX reads as never.  */
static inline size_t
fc_threshold_word (unsigned long long value)
{
  return value > (size_t) -1 ? (size_t) -1 : (size_t) value;
}
static inline unsigned long long
fc_threshold_value (size_t word)
{
  return word == (size_t) -1 ? FC_NEVER : word;
}

/* A row's threshold value for the CPU: FC_L3 fractions resolved.  */
FC_HIDDEN FC_EARLY size_t fc_policy_size (const struct fc_cpu *cpu,
					  unsigned long long value);

/* The value of an IMPL key (copy, clear): the rule or the implementation
   it names.  */
#define FC_CHOICE_AUTO 0ull
#define FC_CHOICE_SEED 1ull
#define FC_CHOICE_IMPL(id) (2ull + (unsigned long long) (id))

/* The value of the policy setting (keys.def) that names a row: the row
   named NAME (LEN bytes) in either table, or FC_CHOICE_AUTO when there is
   none; and back.  */
#define FC_CHOICE_ROW(table, index) \
  (1ull + ((unsigned long long) (table) << 8) + (unsigned long long) (index))
FC_HIDDEN FC_EARLY unsigned long long fc_policy_find (const char *name,
						      size_t len);
FC_HIDDEN FC_EARLY const struct fc_policy_row *
fc_policy_chosen (unsigned long long choice);

#endif
