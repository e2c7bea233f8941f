/* SPDX-License-Identifier: MIT */
/* A plan explained (explain.h).  select.c makes it.  */

#include <stdint.h>
#include <stdio.h>
#include "explain.h"

/* The profile setting asks for a recording.  */
static int
profiling (const struct fc_layer *settings)
{
  const struct fc_item *it = &settings->item[FC_KEY_PROFILE];
  return it->set && it->path != NULL;
}

/* glibc=on: the exported functions are to call glibc's own.  */
static int
glibc_asked (const struct fc_layer *settings)
{
  const struct fc_item *it = &settings->item[FC_KEY_GLIBC];
  return it->set && it->number != 0;
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
			  "recording; then %s: ", p->line, (int) p->path_len,
			  p->path,
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
  if (!it->set || (it->impl.how == FC_CHOOSE_AUTO && row != NULL
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
  else if (it->impl.how != FC_CHOOSE_IMPL)
    snprintf (buf, size, "%s: %s=%s; %s", origin, fc_key_name (key),
	      it->impl.how == FC_CHOOSE_AUTO ? "auto" : "seed", row_reason);
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
  if (sig->set && sig->number != 0 && !profiling (layer))
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
fc_plan_warnings (const struct fc_plan *plan, const struct fc_tunables *words,
		  const struct fc_layer *settings, struct fc_diags *diags)
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
      size_t rep_v = words->value[rep], nt_v = words->value[nt];
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
      if (rep_it->set && nt_it->set && rep_it->number != FC_NEVER
	  && rep_it->number >= nt_it->number)
	fc_diag_add (diags, FC_W_REP_ABOVE_NT, rep_it->src, rep_it->line, rep,
		     nt_it->number, "", 0);
    }
}
