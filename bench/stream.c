/* SPDX-License-Identifier: MIT */
/* The streaming reference: the copy and clear that a program could get on
   this machine for buffers far larger than the caches, so that the report
   can state a large copy's bandwidth as a fraction of it.

   Strategy: one unaligned 32-byte store covers the head, after which the
   destination is 32-byte aligned; then 128 bytes per iteration with
   unaligned loads and non-temporal (streaming) stores, which bypass the
   caches and skip the read-for-ownership of the destination; then 32-byte
   streaming stores; then one unaligned 32-byte store ending exactly at the
   end of the buffer (it may overlap bytes already written, with the same
   values).  SFENCE orders the streaming stores before the return.  Sizes
   below 128 take a byte loop: the reference is only measured on large
   sizes, and only its correctness matters there.  Buffers must not
   overlap.  */

#include <stdint.h>
#include <immintrin.h>
#include "bench.h"

int
fcb_stream_usable (void)
{
  __builtin_cpu_init ();
  return __builtin_cpu_supports ("avx2");
}

void *
fcb_stream_copy (void *dst, const void *src, size_t n)
  __attribute__ ((target ("avx2")));

void *
fcb_stream_copy (void *dst, const void *src, size_t n)
{
  char *d = dst;
  const char *s = src;

  if (n < 128)
    {
      for (size_t i = 0; i < n; i++)
	((volatile char *) d)[i] = s[i];
      return dst;
    }

  const char *s_end = s + n;
  char *d_end = d + n;
  __m256i tail = _mm256_loadu_si256 ((const __m256i *) (s_end - 32));
  _mm256_storeu_si256 ((__m256i *) d, _mm256_loadu_si256 ((const __m256i *) s));
  size_t skip = 32 - ((uintptr_t) d & 31);
  d += skip;
  s += skip;
  n -= skip;
  /* Here: d is 32-byte aligned, the first bytes up to d are written and
     n >= 96 bytes remain.  */
  for (; n >= 128; n -= 128, d += 128, s += 128)
    {
      __m256i a = _mm256_loadu_si256 ((const __m256i *) s);
      __m256i b = _mm256_loadu_si256 ((const __m256i *) (s + 32));
      __m256i c = _mm256_loadu_si256 ((const __m256i *) (s + 64));
      __m256i e = _mm256_loadu_si256 ((const __m256i *) (s + 96));
      _mm256_stream_si256 ((__m256i *) d, a);
      _mm256_stream_si256 ((__m256i *) (d + 32), b);
      _mm256_stream_si256 ((__m256i *) (d + 64), c);
      _mm256_stream_si256 ((__m256i *) (d + 96), e);
    }
  for (; n >= 32; n -= 32, d += 32, s += 32)
    _mm256_stream_si256 ((__m256i *) d,
			 _mm256_loadu_si256 ((const __m256i *) s));
  _mm_sfence ();
  _mm256_storeu_si256 ((__m256i *) (d_end - 32), tail);
  return dst;
}

void *
fcb_stream_set (void *dst, int c, size_t n)
  __attribute__ ((target ("avx2")));

void *
fcb_stream_set (void *dst, int c, size_t n)
{
  char *d = dst;

  if (n < 128)
    {
      for (size_t i = 0; i < n; i++)
	((volatile char *) d)[i] = (char) c;
      return dst;
    }

  char *d_end = d + n;
  __m256i v = _mm256_set1_epi8 ((char) c);
  _mm256_storeu_si256 ((__m256i *) d, v);
  size_t skip = 32 - ((uintptr_t) d & 31);
  d += skip;
  n -= skip;
  for (; n >= 128; n -= 128, d += 128)
    {
      _mm256_stream_si256 ((__m256i *) d, v);
      _mm256_stream_si256 ((__m256i *) (d + 32), v);
      _mm256_stream_si256 ((__m256i *) (d + 64), v);
      _mm256_stream_si256 ((__m256i *) (d + 96), v);
    }
  for (; n >= 32; n -= 32, d += 32)
    _mm256_stream_si256 ((__m256i *) d, v);
  _mm_sfence ();
  _mm256_storeu_si256 ((__m256i *) (d_end - 32), v);
  return dst;
}
