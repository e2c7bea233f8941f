/* SPDX-License-Identifier: MIT */
/* The plan (plan.h): a pure function of the CPU, the policy rows and the
   settings, which writes only the plan it is given; and, for the tools,
   why it chose what it chose and what looks wrong in it.  */

#include <stdint.h>
#include <stdio.h>
#include "plan.h"

int
fc_impl_key (enum fastcopy_family family)
{
  return family == FASTCOPY_FAMILY_COPY ? FC_KEY_COPY : FC_KEY_CLEAR;
}

/* The profile setting asks for a recording.  */
static FC_EARLY int
profiling (const struct fc_layer *settings)
{
  const struct fc_item *it = &settings->item[FC_KEY_PROFILE];
  return it->set && it->value != 0;
}

/* glibc=on: the exported functions are to call glibc's own.  */
static FC_EARLY int
glibc_asked (const struct fc_layer *settings)
{
  const struct fc_item *it = &settings->item[FC_KEY_GLIBC];
  return it->set && it->value != 0;
}

/* The auto row the policy setting names, or else the one this CPU
   matches.  */
static FC_EARLY const struct fc_policy_row *
policy_row (const struct fc_cpu *cpu, const struct fc_layer *settings)
{
  const struct fc_item *it = &settings->item[FC_KEY_POLICY];
  const struct fc_policy_row *row = it->set ? fc_policy_chosen (it->value)
					    : NULL;
  return row != NULL ? row : fc_policy_match (cpu, FC_TABLE_AUTO);
}

void
fc_plan_make (const struct fc_cpu *cpu, const struct fc_layer *settings,
	      struct fc_plan *plan)
{
  const struct fc_policy_row *named = policy_row (cpu, settings);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      int key = fc_impl_key ((enum fastcopy_family) f);
      const struct fc_item *it = &settings->item[key];
      if (it->set && it->value >= FC_CHOICE_IMPL (0))
	{
	  plan->impl[f] = (unsigned char) (it->value - FC_CHOICE_IMPL (0));
	  plan->row[f] = NULL;
	}
      else
	{
	  const struct fc_policy_row *row
	    = it->set && it->value == FC_CHOICE_SEED
	      ? fc_policy_match (cpu, FC_TABLE_SEED) : named;
	  plan->impl[f] = (unsigned char) row->value[key];
	  plan->row[f] = row;
	}
      plan->worker[f] = plan->impl[f];
    }
  fc_plan_thresholds (cpu, settings, plan);
  /* The glibc word says whether glibc's functions are asked for;
     resolve.c clears it if it cannot bind them.  They replace every
     implementation of this library, the recording's too.  */
  plan->values.value[FC_KEY_GLIBC] = (size_t) glibc_asked (settings);
  plan->defaults.value[FC_KEY_GLIBC] = 0;
  if (profiling (settings) && !glibc_asked (settings))
    {
      plan->impl[FASTCOPY_FAMILY_COPY] = FC_IMPL_COPY_PROFILE;
      plan->impl[FASTCOPY_FAMILY_CLEAR] = FC_IMPL_CLEAR_PROFILE;
    }
}

/* Thresholds come from the row that chose the family's implementation, or,
   when a setting named it, from the policy's row; an implementation the
   row did not choose brings its own REP threshold if it has one (erms).
   Then the settings override.  */
