/* The policy tables and the plan (policy.h).  fc_plan_make is a pure
   function of the CPU, the rows and the settings; it writes only the plan
   it is given.  */

#include <stdint.h>
#include <stdio.h>
#include "policy.h"

_Static_assert (FC_KEY_COPY == 0 && FC_KEY_CLEAR == 1,
		"policy rows give the copy and clear implementations first");

#define FC_POLICY(name, vendor, family_min, family_max, model_min,	\
		  model_max, requires, measured, evidence, reason,	\
		  copy, clear, ...)					\
  { name, FC_VENDOR_##vendor, measured, family_min, family_max,	\
    model_min, model_max, requires,					\
    { FC_IMPL_##copy, FC_IMPL_##clear, __VA_ARGS__ }, evidence, reason },

static const struct fc_policy_row auto_rows[] = {
#include "policy.def"
};

static const struct fc_policy_row seed_rows[] = {
#include "policy-seed.def"
};
#undef FC_POLICY

/* Every row gives a value for every key: too many would not compile, too
   few would leave zeros.  */
#define FC_COUNT(...) \
  FC_COUNT_ (__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define FC_COUNT_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, \
		  a14, a15, a16, n, ...) n
#define FC_POLICY(name, vendor, family_min, family_max, model_min,	\
		  model_max, requires, measured, evidence, reason, ...)	\
  _Static_assert (FC_COUNT (__VA_ARGS__) == FC_KEY_COUNT,		\
		  "policy row " name ": one value per key of keys.def");
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
row_matches (const struct fc_policy_row *r, const struct fastcopy_cpu *cpu,
	     enum fc_vendor vendor)
{
  return (r->vendor == FC_VENDOR_ANY || r->vendor == vendor)
	 && cpu->family >= r->family_min && cpu->family <= r->family_max
	 && cpu->model >= r->model_min && cpu->model <= r->model_max
	 && (r->requires & ~cpu->features) == 0;
}

const struct fc_policy_row *
fc_policy_match (const struct fastcopy_cpu *cpu, enum fc_table table)
{
  size_t n;
  const struct fc_policy_row *rows = fc_policy_rows (table, &n);
  enum fc_vendor vendor = fc_cpu_vendor (cpu);
  for (size_t i = 0; i + 1 < n; i++)
    if (row_matches (&rows[i], cpu, vendor))
      return &rows[i];
  return &rows[n - 1];
}

size_t
fc_policy_size (const struct fastcopy_cpu *cpu, unsigned long long value)
{
  if (value == FC_NEVER || !(value & FC_L3_FLAG))
    return (size_t) value;
  unsigned long long l3 = cpu->l3_size ? cpu->l3_size : FC_L3_UNKNOWN;
  unsigned long long num = (value >> 16) & 0xffff, den = value & 0xffff;
  return (size_t) (l3 * num / (den ? den : 1));
}

int
fc_impl_key (enum fastcopy_family family)
{
  return family == FASTCOPY_FAMILY_COPY ? FC_KEY_COPY : FC_KEY_CLEAR;
}

/* impl-list.def's own_rep of ID.  */
static FC_EARLY unsigned long long
own_rep (enum fc_impl_id id)
{
  switch (id)
    {
#define FC_IMPL(id, family, name, function, requires, traits, own_rep, summary) \
    case FC_IMPL_##id: return own_rep;
#include "impl-list.def"
#undef FC_IMPL
    default:
      return FC_ROW;
    }
}

void
fc_plan_make (const struct fastcopy_cpu *cpu, const struct fc_layer *settings,
	      struct fc_plan *plan)
{
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      int key = fc_impl_key ((enum fastcopy_family) f);
      const struct fc_item *it = &settings->item[key];
      if (it->set && it->value >= FC_CHOICE_IMPL (0))
	{
	  plan->impl[f] = (unsigned char) (it->value - FC_CHOICE_IMPL (0));
	  plan->row[f] = NULL;
	  continue;
	}
      int seed = it->set && it->value == FC_CHOICE_SEED;
      const struct fc_policy_row *row
	= fc_policy_match (cpu, seed ? FC_TABLE_SEED : FC_TABLE_AUTO);
      plan->impl[f] = (unsigned char) row->value[key];
      plan->row[f] = row;
    }
  fc_plan_thresholds (cpu, settings, plan);
}

/* Thresholds come from the row that chose the family's implementation, or,
   when a setting named it, from the CPU's auto row; an implementation the
   row did not choose brings its own REP threshold if it has one (erms).
   Then the settings override.  */
