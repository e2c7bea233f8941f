/* SPDX-License-Identifier: MIT */
/* fctest.h: the harness shared by libfastcopy's C tests.

   Rules the harness keeps so that it never tests itself instead of the
   library:
   - tests are built with -fno-builtin -fno-tree-loop-distribute-patterns,
     and every buffer is filled and compared by the byte loops below; no
     test calls memcpy, memset or any other function under test except
     through the pointers it is testing (lib/libfastcopy.exp fails a test
     binary that imports one of them);
   - the functions under test are reached either through the implementation
     table (fastcopy_impl_at) or by dlsym on the built libfastcopy.so.1,
     and every dlsym'd address is checked to lie inside libfastcopy.

   Buffers live in "regions": mmap'd memory with a PROT_NONE guard page on
   each side.  A buffer of N bytes at alignment A (address % 64) is placed
   so that it ends as close to the trailing guard as A allows, so for every
   size one of the 64 alignments ends exactly at the guard, and an
   over-read or over-write there faults.  The bytes between the end of a
   destination and the guard, and 64 bytes before it, are canaries: filled
   with a pattern that changes every case, and checked after every call.
   Source regions are read-only while a test runs.

   Output: one line per named check, "PASS: name" or "FAIL: name", with up
   to FCT_MAX_DETAILS "  detail: ..." lines before a FAIL saying which case
   broke and how.  lib/libfastcopy.exp turns PASS/FAIL/UNSUPPORTED lines
   into DejaGnu results.  A crash (a guard page hit) prints a FAIL line with
   the case that was running before the signal kills the process.  */

#ifndef FCTEST_H
#define FCTEST_H 1

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fastcopy.h"

#ifndef FC_LIBRARY
# error "FC_LIBRARY (path of the built libfastcopy.so.1) must be defined"
#endif

#define FCT_UNUSED __attribute__ ((unused))
#define FCT_PRINTF(a, b) __attribute__ ((format (printf, a, b)))

#define FCT_ALIGNS 64		/* alignments swept: address % 64 */
#define FCT_CANARY 64		/* canary bytes before each destination */
#define FCT_MAX_DETAILS 5
#define FCT_SHIFT_MAX 4096	/* how far a source may be moved off its guard */

/* ------------------------------------------------------------------------ */
/* Results.  */

static char fct_check_name[256];
static long fct_check_failures;
static int fct_checks_failed;
static int fct_checks_run;
static int fct_quiet;		/* count failures without printing them */

/* What the current case is, for failure details and the crash handler.  */
static const char *volatile fct_case_fn = "";
static volatile size_t fct_case_n, fct_case_extra;
static volatile unsigned fct_case_sa, fct_case_da;
static volatile int fct_case_kind;	/* 0 none, 1 copy, 2 clear, 3 overlap */

static FCT_UNUSED void
fct_case_describe (char *buf, size_t size)
{
  switch (fct_case_kind)
    {
    case 1:
      snprintf (buf, size, "%s n=%zu src%%64=%u dst%%64=%u", fct_case_fn,
		fct_case_n, fct_case_sa, fct_case_da);
      if (fct_case_extra != 0)
	snprintf (buf + strlen (buf), size - strlen (buf),
		  " src %zu bytes before its guard", fct_case_extra);
      break;
    case 2:
      snprintf (buf, size, "%s n=%zu dst%%64=%u c=%#zx", fct_case_fn,
		fct_case_n, fct_case_da, fct_case_extra);
      break;
    case 3:
      snprintf (buf, size, "%s n=%zu distance=%zu %s buffer%%64=%u",
		fct_case_fn, fct_case_n, fct_case_extra,
		fct_case_sa ? "dst>src" : "dst<src", fct_case_da);
      break;
    default:
      snprintf (buf, size, "%s", fct_case_fn);
      break;
    }
}

/* Start a named check; every fct_fail until fct_end belongs to it.  */
static FCT_UNUSED FCT_PRINTF (1, 2) void
fct_begin (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (fct_check_name, sizeof fct_check_name, fmt, ap);
  va_end (ap);
  fct_check_failures = 0;
  fct_case_kind = 0;
  fct_case_fn = "";
}

/* Record one failure of the current check, described relative to the
   current case.  */
