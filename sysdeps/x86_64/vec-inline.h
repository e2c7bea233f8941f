/* Vector copy and clear bodies.  The including file sets the target ISA
   with a pragma and defines VEC_SIZE (16 or 32).  The SSE2 variants are
   memmove_vec and memset_vec whole; the AVX2 variants have assembly entries
   for every size up to their thresholds (memmove-avx2.S, memset-avx2.S) and
   take only the large paths from here (copy_vec_large, set_vec_large).

   Copy strategy, by size (VEC = VEC_SIZE bytes):
   1. n <= 32: general-purpose registers below 16, two possibly overlapping
      16-byte loads and stores from 16 to 32.
   2. n <= 2, 4 or 8 VEC: that many loads from the head and the tail, all
      before any store, so every overlap is handled without a branch.
   3. Larger, forward-safe (dst below src, or disjoint):
      a. REP MOVSB in [rep_movsb_threshold, nt_threshold), unless the
	 aliasing guard sees (dst - src) mod 4096 in 1..63: there REP MOVSB
	 is 15-30x slower on Zen 3/4 (notes/measurements.md);
      b. non-temporal stores from nt_threshold when the buffers are
	 disjoint, so huge copies do not evict the whole cache;
      c. otherwise a 4-VEC loop with aligned stores; the first VEC and the
	 last 4 VEC are loaded before the loop and stored after it.
   4. dst inside (src, src+n): the same loop run backward.
   Nothing is read or written outside [src, src+n) and [dst, dst+n).  */

#ifndef VEC_SIZE
# error "define VEC_SIZE before including vec-inline.h"
#endif

#include <immintrin.h>
#include "gpr-inline.h"
#include "rep-inline.h"

typedef char vec_t __attribute__ ((vector_size (VEC_SIZE), may_alias));
typedef char vec_unaligned_t
  __attribute__ ((vector_size (VEC_SIZE), may_alias, aligned (1)));
typedef char xmm_unaligned_t
  __attribute__ ((vector_size (16), may_alias, aligned (1)));

#define VLOAD(p) (*(const vec_unaligned_t *) (p))
#define VSTORE(p, v) (*(vec_unaligned_t *) (p) = (v))
#define VSTORE_ALIGNED(p, v) (*(vec_t *) (p) = (v))
#define XLOAD(p) (*(const xmm_unaligned_t *) (p))
#define XSTORE(p, v) (*(xmm_unaligned_t *) (p) = (v))

#if VEC_SIZE == 32
# define VSTREAM(p, v) _mm256_stream_si256 ((__m256i *) (p), (__m256i) (v))
# define VBROADCAST(c) ((vec_t) _mm256_set1_epi8 ((char) (c)))
# define VLOW128(v) ((xmm_unaligned_t) _mm256_castsi256_si128 ((__m256i) (v)))
#else
# define VSTREAM(p, v) _mm_stream_si128 ((__m128i *) (p), (__m128i) (v))
# define VBROADCAST(c) ((vec_t) _mm_set1_epi8 ((char) (c)))
# define VLOW128(v) ((xmm_unaligned_t) (v))
#endif

#define LOOP_BYTES (4 * VEC_SIZE)
#define LINE_VECS (64 / VEC_SIZE)	/* vectors in a cache line */
#define NT_AHEAD 512	/* prefetch distance of the streaming loop */

/* (dst - src) mod 4096 in 1..63: REP MOVSB's slow case on AMD Zen.  */
FC_INLINE int
rep_movsb_aliasing (const void *dst, const void *src)
{
  return (((uintptr_t) dst - (uintptr_t) src) & 4095) - 1 < 63;
}

FC_INLINE int
buffers_disjoint (const void *dst, const void *src, size_t n)
{
  return (uintptr_t) dst - (uintptr_t) src >= n
	 && (uintptr_t) src - (uintptr_t) dst >= n;
}

