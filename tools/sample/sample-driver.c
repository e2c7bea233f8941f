/* SPDX-License-Identifier: MIT */
/* Programs for fastcopy-sample's tests and measurements to sample; each
   runs for SECONDS of its CPU time and prints what it called, the
   oracle.

   sample-driver fake LIB SECONDS
     fake_copy of LIB (fake-body.S) in turn on 100, 512 and 3000 bytes,
     destinations at 5, 0 and 17 mod 64, (dst - src) mod 4096 3, 40 and
     200.
   sample-driver memcpy SIZE SECONDS
     memcpy of SIZE bytes, through a pointer the compiler cannot see
     through (libfastcopy's when it is preloaded); the calls, and their
     rate per second of CPU time, which other programs on a busy machine
     disturb less than the wall clock's, and per second of the wall
     clock, which counts what the kernel does in the thread's time
     (a sampler's interrupts) wherever the kernel accounts it.
   sample-driver dist LIB FILE SECONDS OUT [FUNCTION]
     FUNCTION of LIB (default fake_fsrm; memcpy of libfastcopy.so.1) on
     sizes drawn from workload FILE (bench/data, or a recording), places
     as fastcopy-bench draws them; writes the exact count of each size
     bucket to OUT, a recording (bench/workload.c).  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "measure.h"
#include "sample/sample.h"
#include "workload.h"

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
copy (size_t n, double seconds)
{
  static void *(*volatile memcpy_fn) (void *, const void *, size_t) = memcpy;
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

int
main (int argc, char **argv)
{
  if (argc == 4 && strcmp (argv[1], "fake") == 0)
    return fake (argv[2], atof (argv[3]));
  if (argc == 4 && strcmp (argv[1], "memcpy") == 0)
    return copy ((size_t) atol (argv[2]), atof (argv[3]));
  if ((argc == 6 || argc == 7) && strcmp (argv[1], "dist") == 0)
    return dist (argv[2], argv[3], atof (argv[4]), argv[5],
		 argc == 7 ? argv[6] : "fake_fsrm");
  fprintf (stderr, "usage: sample-driver fake LIB SECONDS | memcpy SIZE "
	   "SECONDS | dist LIB FILE SECONDS OUT [FUNCTION]\n");
  return 2;
}
