/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: the report: a table per group on stdout, the summary
   (the targets, then large cold calls against the streaming reference),
   every measurement as CSV, and the groups as SVG charts (svg.c draws
   them).  Beside the ratios to glibc, the null contender's ratio (the
   floor) and the net ratios (net-ratio.h).  */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static const char *
fmt_time (char *buf, size_t len, double ns)
{
  if (ns < 1e4)
    snprintf (buf, len, "%.1f ns", ns);
  else if (ns < 1e7)
    snprintf (buf, len, "%.2f us", ns / 1e3);
  else
    snprintf (buf, len, "%.2f ms", ns / 1e6);
  return buf;
}

double
fcb_ratio (const struct point *p, int k)
{
  return p->med[k] / p->med[0];
}

double
fcb_point_net_ratio (const struct point *p, int k)
{
  return fcb_net_ratio (p->med[k], p->med[0], p->med[NULL_CONTENDER]);
}

/* ------------------------------------------------------------------ */
/* Tables.  */

/* The peers and the variants have a column of ratios each, as wide as the
   label; a peer has a column of net ratios too.  The variants' net ratios
   are in the CSV: a second column for each would double the width of the
   table.  */
static int
ratio_column (const struct contender *c)
{
  if (c->role != ROLE_PEER && c->role != ROLE_VARIANT)
    return 0;
  int w = (int) strlen (c->label);
  return w > 9 ? w : 9;
}

#define NET_WIDTH 7

static void
table_header (const struct group *g)
{
  const struct cset *h = g->header;
  printf ("\n== %s ==\n", g->title);
  const char *first = g->xkind == X_DISTANCE ? "distance"
		      : g->xkind == X_DIST ? "distribution" : "size";
  printf ("%12s %12s %12s %7s %7s %*s |", first, "glibc", "libfastcopy",
	  "ratio", "null", NET_WIDTH, "net");
  for (int k = 0; k < h->n; k++)
    if (ratio_column (&h->c[k]))
      {
	printf (" %*s", ratio_column (&h->c[k]), h->c[k].label);
	if (h->c[k].role == ROLE_PEER)
	  printf (" %*s", NET_WIDTH, "net");
      }
  if (strcmp (g->cache, "cold") == 0)
    printf (" | %10s %10s", "glibc GB/s", "fc GB/s");
  if (h->c[h->n - 1].role == ROLE_REFERENCE)
    printf (" %10s %9s", "ref GB/s", "fc % ref");
  putchar ('\n');
}

static double
geomean_ratio (const struct group *g, int k)
{
  double s = 0;
  size_t n = 0;
  for (size_t i = g->first; i < g->first + g->count; i++)
    if (points[i].done)
      s += log (fcb_ratio (&points[i], k)), n++;
  return n ? exp (s / (double) n) : NAN;
}

/* Contender K's ratio and net ratio at P, or if P is NULL over G: the
   geometric mean G of its ratios and the net ratio of the geometric
   means, (G - N) / (1 - N) for the null contender's mean N.  */
static void
ratios (const struct group *g, const struct point *p, int k, double *ratio,
	double *net)
{
  if (p != NULL)
    {
      *ratio = fcb_ratio (p, k);
      *net = fcb_point_net_ratio (p, k);
      return;
    }
  *ratio = geomean_ratio (g, k);
  *net = fcb_net_ratio (*ratio, 1, geomean_ratio (g, NULL_CONTENDER));
}

/* A ratio in a column of WIDTH; "-" for none (a net ratio where glibc is
   not slower than the null contender).  */
static void
put_ratio (int width, double v)
{
  if (isnan (v))
    printf (" %*s", width, "-");
  else
    printf (" %*.3f", width, v);
}

/* The ratio columns of a row of G: at P, or if P is NULL the geometric
   means.  */
static void
ratio_columns (const struct group *g, const struct point *p)
{
  const struct cset *h = g->header;
  double ratio, net;
  ratios (g, p, 1, &ratio, &net);
  put_ratio (7, ratio);
  put_ratio (7, p ? fcb_ratio (p, NULL_CONTENDER)
		: geomean_ratio (g, NULL_CONTENDER));
  put_ratio (NET_WIDTH, net);
  printf (" |");
  for (int k = 0; k < h->n; k++)
    if (ratio_column (&h->c[k]))
      {
	ratios (g, p, k, &ratio, &net);
	put_ratio (ratio_column (&h->c[k]), ratio);
	if (h->c[k].role == ROLE_PEER)
	  put_ratio (NET_WIDTH, net);
      }
}