void
fc_plan_thresholds (const struct fc_cpu *cpu,
		    const struct fc_layer *settings, struct fc_plan *plan)
{
  const struct fc_policy_row *named = NULL;
  for (int k = 0; k < FC_KEY_POLICY; k++)
    {
      enum fastcopy_setting_type type = fc_key_type (k);
      if (type != FASTCOPY_SETTING_SIZE && type != FASTCOPY_SETTING_BOOL)
	continue;
      enum fastcopy_family f = fc_key_family (k);
      const struct fc_policy_row *row = plan->row[f];
      if (row == NULL)
	{
	  if (named == NULL)
	    named = policy_row (cpu, settings);
	  row = named;
	}
      enum fc_impl_id impl = (enum fc_impl_id) plan->worker[f];
      unsigned long long v = row->value[k];
      unsigned long long own = fc_impl_table[impl].rep_when_named;
      if (fc_key_trait (k) == FC_TRAIT_REP
	  && row->value[fc_impl_key (f)] != impl && own != FC_FROM_ROW)
	v = own;
      plan->defaults.value[k] = fc_policy_size (cpu, v);
      const struct fc_item *it = &settings->item[k];
      plan->values.value[k] = it->set ? fc_threshold_word (it->value)
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
  if (plan->impl[family] != plan->worker[family])
    {
      /* Recording: say so, then why the implementation it calls.  */
      const struct fc_item *p = &settings->item[FC_KEY_PROFILE];
      int len = snprintf (buf, size, "FASTCOPY item %u: profile=%.*s, "
			  "recording; then %s: ", p->line, (int) p->text_len,
			  (const char *) (unsigned long) p->value,
			  fc_impl_table[plan->worker[family]].name);
      if (len < 0 || (size_t) len >= size)
	return;
      buf += len;
      size -= (size_t) len;
    }
  int key = fc_impl_key (family);
  const struct fc_item *it = &settings->item[key];
  const struct fc_policy_row *row = plan->row[family];
  const char *row_reason = row ? row->reason : "";
  if (!it->set || (it->value == FC_CHOICE_AUTO && row != NULL
		   && settings->item[FC_KEY_POLICY].set))
    {
      /* The row chose it: the policy's, or the one a setting named.  */
      key = FC_KEY_POLICY;
      it = &settings->item[key];
      if (!it->set)
	{
	  snprintf (buf, size, "%s", row_reason);
	  return;
	}
    }
  char origin[FC_PATH_MAX + 32];
  if (it->src == FC_SRC_FILE)
    snprintf (origin, sizeof origin, "%s:%u", path, it->line);
  else
    snprintf (origin, sizeof origin, "FASTCOPY item %u", it->line);
  if (key == FC_KEY_POLICY)
    snprintf (buf, size, "%s: policy=%s; %s", origin, row->name, row_reason);
  else if (it->value == FC_CHOICE_AUTO || it->value == FC_CHOICE_SEED)
    snprintf (buf, size, "%s: %s=%s; %s", origin, fc_key_name (key),
	      it->value == FC_CHOICE_AUTO ? "auto" : "seed", row_reason);
  else
    snprintf (buf, size, "%s: %s=%s", origin, fc_key_name (key),
	      fc_impl_table[plan->worker[family]].name);
}

/* profile_signal names a signal, but nothing is recorded: no profile
   path.  It still applies (it does nothing), so this is a warning.  */
static void
signal_warning (const struct fc_layer *layer, struct fc_diags *diags)
{
  const struct fc_item *sig = &layer->item[FC_KEY_PROFILE_SIGNAL];
  if (sig->set && sig->value != 0 && !profiling (layer))
    fc_diag_add (diags, FC_W_SIGNAL_WITHOUT_PROFILE, sig->src, sig->line,
		 FC_KEY_PROFILE_SIGNAL, 0, "", 0);
}

/* profile with glibc=on: glibc's functions are called, nothing is
   recorded.  */
static void
glibc_profile_warning (const struct fc_layer *layer, struct fc_diags *diags)
{
  const struct fc_item *p = &layer->item[FC_KEY_PROFILE];
  if (profiling (layer) && glibc_asked (layer))
    fc_diag_add (diags, FC_W_PROFILE_WITH_GLIBC, p->src, p->line,
		 FC_KEY_PROFILE, 0, "", 0);
}

void
fc_plan_warnings (const struct fc_plan *plan, const struct fc_layer *settings,
		  struct fc_diags *diags)
{
  signal_warning (settings, diags);
  glibc_profile_warning (settings, diags);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      unsigned int traits = fc_impl_table[plan->worker[f]].traits;
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
  signal_warning (layer, diags);
  glibc_profile_warning (layer, diags);
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