void
fc_plan_thresholds (const struct fastcopy_cpu *cpu,
		    const struct fc_layer *settings, struct fc_plan *plan)
{
  const struct fc_policy_row *auto_row = NULL;
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      if (fc_key_type (k) == FASTCOPY_SETTING_IMPL)
	continue;
      enum fastcopy_family f = fc_key_family (k);
      const struct fc_policy_row *row = plan->row[f];
      if (row == NULL)
	{
	  if (auto_row == NULL)
	    auto_row = fc_policy_match (cpu, FC_TABLE_AUTO);
	  row = auto_row;
	}
      enum fc_impl_id impl = (enum fc_impl_id) plan->impl[f];
      unsigned long long v = row->value[k];
      if (fc_key_trait (k) == FC_TRAIT_REP
	  && row->value[fc_impl_key (f)] != impl && own_rep (impl) != FC_ROW)
	v = own_rep (impl);
      plan->defaults.value[k] = fc_policy_size (cpu, v);
      const struct fc_item *it = &settings->item[k];
      plan->values.value[k] = it->set ? (size_t) it->value
				      : plan->defaults.value[k];
    }
}

int
fc_family_key (enum fastcopy_family family, unsigned int trait)
{
  for (int k = 0; k < FC_KEY_COUNT; k++)
    if (fc_key_family (k) == family && fc_key_trait (k) == trait)
      return k;
  return -1;
}

void
fc_plan_reason (const struct fc_plan *plan, const struct fc_layer *settings,
		const char *path, enum fastcopy_family family, char *buf,
		size_t size)
{
  int key = fc_impl_key (family);
  const struct fc_item *it = &settings->item[key];
  const char *row_reason = plan->row[family] ? plan->row[family]->reason : "";
  if (!it->set)
    {
      snprintf (buf, size, "%s", row_reason);
      return;
    }
  char origin[FC_PATH_MAX + 32];
  if (it->src == FC_SRC_FILE)
    snprintf (origin, sizeof origin, "%s:%u", path, it->line);
  else
    snprintf (origin, sizeof origin, "FASTCOPY item %u", it->line);
  if (it->value == FC_CHOICE_AUTO || it->value == FC_CHOICE_SEED)
    snprintf (buf, size, "%s: %s=%s; %s", origin, fc_key_name (key),
	      it->value == FC_CHOICE_AUTO ? "auto" : "seed", row_reason);
  else
    snprintf (buf, size, "%s: %s=%s", origin, fc_key_name (key),
	      fc_impl_table[plan->impl[family]].name);
}

void
fc_plan_warnings (const struct fc_plan *plan, const struct fc_layer *settings,
		  struct fc_diags *diags)
{
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      unsigned int traits = fc_impl_table[plan->impl[f]].traits;
      int rep = fc_family_key ((enum fastcopy_family) f, FC_TRAIT_REP);
      int nt = fc_family_key ((enum fastcopy_family) f, FC_TRAIT_NT);
      if (rep < 0 || nt < 0 || (traits & (FC_TRAIT_REP | FC_TRAIT_NT))
			       != (FC_TRAIT_REP | FC_TRAIT_NT))
	continue;
      const struct fc_item *rep_it = &settings->item[rep];
      const struct fc_item *nt_it = &settings->item[nt];
      size_t rep_v = plan->values.value[rep], nt_v = plan->values.value[nt];
      if ((rep_it->set || nt_it->set) && rep_v != SIZE_MAX && rep_v >= nt_v)
	{
	  const struct fc_item *who = rep_it->set ? rep_it : nt_it;
	  fc_diag_add (diags, FC_W_REP_ABOVE_NT, who->src, who->line, rep,
		       nt_v, "", 0);
	}
    }
}

void
fc_layer_warnings (const struct fc_layer *layer, struct fc_diags *diags)
{
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      int rep = fc_family_key ((enum fastcopy_family) f, FC_TRAIT_REP);
      int nt = fc_family_key ((enum fastcopy_family) f, FC_TRAIT_NT);
      if (rep < 0 || nt < 0)
	continue;
      const struct fc_item *rep_it = &layer->item[rep];
      const struct fc_item *nt_it = &layer->item[nt];
      if (rep_it->set && nt_it->set && rep_it->value != FC_NEVER
	  && rep_it->value >= nt_it->value)
	fc_diag_add (diags, FC_W_REP_ABOVE_NT, rep_it->src, rep_it->line, rep,
		     nt_it->value, "", 0);
    }
}
