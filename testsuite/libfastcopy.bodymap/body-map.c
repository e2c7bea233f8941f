/* SPDX-License-Identifier: MIT */
/* Area: bodymap
   Purpose: the size-register contract (doc/size-registers.md), checked
   one instruction at a time.  The body map is read from the library's
   file as a sampler reads it (common/body-map-read.c).  A forked
   child calls every implementation this CPU can run, and the exported
   entry points, over sizes chosen to take every path; before each call
   it announces the size and the implementation in a shared page and
   stops at an int3.  The parent then single-steps the call under
   ptrace: every instruction inside libfastcopy must lie in a range of
   the implementation called (or of the family's exported entry points,
   for an exported function), and the range's size expression, evaluated
   on the registers and the stack, must give the announced size.  Each
   implementation must have visited the paths written below by hand.

   Arguments: --exported, only the exported functions (for runs with
   another implementation selected), not every implementation; --map
   PATH, the body map read from PATH (a stripped copy of the library)
   rather than from the library's own file.  */

#define _GNU_SOURCE 1
#include "fctest.h"
#include "body-map-read.h"
#include "expected-paths.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>

#define MAX_CASES 64		/* implementations and exported functions */
#define NSTACK 32		/* stack words read for FC_BODY_STACK_WORD */
#define BUF_SIZE (256 * 1024)

/* What the child is calling, written before its int3.  */
struct announce
{
  volatile int active;		/* 1 from the int3 to the call's return */
  volatile int which;		/* the index into cases[] */
  volatile uint64_t size;
};

/* One function under test: an implementation called directly, or an
   exported function with the implementation the library selected.  */
struct fc_case
{
  const char *label;		/* "copy avx2", "memcpy" */
  char impl[8];			/* the implementation whose ranges it runs */
  int family;
  int exported;			/* entry ranges of the family allowed too */
  int chk, bzero_like;		/* _chk form; bzero's arguments */
  size_t dense;			/* every size up to this one */
  int streams;			/* has a streaming path (FASTCOPY_TRAIT_NT) */
  void *fn;
  const char *expect_paths;	/* hand-written: the paths it must visit */
  /* Results.  */
  unsigned long steps, bad_range, bad_size;
  unsigned visited;		/* 1 << FC_BODY_PATH_*, and 1 << 6: an
				   entry range */
};

static struct fc_case cases[MAX_CASES];
static int ncases;
static struct announce *ann;

#define ENTRY_RANGES (1u << FC_BODY_PATH_COUNT)

/* ------------------------------------------------------------------------ */
/* The child: the calls.  */

static unsigned char *buf;

static void __attribute__ ((noinline))
call (int which, unsigned char *dst, const unsigned char *src, size_t n)
{
  const struct fc_case *c = &cases[which];
  ann->which = which;
  ann->size = n;
  __atomic_store_n (&ann->active, 1, __ATOMIC_SEQ_CST);
  __asm__ volatile ("int3" ::: "memory");
  if (c->family == 0 && c->chk)
    ((void *(*) (void *, const void *, size_t, size_t)) c->fn) (dst, src, n,
								 n);
  else if (c->family == 0)
    ((fct_copy_fn) c->fn) (dst, src, n);
  else if (c->chk)
    ((void *(*) (void *, int, size_t, size_t)) c->fn) (dst, 0x5a, n, n);
  else if (c->bzero_like)
    ((void (*) (void *, size_t)) c->fn) (dst, n);
  else
    ((fct_clear_fn) c->fn) (dst, 0x5a, n);
  __atomic_store_n (&ann->active, 0, __ATOMIC_SEQ_CST);
}

/* A disjoint call of N bytes (dst - src = 64 KiB + 3: no 4 KiB alias),
   and overlapping ones with dst DIST bytes above or below src.  */
static void
disjoint (int which, size_t n)
{
  call (which, buf + 128 * 1024 + 3, buf + 64 * 1024, n);
}

static void
overlap (int which, size_t n, size_t dist)
{
  unsigned char *src = buf + 64 * 1024 + 5;
  call (which, src + dist, src, n);
  if (cases[which].family == 0)
    call (which, src - dist, src, n);
}

static void
settings (const char *items)
{
  if (fastcopy_set (items, NULL, NULL) != 0)
    {
      printf ("FAIL: fastcopy_set (\"%s\")\n", items);
      exit (1);
    }
}

/* The sizes: every one up to the case's dense limit (600 for the
   vector variants: the classes of every vector width end at 8 VEC),
   the ends of those classes beyond it, the loops, REP and streaming with
   their thresholds moved down, and overlap both ways.  REP and streaming
   sizes stay small: under single-step a REP instruction stops after each
   byte, so the variants without a streaming path (REP MOVSB for every
   size, or a register loop) skip the largest.  */