/* n in (8 VEC, ...), forward-safe.  */
FC_INLINE void *
copy_vec_forward (unsigned char *d, const unsigned char *s, size_t n)
{
  vec_t head = VLOAD (s);
  vec_t t0 = VLOAD (s + n - 4 * VEC_SIZE), t1 = VLOAD (s + n - 3 * VEC_SIZE);
  vec_t t2 = VLOAD (s + n - 2 * VEC_SIZE), t3 = VLOAD (s + n - VEC_SIZE);
  size_t skip = -(uintptr_t) d & (VEC_SIZE - 1);
  unsigned char *dp = d + skip;
  const unsigned char *sp = s + skip;
  size_t left = n - skip;
  /* At this point dp is VEC-aligned and [d, dp) is covered by HEAD.  */
  while (left > LOOP_BYTES)
    {
      vec_t a = VLOAD (sp), b = VLOAD (sp + VEC_SIZE);
      vec_t c = VLOAD (sp + 2 * VEC_SIZE), e = VLOAD (sp + 3 * VEC_SIZE);
      VSTORE_ALIGNED (dp, a);
      VSTORE_ALIGNED (dp + VEC_SIZE, b);
      VSTORE_ALIGNED (dp + 2 * VEC_SIZE, c);
      VSTORE_ALIGNED (dp + 3 * VEC_SIZE, e);
      sp += LOOP_BYTES;
      dp += LOOP_BYTES;
      left -= LOOP_BYTES;
    }
  /* At most 4 VEC are left: the preloaded tail covers them.  */
  VSTORE (d + n - 4 * VEC_SIZE, t0);
  VSTORE (d + n - 3 * VEC_SIZE, t1);
  VSTORE (d + n - 2 * VEC_SIZE, t2);
  VSTORE (d + n - VEC_SIZE, t3);
  VSTORE (d, head);
  return d;
}

/* The rarer large-copy paths stay out of line, so that the common one
   (forward vector loop) needs no stack frame.  */
#define FC_COLD static __attribute__ ((noinline, cold))

/* n in (8 VEC, ...), dst inside (src, src+n).  */
FC_COLD void *
copy_vec_backward (unsigned char *d, const unsigned char *s, size_t n)
{
  vec_t tail = VLOAD (s + n - VEC_SIZE);
  vec_t h0 = VLOAD (s), h1 = VLOAD (s + VEC_SIZE);
  vec_t h2 = VLOAD (s + 2 * VEC_SIZE), h3 = VLOAD (s + 3 * VEC_SIZE);
  size_t skip = (uintptr_t) (d + n) & (VEC_SIZE - 1);
  unsigned char *dp = d + n - skip;
  const unsigned char *sp = s + n - skip;
  size_t left = n - skip;
  /* At this point dp is VEC-aligned and [dp, d + n) is covered by TAIL.  */
  while (left > LOOP_BYTES)
    {
      sp -= LOOP_BYTES;
      dp -= LOOP_BYTES;
      left -= LOOP_BYTES;
      vec_t a = VLOAD (sp), b = VLOAD (sp + VEC_SIZE);
      vec_t c = VLOAD (sp + 2 * VEC_SIZE), e = VLOAD (sp + 3 * VEC_SIZE);
      VSTORE_ALIGNED (dp + 3 * VEC_SIZE, e);
      VSTORE_ALIGNED (dp + 2 * VEC_SIZE, c);
      VSTORE_ALIGNED (dp + VEC_SIZE, b);
      VSTORE_ALIGNED (dp, a);
    }
  VSTORE (d, h0);
  VSTORE (d + VEC_SIZE, h1);
  VSTORE (d + 2 * VEC_SIZE, h2);
  VSTORE (d + 3 * VEC_SIZE, h3);
  VSTORE (d + n - VEC_SIZE, tail);
  return d;
}

/* Disjoint buffers, n >= nt_threshold (far above 8 VEC): streaming stores
   to 64-byte-aligned destination lines.  */
