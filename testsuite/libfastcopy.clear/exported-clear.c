/* SPDX-License-Identifier: MIT */
/* Area: clear
   Purpose: the exported clear functions of the built libfastcopy.so.1,
   found by dlsym: memset (values 0, 0xff, 0x5a, 0x1234a5, 0x100, -2; must
   return dst), bzero and explicit_bzero (zeroes); sizes 0..128 at all
   64 alignments, 129..1024 and 2040..2056 at sampled ones, larger sizes
   to 4 MiB+7, with guard pages and canaries.  */

#include "fctest.h"

typedef void (*bzero_fn) (void *, size_t);
static bzero_fn bzero_p, explicit_bzero_p;

static void *
call_bzero (void *dst, int c, size_t n)
{
  (void) c;
  bzero_p (dst, n);
  return dst;
}

static void *
call_explicit_bzero (void *dst, int c, size_t n)
{
  (void) c;
  explicit_bzero_p (dst, n);
  return dst;
}

int
main (void)
{
  struct fct_region r;

  fct_init ();
  fct_region_init (&r, FCT_LARGE_MAX);
  bzero_p = (bzero_fn) fct_symbol ("bzero", NULL);
  explicit_bzero_p = (bzero_fn) fct_symbol ("explicit_bzero", NULL);

  const struct fct_clear targets[] = {
    { "memset", (fct_clear_fn) fct_symbol ("memset", NULL), FCT_RET_DST, 0 },
    { "bzero", call_bzero, FCT_RET_NONE, 1 },
    { "explicit_bzero", call_explicit_bzero, FCT_RET_NONE, 1 },
  };

  for (size_t i = 0; i < FCT_ARRAY_SIZE (targets); i++)
    {
      const struct fct_clear *t = &targets[i];
      fct_begin ("%s: sizes 0..128, all alignments", t->name);
      for (size_t n = 0; n <= 128; n++)
	fct_clear_size (t, &r, n, FCT_CLEAR_ALL);
      fct_end ();
      fct_begin ("%s: sizes 129..1024 and 2040..2056, sampled alignments",
		 t->name);
      for (size_t n = 129; n <= 1024; n++)
	fct_clear_size (t, &r, n, FCT_CLEAR_SAMPLE);
      for (size_t n = 2040; n <= 2056; n++)
	fct_clear_size (t, &r, n, FCT_CLEAR_SAMPLE);
      fct_end ();
      fct_begin ("%s: sizes 1535..4 MiB+7, sampled alignments", t->name);
      for (size_t k = 0; k < FCT_ARRAY_SIZE (fct_large_sizes); k++)
	fct_clear_size (t, &r, fct_large_sizes[k], FCT_CLEAR_SAMPLE);
      fct_end ();
    }
  return fct_finish ();
}
