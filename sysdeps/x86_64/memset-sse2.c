/* memset_sse2: 16-byte vector stores, REP STOSB only in the window where
   it wins, streaming stores for huge clears (vec-inline.h).  */

#pragma GCC target ("sse2")
#define VEC_SIZE 16

#include "load-state.h"
#include "vec-inline.h"

void *
memset_sse2 (void *dst, int c, size_t n)
{
  return memset_vec (dst, c, n);
}
