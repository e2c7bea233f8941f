/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: the recording and the report.

   The recording is common/workload.c's format (fcw_write), so that
   fastcopy-profile --report and fastcopy-tune --workload read it.  Its
   calls are estimates.  A process the census windows counted (census.c)
   gives its counts, times the run's time over the windows' time.  In any
   other, each sample in a body counts as the sampling period divided by
   the cost of one call of its implementation and size among the others
   (cost.c, context.c); where no cost is known (an implementation this
   library does not have), a sample counts as one call, and a comment
   says so.  The bound on the histograms' error is a bootstrap over the
   windows (bound).  After
   the rows that exact recording has, two kinds that readers skip:
     FAMILY,impl,NAME,CALLS,BYTES   calls per implementation;
     FAMILY,path,NAME,SAMPLES,0     samples per path of the bodies
                                    (src/body-map.h), time not calls.
   Comments give the samples, the rate, the duration, the records lost
   and the copy share.  Nothing else: no address, no data, and process
   names only with --comm.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file-replace.h"
#include "common/measure.h"
#include "common/message.h"
#include "sample/sample.h"
#include "common/workload.h"

#define NIMPLS 32
#define PROCS_SHOWN 10

static const char *const path_names[FC_BODY_PATH_COUNT] = {
  "entry", "class", "loop", "backward", "rep", "stream"
};

/* What the samples of one family add up to.  */
struct family_sum
{
  struct fcw_tally size[FC_BUCKETS];
  int nimpls;
  struct fcw_count impl[NIMPLS];
  uint64_t covered[NIMPLS];	/* samples per implementation of the
				   processes the census counted */
  uint64_t path[FC_BODY_PATH_COUNT];
  uint64_t samples;
};

/* How sure the estimate is, at 95%: the total variation distance of each
   family's size histogram from the truth, and the clears' share of all
   calls off by at most SHARE; negative: not known (no census).  */
struct bound
{
  double tvd[FASTCOPY_FAMILY_COUNT];
  double share;
};

static void
add (struct fcw_tally *t, double calls, double bytes)
{
  t->calls += calls;
  t->bytes += bytes;
}

/* The index of implementation NAME in F's, made if new; -1 when there
   are too many.  */
static int
impl_index (struct family_sum *f, const char *name)
{
  for (int i = 0; i < f->nimpls; i++)
    if (strcmp (f->impl[i].name, name) == 0)
      return i;
  if (f->nimpls == NIMPLS)
    return -1;
  snprintf (f->impl[f->nimpls].name, sizeof f->impl[0].name, "%s", name);
  return f->nimpls++;
}

static void
add_tallies (struct fcw_tally *to, const struct fc_tally *from, size_t n,
	     double scale)
{
  for (size_t i = 0; i < n; i++)
    add (&to[i], scale * (double) from[i].calls,
	 scale * (double) from[i].bytes);
}

/* The census's counts, times SCALE, into W and SUM.  */
static void
add_census (const struct census_result *cr, double scale,
	    struct fcw_workload *w, struct family_sum *sum)
{
  static const char *const names[FASTCOPY_FAMILY_COUNT][2] = {
    [FASTCOPY_FAMILY_COPY] = { FC_REC_COPY_FUNCTIONS },
    [FASTCOPY_FAMILY_CLEAR] = { FC_REC_CLEAR_FUNCTIONS },
  };
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      const struct fc_counts *c = &cr->total[f];
      struct fcw_family *fa = &w->family[f];
      add_tallies (sum[f].size, c->size, FC_BUCKETS, scale);
      add_tallies (fa->dst_align, c->dst_align, 64, scale);
      add_tallies (fa->src_align, c->src_align, 64, scale);
      add_tallies (fa->distance, c->distance, FC_REC_NDIST, scale);
      add_tallies (fa->overlap, c->overlap, FC_REC_NOVERLAP, scale);
      for (int k = 0; k < 2; k++)
	if (c->function[k].calls > 0)
	  {
	    struct fcw_count *x = &fa->function[fa->nfunctions++];
	    snprintf (x->name, sizeof x->name, "%s", names[f][k]);
	    add_tallies (&x->t, &c->function[k], 1, scale);
	  }
      /* The implementations by their share of the counted processes'
	 samples: the census does not see which one a call went to.  */
      double calls = 0, bytes = 0, samples = 0;
      for (size_t k = 0; k < FC_BUCKETS; k++)
	{
	  calls += scale * (double) c->size[k].calls;
	  bytes += scale * (double) c->size[k].bytes;
	}
      for (int i = 0; i < sum[f].nimpls; i++)
	samples += (double) sum[f].covered[i];
      for (int i = 0; i < sum[f].nimpls && samples > 0; i++)
	add (&sum[f].impl[i].t, calls * (double) sum[f].covered[i] / samples,
	     bytes * (double) sum[f].covered[i] / samples);
    }
}

