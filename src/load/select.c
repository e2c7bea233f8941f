/* SPDX-License-Identifier: MIT */
/* The selection (plan.h): which implementation and thresholds a CPU gets
   under some settings.  The whole decision is fc_select below, the rows
   aside (policy.def); it reads the CPU, the settings and the constant
   tables and writes only the plan it is given.  It runs inside the IFUNC
   resolvers (FC_EARLY: no libc, no relocated data).  */

#include "plan.h"

int
fc_impl_key (enum fastcopy_family family)
{
  return family == FASTCOPY_FAMILY_COPY ? FC_KEY_COPY : FC_KEY_CLEAR;
}

/* The first row of TABLE that CPU meets: its vendor, family and model
   ranges and features.  The last row of a table meets any CPU.  */
static FC_EARLY const struct fc_policy_row *
matching_row (const struct fc_cpu *cpu, enum fc_table table)
{
  size_t n;
  const struct fc_policy_row *rows = fc_policy_rows (table, &n);
  const struct fastcopy_cpu *c = &cpu->id;
  for (size_t i = 0; i + 1 < n; i++)
    {
      const struct fc_policy_row *r = &rows[i];
      if ((r->vendor == FC_VENDOR_ANY || r->vendor == cpu->vendor)
	  && c->family >= r->family_min && c->family <= r->family_max
	  && c->model >= r->model_min && c->model <= r->model_max
	  && fc_cpu_lacks (cpu, r->requires) == 0)
	return r;
    }
  return &rows[n - 1];
}

/* SETTINGS give BOOL key K, on.  */
static FC_EARLY int
setting_on (const struct fc_layer *settings, int key)
{
  const struct fc_item *it = &settings->item[key];
  return it->set && it->number != 0;
}

struct fc_threshold
fc_size_threshold (unsigned long long number)
{
  struct fc_threshold t = { number, FC_THRESHOLD_BYTES, 0, 0, 0 };
  if (number == FC_NEVER)
    t.kind = FC_THRESHOLD_NEVER;
  return t;
}

void
fc_select (const struct fc_cpu *cpu, const struct fc_layer *settings,
	   const struct fc_plan *kept, unsigned int kept_families,
	   struct fc_plan *plan)
{
  /* The rows: the auto row that the policy setting names, or else the
     one this CPU matches; and the seed rule's, for copy=seed and
     clear=seed.  */
  const struct fc_item *policy = &settings->item[FC_KEY_POLICY];
  const struct fc_policy_row *auto_row
    = policy->set && policy->policy.named
      ? fc_policy_row_at (policy->policy.row) : NULL;
  if (auto_row == NULL)
    auto_row = matching_row (cpu, FC_TABLE_AUTO);
  const struct fc_policy_row *seed_row = matching_row (cpu, FC_TABLE_SEED);

  /* Each family's implementation: the one a setting names, or its row's.  */
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      if (kept_families & (1u << f))
	{
	  plan->impl[f] = kept->impl[f];
	  plan->worker[f] = kept->worker[f];
	  plan->row[f] = kept->row[f];
	  continue;
	}
      const struct fc_item *it = &settings->item[fc_impl_key (f)];
      if (it->set && it->impl.how == FC_CHOOSE_IMPL)
	{
	  plan->impl[f] = it->impl.impl;
	  plan->row[f] = NULL;
	}
      else
	{
	  plan->row[f] = it->set && it->impl.how == FC_CHOOSE_SEED
			 ? seed_row : auto_row;
	  plan->impl[f] = (unsigned char)
	    fc_row_impl (plan->row[f], (enum fastcopy_family) f);
	}
      plan->worker[f] = plan->impl[f];
    }

  /* The thresholds come from the row that chose the family's
     implementation, or, when a setting named it, from the auto row; an
     implementation that row did not choose brings its own REP threshold
     if it has one (erms).  Then the settings override.  */
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      plan->values.size[k] = plan->defaults.size[k]
	= fc_size_threshold (FC_NEVER);
      plan->values.on[k] = plan->defaults.on[k] = 0;
    }
  for (int k = 0; k < FC_KEY_POLICY; k++)
    {
      enum fastcopy_family f = fc_key_family (k);
      const struct fc_policy_row *row = plan->row[f] ? plan->row[f]
						     : auto_row;
      const struct fc_item *it = &settings->item[k];
      if (fc_key_type (k) == FASTCOPY_SETTING_BOOL)
	{
	  plan->defaults.on[k] = fc_row_on (row, k);
	  plan->values.on[k] = it->set ? (unsigned char) it->number
				       : plan->defaults.on[k];
	}
      else if (fc_key_type (k) == FASTCOPY_SETTING_SIZE)
	{
	  unsigned long long own = fc_impl_table[plan->worker[f]].rep_when_named;
	  plan->defaults.size[k]
	    = fc_key_trait (k) == FC_TRAIT_REP && own != FC_FROM_ROW
	      && fc_row_impl (row, f) != plan->worker[f]
	      ? fc_size_threshold (own) : fc_row_threshold (row, k);
	  plan->values.size[k] = it->set ? fc_size_threshold (it->number)
					 : plan->defaults.size[k];
	}
    }

  /* glibc=on says whether glibc's functions are asked for; resolve.c
     turns it off if it cannot bind them.  They replace every
     implementation of this library, the recording's too.  */
  int glibc = setting_on (settings, FC_KEY_GLIBC);
  plan->values.on[FC_KEY_GLIBC] = (unsigned char) glibc;
  const struct fc_item *profile = &settings->item[FC_KEY_PROFILE];
  if (profile->set && profile->path != NULL && !glibc)
    for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
      if (!(kept_families & (1u << f)))
	plan->impl[f] = f == FASTCOPY_FAMILY_COPY ? FC_IMPL_COPY_PROFILE
						  : FC_IMPL_CLEAR_PROFILE;
}
