/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: the candidates of a family, in two stages.

   1. Every implementation in the library's table that this CPU can run
      (but the profile ones, which only record and call another), and for
      one that reads a REP threshold every value of the default, never, 2,
      4, 16 and 64 KiB; the streaming threshold the library's default.
   2. For the candidate stage 1 chose, if it reads a streaming threshold:
      the default, never, and 4, 8, 16, 32, 64, 128 and 256 MiB, measured
      on large copies hot (a destination in cache) and cold
      (stream_points_plan).  A fixed ladder, not fractions of the L3: the
      L3 glibc reports can be the host's or a legacy leaf's (320 MiB in
      AMD's KVM guests for a 32 MiB L3), and the ladder spans the L3s of
      the machines measured either way.
   (The defaults are the library's for this CPU, as fastcopy-info shows
   them.)  A candidate that takes the same path as an earlier one of its
   implementation at every size measured is left out: nothing measured
   could tell them apart.  The defaults come first, so they are the ones
   kept.  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

/* The key of FAMILY's setting read by implementations with TRAIT.  */
static const char *
setting_name (enum fastcopy_family family, unsigned int trait)
{
  for (size_t i = 0; i < fastcopy_setting_count (); i++)
    {
      const struct fastcopy_setting *s = fastcopy_setting_at (i);
      if (s->family == family && s->trait == trait)
	return s->key;
    }
  error_exit (1, "the library has no %s setting for trait %u",
	      family == FASTCOPY_FAMILY_COPY ? "copy" : "clear", trait);
}

/* The default of setting KEY in bytes, or NEVER: the library wrote it
   with the formatter its parser reads.  */
static unsigned long long
default_of (const char *key)
{
  const struct fastcopy_setting *s = fastcopy_setting_find (key);
  unsigned long long v;
  if (s == NULL || fc_size_parse (s->default_value, strlen (s->default_value),
				  &v) != FC_SIZE_OK)
    return NEVER;
  return v;
}

/* Append V to the N values of LADDER unless it is there.  */
static int
push (unsigned long long *ladder, int n, unsigned long long v)
{
  for (int i = 0; i < n; i++)
    if (ladder[i] == v)
      return n;
  ladder[n] = v;
  return n + 1;
}

char
candidate_path (const struct candidate *c, size_t n)
{
  if ((c->impl->traits & FASTCOPY_TRAIT_NT) && n >= c->nt)
    return 'S';
  if ((c->impl->traits & FASTCOPY_TRAIT_REP) && n >= c->rep)
    return 'R';
  return 'V';
}

static int
same_paths (const struct candidate *a, const struct candidate *b,
	    const size_t *sizes, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (candidate_path (a, sizes[i]) != candidate_path (b, sizes[i]))
      return 0;
  return 1;
}

static void
describe (struct family *f, struct candidate *c)
{
  char r[32], s[32];
  /* As a configuration line says them: "2KiB", "never".  */
  fc_size_format (c->rep, FC_SIZE_EXACT, r, sizeof r);
  fc_size_format (c->nt, FC_SIZE_EXACT, s, sizeof s);
  snprintf (c->items, sizeof c->items, "%s=%s,%s=%s", f->rep_key, r,
	    f->nt_key, s);
  int len = snprintf (c->label, sizeof c->label, "%s", c->impl->name);
  if (c->impl->traits & FASTCOPY_TRAIT_REP)
    len += snprintf (c->label + len, sizeof c->label - (size_t) len,
		     " rep=%s", r);
  if (c->impl->traits & FASTCOPY_TRAIT_NT)
    len += snprintf (c->label + len, sizeof c->label - (size_t) len,
		     " nt=%s", s);
  if (c->is_default)
    snprintf (c->label + len, sizeof c->label - (size_t) len, " (default)");
}

/* F's candidates: for every usable implementation, or only ONLY, every
   combination of the NREP values REP and the NNT values NT that it reads,
   less the duplicates (above).  The first candidate of implementation
   DFLT becomes F's default.  */
static void
make_list (struct family *f, const struct fastcopy_impl *only,
	   const struct fastcopy_impl *dflt, const unsigned long long *rep,
	   int nrep, const unsigned long long *nt, int nnt)
{
  size_t *fixed, *used;
  size_t nfixed = points_sizes (&f->points, 0, &fixed);
  size_t nused = points_sizes (&f->points, 1, &used);
  f->n = 0;
  f->dflt = -1;
  const struct fastcopy_impl *impl;
  for (size_t i = 0; (impl = fastcopy_impl_at (i)) != NULL; i++)
    {
      if (impl->family != f->id || !fastcopy_impl_usable (impl)
	  || (impl->traits & FASTCOPY_TRAIT_PROFILE)
	  || (only != NULL && impl != only))
	continue;
      int reads_rep = (impl->traits & FASTCOPY_TRAIT_REP) != 0;
      int reads_nt = (impl->traits & FASTCOPY_TRAIT_NT) != 0;
      int first = f->n;
      for (int t = 0; t < (reads_nt ? nnt : 1); t++)
	for (int r = 0; r < (reads_rep ? nrep : 1); r++)
	  {
	    if (f->n == MAX_CANDIDATES)
	      error_exit (1, "more than %d candidates", MAX_CANDIDATES);
	    struct candidate *c = &f->c[f->n];
	    memset (c, 0, sizeof *c);
	    c->impl = impl;
	    c->rep = reads_rep ? rep[r] : NEVER;
	    c->nt = reads_nt ? nt[t] : NEVER;
	    int known = 0;
	    for (int k = first; k < f->n && !known; k++)
	      known = same_paths (c, &f->c[k], fixed, nfixed)
		      && same_paths (c, &f->c[k], used, nused);
	    if (known)
	      continue;
	    c->shares = f->n;
	    for (int k = first; k < f->n; k++)
	      if (same_paths (c, &f->c[k], used, nused))
		{
		  c->shares = k;
		  break;
		}
	    if (impl == dflt && f->dflt < 0)
	      {
		c->is_default = 1;
		f->dflt = f->n;
	      }
	    describe (f, c);
	    f->n++;
	  }
    }
  free (fixed);
  free (used);
  if (f->dflt < 0)
    error_exit (1, "the library's %s implementation %s is not usable here",
		f->name, dflt->name);
}

static void
name_family (struct family *f)
{
  f->name = f->id == FASTCOPY_FAMILY_COPY ? "copy" : "clear";
  f->rep_key = setting_name (f->id, FASTCOPY_TRAIT_REP);
  f->nt_key = setting_name (f->id, FASTCOPY_TRAIT_NT);
}

void
candidates_make (struct family *f)
{
  name_family (f);
  unsigned long long rep[8], nt = default_of (f->nt_key);
  int nrep = 0;
  nrep = push (rep, nrep, default_of (f->rep_key));
  nrep = push (rep, nrep, NEVER);
  static const unsigned long long rep_sizes[] = { 2 * KiB, 4 * KiB,
						  16 * KiB, 64 * KiB };
  for (size_t i = 0; i < sizeof rep_sizes / sizeof *rep_sizes; i++)
    nrep = push (rep, nrep, rep_sizes[i]);
  points_plan (&f->points, f->id, &nt, 1);
  const struct fastcopy_policy *row = fastcopy_policy_matched ("auto");
  make_list (f, NULL, f->id == FASTCOPY_FAMILY_COPY ? row->copy : row->clear,
	     rep, nrep, &nt, 1);
}

int
stream_candidates_make (struct family *s, const struct family *f)
{
  const struct candidate *chosen = &f->c[f->chosen];
  if (!(chosen->impl->traits & FASTCOPY_TRAIT_NT))
    return 0;
  s->id = f->id;
  name_family (s);
  s->name = s->id == FASTCOPY_FAMILY_COPY ? "copy streaming"
					   : "clear streaming";
  static const unsigned long long ladder[] = { 4 * MiB, 8 * MiB, 16 * MiB,
					       32 * MiB, 64 * MiB, 128 * MiB,
					       256 * MiB };
  unsigned long long nt[2 + sizeof ladder / sizeof *ladder];
  int nnt = 0;
  nnt = push (nt, nnt, chosen->nt);
  nnt = push (nt, nnt, NEVER);
  for (size_t i = 0; i < sizeof ladder / sizeof *ladder; i++)
    nnt = push (nt, nnt, ladder[i]);
  stream_points_plan (&s->points, s->id, nt, nnt);
  make_list (s, chosen->impl, chosen->impl, &chosen->rep, 1, nt, nnt);
  /* Stage 2's default is stage 1's choice: what it stands against.  */
  if (f->chosen != f->dflt)
    {
      s->c[s->dflt].is_default = 0;
      describe (s, &s->c[s->dflt]);
      snprintf (s->c[s->dflt].label + strlen (s->c[s->dflt].label),
		sizeof s->c[s->dflt].label - strlen (s->c[s->dflt].label),
		" (stage 1)");
    }
  return s->n > 1;
}

void
candidate_take_nt (struct family *f, const struct family *s)
{
  unsigned long long nt = s->c[s->chosen].nt;
  if (nt == f->c[f->chosen].nt)
    return;
  /* The default stays as it is, to be compared with.  */
  if (f->chosen == f->dflt)
    {
      if (f->n == MAX_CANDIDATES)
	error_exit (1, "more than %d candidates", MAX_CANDIDATES);
      f->c[f->n] = f->c[f->chosen];
      f->c[f->n].is_default = 0;
      f->chosen = f->n++;
    }
  f->c[f->chosen].nt = nt;
  describe (f, &f->c[f->chosen]);
}
