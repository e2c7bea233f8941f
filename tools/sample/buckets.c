/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: the recording's size buckets, those of the library's
   profile (src/calls/profile.c), so that a sampled recording and an exact one
   compare bucket for bucket.  */

#include "sample/sample.h"

#define EXACT 512		/* sizes 0..EXACT have a bucket each */
#define PER_DOUBLING 8

size_t
size_bucket (uint64_t n)
{
  if (n <= EXACT)
    return n;
  unsigned int e = 63u - (unsigned int) __builtin_clzll (n);	/* >= 9 */
  return EXACT + 1 + (e - 9) * PER_DOUBLING + ((n >> (e - 3)) & 7);
}

void
size_bucket_range (size_t b, unsigned long long *lo, unsigned long long *hi)
{
  if (b <= EXACT)
    {
      *lo = *hi = b;
      return;
    }
  unsigned int e = 9 + (unsigned int) (b - EXACT - 1) / PER_DOUBLING;
  unsigned long long m = (b - EXACT - 1) % PER_DOUBLING;
  *lo = (8 + m) << (e - 3);
  *hi = *lo + (1ull << (e - 3)) - 1;
  if (*lo <= EXACT)
    *lo = EXACT + 1;
}

unsigned int
size_class (uint64_t n)
{
  unsigned long long lo, hi;
  size_bucket_range (size_bucket (n), &lo, &hi);
  return hi <= 1 ? 0 : 64 - (unsigned int) __builtin_clzll (hi - 1);
}