static void
child_calls (int which)
{
  static const size_t class_ends[] = { 127, 128, 129, 255, 256, 257, 511,
				       512, 513, 600 };
  static const size_t loop_sizes[] = { 700, 1000, 1031, 2047, 4097 };
  static const size_t overlap_sizes[] = { 20, 100, 300, 600, 1000, 2500 };
  settings ("rep_movsb_threshold=never,copy_nt_threshold=never,"
	    "rep_stosb_threshold=never,clear_nt_threshold=never");
  for (size_t n = 0; n <= cases[which].dense; n++)
    disjoint (which, n);
  for (size_t i = 0; i < sizeof class_ends / sizeof class_ends[0]; i++)
    if (class_ends[i] > cases[which].dense)
      disjoint (which, class_ends[i]);
  for (size_t i = 0; i < sizeof loop_sizes / sizeof loop_sizes[0]; i++)
    disjoint (which, loop_sizes[i]);
  for (size_t i = 0; i < sizeof overlap_sizes / sizeof overlap_sizes[0]; i++)
    {
      size_t n = overlap_sizes[i];
      if (n > 300 && !cases[which].streams)
	break;
      overlap (which, n, 1);
      overlap (which, n, 33);
      overlap (which, n, n / 2);
    }

  /* REP from 1000 bytes, with the 4 KiB aliasing guard on: a distance
     of 17 takes the loop, one of 5 REP MOVSB without the aligning
     store; and alias_backward: below 1000 bytes, a distance of 1000
     takes the loop backward.  */
  settings ("rep_movsb_threshold=1000,rep_stosb_threshold=1000,"
	    "alias_guard=on,alias_backward=on");
  disjoint (which, 1000);
  disjoint (which, 1537);
  call (which, buf + 64 * 1024 + 4 * 4096 + 17, buf + 64 * 1024, 1100);
  call (which, buf + 64 * 1024 + 4 * 4096 + 1000, buf + 64 * 1024, 900);
  overlap (which, 1200, 5);

  /* Streaming from 4 KiB: one pass, and 20000 bytes, two pairs of pages
     for the variants that pair them; overlapping buffers take the
     loop.  */
  if (!cases[which].streams)
    return;
  settings ("rep_movsb_threshold=never,rep_stosb_threshold=never,"
	    "copy_nt_threshold=4096,clear_nt_threshold=4096");
  disjoint (which, 4096);
  disjoint (which, 5000);
  disjoint (which, 20000);
  overlap (which, 5000, 100);
}

static void
child (void)
{
  if (ptrace (PTRACE_TRACEME, 0, NULL, NULL) != 0)
    _exit (3);
  raise (SIGSTOP);
  for (int i = 0; i < ncases; i++)
    child_calls (i);
  _exit (0);
}

/* ------------------------------------------------------------------------ */
/* The parent: the single steps.  */

static struct fc_body_map map;
static uintptr_t load_bias, text_lo, text_hi;

static int
find_text (struct dl_phdr_info *info, size_t size, void *arg)
{
  (void) size;
  (void) arg;
  if (strstr (info->dlpi_name, "libfastcopy.so") == NULL)
    return 0;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X))
	{
	  load_bias = info->dlpi_addr;
	  text_lo = info->dlpi_addr + ph->p_vaddr;
	  text_hi = text_lo + ph->p_memsz;
	  return 1;
	}
    }
  return 0;
}

/* The registers by perf_event number, and the stack pointer.  */
static int
read_regs (pid_t pid, uint64_t *regs, uintptr_t *ip, uintptr_t *sp)
{
  struct user_regs_struct r;
  if (ptrace (PTRACE_GETREGS, pid, NULL, &r) != 0)
    return -1;
  memset (regs, 0, 24 * sizeof *regs);
#ifdef __x86_64__
  const unsigned long long v[] = { r.rax, r.rbx, r.rcx, r.rdx, r.rsi, r.rdi,
				   r.rbp, r.rsp, r.rip };
  const unsigned long long hi[] = { r.r8, r.r9, r.r10, r.r11, r.r12, r.r13,
				    r.r14, r.r15 };
  for (int i = 0; i < 8; i++)
    regs[16 + i] = hi[i];
  *ip = r.rip;
  *sp = r.rsp;
#else
  const unsigned long v[] = { r.eax, r.ebx, r.ecx, r.edx, r.esi, r.edi,
			      r.ebp, r.esp, r.eip };
  *ip = r.eip;
  *sp = r.esp;
#endif
  for (int i = 0; i < 9; i++)
    regs[i] = v[i];
  return 0;
}

