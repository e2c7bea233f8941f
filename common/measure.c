/* SPDX-License-Identifier: MIT */
/* The measuring engine of fastcopy-bench and fastcopy-tune: timing, the
   calibration of repetitions, interleaved rounds with the median, samples
   retaken after a context switch, pinning (the method: measure.h).  */

#define _GNU_SOURCE 1
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>

#include "common/measure.h"

unsigned long fcm_samples_taken, fcm_samples_retaken;

uint64_t
fcm_now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* The function pointer is re-read from a volatile variable for every call,
   so the compiler can neither inline it nor hoist anything out of it.  */
uint64_t
fcm_time (const struct fcm_fn *fn, struct fcm_calls *calls, uint64_t reps)
{
  char *d = calls->dst;
  const char *s = calls->src;
  size_t n = calls->n;
  int fill = calls->fill;
  fcm_copy_fn volatile copy = fn->copy;
  fcm_set_fn volatile set = fn->set;
  fcm_zero_fn volatile zero = fn->zero;
  uint64_t t0 = 0, t1 = 0;

  switch (calls->layout)
    {
    case FCM_SAME:
      t0 = fcm_now_ns ();
      switch (fn->call)
	{
	case FCM_COPY: for (uint64_t r = 0; r < reps; r++) copy (d, s, n); break;
	case FCM_SET: for (uint64_t r = 0; r < reps; r++) set (d, fill, n); break;
	case FCM_ZERO: for (uint64_t r = 0; r < reps; r++) zero (d, n); break;
	}
      t1 = fcm_now_ns ();
      break;

    case FCM_SLOTS:
      {
	size_t cur = calls->cursor, ns = calls->nslots, stride = calls->stride;
	const uint32_t *order = calls->order;
	t0 = fcm_now_ns ();
	for (uint64_t r = 0; r < reps; r++)
	  {
	    size_t off = (size_t) order[cur] * stride;
	    if (++cur == ns)
	      cur = 0;
	    switch (fn->call)
	      {
	      case FCM_COPY: copy (d + off, s + off, n); break;
	      case FCM_SET: set (d + off, fill, n); break;
	      case FCM_ZERO: zero (d + off, n); break;
	      }
	  }
	t1 = fcm_now_ns ();
	calls->cursor = cur;
      }
      break;

    case FCM_SEQUENCE:
      {
	const uint64_t *seq = calls->seq, *end = seq + calls->nseq;
	t0 = fcm_now_ns ();
	for (uint64_t r = 0; r < reps; r++)
	  switch (fn->call)
	    {
	    case FCM_COPY:
	      for (const uint64_t *e = seq; e < end; e++)
		copy (d + fcm_seq_doff (*e), s + fcm_seq_soff (*e),
		      fcm_seq_size (*e));
	      break;
	    case FCM_SET:
	      for (const uint64_t *e = seq; e < end; e++)
		set (d + fcm_seq_doff (*e), fill, fcm_seq_size (*e));
	      break;
	    case FCM_ZERO:
	      for (const uint64_t *e = seq; e < end; e++)
		zero (d + fcm_seq_doff (*e), fcm_seq_size (*e));
	      break;
	    }
	t1 = fcm_now_ns ();
      }
      break;
    }
  return t1 - t0;
}

/* A repetition count whose sample lasts about TARGET ns.  */
static uint64_t
calibrate_one (const struct fcm_fn *fn, struct fcm_calls *calls,
	       uint64_t target)
{
  uint64_t reps = 1;
  if (fn->before != NULL)
    fn->before (fn, calls);
  for (;;)
    {
      uint64_t t = fcm_time (fn, calls, reps);
      if (t >= target / 4 || reps >= (1ull << 36))
	{
	  double r = (double) reps * (double) target / (double) (t ? t : 1);
	  return r < 1 ? 1 : (uint64_t) r;
	}
      uint64_t mul = t ? target / 4 / t + 1 : 16;
      reps *= mul < 2 ? 2 : mul > 16 ? 16 : mul;
    }
}

void
fcm_calibrate (struct fcm_point *p)
{
  for (int k = 0; k < p->nfn; k++)
    p->reps[k] = calibrate_one (p->fn[k], &p->calls, p->target_ns);
}

/* Context switches of this thread so far.  */
static long
switches (void)
{
  struct rusage ru;
  if (getrusage (RUSAGE_THREAD, &ru) != 0)
    return 0;
  return ru.ru_nivcsw + ru.ru_nvcsw;
}

/* A sample during which the thread was switched out measured some other
   program too: take it again, up to 4 times (once for a sample that ran
   over 4 times TARGET ns, a huge call that a busy machine would switch out
   every time), and if every attempt was switched out keep the shortest.
   On a busy machine this removes most of the noise that a median alone
   would keep.  Returns ns per repetition.  */
