/* SPDX-License-Identifier: MIT */
/* The measuring engine of fastcopy-bench and fastcopy-tune (measure.c).

   A point is one measured configuration: a set of calls (the same buffers
   every time, the slots of a pool visited in a fixed random order, or a
   sequence of calls of varying sizes and places) and the functions that
   compete on it.  Measuring a point:
   1. calibrate every function to a repetition count whose sample lasts
      about the target time (the trial runs also warm the caches, the
      branch predictors and the page tables);
   2. take rounds of samples, one sample of every function per round, in an
      order that rotates from round to round (A B C, B C A, C A B, ...);
      a sample during which the thread was switched out is taken again;
   3. keep each function's median over the rounds.
   The caller may interleave the rounds of several points (fastcopy-tune
   visits every size in every round), so the steps are separate calls.  */

#ifndef FASTCOPY_MEASURE_H
#define FASTCOPY_MEASURE_H 1

#include <stddef.h>
#include <stdint.h>

typedef void *(*fcm_copy_fn) (void *dst, const void *src, size_t n);
typedef void *(*fcm_set_fn) (void *dst, int c, size_t n);
typedef void (*fcm_zero_fn) (void *dst, size_t n);

#define FCM_MAX_FNS 24
#define FCM_MAX_ROUNDS 99

enum fcm_call { FCM_COPY, FCM_SET, FCM_ZERO };

struct fcm_calls;

/* A function to time, called as CALL says through the matching pointer.  */
struct fcm_fn
{
  enum fcm_call call;
  fcm_copy_fn copy;
  fcm_set_fn set;
  fcm_zero_fn zero;
  /* Run, untimed, before the calibration and every sample of this
     function; NULL: nothing.  fastcopy-tune switches the library's
     thresholds here.  */
  void (*before) (const struct fcm_fn *fn, struct fcm_calls *calls);
  const void *arg;		/* for BEFORE */
};

/* Where the calls of one repetition go.  */
enum fcm_layout
{
  FCM_SAME,			/* one call: DST, SRC, N */
  FCM_SLOTS,			/* one call at the next slot of a pool */
  FCM_SEQUENCE			/* NSEQ calls, one per packed SEQ entry */
};

struct fcm_calls
{
  enum fcm_layout layout;
  char *dst;
  const char *src;		/* copies only */
  size_t n;			/* FCM_SAME, FCM_SLOTS */
  int fill;			/* FCM_SET */
  /* FCM_SLOTS: slot i lies at ORDER[i] * STRIDE from DST and SRC; CURSOR
     carries on from sample to sample, so that every call finds the memory
     that the whole pool's worth of calls before it evicted.  */
  const uint32_t *order;
  size_t nslots, stride, cursor;
  /* FCM_SEQUENCE: entries made by fcm_seq_entry.  */
  const uint64_t *seq;
  size_t nseq;
};

/* A call of a sequence, packed: size (24 bits, at most FCM_SEQ_MAX_SIZE),
   src offset and dst offset (20 bits each, below FCM_SEQ_BUF).  A call
   ends past FCM_SEQ_BUF when it is large; the buffers must have room.  */
#define FCM_SEQ_BUF (256u * 1024u)
#define FCM_SEQ_MAX_SIZE ((1u << 24) - 1)

static inline uint64_t
fcm_seq_entry (size_t size, size_t soff, size_t doff)
{
  return (uint64_t) size | (uint64_t) soff << 24 | (uint64_t) doff << 44;
}

/* The size, src offset and dst offset of entry E.  */
static inline size_t
fcm_seq_size (uint64_t e)
{
  return (size_t) (e & FCM_SEQ_MAX_SIZE);
}

static inline size_t
fcm_seq_soff (uint64_t e)
{
  return (size_t) (e >> 24 & 0xfffff);
}

static inline size_t
fcm_seq_doff (uint64_t e)
{
  return (size_t) (e >> 44);
}

/* A step of the splitmix64 generator: the call sequences and the order of
   the slots are pseudo-random, fixed by a seed.  */
static inline uint64_t
fcm_splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Cache-cold calls of SIZE bytes (FCM_SLOTS): the larger of POOL and SIZE
   bytes of each buffer, cut into back-to-back slots (64-byte aligned,
   page-aligned from 4 KiB) visited in a random order fixed by SEED, which
   defeats the prefetchers.  A slot comes back only after the whole pool
   was touched; a size of the pool or more is one slot that evicts
   itself.  Sets C's order, nslots, stride and cursor, and returns the
   order for the caller to free; NULL if out of memory.  */
uint32_t *fcm_slots (struct fcm_calls *c, size_t size, size_t pool,
		     uint64_t seed);

/* One point: the calls, the functions, and what measuring them gave.  */
struct fcm_point
{
  struct fcm_calls calls;
  int nfn;
  const struct fcm_fn *fn[FCM_MAX_FNS];
  uint64_t target_ns;		/* length of one sample */
  uint64_t reps[FCM_MAX_FNS];	/* set by fcm_calibrate */
  unsigned int rounds;		/* samples taken so far per function */
  double t[FCM_MAX_FNS][FCM_MAX_ROUNDS];	/* ns per repetition */
};

/* CLOCK_MONOTONIC in nanoseconds.  */
uint64_t fcm_now_ns (void);

/* Nanoseconds that REPS repetitions of FN on CALLS take.  */
uint64_t fcm_time (const struct fcm_fn *fn, struct fcm_calls *calls,
		   uint64_t reps);

/* Step 1: set P->reps for every function.  */
void fcm_calibrate (struct fcm_point *p);

/* Step 2: one round, the first function sampled being number ROTATE
   modulo P->nfn.  At most FCM_MAX_ROUNDS rounds.  */
void fcm_round (struct fcm_point *p, unsigned int rotate);

/* Step 3: the median ns per repetition of every function into MED.  */
void fcm_medians (struct fcm_point *p, double *med);

/* Steps 1 to 3 on one point, round R rotated by R.  */
void fcm_measure (struct fcm_point *p, unsigned int rounds, double *med);

/* The median of V[0..N-1], N > 0 (sorts V).  */
double fcm_median (double *v, size_t n);

/* Samples taken, and attempts retaken after a context switch, so far.  */
extern unsigned long fcm_samples_taken, fcm_samples_retaken;

/* BYTES of private memory with every page touched, so that no page fault
   and no zero page is timed later; NULL if it cannot be mapped.  */
void *fcm_map (size_t bytes);
void fcm_unmap (void *p, size_t bytes);

/* Pin the thread to CPU, or if CPU < 0 to the allowed CPU that was idle
   longest over 100 ms: on a shared machine, the one least likely to
   preempt the measurements.  Returns the CPU, or -1 (errno set) if the
   thread could not be pinned.  */
int fcm_pin (int cpu);

/* Whether this process may run on CPU (online, and in its affinity
   mask): a --cpu that names another cannot be pinned to, and measuring
   unpinned is not what was asked for.  */
int fcm_cpu_allowed (int cpu);

#endif /* measure.h */
