/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: what a call costs among the calls around it.

   The cost table (cost.c) times each size alone in a loop: its branches
   always go the same way and its data stays in the first-level cache.
   In a program whose sizes vary, a call pays for the branch that sent it
   elsewhere last time and for data further away, and not every size
   alike: where most calls are small, the few larger ones pay for the
   mispredicted size test.  Samples are time, so dividing them by the
   table's cost counted the 65-512-byte calls of the Google distributions
   1.3 to 2 times over on Zen 5, and the small ones 0.8 times
   (doc/bench/amd-26-2-sampler-accuracy-*.txt).

   So the sampler measures the context the way it measures the program:
   a child process replays the calls the samples estimate (sizes drawn
   from that estimate, at places spread over 256 KiB as fastcopy-bench
   draws them) and counts each one, while the sampler samples it at a
   high rate through the same events and body map.  For each class of
   sizes (powers of two), the replay's samples times their period over
   the table's time of the calls it made is the factor by which the
   class's calls take longer in context; cost_of multiplies the table's
   cost by it.  The replay draws its sizes independently, call after
   call, which is what the distributions this project ships look like;
   a program whose sizes come in runs predicts its size tests better
   than the replay, and its rarer sizes are counted low.  */

#define _GNU_SOURCE 1
#include <signal.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/message.h"
#include "fastcopy.h"
#include "common/measure.h"
#include "sample/sample.h"
#include "common/workload.h"

/* The replay: its sequence of calls, the CPU time it runs for, the wall
   clock time it may take at most (on a machine whose other programs
   leave it a tenth of a CPU) and its sampling rate.  */
#define REPLAY_CALLS 65536
#define REPLAY_SECONDS 1
#define REPLAY_WALL_SECONDS 10
#define REPLAY_HZ 9973
/* Rounds of replay (choose_factors), and the first of those whose
   samples give the factors kept.  */
#define ROUNDS 6
#define KEPT_FROM 3
/* A class's factor rests on at least this many of the replay's
   samples.  */
#define MIN_CLASS_SAMPLES 50

struct factors
{
  int family;
  char impl[16];
  double factor[CLASSES];	/* 0: none measured */
};

static struct factors *factors;
static size_t nfactors;

static struct factors *
find_factors (int family, const char *impl)
{
  for (size_t i = 0; i < nfactors; i++)
    if (factors[i].family == family && strcmp (factors[i].impl, impl) == 0)
      return &factors[i];
  return NULL;
}

static double
wall_seconds (void)
{
  return (double) fcm_now_ns () / 1e9;
}

static void
replay_done (int sig)
{
  (void) sig;
  _exit (0);
}

/* The child: SEQ's calls to IMPL over and over for REPLAY_SECONDS of its
   CPU time, each one counted in CALLS by bucket, once GO is readable.  A
   timer ends it, so that a pass of large copies cannot run on for
   minutes; it dies with the sampler, however the sampler ends.  */