static double
sample (const struct fcm_fn *fn, struct fcm_calls *calls, uint64_t reps,
	uint64_t target)
{
  uint64_t best = UINT64_MAX;
  int attempts = 5;
  if (fn->before != NULL)
    fn->before (fn, calls);
  for (int attempt = 0; attempt < attempts; attempt++)
    {
      long before = switches ();
      uint64_t t = fcm_time (fn, calls, reps);
      if (switches () == before)
	{
	  best = t;
	  break;
	}
      fcm_samples_retaken++;
      best = t < best ? t : best;
      if (t > 4 * target)
	attempts = 2;
    }
  fcm_samples_taken++;
  return (double) best / (double) reps;
}

void
fcm_round (struct fcm_point *p, unsigned int rotate)
{
  unsigned int r = p->rounds++;
  for (int j = 0; j < p->nfn; j++)
    {
      int k = (int) ((j + rotate) % (unsigned int) p->nfn);
      p->t[k][r] = sample (p->fn[k], &p->calls, p->reps[k], p->target_ns);
    }
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
fcm_median (double *v, size_t n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void
fcm_medians (struct fcm_point *p, double *med)
{
  for (int k = 0; k < p->nfn; k++)
    med[k] = fcm_median (p->t[k], p->rounds);
}

void
fcm_measure (struct fcm_point *p, unsigned int rounds, double *med)
{
  fcm_calibrate (p);
  for (unsigned int r = 0; r < rounds; r++)
    fcm_round (p, r);
  fcm_medians (p, med);
}

uint32_t *
fcm_slots (struct fcm_calls *c, size_t size, size_t pool, uint64_t seed)
{
  size_t span = size > pool ? size : pool;
  size_t unit = size >= 4096 ? 4096 : 64;
  c->stride = (size + unit - 1) / unit * unit;
  if (c->stride == 0)
    c->stride = unit;
  c->nslots = span / c->stride;
  if (c->nslots == 0)
    c->nslots = 1;
  c->cursor = 0;
  uint32_t *v = malloc (c->nslots * sizeof *v);
  c->order = v;
  if (v == NULL)
    return NULL;
  uint64_t st = seed ^ c->nslots;
  for (size_t i = 0; i < c->nslots; i++)
    v[i] = (uint32_t) i;
  for (size_t i = c->nslots - 1; i > 0; i--)
    {
      size_t j = fcm_splitmix64 (&st) % (i + 1);
      uint32_t t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  return v;
}

void *
fcm_map (size_t bytes)
{
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  unsigned char *c = p;
  for (size_t i = 0; i < bytes; i += 64)
    c[i] = (unsigned char) (i >> 6);
  return p;
}

void
fcm_unmap (void *p, size_t bytes)
{
  if (p != NULL)
    munmap (p, bytes);
}

/* Idle ticks per CPU from /proc/stat into IDLE[CPU_SETSIZE]; 0 on
   success.  */
static int
idle_ticks (unsigned long long *idle)
{
  FILE *f = fopen ("/proc/stat", "r");
  if (f == NULL)
    return -1;
  char line[512];
  while (fgets (line, sizeof line, f) != NULL)
    {
      int cpu;
      unsigned long long v[5];
      if (sscanf (line, "cpu%d %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
		  &v[2], &v[3], &v[4]) == 6 && cpu >= 0 && cpu < CPU_SETSIZE)
	idle[cpu] = v[3] + v[4];
    }
  fclose (f);
  return 0;
}

static int
idlest_cpu (void)
{
  static unsigned long long a[CPU_SETSIZE], b[CPU_SETSIZE];
  cpu_set_t allowed;
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0 || idle_ticks (a) != 0)
    return sched_getcpu ();
  struct timespec ts = { 0, 100 * 1000 * 1000 };
  nanosleep (&ts, NULL);
  if (idle_ticks (b) != 0)
    return sched_getcpu ();
  int best = -1;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &allowed) && (best < 0 || b[c] - a[c] > b[best] - a[best]))
      best = c;
  return best >= 0 ? best : sched_getcpu ();
}

int
fcm_cpu_allowed (int cpu)
{
  cpu_set_t allowed;
  return sched_getaffinity (0, sizeof allowed, &allowed) == 0
	 && CPU_ISSET (cpu, &allowed);
}

int
fcm_pin (int cpu)
{
  if (cpu < 0)
    cpu = idlest_cpu ();
  if (cpu < 0)
    return -1;
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  if (sched_setaffinity (0, sizeof set, &set) != 0)
    return -1;
  return cpu;
}