static FCT_UNUSED FCT_PRINTF (1, 2) void
fct_fail (const char *fmt, ...)
{
  if (fct_check_failures++ < FCT_MAX_DETAILS && !fct_quiet)
    {
      char what[256], where[256];
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (what, sizeof what, fmt, ap);
      va_end (ap);
      fct_case_describe (where, sizeof where);
      if (where[0] != 0)
	printf ("  detail: %s: %s\n", where, what);
      else
	printf ("  detail: %s\n", what);
    }
}

/* Print the current check's result; nonzero if it failed.  */
static FCT_UNUSED int
fct_end (void)
{
  fct_checks_run++;
  fct_case_kind = 0;
  if (fct_check_failures == 0)
    {
      printf ("PASS: %s\n", fct_check_name);
      return 0;
    }
  fct_checks_failed++;
  printf ("FAIL: %s (%ld failed case%s)\n", fct_check_name,
	  fct_check_failures, fct_check_failures == 1 ? "" : "s");
  return 1;
}

/* A check reduced to one condition.  */
static FCT_UNUSED FCT_PRINTF (2, 3) int
fct_expect (int ok, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (fct_check_name, sizeof fct_check_name, fmt, ap);
  va_end (ap);
  fct_check_failures = ok ? 0 : 1;
  fct_case_kind = 0;
  return fct_end ();
}

static FCT_UNUSED FCT_PRINTF (1, 2) void
fct_unsupported (const char *fmt, ...)
{
  char buf[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf, sizeof buf, fmt, ap);
  va_end (ap);
  printf ("UNSUPPORTED: %s\n", buf);
}

/* The process's exit status: 0 only if every check passed.  */
static FCT_UNUSED int
fct_finish (void)
{
  printf ("NOTE: %d checks, %d failed\n", fct_checks_run, fct_checks_failed);
  fflush (stdout);
  return fct_checks_failed != 0 || fct_checks_run == 0;
}

/* A fatal signal: name the case that was running, then die of it.  Only
   write(2) and stack buffers here.  */
static void
fct_put (char **p, char *end, const char *s)
{
  while (*s && *p < end)
    *(*p)++ = *s++;
}

static void
fct_put_num (char **p, char *end, size_t v)
{
  char digits[24];
  int i = 0;
  do
    digits[i++] = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  while (i > 0 && *p < end)
    *(*p)++ = digits[--i];
}

static void
fct_crash (int sig)
{
  char buf[512], *p = buf, *end = buf + sizeof buf - 1;
  fct_put (&p, end, "FAIL: ");
  fct_put (&p, end, fct_check_name);
  fct_put (&p, end, sig == SIGSEGV ? ": SIGSEGV" : sig == SIGBUS ? ": SIGBUS"
	   : ": fatal signal");
  if (fct_case_kind != 0)
    {
      fct_put (&p, end, " in ");
      fct_put (&p, end, fct_case_fn);
      fct_put (&p, end, " n=");
      fct_put_num (&p, end, fct_case_n);
      fct_put (&p, end, fct_case_kind == 3 ? " distance=" : " src%64=");
      fct_put_num (&p, end, fct_case_kind == 3 ? fct_case_extra : fct_case_sa);
      fct_put (&p, end, " dst%64=");
      fct_put_num (&p, end, fct_case_da);
    }
  *p++ = '\n';
  fflush (stdout);
  if (write (STDOUT_FILENO, buf, (size_t) (p - buf)) < 0)
    _exit (99);
  signal (sig, SIG_DFL);
  raise (sig);
}

/* Call first: line-buffered output (so a crash loses nothing) and the
   crash handler.  */
static FCT_UNUSED void
fct_init (void)
{
  setvbuf (stdout, NULL, _IOLBF, 0);
  signal (SIGSEGV, fct_crash);
  signal (SIGBUS, fct_crash);
  signal (SIGILL, fct_crash);
  signal (SIGFPE, fct_crash);
}

/* ------------------------------------------------------------------------ */
/* The functions under test.  */

static void *fct_handle;

static FCT_UNUSED int
fct_in_library (const void *addr)
{
  Dl_info info;
  return dladdr (addr, &info) != 0 && info.dli_fname != NULL
	 && strstr (info.dli_fname, "libfastcopy.so") != NULL;
}

/* NAME (at VERSION, or the default version when VERSION is NULL) from the
   built libfastcopy.so.1; exits the test if it is missing or is not
   libfastcopy's own definition.  */