FC_COLD void *
copy_vec_stream (unsigned char *d, const unsigned char *s, size_t n)
{
  /* The destination is aligned to a cache line, so up to 63 bytes precede
     the loop: the head is a whole line.  */
  vec_t head[LINE_VECS];
  for (int i = 0; i < LINE_VECS; i++)
    head[i] = VLOAD (s + i * VEC_SIZE);
  vec_t t0 = VLOAD (s + n - 4 * VEC_SIZE), t1 = VLOAD (s + n - 3 * VEC_SIZE);
  vec_t t2 = VLOAD (s + n - 2 * VEC_SIZE), t3 = VLOAD (s + n - VEC_SIZE);
  size_t skip = -(uintptr_t) d & 63;
  unsigned char *dp = d + skip;
  const unsigned char *sp = s + skip;
  size_t left = n - skip;
  while (left > LOOP_BYTES)
    {
      __builtin_prefetch (sp + NT_AHEAD);
      vec_t a = VLOAD (sp), b = VLOAD (sp + VEC_SIZE);
      vec_t c = VLOAD (sp + 2 * VEC_SIZE), e = VLOAD (sp + 3 * VEC_SIZE);
      VSTREAM (dp, a);
      VSTREAM (dp + VEC_SIZE, b);
      VSTREAM (dp + 2 * VEC_SIZE, c);
      VSTREAM (dp + 3 * VEC_SIZE, e);
      sp += LOOP_BYTES;
      dp += LOOP_BYTES;
      left -= LOOP_BYTES;
    }
  _mm_sfence ();
  VSTORE (d + n - 4 * VEC_SIZE, t0);
  VSTORE (d + n - 3 * VEC_SIZE, t1);
  VSTORE (d + n - 2 * VEC_SIZE, t2);
  VSTORE (d + n - VEC_SIZE, t3);
  for (int i = 0; i < LINE_VECS; i++)
    VSTORE (d + i * VEC_SIZE, head[i]);
  return d;
}

FC_COLD void *
copy_vec_rep_or_stream (unsigned char *d, const unsigned char *s, size_t n)
{
  if (n >= FC_TUNABLE (COPY_NT))
    return buffers_disjoint (d, s, n) ? copy_vec_stream (d, s, n)
				      : copy_vec_forward (d, s, n);
  if (FC_TUNABLE (ALIAS_GUARD) && rep_movsb_aliasing (d, s))
    return copy_vec_forward (d, s, n);
  rep_movsb_forward (d, s, n);
  return d;
}

/* n > 8 VEC.  Below both thresholds (REP MOVSB and streaming) a forward-safe
   copy goes straight to the vector loop.  */
FC_INLINE void *
copy_vec_large (unsigned char *d, const unsigned char *s, size_t n)
{
  if (__builtin_expect (!copy_forward_safe (d, s, n), 0))
    return copy_vec_backward (d, s, n);
  if (__builtin_expect (n < FC_TUNABLE (REP_MOVSB)
			&& n < FC_TUNABLE (COPY_NT), 1))
    return copy_vec_forward (d, s, n);
  return copy_vec_rep_or_stream (d, s, n);
}

FC_INLINE void *
memmove_vec (void *dst, const void *src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;
  /* Size classes in the order that keeps the common small ones on the
     shortest path: up to 32 bytes, then up to 4 and 8 VEC.  */
  if (__builtin_expect (n <= 2 * VEC_SIZE, 1))
    {
      if (n >= 16)
	{
	  xmm_unaligned_t a = XLOAD (s), z = XLOAD (s + n - 16);
	  XSTORE (d, a);
	  XSTORE (d + n - 16, z);
	  return dst;
	}
      copy_gpr_below_16 (d, s, n);
      return dst;
    }
  if (n <= 4 * VEC_SIZE)
    {
      vec_t a = VLOAD (s), b = VLOAD (s + VEC_SIZE);
      vec_t y = VLOAD (s + n - 2 * VEC_SIZE), z = VLOAD (s + n - VEC_SIZE);
      VSTORE (d, a);
      VSTORE (d + VEC_SIZE, b);
      VSTORE (d + n - 2 * VEC_SIZE, y);
      VSTORE (d + n - VEC_SIZE, z);
      return dst;
    }
  if (n <= 8 * VEC_SIZE)
    {
      vec_t a = VLOAD (s), b = VLOAD (s + VEC_SIZE);
      vec_t c = VLOAD (s + 2 * VEC_SIZE), e = VLOAD (s + 3 * VEC_SIZE);
      vec_t w = VLOAD (s + n - 4 * VEC_SIZE), x = VLOAD (s + n - 3 * VEC_SIZE);
      vec_t y = VLOAD (s + n - 2 * VEC_SIZE), z = VLOAD (s + n - VEC_SIZE);
      VSTORE (d, a);
      VSTORE (d + VEC_SIZE, b);
      VSTORE (d + 2 * VEC_SIZE, c);
      VSTORE (d + 3 * VEC_SIZE, e);
      VSTORE (d + n - 4 * VEC_SIZE, w);
      VSTORE (d + n - 3 * VEC_SIZE, x);
      VSTORE (d + n - 2 * VEC_SIZE, y);
      VSTORE (d + n - VEC_SIZE, z);
      return dst;
    }
  return copy_vec_large (d, s, n);
}

