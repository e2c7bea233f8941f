/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: the chosen candidate against the library's default,
   measured again.  The choice is the best of many figures, each with its
   noise, so its own figures flatter it; a fresh measurement of the two
   side by side (with glibc, more rounds), on every point the choice was
   made on, says what installing it gains, and whether it still passes the
   objective's first two rules against the default (objective.c): not
   slower on the workloads beyond the noise, no fixed size traded for
   them.  --write writes only a choice that does.  */

#include <stdio.h>

#include "tune.h"

static void
on_result (const struct tpoint *p, const double *med, void *arg)
{
  struct figures *fig = arg;
  figures_add (&fig[0], p, med[1] / med[0]);
  figures_add (&fig[1], p, med[2] / med[0]);
}

int
compare (struct family *f, const struct family *s)
{
  const struct candidate *d = &f->c[f->dflt], *c = &f->c[f->chosen];
  if (f->chosen == f->dflt)
    {
      printf ("# %s: the chosen settings are the default ones\n", f->name);
      return 1;
    }
  struct fcm_fn glibc = glibc_fn (f->id);
  struct fcm_fn fd = impl_fn (d->impl, d->items);
  struct fcm_fn fc = impl_fn (c->impl, c->items);
  const struct fcm_fn *set[3] = { &glibc, &fd, &fc };
  struct figures fig[2];
  figures_reset (&fig[0]);
  figures_reset (&fig[1]);
  char label[64];
  unsigned int rounds = opt.quick ? 9 : 15;
  snprintf (label, sizeof label, "%s, chosen against default", f->name);
  points_run (&f->points, PK_ALL, set, 3, rounds, on_result, fig, label);
  /* The streaming stage's large sizes too, where it ran.  */
  if (s != NULL)
    points_run (&s->points, PK_BIT (PK_HOT) | PK_BIT (PK_COLD), set, 3,
		rounds, on_result, fig, label);
  progress_done ();
  figures_finish (&fig[0]);
  figures_finish (&fig[1]);
  printf ("#\n# %s: the chosen candidate against the default, measured "
	  "again side by side:\n", f->name);
  figures_print_heading (f->id, 40);
  printf ("#     %-40s", d->label);
  figures_print (&fig[0], f->id);
  printf ("#     %-40s", c->label);
  figures_print (&fig[1], f->id);
  printf ("# %s: the chosen settings take %.3f of the default's time on the "
	  "%s (geomean)\n", f->name, fig[1].dist_geomean / fig[0].dist_geomean,
	  workloads_name ());
  int confirmed = objective_eligible (fig, 2, 0, 1);
  if (!confirmed)
    printf ("# %s: measured again, the chosen settings are slower than the "
	    "default:\n#   %.3f of glibc on the %s against %.3f, "
	    "worst fixed size %.3f against %.3f\n", f->name,
	    fig[1].dist_geomean, workloads_name (), fig[0].dist_geomean,
	    figures_worst (&fig[1]),
	    figures_worst (&fig[0]));
  return confirmed;
}
