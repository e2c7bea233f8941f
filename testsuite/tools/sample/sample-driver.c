/* SPDX-License-Identifier: MIT */
/* Programs for fastcopy-sample's tests and measurements to sample; each
   runs for SECONDS of its CPU time and prints what it called, the
   oracle.

   sample-driver fake LIB SECONDS
     fake_copy of LIB (fake-body.S) in turn on 100, 512 and 3000 bytes,
     destinations at 5, 0 and 17 mod 64, (dst - src) mod 4096 3, 40 and
     200.
   sample-driver memcpy SIZE SECONDS [census]
     memcpy of SIZE bytes, through a pointer the compiler cannot see
     through (libfastcopy's when it is preloaded); the calls, and their
     rate per second of CPU time, which other programs on a busy machine
     disturb less than the wall clock's, and per second of the wall
     clock, which counts what the kernel does in the thread's time
     (a sampler's interrupts) wherever the kernel accounts it.  With
     census, the whole run is one census window, opened on itself as
     fastcopy-sample opens one: what a counted call costs.
   sample-driver dist LIB FILE SECONDS OUT [FUNCTION]
     FUNCTION of LIB (default fake_fsrm; memcpy of libfastcopy.so.1) on
     sizes drawn from workload FILE (bench/data, or a recording), places
     as fastcopy-bench draws them; writes the exact count of each size
     bucket to OUT, a recording (common/workload.c).
   sample-driver mix LIB DATA SEED SECONDS OUT
     copies and clears of LIB (libfastcopy.so.1) in a mix drawn from SEED
     (draw_mix): prints the mix and writes the exact count of each
     family's size buckets to OUT.  DATA is bench/data, for the Google
     distributions.  Last, "census: closed" when LIB's entry bytes say
     no census window is open (src/calls/census.h), else "census: open".
   sample-driver compare EXACT ESTIMATE
     the total variation distance between two recordings' size
     histograms, per family, and each one's share of clears.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <link.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/elf-read.h"
#include "common/measure.h"
#include "sample/sample.h"
#include "common/workload.h"

typedef void *(*copy_fn) (void *, const void *, size_t);

/* The thread's CPU time in seconds: each mode runs for SECONDS of it, so
   that it gives the sampler the same number of samples on a busy machine
   as on an idle one.  */
static double
clock_now (clockid_t id)
{
  struct timespec t;
  clock_gettime (id, &t);
  return (double) t.tv_sec + (double) t.tv_nsec / 1e9;
}

static double
cpu_now (void)
{
  return clock_now (CLOCK_THREAD_CPUTIME_ID);
}

static copy_fn
load (const char *lib, const char *name)
{
  void *h = dlopen (lib, RTLD_NOW);
  copy_fn f = h ? (copy_fn) dlsym (h, name) : NULL;
  if (f == NULL)
    {
      fprintf (stderr, "sample-driver: %s: %s\n", lib, dlerror ());
      exit (1);
    }
  return f;
}

/* The census of the libfastcopy that defines ADDR, in this process;
   exits if there is none.  */
static struct fc_census *
census_at (const void *addr)
{
  Dl_info info;
  struct link_map *map;
  void *h = dladdr (addr, &info) ? dlopen (info.dli_fname, RTLD_NOW | RTLD_NOLOAD)
	    : NULL;
  uint64_t at = h != NULL ? elf_section_address (info.dli_fname,
						 FC_CENSUS_SECTION) : 0;
  if (at == 0 || dlinfo (h, RTLD_DI_LINKMAP, &map) != 0)
    {
      fprintf (stderr, "sample-driver: no libfastcopy census here\n");
      exit (1);
    }
  return (struct fc_census *) (map->l_addr + (uintptr_t) at);
}