static size_t
read_stack (pid_t pid, uintptr_t sp, uint64_t *stack)
{
  uintptr_t words[NSTACK];
  struct iovec local = { words, sizeof words };
  struct iovec remote = { (void *) sp, sizeof words };
  ssize_t got = process_vm_readv (pid, &local, 1, &remote, 1, 0);
  size_t n = got > 0 ? (size_t) got / sizeof words[0] : 0;
  for (size_t i = 0; i < n; i++)
    stack[i] = words[i];
  return n;
}

static int
has_stack_terms (const struct fc_body_range *rec)
{
  for (int i = 0; i < FC_BODY_TERMS; i++)
    if (rec->term[i].scale != 0 && rec->term[i].reg >= FC_BODY_STACK_WORD)
      return 1;
  return 0;
}

/* Check the instruction the child stopped at, in case C.  */
static void
check_step (pid_t pid, struct fc_case *c, uint64_t want)
{
  uint64_t regs[24], stack[NSTACK], size;
  uintptr_t ip, sp;
  size_t nstack = 0;
  if (read_regs (pid, regs, &ip, &sp) != 0 || ip < text_lo || ip >= text_hi)
    return;
  c->steps++;
  uint64_t vaddr = ip - load_bias;
  const struct fc_body_span *s = fc_body_map_find (&map, vaddr);
  int entry = s != NULL && s->rec.impl[0] == 0 && c->exported;
  if (s == NULL || s->rec.family != c->family
      || (!entry && strncmp (s->rec.impl, c->impl, sizeof c->impl) != 0))
    {
      if (c->bad_range++ < FCT_MAX_DETAILS)
	printf ("  detail: %s n=%llu: %#llx is %s%.8s\n", c->label,
		(unsigned long long) want, (unsigned long long) vaddr,
		s == NULL ? "in no range" : "in a range of ",
		s == NULL ? "" : s->rec.impl[0] ? s->rec.impl : "the entries");
      return;
    }
  c->visited |= entry ? ENTRY_RANGES : 1u << s->rec.path;
  if (has_stack_terms (&s->rec))
    nstack = read_stack (pid, sp, stack);
  if (fc_body_size (&map, &s->rec, regs, stack, nstack, &size) != 0
      || size != want)
    {
      if (c->bad_size++ < FCT_MAX_DETAILS)
	printf ("  detail: %s n=%llu: at %#llx (path %c) the range gives "
		"%llu\n", c->label, (unsigned long long) want,
		(unsigned long long) vaddr, path_letter[s->rec.path],
		(unsigned long long) size);
    }
}

/* Run the child to its end, single-stepping its calls.  0, or -1 when
   it did not end well.  */
static int
trace (pid_t pid)
{
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFSTOPPED (status))
    return -1;
  for (;;)
    {
      if (ptrace (PTRACE_CONT, pid, NULL, NULL) != 0
	  || waitpid (pid, &status, 0) != pid)
	return -1;
      if (WIFEXITED (status))
	return WEXITSTATUS (status) == 0 ? 0 : -1;
      if (!WIFSTOPPED (status) || WSTOPSIG (status) != SIGTRAP)
	{
	  printf ("  detail: the child stopped %s\n",
		  WIFSTOPPED (status) ? strsignal (WSTOPSIG (status))
				      : "for another reason");
	  kill (pid, SIGKILL);
	  waitpid (pid, &status, 0);
	  return -1;
	}
      struct fc_case *c = &cases[ann->which];
      uint64_t want = ann->size;
      while (ann->active)
	{
	  if (ptrace (PTRACE_SINGLESTEP, pid, NULL, NULL) != 0
	      || waitpid (pid, &status, 0) != pid || !WIFSTOPPED (status))
	    return -1;
	  check_step (pid, c, want);
	}
    }
}

/* ------------------------------------------------------------------------ */

static void
add_case (const char *label, const char *impl, int family, void *fn,
	  int exported, int streams, size_t dense)
{
  struct fc_case *c = &cases[ncases++];
  c->label = label;
  snprintf (c->impl, sizeof c->impl, "%s", impl);
  c->family = family;
  c->fn = fn;
  c->exported = exported;
  c->dense = dense;
  c->streams = streams;
  c->chk = strstr (label, "_chk") != NULL;
  c->bzero_like = strstr (label, "bzero") != NULL;
  c->expect_paths = exported ? NULL : expected_paths (family, impl);
}