static void
table_row (const struct group *g, const struct point *p)
{
  const struct cset *h = g->header;
  char b1[80], b2[32], b3[32];
  if (g->xkind == X_DISTANCE)
    snprintf (b1, sizeof b1, "%ld", p->distance);
  else if (g->xkind == X_DIST)
    snprintf (b1, sizeof b1, "%s", p->dist->name);
  else if (p->size < 16 * KiB)
    snprintf (b1, sizeof b1, "%zu", p->size);
  else
    fc_size_format (p->size, FC_SIZE_1_DECIMAL, b1, sizeof b1);
  printf ("%12s %12s %12s", b1, fmt_time (b2, sizeof b2, p->med[0]),
	  fmt_time (b3, sizeof b3, p->med[1]));
  ratio_columns (g, p);
  double size = (double) p->size;
  if (strcmp (g->cache, "cold") == 0)
    printf (" | %10.2f %10.2f", size / p->med[0], size / p->med[1]);
  if (h->c[h->n - 1].role == ROLE_REFERENCE)
    {
      int r = p->cs->n - 1;
      if (p->cs->c[r].role == ROLE_REFERENCE)
	printf (" %10.2f %8.0f%%", size / p->med[r],
		100 * p->med[r] / p->med[1]);
      else
	printf (" %10s %9s", "-", "-");
    }
  putchar ('\n');
}

/* The distance sweep has up to 4096 rows: print those near the cliff and
   summarise the rest.  */
static int
distance_row_shown (long d)
{
  return d < 80 || d >= 4080 || d % 512 == 0;
}

void
fcb_print_group (const struct group *g)
{
  table_header (g);
  const struct cset *h = g->header;
  for (size_t i = g->first; i < g->first + g->count; i++)
    if (points[i].done
	&& (g->xkind != X_DISTANCE || distance_row_shown (points[i].distance)))
      table_row (g, &points[i]);

  if (g->xkind == X_DIST)
    {
      printf ("%12s %12s %12s", "geomean", "", "");
      ratio_columns (g, NULL);
      putchar ('\n');
      size_t calls = 0, bytes = 0;
      for (size_t i = g->first; i < g->first + g->count; i++)
	calls += opt.calls, bytes += points[i].size;
      printf ("(times are per whole sequence of %u calls; mean size %.0f B)\n",
	      opt.calls, calls ? (double) bytes / (double) calls : 0);
    }
  if (g->xkind == X_DISTANCE)
    for (int k = 0; k < h->n; k++)
      {
	/* Outside the shown rows: the worst ratio and the median time.  */
	double worst = 0, *t = malloc (g->count * sizeof *t);
	long worst_d = -1;
	if (t == NULL)
	  error_exit (1, "out of memory");
	unsigned int m = 0;
	for (size_t i = g->first; i < g->first + g->count; i++)
	  {
	    const struct point *p = &points[i];
	    if (!p->done || distance_row_shown (p->distance))
	      continue;
	    t[m++] = p->med[k];
	    if (fcb_ratio (p, k) > worst)
	      worst = fcb_ratio (p, k), worst_d = p->distance;
	  }
	if (m > 0)
	  {
	    char b[32];
	    if (k == 0)
	      printf ("other distances (%u, 80..4079):\n", m);
	    printf ("  %-12s median %s, worst ratio %.3f at %ld\n", h->c[k].label,
		    fmt_time (b, sizeof b, fcm_median (t, m)), worst, worst_d);
	  }
	free (t);
      }
  fflush (stdout);
}

/* ------------------------------------------------------------------ */
/* Summary.  */

static void
summary_stream (void)
{
  int any = 0;
  for (size_t gi = 0; gi < ngroups; gi++)
    {
      const struct group *g = &groups[gi];
      if (strcmp (g->cache, "cold") != 0)
	continue;
      for (size_t j = g->first; j < g->first + g->count; j++)
	{
	  const struct point *p = &points[j];
	  int r = p->cs->n - 1;
	  if (!p->done || p->size < 32 * MiB || p->cs->c[r].role != ROLE_REFERENCE)
	    continue;
	  if (!any++)
	    printf ("\nLarge cache-cold calls against the streaming reference "
		    "(ref:stream, AVX2 non-temporal stores):\n");
	  char b[16];
	  printf ("  %-7s %8s  glibc %6.2f GB/s (%3.0f%%)  libfastcopy %6.2f GB/s"
		  " (%3.0f%%)  ref %6.2f GB/s\n", func_names[g->func],
		  fc_size_format (p->size, FC_SIZE_1_DECIMAL, b, sizeof b),
		  (double) p->size / p->med[0], 100 * p->med[r] / p->med[0],
		  (double) p->size / p->med[1], 100 * p->med[r] / p->med[1],
		  (double) p->size / p->med[r]);
	}
    }
}

