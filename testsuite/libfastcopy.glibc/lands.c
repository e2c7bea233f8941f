/* SPDX-License-Identifier: MIT */
/* Area: glibc
   Purpose: where the exported functions' calls land, with glibc=on
   (argument expect=glibc) and without it or where it must be ignored
   (expect=libfastcopy).  Three kinds of evidence:
   - the library's own answer: fastcopy_selected of every exported
     function names "glibc", and its function is glibc's own memmove or
     memset, as libc.so.6's handle resolves them (glibc's IFUNC choice);
     on x86-64 that memmove is also glibc's memcpy@GLIBC_2.14;
   - the code that runs: each exported function (through the built
     libfastcopy.so.1) copies from an unreadable page or clears one that
     cannot be written, and the faulting instruction must lie in
     libc.so.6 (or in libfastcopy.so.1);
   - the results: exported copies, overlapping memcpy included, and clears
     stay byte-exact, and the _chk forms copy when the size fits.
   fastcopy_set refuses glibc in every case.  */

#include "fctest.h"
#include <setjmp.h>
#include <ucontext.h>

typedef void *(*chk_copy_fn) (void *, const void *, size_t, size_t);
typedef void *(*chk_set_fn) (void *, int, size_t, size_t);
typedef void (*bzero_fn) (void *, size_t);
typedef void (*chk_bzero_fn) (void *, size_t, size_t);

/* The exported functions the wrappers below call.  */
static bzero_fn bzero_p;
static chk_copy_fn memcpy_chk_p;

static sigjmp_buf probe_jump;
static volatile uintptr_t probe_pc;

static void
probe_fault (int sig, siginfo_t *info, void *context)
{
  (void) sig;
  (void) info;
  const ucontext_t *uc = context;
#ifdef __x86_64__
  probe_pc = (uintptr_t) uc->uc_mcontext.gregs[REG_RIP];
#else
  probe_pc = (uintptr_t) uc->uc_mcontext.gregs[REG_EIP];
#endif
  siglongjmp (probe_jump, 1);
}

/* The calls probed: each faults on the PROT_NONE page BAD at once.  */
enum probe_kind { COPY, PCOPY, CHK_COPY, SET, BZERO, CHK_SET, CHK_BZERO };
struct probe
{
  const char *name, *version;
  enum probe_kind kind;
};

static void
probe_call (const struct probe *p, void *fn, unsigned char *ok,
	    unsigned char *bad)
{
  switch (p->kind)
    {
    case COPY:
    case PCOPY:
      ((fct_copy_fn) fn) (ok, bad, 256);
      break;
    case CHK_COPY:
      ((chk_copy_fn) fn) (ok, bad, 256, 256);
      break;
    case SET:
      ((fct_clear_fn) fn) (bad, 0x5a, 256);
      break;
    case BZERO:
      ((bzero_fn) fn) (bad, 256);
      break;
    case CHK_SET:
      ((chk_set_fn) fn) (bad, 0x5a, 256, 256);
      break;
    case CHK_BZERO:
      ((chk_bzero_fn) fn) (bad, 256, 256);
      break;
    }
}

/* The file the faulting instruction of P's call to FN lies in, into
   WHERE.  */
static int
probe_where (const struct probe *p, void *fn, unsigned char *ok,
	     unsigned char *bad, Dl_info *where)
{
  static struct sigaction sa;	/* zeroed without a call to memset */
  struct sigaction old;
  sa.sa_sigaction = probe_fault;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaction (SIGSEGV, &sa, &old);
  probe_pc = 0;
  if (sigsetjmp (probe_jump, 1) == 0)
    probe_call (p, fn, ok, bad);
  sigaction (SIGSEGV, &old, NULL);
  return probe_pc != 0 && dladdr ((void *) probe_pc, where) != 0;
}

static void
check_selected (int glibc, void *libc_memmove, void *libc_memset)
{
  const char *const *names = fastcopy_functions ();
  fct_begin ("fastcopy_selected: every exported function %s",
	     glibc ? "is glibc's memmove or memset"
	     : "is one of libfastcopy's implementations");
  for (size_t i = 0; names != NULL && names[i] != NULL; i++)
    {
      const struct fastcopy_choice *c = fastcopy_selected (names[i]);
      int copy = c->family == FASTCOPY_FAMILY_COPY;
      void *fn = copy ? (void *) c->impl->copy : (void *) c->impl->clear;
      if (glibc && (strcmp (c->impl->name, "glibc") != 0
		    || fn != (copy ? libc_memmove : libc_memset)))
	fct_fail ("%s: implementation %s at %p, expected glibc at %p",
		  names[i], c->impl->name, fn,
		  copy ? libc_memmove : libc_memset);
      if (!glibc && (strcmp (c->impl->name, "glibc") == 0
		     || !fct_in_library (fn)))
	fct_fail ("%s: implementation %s at %p, not libfastcopy's",
		  names[i], c->impl->name, fn);
    }
  fct_end ();
}