static FCT_UNUSED void *
fct_symbol (const char *name, const char *version)
{
  if (fct_handle == NULL)
    {
      fct_handle = dlopen (FC_LIBRARY, RTLD_NOW | RTLD_LOCAL);
      if (fct_handle == NULL)
	{
	  printf ("FAIL: dlopen %s: %s\n", FC_LIBRARY, dlerror ());
	  exit (1);
	}
    }
  void *p = version ? dlvsym (fct_handle, name, version)
		    : dlsym (fct_handle, name);
  if (fct_expect (p != NULL && fct_in_library (p),
		  "%s%s%s is defined by libfastcopy.so.1", name,
		  version ? "@" : "", version ? version : ""))
    exit (1);
  return p;
}

/* ------------------------------------------------------------------------ */
/* Guarded regions and byte patterns.  */

struct fct_region
{
  unsigned char *base;		/* first usable byte (page aligned) */
  unsigned char *end;		/* the trailing guard page starts here */
};

static FCT_UNUSED void
fct_region_init (struct fct_region *r, size_t bytes)
{
  size_t page = (size_t) sysconf (_SC_PAGESIZE);
  size_t usable = (bytes + FCT_SHIFT_MAX + FCT_CANARY + 2 * FCT_ALIGNS
		   + page - 1)
		  / page * page;
  unsigned char *m = mmap (NULL, usable + 2 * page, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED || mprotect (m, page, PROT_NONE) != 0
      || mprotect (m + page + usable, page, PROT_NONE) != 0)
    {
      printf ("FAIL: mmap of a %zu byte guarded region\n", bytes);
      exit (1);
    }
  r->base = m + page;
  r->end = m + page + usable;
}

static FCT_UNUSED void
fct_region_protect (struct fct_region *r, int prot)
{
  if (mprotect (r->base, (size_t) (r->end - r->base), prot) != 0)
    {
      printf ("FAIL: mprotect\n");
      exit (1);
    }
}

/* The highest address P in R with P % 64 == ALIGN and P + N <= end.  */
static FCT_UNUSED unsigned char *
fct_place (const struct fct_region *r, size_t n, unsigned align)
{
  uintptr_t last = (uintptr_t) r->end - n;
  unsigned char *p = (unsigned char *) (last - ((last - align) & (FCT_ALIGNS - 1)));
  if (p - FCT_CANARY < r->base)
    {
      printf ("FAIL: harness: %zu bytes do not fit the region\n", n);
      exit (1);
    }
  return p;
}

/* The alignment at which an N-byte buffer ends exactly at a guard.  */
static FCT_UNUSED unsigned
fct_end_align (size_t n)
{
  return (unsigned) (-n & (FCT_ALIGNS - 1));
}

static FCT_UNUSED void
fct_fill_random (unsigned char *p, size_t n, unsigned long long seed)
{
  unsigned long long x = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
  for (size_t i = 0; i < n; i += 8)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      for (size_t k = 0; k < 8 && i + k < n; k++)
	p[i + k] = (unsigned char) (x >> (8 * k));
    }
}

/* Word-at-a-time loops for the bulk of the harness's own work (unaligned
   8-byte accesses are fine on x86-64).  */
typedef uint64_t __attribute__ ((may_alias, aligned (1))) fct_u64;

/* DST[i] = ~SRC[i] for i < N: a destination that differs from the source
   in every byte.  */
static FCT_UNUSED void
fct_fill_inverse (unsigned char *dst, const unsigned char *src, size_t n)
{
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    *(fct_u64 *) (dst + i) = ~*(const fct_u64 *) (src + i);
  for (; i < n; i++)
    dst[i] = (unsigned char) ~src[i];
}

static FCT_UNUSED void
fct_copy_bytes (unsigned char *dst, const unsigned char *src, size_t n)
{
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    *(fct_u64 *) (dst + i) = *(const fct_u64 *) (src + i);
  for (; i < n; i++)
    dst[i] = src[i];
}

static FCT_UNUSED void
fct_fill_byte (unsigned char *dst, unsigned char c, size_t n)
{
  uint64_t w = c * 0x0101010101010101ull;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    *(fct_u64 *) (dst + i) = w;
  for (; i < n; i++)
    dst[i] = c;
}

