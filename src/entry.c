/* The exported standard functions.

   Each is a plain function that tail-jumps through a dispatch slot
   (resolve.c).  Symbol versions come from libfastcopy.map plus the .symver
   below, and copy glibc's, so that references to memcpy@GLIBC_2.14,
   memcpy@GLIBC_2.2.5, __memcpy_chk@GLIBC_2.3.4 and so on bind here.
   <string.h> is deliberately not included: these are definitions of the
   library functions, not uses of them.  */

#include "fastcopy-internal.h"

extern FC_HIDDEN const fastcopy_copy_fn fc_copy_slot;
extern FC_HIDDEN const fastcopy_clear_fn fc_clear_slot;

/* glibc's fortify failure path: prints "*** buffer overflow detected ***:
   terminated" and aborts, exactly as glibc's own __*_chk do.  */
extern void __chk_fail (void) __attribute__ ((noreturn));

void *memmove (void *, const void *, size_t);
void *memcpy (void *, const void *, size_t);
void *memcpy_glibc_2_2_5 (void *, const void *, size_t);
void *mempcpy (void *, const void *, size_t);
void *__mempcpy (void *, const void *, size_t);
void *memset (void *, int, size_t);
void bzero (void *, size_t);
void explicit_bzero (void *, size_t);
void *__memcpy_chk (void *, const void *, size_t, size_t);
void *__memmove_chk (void *, const void *, size_t, size_t);
void *__mempcpy_chk (void *, const void *, size_t, size_t);
void *__memset_chk (void *, int, size_t, size_t);
void __explicit_bzero_chk (void *, size_t, size_t);

/* memcpy is memmove, as in glibc: old programs rely on overlap safety.  */
void *
memmove (void *dst, const void *src, size_t n)
{
  return fc_copy_slot (dst, src, n);
}

void *
memcpy (void *dst, const void *src, size_t n)
{
  return fc_copy_slot (dst, src, n);
}

/* The pre-2.14 memcpy, still referenced by old binaries.  */
void *
memcpy_glibc_2_2_5 (void *dst, const void *src, size_t n)
{
  return fc_copy_slot (dst, src, n);
}
__asm__ (".symver memcpy_glibc_2_2_5, memcpy@GLIBC_2.2.5");

void *
mempcpy (void *dst, const void *src, size_t n)
{
  fc_copy_slot (dst, src, n);
  return (char *) dst + n;
}

void *
__mempcpy (void *dst, const void *src, size_t n)
{
  fc_copy_slot (dst, src, n);
  return (char *) dst + n;
}

void *
memset (void *dst, int c, size_t n)
{
  return fc_clear_slot (dst, c, n);
}

void
bzero (void *dst, size_t n)
{
  fc_clear_slot (dst, 0, n);
}

/* The call through a slot cannot be elided, and the barrier tells the
   compiler the cleared memory is observed, so the clear survives inlining
   and LTO of this file too.  */
void
explicit_bzero (void *dst, size_t n)
{
  fc_clear_slot (dst, 0, n);
  __asm__ volatile ("" : : "r" (dst) : "memory");
}

void *
__memcpy_chk (void *dst, const void *src, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  return fc_copy_slot (dst, src, n);
}

void *
__memmove_chk (void *dst, const void *src, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  return fc_copy_slot (dst, src, n);
}

void *
__mempcpy_chk (void *dst, const void *src, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  fc_copy_slot (dst, src, n);
  return (char *) dst + n;
}

void *
__memset_chk (void *dst, int c, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  return fc_clear_slot (dst, c, n);
}

void
__explicit_bzero_chk (void *dst, size_t n, size_t dst_size)
{
  if (__builtin_expect (dst_size < n, 0))
    __chk_fail ();
  fc_clear_slot (dst, 0, n);
  __asm__ volatile ("" : : "r" (dst) : "memory");
}