int
fcb_summary (void)
{
  int count[VERDICTS] = { 0 };
  printf ("\n== Summary: targets (ratio = libfastcopy's exported function time"
	  " / glibc time;\n   net = (libfastcopy - null) / (glibc - null), "
	  "null = the floor) ==\n");
  fcb_judge_targets (count);
  printf ("%d met, %d missed, %d not measured, %d not applicable\n",
	  count[MET], count[MISSED], count[NOT_MEASURED],
	  count[NOT_APPLICABLE]);
  summary_stream ();
  return count[MISSED];
}

/* ------------------------------------------------------------------ */
/* CSV.  */

void
fcb_write_csv (const char *path)
{
  FILE *f = strcmp (path, "-") == 0 ? stdout : fopen (path, "w");
  if (f == NULL)
    error_exit (1, "%s: %s", path, strerror (errno));
  fputs ("case,function,size,alignment,distance,cache,contender,median_ns,"
	 "bytes_per_ns,ratio_vs_glibc,net_ratio_vs_glibc\n", f);
  for (size_t i = 0; i < npoints; i++)
    {
      const struct point *p = &points[i];
      const struct group *g = &groups[p->group];
      if (!p->done)
	continue;
      for (int k = 0; k < p->cs->n; k++)
	{
	  if (p->type == PT_SEQ)
	    fprintf (f, "%s:%s,", cases[g->cid].name, p->dist->name);
	  else
	    fprintf (f, "%s,", cases[g->cid].name);
	  fprintf (f, "%s,%zu,%s,", func_names[g->func], p->size, g->align);
	  if (p->distance != LONG_MIN)
	    fprintf (f, "%ld", p->distance);
	  fprintf (f, ",%s,%s,%.3f,%.4f,%.4f,", g->cache, p->cs->c[k].label,
		   p->med[k], p->med[k] > 0 ? (double) p->size / p->med[k] : 0,
		   fcb_ratio (p, k));
	  double net = fcb_point_net_ratio (p, k);
	  if (!isnan (net))
	    fprintf (f, "%.4f", net);
	  putc ('\n', f);
	}
    }
  if (f != stdout ? fclose (f) != 0 : fflush (f) != 0)
    error_exit (1, "%s: %s", path, strerror (errno));
}

/* ------------------------------------------------------------------ */
/* SVG.  */

static const char *
svg_xlabel (const struct group *g)
{
  return g->xkind == X_DISTANCE ? "(dst - src) mod 4096, log scale; from 128: "
				  "median of each 64"
	 : g->xkind == X_DIST ? "distribution" : "size (log scale)";
}

/* From this distance on, the distance chart draws the median of each bin
   of DISTANCE_BIN distances rather than thousands of noisy points; the
   table and the CSV have every point.  */
#define DISTANCE_BIN_FROM 128
#define DISTANCE_BIN 64

static void
distance_bins (const struct group *g, int k, struct fcb_series *s)
{
  double t[DISTANCE_BIN];
  for (long lo = DISTANCE_BIN_FROM; lo < 4096; lo += DISTANCE_BIN)
    {
      unsigned int m = 0;
      for (size_t i = g->first; i < g->first + g->count; i++)
	{
	  const struct point *p = &points[i];
	  if (p->done && k < p->cs->n && p->distance >= lo
	      && p->distance < lo + DISTANCE_BIN)
	    t[m++] = p->med[k];
	}
      if (m == 0)
	continue;
      s->x[s->n] = (double) lo + DISTANCE_BIN / 2;
      s->y[s->n++] = fcm_median (t, m);
    }
}