/* Index of the first byte where A and B differ, or N.  */
static FCT_UNUSED size_t
fct_mismatch (const unsigned char *a, const unsigned char *b, size_t n)
{
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    if (*(const fct_u64 *) (a + i) != *(const fct_u64 *) (b + i))
      break;
  for (; i < n; i++)
    if (a[i] != b[i])
      return i;
  return n;
}

/* Index of the first byte of A that is not C, or N.  */
static FCT_UNUSED size_t
fct_mismatch_byte (const unsigned char *a, unsigned char c, size_t n)
{
  uint64_t w = c * 0x0101010101010101ull;
  size_t i = 0;
  for (; i + 8 <= n; i += 8)
    if (*(const fct_u64 *) (a + i) != w)
      break;
  for (; i < n; i++)
    if (a[i] != c)
      return i;
  return n;
}

/* Canary bytes depend on the address and on a salt that changes every
   case, so a stray write of a stale or neighbouring value is still seen.  */
static unsigned fct_salt;

static inline unsigned char
fct_canary (const unsigned char *p, unsigned salt)
{
  uintptr_t a = (uintptr_t) p;
  return (unsigned char) ((a * 0x9du) ^ (a >> 8) ^ salt);
}

static FCT_UNUSED void
fct_canary_fill (unsigned char *lo, unsigned char *hi, unsigned salt)
{
  for (unsigned char *p = lo; p < hi; p++)
    *p = fct_canary (p, salt);
}

/* Nonzero (after reporting) if a canary in [LO, DST) or [DST + N, HI)
   changed.  */
static FCT_UNUSED int
fct_canary_check (unsigned char *lo, unsigned char *hi, unsigned salt,
		  unsigned char *dst, size_t n)
{
  for (unsigned char *p = lo; p < dst; p++)
    if (*p != fct_canary (p, salt))
      {
	fct_fail ("canary %td bytes before dst overwritten (0x%02x)",
		  dst - p, *p);
	return 1;
      }
  for (unsigned char *p = dst + n; p < hi; p++)
    if (*p != fct_canary (p, salt))
      {
	fct_fail ("canary %td bytes after dst+n overwritten (0x%02x)",
		  p - (dst + n), *p);
	return 1;
      }
  return 0;
}

/* ------------------------------------------------------------------------ */
/* Copy cases.  */

enum fct_ret
{
  FCT_RET_DST,			/* returns dst (memcpy, memmove) */
  FCT_RET_END,			/* returns dst + n (mempcpy) */
  FCT_RET_NONE			/* returns nothing worth checking */
};

typedef void *(*fct_copy_fn) (void *, const void *, size_t);
typedef void *(*fct_clear_fn) (void *, int, size_t);

struct fct_copy
{
  const char *name;
  fct_copy_fn fn;
  enum fct_ret ret;
};

struct fct_clear
{
  const char *name;
  fct_clear_fn fn;
  enum fct_ret ret;
  int zero_only;		/* bzero-like: the value argument is ignored */
};

static FCT_UNUSED void
fct_check_ret (enum fct_ret kind, void *got, unsigned char *dst, size_t n)
{
  void *want = kind == FCT_RET_END ? dst + n : dst;
  if (kind != FCT_RET_NONE && got != want)
    fct_fail ("returned dst%+td, expected dst%+td",
	      (unsigned char *) got - dst, (unsigned char *) want - dst);
}

/* Two regions, each large enough for the biggest size a test uses; the
   source is random and read-only.  */
struct fct_pair
{
  struct fct_region src, dst;
};

static FCT_UNUSED void
fct_pair_init (struct fct_pair *b, size_t max_n, unsigned long long seed)
{
  fct_region_init (&b->src, max_n);
  fct_region_init (&b->dst, max_n);
  fct_fill_random (b->src.base, (size_t) (b->src.end - b->src.base), seed);
  fct_region_protect (&b->src, PROT_READ);
}

/* Copy N bytes from source alignment SA to destination alignment DA, each
   buffer ending as close to its guard page as its alignment allows, the
   source SHIFT (a multiple of 64) bytes further from its guard; check the
   copy, the return value and the canaries.

   With both buffers at their guards, dst - src is always close to a
   multiple of 4096, which some implementations treat specially (4 KiB
   aliasing); the shift gives other page offsets.  */
