/* SPDX-License-Identifier: MIT */
/* Area: census
   Purpose: the census (src/calls/census.h), with this program as its own
   sampler.  It finds struct fc_census as fastcopy-sample does -- the
   library's load bias from dl_iterate_phdr, section FC_CENSUS_SECTION
   from the library file's section headers -- and writes it in the
   sampler's order: saved = entry, the deadline, then FC_ENTRY_CENSUS to
   the entry bytes; saved back to close.  Then:
   - the entry bytes the library chose are its own answer: the slot under
     glibc=on and for an implementation without FASTCOPY_TRAIT_ENTRY, else
     a byte below the number of such implementations of the family (each
     run prints "entry byte: FAMILY IMPL BYTE" for census.exp, which
     checks that no two implementations share one);
   - with no window open, no call is counted;
   - in a window, a known pattern of calls of every exported function
     gives exactly the counts the list of calls below says, and every
     result is right; closing puts the entry bytes back and counting
     stops;
   - a window nobody closes closes itself within FC_CENSUS_CHECK_EVERY
     calls once past its deadline, also in a child forked inside it,
     whose counts are its own;
   - threads in a window copy right, and their counts are at most their
     calls;
   - under glibc=on (fastcopy_selected names glibc) nothing is counted:
     the calls are glibc's, and a window closes at its first call.
   The expected counts come from the list of calls alone; the library's
   headers give the layout, and fc_size_bucket only the index of a size's
   bucket.  */

#include "fctest.h"
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sys/wait.h>
#include <time.h>
#include "calls/census.h"

#define ELF_CLASS (sizeof (void *) == 8 ? ELFCLASS64 : ELFCLASS32)
#define NTALLY (sizeof (struct fc_counts) / sizeof (struct fc_tally))
#define FAMILIES FASTCOPY_FAMILY_COUNT
#define COPY FASTCOPY_FAMILY_COPY
#define CLEAR FASTCOPY_FAMILY_CLEAR
/* Calls enough to reach a lane's look at the clock from any state.  */
#define LATE_CALLS (2 * FC_CENSUS_CHECK_EVERY + 1)

/* ------------------------------------------------------------------------ */
/* The exported functions, and how each is called.  */

enum shape
{
  S_COPY,			/* (dst, src, n), returns dst */
  S_PCOPY,			/* (dst, src, n), returns dst + n */
  S_CHK_COPY,			/* (dst, src, n, size), returns dst */
  S_CHK_PCOPY,			/* (dst, src, n, size), returns dst + n */
  S_SET,			/* (dst, c, n), returns dst */
  S_CHK_SET,			/* (dst, c, n, size), returns dst */
  S_BZERO,			/* (dst, n) */
  S_CHK_BZERO			/* (dst, n, size) */
};

enum fn
{
  F_MEMCPY, F_MEMMOVE, F_MEMPCPY, F___MEMPCPY, F_MEMCPY_CHK, F_MEMMOVE_CHK,
  F_MEMPCPY_CHK, F_MEMCPY_OLD, F_MEMSET, F_BZERO, F_EXPLICIT_BZERO,
  F_MEMSET_CHK, F_EXPLICIT_BZERO_CHK, F_COUNT
};

static const struct
{
  const char *name, *version;
  int family;
  enum shape shape;
} fns[F_COUNT] = {
  [F_MEMCPY] = { "memcpy", NULL, COPY, S_COPY },
  [F_MEMMOVE] = { "memmove", NULL, COPY, S_COPY },
  [F_MEMPCPY] = { "mempcpy", NULL, COPY, S_PCOPY },
  [F___MEMPCPY] = { "__mempcpy", NULL, COPY, S_PCOPY },
  [F_MEMCPY_CHK] = { "__memcpy_chk", NULL, COPY, S_CHK_COPY },
  [F_MEMMOVE_CHK] = { "__memmove_chk", NULL, COPY, S_CHK_COPY },
  [F_MEMPCPY_CHK] = { "__mempcpy_chk", NULL, COPY, S_CHK_PCOPY },
  /* i386 has one memcpy, GLIBC_2.0.  */
  [F_MEMCPY_OLD] = { "memcpy", "GLIBC_2.2.5", COPY, S_COPY },
  [F_MEMSET] = { "memset", NULL, CLEAR, S_SET },
  [F_BZERO] = { "bzero", NULL, CLEAR, S_BZERO },
  [F_EXPLICIT_BZERO] = { "explicit_bzero", NULL, CLEAR, S_BZERO },
  [F_MEMSET_CHK] = { "__memset_chk", NULL, CLEAR, S_CHK_SET },
  [F_EXPLICIT_BZERO_CHK] = { "__explicit_bzero_chk", NULL, CLEAR,
			     S_CHK_BZERO },
};

