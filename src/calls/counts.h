/* SPDX-License-Identifier: MIT */
/* What a counted call adds to, written once for the two counters: the
   profile implementations (profile.c), which count every call of a
   recording, and the census (census.c), which counts the calls of the
   windows fastcopy-sample opens.  fastcopy-sample reads the census's
   counts from another process through src/tools-interface.h.

   A call counts in its size bucket (every size up to 512, then eight
   buckets per doubling), its destination's and source's address mod 64,
   its (dst - src) mod 4096 class, whether its buffers overlap, and its
   function: the exported functions that call through the slot
   (mempcpy and explicit_bzero with their other forms, profile.h) apart
   from the rest, which jump there and leave no trace of which one they
   were.  */

#ifndef FASTCOPY_COUNTS_H
#define FASTCOPY_COUNTS_H 1

#include <stddef.h>
#include <stdint.h>
#include "fastcopy-internal.h"
#include "recording.h"
#include "size-buckets.h"

/* The exported functions that call through the dispatch slot rather than
   jump (entry.c) sit in sections of their own, so that the return address
   of a counted call tells which one it came from.  Their code is the same
   wherever it lies.  FC_FROM_MEMPCPY () and FC_FROM_EXPLICIT_BZERO (),
   in the function that counts: whether its caller is one of them.  */
#define FC_MEMPCPY_TEXT __attribute__ ((section ("fc_mempcpy_text")))
#define FC_EXPLICIT_BZERO_TEXT \
  __attribute__ ((section ("fc_explicit_bzero_text")))
extern FC_HIDDEN const char __start_fc_mempcpy_text[];
extern FC_HIDDEN const char __stop_fc_mempcpy_text[];
extern FC_HIDDEN const char __start_fc_explicit_bzero_text[];
extern FC_HIDDEN const char __stop_fc_explicit_bzero_text[];
#define FC_CALLED_FROM(text)						\
  ((const char *) __builtin_return_address (0) >= __start_##text	\
   && (const char *) __builtin_return_address (0) < __stop_##text)
#define FC_FROM_MEMPCPY() FC_CALLED_FROM (fc_mempcpy_text)
#define FC_FROM_EXPLICIT_BZERO() FC_CALLED_FROM (fc_explicit_bzero_text)

enum { FC_DIST_0, FC_DIST_1_15, FC_DIST_16_63, FC_DIST_OTHER };
enum { FC_OVERLAP_NONE, FC_OVERLAP_FORWARD, FC_OVERLAP_BACKWARD };

struct fc_tally
{
  unsigned long long calls, bytes;
};

struct fc_counts
{
  struct fc_tally size[FC_BUCKETS];
  struct fc_tally function[2];	/* the others, the wrappers (profile.h) */
  struct fc_tally dst_align[64], src_align[64];
  struct fc_tally distance[FC_REC_NDIST], overlap[FC_REC_NOVERLAP];
};

/* One writer per tally at a time, and readers at any time (the recording's
   writer, another process): relaxed atomic accesses, plain moves on
   x86.  */
static inline void
fc_tally_add (struct fc_tally *t, size_t n)
{
  __atomic_store_n (&t->calls, t->calls + 1, __ATOMIC_RELAXED);
  __atomic_store_n (&t->bytes, t->bytes + n, __ATOMIC_RELAXED);
}

/* A copy of N bytes from SRC to DST; WRAPPER: made by mempcpy or its
   other forms.  */
static inline void
fc_count_copy (struct fc_counts *c, const void *dst, const void *src,
	       size_t n, int wrapper)
{
  uintptr_t d = (uintptr_t) dst, s = (uintptr_t) src;
  uintptr_t dist = (d - s) & 4095;
  fc_tally_add (&c->size[fc_size_bucket (n)], n);
  fc_tally_add (&c->function[wrapper], n);
  fc_tally_add (&c->dst_align[d & 63], n);
  fc_tally_add (&c->src_align[s & 63], n);
  fc_tally_add (&c->distance[dist == 0 ? FC_DIST_0 : dist < 16 ? FC_DIST_1_15
			     : dist < 64 ? FC_DIST_16_63 : FC_DIST_OTHER], n);
  fc_tally_add (&c->overlap[n == 0 || (d <= s ? s - d >= n : d - s >= n)
			    ? FC_OVERLAP_NONE
			    : d <= s ? FC_OVERLAP_FORWARD
			    : FC_OVERLAP_BACKWARD], n);
}

/* A clear of N bytes at DST; WRAPPER: made by explicit_bzero or its _chk
   form.  */
static inline void
fc_count_clear (struct fc_counts *c, const void *dst, size_t n, int wrapper)
{
  fc_tally_add (&c->size[fc_size_bucket (n)], n);
  fc_tally_add (&c->function[wrapper], n);
  fc_tally_add (&c->dst_align[(uintptr_t) dst & 63], n);
}

#endif
