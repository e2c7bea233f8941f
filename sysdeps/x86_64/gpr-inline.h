/* Copy and clear bodies in 64-bit general-purpose registers, shared by the
   scalar variants and by the small-size paths of the erms variants.

   Strategy, by size:
   1. n < 16: two possibly overlapping loads of 8, 4, 2 or 1 bytes from the
      head and the tail, then two stores.  No loop, no branch per byte.
   2. 16 <= n <= 32: head 16 and tail 16, all loaded before any store, so
      any overlap of source and destination is handled.
   3. n > 32: a 32-byte block loop, forward unless the destination starts
      inside the source, in which case backward.  The block at the far end
      (tail for forward, head for backward) is loaded before the loop and
      stored after it, covering the remainder with one overlapping store.
   Nothing is read or written outside [src, src+n) and [dst, dst+n).  */

#ifndef FASTCOPY_GPR_INLINE_H
#define FASTCOPY_GPR_INLINE_H 1

#include <stddef.h>
#include <stdint.h>

#define FC_INLINE static inline __attribute__ ((always_inline))

/* Unaligned, alias-anything accesses: plain moves, never a libc call.  */
typedef uint64_t fc_u64 __attribute__ ((may_alias, aligned (1)));
typedef uint32_t fc_u32 __attribute__ ((may_alias, aligned (1)));
typedef uint16_t fc_u16 __attribute__ ((may_alias, aligned (1)));

#define LD64(p) (*(const fc_u64 *) (p))
#define ST64(p, v) (*(fc_u64 *) (p) = (v))

/* n in [0, 16): head and tail of the right width.  */
FC_INLINE void
copy_gpr_below_16 (unsigned char *d, const unsigned char *s, size_t n)
{
  if (n >= 8)
    {
      uint64_t head = LD64 (s), tail = LD64 (s + n - 8);
      ST64 (d, head);
      ST64 (d + n - 8, tail);
    }
  else if (n >= 4)
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

/* n > 32, and a forward copy is safe: dst < src or no overlap.  */
FC_INLINE void
copy_gpr_forward (unsigned char *d, const unsigned char *s, size_t n)
{
  uint64_t t0 = LD64 (s + n - 32), t1 = LD64 (s + n - 24);
  uint64_t t2 = LD64 (s + n - 16), t3 = LD64 (s + n - 8);
  size_t i = 0;
  do
    {
      uint64_t a = LD64 (s + i), b = LD64 (s + i + 8);
      uint64_t c = LD64 (s + i + 16), e = LD64 (s + i + 24);
      ST64 (d + i, a);
      ST64 (d + i + 8, b);
      ST64 (d + i + 16, c);
      ST64 (d + i + 24, e);
      i += 32;
    }
  while (i < n - 32);
  ST64 (d + n - 32, t0);
  ST64 (d + n - 24, t1);
  ST64 (d + n - 16, t2);
  ST64 (d + n - 8, t3);
}

/* n > 32 and dst lies inside (src, src+n): copy from the end down.  */
FC_INLINE void
copy_gpr_backward (unsigned char *d, const unsigned char *s, size_t n)
{
  uint64_t h0 = LD64 (s), h1 = LD64 (s + 8);
  uint64_t h2 = LD64 (s + 16), h3 = LD64 (s + 24);
  size_t i = n;
  do
    {
      i -= 32;
      uint64_t a = LD64 (s + i), b = LD64 (s + i + 8);
      uint64_t c = LD64 (s + i + 16), e = LD64 (s + i + 24);
      ST64 (d + i + 24, e);
      ST64 (d + i + 16, c);
      ST64 (d + i + 8, b);
      ST64 (d + i, a);
    }
  while (i > 32);
  ST64 (d, h0);
  ST64 (d + 8, h1);
  ST64 (d + 16, h2);
  ST64 (d + 24, h3);
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
  if (n < 16)
    copy_gpr_below_16 (d, s, n);
  else if (n <= 32)
    {
      uint64_t a = LD64 (s), b = LD64 (s + 8);
      uint64_t y = LD64 (s + n - 16), z = LD64 (s + n - 8);
      ST64 (d, a);
      ST64 (d + 8, b);
      ST64 (d + n - 16, y);
      ST64 (d + n - 8, z);
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
  uint64_t v = (uint64_t) (unsigned char) c * 0x0101010101010101ull;
  if (n < 16)
    {
      if (n >= 8)
	{
	  ST64 (d, v);
	  ST64 (d + n - 8, v);
	}
      else if (n >= 4)
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
  if (n <= 32)
    {
      ST64 (d, v);
      ST64 (d + 8, v);
      ST64 (d + n - 16, v);
      ST64 (d + n - 8, v);
      return dst;
    }
  size_t i = 0;
  do
    {
      ST64 (d + i, v);
      ST64 (d + i + 8, v);
      ST64 (d + i + 16, v);
      ST64 (d + i + 24, v);
      i += 32;
    }
  while (i < n - 32);
  ST64 (d + n - 32, v);
  ST64 (d + n - 24, v);
  ST64 (d + n - 16, v);
  ST64 (d + n - 8, v);
  return dst;
}

#endif