static int
fake (const char *lib, double seconds)
{
  static const size_t size[3] = { 100, 512, 3000 };
  static const size_t align[3] = { 5, 0, 17 }, dist[3] = { 3, 40, 200 };
  copy_fn f = load (lib, "fake_copy");
  char *buf = aligned_alloc (4096, 4 * 4096);
  unsigned long long calls[3] = { 0, 0, 0 };
  for (double end = cpu_now () + seconds; cpu_now () < end;)
    for (int i = 0; i < 3; i++)
      {
	char *dst = buf + 2 * 4096 + align[i];
	f (dst, dst - dist[i], size[i]);
	calls[i]++;
      }
  for (int i = 0; i < 3; i++)
    printf ("%zu bytes, dst %zu mod 64, dst - src %zu: %llu calls\n",
	    size[i], align[i], dist[i], calls[i]);
  return 0;
}

static int
copy (size_t n, double seconds, int census)
{
  static void *(*volatile memcpy_fn) (void *, const void *, size_t) = memcpy;
  if (census)
    {
      struct fc_census *c = census_at ((const void *) memcpy_fn);
      memcpy (c->saved, c->entry, sizeof c->saved);
      c->deadline = UINT64_MAX;
      memset (c->entry, FC_ENTRY_CENSUS, sizeof c->entry);
    }
  char *dst = malloc (n + 64), *src = malloc (n + 64);
  memset (src, 1, n + 64);
  unsigned long long calls = 0;
  double start = cpu_now (), wall = clock_now (CLOCK_MONOTONIC), cpu;
  while ((cpu = cpu_now () - start) < seconds)
    {
      for (int i = 0; i < 64; i++)
	memcpy_fn (dst, src, n);
      calls += 64;
    }
  wall = clock_now (CLOCK_MONOTONIC) - wall;
  printf ("%zu bytes: %llu calls, %.0f per second of the thread's CPU "
	  "time, %.0f per second of the wall clock\n", n, calls, calls / cpu,
	  calls / wall);
  return 0;
}

