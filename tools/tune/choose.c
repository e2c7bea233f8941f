/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: measuring every candidate of a family against glibc and
   choosing one (fastcopy-tune(1), CHOOSING).

   The thresholds the candidates read are the library's, one value for the
   whole process, so candidates are measured one at a time: each sample
   sets its candidate's thresholds with fastcopy_set and calls the
   implementation's table entry directly.  A point holds glibc and the
   candidates of one implementation (at most FCM_MAX_FNS functions), so
   that every ratio compares samples taken side by side.  Candidates that
   take the same path at every size of the workloads share one
   measurement of them.  */

#include <stdio.h>
#include <string.h>

#include "tune.h"

struct chunk
{
  struct family *f;
  int n;
  int idx[FCM_MAX_FNS];		/* candidate of function k + 1 */
};

static void
on_result (const struct tpoint *p, const double *med, void *arg)
{
  const struct chunk *ch = arg;
  for (int k = 0; k < ch->n; k++)
    figures_add (&ch->f->c[ch->idx[k]].fig, p, med[k + 1] / med[0]);
  if (!opt.verbose)
    return;
  char b[64];
  printf ("#   %-24s glibc %10.1f ns:", point_text (p, b, sizeof b), med[0]);
  for (int k = 0; k < ch->n; k++)
    printf (" %.3f", med[k + 1] / med[0]);
  putchar ('\n');
}

/* Measure candidates FIRST .. END-1 (one implementation's) on every
   point; the workloads only for those that do not share.  */
static void
measure_chunk (struct family *f, int first, int end,
	       const struct fcm_fn *glibc, struct fcm_fn *fns)
{
  unsigned int rounds = opt.quick ? 5 : 9;
  const struct fcm_fn *set[FCM_MAX_FNS];
  struct chunk ch = { .f = f };
  char label[96];
  snprintf (label, sizeof label, "%s %s, candidates %d-%d of %d", f->name,
	    f->c[first].impl->name, first + 1, end, f->n);
  for (int pass = 0; pass < 2; pass++)
    {
      set[0] = glibc;
      ch.n = 0;
      for (int i = first; i < end; i++)
	if (pass == 1 || f->c[i].shares == i)
	  {
	    set[ch.n + 1] = &fns[i];
	    ch.idx[ch.n++] = i;
	  }
      if (opt.verbose)
	{
	  printf ("# %s, %s:", label, pass ? "fixed sizes" : "workloads");
	  for (int k = 0; k < ch.n; k++)
	    printf ("%s %s", k ? "," : "", f->c[ch.idx[k]].label);
	  putchar ('\n');
	}
      unsigned int kinds = pass ? PK_ALL & ~PK_BIT (PK_WORKLOAD)
				: PK_BIT (PK_WORKLOAD);
      if (ch.n > 0)
	points_run (&f->points, kinds, set, ch.n + 1, rounds, on_result, &ch,
		    label);
    }
}

static void
measure_all (struct family *f)
{
  static struct fcm_fn fns[MAX_CANDIDATES];
  struct fcm_fn glibc = glibc_fn (f->id);
  for (int i = 0; i < f->n; i++)
    {
      figures_reset (&f->c[i].fig);
      fns[i] = impl_fn (f->c[i].impl, f->c[i].items);
    }
  for (int first = 0; first < f->n;)
    {
      int end = first + 1;
      while (end < f->n && end - first < FCM_MAX_FNS - 1
	     && f->c[end].impl == f->c[first].impl)
	end++;
      measure_chunk (f, first, end, &glibc, fns);
      first = end;
    }
  progress_done ();
  for (int i = 0; i < f->n; i++)
    {
      struct candidate *c = &f->c[i];
      if (c->shares != i)
	memcpy (c->fig.dist, f->c[c->shares].fig.dist, sizeof c->fig.dist);
      figures_finish (&c->fig);
    }
}

/* The objective (objective.c) over F's candidates' figures, into FIG.  */
static void
pick (struct family *f, struct figures *fig)
{
  for (int i = 0; i < f->n; i++)
    fig[i] = f->c[i].fig;
  f->chosen = objective_choose (fig, f->n, f->dflt);
  /* The objective always chooses (test-objective checks it); should it
     not, a message rather than a candidate read from before the table.  */
  if (f->chosen < 0)
    error_exit (1, "%s: the objective chose none of %d candidates", f->name,
		f->n);
}

static void
print_table (const struct family *f, const struct figures *fig)
{
  int width = 0, eligible = 0;
  for (int i = 0; i < f->n; i++)
    {
      int len = (int) strlen (f->c[i].label);
      width = len > width ? len : width;
      eligible += objective_eligible (fig, f->n, f->dflt, i);
    }
  printf ("#\n# %s: %d candidates against glibc %s's %s; ratio = time / "
	  "glibc's time\n", f->name, f->n, glibc_version (),
	  f->id == FASTCOPY_FAMILY_COPY ? "memcpy" : "memset");
  figures_print_heading (f->id, width);
  for (int i = 0; i < f->n; i++)
    {
      printf ("#   %c %-*s", i == f->chosen ? '*' : ' ', width,
	      f->c[i].label);
      figures_print (&f->c[i].fig, f->id);
    }
  const struct candidate *c = &f->c[f->chosen];
  int measured = 0;
  for (int i = 0; i < f->points.n; i++)
    measured |= f->points.p[i].kind == PK_WORKLOAD;
  if (!measured)
    printf ("# %s: no workload has calls of this family: its %s "
	    "figure is 1 for\n#   every candidate, and the fixed sizes "
	    "decide\n", f->name, workloads_name ());
  printf ("# %s: chose %s: the least %s geomean (%.3f) of the "
	  "%d candidate%s\n#   not slower there than the default (%.3f) nor "
	  "on the hot sizes (%.3f),\n#   and with no fixed size over %.3f\n",
	  f->name, c->label, workloads_name (), c->fig.dist_geomean, eligible,
	  eligible == 1 ? "" : "s", f->c[f->dflt].fig.dist_geomean,
	  figures_hot_geomean (&f->c[f->dflt].fig),
	  objective_worst_bound (fig, f->n, f->dflt));
}

void
choose (struct family *f)
{
  static struct figures fig[MAX_CANDIDATES];
  measure_all (f);
  pick (f, fig);
  print_table (f, fig);
}