#ifdef __x86_64__
# define HAVE_OLD_MEMCPY 1
#else
# define HAVE_OLD_MEMCPY 0
#endif

static void *fn_at[F_COUNT];

typedef void *(*copy3_fn) (void *, const void *, size_t);
typedef void *(*copy4_fn) (void *, const void *, size_t, size_t);
typedef void *(*set3_fn) (void *, int, size_t);
typedef void *(*set4_fn) (void *, int, size_t, size_t);
typedef void (*bzero2_fn) (void *, size_t);
typedef void (*bzero3_fn) (void *, size_t, size_t);

/* Call F; returns what it returned (DST for the bzero forms).  */
static void *
call_fn (enum fn f, unsigned char *dst, const unsigned char *src, int c,
	 size_t n)
{
  void *p = fn_at[f];
  switch (fns[f].shape)
    {
    case S_COPY:
    case S_PCOPY:
      return ((copy3_fn) p) (dst, src, n);
    case S_CHK_COPY:
    case S_CHK_PCOPY:
      return ((copy4_fn) p) (dst, src, n, n + 1);
    case S_SET:
      return ((set3_fn) p) (dst, c, n);
    case S_CHK_SET:
      return ((set4_fn) p) (dst, c, n, n);
    case S_BZERO:
      ((bzero2_fn) p) (dst, n);
      return dst;
    case S_CHK_BZERO:
      ((bzero3_fn) p) (dst, n, n + 3);
      return dst;
    }
  return NULL;
}

/* ------------------------------------------------------------------------ */
/* The calls, and what they must add to the counts.  */

/* Page-aligned buffers in mappings of their own: a source, a destination
   and a window that overlapping copies use for both.  */
enum { BUF_A, BUF_B, BUF_W, NBUFS };
#define BUF_SIZE (1u << 20)
static unsigned char *buf[NBUFS];
static unsigned char *scratch;	/* the window's bytes before a copy */

/* A call, TIMES over: F on N bytes at BUF[DBUF] + DOFF, from BUF[SBUF] +
   SOFF (copies) or with VALUE (memset).  WRAPPER and OVERLAP are what
   the census must count it as, written by hand: the wrapper (mempcpy and
   explicit_bzero with their other forms) and the copy's overlap class
   (forward: dst below src).  */
struct call
{
  enum fn f;
  size_t n;
  int dbuf;
  size_t doff;
  int sbuf;
  size_t soff;
  int value;
  int times;
  int wrapper;
  int overlap;
};

#define NONE FC_OVERLAP_NONE
#define FWD FC_OVERLAP_FORWARD
#define BACK FC_OVERLAP_BACKWARD

/* Every exported function once, for the times no window is open.  */
static const struct call each_once[] = {
  { F_MEMCPY, 40, BUF_B, 0, BUF_A, 0, 0, 1, 0, NONE },
  { F_MEMMOVE, 41, BUF_B, 1, BUF_A, 2, 0, 1, 0, NONE },
  { F_MEMPCPY, 42, BUF_B, 2, BUF_A, 3, 0, 1, 1, NONE },
  { F___MEMPCPY, 43, BUF_B, 3, BUF_A, 4, 0, 1, 1, NONE },
  { F_MEMCPY_CHK, 44, BUF_B, 4, BUF_A, 5, 0, 1, 0, NONE },
  { F_MEMMOVE_CHK, 45, BUF_B, 5, BUF_A, 6, 0, 1, 0, NONE },
  { F_MEMPCPY_CHK, 46, BUF_B, 6, BUF_A, 7, 0, 1, 1, NONE },
#if HAVE_OLD_MEMCPY
  { F_MEMCPY_OLD, 47, BUF_B, 7, BUF_A, 8, 0, 1, 0, NONE },
#endif
  { F_MEMSET, 48, BUF_B, 8, 0, 0, 0x11, 1, 0, NONE },
  { F_BZERO, 49, BUF_B, 9, 0, 0, 0, 1, 0, NONE },
  { F_EXPLICIT_BZERO, 50, BUF_B, 10, 0, 0, 0, 1, 1, NONE },
  { F_MEMSET_CHK, 51, BUF_B, 11, 0, 0, 0x22, 1, 0, NONE },
  { F_EXPLICIT_BZERO_CHK, 52, BUF_B, 12, 0, 0, 0, 1, 1, NONE },
};

/* The pattern of the counted window: sizes and alignments of their own,
   small and large, zero, and overlapping copies both ways.  */