static int
dist (const char *lib, const char *file, double seconds, const char *out,
      const char *function)
{
  struct fcw_workload w;
  char err[4500];
  if (fcw_load (&w, file, err, sizeof err) != 0)
    {
      fprintf (stderr, "sample-driver: %s\n", err);
      return 1;
    }
  copy_fn f = load (lib, function);
  size_t nseq = 1 << 16, bytes;
  uint64_t *seq = fcw_sequence (&w, FASTCOPY_FAMILY_COPY, nseq, 1, &bytes);
  size_t span = FCM_SEQ_BUF + fcw_largest (&w, FASTCOPY_FAMILY_COPY) + 64;
  char *dst = fcm_map (span), *src = fcm_map (span);
  static double count[FC_BUCKETS], sum[FC_BUCKETS];
  if (seq == NULL || dst == NULL || src == NULL)
    return 1;
  for (double end = cpu_now () + seconds; cpu_now () < end;)
    for (size_t i = 0; i < nseq; i++)
      {
	size_t n = fcm_seq_size (seq[i]), so = fcm_seq_soff (seq[i]),
	  dof = fcm_seq_doff (seq[i]);
	f (dst + dof, src + so, n);
	count[fc_size_bucket (n)]++;
	sum[fc_size_bucket (n)] += (double) n;
      }
  struct fcw_workload exact;
  memset (&exact, 0, sizeof exact);
  struct fcw_family *fa = &exact.family[FASTCOPY_FAMILY_COPY];
  fa->bucket = calloc (FC_BUCKETS, sizeof *fa->bucket);
  for (size_t b = 0; b < FC_BUCKETS; b++)
    if (count[b] > 0)
      {
	struct fcw_bucket *k = &fa->bucket[fa->nbuckets++];
	fc_size_bucket_range (b, &k->lo, &k->hi);
	k->t.calls = count[b];
	k->t.bytes = sum[b];
      }
  FILE *o = fopen (out, "w");
  if (o == NULL || fcw_write (o, &exact, "# exact, by sample-driver\n") != 0
      || fclose (o) != 0)
    {
      perror (out);
      return 1;
    }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Mixes of copies and clears drawn at random, so that the sampler is
   tried on mixes nobody tuned it to: the share of clears from 0 to 60%;
   one to four streams of copies and up to three of clears, each of one
   function, its sizes fixed, uniform over a range or drawn from a Google
   distribution, each with a weight; large copies or none.  */

static uint64_t rng_state;

static uint64_t
rng (void)
{
  /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static double
uniform (void)
{
  return (double) (rng () >> 11) / (double) (1ull << 53);
}

/* A size from LO to HI, even on a log scale.  */
static size_t
log_uniform (size_t lo, size_t hi)
{
  size_t n = (size_t) (lo * pow ((double) hi / lo, uniform ()));
  return n < lo ? lo : n > hi ? hi : n;
}

enum law { LAW_FIXED, LAW_UNIFORM, LAW_GOOGLE };
static const char *const law_names[] = { "fixed", "uniform", "google" };

enum function_id
{
  F_MEMCPY, F_MEMMOVE, F_MEMPCPY, F_MEMSET, F_BZERO, F_EXPLICIT_BZERO
};
static const char *const function_names[] = {
  "memcpy", "memmove", "mempcpy", "memset", "bzero", "explicit_bzero"
};

struct stream
{
  int family;
  enum function_id function_id;
  const char *function;
  enum law law;
  size_t lo, hi;		/* fixed: lo; uniform: lo..hi */
  uint64_t *google;		/* LAW_GOOGLE: a sequence drawn from it */
  const char *google_name;
  int overlap;			/* memmove: 1 dst = src + n/2, -1 below */
  double weight;		/* of the family's calls */
};

#define MIX_STREAMS 8
#define MIX_SEQ (1u << 16)
static const char *const google[] = { "A", "B", "D", "L", "M", "Q", "S", "U" };

static void
draw_law (struct stream *st, const char *data, size_t fixed_max)
{
  double u = uniform ();
  if (u < 0.35)
    {
      st->law = LAW_FIXED;
      st->lo = st->hi = log_uniform (1, fixed_max);
    }
  else if (u < 0.7)
    {
      st->law = LAW_UNIFORM;
      st->lo = log_uniform (1, 2048);
      st->hi = st->lo * (2 + rng () % 15);
    }
  else
    {
      char path[4200];
      struct fcw_workload w;
      char err[4500];
      size_t bytes;
      st->law = LAW_GOOGLE;
      st->google_name = google[rng () % 8];
      snprintf (path, sizeof path, "%s/MemcpyGoogle%s.csv", data,
		st->google_name);
      if (fcw_load (&w, path, err, sizeof err) != 0
	  || (st->google = fcw_sequence (&w, FASTCOPY_FAMILY_COPY, MIX_SEQ,
					 rng (), &bytes)) == NULL)
	{
	  fprintf (stderr, "sample-driver: %s\n", err);
	  exit (1);
	}
      st->lo = 0;
      st->hi = fcw_largest (&w, FASTCOPY_FAMILY_COPY);
    }
}

/* The mix of SEED: its streams into ST, the share of clears into
   *CLEARS.  Returns the number of streams.  */
static int
draw_mix (uint64_t seed, const char *data, struct stream *st,
	  double *clears)
{
  static const enum function_id copies[] = { F_MEMCPY, F_MEMCPY,
					      F_MEMMOVE, F_MEMPCPY };
  static const enum function_id zeros[] = { F_MEMSET, F_MEMSET, F_BZERO,
					    F_EXPLICIT_BZERO };
  int n = 0;
  rng_state = seed;
  *clears = uniform () < 0.15 ? 0 : 0.6 * uniform ();
  for (int k = 1 + (int) (rng () % 4); k > 0; k--, n++)
    {
      st[n].family = FASTCOPY_FAMILY_COPY;
      st[n].function_id = copies[rng () % 4];
      st[n].function = function_names[st[n].function_id];
      draw_law (&st[n], data, 4096);
      st[n].overlap = st[n].function_id == F_MEMMOVE
		      ? (int) (rng () % 3) - 1 : 0;
      st[n].weight = 0.1 + uniform ();
    }
  if (uniform () < 0.5)
    {
      /* Large copies: rare calls, a good share of the time.  */
      double sum = 0;
      for (int i = 0; i < n; i++)
	sum += st[i].weight;
      st[n] = (struct stream) { .family = FASTCOPY_FAMILY_COPY,
				.function_id = F_MEMCPY, .function = "memcpy",
				.law = LAW_UNIFORM,
				.lo = 16384, .hi = 262144,
				.weight = sum * (0.005 + 0.03 * uniform ()) };
      n++;
    }
  if (*clears > 0)
    for (int k = 1 + (int) (rng () % 3); k > 0; k--, n++)
      {
	st[n].family = FASTCOPY_FAMILY_CLEAR;
	st[n].function_id = zeros[rng () % 4];
	st[n].function = function_names[st[n].function_id];
	draw_law (&st[n], data, 8192);
	st[n].overlap = 0;
	st[n].weight = 0.1 + uniform ();
      }
  return n;
}

/* The size of call I of stream ST.  */
static size_t
stream_size (const struct stream *st, size_t i)
{
  switch (st->law)
    {
    case LAW_FIXED:
      return st->lo;
    case LAW_UNIFORM:
      return st->lo + rng () % (st->hi - st->lo + 1);
    default:
      return fcm_seq_size (st->google[i % MIX_SEQ]);
    }
}

static int
write_counts (const char *out, const char *comment,
	      double count[FASTCOPY_FAMILY_COUNT][FC_BUCKETS],
	      double sum[FASTCOPY_FAMILY_COUNT][FC_BUCKETS])
{
  struct fcw_workload exact;
  memset (&exact, 0, sizeof exact);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      struct fcw_family *fa = &exact.family[f];
      fa->bucket = calloc (FC_BUCKETS, sizeof *fa->bucket);
      for (size_t b = 0; b < FC_BUCKETS; b++)
	if (count[f][b] > 0)
	  {
	    struct fcw_bucket *k = &fa->bucket[fa->nbuckets++];
	    fc_size_bucket_range (b, &k->lo, &k->hi);
	    k->t.calls = count[f][b];
	    k->t.bytes = sum[f][b];
	  }
    }
  FILE *o = fopen (out, "w");
  if (o == NULL || fcw_write (o, &exact, comment) != 0 || fclose (o) != 0)
    {
      perror (out);
      return 1;
    }
  return 0;
}

static int
mix (const char *lib, const char *data, uint64_t seed, double seconds,
     const char *out)
{
  struct stream st[MIX_STREAMS];
  double clears;
  int n = draw_mix (seed, data, st, &clears);
  void *h = dlopen (lib, RTLD_NOW);
  if (h == NULL)
    {
      fprintf (stderr, "sample-driver: %s\n", dlerror ());
      return 1;
    }
  struct
  {
    void *(*memcpy) (void *, const void *, size_t);
    void *(*memmove) (void *, const void *, size_t);
    void *(*mempcpy) (void *, const void *, size_t);
    void *(*memset) (void *, int, size_t);
    void (*bzero) (void *, size_t);
    void (*explicit_bzero) (void *, size_t);
  } fn;
  if ((*(void **) &fn.memcpy = dlsym (h, "memcpy")) == NULL
      || (*(void **) &fn.memmove = dlsym (h, "memmove")) == NULL
      || (*(void **) &fn.mempcpy = dlsym (h, "mempcpy")) == NULL
      || (*(void **) &fn.memset = dlsym (h, "memset")) == NULL
      || (*(void **) &fn.bzero = dlsym (h, "bzero")) == NULL
      || (*(void **) &fn.explicit_bzero = dlsym (h, "explicit_bzero")) == NULL)
    {
      fprintf (stderr, "sample-driver: %s: %s\n", lib, dlerror ());
      return 1;
    }
  size_t largest = 0;
  printf ("mix %llu: clears %.3f of the calls\n", (unsigned long long) seed,
	  clears);
  for (int i = 0; i < n; i++)
    {
      if (st[i].hi > largest)
	largest = st[i].hi;
      printf ("  %-5s %-14s weight %.3f  %s", st[i].family == FASTCOPY_FAMILY_COPY
	      ? "copy" : "clear", st[i].function, st[i].weight,
	      law_names[st[i].law]);
      if (st[i].law == LAW_GOOGLE)
	printf (" Google%s", st[i].google_name);
      else if (st[i].law == LAW_FIXED)
	printf (" %zu", st[i].lo);
      else
	printf (" %zu..%zu", st[i].lo, st[i].hi);
      printf ("%s\n", st[i].overlap > 0 ? ", overlapping, dst above src"
	      : st[i].overlap < 0 ? ", overlapping, dst below src" : "");
    }

  /* The calls: a stream each, by the weights within its family, and
     places spread over FCM_SEQ_BUF as fastcopy-bench's.  */
  static uint32_t call_stream[MIX_SEQ], call_size[MIX_SEQ], call_off[MIX_SEQ][2];
  double wsum[FASTCOPY_FAMILY_COUNT] = { 0, 0 };
  for (int i = 0; i < n; i++)
    wsum[st[i].family] += st[i].weight;
  for (size_t c = 0; c < MIX_SEQ; c++)
    {
      int family = uniform () < clears ? FASTCOPY_FAMILY_CLEAR
		   : FASTCOPY_FAMILY_COPY;
      double u = uniform () * wsum[family];
      int k = -1;
      for (int i = 0; i < n; i++)
	if (st[i].family == family && (k = i, (u -= st[i].weight) < 0))
	  break;
      call_stream[c] = (uint32_t) k;
      call_size[c] = (uint32_t) stream_size (&st[k], c);
      call_off[c][0] = (uint32_t) (rng () % FCM_SEQ_BUF);
      call_off[c][1] = (uint32_t) (rng () % FCM_SEQ_BUF);
    }
  size_t span = 2 * FCM_SEQ_BUF + 2 * largest + 4096;
  char *dst = fcm_map (span), *src = fcm_map (span);
  if (dst == NULL || src == NULL)
    return 1;
  static double count[FASTCOPY_FAMILY_COUNT][FC_BUCKETS],
    sum[FASTCOPY_FAMILY_COUNT][FC_BUCKETS];
  for (double end = cpu_now () + seconds; cpu_now () < end;)
    for (size_t c = 0; c < MIX_SEQ; c++)
      {
	const struct stream *s = &st[call_stream[c]];
	size_t len = call_size[c];
	char *d = dst + largest + call_off[c][0], *o = src + call_off[c][1];
	if (s->overlap != 0)
	  o = d - s->overlap * (ptrdiff_t) (len / 2 + 1);
	/* A call site for each function, as a program calls each through
	   its PLT entry: a call through one pointer to all of them would
	   mispredict its target and charge that to the callee.  */
	switch (s->function_id)
	  {
	  case F_MEMCPY:
	    fn.memcpy (d, o, len);
	    break;
	  case F_MEMMOVE:
	    fn.memmove (d, o, len);
	    break;
	  case F_MEMPCPY:
	    fn.mempcpy (d, o, len);
	    break;
	  case F_MEMSET:
	    fn.memset (d, (int) c, len);
	    break;
	  case F_BZERO:
	    fn.bzero (d, len);
	    break;
	  default:
	    fn.explicit_bzero (d, len);
	    break;
	  }
	count[s->family][fc_size_bucket (len)]++;
	sum[s->family][fc_size_bucket (len)] += (double) len;
      }
  char comment[96];
  snprintf (comment, sizeof comment, "# exact, by sample-driver mix %llu\n",
	    (unsigned long long) seed);
  const struct fc_census *census = census_at ((const void *) fn.memcpy);
  printf ("census: %s\n", census->entry[0] == FC_ENTRY_CENSUS
	  || census->entry[1] == FC_ENTRY_CENSUS ? "open" : "closed");
  return write_counts (out, comment, count, sum);
}

/* The share of each size bucket of FA among its calls, by bucket.  */
static double
share_at (const struct fcw_family *fa, double total, unsigned long long lo)
{
  for (size_t i = 0; i < fa->nbuckets; i++)
    if (fa->bucket[i].lo == lo)
      return fa->bucket[i].t.calls / total;
  return 0;
}

static double
family_calls (const struct fcw_family *fa)
{
  double total = 0;
  for (size_t i = 0; i < fa->nbuckets; i++)
    total += fa->bucket[i].t.calls;
  return total;
}

static int
compare (const char *exact_path, const char *estimate_path)
{
  struct fcw_workload w[2];
  char err[4500];
  const char *path[2] = { exact_path, estimate_path };
  for (int i = 0; i < 2; i++)
    if (fcw_load (&w[i], path[i], err, sizeof err) != 0)
      {
	fprintf (stderr, "sample-driver: %s\n", err);
	return 1;
      }
  double calls[2][FASTCOPY_FAMILY_COUNT];
  for (int i = 0; i < 2; i++)
    for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
      calls[i][f] = family_calls (&w[i].family[f]);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      double tvd = 0;
      if (calls[0][f] > 0 && calls[1][f] > 0)
	{
	  /* Over the buckets of both: each one's shares.  */
	  for (int i = 0; i < 2; i++)
	    {
	      const struct fcw_family *fa = &w[i].family[f];
	      for (size_t b = 0; b < fa->nbuckets; b++)
		{
		  unsigned long long lo = fa->bucket[b].lo;
		  if (i == 1 && share_at (&w[0].family[f], calls[0][f], lo) > 0)
		    continue;	/* counted from the exact side */
		  tvd += fabs (share_at (&w[0].family[f], calls[0][f], lo)
			       - share_at (&w[1].family[f], calls[1][f], lo));
		}
	    }
	  tvd /= 2;
	}
      printf ("%s tvd %.4f exact_calls %.0f estimated_calls %.0f\n",
	      f == FASTCOPY_FAMILY_COPY ? "copy" : "clear",
	      calls[0][f] > 0 && calls[1][f] > 0 ? tvd : -1.0, calls[0][f],
	      calls[1][f]);
    }
  for (int i = 0; i < 2; i++)
    {
      double all = calls[i][0] + calls[i][1];
      printf ("%s clear_share %.4f\n", i == 0 ? "exact" : "estimate",
	      all > 0 ? calls[i][FASTCOPY_FAMILY_CLEAR] / all : 0);
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 7 && strcmp (argv[1], "mix") == 0)
    return mix (argv[2], argv[3], strtoull (argv[4], NULL, 10),
		atof (argv[5]), argv[6]);
  if (argc == 4 && strcmp (argv[1], "compare") == 0)
    return compare (argv[2], argv[3]);
  if (argc == 4 && strcmp (argv[1], "fake") == 0)
    return fake (argv[2], atof (argv[3]));
  if ((argc == 4 || (argc == 5 && strcmp (argv[4], "census") == 0))
      && strcmp (argv[1], "memcpy") == 0)
    return copy ((size_t) atol (argv[2]), atof (argv[3]), argc == 5);
  if ((argc == 6 || argc == 7) && strcmp (argv[1], "dist") == 0)
    return dist (argv[2], argv[3], atof (argv[4]), argv[5],
		 argc == 7 ? argv[6] : "fake_fsrm");
  fprintf (stderr, "usage: sample-driver fake LIB SECONDS | memcpy SIZE "
	   "SECONDS [census] | dist LIB FILE SECONDS OUT [FUNCTION] | mix LIB DATA "
	   "SEED SECONDS OUT | compare EXACT ESTIMATE\n");
  return 2;
}
