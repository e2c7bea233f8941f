/* memset_avx2_large: memset_avx2's path for n > 256 (vec-inline.h).  */

#pragma GCC target ("avx2")
#define VEC_SIZE 32

#include "load-state.h"
#include "vec-inline.h"

FC_HIDDEN void *memset_avx2_large (void *dst, int c, size_t n);

void *
memset_avx2_large (void *dst, int c, size_t n)
{
  set_vec_large (dst, VBROADCAST (c), c, n);
  return dst;
}