/* The recording's families from T's samples and CR's counts, times
   SCALE, SUM its extra rows; *UNCOSTED the samples that counted as one
   call each.  */
static void
estimate (const struct tallies *t, double period_ns,
	  const struct census_result *cr, double scale,
	  struct fcw_workload *w, struct family_sum *sum, uint64_t *uncosted)
{
  memset (w, 0, sizeof *w);
  *uncosted = 0;
  for (size_t i = 0; i < t->ncalls; i++)
    {
      const struct call_sample *c = &t->calls[i];
      int f = c->family;
      struct fcw_family *fa = &w->family[f];
      int impl = impl_index (&sum[f], c->impl);
      sum[f].path[c->path]++;
      sum[f].samples++;
      if (census_counted (c->pid))
	{
	  if (impl >= 0)
	    sum[f].covered[impl]++;
	  continue;
	}
      double ns = cost_of (f, c->impl, c->size);
      double calls = ns > 0 ? period_ns / ns : 1, bytes = calls * (double) c->size;
      *uncosted += !(ns > 0);
      add (&sum[f].size[fc_size_bucket (c->size)], calls, bytes);
      if (impl >= 0)
	add (&sum[f].impl[impl].t, calls, bytes);
      if (c->dst_align >= 0)
	add (&fa->dst_align[c->dst_align], calls, bytes);
      if (c->src_align >= 0)
	add (&fa->src_align[c->src_align], calls, bytes);
      if (c->distance >= 0)
	add (&fa->distance[c->distance == 0 ? 0 : c->distance < 16 ? 1
			   : c->distance < 64 ? 2 : 3], calls, bytes);
      if (c->overlap >= 0)
	add (&fa->overlap[c->overlap], calls, bytes);
    }
  add_census (cr, scale, w, sum);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      struct fcw_family *fa = &w->family[f];
      fa->bucket = xrealloc (NULL, FC_BUCKETS * sizeof *fa->bucket);
      for (size_t b = 0; b < FC_BUCKETS; b++)
	if (sum[f].size[b].calls > 0)
	  {
	    struct fcw_bucket *k = &fa->bucket[fa->nbuckets++];
	    fc_size_bucket_range (b, &k->lo, &k->hi);
	    k->t = sum[f].size[b];
	    fa->calls += k->t.calls;
	    fa->bytes += k->t.bytes;
	  }
      fa->recorded = 1;
      /* The implementation the samples saw, or "mixed" where processes
	 ran several (fastcopy-fleet keeps classes and implementations
	 apart).  */
      if (sum[f].nimpls > 0)
	snprintf (fa->impl, sizeof fa->impl, "%s",
		  sum[f].nimpls == 1 ? sum[f].impl[0].name : "mixed");
    }
  /* The samples are this machine's: its class (CPU and policy row).  */
  fcw_machine_class_here (&w->machine_class);
}

/* Resamples of the bootstrap; its generator's seed is fixed, so that a
   recording's bound is the same each time it is computed.  */
#define RESAMPLES 400