static const struct call pattern[] = {
  { F_MEMCPY, 100, BUF_B, 3, BUF_A, 5, 0, 3, 0, NONE },
  { F_MEMCPY, 0, BUF_B, 17, BUF_A, 0, 0, 1, 0, NONE },
  { F_MEMCPY, 700000, BUF_B, 0, BUF_A, 64, 0, 1, 0, NONE },
  { F_MEMMOVE, 1000, BUF_B, 64, BUF_A, 0, 0, 2, 0, NONE },
  { F_MEMMOVE, 1000, BUF_W, 0, BUF_W, 8, 0, 7, 0, FWD },
  { F_MEMMOVE, 300, BUF_W, 4, BUF_W, 0, 0, 5, 0, BACK },
  { F_MEMMOVE, 513, BUF_B, 100, BUF_A, 612, 0, 1, 0, NONE },
  { F_MEMPCPY, 33, BUF_B, 1, BUF_A, 2, 0, 2, 1, NONE },
  { F___MEMPCPY, 4096, BUF_B, 0, BUF_A, 0, 0, 1, 1, NONE },
  { F_MEMCPY_CHK, 17, BUF_B, 17, BUF_A, 30, 0, 1, 0, NONE },
  { F_MEMMOVE_CHK, 9, BUF_B, 9, BUF_A, 9, 0, 1, 0, NONE },
  { F_MEMMOVE_CHK, 64, BUF_W, 31, BUF_W, 30, 0, 2, 0, BACK },
  { F_MEMPCPY_CHK, 600, BUF_B, 40, BUF_A, 7, 0, 1, 1, NONE },
  { F_MEMPCPY_CHK, 200, BUF_W, 0, BUF_W, 20, 0, 1, 1, FWD },
#if HAVE_OLD_MEMCPY
  { F_MEMCPY_OLD, 5000, BUF_B, 7, BUF_A, 100, 0, 1, 0, NONE },
#endif
  { F_MEMSET, 100, BUF_B, 3, 0, 0, 0x5a, 3, 0, NONE },
  { F_MEMSET, 0, BUF_B, 5, 0, 0, 0x77, 1, 0, NONE },
  { F_MEMSET, 70000, BUF_B, 5, 0, 0, 0x1234a5, 1, 0, NONE },
  { F_BZERO, 4096, BUF_B, 0, 0, 0, 0, 4, 0, NONE },
  { F_EXPLICIT_BZERO, 33, BUF_B, 1, 0, 0, 0, 6, 1, NONE },
  { F_MEMSET_CHK, 17, BUF_B, 62, 0, 0, -2, 1, 0, NONE },
  { F_EXPLICIT_BZERO_CHK, 8, BUF_B, 2, 0, 0, 0, 1, 1, NONE },
  { F_EXPLICIT_BZERO_CHK, 1500, BUF_B, 63, 0, 0, 0, 2, 1, NONE },
};

static void
tally (struct fc_tally *t, int times, size_t n)
{
  t->calls += (unsigned long long) times;
  t->bytes += (unsigned long long) times * n;
}

/* (dst - src) mod 4096's class.  */
static int
distance_class (uintptr_t d)
{
  return d == 0 ? FC_DIST_0 : d < 16 ? FC_DIST_1_15
	 : d < 64 ? FC_DIST_16_63 : FC_DIST_OTHER;
}

static void
counts_zero (struct fc_counts c[FAMILIES])
{
  for (int f = 0; f < FAMILIES; f++)
    for (size_t i = 0; i < NTALLY; i++)
      {
	((struct fc_tally *) &c[f])[i].calls = 0;
	((struct fc_tally *) &c[f])[i].bytes = 0;
      }
}

/* What the COUNT calls of LIST add, into WANT.  */
static void
expect_calls (const struct call *list, size_t count,
	      struct fc_counts want[FAMILIES])
{
  counts_zero (want);
  for (size_t k = 0; k < count; k++)
    {
      const struct call *c = &list[k];
      struct fc_counts *w = &want[fns[c->f].family];
      uintptr_t d = (uintptr_t) (buf[c->dbuf] + c->doff);
      tally (&w->size[fc_size_bucket (c->n)], c->times, c->n);
      tally (&w->function[c->wrapper], c->times, c->n);
      tally (&w->dst_align[d & 63], c->times, c->n);
      if (fns[c->f].family == COPY)
	{
	  uintptr_t s = (uintptr_t) (buf[c->sbuf] + c->soff);
	  tally (&w->src_align[s & 63], c->times, c->n);
	  tally (&w->distance[distance_class ((d - s) & 4095)], c->times,
		 c->n);
	  tally (&w->overlap[c->overlap], c->times, c->n);
	}
    }
}

