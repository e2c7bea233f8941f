/* SPDX-License-Identifier: MIT */
/* The exported standard functions that call through a dispatch slot
   (resolve.c).  The hottest ones -- memcpy, memmove, memset and their _chk
   forms -- are assembly entry points in front of a variant's body instead:
   src/entry-points.def says which.

   Symbol versions come from libfastcopy.map and copy glibc's, so that
   references such as mempcpy@GLIBC_2.2.5 bind here.  <string.h> is
   deliberately not included: these are definitions of the library
   functions, not uses of them.  */

#include "dispatch.h"
#include "profile.h"

/* glibc's fortify failure path: prints "*** buffer overflow detected ***:
   terminated" and aborts, exactly as glibc's own __*_chk do.  */
extern void __chk_fail (void) __attribute__ ((noreturn));

void *mempcpy (void *, const void *, size_t);
void *__mempcpy (void *, const void *, size_t);
void bzero (void *, size_t);
void explicit_bzero (void *, size_t);
void *__mempcpy_chk (void *, const void *, size_t, size_t);
void __explicit_bzero_chk (void *, size_t, size_t);

FC_MEMPCPY_TEXT void *
mempcpy (void *dst, const void *src, size_t n)
{
  fc_copy_slot (dst, src, n);
  return (char *) dst + n;
}

FC_MEMPCPY_TEXT void *
__mempcpy (void *dst, const void *src, size_t n)
{
  fc_copy_slot (dst, src, n);
  return (char *) dst + n;
}

void
bzero (void *dst, size_t n)
{
  fc_clear_slot (dst, 0, n);
}

/* The call through a slot cannot be elided, and the barrier tells the
   compiler the cleared memory is observed, so the clear survives inlining
   and LTO of this file too.  */
FC_EXPLICIT_BZERO_TEXT void
explicit_bzero (void *dst, size_t n)
{
  fc_clear_slot (dst, 0, n);
  __asm__ volatile ("" : : "r" (dst) : "memory");
}

FC_MEMPCPY_TEXT void *
__mempcpy_chk (void *dst, const void *src, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  fc_copy_slot (dst, src, n);
  return (char *) dst + n;
}

FC_EXPLICIT_BZERO_TEXT void
__explicit_bzero_chk (void *dst, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  fc_clear_slot (dst, 0, n);
  __asm__ volatile ("" : : "r" (dst) : "memory");
}