static int
by_value (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Family F's size histogram in H, against the whole census's in FULL:
   their total variation distance; 1 where one of them is empty and the
   other not.  */
static double
tvd (const double *h, const double *full)
{
  double n = 0, m = 0, d = 0;
  for (size_t k = 0; k < FC_BUCKETS; k++)
    {
      n += h[k];
      m += full[k];
    }
  if (n == 0 || m == 0)
    return n == m ? 0 : 1;
  for (size_t k = 0; k < FC_BUCKETS; k++)
    d += fabs (h[k] / n - full[k] / m);
  return d / 2;
}

/* What the windows' spread does not show: counting slows the calls it
   counts, the cheapest most, and those count a little low (0.4% of the
   1-byte clears of mix 809, the worst of seeds 800-819,
   doc/bench/intel-6-207-sampler-census-*.txt): a distance and a share
   the bound allows beyond the bootstrap's.  */
#define CENSUS_TVD_ALLOWANCE 0.01
#define CENSUS_SHARE_ALLOWANCE 0.002

/* The bound of W's histograms (struct bound): a bootstrap over CR's
   groups of windows, plus the allowances above.  Each resample draws as many groups as there are,
   with replacement; the bound is the 95th percentile of the distance of
   its histograms, and of its share of clears, from the whole census's.
   Calls in processes no window counted, which W has from their samples,
   may be anywhere: each family's bound grows by their share of its calls
   (a mixture is no further from the truth than its parts, weighted).
   Unknown with fewer than two windows.  */
static struct bound
bound (const struct census_result *cr, double scale,
       const struct fcw_workload *w)
{
  static double full[FASTCOPY_FAMILY_COUNT][FC_BUCKETS];
  static double h[FASTCOPY_FAMILY_COUNT][FC_BUCKETS];
  static double dist[FASTCOPY_FAMILY_COUNT + 1][RESAMPLES];
  struct bound b = { { -1, -1 }, -1 };
  size_t ng = cr->windows < CENSUS_GROUPS ? cr->windows : CENSUS_GROUPS;
  if (ng < 2)
    return b;
  memset (full, 0, sizeof full);
  for (size_t g = 0; g < ng; g++)
    for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
      for (size_t k = 0; k < FC_BUCKETS; k++)
	full[f][k] += (double) cr->group[g][f][k];
  double counted[FASTCOPY_FAMILY_COUNT] = { 0, 0 };
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    for (size_t k = 0; k < FC_BUCKETS; k++)
      counted[f] += full[f][k];
  double share = counted[0] + counted[1] > 0
		 ? counted[1] / (counted[0] + counted[1]) : 0;
  uint64_t state = 0x2545f4914f6cdd1dull;
  for (int r = 0; r < RESAMPLES; r++)
    {
      memset (h, 0, sizeof h);
      for (size_t j = 0; j < ng; j++)
	{
	  size_t g = fcm_splitmix64 (&state) % ng;
	  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
	    for (size_t k = 0; k < FC_BUCKETS; k++)
	      h[f][k] += (double) cr->group[g][f][k];
	}
      double n[FASTCOPY_FAMILY_COUNT] = { 0, 0 };
      for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
	{
	  dist[f][r] = tvd (h[f], full[f]);
	  for (size_t k = 0; k < FC_BUCKETS; k++)
	    n[f] += h[f][k];
	}
      dist[FASTCOPY_FAMILY_COUNT][r]
	= fabs ((n[0] + n[1] > 0 ? n[1] / (n[0] + n[1]) : 0) - share);
    }
  double q[FASTCOPY_FAMILY_COUNT + 1];
  for (int i = 0; i <= FASTCOPY_FAMILY_COUNT; i++)
    {
      qsort (dist[i], RESAMPLES, sizeof dist[i][0], by_value);
      q[i] = dist[i][RESAMPLES * 95 / 100];
    }
  double all = 0, all_counted = 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      double calls = w->family[f].calls, mine = scale * counted[f];
      double u = calls > 0 && mine < calls ? 1 - mine / calls : 0;
      double census = counted[f] > 0 ? q[f] + CENSUS_TVD_ALLOWANCE : 0;
      b.tvd[f] = (1 - u) * census + u;
      all += calls;
      all_counted += mine < calls ? mine : calls;
    }
  double u = all > 0 ? 1 - all_counted / all : 0;
  b.share = (1 - u) * (q[FASTCOPY_FAMILY_COUNT] + CENSUS_SHARE_ALLOWANCE) + u;
  return b;
}

static double
percent (uint64_t part, uint64_t whole)
{
  return whole ? 100.0 * (double) part / (double) whole : 0;
}

/* NAME (a process's name, a command) for one line of the report or the
   recording: a process names itself, and a newline or a comma in its name
   must not make a row of the recording.  */
static char *
printable (const char *name)
{
  char *s = xasprintf ("%s", name);
  for (char *c = s; *c; c++)
    if ((unsigned char) *c < 0x20 || *c == 0x7f || *c == ',')
      *c = '?';
  return s;
}

/* The copy share, as lines that start with PREFIX, of the machine (ALL)
   or of the processes sampled.  */
