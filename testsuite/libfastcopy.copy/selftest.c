/* SPDX-License-Identifier: MIT */
/* Area: copy
   Purpose: the harness itself: the sweeps that every other test relies on
   pass a correct reference copy and clear, and catch deliberately broken
   ones: a byte written past the end or before the start, a short copy,
   swapped bytes, a wrong return value, a read past the end of the source
   (only a guard page can see it), a forward-only copy under overlap, and
   a memset that stores the wrong byte of its int.  */

#include "fctest.h"
#include <setjmp.h>

static void *
ref_move (void *dst, const void *src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s)
    for (size_t i = 0; i < n; i++)
      d[i] = s[i];
  else
    for (size_t i = n; i-- > 0;)
      d[i] = s[i];
  return dst;
}

static void *
bad_write_after (void *dst, const void *src, size_t n)
{
  ref_move (dst, src, n);
  ((unsigned char *) dst)[n] ^= 0x40;
  return dst;
}

static void *
bad_write_before (void *dst, const void *src, size_t n)
{
  ref_move (dst, src, n);
  if (n > 5)
    ((unsigned char *) dst)[-1] ^= 0x40;
  return dst;
}

static void *
bad_short (void *dst, const void *src, size_t n)
{
  return ref_move (dst, src, n > 3 ? n - 1 : n);
}

static void *
bad_swap (void *dst, const void *src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; i++)
    d[i] = s[i ^ (n >= 64 && i + 1 < n)];
  return dst;
}

static void *
bad_return (void *dst, const void *src, size_t n)
{
  ref_move (dst, src, n);
  return (char *) dst + (n == 17);
}

static void *
bad_overread (void *dst, const void *src, size_t n)
{
  /* Reads one byte past the source, as a careless vector tail would.  */
  volatile unsigned char sink = n ? ((const unsigned char *) src)[n] : 0;
  (void) sink;
  return ref_move (dst, src, n);
}

static void *
bad_forward_only (void *dst, const void *src, size_t n)
{
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; i++)
    d[i] = s[i];
  return dst;
}

static void *
ref_set (void *dst, int c, size_t n)
{
  for (size_t i = 0; i < n; i++)
    ((unsigned char *) dst)[i] = (unsigned char) c;
  return dst;
}

static void *
bad_set_byte (void *dst, int c, size_t n)
{
  return ref_set (dst, c >> 8, n);
}

static void *
bad_set_short (void *dst, int c, size_t n)
{
  return ref_set (dst, c, n > 100 ? n - 1 : n);
}

static sigjmp_buf recover;
static volatile int crashed;

static void
on_fault (int sig)
{
  (void) sig;
  crashed = 1;
  siglongjmp (recover, 1);
}

enum sweep { COPY, OVERLAP, CLEAR };

static struct fct_pair pair;
static struct fct_region region;
static unsigned char *scratch;

/* Run the sweep quietly; the number of failed cases, or -1 for a fault.  */
static long
quiet_sweep (enum sweep kind, fct_copy_fn copy, fct_clear_fn clear)
{
  struct fct_copy c = { "selftest", copy, FCT_RET_DST };
  struct fct_clear z = { "selftest", clear, FCT_RET_DST, 0 };
  struct sigaction sa, old_segv, old_bus;

  sa.sa_handler = on_fault;
  sigemptyset (&sa.sa_mask);
  sa.sa_flags = SA_NODEFER;
  sigaction (SIGSEGV, &sa, &old_segv);
  sigaction (SIGBUS, &sa, &old_bus);
  fct_quiet = 1;
  fct_check_failures = 0;
  crashed = 0;
  if (sigsetjmp (recover, 1) == 0)
    switch (kind)
      {
      case COPY:
	fct_copy_range (&c, &pair, 0, 80, 1);
	fct_copy_range (&c, &pair, 2040, 2056, 0);
	break;
      case OVERLAP:
	fct_overlap_sweep (&c, &region, scratch, 12, 20, 0);
	break;
      case CLEAR:
	for (size_t n = 0; n <= 300; n++)
	  fct_clear_size (&z, &region, n, FCT_CLEAR_ALL);
	break;
      }
  fct_quiet = 0;
  sigaction (SIGSEGV, &old_segv, NULL);
  sigaction (SIGBUS, &old_bus, NULL);
  return crashed ? -1 : fct_check_failures;
}

static void
expect_pass (const char *what, enum sweep kind, fct_copy_fn copy,
	     fct_clear_fn clear)
{
  long r = quiet_sweep (kind, copy, clear);
  fct_begin ("harness passes %s", what);
  if (r != 0)
    fct_fail ("%ld failed cases%s", r, r < 0 ? " (fault)" : "");
  fct_end ();
}

static void
expect_caught (const char *what, enum sweep kind, fct_copy_fn copy,
	       fct_clear_fn clear)
{
  long r = quiet_sweep (kind, copy, clear);
  fct_expect (r != 0, "harness catches %s", what);
}

int
main (void)
{
  fct_init ();
  fct_pair_init (&pair, 4096, 3);
  fct_region_init (&region, 4096);
  scratch = malloc (4096);
  if (scratch == NULL)
    return 1;

  expect_pass ("a correct copy", COPY, ref_move, NULL);
  expect_pass ("a correct overlapping copy", OVERLAP, ref_move, NULL);
  expect_pass ("a correct clear", CLEAR, NULL, ref_set);

  expect_caught ("a byte written after dst+n", COPY, bad_write_after, NULL);
  expect_caught ("a byte written before dst", COPY, bad_write_before, NULL);
  expect_caught ("a short copy", COPY, bad_short, NULL);
  expect_caught ("swapped bytes", COPY, bad_swap, NULL);
  expect_caught ("a wrong return value", COPY, bad_return, NULL);
  long r = quiet_sweep (COPY, bad_overread, NULL);
  fct_expect (r < 0, "harness catches a read past the source (guard page)");
  expect_caught ("a forward-only copy under overlap", OVERLAP,
		 bad_forward_only, NULL);
  expect_caught ("memset storing the wrong byte of c", CLEAR, NULL,
		 bad_set_byte);
  expect_caught ("a short memset", CLEAR, NULL, bad_set_short);
  return fct_finish ();
}
