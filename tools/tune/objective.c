/* SPDX-License-Identifier: MIT */
/* fastcopy-tune's objective (fastcopy-tune(1), CHOOSING): which of a
   family's candidates to write, from their figures against glibc.  A pure
   function of the figures, so that
   testsuite/tools/tune/test-objective.c checks it on made-up ones.

   1. Never slower than the default: only candidates whose workloads
      geomean is at most DIST_NOISE above the default's, and whose geomean
      over the hot sizes (copies into cache) is at most WORST_MARGIN above
      the default's, stay (a streaming threshold must not buy cold sizes
      with hot ones); and when one of those is faster than glibc on the
      workloads (below 1), only those at most DIST_NOISE above glibc.
   2. No workload traded for one fixed size, nor one size for the
      workload: of those, the ones whose worst fixed-size ratio (hot, cold
      or aliasing) is within SLOWER_LIMIT of glibc or within WORST_MARGIN
      of the best worst ratio among them.
   3. The least workloads geomean of what is left, ties broken by the
      lower fixed-size geomean.
   4. Timed again as deployed (compare.c), the decision replaces the
      default only with a candidate that passes 1 and 2 against it and
      is not slower on the workloads at all: what the tuner recommends
      never measured slower than what it replaces.
   Some candidate always passes 1 (the default, or one faster than glibc
   that passed the default's bounds), and the one with the best worst
   ratio among those passes 2: something is always chosen.  (A candidate
   faster than glibc on the workloads but slower into cache must not count
   for the glibc bound: the bound would then shut out the default, and
   itself fail the hot one, leaving nothing.)  */

#include <math.h>

#include "tune.h"

double
figures_fixed_geomean (const struct figures *f)
{
  return f->nfixed ? exp (f->fixed_log_sum / f->nfixed) : 1;
}

double
figures_hot_geomean (const struct figures *f)
{
  return f->nhot ? exp (f->hot_log_sum / f->nhot) : 1;
}

double
figures_worst (const struct figures *f)
{
  return f->worst > f->alias_worst ? f->worst : f->alias_worst;
}

int
figures_qualify (const struct figures *f)
{
  return figures_worst (f) <= SLOWER_LIMIT;
}

/* Rule 1's bounds of the default for candidate I; the default is within
   its own, whatever its figures.  */
static int
within_default (const struct figures *fig, int dflt, int i)
{
  return i == dflt
	 || (fig[i].dist_geomean <= fig[dflt].dist_geomean * (1 + DIST_NOISE)
	     && figures_hot_geomean (&fig[i])
		<= figures_hot_geomean (&fig[dflt]) * (1 + WORST_MARGIN));
}

/* Rule 1 for candidate I.  */
static int
not_slower (const struct figures *fig, int n, int dflt, int i)
{
  if (!within_default (fig, dflt, i))
    return 0;
  for (int k = 0; k < n; k++)
    if (fig[k].dist_geomean < 1 && within_default (fig, dflt, k))
      return fig[i].dist_geomean <= 1 + DIST_NOISE;
  return 1;
}

double
objective_worst_bound (const struct figures *fig, int n, int dflt)
{
  double best = INFINITY;
  for (int i = 0; i < n; i++)
    if (not_slower (fig, n, dflt, i) && figures_worst (&fig[i]) < best)
      best = figures_worst (&fig[i]);
  double bound = best * (1 + WORST_MARGIN);
  return bound > SLOWER_LIMIT ? bound : SLOWER_LIMIT;
}

int
objective_eligible (const struct figures *fig, int n, int dflt, int i)
{
  return not_slower (fig, n, dflt, i)
	 && figures_worst (&fig[i]) <= objective_worst_bound (fig, n, dflt);
}

int
objective_choose (const struct figures *fig, int n, int dflt)
{
  int chosen = -1;
  for (int i = 0; i < n; i++)
    {
      if (!objective_eligible (fig, n, dflt, i))
	continue;
      if (chosen < 0 || fig[i].dist_geomean < fig[chosen].dist_geomean
	  || (fig[i].dist_geomean == fig[chosen].dist_geomean
	      && figures_fixed_geomean (&fig[i])
		 < figures_fixed_geomean (&fig[chosen])))
	chosen = i;
    }
  return chosen;
}

int
objective_confirmed (const struct figures *fig)
{
  return objective_eligible (fig, 2, 0, 1)
	 && fig[1].dist_geomean <= fig[0].dist_geomean;
}