static char *
share_lines (const struct tallies *t, int all, const char *prefix)
{
  char *glibc = t->glibc_symbols
		? xasprintf ("glibc %.1f%%", percent (t->glibc, t->samples))
		: xasprintf ("glibc: not attributable (no symbols)");
  char *s = xasprintf ("%scopy share of %s: %.1f%% of %llu "
		       "user-space samples (libfastcopy %.1f%%, %s)\n",
		       prefix, all ? "the machine" : "the processes sampled",
		       percent (t->fastcopy + t->glibc, t->samples),
		       (unsigned long long) t->samples,
		       percent (t->fastcopy, t->samples), glibc);
  free (glibc);
  for (size_t i = 0; i < t->nprocs && i < PROCS_SHOWN; i++)
    {
      const struct proc_tally *p = &t->procs[i];
      char *comm = printable (p->comm);
      char *line = xasprintf ("%s%s  pid %d%s%s%s: %.1f%% of %llu samples "
			      "(libfastcopy %.1f%%, glibc %.1f%%)\n", s,
			      prefix, (int) p->pid, comm[0] ? " (" : "",
			      comm, comm[0] ? ")" : "",
			      percent (p->fastcopy + p->glibc, p->samples),
			      (unsigned long long) p->samples,
			      percent (p->fastcopy, p->samples),
			      percent (p->glibc, p->samples));
      free (comm);
      free (s);
      s = line;
    }
  if (t->nprocs > PROCS_SHOWN)
    {
      char *line = xasprintf ("%s%s  and %zu more processes\n", s, prefix,
			      t->nprocs - PROCS_SHOWN);
      free (s);
      s = line;
    }
  return s;
}

/* Below this many samples in a family's code, its sampled histogram is
   further than a total variation distance of 0.05 from the exact one on
   the Google distributions, from sampling noise alone (doc/fleet.md),
   and where the sizes mix further still.  */
#define FEW_SAMPLES 60000

/* The warning for the families with samples, but fewer than FEW_SAMPLES:
   a line that starts with PREFIX, or "".  */
static char *
few_samples (const struct family_sum *sum, const char *prefix)
{
  char text[256] = "";
  for (int fam = 0; fam < FASTCOPY_FAMILY_COUNT; fam++)
    if (sum[fam].samples > 0 && sum[fam].samples < FEW_SAMPLES)
      snprintf (text + strlen (text), sizeof text - strlen (text),
		"%s%llu in %s code", text[0] ? ", " : "",
		(unsigned long long) sum[fam].samples,
		fam == FASTCOPY_FAMILY_COPY ? "copy" : "clear");
  if (text[0] == 0)
    return xasprintf ("%s", "");
  return xasprintf ("%sfew samples: %s; below %d a family's histogram "
		    "is rough (more than 0.05 from the exact one on the "
		    "Google distributions): add runs or machines "
		    "(fastcopy-fleet merge) before tuning from it\n", prefix,
		    text, FEW_SAMPLES);
}

/* The warning for the families whose bound B is above FCW_ENOUGH_BOUND: a line
   that starts with PREFIX, or "".  Without a bound, few_samples's.  */
static char *
loose (const struct bound *b, const struct family_sum *sum,
       const char *prefix)
{
  if (b->share < 0)
    return few_samples (sum, prefix);
  char text[256] = "";
  for (int fam = 0; fam < FASTCOPY_FAMILY_COUNT; fam++)
    if (b->tvd[fam] > FCW_ENOUGH_BOUND)
      snprintf (text + strlen (text), sizeof text - strlen (text),
		"%s%s %.3f", text[0] ? ", " : "",
		fam == FASTCOPY_FAMILY_COPY ? "copy" : "clear", b->tvd[fam]);
  if (text[0] == 0)
    return xasprintf ("%s", "");
  return xasprintf ("%srough: the histograms may be off by up to %s (total "
		    "variation distance, 95%%): sample longer, or add runs "
		    "or machines (fastcopy-fleet merge), before tuning from "
		    "it\n", prefix, text);
}

/* The recording's census and bound lines.  */
static char *
census_lines (const struct census_result *cr, double scale,
	      const struct bound *b)
{
  double counted = 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    for (size_t k = 0; k < FC_BUCKETS; k++)
      counted += (double) cr->total[f].size[k].calls;
  char *census = cr->ncovered == 0
    ? xasprintf ("# census: no call counted (%llu windows); every call is "
		 "estimated from the samples\n",
		 (unsigned long long) cr->windows)
    : xasprintf ("# census: %llu windows, %.1f ms in all; %.0f calls "
		 "counted in %zu process%s, each counted call standing for "
		 "%.0f (the run's time over the windows')\n",
		 (unsigned long long) cr->windows, (double) cr->open_ns / 1e6,
		 counted, cr->ncovered, cr->ncovered == 1 ? "" : "es", scale);
  /* A known bound is the workload's (fcw_write writes it).  */
  if (b->share >= 0)
    return census;
  char *s = xasprintf ("%s" FC_REC_BOUND "unknown (fewer than two census "
		       "windows)\n", census);
  free (census);
  return s;
}

