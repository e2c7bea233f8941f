/* memmove_sse2: 16-byte vectors for every size class, REP MOVSB only in
   the window where it wins, streaming stores for huge disjoint copies
   (vec-inline.h describes the strategy).  */

#pragma GCC target ("sse2")
#define VEC_SIZE 16

#include "load-state.h"
#include "vec-inline.h"

void *
memmove_sse2 (void *dst, const void *src, size_t n)
{
  return memmove_vec (dst, src, n);
}