void
fcb_write_svg (const char *path, const char *subtitle)
{
  struct fcb_chart *charts = calloc (ngroups, sizeof *charts);
  size_t nch = 0;
  if (charts == NULL)
    error_exit (1, "out of memory");
  for (size_t gi = 0; gi < ngroups; gi++)
    {
      const struct group *g = &groups[gi];
      const struct cset *h = g->header;
      struct fcb_chart *c = &charts[nch++];
      c->title = g->title;
      c->xlabel = svg_xlabel (g);
      c->series = calloc ((size_t) h->n, sizeof *c->series);
      if (c->series == NULL)
	error_exit (1, "out of memory");
      if (g->xkind == X_DIST)
	{
	  c->kind = FCB_CHART_BARS;
	  c->ylabel = "time / glibc time (lower is faster)";
	  c->refline = 1;
	  c->ncats = g->count;
	  c->cats = calloc (g->count, sizeof *c->cats);
	  if (c->cats == NULL)
	    error_exit (1, "out of memory");
	  for (size_t i = 0; i < g->count; i++)
	    c->cats[i] = points[g->first + i].dist->name;
	}
      else
	{
	  /* Sizes: bandwidth, which spreads the contenders further apart
	     than time over seven decades.  Distances: time, on a log2
	     axis that gives the cliff at 1..63 room (distance 0 is in the
	     table and the CSV).  */
	  c->kind = g->xkind == X_SIZE ? FCB_CHART_SIZE : FCB_CHART_LOG2;
	  c->ylog = 1;
	  c->ylabel = g->xkind == X_SIZE ? "bandwidth, GB/s (log scale)"
		      : "time per call, ns (log scale)";
	}
      /* The chart titles drop the last parenthesis, the table has it.  */
      char *t = strdup (g->title), *paren = NULL;
      if (t == NULL)
	error_exit (1, "out of memory");
      for (char *q = t; (q = strstr (q, " (")) != NULL; q++)
	paren = q;
      if (paren != NULL)
	*paren = 0;
      c->title = t;
      for (int k = 0; k < h->n; k++)
	{
	  /* The null contender is a bar of the distributions, the floor;
	     its bandwidth and time would only stretch the other axes.  */
	  if (h->c[k].role == ROLE_NULL && g->xkind != X_DIST)
	    continue;
	  struct fcb_series *s = &c->series[c->nseries++];
	  s->label = h->c[k].label;
	  s->style = h->c[k].role == ROLE_GLIBC ? FCB_STYLE_GLIBC
		     : h->c[k].role == ROLE_FASTCOPY ? FCB_STYLE_FASTCOPY
		     : h->c[k].role == ROLE_PEER ? FCB_STYLE_PEER
		     : h->c[k].role == ROLE_VARIANT ? FCB_STYLE_VARIANT
		     : FCB_STYLE_REFERENCE;
	  s->x = calloc (g->count, sizeof *s->x);
	  s->y = calloc (g->count, sizeof *s->y);
	  if (s->x == NULL || s->y == NULL)
	    error_exit (1, "out of memory");
	  for (size_t i = 0; i < g->count; i++)
	    {
	      const struct point *p = &points[g->first + i];
	      if (!p->done || k >= p->cs->n)
		continue;
	      if (g->xkind == X_DISTANCE && p->distance >= DISTANCE_BIN_FROM)
		continue;
	      s->x[s->n] = g->xkind == X_DISTANCE ? (double) p->distance
			   : (double) p->size;
	      s->y[s->n] = g->xkind == X_DIST ? fcb_ratio (p, k)
			   : g->xkind == X_SIZE ? (double) p->size / p->med[k]
			   : p->med[k];
	      if (g->xkind == X_DIST)
		s->n = i + 1;
	      else
		s->n++;
	    }
	  if (g->xkind == X_DISTANCE)
	    distance_bins (g, k, s);
	}
    }

  FILE *f = fopen (path, "w");
  if (f == NULL)
    error_exit (1, "%s: %s", path, strerror (errno));
  char title[128];
  snprintf (title, sizeof title, "fastcopy-bench: libfastcopy %s vs glibc %s",
	    lib.version (), lib.libc_version ());
  if (fcb_svg_write (f, title, subtitle, charts, nch) != 0 || fclose (f) != 0)
    error_exit (1, "%s: write error", path);
  for (size_t i = 0; i < nch; i++)
    {
      for (size_t k = 0; k < charts[i].nseries; k++)
	free (charts[i].series[k].x), free (charts[i].series[k].y);
      free (charts[i].series);
      free (charts[i].cats);
      free ((char *) charts[i].title);
    }
  free (charts);
}
