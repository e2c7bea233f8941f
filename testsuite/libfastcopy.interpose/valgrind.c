/* SPDX-License-Identifier: MIT */
/* Area: interpose
   Purpose: with libfastcopy preloaded under valgrind --error-exitcode=1
   (which replaces memcpy only inside libc and ld.so, so these calls reach
   libfastcopy), every exported function at sizes 0..300 and larger, at
   offsets 0..8 and 15 into malloc'd blocks whose last byte is the buffer's
   last byte, overlapping moves and the fortified forms, gives correct
   results and valgrind reports no invalid read or write
   (Valgrind replaces memcpy only inside libc and ld.so, so a vector path
   that read past a buffer would show here).
   { fc-options "-O1 -g -fno-builtin -fno-tree-loop-distribute-patterns" }
   { fc-load preload }
   { fc-tool valgrind }
   { fc-results }  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastcopy.h"

void *__memcpy_chk (void *, const void *, size_t, size_t);
void *__memmove_chk (void *, const void *, size_t, size_t);
void *__mempcpy_chk (void *, const void *, size_t, size_t);
void *__memset_chk (void *, int, size_t, size_t);
void __explicit_bzero_chk (void *, size_t, size_t);

static int failures;

static void
check (int ok, const char *what, size_t n, size_t off)
{
  if (!ok && failures++ < 10)
    printf ("  detail: %s n=%zu offset=%zu\n", what, n, off);
}

static void
fill (unsigned char *p, size_t n, unsigned seed)
{
  for (size_t i = 0; i < n; i++)
    p[i] = (unsigned char) (i * 131 + seed + (i >> 8));
}

static int
same (const unsigned char *a, const unsigned char *b, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (a[i] != b[i])
      return 0;
  return 1;
}

static int
all (const unsigned char *a, unsigned char c, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (a[i] != c)
      return 0;
  return 1;
}

/* One size at one offset: source and destination are each the tail of
   their own malloc'd block.  */
static void
one (size_t n, size_t off)
{
  unsigned char *sb = malloc (n + off), *db = malloc (n + off);
  unsigned char *s = sb + off, *d = db + off;
  unsigned char *mb = malloc (n + 64 + off), *m = mb + off;

  fill (s, n, (unsigned) off);
  check (memcpy (d, s, n) == d && same (d, s, n), "memcpy", n, off);
  fill (d, n, 99);
  check (memmove (d, s, n) == d && same (d, s, n), "memmove", n, off);
  fill (d, n, 98);
  check (mempcpy (d, s, n) == d + n && same (d, s, n), "mempcpy", n, off);
  fill (d, n, 97);
  check (__memcpy_chk (d, s, n, n) == d && same (d, s, n), "__memcpy_chk",
	 n, off);
  fill (d, n, 96);
  check (__memmove_chk (d, s, n, n) == d && same (d, s, n), "__memmove_chk",
	 n, off);
  fill (d, n, 95);
  check (__mempcpy_chk (d, s, n, n) == d + n && same (d, s, n),
	 "__mempcpy_chk", n, off);
  check (memset (d, 0x1234a5, n) == d && all (d, 0xa5, n), "memset", n, off);
  bzero (d, n);
  check (all (d, 0, n), "bzero", n, off);
  fill (d, n, 94);
  explicit_bzero (d, n);
  check (all (d, 0, n), "explicit_bzero", n, off);
  check (__memset_chk (d, 0xff, n, n) == d && all (d, 0xff, n),
	 "__memset_chk", n, off);
  __explicit_bzero_chk (d, n, n);
  check (all (d, 0, n), "__explicit_bzero_chk", n, off);

  /* Overlap both ways inside one block of n + 64 bytes.  */
  size_t w = n + 64, dist = 1 + n % 63;
  if (dist > 64)
    dist = 64;
  fill (m, w, 7);
  memcpy (d, m + dist, n);		/* the expected result */
  memmove (m, m + dist, n);
  check (same (m, d, n), "memmove dst<src", n, off);
  fill (m, w, 8);
  memcpy (d, m, n);
  memmove (m + dist, m, n);
  check (same (m + dist, d, n), "memmove dst>src", n, off);

  free (sb);
  free (db);
  free (mb);
}

static int
in_libfastcopy (void *fn)
{
  Dl_info info;
  return dladdr (fn, &info) && info.dli_fname
	 && strstr (info.dli_fname, "libfastcopy.so") != NULL;
}

int
main (void)
{
  static const size_t large[] = { 511, 512, 1023, 2047, 2048, 2049, 4095,
				  4096, 4097, 65537, 1048583 };

  setvbuf (stdout, NULL, _IOLBF, 0);
  const struct fastcopy_choice *(*selected) (const char *)
    = (const struct fastcopy_choice *(*) (const char *))
      dlsym (RTLD_DEFAULT, "fastcopy_selected");
  if (selected != NULL && selected ("memcpy") != NULL)
    printf ("  note: under valgrind memcpy uses %s, memset uses %s\n",
	    selected ("memcpy")->impl->name, selected ("memset")->impl->name);
  printf ("%s: memcpy, memset and __memcpy_chk come from libfastcopy\n",
	  in_libfastcopy ((void *) memcpy) && in_libfastcopy ((void *) memset)
	  && in_libfastcopy ((void *) __memcpy_chk) ? "PASS" : "FAIL");
  for (size_t n = 0; n <= 300; n++)
    for (size_t off = 0; off < 16; off += 1 + (off >= 8) * 6)
      one (n, off);
  printf ("%s: all exported functions, sizes 0..300, offsets 0..8, 15\n",
	  failures ? "FAIL" : "PASS");
  failures = 0;
  for (size_t k = 0; k < sizeof large / sizeof large[0]; k++)
    for (size_t off = 0; off < 16; off += 5)
      one (large[k], off);
  printf ("%s: all exported functions, sizes 511..1 MiB+7\n",
	  failures ? "FAIL" : "PASS");
  return 0;
}
