/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: the decision, timed as deployed.

   The table of candidates (choose.c) times each implementation's table
   entry called directly, with its thresholds set by fastcopy_set: fast
   enough to measure every candidate, but kinder than the path a written
   setting takes, the exported function and its jump to the
   implementation (deployed.c).  And the choice is the best of many
   figures, each with its noise, so its own figures flatter it.  So the
   decision is made again on a shortlist, each timed as deployed, side by
   side with glibc and more rounds, on every point the choice was made on:
   the default, the choice, and the best candidate of another
   implementation, which may be the one without the jump.  The objective
   chooses among them (objective.c), and a choice that is slower than the
   default on the workloads, as deployed, gives way to the default.  */

#include <stdio.h>
#include <string.h>

#include "tune.h"

struct shortlist
{
  int n;
  int idx[MAX_DEPLOYED];	/* candidates; idx[0] is the default */
  struct figures fig[MAX_DEPLOYED];
};

static void
on_result (const struct tpoint *p, const double *med, void *arg)
{
  struct shortlist *sl = arg;
  for (int k = 0; k < sl->n; k++)
    figures_add (&sl->fig[k], p, med[k + 1] / med[0]);
}

/* The default, the choice, and the best candidate by the table's figures
   of an implementation neither of them is.  */
static void
shortlist_make (const struct family *f, struct shortlist *sl)
{
  static struct figures fig[MAX_CANDIDATES];
  sl->n = 0;
  sl->idx[sl->n++] = f->dflt;
  if (f->chosen != f->dflt)
    sl->idx[sl->n++] = f->chosen;
  for (int i = 0; i < f->n; i++)
    fig[i] = f->c[i].fig;
  int other = -1;
  for (int i = 0; i < f->n; i++)
    if (f->c[i].impl != f->c[f->dflt].impl
	&& f->c[i].impl != f->c[f->chosen].impl
	&& objective_eligible (fig, f->n, f->dflt, i)
	&& (other < 0 || fig[i].dist_geomean < fig[other].dist_geomean))
      other = i;
  if (other >= 0)
    sl->idx[sl->n++] = other;
}

static void
print_table (const struct family *f, const struct shortlist *sl, int pick,
	     char reports[][160])
{
  int width = 0;
  for (int k = 0; k < sl->n; k++)
    {
      int len = (int) strlen (f->c[sl->idx[k]].label);
      width = len > width ? len : width;
    }
  printf ("#\n# %s as deployed: %d candidates against glibc %s's %s, "
	  "through the exported function; ratio = time / glibc's time\n",
	  f->name, sl->n, glibc_version (),
	  f->id == FASTCOPY_FAMILY_COPY ? "memcpy" : "memset");
  figures_print_heading (f->id, width);
  for (int k = 0; k < sl->n; k++)
    {
      printf ("#   %c %-*s", k == pick ? '*' : ' ', width,
	      f->c[sl->idx[k]].label);
      figures_print (&sl->fig[k], f->id);
    }
  for (int k = 0; k < sl->n; k++)
    printf ("# %s as deployed: %s\n", f->name, reports[k]);
}

void
compare (struct family *f, const struct family *s)
{
  struct shortlist sl;
  shortlist_make (f, &sl);
  struct fcm_fn glibc = glibc_fn (f->id);
  struct fcm_fn fns[MAX_DEPLOYED];
  char reports[MAX_DEPLOYED][160];
  const struct fcm_fn *set[MAX_DEPLOYED + 1] = { &glibc };
  for (int k = 0; k < sl.n; k++)
    {
      fns[k] = deployed_fn (f, &f->c[sl.idx[k]], reports[k],
			    sizeof reports[k]);
      set[k + 1] = &fns[k];
      figures_reset (&sl.fig[k]);
    }
  char label[64];
  unsigned int rounds = opt.quick ? 9 : 15;
  snprintf (label, sizeof label, "%s, as deployed", f->name);
  points_run (&f->points, PK_ALL, set, sl.n + 1, rounds, on_result, &sl,
	      label);
  /* The streaming stage's large sizes too, where it ran.  */
  if (s != NULL)
    points_run (&s->points, PK_BIT (PK_HOT) | PK_BIT (PK_COLD), set,
		sl.n + 1, rounds, on_result, &sl, label);
  progress_done ();
  for (int k = 0; k < sl.n; k++)
    figures_finish (&sl.fig[k]);

  int pick = objective_choose (sl.fig, sl.n, 0);
  struct figures pair[2] = { sl.fig[0], sl.fig[pick < 0 ? 0 : pick] };
  int confirmed = pick > 0 && objective_confirmed (pair);
  if (!confirmed)
    pick = 0;
  print_table (f, &sl, pick, reports);
  const struct candidate *d = &f->c[f->dflt];
  if (pick == 0)
    printf ("# %s: keeping the default, %s: as deployed, no candidate "
	    "was faster\n#   on the %s (the default: %.3f of glibc)\n", f->name,
	    d->label, workloads_name (), sl.fig[0].dist_geomean);
  else
    printf ("# %s: chose %s: as deployed, %.3f of the default's time on "
	    "the %s\n", f->name, f->c[sl.idx[pick]].label,
	    sl.fig[pick].dist_geomean / sl.fig[0].dist_geomean,
	    workloads_name ());
  f->chosen = sl.idx[pick];
}
