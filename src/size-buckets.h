/* SPDX-License-Identifier: MIT */
/* The size buckets of a recording: every size up to FC_BUCKET_EXACT has
   its own, then FC_BUCKET_PER_DOUBLING per doubling.  The library's
   profile counts calls by them (calls/profile.c), and fastcopy-sample
   writes the same, so that a sampled recording and an exact one compare
   bucket for bucket.  */

#ifndef FASTCOPY_SIZE_BUCKETS_H
#define FASTCOPY_SIZE_BUCKETS_H 1

#include <stddef.h>

#define FC_BUCKET_EXACT 512
#define FC_BUCKET_PER_DOUBLING 8
/* Buckets for every size_t of x86-64.  */
#define FC_BUCKETS \
  (FC_BUCKET_EXACT + 1 + (64 - 9) * FC_BUCKET_PER_DOUBLING)

/* The bucket of size N.  */
static inline size_t
fc_size_bucket (unsigned long long n)
{
  if (n <= FC_BUCKET_EXACT)
    return (size_t) n;
  unsigned int e = 63u - (unsigned int) __builtin_clzll (n);	/* >= 9 */
  return FC_BUCKET_EXACT + 1 + (e - 9) * FC_BUCKET_PER_DOUBLING
	 + ((n >> (e - 3)) & 7);
}

/* The sizes of bucket B: [*LO, *HI].  */
static inline void
fc_size_bucket_range (size_t b, unsigned long long *lo,
		      unsigned long long *hi)
{
  if (b <= FC_BUCKET_EXACT)
    {
      *lo = *hi = b;
      return;
    }
  unsigned int e = 9 + (unsigned int) (b - FC_BUCKET_EXACT - 1)
		       / FC_BUCKET_PER_DOUBLING;
  unsigned long long m = (b - FC_BUCKET_EXACT - 1) % FC_BUCKET_PER_DOUBLING;
  *lo = (8 + m) << (e - 3);
  *hi = *lo + (1ull << (e - 3)) - 1;
  if (*lo <= FC_BUCKET_EXACT)
    *lo = FC_BUCKET_EXACT + 1;
}

#endif
