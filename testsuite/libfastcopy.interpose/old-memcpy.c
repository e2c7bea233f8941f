/* SPDX-License-Identifier: MIT */
/* Area: interpose
   Purpose: a program that references the pre-2.14 memcpy@GLIBC_2.2.5 (as
   binaries linked before glibc 2.14 do) binds it to libfastcopy when the
   library is preloaded, and keeps the overlap safety such programs rely
   on (glibc's memcpy is overlap-safe in practice): it prints exactly its
   normal output.  i386's glibc has only memcpy@GLIBC_2.0.
   { fc-arch "x86_64" }
   { fc-options "-O2 -fno-builtin" }
   { fc-load preload }
   { fc-imports "memcpy@GLIBC_2.2.5" }
   { fc-binds "memcpy@GLIBC_2.2.5" }  */

#include <stdio.h>
#include <string.h>

__asm__ (".symver memcpy, memcpy@GLIBC_2.2.5");

int
main (int argc, char **argv)
{
  char buf[4096];
  size_t n = sizeof buf - 64 + (size_t) argc - 1;
  unsigned long sum = 0;

  (void) argv;
  for (size_t i = 0; i < sizeof buf; i++)
    buf[i] = (char) (i * 13 + i / 256);
  memcpy (buf + 64, buf, n - 64);	/* overlapping, dst > src */
  memcpy (buf, buf + 17, n - 17);	/* overlapping, dst < src */
  for (size_t i = 0; i < sizeof buf; i++)
    sum = sum * 31 + (unsigned char) buf[i];
  printf ("checksum %lu\n", sum);
  return 0;
}
