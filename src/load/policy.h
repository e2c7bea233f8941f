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

/* A threshold of a policy row or of a plan: a size in bytes, never, or a
   fraction of a thread's share of the L3 (its size over the logical
   processors that share it, cpu-features.c), as glibc's non-temporal
   threshold is, and at least a quarter of the L3, as glibc takes since
   2.38; with a VM cap, at most that many MiB in a virtual machine (the
   hypervisor bit of CPUID), for a guest is told the L3 of the host's
   whole socket, a cache it does not have to itself.  fc_threshold_bytes
   (commit.c) is the one reader of the fraction.  */
enum fc_threshold_kind
{
  FC_THRESHOLD_UNSET = 0,	/* a row left it out: libfastcopy.classes
				   fails on it (fastcopy-info --policy) */
  FC_THRESHOLD_BYTES,
  FC_THRESHOLD_NEVER,
  FC_THRESHOLD_L3
};
struct fc_threshold
{
  unsigned long long bytes;	/* BYTES */
  unsigned char kind;		/* enum fc_threshold_kind */
  unsigned char num, den;	/* L3: the fraction of a thread's share */
  unsigned short vm_cap_mib;	/* L3: at most this in a guest; 0: no cap */
};
#define FC_BYTES(n) \
  { .kind = FC_THRESHOLD_BYTES, .bytes = (unsigned long long) (n) }
#define FC_KiB(n) FC_BYTES ((unsigned long long) (n) * 1024)
#define FC_MiB(n) FC_BYTES ((unsigned long long) (n) * 1024 * 1024)
#define FC_NO_THRESHOLD { .kind = FC_THRESHOLD_NEVER }
#define FC_L3(n, d) { .kind = FC_THRESHOLD_L3, .num = (n), .den = (d) }
#define FC_L3_VM_CAP(n, d, mib) \
  { .kind = FC_THRESHOLD_L3, .num = (n), .den = (d), .vm_cap_mib = (mib) }
#define FC_L3_UNKNOWN (8ull << 20)	/* the share when glibc knows no L3 */

/* A BOOL value of a row that policy.def did not give.  */
#define FC_BOOL_UNSET 0xff

/* A row: the CPUs it is for and what it gives them: an implementation
   per family and a value for every SIZE key of keys.def, by the key's
   name (fc_row_impl and fc_row_threshold read them by key), and the
   two BOOL keys before policy, alias_guard and alias_backward.  */
struct fc_policy_row
{
  char name[24];
  unsigned char vendor;		/* enum fc_vendor */
  unsigned char measured;
  unsigned int family_min, family_max, model_min, model_max;
  unsigned long long requires;	/* FASTCOPY_CPU_* */
#define FC_ROW_FIELD_IMPL(name) unsigned char name;	/* enum fc_impl_id */
#define FC_ROW_FIELD_SIZE(name) struct fc_threshold name;
#define FC_ROW_FIELD_BOOL(name)
#define FC_ROW_FIELD_POLICY(name)
#define FC_ROW_FIELD_PATH(name)
#define FC_ROW_FIELD_SIGNAL(name)
#define FC_KEY(id, name, family, type, trait) FC_ROW_FIELD_##type (name)
#include "keys.def"
#undef FC_KEY
  unsigned char alias_guard;	/* 0, 1 or FC_BOOL_UNSET */
  unsigned char alias_backward;	/* the same */
  char evidence[96];
  char reason[160];
};

enum fc_table
{
  FC_TABLE_AUTO,		/* policy.def */
  FC_TABLE_SEED,		/* policy-seed.def */
  FC_TABLE_COUNT
};

/* A row by where it is: the policy setting's value.  */
struct fc_row_ref
{
  unsigned char table;		/* enum fc_table */
  unsigned char index;
};

/* TABLE's rows, *COUNT of them.  */
FC_HIDDEN FC_EARLY const struct fc_policy_row *
fc_policy_rows (enum fc_table table, size_t *count);

/* The row REF names.  */
FC_HIDDEN FC_EARLY const struct fc_policy_row *
fc_policy_row_at (struct fc_row_ref ref);

/* The row named NAME (LEN bytes) in either table into *REF; 0 when there
   is none.  */
FC_HIDDEN FC_EARLY int fc_policy_find (const char *name, size_t len,
				       struct fc_row_ref *ref);

/* ROW's implementation of FAMILY, its value of a SIZE key, and of a BOOL
   key (alias_guard, alias_backward; FC_BOOL_UNSET if not given).  */
FC_HIDDEN FC_EARLY enum fc_impl_id
fc_row_impl (const struct fc_policy_row *row, enum fastcopy_family family);
FC_HIDDEN FC_EARLY struct fc_threshold
fc_row_threshold (const struct fc_policy_row *row, int key);
FC_HIDDEN FC_EARLY unsigned char fc_row_on (const struct fc_policy_row *row,
					    int key);

/* A word of struct fc_tunables as the public value: SIZE_MAX reads as
   never.  */
static inline unsigned long long
fc_threshold_value (size_t word)
{
  return word == (size_t) -1 ? FC_NEVER : word;
}

#endif