static void
add_exported (const char *name, int family)
{
  const struct fastcopy_choice *choice = fastcopy_selected (name);
  if (choice == NULL)
    {
      printf ("FAIL: fastcopy_selected (\"%s\")\n", name);
      exit (1);
    }
  add_case (name, choice->impl->name, family, fct_symbol (name, NULL), 1,
	    (choice->impl->traits & FASTCOPY_TRAIT_NT) != 0, 64);
}

static void
report (void)
{
  for (int i = 0; i < ncases; i++)
    {
      struct fc_case *c = &cases[i];
      fct_expect (c->bad_range == 0,
		  "%s: every instruction in a range of %s%s", c->label,
		  c->impl, c->exported ? " or of the entry points" : "");
      fct_expect (c->bad_size == 0 && c->bad_range == 0,
		  "%s: every range gives the size", c->label);
      fct_begin ("%s: paths visited", c->label);
      char seen[8] = "", *p = seen;
      for (int k = 0; k < FC_BODY_PATH_COUNT; k++)
	if (c->visited & (1u << k))
	  *p++ = path_letter[k];
      *p = 0;
      if (c->steps == 0)
	fct_fail ("no instruction of the library was stepped");
      if (c->exported && !(c->visited & ENTRY_RANGES))
	fct_fail ("no entry point range visited");
      if (!c->exported && c->expect_paths == NULL)
	fct_fail ("no paths written down for %s", c->impl);
      else if (!c->exported && strcmp (seen, c->expect_paths) != 0)
	fct_fail ("visited \"%s\", expected \"%s\"", seen, c->expect_paths);
      printf ("NOTE: %s: %lu instructions checked, paths %s\n", c->label,
	      c->steps, seen);
      fct_end ();
    }
}

int
main (int argc, char **argv)
{
  fct_init ();
  int exported_only = 0;
  const char *map_path = NULL;
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--exported") == 0)
      exported_only = 1;
    else if (strcmp (argv[i], "--map") == 0 && i + 1 < argc)
      map_path = argv[++i];
    else
      {
	printf ("FAIL: usage: body-map [--exported] [--map PATH]\n");
	return 1;
      }
  char err[512];
  Dl_info info;
  if (dladdr ((void *) fastcopy_impl_at, &info) == 0
      || dl_iterate_phdr (find_text, NULL) == 0)
    {
      printf ("FAIL: libfastcopy's file and text\n");
      return 1;
    }
  if (map_path == NULL)
    map_path = info.dli_fname;
  int rc = fc_body_map_load (map_path, &map, err, sizeof err);
  if (fct_expect (rc == 0, "the body map is read%s%s", rc != 0 ? ": " : "",
		  rc == 1 ? "none" : rc < 0 ? err : ""))
    return fct_finish ();
  printf ("NOTE: %zu ranges\n", map.count);

  if (!exported_only)
    for (size_t i = 0; i < fastcopy_impl_count (); i++)
      {
	const struct fastcopy_impl *impl = fastcopy_impl_at (i);
	if (impl->traits & FASTCOPY_TRAIT_PROFILE)
	  continue;
	static char labels[MAX_CASES][32];
	snprintf (labels[ncases], sizeof labels[0], "%s %s",
		  impl->family == FASTCOPY_FAMILY_COPY ? "copy" : "clear",
		  impl->name);
	if (!fastcopy_impl_usable (impl))
	  fct_unsupported ("%s: this CPU cannot run it", labels[ncases]);
	else
	  add_case (labels[ncases], impl->name, impl->family,
		    impl->family == FASTCOPY_FAMILY_COPY
		    ? (void *) impl->copy : (void *) impl->clear, 0,
		    (impl->traits & FASTCOPY_TRAIT_NT) != 0,
		    impl->traits & FASTCOPY_TRAIT_NT ? 600 : 100);
      }
  add_exported ("memcpy", 0);
  add_exported ("memmove", 0);
  add_exported ("__memcpy_chk", 0);
  add_exported ("__memmove_chk", 0);
  add_exported ("memset", 1);
  add_exported ("__memset_chk", 1);

  buf = mmap (NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
	      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ann = mmap (NULL, sizeof *ann, PROT_READ | PROT_WRITE,
	      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (buf == MAP_FAILED || ann == MAP_FAILED)
    {
      printf ("FAIL: mmap\n");
      return 1;
    }
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0)
    child ();
  if (fct_expect (pid > 0 && trace (pid) == 0,
		  "the traced child ran every call and exited with 0"))
    return fct_finish ();
  report ();
  fc_body_map_free (&map);
  return fct_finish ();
}