/* Clear strategy: the same size classes; above 8 VEC, REP STOSB in
   [rep_stosb_threshold, nt_threshold), streaming stores from nt_threshold,
   otherwise an aligned 4-VEC store loop with unaligned head and tail.  */
FC_INLINE void
set_vec_large (unsigned char *d, vec_t v, int c, size_t n)
{
  if (n >= FC_TUNABLE (REP_STOSB)
      && n < FC_TUNABLE (CLEAR_NT))
    {
      rep_stosb (d, c, n);
      return;
    }
  int stream = n >= FC_TUNABLE (CLEAR_NT);
  size_t skip = -(uintptr_t) d & (stream ? 63 : VEC_SIZE - 1);
  unsigned char *dp = d + skip;
  size_t left = n - skip;
  /* Up to 63 bytes before the aligned part when streaming: a whole line.  */
  for (int i = 0; i < LINE_VECS; i++)
    VSTORE (d + i * VEC_SIZE, v);
  if (stream)
    {
      while (left > LOOP_BYTES)
	{
	  VSTREAM (dp, v);
	  VSTREAM (dp + VEC_SIZE, v);
	  VSTREAM (dp + 2 * VEC_SIZE, v);
	  VSTREAM (dp + 3 * VEC_SIZE, v);
	  dp += LOOP_BYTES;
	  left -= LOOP_BYTES;
	}
      _mm_sfence ();
    }
  else
    while (left > LOOP_BYTES)
      {
	VSTORE_ALIGNED (dp, v);
	VSTORE_ALIGNED (dp + VEC_SIZE, v);
	VSTORE_ALIGNED (dp + 2 * VEC_SIZE, v);
	VSTORE_ALIGNED (dp + 3 * VEC_SIZE, v);
	dp += LOOP_BYTES;
	left -= LOOP_BYTES;
      }
  VSTORE (d + n - 4 * VEC_SIZE, v);
  VSTORE (d + n - 3 * VEC_SIZE, v);
  VSTORE (d + n - 2 * VEC_SIZE, v);
  VSTORE (d + n - VEC_SIZE, v);
}

FC_INLINE void *
memset_vec (void *dst, int c, size_t n)
{
  unsigned char *d = dst;
  if (n < 16)
    return memset_gpr (dst, c, n);
  vec_t v = VBROADCAST (c);
  if (n <= 32)
    {
      xmm_unaligned_t x = VLOW128 (v);
      XSTORE (d, x);
      XSTORE (d + n - 16, x);
    }
  else if (n <= 4 * VEC_SIZE)
    {
      VSTORE (d, v);
      VSTORE (d + VEC_SIZE, v);
      VSTORE (d + n - 2 * VEC_SIZE, v);
      VSTORE (d + n - VEC_SIZE, v);
    }
  else if (n <= 8 * VEC_SIZE)
    {
      VSTORE (d, v);
      VSTORE (d + VEC_SIZE, v);
      VSTORE (d + 2 * VEC_SIZE, v);
      VSTORE (d + 3 * VEC_SIZE, v);
      VSTORE (d + n - 4 * VEC_SIZE, v);
      VSTORE (d + n - 3 * VEC_SIZE, v);
      VSTORE (d + n - 2 * VEC_SIZE, v);
      VSTORE (d + n - VEC_SIZE, v);
    }
  else
    set_vec_large (d, v, c, n);
  return dst;
}