static char *
comments (const struct sample_options *o, const struct tallies *t,
	  double seconds, uint64_t lost, uint64_t uncosted,
	  const char *census, const char *warning)
{
  char *share = share_lines (t, o->all, "# ");
  char *command = printable (o->command ? o->command[0] : "");
  char *uncosted_line = uncosted
    ? xasprintf ("# %llu samples of implementations this library does not "
		 "have count as one call each\n", (unsigned long long) uncosted)
    : xasprintf ("%s", "");
  char *s = xasprintf (
    "# sampled by fastcopy-sample: %llu samples at %u Hz over %.1f s (%s), "
    "%llu records lost\n"
    "# samples in libfastcopy bodies: %llu; without a size: %llu; in code "
    "no implementation owns: %llu; in a libfastcopy without a body map: "
    "%llu; of processes gone before their maps were read: %llu; "
    "processes sampled that map libfastcopy: %llu\n"
    "# calls: counted by the census; in a process it did not count, "
    "samples times the period over the time of one call among "
    "the others, measured on this CPU: alone (cost table: %s), times a "
    "factor per class of sizes from a replay of the calls\n%s%s%s%s%s%s%s",
    (unsigned long long) t->samples, o->hz, seconds,
    o->all ? "all CPUs" : o->command ? "a command" : "a process",
    (unsigned long long) lost, (unsigned long long) t->fastcopy,
    (unsigned long long) t->unattributed, (unsigned long long) t->shared,
    (unsigned long long) t->no_body_map, (unsigned long long) t->no_maps,
    (unsigned long long) t->mapped_fastcopy, cost_cache_path[0] ? cost_cache_path : "not kept", census, uncosted_line,
    warning, share, o->command ? "# command: " : "", command, o->command ? "\n" : "");
  free (command);
  free (uncosted_line);
  free (share);
  return s;
}

/* The extra rows: calls per implementation, samples per path.  Returns
   how many.  */
static unsigned int
extra_rows (FILE *f, const struct family_sum *sum)
{
  unsigned int rows = 0;
  for (int fam = 0; fam < FASTCOPY_FAMILY_COUNT; fam++)
    {
      const char *name = fam == FASTCOPY_FAMILY_COPY ? "copy" : "clear";
      for (int i = 0; i < sum[fam].nimpls; i++)
	rows += fprintf (f, "%s,impl,%s,%.0f,%.0f\n", name,
			 sum[fam].impl[i].name, sum[fam].impl[i].t.calls,
			 sum[fam].impl[i].t.bytes) > 0;
      for (int p = 0; p < FC_BODY_PATH_COUNT; p++)
	if (sum[fam].path[p] > 0)
	  rows += fprintf (f, "%s,path,%s,%llu,0\n", name, path_names[p],
			   (unsigned long long) sum[fam].path[p]) > 0;
    }
  return rows;
}

int
output_check (const char *out)
{
  struct stat st;
  if (lstat (out, &st) == 0 && !S_ISREG (st.st_mode))
    {
      error_msg ("%s: %s; not replaced", out, S_ISLNK (st.st_mode)
		 ? "is a symbolic link" : "is not a regular file");
      return -1;
    }
  char *copy = xasprintf ("%s", out);
  int ok = access (dirname (copy), W_OK) == 0;
  if (!ok)
    error_msg ("%s: cannot write in its directory: %s", out,
	       strerror (errno));
  free (copy);
  return ok ? 0 : -1;
}

static int
write_file (const char *out, const char *data, size_t len)
{
  if (output_check (out) != 0)
    return -1;
  char *copy = xasprintf ("%s", out);
  struct stat st;
  struct file_replacement r = {
    .path = out, .dir = dirname (copy),
    .tmp_template = ".fastcopy-sample.XXXXXX",
    .old = stat (out, &st) == 0 ? &st : NULL,
  };
  int ret = file_replace (&r, data, len);
  free (copy);
  return ret;
}

