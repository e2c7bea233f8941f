/* SPDX-License-Identifier: MIT */
/* REP MOVSB / REP STOSB as inline functions.  */

#ifndef FASTCOPY_REP_INLINE_H
#define FASTCOPY_REP_INLINE_H 1

#include <stddef.h>

static inline __attribute__ ((always_inline)) void
rep_movsb_forward (void *dst, const void *src, size_t n)
{
  __asm__ volatile ("rep movsb"
		    : "+D" (dst), "+S" (src), "+c" (n) : : "memory");
}

/* For a destination inside (src, src+n).  With DF set, REP MOVSB runs from
   the last byte down; it has no fast-string microcode, so it is slow, but it
   is what a pure string-instruction variant can do.  The ABI requires DF
   clear on return.  */
static inline __attribute__ ((always_inline)) void
rep_movsb_backward (void *dst, const void *src, size_t n)
{
  dst = (char *) dst + n - 1;
  src = (const char *) src + n - 1;
  __asm__ volatile ("std\n\trep movsb\n\tcld"
		    : "+D" (dst), "+S" (src), "+c" (n) : : "memory");
}

static inline __attribute__ ((always_inline)) void
rep_stosb (void *dst, int c, size_t n)
{
  __asm__ volatile ("rep stosb"
		    : "+D" (dst), "+c" (n) : "a" (c) : "memory");
}

#endif