static FCT_UNUSED void
fct_copy_case_shifted (const struct fct_copy *t, struct fct_pair *b,
		       size_t n, unsigned sa, unsigned da, size_t shift)
{
  const unsigned char *src = fct_place (&b->src, n + shift, sa);
  unsigned char *dst = fct_place (&b->dst, n, da);
  unsigned char *lo = dst - FCT_CANARY, *hi = b->dst.end;
  unsigned salt = ++fct_salt * 0x3bu;

  fct_case_fn = t->name;
  fct_case_n = n;
  fct_case_sa = sa;
  fct_case_da = da;
  fct_case_extra = shift;
  fct_case_kind = 1;

  fct_canary_fill (lo, dst, salt);
  fct_fill_inverse (dst, src, n);
  fct_canary_fill (dst + n, hi, salt);

  void *r = t->fn (dst, src, n);

  fct_check_ret (t->ret, r, dst, n);
  size_t i = fct_mismatch (dst, src, n);
  if (i < n)
    fct_fail ("dst[%zu] is 0x%02x, expected 0x%02x", i, dst[i], src[i]);
  fct_canary_check (lo, hi, salt, dst, n);
}

static FCT_UNUSED void
fct_copy_case (const struct fct_copy *t, struct fct_pair *b, size_t n,
	       unsigned sa, unsigned da)
{
  fct_copy_case_shifted (t, b, n, sa, da, 0);
}

/* Alignment pairs tried when not all 64x64 are: fixed ones, plus the
   pairs that put the source, the destination or both exactly at a guard,
   plus a few with the source moved off its guard.  */
static const unsigned char fct_sample_pairs[][2] = {
  { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 }, { 7, 9 }, { 15, 48 }, { 31, 33 },
  { 32, 0 }, { 0, 32 }, { 63, 63 }, { 63, 1 }, { 1, 63 }, { 8, 24 },
};
#define FCT_NSAMPLE_PAIRS (sizeof fct_sample_pairs / sizeof fct_sample_pairs[0])
static const unsigned short fct_sample_shifts[][3] = {
  /* sa, da, shift */
  { 0, 0, 2048 }, { 1, 0, 1024 }, { 5, 3, 3072 }, { 0, 17, 320 },
};
#define FCT_NSAMPLE_SHIFTS (sizeof fct_sample_shifts / sizeof fct_sample_shifts[0])

#define FCT_HUGE 65536	/* from here on, fewer alignment pairs */

static FCT_UNUSED void
fct_copy_sampled (const struct fct_copy *t, struct fct_pair *b, size_t n)
{
  unsigned e = fct_end_align (n);
  size_t npairs = n < FCT_HUGE ? FCT_NSAMPLE_PAIRS : 4;
  size_t nshifts = n < FCT_HUGE ? FCT_NSAMPLE_SHIFTS : 2;
  for (size_t k = 0; k < npairs; k++)
    fct_copy_case (t, b, n, fct_sample_pairs[k][0], fct_sample_pairs[k][1]);
  fct_copy_case (t, b, n, e, e);
  fct_copy_case (t, b, n, e, 0);
  fct_copy_case (t, b, n, 0, e);
  for (size_t k = 0; k < nshifts; k++)
    fct_copy_case_shifted (t, b, n, fct_sample_shifts[k][0],
			   fct_sample_shifts[k][1], fct_sample_shifts[k][2]);
}

/* Every size in [LO, HI]: all 64x64 alignment pairs when ALL, else the
   sample.  */
static FCT_UNUSED void
fct_copy_range (const struct fct_copy *t, struct fct_pair *b, size_t lo,
		size_t hi, int all)
{
  for (size_t n = lo; n <= hi; n++)
    {
      if (!all)
	{
	  fct_copy_sampled (t, b, n);
	  continue;
	}
      for (unsigned sa = 0; sa < FCT_ALIGNS; sa++)
	for (unsigned da = 0; da < FCT_ALIGNS; da++)
	  fct_copy_case (t, b, n, sa, da);
    }
}

static FCT_UNUSED void
fct_copy_list (const struct fct_copy *t, struct fct_pair *b,
	       const size_t *sizes, size_t count)
{
  for (size_t i = 0; i < count; i++)
    fct_copy_sampled (t, b, sizes[i]);
}

/* ------------------------------------------------------------------------ */
/* Overlapping copies (memmove semantics).  */