/* Make call C, its TIMES, and check each result: the bytes written, the
   64 bytes after them untouched, the return value.  Returns the number
   of wrong results.  */
static int
make_call (const struct call *c)
{
  static unsigned long long seed;
  int bad = 0;
  for (int t = 0; t < c->times; t++)
    {
      unsigned char *dst = buf[c->dbuf] + c->doff;
      const unsigned char *src = buf[c->sbuf] + c->soff;
      int copy = fns[c->f].family == COPY;
      int overlap = copy && c->dbuf == c->sbuf;
      size_t span = 0;		/* overlapping: the window's bytes used */
      if (overlap)
	{
	  span = (c->doff > c->soff ? c->doff : c->soff) + c->n + 64;
	  fct_fill_random (scratch, span, ++seed);
	  fct_copy_bytes (buf[BUF_W], scratch, span);
	}
      else if (copy)
	{
	  fct_fill_random (buf[c->sbuf] + c->soff, c->n, ++seed);
	  fct_fill_inverse (dst, src, c->n);
	  fct_fill_byte (dst + c->n, 0xc3, 64);
	}
      else
	{
	  fct_fill_byte (dst, (unsigned char) ~c->value, c->n);
	  fct_fill_byte (dst + c->n, 0xc3, 64);
	}

      void *r = call_fn (c->f, dst, src, c->value, c->n);

      enum shape s = fns[c->f].shape;
      void *want_r = s == S_PCOPY || s == S_CHK_PCOPY ? dst + c->n : dst;
      int wrong = r != want_r;
      if (overlap)
	{
	  /* The window is SCRATCH with the source's bytes at DOFF.  */
	  wrong |= fct_mismatch (buf[BUF_W], scratch, c->doff) != c->doff;
	  wrong |= fct_mismatch (dst, scratch + c->soff, c->n) != c->n;
	  size_t after = span - c->doff - c->n;
	  wrong |= fct_mismatch (dst + c->n, scratch + c->doff + c->n, after)
		   != after;
	}
      else
	{
	  wrong |= copy ? fct_mismatch (dst, src, c->n) != c->n
		   : fct_mismatch_byte (dst, s == S_BZERO || s == S_CHK_BZERO
					? 0 : (unsigned char) c->value, c->n)
		     != c->n;
	  wrong |= fct_mismatch_byte (dst + c->n, 0xc3, 64) != 64;
	}
      if (wrong)
	{
	  fct_fail ("%s n=%zu dst=buffer+%zu: wrong result or return value",
		    fns[c->f].name, c->n, c->doff);
	  bad++;
	}
    }
  return bad;
}

static int
make_calls (const struct call *list, size_t count)
{
  int bad = 0;
  for (size_t k = 0; k < count; k++)
    bad += make_call (&list[k]);
  return bad;
}

/* ------------------------------------------------------------------------ */
/* The census, as a sampler sees it.  */

static volatile struct fc_census *census;
static unsigned char loaded[FAMILIES];	/* the entry bytes as loaded */

static uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void
sleep_ns (long ns)
{
  struct timespec ts = { ns / 1000000000, ns % 1000000000 };
  while (nanosleep (&ts, &ts) != 0)
    ;
}

/* What fastcopy-sample writes, in its order, to open a window of NS.  */
static void
window_open (uint64_t ns)
{
  for (int f = 0; f < FAMILIES; f++)
    census->saved[f] = census->entry[f];
  census->deadline = now_ns () + ns;
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
  for (int f = 0; f < FAMILIES; f++)
    census->entry[f] = FC_ENTRY_CENSUS;
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
}

static void
window_close (void)
{
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
  for (int f = 0; f < FAMILIES; f++)
    census->entry[f] = census->saved[f];
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
}

static int
entry_as_loaded (void)
{
  for (int f = 0; f < FAMILIES; f++)
    if (census->entry[f] != loaded[f])
      return 0;
  return 1;
}

/* The sum of the lanes' counts; zeros before the lanes are mapped.  */
static void
counts_read (struct fc_counts out[FAMILIES])
{
  counts_zero (out);
  const struct fc_census_lane *lanes
    = (const struct fc_census_lane *) (uintptr_t) census->lanes;
  if (lanes == NULL)
    return;
  for (int l = 0; l < FC_CENSUS_LANES; l++)
    for (int f = 0; f < FAMILIES; f++)
      for (size_t i = 0; i < NTALLY; i++)
	{
	  const struct fc_tally *t
	    = &((const struct fc_tally *) &lanes[l].family[f])[i];
	  ((struct fc_tally *) &out[f])[i].calls += t->calls;
	  ((struct fc_tally *) &out[f])[i].bytes += t->bytes;
	}
}

