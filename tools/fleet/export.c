/* SPDX-License-Identifier: MIT */
/* fastcopy-fleet export: a recording as Prometheus exposition text, for
   node_exporter's textfile collector (fastcopy-fleet(1), METRICS).

   1. Per family, a histogram of call sizes on the library's own buckets
      (fcw_grid_*: every size up to 512, then eight per doubling, up to
      2^47), the resolution fastcopy-tune --workload draws its calls from:
      a recording of fastcopy-profile or of a sampler goes through
      unchanged.  A bucket of another recording that spans several of the
      grid's is spread over them in proportion to their sizes, as the
      tuner draws sizes within a bucket: uniformly.
   2. Per family, a counter of calls for each alignment, distance class,
      overlap and function row; their bytes are not exported.
   3. The bound, where the recording states one (bound_series).
   Every series of a class has the same labels on every host, so that
   PromQL can add them up by le.  */

#define _GNU_SOURCE 1
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/message.h"
#include "fleet/fleet.h"

/* A label, its value with exposition escapes.  */
static void
put_first_label (FILE *f, const char *name, const char *value)
{
  fprintf (f, "%s=\"", name);
  for (; *value; value++)
    if (*value == '\\' || *value == '"')
      fprintf (f, "\\%c", *value);
    else if (*value == '\n')
      fputs ("\\n", f);
    else
      fputc (*value, f);
  fputc ('"', f);
}

/* A label after others.  */
static void
put_label (FILE *f, const char *name, const char *value)
{
  fputc (',', f);
  put_first_label (f, name, value);
}

/* A sample's value: a whole number as such, else every digit needed.  */
static void
put_value (FILE *f, double v)
{
  if (v == floor (v) && v < 0x1p63)
    fprintf (f, " %.0f\n", v);
  else
    fprintf (f, " %.17g\n", v);
}

struct series
{
  const char *policy, *cpu, *host;
};

/* The labels every series of a family has, after its family's: the
   class, the implementation and the host.  */
static void
put_common (FILE *f, const struct series *s, const struct fcw_family *fa)
{
  put_label (f, "policy", s->policy);
  put_label (f, "cpu", s->cpu);
  put_label (f, "impl", fa->impl[0] ? fa->impl : "unknown");
  put_label (f, "host", s->host);
}

/* FA's series of METRIC with VALUE.  */
static void
family_series (FILE *f, const char *metric, const struct series *s,
	       int family, const struct fcw_family *fa, double value)
{
  fprintf (f, "%s{family=\"%s\"", metric, fcw_family_names[family]);
  put_common (f, s, fa);
  fputc ('}', f);
  put_value (f, value);
}

/* FA's calls on the grid; element FCW_GRID_BUCKETS holds those of sizes
   beyond it.  */
static void
grid_calls (const struct fcw_family *fa, double *calls)
{
  memset (calls, 0, (FCW_GRID_BUCKETS + 1) * sizeof *calls);
  for (size_t b = 0; b < fa->nbuckets; b++)
    {
      const struct fcw_bucket *k = &fa->bucket[b];
      if (!(k->t.calls > 0))
	continue;
      double width = (double) (k->hi - k->lo) + 1;
      for (unsigned long long lo = k->lo; lo <= k->hi;)
	{
	  size_t g = fcw_grid_bucket (lo);
	  if (g >= FCW_GRID_BUCKETS)
	    {
	      calls[FCW_GRID_BUCKETS] += k->t.calls * ((double) (k->hi - lo) + 1)
					 / width;
	      break;
	    }
	  unsigned long long hi = fcw_grid_hi (g) < k->hi ? fcw_grid_hi (g)
							  : k->hi;
	  calls[g] += lo == k->lo && hi == k->hi
		      ? k->t.calls
		      : k->t.calls * ((double) (hi - lo) + 1) / width;
	  lo = hi + 1;
	}
    }
}

static void
size_histogram (FILE *f, const struct series *s, const struct fcw_workload *w)
{
  static double calls[FCW_GRID_BUCKETS + 1];
  fputs ("# HELP " FLEET_SIZE_METRIC " Sizes of the calls of a family "
	 "(copy: memcpy, memmove, mempcpy; clear: memset, bzero, "
	 "explicit_bzero) that libfastcopy recorded.\n"
	 "# TYPE " FLEET_SIZE_METRIC " histogram\n", f);
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    {
      const struct fcw_family *fa = &w->family[i];
      grid_calls (fa, calls);
      double cum = 0;
      for (size_t g = 0; g <= FCW_GRID_BUCKETS; g++)
	{
	  cum += calls[g];
	  fprintf (f, FLEET_SIZE_METRIC "_bucket{family=\"%s\"",
		   fcw_family_names[i]);
	  put_common (f, s, fa);
	  if (g < FCW_GRID_BUCKETS)
	    fprintf (f, ",le=\"%llu\"}", fcw_grid_hi (g));
	  else
	    fputs (",le=\"+Inf\"}", f);
	  put_value (f, cum);
	}
      family_series (f, FLEET_SIZE_METRIC "_sum", s, i, fa, fa->bytes);
      family_series (f, FLEET_SIZE_METRIC "_count", s, i, fa, cum);
    }
}

static void
calls_row (FILE *f, const struct series *s, int family, const char *kind,
	   const char *value, double calls, const struct fcw_family *fa)
{
  fprintf (f, FLEET_CALLS_METRIC "{family=\"%s\",kind=\"%s\"",
	   fcw_family_names[family], kind);
  put_label (f, "value", value);
  put_common (f, s, fa);
  fputc ('}', f);
  put_value (f, calls);
}

