/* SPDX-License-Identifier: MIT */
/* Copy and clear bodies in general-purpose registers, shared by the scalar
   variants and by the small-size paths of the erms variants.  A word is
   the register's width: 8 bytes on x86-64, 4 on i386.

   Strategy, by size (W: a word):
   1. n < 2 W: two possibly overlapping loads of a word, 4, 2 or 1 bytes
      from the head and the tail, then two stores.  No loop, no branch per
      byte.
   2. 2 W <= n <= 4 W: two words from the head and two from the tail, all
      loaded before any store, so any overlap of source and destination is
      handled.
   3. n > 4 W: a loop of 4-word blocks, forward unless the destination
      starts inside the source, in which case backward.  The block at the
      far end (tail for forward, head for backward) is loaded before the
      loop and stored after it, covering the remainder with one overlapping
      store.
   Nothing is read or written outside [src, src+n) and [dst, dst+n).  */

#ifndef FASTCOPY_GPR_INLINE_H
#define FASTCOPY_GPR_INLINE_H 1

#include <stddef.h>
#include <stdint.h>

#define FC_INLINE static inline __attribute__ ((always_inline))

/* A register's width, and unaligned, alias-anything accesses: plain moves,
   never a libc call.  */
typedef unsigned long fc_word;
#define FC_W ((size_t) sizeof (fc_word))
typedef fc_word fc_uword __attribute__ ((may_alias, aligned (1)));
typedef uint32_t fc_u32 __attribute__ ((may_alias, aligned (1)));
typedef uint16_t fc_u16 __attribute__ ((may_alias, aligned (1)));

#define LDW(p) (*(const fc_uword *) (p))
#define STW(p, v) (*(fc_uword *) (p) = (v))

/* n in [0, 2 words): head and tail of the right width.  */
FC_INLINE void
copy_gpr_below_2w (unsigned char *d, const unsigned char *s, size_t n)
{
  if (n >= FC_W)
    {
      fc_word head = LDW (s), tail = LDW (s + n - FC_W);
      STW (d, head);
      STW (d + n - FC_W, tail);
    }
  else if (FC_W > 4 && n >= 4)
    {
      uint32_t head = *(const fc_u32 *) s, tail = *(const fc_u32 *) (s + n - 4);
      *(fc_u32 *) d = head;
      *(fc_u32 *) (d + n - 4) = tail;
    }
  else if (n >= 2)
    {
      uint16_t head = *(const fc_u16 *) s, tail = *(const fc_u16 *) (s + n - 2);
      *(fc_u16 *) d = head;
      *(fc_u16 *) (d + n - 2) = tail;
    }
  else if (n == 1)
    *d = *s;
}

/* n > 4 words, and a forward copy is safe: dst < src or no overlap.  */
FC_INLINE void
copy_gpr_forward (unsigned char *d, const unsigned char *s, size_t n)
{
  fc_word t0 = LDW (s + n - 4 * FC_W), t1 = LDW (s + n - 3 * FC_W);
  fc_word t2 = LDW (s + n - 2 * FC_W), t3 = LDW (s + n - FC_W);
  size_t i = 0;
  do
    {
      fc_word a = LDW (s + i), b = LDW (s + i + FC_W);
      fc_word c = LDW (s + i + 2 * FC_W), e = LDW (s + i + 3 * FC_W);
      STW (d + i, a);
      STW (d + i + FC_W, b);
      STW (d + i + 2 * FC_W, c);
      STW (d + i + 3 * FC_W, e);
      i += 4 * FC_W;
    }
  while (i < n - 4 * FC_W);
  STW (d + n - 4 * FC_W, t0);
  STW (d + n - 3 * FC_W, t1);
  STW (d + n - 2 * FC_W, t2);
  STW (d + n - FC_W, t3);
}

/* n > 4 words and dst lies inside (src, src+n): copy from the end down.  */
FC_INLINE void
copy_gpr_backward (unsigned char *d, const unsigned char *s, size_t n)
{
  fc_word h0 = LDW (s), h1 = LDW (s + FC_W);
  fc_word h2 = LDW (s + 2 * FC_W), h3 = LDW (s + 3 * FC_W);
  size_t i = n;
  do
    {
      i -= 4 * FC_W;
      fc_word a = LDW (s + i), b = LDW (s + i + FC_W);
      fc_word c = LDW (s + i + 2 * FC_W), e = LDW (s + i + 3 * FC_W);
      STW (d + i + 3 * FC_W, e);
      STW (d + i + 2 * FC_W, c);
      STW (d + i + FC_W, b);
      STW (d + i, a);
    }
  while (i > 4 * FC_W);
  STW (d, h0);
  STW (d + FC_W, h1);
  STW (d + 2 * FC_W, h2);
  STW (d + 3 * FC_W, h3);
}

/* Forward is safe unless dst starts inside (src, src+n); the unsigned
   difference makes dst < src wrap to a huge value.  */
FC_INLINE int
copy_forward_safe (const void *dst, const void *src, size_t n)
{
  return (uintptr_t) dst - (uintptr_t) src >= n;
}

FC_INLINE void *
memmove_gpr (void *dst, const void *src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (n < 2 * FC_W)
    copy_gpr_below_2w (d, s, n);
  else if (n <= 4 * FC_W)
    {
      fc_word a = LDW (s), b = LDW (s + FC_W);
      fc_word y = LDW (s + n - 2 * FC_W), z = LDW (s + n - FC_W);
      STW (d, a);
      STW (d + FC_W, b);
      STW (d + n - 2 * FC_W, y);
      STW (d + n - FC_W, z);
    }
  else if (copy_forward_safe (d, s, n))
    copy_gpr_forward (d, s, n);
  else
    copy_gpr_backward (d, s, n);
  return dst;
}

FC_INLINE void *
memset_gpr (void *dst, int c, size_t n)
{
  unsigned char *d = dst;
  fc_word v = (fc_word) (unsigned char) c * (~(fc_word) 0 / 0xff);
  if (n < 2 * FC_W)
    {
      if (n >= FC_W)
	{
	  STW (d, v);
	  STW (d + n - FC_W, v);
	}
      else if (FC_W > 4 && n >= 4)
	{
	  *(fc_u32 *) d = (uint32_t) v;
	  *(fc_u32 *) (d + n - 4) = (uint32_t) v;
	}
      else if (n >= 2)
	{
	  *(fc_u16 *) d = (uint16_t) v;
	  *(fc_u16 *) (d + n - 2) = (uint16_t) v;
	}
      else if (n == 1)
	*d = (unsigned char) v;
      return dst;
    }
  if (n <= 4 * FC_W)
    {
      STW (d, v);
      STW (d + FC_W, v);
      STW (d + n - 2 * FC_W, v);
      STW (d + n - FC_W, v);
      return dst;
    }
  size_t i = 0;
  do
    {
      STW (d + i, v);
      STW (d + i + FC_W, v);
      STW (d + i + 2 * FC_W, v);
      STW (d + i + 3 * FC_W, v);
      i += 4 * FC_W;
    }
  while (i < n - 4 * FC_W);
  STW (d + n - 4 * FC_W, v);
  STW (d + n - 3 * FC_W, v);
  STW (d + n - 2 * FC_W, v);
  STW (d + n - FC_W, v);
  return dst;
}

#endif