/* What tally I of a struct fc_counts counts.  */
static void
tally_name (size_t i, char *out, size_t size)
{
  static const struct
  {
    const char *name;
    size_t offset, count;
  } parts[] = {
#define PART(m) { #m, offsetof (struct fc_counts, m),			\
		  sizeof ((struct fc_counts *) 0)->m / sizeof (struct fc_tally) }
    PART (size), PART (function), PART (dst_align), PART (src_align),
    PART (distance), PART (overlap),
#undef PART
  };
  size_t at = i * sizeof (struct fc_tally);
  for (size_t p = 0; p < FCT_ARRAY_SIZE (parts); p++)
    if (at >= parts[p].offset
	&& at < parts[p].offset + parts[p].count * sizeof (struct fc_tally))
      {
	snprintf (out, size, "%s[%zu]", parts[p].name,
		  (at - parts[p].offset) / sizeof (struct fc_tally));
	return;
      }
  snprintf (out, size, "tally %zu", i);
}

/* Fail the current check for every tally where AFTER - BEFORE is not
   WANT.  */
static void
counts_compare (const struct fc_counts before[FAMILIES],
		const struct fc_counts after[FAMILIES],
		const struct fc_counts want[FAMILIES])
{
  for (int f = 0; f < FAMILIES; f++)
    for (size_t i = 0; i < NTALLY; i++)
      {
	const struct fc_tally *b = &((const struct fc_tally *) &before[f])[i];
	const struct fc_tally *a = &((const struct fc_tally *) &after[f])[i];
	const struct fc_tally *w = &((const struct fc_tally *) &want[f])[i];
	if (a->calls - b->calls != w->calls || a->bytes - b->bytes != w->bytes)
	  {
	    char name[64];
	    tally_name (i, name, sizeof name);
	    fct_fail ("%s %s: %llu calls, %llu bytes counted; expected %llu, "
		      "%llu", f == COPY ? "copy" : "clear", name,
		      a->calls - b->calls, a->bytes - b->bytes, w->calls,
		      w->bytes);
	  }
      }
}

static struct fc_counts before[FAMILIES], after[FAMILIES], want[FAMILIES];

/* ------------------------------------------------------------------------ */
/* Finding the census: the library's object, then its section.  */

struct lookup
{
  uintptr_t probe;		/* an address inside the library */
  uintptr_t bias;
  char path[4096];
  int found;
};

static int
find_object (struct dl_phdr_info *info, size_t size, void *data)
{
  struct lookup *lk = data;
  (void) size;
  for (int i = 0; i < info->dlpi_phnum; i++)
    {
      const ElfW (Phdr) *ph = &info->dlpi_phdr[i];
      uintptr_t start = info->dlpi_addr + ph->p_vaddr;
      if (ph->p_type == PT_LOAD && lk->probe >= start
	  && lk->probe < start + ph->p_memsz)
	{
	  lk->bias = info->dlpi_addr;
	  snprintf (lk->path, sizeof lk->path, "%s", info->dlpi_name);
	  lk->found = 1;
	  return 1;
	}
    }
  return 0;
}

static int
read_at (int fd, void *to, size_t n, off_t at)
{
  return pread (fd, to, n, at) == (ssize_t) n;
}

/* The address of section NAME in the file PATH (0 if none), into *ADDR,
   and its size; an error message, or NULL.  */