/* A window of N + DISTANCE bytes ending near R's guard at alignment ALIGN;
   copy N bytes from its start to DISTANCE further (BACKWARD: dst > src) or
   from DISTANCE further to its start.  Every byte of the window and the
   canaries around it are checked against a pristine copy in SCRATCH.  */
static FCT_UNUSED void
fct_overlap_case (const struct fct_copy *t, struct fct_region *r,
		  unsigned char *scratch, size_t n, size_t distance,
		  int backward, unsigned align)
{
  size_t w = n + distance;
  unsigned char *win = fct_place (r, w, align);
  unsigned char *lo = win - FCT_CANARY, *hi = r->end;
  unsigned salt = ++fct_salt * 0x3bu;
  size_t soff = backward ? 0 : distance, doff = backward ? distance : 0;

  fct_case_fn = t->name;
  fct_case_n = n;
  fct_case_extra = distance;
  fct_case_sa = (unsigned) backward;
  fct_case_da = align;
  fct_case_kind = 3;

  fct_fill_random (scratch, w, fct_salt);
  fct_canary_fill (lo, win, salt);
  fct_copy_bytes (win, scratch, w);
  fct_canary_fill (win + w, hi, salt);

  void *r_ = t->fn (win + doff, win + soff, n);

  fct_check_ret (t->ret, r_, win + doff, n);
  /* The window is SCRATCH with [doff, doff + n) replaced by the source
     bytes, SCRATCH[soff...]; compare the three parts.  */
  size_t bad = fct_mismatch (win, scratch, doff);
  if (bad == doff)
    {
      bad = fct_mismatch (win + doff, scratch + soff, n);
      bad = bad == n ? doff + n + fct_mismatch (win + doff + n,
						 scratch + doff + n,
						 w - doff - n)
		     : doff + bad;
    }
  if (bad < w)
    fct_fail ("window byte %zu (dst%+td) is 0x%02x, expected 0x%02x", bad,
	      (ptrdiff_t) bad - (ptrdiff_t) doff, win[bad],
	      bad >= doff && bad < doff + n ? scratch[bad - doff + soff]
	      : scratch[bad]);
  fct_canary_check (lo, hi, salt, win, w);
}

/* Distances and lengths of the overlap sweep: every distance up to 130
   and some larger ones, lengths on both sides of the 2 KiB thresholds.  */
static const size_t fct_overlap_far[] = {
  192, 255, 256, 257, 1000, 2048, 4095, 4096, 4097, 10000,
};
static const size_t fct_overlap_lengths[] = {
  1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 96, 127,
  128, 129, 200, 255, 256, 257, 511, 512, 513, 1000, 2047, 2048, 2049, 3000,
  4096, 4097, 8191, 10000, 20000,
};
#define FCT_ARRAY_SIZE(a) (sizeof (a) / sizeof (a)[0])
#define FCT_OVERLAP_MAX 30000	/* longest window of the overlap sweep */

/* The overlap sweep of T in both directions, plus distance 0: the first
   NLENGTHS lengths, every distance 1..MAXDIST, and the far distances when
   FAR.  */
static FCT_UNUSED void
fct_overlap_sweep (const struct fct_copy *t, struct fct_region *r,
		   unsigned char *scratch, size_t nlengths, size_t maxdist,
		   int far)
{
  if (nlengths > FCT_ARRAY_SIZE (fct_overlap_lengths))
    nlengths = FCT_ARRAY_SIZE (fct_overlap_lengths);
  for (size_t li = 0; li < nlengths; li++)
    {
      size_t n = fct_overlap_lengths[li];
      size_t ndist = maxdist + (far ? FCT_ARRAY_SIZE (fct_overlap_far) : 0);
      fct_overlap_case (t, r, scratch, n, 0, 0, (unsigned) (n * 5) & 63);
      for (size_t k = 0; k < ndist; k++)
	{
	  size_t dist = k < maxdist ? k + 1 : fct_overlap_far[k - maxdist];
	  for (int back = 0; back < 2; back++)
	    fct_overlap_case (t, r, scratch, n, dist, back,
			      (unsigned) (n * 13 + dist * 7 + (size_t) back * 32)
			      & 63);
	}
    }
}

/* ------------------------------------------------------------------------ */
/* Clear cases.  */

/* Values for memset: only the low byte of the int counts.  */
static const int fct_values[] = { 0, 0xff, 0x5a, 0x1234a5, 0x100, -2 };
#define FCT_NVALUES FCT_ARRAY_SIZE (fct_values)

