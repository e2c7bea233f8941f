/* SPDX-License-Identifier: MIT */
/* Area: dispatch
   Purpose: a reduced correctness sweep of every exported function, meant
   to run under each emulated CPU model of dispatch.exp (where a different
   implementation is chosen) as well as natively: sizes 0..160 and
   2040..2056 at sampled alignments plus a few large sizes, guard pages and
   canaries; overlap at distances 1..70 and some far ones for memmove and
   memcpy; memset with every value; the _chk forms with room to spare.  */

#include "fctest.h"

static const size_t sizes[] = { 4095, 4096, 4097, 65537, 1048577 };

typedef void *(*copy_chk_fn) (void *, const void *, size_t, size_t);
typedef void *(*set_chk_fn) (void *, int, size_t, size_t);
typedef void (*bzero_fn) (void *, size_t);
typedef void (*bzero_chk_fn) (void *, size_t, size_t);

static copy_chk_fn memcpy_chk, memmove_chk, mempcpy_chk;
static set_chk_fn memset_chk;
static bzero_fn bzero_p, explicit_bzero_p;
static bzero_chk_fn explicit_bzero_chk;

static void *w_memcpy_chk (void *d, const void *s, size_t n)
{ return memcpy_chk (d, s, n, n); }
static void *w_memmove_chk (void *d, const void *s, size_t n)
{ return memmove_chk (d, s, n, n + 1); }
static void *w_mempcpy_chk (void *d, const void *s, size_t n)
{ return mempcpy_chk (d, s, n, (size_t) -1); }
static void *w_memset_chk (void *d, int c, size_t n)
{ return memset_chk (d, c, n, n); }
static void *w_bzero (void *d, int c, size_t n)
{ (void) c; bzero_p (d, n); return d; }
static void *w_explicit_bzero (void *d, int c, size_t n)
{ (void) c; explicit_bzero_p (d, n); return d; }
static void *w_explicit_bzero_chk (void *d, int c, size_t n)
{ (void) c; explicit_bzero_chk (d, n, n); return d; }

int
main (void)
{
  struct fct_pair b;
  struct fct_region r;
  unsigned char *scratch;

  fct_init ();
  fct_pair_init (&b, 1048577, 6);
  fct_region_init (&r, 1048577);
  scratch = malloc (FCT_OVERLAP_MAX);
  if (scratch == NULL)
    return 1;

  memcpy_chk = (copy_chk_fn) fct_symbol ("__memcpy_chk", NULL);
  memmove_chk = (copy_chk_fn) fct_symbol ("__memmove_chk", NULL);
  mempcpy_chk = (copy_chk_fn) fct_symbol ("__mempcpy_chk", NULL);
  memset_chk = (set_chk_fn) fct_symbol ("__memset_chk", NULL);
  bzero_p = (bzero_fn) fct_symbol ("bzero", NULL);
  explicit_bzero_p = (bzero_fn) fct_symbol ("explicit_bzero", NULL);
  explicit_bzero_chk = (bzero_chk_fn) fct_symbol ("__explicit_bzero_chk",
						  NULL);

  const struct fct_copy copies[] = {
    { "memcpy", (fct_copy_fn) fct_symbol ("memcpy", NULL), FCT_RET_DST },
#ifdef __x86_64__	/* i386 has one memcpy, GLIBC_2.0 */
    { "memcpy@GLIBC_2.2.5", (fct_copy_fn) fct_symbol ("memcpy", "GLIBC_2.2.5"),
      FCT_RET_DST },
#endif
    { "memmove", (fct_copy_fn) fct_symbol ("memmove", NULL), FCT_RET_DST },
    { "mempcpy", (fct_copy_fn) fct_symbol ("mempcpy", NULL), FCT_RET_END },
    { "__mempcpy", (fct_copy_fn) fct_symbol ("__mempcpy", NULL), FCT_RET_END },
    { "__memcpy_chk", w_memcpy_chk, FCT_RET_DST },
    { "__memmove_chk", w_memmove_chk, FCT_RET_DST },
    { "__mempcpy_chk", w_mempcpy_chk, FCT_RET_END },
  };
  const struct fct_clear clears[] = {
    { "memset", (fct_clear_fn) fct_symbol ("memset", NULL), FCT_RET_DST, 0 },
    { "bzero", w_bzero, FCT_RET_NONE, 1 },
    { "explicit_bzero", w_explicit_bzero, FCT_RET_NONE, 1 },
    { "__memset_chk", w_memset_chk, FCT_RET_DST, 0 },
    { "__explicit_bzero_chk", w_explicit_bzero_chk, FCT_RET_NONE, 1 },
  };

  for (size_t i = 0; i < FCT_ARRAY_SIZE (copies); i++)
    {
      fct_begin ("%s: reduced size sweep", copies[i].name);
      fct_copy_range (&copies[i], &b, 0, 160, 0);
      fct_copy_range (&copies[i], &b, 2040, 2056, 0);
      fct_copy_list (&copies[i], &b, sizes, FCT_ARRAY_SIZE (sizes));
      fct_end ();
    }
  for (size_t i = 0; i < 3; i++)
    {
      fct_begin ("%s: reduced overlap sweep", copies[i].name);
      fct_overlap_sweep (&copies[i], &r, scratch, 36, 70, 1);
      fct_end ();
    }
  for (size_t i = 0; i < FCT_ARRAY_SIZE (clears); i++)
    {
      fct_begin ("%s: reduced size sweep", clears[i].name);
      for (size_t n = 0; n <= 160; n++)
	fct_clear_size (&clears[i], &r, n, FCT_CLEAR_SAMPLE);
      for (size_t n = 2040; n <= 2056; n++)
	fct_clear_size (&clears[i], &r, n, FCT_CLEAR_SAMPLE);
      for (size_t k = 0; k < FCT_ARRAY_SIZE (sizes); k++)
	fct_clear_size (&clears[i], &r, sizes[k], FCT_CLEAR_SAMPLE);
      fct_end ();
    }
  return fct_finish ();
}