static const char *
section_of (const char *path, const char *name, uintptr_t *addr,
	    size_t *size)
{
  static char why[256];
  const char *err = NULL;
  ElfW (Ehdr) eh;
  ElfW (Shdr) *sh = NULL;
  char *names = NULL;
  int fd = open (path, O_RDONLY);
  if (fd < 0)
    return "cannot open the library's file";
  if (!read_at (fd, &eh, sizeof eh, 0)
      || eh.e_ident[EI_MAG0] != ELFMAG0 || eh.e_ident[EI_MAG1] != ELFMAG1
      || eh.e_ident[EI_MAG2] != ELFMAG2 || eh.e_ident[EI_MAG3] != ELFMAG3
      || eh.e_ident[EI_CLASS] != ELF_CLASS
      || eh.e_shentsize != sizeof (ElfW (Shdr)) || eh.e_shnum == 0
      || eh.e_shstrndx >= eh.e_shnum)
    {
      err = "not an ELF file of this ABI with section headers";
      goto out;
    }
  sh = malloc (eh.e_shnum * sizeof *sh);
  if (sh == NULL
      || !read_at (fd, sh, eh.e_shnum * sizeof *sh, (off_t) eh.e_shoff))
    {
      err = "cannot read the section headers";
      goto out;
    }
  const ElfW (Shdr) *strs = &sh[eh.e_shstrndx];
  names = malloc (strs->sh_size + 1);
  if (names == NULL
      || !read_at (fd, names, strs->sh_size, (off_t) strs->sh_offset))
    {
      err = "cannot read the section names";
      goto out;
    }
  names[strs->sh_size] = 0;
  *addr = 0;
  for (int i = 0; i < eh.e_shnum; i++)
    if (sh[i].sh_name < strs->sh_size
	&& strcmp (names + sh[i].sh_name, name) == 0)
      {
	*addr = (uintptr_t) sh[i].sh_addr;
	*size = (size_t) sh[i].sh_size;
      }
  if (*addr == 0)
    {
      snprintf (why, sizeof why, "no section %s", name);
      err = why;
    }
 out:
  free (names);
  free (sh);
  close (fd);
  return err;
}

/* ------------------------------------------------------------------------ */
/* The checks.  */

/* The entry bytes the library chose, against its own answer.  */
static void
check_entry_bytes (void)
{
  static const char *const probe[FAMILIES] = {
    [COPY] = "memcpy", [CLEAR] = "memset"
  };
  fct_begin ("the entry bytes are what fastcopy_selected says of "
	     "memcpy and memset");
  for (int f = 0; f < FAMILIES; f++)
    {
      const struct fastcopy_choice *c = fastcopy_selected (probe[f]);
      if (c == NULL || c->impl == NULL)
	{
	  fct_fail ("fastcopy_selected (\"%s\"): no answer", probe[f]);
	  continue;
	}
      /* The implementations reached by an entry byte: bytes 0, 1, ...  */
      unsigned int direct = 0;
      for (size_t i = 0; i < fastcopy_impl_count (); i++)
	{
	  const struct fastcopy_impl *m = fastcopy_impl_at (i);
	  direct += (int) m->family == f
		    && (m->traits & FASTCOPY_TRAIT_ENTRY) != 0;
	}
      int slot = strcmp (c->impl->name, "glibc") == 0
		 || (c->impl->traits & FASTCOPY_TRAIT_ENTRY) == 0;
      unsigned int b = loaded[f];
      if (slot ? b != FC_ENTRY_SLOT : b >= direct)
	fct_fail ("%s: %s's entry byte is %u, expected %s", probe[f],
		  c->impl->name, b, slot ? "the slot's" : "an entry variant's");
      if (b == FC_ENTRY_SLOT)
	printf ("entry byte: %s %s slot\n", f == COPY ? "copy" : "clear",
		c->impl->name);
      else
	printf ("entry byte: %s %s %u\n", f == COPY ? "copy" : "clear",
		c->impl->name, b);
    }
  fct_end ();
}

/* 1. With no window, nothing is counted (the lanes are not even
   mapped).  */
static void
check_no_window (void)
{
  fct_begin ("no window: every exported function's call is right and "
	     "uncounted");
  make_calls (each_once, FCT_ARRAY_SIZE (each_once));
  if (census->lanes != 0)
    fct_fail ("the lanes are mapped at %#llx",
	      (unsigned long long) census->lanes);
  if (!entry_as_loaded ())
    fct_fail ("the entry bytes changed");
  fct_end ();
}

/* The calls go on to glibc's own functions (glibc=on): the library's own
   answer.  */
static int
to_glibc (void)
{
  const struct fastcopy_choice *c = fastcopy_selected ("memcpy");
  return c != NULL && c->impl != NULL && strcmp (c->impl->name, "glibc") == 0;
}

/* 2 and 3.  A window counts the pattern exactly (nothing under glibc=on,
   where it closes at the first call); closed, it counts no more.  */
static void
check_window (void)
{
  counts_read (before);
  if (to_glibc ())
    counts_zero (want);
  else
    expect_calls (pattern, FCT_ARRAY_SIZE (pattern), want);
  window_open (10000000000ull);
  int bad = make_calls (pattern, FCT_ARRAY_SIZE (pattern));
  window_close ();
  fct_expect (bad == 0, "window: every call's result and return value is "
	      "right");

  fct_begin ("window: the lanes count exactly the calls made");
  if (census->lanes == 0 && !to_glibc ())
    fct_fail ("no lanes mapped");
  counts_read (after);
  counts_compare (before, after, want);
  fct_end ();

  fct_expect (entry_as_loaded (), "closed: the entry bytes are back");
  counts_read (before);
  bad = make_calls (each_once, FCT_ARRAY_SIZE (each_once));
  counts_read (after);
  counts_zero (want);
  fct_begin ("closed: every exported function's call is right and "
	     "uncounted");
  if (bad != 0)
    fct_fail ("%d wrong results", bad);
  counts_compare (before, after, want);
  fct_end ();
}

