/* SPDX-License-Identifier: MIT */
/* Area: interpose
   Purpose: a program built like a distribution builds it (-O2
   -D_FORTIFY_SOURCE=2) that copies a runtime length into a fixed-size
   array imports __memcpy_chk; with libfastcopy preloaded it prints exactly
   its normal output, nothing on stderr, its __memcpy_chk and memset
   references bind to libfastcopy, and an overlong length still kills it
   with "buffer overflow detected"; doc/design.md, "Pitfalls".
   { fc-options "-O2 -D_FORTIFY_SOURCE=2" }
   { fc-load preload }
   { fc-imports "__memcpy_chk" }
   { fc-binds "__memcpy_chk" }
   { fc-args "23" }
   { fc-abort-args "40" }  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char text[64] =
  "the quick brown fox jumps over the lazy dog, twice over";

int
main (int argc, char **argv)
{
  char buf[32];
  size_t n = argc > 1 ? strtoul (argv[1], NULL, 10) : 8;

  memcpy (buf, text, n);	/* __memcpy_chk (buf, text, n, 32) */
  buf[n < sizeof buf ? n : sizeof buf - 1] = 0;
  printf ("copied %zu: %s\n", n, buf);
  return 0;
}
