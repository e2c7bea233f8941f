/* SPDX-License-Identifier: MIT */
/* The exported standard functions that call through a dispatch slot
   (resolve.c).  The hottest ones -- memcpy, memmove, memset and their _chk
   forms -- are assembly entry points in front of a variant's body instead:
   src/entry-points.def says which.

   Symbol versions come from libfastcopy.map and copy glibc's, so that
   references such as mempcpy@GLIBC_2.2.5 bind here.  <string.h> is
   deliberately not included: these are definitions of the library
   functions, not uses of them.  */

#include "counts.h"
#include "dispatch.h"

/* glibc's fortify failure path: prints "*** buffer overflow detected ***:
   terminated" and aborts, exactly as glibc's own __*_chk do.  */
extern void __chk_fail (void) __attribute__ ((noreturn));

/* The slot's function, or during a census window the census's, which
   counts the call first (census.h): what the assembly entry points reach
   through their entry byte, these reach through the same byte.  Inlined,
   so that the census sees the exported function as its caller.  */
static inline __attribute__ ((always_inline)) void
copy (void *dst, const void *src, size_t n)
{
  if (__builtin_expect (fc_copy_entry == FC_ENTRY_CENSUS, 0))
    memmove_census (dst, src, n);
  else
    fc_copy_slot (dst, src, n);
}

static inline __attribute__ ((always_inline)) void
clear (void *dst, size_t n)
{
  if (__builtin_expect (fc_clear_entry == FC_ENTRY_CENSUS, 0))
    memset_census (dst, 0, n);
  else
    fc_clear_slot (dst, 0, n);
}

void *mempcpy (void *, const void *, size_t);
void *__mempcpy (void *, const void *, size_t);
void bzero (void *, size_t);
void explicit_bzero (void *, size_t);
void *__mempcpy_chk (void *, const void *, size_t, size_t);
void __explicit_bzero_chk (void *, size_t, size_t);

FC_MEMPCPY_TEXT void *
mempcpy (void *dst, const void *src, size_t n)
{
  copy (dst, src, n);
  return (char *) dst + n;
}

FC_MEMPCPY_TEXT void *
__mempcpy (void *dst, const void *src, size_t n)
{
  copy (dst, src, n);
  return (char *) dst + n;
}

void
bzero (void *dst, size_t n)
{
  clear (dst, n);
}

/* The call through a slot cannot be elided, and the barrier tells the
   compiler the cleared memory is observed, so the clear survives inlining
   and LTO of this file too.  */
FC_EXPLICIT_BZERO_TEXT void
explicit_bzero (void *dst, size_t n)
{
  clear (dst, n);
  __asm__ volatile ("" : : "r" (dst) : "memory");
}

FC_MEMPCPY_TEXT void *
__mempcpy_chk (void *dst, const void *src, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  copy (dst, src, n);
  return (char *) dst + n;
}

FC_EXPLICIT_BZERO_TEXT void
__explicit_bzero_chk (void *dst, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  clear (dst, n);
  __asm__ volatile ("" : : "r" (dst) : "memory");
}