/* LATE_CALLS copies of N bytes at buffer offsets 5 and 9; returns the
   wrong ones.  */
static int
late_copies (size_t n)
{
  const struct call c = { F_MEMCPY, n, BUF_B, 5, BUF_A, 9, 0, LATE_CALLS,
			  0, NONE };
  return make_call (&c);
}

/* 4.  A window past its deadline closes itself at a lane's next look at
   the clock.  */
static void
check_late (void)
{
  const size_t n = 55;
  size_t b = fc_size_bucket (n);
  counts_read (before);
  window_open (1000000);
  sleep_ns (5000000);
  int bad = late_copies (n);
  int closed = entry_as_loaded ();
  counts_read (after);
  unsigned long long counted = after[COPY].size[b].calls
			       - before[COPY].size[b].calls;
  fct_expect (bad == 0, "late window: every copy is right");
  fct_expect (closed, "late window: closed itself (entry bytes back)");
  printf ("late window: %llu copies counted\n", counted);
  if (to_glibc ())
    fct_expect (counted == 0, "late window: glibc=on: none counted");
  else
    fct_expect (counted > 0 && counted <= FC_CENSUS_CHECK_EVERY,
		"late window: counted 1 to %d copies before closing",
		FC_CENSUS_CHECK_EVERY);
  window_close ();		/* should it have stayed open */
  counts_read (before);
  bad = late_copies (n);
  counts_read (after);
  counts_zero (want);
  fct_begin ("late window: the copies after it closed are uncounted");
  counts_compare (before, after, want);
  fct_end ();
}

/* 5.  A child forked inside a window, which its parent closes at once:
   the child's copy of the window closes itself, and the child's counts
   are not the parent's.  */
static void
check_fork (void)
{
  const size_t n = 77;
  size_t b = fc_size_bucket (n);
  counts_read (before);
  fflush (stdout);
  window_open (20000000);
  pid_t pid = fork ();
  if (pid == 0)
    {
      sleep_ns (40000000);
      fct_quiet = 1;
      int bad = late_copies (n);
      _exit ((bad != 0 ? 1 : 0) | (entry_as_loaded () ? 0 : 2));
    }
  window_close ();
  int status = 0;
  int waited = pid > 0 && waitpid (pid, &status, 0) == pid;
  if (fct_expect (waited, "fork: a child in a window"))
    return;
  printf ("fork: the child's wait status is %#x\n", (unsigned) status);
  fct_expect (WIFEXITED (status) && (WEXITSTATUS (status) & 1) == 0,
	      "fork: the child's copies are right");
  fct_expect (WIFEXITED (status) && (WEXITSTATUS (status) & 2) == 0,
	      "fork: the child's window closed itself");
  counts_read (after);
  fct_expect (after[COPY].size[b].calls == before[COPY].size[b].calls
	      && after[COPY].size[b].bytes == before[COPY].size[b].bytes,
	      "fork: the parent's lanes count none of the child's copies");
  fct_expect (entry_as_loaded (), "fork: the parent's entry bytes are back");
}

/* 6.  Threads in one window.  */
#define THREADS 4
#define THREAD_CALLS 5000
#define THREAD_N 123

struct worker
{
  pthread_t id;
  unsigned char *src, *dst;
  int bad;
};

static void *
work (void *arg)
{
  struct worker *w = arg;
  copy3_fn copy = (copy3_fn) fn_at[F_MEMCPY];
  for (int i = 0; i < THREAD_CALLS; i++)
    {
      fct_fill_inverse (w->dst, w->src, THREAD_N);
      if (copy (w->dst, w->src, THREAD_N) != w->dst
	  || fct_mismatch (w->dst, w->src, THREAD_N) != THREAD_N)
	w->bad++;
    }
  return NULL;
}