/* Every alignment, distance class and overlap has its series, so that
   each host has the same ones; a function only where it has calls.  */
static void
calls_counters (FILE *f, const struct series *s, const struct fcw_workload *w)
{
  fputs ("# HELP " FLEET_CALLS_METRIC " Calls that libfastcopy recorded, "
	 "by kind: dst_align and src_align (the address mod 64), distance "
	 "((dst - src) mod 4096 class), overlap, function.\n"
	 "# TYPE " FLEET_CALLS_METRIC " counter\n", f);
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    {
      const struct fcw_family *fa = &w->family[i];
      int copy = i == FASTCOPY_FAMILY_COPY;
      char v[8];
      for (int a = 0; a < 64; a++)
	{
	  snprintf (v, sizeof v, "%d", a);
	  calls_row (f, s, i, FC_REC_DST_ALIGN, v, fa->dst_align[a].calls, fa);
	}
      for (int a = 0; copy && a < 64; a++)
	{
	  snprintf (v, sizeof v, "%d", a);
	  calls_row (f, s, i, FC_REC_SRC_ALIGN, v, fa->src_align[a].calls, fa);
	}
      for (int d = 0; copy && d < FC_REC_NDIST; d++)
	calls_row (f, s, i, FC_REC_DISTANCE, fcw_distance_names[d],
		   fa->distance[d].calls, fa);
      for (int o = 0; copy && o < FC_REC_NOVERLAP; o++)
	calls_row (f, s, i, FC_REC_OVERLAP, fcw_overlap_names[o],
		   fa->overlap[o].calls, fa);
      for (int k = 0; k < fa->nfunctions; k++)
	calls_row (f, s, i, FC_REC_FUNCTION, fa->function[k].name,
		   fa->function[k].t.calls, fa);
    }
}

/* Series whose sums over hosts give the bound of the sum, as fcw_merge
   does: the bound B of C calls is weighted by them and added in
   quadrature, so (C * B)^2 adds up, per family and for the clears' share
   (of all calls, with no family or implementation).  The calls of each
   family come last: an import that finds fewer than the histogram's,
   where some host states no bound or its file was cut short, knows of
   none.  Gauges: a total's bound is written to four decimals, so that
   its square may drop a little from one run to the next.  */
static void
bound_series (FILE *f, const struct series *s, const struct fcw_workload *w)
{
  const struct fcw_bound *b = &w->bound;
  if (!b->known)
    return;
  fputs ("# HELP " FLEET_BOUND_METRIC " A family's calls times the bound "
	 "(95%) on the total variation distance of its size histogram from "
	 "the truth, squared: the square root of a sum over hosts, over "
	 "their calls, is the bound of the sum.\n"
	 "# TYPE " FLEET_BOUND_METRIC " gauge\n", f);
  double all = 0;
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    {
      double x = w->family[i].calls * b->tvd[i];
      family_series (f, FLEET_BOUND_METRIC, s, i, &w->family[i], x * x);
      all += w->family[i].calls;
    }
  fputs ("# HELP " FLEET_SHARE_BOUND_METRIC " All calls times the bound "
	 "(95%) on the error of the clears' share of them, squared: the "
	 "square root of a sum over hosts, over their calls, is the bound "
	 "of the sum.\n"
	 "# TYPE " FLEET_SHARE_BOUND_METRIC " gauge\n"
	 FLEET_SHARE_BOUND_METRIC "{", f);
  put_first_label (f, "policy", s->policy);
  put_label (f, "cpu", s->cpu);
  put_label (f, "host", s->host);
  fputc ('}', f);
  put_value (f, (all * b->share) * (all * b->share));
  fputs ("# HELP " FLEET_BOUND_CALLS_METRIC " Calls of a family that "
	 "libfastcopy recorded, on hosts whose recording states a bound: "
	 "fewer than the histogram's where some host states none.\n"
	 "# TYPE " FLEET_BOUND_CALLS_METRIC " counter\n", f);
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    family_series (f, FLEET_BOUND_CALLS_METRIC, s, i, &w->family[i],
		   w->family[i].calls);
}

int
export_main (const char *out, const char *host, const char *path)
{
  struct fcw_workload w;
  if (load_recording (path, &w) != 0)
    return 1;
  char cpu[FCW_MACHINE_CLASS_TEXT];
  const struct fcw_machine_class *c = &w.machine_class;
  struct series s = {
    .policy = c->kind == FCW_MACHINE_CLASS_KNOWN ? c->policy
	      : c->kind == FCW_MACHINE_CLASS_MIXED ? "mixed" : "unknown",
    .cpu = fcw_machine_class_cpu_text (c, cpu, sizeof cpu), .host = host
  };
  char *text = NULL;
  size_t len;
  FILE *f = open_memstream (&text, &len);
  if (f == NULL)
    {
      error_msg ("out of memory");
      return 1;
    }
  size_histogram (f, &s, &w);
  calls_counters (f, &s, &w);
  bound_series (f, &s, &w);
  fcw_free (&w);
  if (fclose (f) != 0)
    {
      error_msg ("out of memory");
      free (text);
      return 1;
    }
  int st = write_output (out, text, len) == 0 ? 0 : 1;
  free (text);
  return st;
}