static void __attribute__ ((noreturn))
replay (const struct fastcopy_impl *impl, int family, const uint64_t *seq,
	size_t largest, double *calls, int go, pid_t sampler)
{
  if (prctl (PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid () != sampler)
    _exit (1);
  /* The sequence's sizes stop at FCM_SEQ_MAX_SIZE (fcw_sequence).  */
  size_t bytes = FCM_SEQ_BUF + (largest < FCM_SEQ_MAX_SIZE
				? largest : FCM_SEQ_MAX_SIZE) + 64;
  char *dst = fcm_map (bytes), *src = fcm_map (bytes), c;
  struct sigaction sa = { .sa_handler = replay_done };
  struct itimerval cpu = { .it_value = { .tv_sec = REPLAY_SECONDS } };
  if (dst == NULL || src == NULL || sigaction (SIGPROF, &sa, NULL) != 0
      || read (go, &c, 1) != 1 || setitimer (ITIMER_PROF, &cpu, NULL) != 0)
    _exit (1);
  for (;;)
    for (size_t i = 0; i < REPLAY_CALLS; i++)
      {
	size_t n = fcm_seq_size (seq[i]), so = fcm_seq_soff (seq[i]),
	  dof = fcm_seq_doff (seq[i]);
	if (family == FASTCOPY_FAMILY_COPY)
	  impl->copy (dst + dof, src + so, n);
	else
	  impl->clear (dst + dof, (int) so & 0xff, n);
	calls[fc_size_bucket (n)]++;
      }
}

/* ns per call of IMPL of FAMILY on SIZE bytes: the time alone times
   FACTOR's class, or, where FACTOR is NULL, the first round's start
   (choose_factors): the time alone squared, and above
   LOOPLESS_UPTO bytes the time alone times its time per
   LOOPLESS_UPTO bytes.  */
static double
cost_with (int family, const char *impl, uint64_t size, const double *factor)
{
  double ns = cost_alone (family, impl, size);
  if (factor == NULL)
    return size > LOOPLESS_UPTO
	   ? ns * ns * LOOPLESS_UPTO / (double) size : ns * ns;
  return factor[size_class (size)] > 0 ? ns * factor[size_class (size)] : ns;
}

/* The calls of IMPL the samples in T estimate with FACTOR
   (cost_with), as a workload's family.  */
static void
estimated_calls (const struct tallies *t, int family, const char *impl,
		 const double *factor, struct fcw_family *fa)
{
  double *calls = zalloc (FC_BUCKETS * sizeof *calls);
  for (size_t i = 0; i < t->ncalls; i++)
    {
      const struct call_sample *c = &t->calls[i];
      double ns = c->family == family && strcmp (c->impl, impl) == 0
		  ? cost_with (family, impl, c->size, factor) : 0;
      if (ns > 0)
	calls[fc_size_bucket (c->size)] += 1 / ns;
    }
  fa->bucket = xrealloc (NULL, FC_BUCKETS * sizeof *fa->bucket);
  for (size_t b = 0; b < FC_BUCKETS; b++)
    if (calls[b] > 0)
      {
	struct fcw_bucket *k = &fa->bucket[fa->nbuckets++];
	fc_size_bucket_range (b, &k->lo, &k->hi);
	k->t.calls = calls[b];
      }
  free (calls);
}

/* What replays found, per class: their sampled time, the table's time
   of the calls they made, and the number of samples.  */
struct replay_time
{
  double sampled[CLASSES], alone[CLASSES];
  unsigned long long samples[CLASSES];
};

/* Replay the calls of F's implementation that T's samples estimate with
   FACTOR in a child sampled at REPLAY_HZ, and add what it found to SUM.
   Returns 0, or -1 if it could not.  */
static int
measure (const struct tallies *t, const struct factors *f,
	 const double *factor, struct replay_time *sum)
{
  const struct fastcopy_impl *impl = fastcopy_impl_find (f->family, f->impl);
  if (impl == NULL || !fastcopy_impl_usable (impl)
      || impl->traits & FASTCOPY_TRAIT_PROFILE)
    return -1;
  struct fcw_workload w;
  memset (&w, 0, sizeof w);
  struct fcw_family *fa = &w.family[f->family];
  estimated_calls (t, f->family, f->impl, factor, fa);
  size_t bytes;
  uint64_t *seq = fa->nbuckets > 0 && fcw_sum_family (fa) == 0
		  ? fcw_sequence (&w, f->family, REPLAY_CALLS, 1, &bytes)
		  : NULL;
  double *calls = mmap (NULL, FC_BUCKETS * sizeof *calls,
			PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
			-1, 0);
  int go[2] = { -1, -1 }, ret = -1;
  pid_t child = -1, sampler = getpid ();
  if (seq == NULL || calls == MAP_FAILED || pipe (go) != 0
      || (child = fork ()) < 0)
    goto out;
  if (child == 0)
    {
      close (go[1]);
      replay (impl, f->family, seq, fa->max_size, calls, go[0], sampler);
    }
  close (go[0]);
  go[0] = -1;
  struct sample_options ro = { .pid = child, .hz = REPLAY_HZ };
  struct perf_session *s = perf_open (&ro, child, 0);
  if (s == NULL)
    {
      kill (child, SIGKILL);
      waitpid (child, NULL, 0);
      goto out;
    }
  procs_reset ();
  perf_enable (s);
  int status = 1;
  double give_up = wall_seconds () + REPLAY_WALL_SECONDS;
  if (write (go[1], "g", 1) == 1)
    while (waitpid (child, &status, WNOHANG) == 0)
      {
	if (sample_stop || wall_seconds () > give_up)
	  {
	    kill (child, SIGKILL);
	    waitpid (child, &status, 0);
	    break;
	  }
	perf_read (s, 100, &procs_sink);
      }
  else
    {
      kill (child, SIGKILL);
      waitpid (child, NULL, 0);
    }
  perf_read (s, 0, &procs_sink);
  perf_close (s);
  if (!WIFEXITED (status) || WEXITSTATUS (status) != 0)
    goto out;

  /* Per class: the replay's sampled time, and the table's time of the
     calls it made.  */
  struct tallies r;
  procs_tallies (&r);
  for (size_t i = 0; i < r.ncalls; i++)
    if (r.calls[i].family == f->family
	&& strcmp (r.calls[i].impl, f->impl) == 0)
      {
	unsigned int c = size_class (r.calls[i].size);
	sum->samples[c]++;
	sum->sampled[c] += 1e9 / REPLAY_HZ;
      }
  for (size_t b = 0; b < FC_BUCKETS; b++)
    if (calls[b] > 0)
      {
	unsigned long long lo, hi;
	fc_size_bucket_range (b, &lo, &hi);
	sum->alone[size_class (lo)] += calls[b] * cost_alone (f->family,
							       f->impl, lo);
      }
  free (r.calls);
  free (r.procs);
  ret = 0;
out:
  if (go[0] >= 0)
    close (go[0]);
  if (go[1] >= 0)
    close (go[1]);
  if (calls != MAP_FAILED)
    munmap (calls, FC_BUCKETS * sizeof *calls);
  free (seq);
  free (fa->bucket);
  free (fa->cdf);
  return ret;
}

static void
replay_time_add (struct replay_time *sum, const struct replay_time *r)
{
  for (unsigned int c = 0; c < CLASSES; c++)
    {
      sum->sampled[c] += r->sampled[c];
      sum->alone[c] += r->alone[c];
      sum->samples[c] += r->samples[c];
    }
}

/* The factor of each class from SUM: its sampled time over its time
   alone.  A class with too few samples pools its neighbours', nearest
   first.  */
static void
factors_of (const struct replay_time *sum, double *factor)
{
  for (int c = 0; c < CLASSES; c++)
    {
      double s = sum->sampled[c], a = sum->alone[c];
      unsigned long long n = sum->samples[c];
      for (int d = 1; n < MIN_CLASS_SAMPLES && d < CLASSES; d++)
	for (int k = c - d; k <= c + d; k += 2 * d)
	  if (k >= 0 && k < CLASSES)
	    {
	      s += sum->sampled[k];
	      a += sum->alone[k];
	      n += sum->samples[k];
	    }
      factor[c] = n >= MIN_CLASS_SAMPLES && a > 0 ? s / a : 0;
    }
}

/* F's factors.  The replay draws from the estimate, and the estimate
   depends on the factors, so each round replays the estimate of the
   rounds before it.  Where a size test splits the calls near half and
   half, an estimate that counts the sizes on one side low makes them
   expensive in its replay (their branch mispredicts more), which
   keeps them low: started from the time alone, which counts the cheap
   common sizes low, the rounds stayed there, 0.08 to 0.11 from the
   exact count on GoogleA.  So the first round starts from an estimate
   that counts them high, the time alone squared, and is not kept.
   Squared, a copy of 1 MiB would count 12,000 times too low against
   one of 64 bytes on Zen 5, so low that the replay has almost none,
   its small calls keep their data in the caches, and the large ones
   come out expensive for rounds after; above LOOPLESS_UPTO
   bytes, where a call's time is its bytes, the start multiplies the
   time alone by the time per LOOPLESS_UPTO bytes instead of by
   itself.  Each later round adds its samples to those of the rounds
   before, and the next replays the estimate of their sum, so that one
   round's noise moves the next estimate a little instead of setting
   it (at 1 s and 9973 Hz a round has 10,000 samples, and a program's
   large copies can take half of them).  The estimate still moves over
   the first rounds, from where the start put it; the factors kept are
   those of the rounds from KEPT_FROM on, pooled.  */
static void
choose_factors (const struct tallies *t, struct factors *f)
{
  struct replay_time first, sum, kept;
  double factor[CLASSES];
  int kept_rounds = 0;
  memset (&first, 0, sizeof first);
  memset (&sum, 0, sizeof sum);
  memset (&kept, 0, sizeof kept);
  if (measure (t, f, NULL, &first) != 0)
    return;
  factors_of (&first, factor);
  for (int round = 1; round < ROUNDS && !sample_stop; round++)
    {
      struct replay_time this;
      memset (&this, 0, sizeof this);
      if (measure (t, f, factor, &this) != 0)
	break;
      replay_time_add (&sum, &this);
      if (round >= KEPT_FROM)
	{
	  replay_time_add (&kept, &this);
	  kept_rounds++;
	}
      factors_of (&sum, factor);
    }
  factors_of (kept_rounds > 0 ? &kept : &sum, f->factor);
}

void
cost_context (const struct tallies *t)
{
  for (size_t i = 0; i < t->ncalls; i++)
    {
      const struct call_sample *c = &t->calls[i];
      if (find_factors (c->family, c->impl) != NULL)
	continue;
      factors = xrealloc (factors, (nfactors + 1) * sizeof *factors);
      struct factors *f = &factors[nfactors++];
      memset (f, 0, sizeof *f);
      f->family = c->family;
      snprintf (f->impl, sizeof f->impl, "%s", c->impl);
      if (!sample_stop)
	choose_factors (t, f);
    }
}

double
cost_of (int family, const char *impl, uint64_t size)
{
  const struct factors *f = find_factors (family, impl);
  static const double none[CLASSES];
  return cost_with (family, impl, size, f != NULL ? f->factor : none);
}
