/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: a candidate's figures against glibc (the objective that
   chooses by them is objective.c).

   A ratio is the candidate's median time at a point over glibc's median
   time at the same point, measured interleaved: below 1 is faster.  */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tune.h"

void
figures_reset (struct figures *f)
{
  memset (f, 0, sizeof *f);
}

void
figures_add (struct figures *f, const struct tpoint *p, double ratio)
{
  switch (p->kind)
    {
    case PK_WORKLOAD:
      f->dist[p->workload] = ratio;
      break;
    case PK_HOT:
      f->hot_log_sum += log (ratio);
      f->nhot++;
      /* A hot size is a fixed size too.  */
      __attribute__ ((fallthrough));
    case PK_COLD:
      f->fixed_log_sum += log (ratio);
      f->nfixed++;
      if (ratio > f->worst)
	{
	  f->worst = ratio;
	  f->worst_at = *p;
	}
      break;
    case PK_ALIAS:
      if (ratio > f->alias_worst)
	{
	  f->alias_worst = ratio;
	  f->alias_at = p->distance;
	}
      break;
    }
}

void
figures_finish (struct figures *f)
{
  double sum = 0;
  int n = 0;
  for (int w = 0; w < nworkloads; w++)
    if (f->dist[w] > 0)
      {
	sum += log (f->dist[w]);
	n++;
      }
  f->dist_geomean = n ? exp (sum / n) : 1;
}

void
figures_print_heading (enum fastcopy_family family, int label_width)
{
  printf ("#     %-*s %13s  %9s  %s\n", label_width, "candidate",
	  workloads_name (), "hot sizes",
	  family == FASTCOPY_FAMILY_COPY
	  ? "worst hot/cold                    aliasing" : "worst hot/cold");
}

void
figures_print (const struct figures *f, enum fastcopy_family family)
{
  char where[64], worst[80];
  snprintf (worst, sizeof worst, "%.3f %s", f->worst,
	    point_text (&f->worst_at, where, sizeof where));
  printf (" %13.3f  %9.3f  ", f->dist_geomean, figures_hot_geomean (f));
  if (family == FASTCOPY_FAMILY_COPY && f->alias_worst > 0)
    printf ("%-32s  %.3f at %zu", worst, f->alias_worst, f->alias_at);
  else if (family == FASTCOPY_FAMILY_COPY)
    printf ("%-32s  -", worst);
  else
    printf ("%s", worst);
  if (!figures_qualify (f))
    printf ("  (over %.2f)", SLOWER_LIMIT);
  putchar ('\n');
}