int
output (const struct sample_options *o, const struct tallies *t,
	double seconds, uint64_t lost)
{
  static struct family_sum sum[FASTCOPY_FAMILY_COUNT];
  struct fcw_workload w;
  uint64_t uncosted;
  memset (sum, 0, sizeof sum);
  const struct census_result *cr = census_result ();
  double scale = cr->open_ns > 0 ? seconds * 1e9 / (double) cr->open_ns : 0;
  estimate (t, 1e9 / o->hz, cr, scale, &w, sum, &uncosted);
  struct bound b = bound (cr, scale, &w);
  if (b.share >= 0)
    w.bound = (struct fcw_bound) {
      .known = 1, .tvd = { b.tvd[0], b.tvd[1] }, .share = b.share
    };
  char *census = census_lines (cr, scale, &b);
  char *warning = loose (&b, sum, "# ");
  char *comment = comments (o, t, seconds, lost, uncosted, census, warning);
  free (census);
  free (warning);
  char *rows = NULL, *data = NULL;
  size_t rows_len = 0, len = 0;
  FILE *r = open_memstream (&rows, &rows_len);
  unsigned int nrows = r != NULL ? extra_rows (r, sum) : 0;
  if (r == NULL || fclose (r) != 0)
    {
      error_msg ("out of memory");
      return 1;
    }
  FILE *f = open_memstream (&data, &len);
  if (f == NULL || fcw_write_extra (f, &w, comment, rows, nrows) != 0)
    {
      error_msg ("out of memory");
      return 1;
    }
  free (rows);
  if (fclose (f) != 0)
    {
      error_msg ("out of memory");
      return 1;
    }
  int ret = write_file (o->out, data, len) != 0;
  free (data);
  free (comment);

  char *share = share_lines (t, o->all, "");
  msg ("%llu samples at %u Hz over %.1f s, %llu records lost\n%s",
       (unsigned long long) t->samples, o->hz, seconds,
       (unsigned long long) lost, share);
  free (share);
  if (t->ncalls == 0)
    {
      /* No call attributed.  A process that maps libfastcopy, whose
	 samples reach its exported entry points but no implementation's
	 body, sends its calls on to glibc (glibc=on).  A stray sample in
	 its load code says nothing against that.  */
      char *why = t->no_body_map
		  ? xasprintf ("the libfastcopy mapped has no body map")
		  : t->mapped_fastcopy && t->shared > 0
		    && t->unattributed == 0
		  ? xasprintf ("bypassed: %llu process%s sampled map%s it, and "
			       "%s calls went on to glibc's own functions "
			       "(the setting glibc=on: %llu samples in its "
			       "entry points, %llu in glibc's copy and clear "
			       "functions)",
			       (unsigned long long) t->mapped_fastcopy,
			       t->mapped_fastcopy == 1 ? "" : "es",
			       t->mapped_fastcopy == 1 ? "s" : "",
			       t->mapped_fastcopy == 1 ? "its" : "their",
			       (unsigned long long) t->shared,
			       (unsigned long long) t->glibc)
		  : t->in_fastcopy
		  ? xasprintf ("none of its %llu samples was in a copy or "
			       "clear body",
			       (unsigned long long) t->in_fastcopy)
		  : xasprintf ("no process had it mapped");
      error_msg ("no call of libfastcopy to count: %s; %s has the copy "
		 "share only", why, o->out);
      free (why);
    }
  else if (ret == 0)
    {
      const struct fcw_family *c = &w.family[FASTCOPY_FAMILY_COPY];
      const struct fcw_family *z = &w.family[FASTCOPY_FAMILY_CLEAR];
      msg ("wrote %s: about %.0f copies (mean %.0f bytes) and %.0f clears "
	   "(mean %.0f bytes), from %llu samples in libfastcopy\n", o->out,
	   c->calls, c->calls > 0 ? c->bytes / c->calls : 0, z->calls,
	   z->calls > 0 ? z->bytes / z->calls : 0,
	   (unsigned long long) t->fastcopy);
      if (b.share >= 0)
	msg ("bound (95%%): copy histogram within %.3f, clear histogram "
	     "within %.3f, clears' share within %.3f\n",
	     b.tvd[FASTCOPY_FAMILY_COPY], b.tvd[FASTCOPY_FAMILY_CLEAR],
	     b.share);
      warning = loose (&b, sum, "");
      if (warning[0])
	{
	  warning[strlen (warning) - 1] = 0;
	  error_msg ("%s", warning);
	}
      free (warning);
    }
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    free (w.family[i].bucket);
  return ret;
}