static void
check_landing (int glibc, void *libc_memmove)
{
  static const struct probe probes[] = {
    { "memcpy", NULL, COPY },
#ifdef __x86_64__		/* i386 has one memcpy, GLIBC_2.0 */
    { "memcpy", "GLIBC_2.2.5", COPY },
#endif
    { "memmove", NULL, COPY }, { "mempcpy", NULL, PCOPY },
    { "__mempcpy", NULL, PCOPY }, { "__memcpy_chk", NULL, CHK_COPY },
    { "__memmove_chk", NULL, CHK_COPY }, { "__mempcpy_chk", NULL, CHK_COPY },
    { "memset", NULL, SET }, { "bzero", NULL, BZERO },
    { "explicit_bzero", NULL, BZERO }, { "__memset_chk", NULL, CHK_SET },
    { "__explicit_bzero_chk", NULL, CHK_BZERO },
  };
  Dl_info libc;
  long page = sysconf (_SC_PAGESIZE);
  unsigned char *area = mmap (NULL, 2 * (size_t) page, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (fct_expect (area != MAP_FAILED && dladdr (libc_memmove, &libc) != 0,
		  "probe: a page and libc.so.6's file"))
    return;
  unsigned char *ok = area, *bad = area + page;
  mprotect (bad, (size_t) page, PROT_NONE);
  for (size_t i = 0; i < FCT_ARRAY_SIZE (probes); i++)
    {
      const struct probe *p = &probes[i];
      void *fn = fct_symbol (p->name, p->version);
      Dl_info where;
      fct_begin ("%s%s%s: the faulting instruction lies in %s", p->name,
		 p->version ? "@" : "", p->version ? p->version : "",
		 glibc ? libc.dli_fname : "libfastcopy.so.1");
      if (!probe_where (p, fn, ok, bad, &where))
	fct_fail ("no fault, or its address is in no object");
      else if (glibc ? where.dli_fbase != libc.dli_fbase
	       : !fct_in_library ((void *) probe_pc))
	fct_fail ("it lies in %s (%s)", where.dli_fname,
		  where.dli_sname ? where.dli_sname : "?");
      fct_end ();
    }
  munmap (area, 2 * (size_t) page);
}

static void *
call_bzero (void *dst, int c, size_t n)
{
  (void) c;
  bzero_p (dst, n);
  return dst;
}

static void *
call_memcpy_chk (void *dst, const void *src, size_t n)
{
  return memcpy_chk_p (dst, src, n, n);
}

static void
check_results (void)
{
  struct fct_region r;
  struct fct_pair b;
  unsigned char *scratch = malloc (FCT_OVERLAP_MAX);
  if (fct_expect (scratch != NULL, "results: memory"))
    return;
  fct_region_init (&r, FCT_OVERLAP_MAX);
  fct_pair_init (&b, 4096, 3);
  bzero_p = (bzero_fn) fct_symbol ("bzero", NULL);
  memcpy_chk_p = (chk_copy_fn) fct_symbol ("__memcpy_chk", NULL);
  const struct fct_copy copies[] = {
    { "memcpy", (fct_copy_fn) fct_symbol ("memcpy", NULL), FCT_RET_DST },
    { "memmove", (fct_copy_fn) fct_symbol ("memmove", NULL), FCT_RET_DST },
    { "mempcpy", (fct_copy_fn) fct_symbol ("mempcpy", NULL), FCT_RET_END },
    { "__memcpy_chk", call_memcpy_chk, FCT_RET_DST },
  };
  for (size_t i = 0; i < FCT_ARRAY_SIZE (copies); i++)
    {
      fct_begin ("%s: sizes 0..300 and 2040..2056, sampled alignments",
		 copies[i].name);
      fct_copy_range (&copies[i], &b, 0, 300, 0);
      fct_copy_range (&copies[i], &b, 2040, 2056, 0);
      fct_end ();
      fct_begin ("%s: overlapping copies, distances 0..130 and far, both "
		 "directions", copies[i].name);
      fct_overlap_sweep (&copies[i], &r, scratch, (size_t) -1, 130, 1);
      fct_end ();
    }
  const struct fct_clear clears[] = {
    { "memset", (fct_clear_fn) fct_symbol ("memset", NULL), FCT_RET_DST, 0 },
    { "bzero", call_bzero, FCT_RET_NONE, 1 },
  };
  for (size_t i = 0; i < FCT_ARRAY_SIZE (clears); i++)
    {
      fct_begin ("%s: sizes 0..300, sampled alignments", clears[i].name);
      for (size_t n = 0; n <= 300; n++)
	fct_clear_size (&clears[i], &r, n, FCT_CLEAR_SAMPLE);
      fct_end ();
    }
  free (scratch);
}

int
main (int argc, char **argv)
{
  fct_init ();
  int glibc = argc == 2 && strcmp (argv[1], "expect=glibc") == 0;
  if (!glibc && (argc != 2 || strcmp (argv[1], "expect=libfastcopy") != 0))
    {
      printf ("FAIL: usage: lands expect=glibc|expect=libfastcopy\n");
      return 2;
    }

  void *libc = dlopen ("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  void *libc_memmove = libc ? dlsym (libc, "memmove") : NULL;
  void *libc_memset = libc ? dlsym (libc, "memset") : NULL;
  if (fct_expect (libc_memmove != NULL && libc_memset != NULL
		  && !fct_in_library (libc_memmove),
		  "libc.so.6's own memmove and memset"))
    return fct_finish ();
#ifdef __x86_64__
  fct_expect (dlvsym (libc, "memcpy", "GLIBC_2.14") == libc_memmove,
	      "glibc's memcpy@GLIBC_2.14 is its memmove");
#endif

  check_selected (glibc, libc_memmove, libc_memset);
  check_landing (glibc, libc_memmove);
  check_results ();

  const struct fastcopy_setting *s = fastcopy_setting_find ("glibc");
  fct_expect (s != NULL && s->number == (unsigned long long) glibc,
	      "the glibc setting reads %s", glibc ? "on" : "off");
  int refused = fastcopy_set ("glibc=on", NULL, NULL);
  s = fastcopy_setting_find ("glibc");
  fct_expect (refused == 1 && s != NULL
	      && s->number == (unsigned long long) glibc,
	      "fastcopy_set refuses glibc: it is bound at load");
  return fct_finish ();
}
