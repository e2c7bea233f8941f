/* memmove_avx2_large: memmove_avx2's path for n > 256 (vec-inline.h
   describes the strategy).  */

#pragma GCC target ("avx2")
#define VEC_SIZE 32

#include "load-state.h"
#include "vec-inline.h"

FC_HIDDEN void *memmove_avx2_large (void *dst, const void *src, size_t n);

void *
memmove_avx2_large (void *dst, const void *src, size_t n)
{
  return copy_vec_large (dst, src, n);
}
