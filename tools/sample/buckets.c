/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: the classes of the recording's size buckets
   (src/size-buckets.h).  */

#include "sample/sample.h"

unsigned int
size_class (uint64_t n)
{
  unsigned long long lo, hi;
  fc_size_bucket_range (fc_size_bucket (n), &lo, &hi);
  return hi <= 1 ? 0 : 64 - (unsigned int) __builtin_clzll (hi - 1);
}