static void
check_threads (void)
{
  static struct worker w[THREADS];
  for (int t = 0; t < THREADS; t++)
    {
      /* Apart from the main thread's buffers, each its own page.  */
      w[t].src = buf[BUF_A] + BUF_SIZE - (size_t) (t + 1) * 8192;
      w[t].dst = buf[BUF_B] + BUF_SIZE - (size_t) (t + 1) * 8192 + 11;
      fct_fill_random (w[t].src, THREAD_N, (unsigned long long) t + 100);
    }
  counts_read (before);
  window_open (10000000000ull);
  int started = 0;
  for (; started < THREADS; started++)
    if (pthread_create (&w[started].id, NULL, work, &w[started]) != 0)
      break;
  for (int t = 0; t < started; t++)
    pthread_join (w[t].id, NULL);
  window_close ();
  counts_read (after);
  if (fct_expect (started == THREADS, "threads: %d started", THREADS))
    return;
  int bad = 0;
  for (int t = 0; t < THREADS; t++)
    bad += w[t].bad;
  fct_expect (bad == 0, "threads: all %d copies are right",
	      THREADS * THREAD_CALLS);
  /* Two threads whose stacks hash to one lane may each lose a count to
     the other (census.c): the count is at most the calls, and some.  No
     other size is counted at all.  */
  size_t b = fc_size_bucket (THREAD_N);
  unsigned long long calls = after[COPY].size[b].calls
			     - before[COPY].size[b].calls;
  unsigned long long bytes = after[COPY].size[b].bytes
			     - before[COPY].size[b].bytes;
  printf ("threads: %llu copies, %llu bytes counted\n", calls, bytes);
  if (to_glibc ())
    fct_expect (calls == 0, "threads: glibc=on: none counted");
  else
    fct_expect (calls > 0 && calls <= THREADS * THREAD_CALLS
		&& bytes <= (unsigned long long) THREADS * THREAD_CALLS
			     * THREAD_N,
		"threads: 1 to %d copies of %d bytes counted",
		THREADS * THREAD_CALLS, THREAD_N);
  fct_begin ("threads: no other size, and no clear, counted");
  for (size_t i = 0; i < FC_BUCKETS; i++)
    if (i != b && after[COPY].size[i].calls != before[COPY].size[i].calls)
      fct_fail ("copy size[%zu] counted", i);
  for (size_t i = 0; i < NTALLY; i++)
    if (((struct fc_tally *) &after[CLEAR])[i].calls
	!= ((struct fc_tally *) &before[CLEAR])[i].calls)
      {
	char name[64];
	tally_name (i, name, sizeof name);
	fct_fail ("clear %s counted", name);
      }
  fct_end ();
}

int
main (void)
{
  fct_init ();
  for (int f = 0; f < F_COUNT; f++)
    if (HAVE_OLD_MEMCPY || f != F_MEMCPY_OLD)
      fn_at[f] = fct_symbol (fns[f].name, fns[f].version);
  for (int i = 0; i < NBUFS; i++)
    {
      buf[i] = mmap (NULL, BUF_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (buf[i] == MAP_FAILED)
	{
	  printf ("FAIL: mmap\n");
	  return 1;
	}
    }
  scratch = malloc (BUF_SIZE);
  if (scratch == NULL)
    {
      printf ("FAIL: malloc\n");
      return 1;
    }

  static struct lookup lk;
  lk.probe = (uintptr_t) fn_at[F_MEMSET];
  dl_iterate_phdr (find_object, &lk);
  if (fct_expect (lk.found, "dl_iterate_phdr: the object of memset"))
    return fct_finish ();
  uintptr_t at = 0;
  size_t size = 0;
  const char *err = section_of (lk.path, FC_CENSUS_SECTION, &at, &size);
  if (err != NULL)
    printf ("  detail: %s: %s\n", lk.path, err);
  printf ("library: %s\n", lk.path);
  if (fct_expect (err == NULL && size >= sizeof (struct fc_census),
		  "the library's section " FC_CENSUS_SECTION " of %zu bytes "
		  "or more", sizeof (struct fc_census)))
    return fct_finish ();
  census = (volatile struct fc_census *) (lk.bias + at);
  printf ("census at %p: version %u, size %u\n", (void *) census,
	  census->version, census->size);
  if (fct_expect (census->version == FC_CENSUS_VERSION
		  && census->size == sizeof (struct fc_census),
		  "the census's version is %d and its size %zu",
		  FC_CENSUS_VERSION, sizeof (struct fc_census)))
    return fct_finish ();
  for (int f = 0; f < FAMILIES; f++)
    loaded[f] = census->entry[f];
  fct_expect (census->entry[COPY] != FC_ENTRY_CENSUS
	      && census->entry[CLEAR] != FC_ENTRY_CENSUS,
	      "no window is open at start");

  check_entry_bytes ();
  check_no_window ();
  check_window ();
  check_late ();
  check_fork ();
  check_threads ();
  return fct_finish ();
}
