/* SPDX-License-Identifier: MIT */
/* Area: interpose
   Purpose: a program linked with -lfastcopy against the built library
   (found at run time through LD_LIBRARY_PATH) gets libfastcopy's memcpy
   and memset: they work, dladdr places them in libfastcopy, and
   LD_DEBUG=bindings shows the program's references bound there.
   { fc-options "-O2 -fno-builtin" }
   { fc-link fastcopy }
   { fc-load linked }
   { fc-results }
   { fc-binds "memcpy memset" }  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fastcopy.h"

static int
in_libfastcopy (void *fn)
{
  Dl_info info;
  return dladdr (fn, &info) && info.dli_fname
	 && strstr (info.dli_fname, "libfastcopy.so") != NULL;
}

int
main (int argc, char **argv)
{
  size_t n = 1000 + (size_t) argc;
  unsigned char *a = malloc (n), *b = malloc (n);
  int ok = 1;

  (void) argv;
  if (a == NULL || b == NULL)
    return 1;
  for (size_t i = 0; i < n; i++)
    a[i] = (unsigned char) (i * 7 + 3);
  memcpy (b, a, n);
  for (size_t i = 0; i < n; i++)
    ok &= b[i] == a[i];
  memset (b, 0x5a, n);
  for (size_t i = 0; i < n; i++)
    ok &= b[i] == 0x5a;

  printf ("%s: memcpy and memset work\n", ok ? "PASS" : "FAIL");
  printf ("%s: memcpy is libfastcopy's\n",
	  in_libfastcopy ((void *) memcpy) ? "PASS" : "FAIL");
  printf ("%s: memset is libfastcopy's\n",
	  in_libfastcopy ((void *) memset) ? "PASS" : "FAIL");
  printf ("%s: libfastcopy %s is loaded\n",
	  fastcopy_version () != NULL ? "PASS" : "FAIL", fastcopy_version ());
  return 0;
}
