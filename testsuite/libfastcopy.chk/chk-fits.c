/* SPDX-License-Identifier: MIT */
/* Area: chk
   Purpose: the fortified forms do the plain operation when the length fits
   the destination: __memcpy_chk, __memmove_chk and __mempcpy_chk (returns
   dst + n) copy, __memset_chk and __explicit_bzero_chk clear, with the
   destination size equal to n (the boundary, which must not abort), n + 1
   and (size_t) -1 (what the compiler passes when it does not know the
   size); sizes 0..300 and 2040..2056 at sampled alignments, larger sizes
   to 4 MiB+7, guard pages and canaries; __memmove_chk and __memcpy_chk
   also under overlap.  */

#include "fctest.h"

typedef void *(*copy_chk_fn) (void *, const void *, size_t, size_t);
typedef void *(*set_chk_fn) (void *, int, size_t, size_t);
typedef void (*bzero_chk_fn) (void *, size_t, size_t);

static copy_chk_fn memcpy_chk, memmove_chk, mempcpy_chk;
static set_chk_fn memset_chk;
static bzero_chk_fn explicit_bzero_chk;

/* The destination size passed: n + slack, or (size_t) -1 for slack -1.  */
static long slack;

static size_t
destlen (size_t n)
{
  return slack < 0 ? (size_t) -1 : n + (size_t) slack;
}

static void *
w_memcpy_chk (void *d, const void *s, size_t n)
{
  return memcpy_chk (d, s, n, destlen (n));
}

static void *
w_memmove_chk (void *d, const void *s, size_t n)
{
  return memmove_chk (d, s, n, destlen (n));
}

static void *
w_mempcpy_chk (void *d, const void *s, size_t n)
{
  return mempcpy_chk (d, s, n, destlen (n));
}

static void *
w_memset_chk (void *d, int c, size_t n)
{
  return memset_chk (d, c, n, destlen (n));
}

static void *
w_explicit_bzero_chk (void *d, int c, size_t n)
{
  (void) c;
  explicit_bzero_chk (d, n, destlen (n));
  return d;
}

int
main (void)
{
  static const long slacks[] = { 0, 1, -1 };
  struct fct_pair b;
  struct fct_region r;
  unsigned char *scratch;

  fct_init ();
  fct_pair_init (&b, FCT_LARGE_MAX, 4);
  fct_region_init (&r, FCT_LARGE_MAX);
  scratch = malloc (FCT_OVERLAP_MAX);
  if (scratch == NULL)
    return 1;

  memcpy_chk = (copy_chk_fn) fct_symbol ("__memcpy_chk", NULL);
  memmove_chk = (copy_chk_fn) fct_symbol ("__memmove_chk", NULL);
  mempcpy_chk = (copy_chk_fn) fct_symbol ("__mempcpy_chk", NULL);
  memset_chk = (set_chk_fn) fct_symbol ("__memset_chk", NULL);
  explicit_bzero_chk = (bzero_chk_fn) fct_symbol ("__explicit_bzero_chk",
						  NULL);

  const struct fct_copy copies[] = {
    { "__memcpy_chk", w_memcpy_chk, FCT_RET_DST },
    { "__memmove_chk", w_memmove_chk, FCT_RET_DST },
    { "__mempcpy_chk", w_mempcpy_chk, FCT_RET_END },
  };
  const struct fct_clear clears[] = {
    { "__memset_chk", w_memset_chk, FCT_RET_DST, 0 },
    { "__explicit_bzero_chk", w_explicit_bzero_chk, FCT_RET_NONE, 1 },
  };

  for (size_t k = 0; k < FCT_ARRAY_SIZE (slacks); k++)
    {
      char what[32];
      slack = slacks[k];
      if (slack < 0)
	snprintf (what, sizeof what, "destlen=SIZE_MAX");
      else
	snprintf (what, sizeof what, "destlen=n+%ld", slack);

      for (size_t i = 0; i < FCT_ARRAY_SIZE (copies); i++)
	{
	  fct_begin ("%s %s: sizes 0..300, 2040..2056 and to 4 MiB+7",
		     copies[i].name, what);
	  fct_copy_range (&copies[i], &b, 0, 300, 0);
	  fct_copy_range (&copies[i], &b, 2040, 2056, 0);
	  fct_copy_list (&copies[i], &b, fct_large_sizes,
			 FCT_ARRAY_SIZE (fct_large_sizes));
	  fct_end ();
	}
      for (size_t i = 0; i < FCT_ARRAY_SIZE (clears); i++)
	{
	  fct_begin ("%s %s: sizes 0..300, 2040..2056 and to 4 MiB+7",
		     clears[i].name, what);
	  for (size_t n = 0; n <= 300; n++)
	    fct_clear_size (&clears[i], &r, n, FCT_CLEAR_SAMPLE);
	  for (size_t n = 2040; n <= 2056; n++)
	    fct_clear_size (&clears[i], &r, n, FCT_CLEAR_SAMPLE);
	  for (size_t j = 0; j < FCT_ARRAY_SIZE (fct_large_sizes); j++)
	    fct_clear_size (&clears[i], &r, fct_large_sizes[j],
			    FCT_CLEAR_SAMPLE);
	  fct_end ();
	}
    }

  slack = 0;
  for (size_t i = 0; i < 2; i++)
    {
      fct_begin ("%s destlen=n: overlapping copies, distances 0..130 and far",
		 copies[i].name);
      fct_overlap_sweep (&copies[i], &r, scratch, (size_t) -1, 130, 1);
      fct_end ();
    }
  return fct_finish ();
}
