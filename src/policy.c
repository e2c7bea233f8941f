/* SPDX-License-Identifier: MIT */
/* The policy tables (policy.h): the rows of policy.def and
   policy-seed.def, and how a CPU or a name finds one.  */

#include "load-state.h"
#include "policy.h"

/* A row of policy.def: its name, where its figures come from and why,
   then named fields.  A model or family range not given is any; a value
   not given stays FC_UNSET, which libfastcopy.classes catches (a designated
   initializer after a default one replaces it: -Woverride-init is what
   these tables do on purpose).  */
#define FC_POLICY(row_name, row_evidence, row_reason, ...)		\
  { .name = row_name, .evidence = row_evidence, .reason = row_reason,	\
    .family_max = FC_ANY, .model_max = FC_ANY,				\
    .copy = FC_UNSET, .clear = FC_UNSET, .rep_movsb_threshold = FC_UNSET,	\
    .copy_nt_threshold = FC_UNSET, .rep_stosb_threshold = FC_UNSET,	\
    .clear_nt_threshold = FC_UNSET, .alias_guard = FC_UNSET,		\
    __VA_ARGS__ },

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const struct fc_policy_row auto_rows[] = {
#include "policy.def"
};

static const struct fc_policy_row seed_rows[] = {
#include "policy-seed.def"
};
#pragma GCC diagnostic pop
#undef FC_POLICY

/* The texts are arrays: each must fit with its NUL.  */
#define FC_ROW_TEXT_FITS(field, text) \
  (sizeof (text) <= sizeof ((struct fc_policy_row *) 0)->field)
#define FC_POLICY(row_name, row_evidence, row_reason, ...)		\
  _Static_assert (FC_ROW_TEXT_FITS (name, row_name)			\
		  && FC_ROW_TEXT_FITS (evidence, row_evidence)		\
		  && FC_ROW_TEXT_FITS (reason, row_reason),		\
		  "policy row " row_name ": a text longer than its field");
#include "policy.def"
#include "policy-seed.def"
#undef FC_POLICY

const struct fc_policy_row *
fc_policy_rows (enum fc_table table, size_t *count)
{
  if (table == FC_TABLE_SEED)
    {
      *count = sizeof seed_rows / sizeof seed_rows[0];
      return seed_rows;
    }
  *count = sizeof auto_rows / sizeof auto_rows[0];
  return auto_rows;
}

static FC_EARLY int
row_matches (const struct fc_policy_row *r, const struct fc_cpu *cpu)
{
  const struct fastcopy_cpu *c = &cpu->id;
  return (r->vendor == FC_VENDOR_ANY || r->vendor == cpu->vendor)
	 && c->family >= r->family_min && c->family <= r->family_max
	 && c->model >= r->model_min && c->model <= r->model_max
	 && (r->requires & ~c->features) == 0;
}

const struct fc_policy_row *
fc_policy_match (const struct fc_cpu *cpu, enum fc_table table)
{
  size_t n;
  const struct fc_policy_row *rows = fc_policy_rows (table, &n);
  for (size_t i = 0; i + 1 < n; i++)
    if (row_matches (&rows[i], cpu))
      return &rows[i];
  return &rows[n - 1];
}

size_t
fc_policy_size (const struct fc_cpu *cpu, unsigned long long value)
{
  if (value == FC_NEVER || !(value & FC_L3_FLAG))
    return fc_threshold_word (value);
  /* This machine's caches are read on first need; a CPU a caller
     describes (fastcopy_plan_for) comes with its own.  */
  if (cpu == &fc_state.cpu)
    cpu = fc_cpu_caches ();
  unsigned long long num = (value >> 16) & 0xffff, den = value & 0xffff;
  unsigned long long size;
  if (cpu->id.l3_size == 0)
    size = FC_L3_UNKNOWN * num / (den ? den : 1);
  else
    {
      unsigned long long l3 = cpu->id.l3_size;
      unsigned long long share
	= l3 / (cpu->id.l3_threads ? cpu->id.l3_threads : 1);
      size = share * num / (den ? den : 1);
      /* Not below a quarter of the whole L3, glibc's floor since 2.38:
	 with dozens of threads on one L3 a thread's share is a few
	 hundred KiB, and a copy that size into cache would pay for
	 streaming.  */
      if (size < l3 / 4)
	size = l3 / 4;
    }
  unsigned long long cap = FC_L3_VM_CAP_MIB (value) << 20;
  if (cap != 0 && (cpu->id.features & FASTCOPY_CPU_HYPERVISOR) && size > cap)
    size = cap;
  return fc_threshold_word (size);
}

unsigned long long
fc_policy_find (const char *name, size_t len)
{
  for (int t = 0; t < FC_TABLE_COUNT; t++)
    {
      size_t n;
      const struct fc_policy_row *rows = fc_policy_rows ((enum fc_table) t, &n);
      for (size_t i = 0; i < n; i++)
	{
	  size_t k = 0;
	  while (k < len && k < sizeof rows[i].name && rows[i].name[k] == name[k])
	    k++;
	  if (k == len && k < sizeof rows[i].name && rows[i].name[k] == 0)
	    return FC_CHOICE_ROW (t, i);
	}
    }
  return FC_CHOICE_AUTO;
}

const struct fc_policy_row *
fc_policy_chosen (unsigned long long choice)
{
  size_t n;
  if (choice == FC_CHOICE_AUTO)
    return NULL;
  const struct fc_policy_row *rows
    = fc_policy_rows ((enum fc_table) ((choice - 1) >> 8), &n);
  size_t i = (size_t) ((choice - 1) & 0xff);
  return i < n ? &rows[i] : NULL;
}