static FCT_UNUSED void
fct_clear_case (const struct fct_clear *t, struct fct_region *r, size_t n,
		unsigned da, int c)
{
  unsigned char *dst = fct_place (r, n, da);
  unsigned char *lo = dst - FCT_CANARY, *hi = r->end;
  unsigned salt = ++fct_salt * 0x3bu;
  unsigned char want = (unsigned char) c;

  fct_case_fn = t->name;
  fct_case_n = n;
  fct_case_da = da;
  fct_case_extra = (size_t) (unsigned) c;
  fct_case_kind = 2;

  fct_canary_fill (lo, dst, salt);
  fct_fill_byte (dst, (unsigned char) ~want, n);
  fct_canary_fill (dst + n, hi, salt);

  void *ret = t->fn (dst, c, n);

  fct_check_ret (t->ret, ret, dst, n);
  size_t i = fct_mismatch_byte (dst, want, n);
  if (i < n)
    fct_fail ("dst[%zu] is 0x%02x, expected 0x%02x", i, dst[i], want);
  fct_canary_check (lo, hi, salt, dst, n);
}

/* How fct_clear_size covers alignments and values.  */
enum fct_clear_mode
{
  FCT_CLEAR_ALL,		/* every alignment with every value */
  FCT_CLEAR_ROTATE,		/* every alignment, one value each, rotating */
  FCT_CLEAR_SAMPLE		/* sampled alignments (one ends at the guard),
				   every value; from FCT_HUGE bytes on the
				   values take turns */
};

/* N bytes with the values of fct_values (only 0 when T ignores the
   value).  */
static FCT_UNUSED void
fct_clear_size (const struct fct_clear *t, struct fct_region *r, size_t n,
		enum fct_clear_mode mode)
{
  static const unsigned char sample[] = { 0, 1, 7, 15, 31, 32, 33, 63 };
  size_t nvalues = t->zero_only ? 1 : FCT_NVALUES;

  if (mode == FCT_CLEAR_ROTATE)
    {
      for (unsigned da = 0; da < FCT_ALIGNS; da++)
	fct_clear_case (t, r, n, da, fct_values[(n + da) % nvalues]);
      return;
    }
  if (mode == FCT_CLEAR_SAMPLE && n >= FCT_HUGE)
    {
      for (size_t k = 0; k < FCT_ARRAY_SIZE (sample); k++)
	fct_clear_case (t, r, n, sample[k], fct_values[k % nvalues]);
      fct_clear_case (t, r, n, fct_end_align (n), fct_values[n % nvalues]);
      return;
    }
  for (size_t v = 0; v < nvalues; v++)
    {
      int c = fct_values[v];
      if (mode == FCT_CLEAR_ALL)
	for (unsigned da = 0; da < FCT_ALIGNS; da++)
	  fct_clear_case (t, r, n, da, c);
      else
	{
	  for (size_t k = 0; k < FCT_ARRAY_SIZE (sample); k++)
	    fct_clear_case (t, r, n, sample[k], c);
	  fct_clear_case (t, r, n, fct_end_align (n), c);
	}
    }
}

/* Sizes above 1 KiB used by every sweep: around the 2 KiB thresholds,
   page sizes, 64 KiB and into the MiB range.  */
static const size_t fct_large_sizes[] = {
  1535, 1536, 1537, 2047, 2048, 2049, 3000, 4095, 4096, 4097, 8191, 8192,
  8193, 16384, 32769, 65535, 65536, 65537, 262143, 1048575, 1048576,
  1048577, 4194311,
};
#define FCT_LARGE_MAX 4194311

/* Sizes that reach the streaming-store paths whatever threshold the
   policy derives from the cache: just above half of the L3 cache
   libfastcopy saw, and just above all of it (8 MiB when it saw none;
   at most 48 MiB).  Returns how many, filling SIZES.  */
static FCT_UNUSED size_t
fct_cache_sizes (size_t sizes[2])
{
  size_t l3 = fastcopy_cpu ()->l3_size;
  if (l3 == 0)
    l3 = 8u << 20;
  if (l3 > (48u << 20))
    l3 = 48u << 20;
  sizes[0] = l3 / 2 + 65;
  sizes[1] = l3 + 4097;
  return 2;
}

#endif /* fctest.h */
