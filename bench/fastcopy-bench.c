/* fastcopy-bench: libfastcopy against the system glibc, in one process.

   Contenders, every one called through a volatile function pointer:
   1. glibc: memcpy, memmove, memset, bzero as libc.so.6 itself defines them,
      found with dlsym on the dlopen("libc.so.6") handle, so that whatever is
      preloaded or linked first cannot stand in for them;
   2. libfastcopy: the function that libfastcopy.so.1 exports (dlsym on its
      own handle), including the dispatch jump that every program pays;
   3. fc:NAME: every usable entry of that library's implementation table,
      called directly;
   4. ref:stream: an AVX2 loop of streaming stores (stream.c), on sizes that
      do not fit in the caches, the bandwidth to compare large copies with.
   Both lookups are checked with dladdr: the glibc functions must lie in
   libc.so.6, the libfastcopy ones in the library that was opened.

   Method: every measured point (function, size, alignment, distance, cache
   state) first calibrates each contender to a repetition count whose sample
   lasts --time ms, then takes --rounds samples with the contenders
   interleaved (A B C, B C A, C A B, ...), and keeps the median.  Ratios are
   contender time / glibc time: below 1 is faster than glibc.

   Cases: fixed-size hot loops (same buffers each call); the (dst - src) mod
   4096 sweep at 16 KiB that exposes the REP MOVSB aliasing cliff; overlapping
   memmove both ways; cache-cold calls cycled through a pool several times
   the last-level cache; and call sequences drawn from the real-workload size
   distributions in data/, the same sequence for every contender.  */

#define _GNU_SOURCE 1
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <gnu/libc-version.h>
#include <limits.h>
#include <link.h>
#include <math.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "fastcopy.h"
#include "bench.h"

#define KiB (1024ul)
#define MiB (1024ul * 1024ul)
#define PAGE 4096ul

#define MAX_CONTENDERS 24
#define MAX_ROUNDS 99

/* Where the two layouts put the buffers.  Misaligned: src at page + 5 and
   dst at page + 3, so neither is 8-byte aligned, they are misaligned to
   each other, and (dst - src) mod 4096 = 4094 stays clear of the
   REP MOVSB aliasing cliff at 1..63 (which the distance case measures on
   its own).  */
#define MIS_SRC 5
#define MIS_DST 3

/* ------------------------------------------------------------------ */
/* Options.  */

static struct
{
  int quick;
  unsigned int rounds;		/* 0: mode default */
  double time_ms;		/* 0: mode default */
  const char *csv;
  const char *svg;
  const char *lib;
  const char *data;
  int cpu;			/* -1: the one we started on */
  int pin;
  int quiet;
  int strict;
  unsigned long long seed;
  unsigned int calls;
  size_t pool;			/* bytes; 0: mode default */
  unsigned int cases;		/* bit per case */
} opt = { .cpu = -1, .pin = 1, .seed = 1, .calls = 65536 };

static int progress_on;

static void __attribute__ ((noreturn, format (printf, 1, 2)))
die (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs ("fastcopy-bench: ", stderr);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
  exit (1);
}

static void __attribute__ ((noreturn, format (printf, 1, 2)))
usage_error (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fputs ("fastcopy-bench: ", stderr);
  vfprintf (stderr, fmt, ap);
  fputs ("\nTry 'fastcopy-bench --help' for more information.\n", stderr);
  va_end (ap);
  exit (2);
}

/* ------------------------------------------------------------------ */
/* Cases.  */

enum case_id
{
  CASE_MEMCPY_HOT,
  CASE_MEMSET_HOT,
  CASE_BZERO_HOT,
  CASE_MEMMOVE_HOT,
  CASE_MEMCPY_DISTANCE,
  CASE_MEMCPY_DIST,
  CASE_MEMSET_DIST,
  CASE_MEMCPY_COLD,
  CASE_MEMSET_COLD,
  CASE_BZERO_COLD,
  CASE_COUNT
};

static const struct
{
  const char *name;
  const char *help;
} cases[CASE_COUNT] = {
  [CASE_MEMCPY_HOT] = { "memcpy-hot",
    "memcpy, fixed sizes 0 B - 4 MiB, same buffers, aligned and misaligned" },
  [CASE_MEMSET_HOT] = { "memset-hot",
    "memset, fixed sizes 0 B - 4 MiB, same buffer, aligned and misaligned" },
  [CASE_BZERO_HOT] = { "bzero-hot",
    "bzero, fixed sizes 0 B - 1 MiB, same buffer, aligned and misaligned" },
  [CASE_MEMMOVE_HOT] = { "memmove-hot",
    "memmove, overlapping by half the size, dst < src and dst > src" },
  [CASE_MEMCPY_DISTANCE] = { "memcpy-distance",
    "memcpy 16 KiB, (dst - src) mod 4096 from 0 to 4095 (quick: a sample)" },
  [CASE_MEMCPY_DIST] = { "memcpy-dist",
    "memcpy call sequences drawn from the real-workload size distributions" },
  [CASE_MEMSET_DIST] = { "memset-dist",
    "memset call sequences drawn from the same distributions" },
  [CASE_MEMCPY_COLD] = { "memcpy-cold",
    "memcpy 64 B - 256 MiB (quick: 64 MiB), src and dst not in cache" },
  [CASE_MEMSET_COLD] = { "memset-cold",
    "memset 64 B - 256 MiB (quick: 64 MiB), dst not in cache" },
  [CASE_BZERO_COLD] = { "bzero-cold",
    "bzero 64 B - 256 MiB (quick: 64 MiB), dst not in cache" },
};

static const struct
{
  const char *name;
  unsigned int mask;
} case_groups[] = {
  { "all", (1u << CASE_COUNT) - 1 },
  { "hot", (1u << CASE_MEMCPY_HOT) | (1u << CASE_MEMSET_HOT)
	   | (1u << CASE_BZERO_HOT) | (1u << CASE_MEMMOVE_HOT) },
  { "cold", (1u << CASE_MEMCPY_COLD) | (1u << CASE_MEMSET_COLD)
	    | (1u << CASE_BZERO_COLD) },
  { "distributions", (1u << CASE_MEMCPY_DIST) | (1u << CASE_MEMSET_DIST) },
  { "distance", 1u << CASE_MEMCPY_DISTANCE },
  { "memcpy", (1u << CASE_MEMCPY_HOT) | (1u << CASE_MEMCPY_DISTANCE)
	      | (1u << CASE_MEMCPY_DIST) | (1u << CASE_MEMCPY_COLD) },
  { "memset", (1u << CASE_MEMSET_HOT) | (1u << CASE_MEMSET_DIST)
	      | (1u << CASE_MEMSET_COLD) },
  { "bzero", (1u << CASE_BZERO_HOT) | (1u << CASE_BZERO_COLD) },
  { "memmove", 1u << CASE_MEMMOVE_HOT },
};

static unsigned int
parse_cases (const char *list)
{
  unsigned int mask = 0;
  char *copy = strdup (list), *save = NULL;
  if (copy == NULL)
    die ("out of memory");
  for (char *tok = strtok_r (copy, ",", &save); tok != NULL;
       tok = strtok_r (NULL, ",", &save))
    {
      unsigned int m = 0;
      for (int i = 0; i < CASE_COUNT; i++)
	if (strcmp (tok, cases[i].name) == 0)
	  m = 1u << i;
      for (size_t i = 0; i < sizeof case_groups / sizeof case_groups[0]; i++)
	if (strcmp (tok, case_groups[i].name) == 0)
	  m = case_groups[i].mask;
      if (m == 0)
	usage_error ("unknown case '%s' (see --list)", tok);
      mask |= m;
    }
  free (copy);
  if (mask == 0)
    usage_error ("--case needs at least one case name");
  return mask;
}

/* ------------------------------------------------------------------ */
/* Contenders.  */

enum call_kind { CALL_COPY, CALL_SET, CALL_ZERO };
enum role { ROLE_GLIBC, ROLE_FASTCOPY, ROLE_VARIANT, ROLE_REFERENCE };

struct contender
{
  char label[40];
  enum role role;
  enum call_kind kind;
  fcb_copy_fn copy;
  fcb_set_fn set;
  fcb_zero_fn zero;
};

/* The contenders for one function; glibc is always [0], libfastcopy [1].
   The "wide" set adds the streaming reference at the end.  */
struct cset
{
  const char *function;
  int n;
  struct contender c[MAX_CONTENDERS];
};

enum func { F_MEMCPY, F_MEMMOVE, F_MEMSET, F_BZERO, F_COUNT };
static const char *const func_names[F_COUNT] = {
  "memcpy", "memmove", "memset", "bzero"
};

static struct cset csets[F_COUNT];	/* glibc, libfastcopy, variants */
static struct cset csets_wide[F_COUNT];	/* ... and ref:stream */

static struct
{
  void *libc;
  void *fc;
  char libc_path[PATH_MAX];
  char fc_path[PATH_MAX];
  size_t (*impl_count) (void);
  const struct fastcopy_impl *(*impl_at) (size_t);
  int (*impl_usable) (const struct fastcopy_impl *);
  const struct fastcopy_choice *(*selected) (const char *);
  const char *(*version) (void);
  const struct fastcopy_cpu *(*cpu) (void);
} lib;

static void *
must_dlsym (void *handle, const char *what, const char *name)
{
  dlerror ();
  void *p = dlsym (handle, name);
  const char *err = dlerror ();
  if (p == NULL || err != NULL)
    die ("%s has no symbol %s%s%s", what, name, err ? ": " : "", err ? err : "");
  return p;
}

/* The file name ld.so loaded HANDLE from.  */
static void
handle_path (void *handle, char *buf, size_t len)
{
  struct link_map *lm = NULL;
  if (dlinfo (handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL)
    die ("dlinfo failed: %s", dlerror ());
  snprintf (buf, len, "%s", lm->l_name);
}

/* FN must be code in the object loaded from PATH: proof that the lookup
   reached the library we meant, not an interposed one.  */
static void
check_origin (void *fn, const char *name, const char *path, const char *who)
{
  Dl_info info;
  if (dladdr (fn, &info) == 0 || info.dli_fname == NULL)
    die ("cannot tell which object %s's %s at %p lies in", who, name, fn);
  if (strcmp (info.dli_fname, path) != 0)
    die ("%s's %s resolved to code in %s, not in %s", who, name,
	 info.dli_fname, path);
}

static void
open_libraries (void)
{
  lib.libc = dlopen ("libc.so.6", RTLD_NOW | RTLD_LOCAL);
  if (lib.libc == NULL)
    die ("dlopen libc.so.6: %s", dlerror ());
  handle_path (lib.libc, lib.libc_path, sizeof lib.libc_path);

  /* Default: the libfastcopy this program is linked with.  */
  char linked[PATH_MAX];
  const char *path = opt.lib;
  if (path == NULL)
    {
      Dl_info info;
      if (dladdr ((void *) fastcopy_version, &info) == 0 || info.dli_fname == NULL)
	die ("cannot locate the libfastcopy this program is linked with; use --lib");
      snprintf (linked, sizeof linked, "%s", info.dli_fname);
      path = linked;
    }
  else if (strchr (path, '/') == NULL)
    usage_error ("--lib needs a path containing '/', not a bare name (%s)", path);
  lib.fc = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (lib.fc == NULL)
    die ("dlopen %s: %s", path, dlerror ());
  handle_path (lib.fc, lib.fc_path, sizeof lib.fc_path);

  const char *who = lib.fc_path;
  *(void **) &lib.impl_count = must_dlsym (lib.fc, who, "fastcopy_impl_count");
  *(void **) &lib.impl_at = must_dlsym (lib.fc, who, "fastcopy_impl_at");
  *(void **) &lib.impl_usable = must_dlsym (lib.fc, who, "fastcopy_impl_usable");
  *(void **) &lib.selected = must_dlsym (lib.fc, who, "fastcopy_selected");
  *(void **) &lib.version = must_dlsym (lib.fc, who, "fastcopy_version");
  *(void **) &lib.cpu = must_dlsym (lib.fc, who, "fastcopy_cpu");
}

static void
add (struct cset *s, const char *label, enum role role, enum call_kind kind,
     void *fn)
{
  if (s->n == MAX_CONTENDERS)
    die ("more than %d contenders", MAX_CONTENDERS);
  struct contender *c = &s->c[s->n++];
  snprintf (c->label, sizeof c->label, "%s", label);
  c->role = role;
  c->kind = kind;
  switch (kind)
    {
    case CALL_COPY: *(void **) &c->copy = fn; break;
    case CALL_SET: *(void **) &c->set = fn; break;
    case CALL_ZERO: *(void **) &c->zero = fn; break;
    }
}

static void
build_contenders (void)
{
  for (int f = 0; f < F_COUNT; f++)
    {
      const char *name = func_names[f];
      enum call_kind kind = f == F_MEMSET ? CALL_SET
			    : f == F_BZERO ? CALL_ZERO : CALL_COPY;
      enum fastcopy_family fam = kind == CALL_COPY ? FASTCOPY_FAMILY_COPY
			       : FASTCOPY_FAMILY_CLEAR;
      struct cset *s = &csets[f];
      s->function = name;

      void *g = must_dlsym (lib.libc, lib.libc_path, name);
      void *x = must_dlsym (lib.fc, lib.fc_path, name);
      check_origin (g, name, lib.libc_path, "glibc");
      check_origin (x, name, lib.fc_path, "libfastcopy");
      add (s, "glibc", ROLE_GLIBC, kind, g);
      add (s, "libfastcopy", ROLE_FASTCOPY, kind, x);

      /* The variants take the family's signature: bzero's are clear
	 functions called with c = 0.  */
      for (size_t i = 0; i < lib.impl_count (); i++)
	{
	  const struct fastcopy_impl *im = lib.impl_at (i);
	  if (im->family != fam || !lib.impl_usable (im))
	    continue;
	  char label[40];
	  snprintf (label, sizeof label, "fc:%s", im->name);
	  if (fam == FASTCOPY_FAMILY_COPY)
	    add (s, label, ROLE_VARIANT, CALL_COPY, (void *) im->copy);
	  else
	    add (s, label, ROLE_VARIANT, CALL_SET, (void *) im->clear);
	}

      csets_wide[f] = *s;
      if (fcb_stream_usable ())
	add (&csets_wide[f], "ref:stream", ROLE_REFERENCE,
	     kind == CALL_COPY ? CALL_COPY : CALL_SET,
	     kind == CALL_COPY ? (void *) fcb_stream_copy
			       : (void *) fcb_stream_set);
    }
}

/* A wrong result means a wrong function pointer: stop before timing it.  */
static void
verify_contenders (void)
{
  enum { N = 3 * PAGE };
  unsigned char *a = malloc (N), *b = malloc (N), *want = malloc (N);
  if (a == NULL || b == NULL || want == NULL)
    die ("out of memory");
  static const size_t sizes[] = { 0, 1, 7, 16, 33, 100, 128, 255, 1000, 4097, 8000 };
  for (int f = 0; f < F_COUNT; f++)
    for (int k = 0; k < csets_wide[f].n; k++)
      for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++)
	{
	  const struct contender *c = &csets_wide[f].c[k];
	  size_t n = sizes[si], so = si * 7 % 64, doff = si * 13 % 64;
	  for (size_t i = 0; i < N; i++)
	    a[i] = (unsigned char) (i * 131 + 7), b[i] = (unsigned char) (i ^ 0x5a);
	  for (size_t i = 0; i < N; i++)
	    want[i] = b[i];
	  for (size_t i = 0; i < n; i++)
	    want[doff + i] = f == F_MEMSET ? 0xa5 : f == F_BZERO ? 0 : a[so + i];
	  switch (c->kind)
	    {
	    case CALL_COPY: c->copy (b + doff, a + so, n); break;
	    case CALL_SET: c->set (b + doff, f == F_MEMSET ? 0xa5 : 0, n); break;
	    case CALL_ZERO: c->zero (b + doff, n); break;
	    }
	  for (size_t i = 0; i < N; i++)
	    if (b[i] != want[i])
	      die ("%s %s gives a wrong result (size %zu, byte %zu)",
		   c->label, func_names[f], n, i);
	}
  free (a);
  free (b);
  free (want);
}

/* ------------------------------------------------------------------ */
/* Memory.  */

static void *
map (size_t bytes)
{
  void *p = mmap (NULL, bytes, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    die ("cannot map %zu MiB: %s", bytes / MiB, strerror (errno));
  /* Touch every page with a pattern now, so that no page fault and no
     zero page is timed later.  */
  unsigned char *c = p;
  for (size_t i = 0; i < bytes; i += 64)
    c[i] = (unsigned char) (i >> 6);
  return p;
}

static void
unmap (void *p, size_t bytes)
{
  if (p != NULL)
    munmap (p, bytes);
}

/* ------------------------------------------------------------------ */
/* Points: one measured configuration, with a median per contender.  */

enum ptype { PT_FIXED, PT_COLD, PT_SEQ };

/* One call of a distribution sequence, packed: size (13 bits, <= 4096),
   src offset and dst offset (20 bits each) inside SEQ_BUF-byte buffers.  */
#define SEQ_BUF (256 * KiB)
#define SEQ_SIZE(e) ((size_t) ((e) & 0x1fff))
#define SEQ_SOFF(e) ((size_t) (((e) >> 13) & 0xfffff))
#define SEQ_DOFF(e) ((size_t) ((e) >> 33))

struct dist
{
  char name[64];		/* "GoogleA" */
  char file[PATH_MAX];
  double *cdf;
  size_t nsizes;
  uint64_t *seq;		/* opt.calls entries */
  size_t bytes;			/* sum of the sizes */
};

static struct dist *dists;
static size_t ndists;

struct point
{
  int group;
  enum ptype type;
  size_t size;			/* per call; PT_SEQ: bytes of the sequence */
  long distance;		/* dst - src as placed; LONG_MIN: random */
  size_t soff, doff;		/* from the group's buffer bases */
  int fill;			/* memset value */
  const struct cset *cs;
  const struct dist *dist;	/* PT_SEQ */
  /* PT_COLD: slot i at offset order[i] * stride in the pools; the cursor
     carries on across samples, so that every call finds cold memory.  */
  size_t stride, nslots, cursor;
  uint32_t *order;
  double med[MAX_CONTENDERS];
  int done;
};

enum xkind { X_SIZE, X_DISTANCE, X_DIST };

/* A group: one sub-table of the report and one chart.  */
struct group
{
  enum case_id cid;
  enum func func;
  const char *align;		/* aligned, misaligned, random */
  const char *cache;		/* hot, cold, L2 */
  char title[160];
  enum xkind xkind;
  const struct cset *header;	/* the widest contender set of its points */
  size_t first, count;
  /* Buffers, set while the case runs.  */
  char *dbase;
  const char *sbase;
};

static struct point *points;
static size_t npoints, cap_points;
static struct group groups[32];
static size_t ngroups;

static struct group *
new_group (enum case_id cid, enum func f, const char *align,
	   const char *cache, enum xkind xk, const char *fmt, ...)
{
  if (ngroups == sizeof groups / sizeof groups[0])
    die ("too many groups");
  struct group *g = &groups[ngroups++];
  memset (g, 0, sizeof *g);
  g->cid = cid;
  g->func = f;
  g->align = align;
  g->cache = cache;
  g->xkind = xk;
  g->header = &csets[f];
  g->first = npoints;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (g->title, sizeof g->title, fmt, ap);
  va_end (ap);
  return g;
}

static struct point *
new_point (struct group *g, enum ptype type, size_t size, const struct cset *cs)
{
  if (npoints == cap_points)
    {
      cap_points = cap_points ? 2 * cap_points : 1024;
      points = realloc (points, cap_points * sizeof *points);
      if (points == NULL)
	die ("out of memory");
    }
  struct point *p = &points[npoints++];
  memset (p, 0, sizeof *p);
  p->group = (int) (g - groups);
  p->type = type;
  p->size = size;
  p->cs = cs;
  p->fill = g->func == F_MEMSET ? 0xa5 : 0;
  if (cs->n > g->header->n)
    g->header = cs;
  g->count++;
  return p;
}

/* ------------------------------------------------------------------ */
/* Timing.  */

static inline uint64_t
now_ns (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* Time REPS calls (PT_SEQ: REPS passes over the sequence) of contender C on
   point P; returns nanoseconds.  The function pointer is re-read from a
   volatile variable for every call, so the compiler can neither inline it
   nor hoist anything out of it.  */
static uint64_t
run (struct point *p, const struct contender *c, uint64_t reps)
{
  const struct group *g = &groups[p->group];
  char *d = g->dbase + p->doff;
  const char *s = g->sbase ? g->sbase + p->soff : NULL;
  size_t n = p->size;
  int fill = p->fill;
  fcb_copy_fn volatile copy = c->copy;
  fcb_set_fn volatile set = c->set;
  fcb_zero_fn volatile zero = c->zero;
  uint64_t t0 = 0, t1 = 0;

  switch (p->type)
    {
    case PT_FIXED:
      t0 = now_ns ();
      switch (c->kind)
	{
	case CALL_COPY: for (uint64_t r = 0; r < reps; r++) copy (d, s, n); break;
	case CALL_SET: for (uint64_t r = 0; r < reps; r++) set (d, fill, n); break;
	case CALL_ZERO: for (uint64_t r = 0; r < reps; r++) zero (d, n); break;
	}
      t1 = now_ns ();
      break;

    case PT_COLD:
      {
	size_t cur = p->cursor, ns = p->nslots, stride = p->stride;
	const uint32_t *order = p->order;
	t0 = now_ns ();
	for (uint64_t r = 0; r < reps; r++)
	  {
	    size_t off = (size_t) order[cur] * stride;
	    if (++cur == ns)
	      cur = 0;
	    switch (c->kind)
	      {
	      case CALL_COPY: copy (d + off, s + off, n); break;
	      case CALL_SET: set (d + off, fill, n); break;
	      case CALL_ZERO: zero (d + off, n); break;
	      }
	  }
	t1 = now_ns ();
	p->cursor = cur;
      }
      break;

    case PT_SEQ:
      {
	const uint64_t *seq = p->dist->seq, *end = seq + opt.calls;
	t0 = now_ns ();
	for (uint64_t r = 0; r < reps; r++)
	  switch (c->kind)
	    {
	    case CALL_COPY:
	      for (const uint64_t *e = seq; e < end; e++)
		copy (d + SEQ_DOFF (*e), s + SEQ_SOFF (*e), SEQ_SIZE (*e));
	      break;
	    case CALL_SET:
	      for (const uint64_t *e = seq; e < end; e++)
		set (d + SEQ_DOFF (*e), fill, SEQ_SIZE (*e));
	      break;
	    case CALL_ZERO:
	      for (const uint64_t *e = seq; e < end; e++)
		zero (d + SEQ_DOFF (*e), SEQ_SIZE (*e));
	      break;
	    }
	t1 = now_ns ();
      }
      break;
    }
  return t1 - t0;
}

/* A repetition count whose sample lasts about TARGET ns.  The trial runs
   also warm the caches, the branch predictors and the page tables.  */
static uint64_t
calibrate (struct point *p, const struct contender *c, uint64_t target)
{
  uint64_t reps = 1;
  for (;;)
    {
      uint64_t t = run (p, c, reps);
      if (t >= target / 4 || reps >= (1ull << 36))
	{
	  double r = (double) reps * (double) target / (double) (t ? t : 1);
	  return r < 1 ? 1 : (uint64_t) r;
	}
      uint64_t mul = t ? target / 4 / t + 1 : 16;
      reps *= mul < 2 ? 2 : mul > 16 ? 16 : mul;
    }
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
median (double *v, unsigned int n)
{
  qsort (v, n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Context switches of this thread so far.  */
static long
switches (void)
{
  struct rusage ru;
  if (getrusage (RUSAGE_THREAD, &ru) != 0)
    return 0;
  return ru.ru_nivcsw + ru.ru_nvcsw;
}

static unsigned long samples_taken, samples_retaken;

/* A sample during which the thread was switched out measured some other
   program too: take it again, up to 4 times (once for a sample that ran
   over 4 times TARGET ns, a huge call that a busy machine would switch out
   every time), and if every attempt was switched out keep the shortest.
   On a busy machine this removes most of the noise that a median alone
   would keep.  */
static double
sample (struct point *p, const struct contender *c, uint64_t reps,
	uint64_t target)
{
  uint64_t best = UINT64_MAX;
  int attempts = 5;
  for (int attempt = 0; attempt < attempts; attempt++)
    {
      long before = switches ();
      uint64_t t = run (p, c, reps);
      if (switches () == before)
	{
	  best = t;
	  break;
	}
      samples_retaken++;
      best = t < best ? t : best;
      if (t > 4 * target)
	attempts = 2;
    }
  samples_taken++;
  return (double) best / (double) reps;
}

static void
measure (struct point *p, unsigned int rounds, double time_ms)
{
  const struct cset *cs = p->cs;
  uint64_t target = (uint64_t) (time_ms * 1e6), reps[MAX_CONTENDERS];
  double samples[MAX_CONTENDERS][MAX_ROUNDS];

  for (int k = 0; k < cs->n; k++)
    reps[k] = calibrate (p, &cs->c[k], target);
  for (unsigned int r = 0; r < rounds; r++)
    for (int j = 0; j < cs->n; j++)
      {
	int k = (int) ((j + r) % (unsigned int) cs->n);
	samples[k][r] = sample (p, &cs->c[k], reps[k], target);
      }
  for (int k = 0; k < cs->n; k++)
    p->med[k] = median (samples[k], rounds);
  p->done = 1;
}

/* ------------------------------------------------------------------ */
/* Size lists.  */

static size_t
push (size_t *v, size_t n, size_t x)
{
  if (n == 0 || v[n - 1] < x)
    v[n++] = x;
  return n;
}

/* Every size up to 64 (quick: to 32, then every 8th), then steps growing
   with the size to 8 KiB, then a few sizes to MAX.  */
static size_t
hot_sizes (size_t *v, size_t max)
{
  size_t n = 0;
  for (size_t s = 0; s <= 64; s++)
    if (!opt.quick || s <= 32 || s % 8 == 0)
      n = push (v, n, s);
  static const struct { size_t upto, step; } full[] = {
    { 256, 16 }, { 512, 32 }, { 1024, 64 }, { 2048, 128 }, { 8192, 512 } };
  static const struct { size_t upto, step; } quick[] = {
    { 128, 32 }, { 256, 64 }, { 1024, 128 }, { 2048, 256 }, { 8192, 1024 } };
  size_t s = 64;
  for (int i = 0; i < 5; i++)
    {
      size_t upto = opt.quick ? quick[i].upto : full[i].upto;
      size_t step = opt.quick ? quick[i].step : full[i].step;
      for (; s + step <= upto; s += step)
	n = push (v, n, s + step);
    }
  static const size_t big_full[] = { 12 * KiB, 16 * KiB, 24 * KiB, 32 * KiB,
    48 * KiB, 64 * KiB, 128 * KiB, 256 * KiB, 512 * KiB, MiB, 2 * MiB,
    4 * MiB };
  static const size_t big_quick[] = { 16 * KiB, 64 * KiB, 256 * KiB, MiB,
    4 * MiB };
  const size_t *big = opt.quick ? big_quick : big_full;
  size_t nbig = opt.quick ? 5 : 12;
  for (size_t i = 0; i < nbig; i++)
    if (big[i] <= max)
      n = push (v, n, big[i]);
  return n;
}

static const size_t bzero_sizes[] = { 0, 1, 2, 4, 8, 16, 24, 32, 48, 64, 96,
  128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192,
  16 * KiB, 64 * KiB, 256 * KiB, MiB };
static const size_t memmove_sizes[] = { 8, 16, 32, 64, 128, 256, 512, 1024,
  2048, 4096, 8192, 16 * KiB, 64 * KiB, 256 * KiB, MiB };
static const size_t cold_sizes_full[] = { 64, 256, KiB, 4 * KiB, 16 * KiB,
  64 * KiB, 256 * KiB, MiB, 4 * MiB, 16 * MiB, 32 * MiB, 64 * MiB, 128 * MiB,
  256 * MiB };
static const size_t cold_sizes_quick[] = { 64, KiB, 16 * KiB, 256 * KiB, MiB,
  4 * MiB, 16 * MiB, 32 * MiB, 64 * MiB };
#define N_OF(a) (sizeof (a) / sizeof (a)[0])

/* The sizes from which the streaming reference is measured.  */
#define STREAM_FROM (256 * KiB)

/* 16 KiB: the size of the REP MOVSB aliasing cliff in notes/measurements.md.  */
#define DISTANCE_SIZE (16 * KiB)

static size_t
distances (long *v)
{
  size_t n = 0;
  if (!opt.quick)
    {
      for (long d = 0; d < 4096; d++)
	v[n++] = d;
      return n;
    }
  for (long d = 0; d < 80; d++)
    v[n++] = d;
  for (long d = 96; d < 4080; d += 64)
    v[n++] = d;
  for (long d = 4080; d < 4096; d++)
    v[n++] = d;
  return n;
}

/* ------------------------------------------------------------------ */
/* Distributions.  */

static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static int
csv_filter (const struct dirent *e)
{
  size_t n = strlen (e->d_name);
  return n > 4 && strcmp (e->d_name + n - 4, ".csv") == 0;
}

/* Where the distributions are looked for when neither --data nor
   FASTCOPY_BENCH_DATA names a directory, for messages.  FCB_SRCDATADIR is
   empty in a build that leaves the source path out.  */
static const char *
data_places_text (void)
{
  static char buf[2 * PATH_MAX];
  snprintf (buf, sizeof buf, "%s%s%s", FCB_PKGDATADIR,
	    *FCB_SRCDATADIR ? " and " : "", FCB_SRCDATADIR);
  return buf;
}

/* The directory of the distributions; NULL if there is none and
   REQUIRED is 0.  */
static const char *
find_data_dir (int required)
{
  const char *cand[] = { opt.data, getenv ("FASTCOPY_BENCH_DATA"),
			 FCB_PKGDATADIR, FCB_SRCDATADIR };
  for (size_t i = 0; i < N_OF (cand); i++)
    {
      if (cand[i] == NULL || *cand[i] == 0)
	continue;
      struct dirent **list;
      int n = scandir (cand[i], &list, csv_filter, alphasort);
      if (n < 0)
	{
	  if (i == 0)
	    die ("--data %s: %s", cand[i], strerror (errno));
	  continue;
	}
      for (int j = 0; j < n; j++)
	free (list[j]);
      free (list);
      if (n > 0)
	return cand[i];
      if (i == 0)
	die ("--data %s: no .csv files there", cand[i]);
    }
  if (!required)
    return NULL;
  die ("no distribution data found (looked in %s); use --data DIR",
       data_places_text ());
}

/* One line of probabilities for sizes 0..N-1, comma-separated.  */
static void
load_dist (struct dist *d, uint64_t seed)
{
  FILE *f = fopen (d->file, "r");
  if (f == NULL)
    die ("%s: %s", d->file, strerror (errno));
  size_t cap = 8192;
  double *p = malloc (cap * sizeof *p), sum = 0;
  size_t n = 0;
  if (p == NULL)
    die ("out of memory");
  for (;;)
    {
      int ch;
      while ((ch = getc (f)) != EOF && (ch == ',' || isspace (ch)))
	;
      if (ch == EOF)
	break;
      ungetc (ch, f);
      double v;
      if (fscanf (f, "%lf", &v) != 1 || !(v >= 0) || !isfinite (v))
	die ("%s: value %zu is not a probability", d->file, n);
      if (n == cap)
	{
	  p = realloc (p, (cap *= 2) * sizeof *p);
	  if (p == NULL)
	    die ("out of memory");
	}
      p[n++] = v;
    }
  fclose (f);
  if (n > 4097)
    die ("%s: %zu sizes; at most 4097 (0..4096) are supported", d->file, n);
  for (size_t i = 0; i < n; i++)
    sum += p[i], p[i] = sum;
  if (!(sum > 0))
    die ("%s: no size has a nonzero probability", d->file);
  d->cdf = p;
  d->nsizes = n;

  /* The call sequence: sizes from the distribution, src and dst anywhere
     in their buffers (so every alignment and every distance occurs).  */
  d->seq = malloc (opt.calls * sizeof *d->seq);
  if (d->seq == NULL)
    die ("out of memory");
  uint64_t st = seed;
  d->bytes = 0;
  for (unsigned int i = 0; i < opt.calls; i++)
    {
      double u = (double) (splitmix64 (&st) >> 11) * 0x1p-53 * sum;
      size_t lo = 0, hi = n - 1;
      while (lo < hi)
	{
	  size_t mid = (lo + hi) / 2;
	  if (p[mid] > u)
	    hi = mid;
	  else
	    lo = mid + 1;
	}
      size_t size = lo;
      uint64_t so = splitmix64 (&st) % (SEQ_BUF - size + 1);
      uint64_t dof = splitmix64 (&st) % (SEQ_BUF - size + 1);
      d->seq[i] = (uint64_t) size | so << 13 | dof << 33;
      d->bytes += size;
    }
}

/* Returns 0 if there is no data and REQUIRED is 0.  */
static int
load_dists (int required)
{
  const char *dir = find_data_dir (required);
  if (dir == NULL)
    return 0;
  struct dirent **list;
  int n = scandir (dir, &list, csv_filter, alphasort);
  if (n <= 0)
    die ("%s: no distributions", dir);
  dists = calloc ((size_t) n, sizeof *dists);
  if (dists == NULL)
    die ("out of memory");
  for (int i = 0; i < n; i++)
    {
      struct dist *d = &dists[ndists++];
      const char *name = list[i]->d_name;
      snprintf (d->file, sizeof d->file, "%s/%s", dir, name);
      if (strncmp (name, "Memcpy", 6) == 0 && name[6] != '.')
	name += 6;
      snprintf (d->name, sizeof d->name, "%.*s", (int) (strlen (name) - 4), name);
      /* Each file gets its own fixed sequence: the seed and its name.  */
      uint64_t seed = opt.seed;
      for (const char *c = d->name; *c; c++)
	seed = seed * 131 + (unsigned char) *c;
      load_dist (d, seed);
      free (list[i]);
    }
  free (list);
  return 1;
}

/* ------------------------------------------------------------------ */
/* Building the plan: every group and point, before anything runs, so
   that progress can count them.  */

static size_t
pool_bytes (void)
{
  if (opt.pool)
    return opt.pool;
  size_t l3 = lib.cpu ()->l3_size;
  if (l3 == 0)
    l3 = 32 * MiB;
  /* Full: four times the last-level cache, quick: twice.  */
  size_t p = (opt.quick ? 2 : 4) * l3;
  size_t floor_ = opt.quick ? 64 * MiB : 128 * MiB;
  return p > floor_ ? p : floor_;
}

static void
plan_hot (enum case_id cid, enum func f, const size_t *sizes, size_t n)
{
  static const char *const how[2] = {
    "src and dst page-aligned, (dst-src)%4096 = 0",
    "src at page+5, dst at page+3, (dst-src)%4096 = 4094" };
  for (int mis = 0; mis < 2; mis++)
    {
      struct group *g = new_group (cid, f, mis ? "misaligned" : "aligned", "hot",
				   X_SIZE, "%s, hot cache, %s (%s)", func_names[f],
				   mis ? "misaligned" : "aligned",
				   f == F_MEMCPY ? how[mis]
				   : mis ? "dst at page+3" : "dst page-aligned");
      for (size_t i = 0; i < n; i++)
	{
	  struct point *p = new_point (g, PT_FIXED, sizes[i], &csets[f]);
	  p->soff = mis ? MIS_SRC : 0;
	  p->doff = mis ? MIS_DST : 0;
	  p->distance = f == F_MEMCPY ? (mis ? 4094 : 0) : LONG_MIN;
	}
    }
}

static void
plan_memmove (void)
{
  for (int up = 0; up < 2; up++)
    {
      struct group *g = new_group (CASE_MEMMOVE_HOT, F_MEMMOVE, "aligned", "hot",
				   X_SIZE, "memmove, hot cache, overlapping, %s "
				   "(|dst-src| = size/2)",
				   up ? "dst > src (backward)" : "dst < src (forward)");
      for (size_t i = 0; i < N_OF (memmove_sizes); i++)
	{
	  size_t n = memmove_sizes[i], shift = n / 2;
	  struct point *p = new_point (g, PT_FIXED, n, &csets[F_MEMMOVE]);
	  /* One buffer holds both: the lower address at 0, the higher at
	     SHIFT.  */
	  p->soff = up ? 0 : shift;
	  p->doff = up ? shift : 0;
	  p->distance = up ? (long) shift : -(long) shift;
	}
    }
}

static void
plan_distance (void)
{
  struct group *g = new_group (CASE_MEMCPY_DISTANCE, F_MEMCPY, "aligned", "hot",
			       X_DISTANCE, "memcpy 16 KiB, hot cache, by "
			       "(dst-src) mod 4096 (src page-aligned)");
  long *d = malloc (4096 * sizeof *d);
  if (d == NULL)
    die ("out of memory");
  size_t n = distances (d);
  for (size_t i = 0; i < n; i++)
    {
      struct point *p = new_point (g, PT_FIXED, DISTANCE_SIZE, &csets[F_MEMCPY]);
      p->doff = (size_t) d[i];
      p->distance = d[i];
    }
  free (d);
}

static void
plan_dists (enum case_id cid, enum func f)
{
  struct group *g = new_group (cid, f, "random", "L2", X_DIST,
			       "%s call sequences from real-workload size "
			       "distributions (%u calls, random alignment, "
			       "%lu KiB buffers)", func_names[f], opt.calls,
			       SEQ_BUF / KiB);
  for (size_t i = 0; i < ndists; i++)
    {
      struct point *p = new_point (g, PT_SEQ, dists[i].bytes, &csets[f]);
      p->dist = &dists[i];
      p->distance = LONG_MIN;
    }
}

static void
plan_cold (enum case_id cid, enum func f)
{
  const size_t *sizes = opt.quick ? cold_sizes_quick : cold_sizes_full;
  size_t n = opt.quick ? N_OF (cold_sizes_quick) : N_OF (cold_sizes_full);
  struct group *g = new_group (cid, f, "aligned", "cold", X_SIZE,
			       "%s, cache-cold (%s cycled through a %zu MiB pool"
			       " in random order, aligned)", func_names[f],
			       f == F_MEMCPY ? "src and dst" : "dst",
			       pool_bytes () / MiB);
  for (size_t i = 0; i < n; i++)
    {
      struct point *p = new_point (g, PT_COLD, sizes[i],
				   sizes[i] >= STREAM_FROM ? &csets_wide[f]
				   : &csets[f]);
      p->distance = f == F_MEMCPY ? 0 : LONG_MIN;
    }
}

static void
plan (void)
{
  size_t sizes[256], n = hot_sizes (sizes, 4 * MiB);
  if (opt.cases & (1u << CASE_MEMCPY_HOT))
    plan_hot (CASE_MEMCPY_HOT, F_MEMCPY, sizes, n);
  if (opt.cases & (1u << CASE_MEMSET_HOT))
    plan_hot (CASE_MEMSET_HOT, F_MEMSET, sizes, n);
  if (opt.cases & (1u << CASE_BZERO_HOT))
    plan_hot (CASE_BZERO_HOT, F_BZERO, bzero_sizes, N_OF (bzero_sizes));
  if (opt.cases & (1u << CASE_MEMMOVE_HOT))
    plan_memmove ();
  if (opt.cases & (1u << CASE_MEMCPY_DISTANCE))
    plan_distance ();
  if (opt.cases & (1u << CASE_MEMCPY_DIST))
    plan_dists (CASE_MEMCPY_DIST, F_MEMCPY);
  if (opt.cases & (1u << CASE_MEMSET_DIST))
    plan_dists (CASE_MEMSET_DIST, F_MEMSET);
  if (opt.cases & (1u << CASE_MEMCPY_COLD))
    plan_cold (CASE_MEMCPY_COLD, F_MEMCPY);
  if (opt.cases & (1u << CASE_MEMSET_COLD))
    plan_cold (CASE_MEMSET_COLD, F_MEMSET);
  if (opt.cases & (1u << CASE_BZERO_COLD))
    plan_cold (CASE_BZERO_COLD, F_BZERO);
}

/* ------------------------------------------------------------------ */
/* Report: tables on stdout.  */

static const char *
fmt_time (char *buf, size_t len, double ns)
{
  if (ns < 1e4)
    snprintf (buf, len, "%.1f ns", ns);
  else if (ns < 1e7)
    snprintf (buf, len, "%.2f us", ns / 1e3);
  else
    snprintf (buf, len, "%.2f ms", ns / 1e6);
  return buf;
}

static double
ratio (const struct point *p, int k)
{
  return p->med[k] / p->med[0];
}

static void
table_header (const struct group *g)
{
  const struct cset *h = g->header;
  printf ("\n== %s ==\n", g->title);
  const char *first = g->xkind == X_DISTANCE ? "distance"
		      : g->xkind == X_DIST ? "distribution" : "size";
  printf ("%12s %12s %12s %7s |", first, "glibc", "libfastcopy", "ratio");
  for (int k = 2; k < h->n; k++)
    if (h->c[k].role == ROLE_VARIANT)
      printf (" %9s", h->c[k].label);
  if (strcmp (g->cache, "cold") == 0)
    printf (" | %10s %10s", "glibc GB/s", "fc GB/s");
  if (h->c[h->n - 1].role == ROLE_REFERENCE)
    printf (" %10s %9s", "ref GB/s", "fc % ref");
  putchar ('\n');
}

static void
table_row (const struct group *g, const struct point *p)
{
  const struct cset *h = g->header;
  char b1[80], b2[32], b3[32];
  if (g->xkind == X_DISTANCE)
    snprintf (b1, sizeof b1, "%ld", p->distance);
  else if (g->xkind == X_DIST)
    snprintf (b1, sizeof b1, "%s", p->dist->name);
  else if (p->size < 16 * KiB)
    snprintf (b1, sizeof b1, "%zu", p->size);
  else
    fcb_format_size (b1, sizeof b1, (double) p->size);
  printf ("%12s %12s %12s %7.3f |", b1, fmt_time (b2, sizeof b2, p->med[0]),
	  fmt_time (b3, sizeof b3, p->med[1]), ratio (p, 1));
  for (int k = 2; k < h->n; k++)
    if (h->c[k].role == ROLE_VARIANT)
      printf (" %9.3f", ratio (p, k));
  double size = (double) p->size;
  if (strcmp (g->cache, "cold") == 0)
    printf (" | %10.2f %10.2f", size / p->med[0], size / p->med[1]);
  if (h->c[h->n - 1].role == ROLE_REFERENCE)
    {
      int r = p->cs->n - 1;
      if (p->cs->c[r].role == ROLE_REFERENCE)
	printf (" %10.2f %8.0f%%", size / p->med[r],
		100 * p->med[r] / p->med[1]);
      else
	printf (" %10s %9s", "-", "-");
    }
  putchar ('\n');
}

static double
geomean_ratio (const struct group *g, int k, size_t lo, size_t hi)
{
  double s = 0;
  size_t n = 0;
  for (size_t i = g->first; i < g->first + g->count; i++)
    if (points[i].done && points[i].size >= lo && points[i].size <= hi)
      s += log (ratio (&points[i], k)), n++;
  return n ? exp (s / (double) n) : NAN;
}

/* The distance sweep has up to 4096 rows: print those near the cliff and
   summarise the rest.  */
static int
distance_row_shown (long d)
{
  return d < 80 || d >= 4080 || d % 512 == 0;
}

static void
print_group (const struct group *g)
{
  table_header (g);
  const struct cset *h = g->header;
  for (size_t i = g->first; i < g->first + g->count; i++)
    if (points[i].done
	&& (g->xkind != X_DISTANCE || distance_row_shown (points[i].distance)))
      table_row (g, &points[i]);

  if (g->xkind == X_DIST)
    {
      printf ("%12s %12s %12s %7.3f |", "geomean", "", "",
	      geomean_ratio (g, 1, 0, SIZE_MAX));
      for (int k = 2; k < h->n; k++)
	printf (" %9.3f", geomean_ratio (g, k, 0, SIZE_MAX));
      putchar ('\n');
      size_t calls = 0, bytes = 0;
      for (size_t i = g->first; i < g->first + g->count; i++)
	calls += opt.calls, bytes += points[i].size;
      printf ("(times are per whole sequence of %u calls; mean size %.0f B)\n",
	      opt.calls, calls ? (double) bytes / (double) calls : 0);
    }
  if (g->xkind == X_DISTANCE)
    for (int k = 0; k < h->n; k++)
      {
	/* Outside the shown rows: the worst ratio and the median time.  */
	double worst = 0, *t = malloc (g->count * sizeof *t);
	long worst_d = -1;
	if (t == NULL)
	  die ("out of memory");
	unsigned int m = 0;
	for (size_t i = g->first; i < g->first + g->count; i++)
	  {
	    const struct point *p = &points[i];
	    if (!p->done || distance_row_shown (p->distance))
	      continue;
	    t[m++] = p->med[k];
	    if (ratio (p, k) > worst)
	      worst = ratio (p, k), worst_d = p->distance;
	  }
	if (m > 0)
	  {
	    char b[32];
	    if (k == 0)
	      printf ("other distances (%u, 80..4079):\n", m);
	    printf ("  %-12s median %s, worst ratio %.3f at %ld\n", h->c[k].label,
		    fmt_time (b, sizeof b, median (t, m)), worst, worst_d);
	  }
	free (t);
      }
  fflush (stdout);
}

/* ------------------------------------------------------------------ */
/* Running.  */

static size_t progress_done;

static void
progress (const struct group *g, const struct point *p)
{
  if (!progress_on)
    return;
  char b[80];
  if (g->xkind == X_DISTANCE)
    snprintf (b, sizeof b, "distance %ld", p->distance);
  else if (g->xkind == X_DIST)
    snprintf (b, sizeof b, "%s", p->dist->name);
  else
    fcb_format_size (b, sizeof b, (double) p->size);
  fprintf (stderr, "\r\033[K[%zu/%zu] %s %s %s %s", progress_done + 1, npoints,
	   func_names[g->func], g->cache, g->align, b);
}

static void
run_group (struct group *g, unsigned int rounds, double time_ms)
{
  for (size_t i = g->first; i < g->first + g->count; i++)
    {
      progress (g, &points[i]);
      measure (&points[i], rounds, time_ms);
      progress_done++;
    }
}

/* A random order of N slot numbers, fixed by the seed.  */
static uint32_t *
shuffled (size_t n)
{
  uint32_t *v = malloc (n * sizeof *v);
  if (v == NULL)
    die ("out of memory");
  uint64_t st = opt.seed ^ n;
  for (size_t i = 0; i < n; i++)
    v[i] = (uint32_t) i;
  for (size_t i = n - 1; i > 0; i--)
    {
      size_t j = splitmix64 (&st) % (i + 1);
      uint32_t t = v[i];
      v[i] = v[j];
      v[j] = t;
    }
  return v;
}

static void
run_case (enum case_id cid, unsigned int rounds, double time_ms)
{
  for (size_t gi = 0; gi < ngroups; gi++)
    {
      struct group *g = &groups[gi];
      if (g->cid != cid)
	continue;
      int copy = g->func == F_MEMCPY || g->func == F_MEMMOVE;
      size_t max = 0;
      for (size_t i = g->first; i < g->first + g->count; i++)
	if (points[i].size > max)
	  max = points[i].size;

      size_t sbytes = 0, dbytes = 0;
      char *sbuf = NULL, *dbuf = NULL;
      switch (g->xkind == X_DIST ? PT_SEQ : points[g->first].type)
	{
	case PT_FIXED:
	  if (g->func == F_MEMMOVE)
	    dbytes = max + max / 2 + 2 * PAGE;
	  else
	    {
	      dbytes = max + 2 * PAGE;
	      sbytes = copy ? max + 2 * PAGE : 0;
	    }
	  break;
	case PT_SEQ:
	  dbytes = SEQ_BUF + PAGE;
	  sbytes = copy ? SEQ_BUF + PAGE : 0;
	  break;
	case PT_COLD:
	  {
	    /* Each size cycles through max(pool, size) bytes per buffer,
	       cut into back-to-back slots (64-byte aligned, page-aligned
	       from 4 KiB) visited in a random order that defeats the
	       prefetchers.  A slot comes back only after the whole pool was
	       touched; a size of the pool or more is one slot that evicts
	       itself.  */
	    size_t pool = pool_bytes () / (copy ? 2 : 1);
	    dbytes = (max > pool ? max : pool) + PAGE;
	    sbytes = copy ? dbytes : 0;
	    for (size_t i = g->first; i < g->first + g->count; i++)
	      {
		struct point *p = &points[i];
		size_t span = p->size > pool ? p->size : pool;
		size_t unit = p->size >= PAGE ? PAGE : 64;
		p->stride = (p->size + unit - 1) / unit * unit;
		if (p->stride == 0)
		  p->stride = unit;
		p->nslots = span / p->stride;
		if (p->nslots == 0)
		  p->nslots = 1;
		p->order = shuffled (p->nslots);
	      }
	  }
	  break;
	}
      dbuf = map (dbytes);
      sbuf = sbytes ? map (sbytes) : NULL;
      g->dbase = dbuf;
      g->sbase = g->func == F_MEMMOVE ? dbuf : sbuf;

      run_group (g, rounds, time_ms);

      for (size_t i = g->first; i < g->first + g->count; i++)
	{
	  free (points[i].order);
	  points[i].order = NULL;
	}
      unmap (dbuf, dbytes);
      unmap (sbuf, sbytes);
      g->dbase = NULL;
      g->sbase = NULL;
      if (progress_on)
	fputs ("\r\033[K", stderr);
      print_group (g);
    }
}

/* ------------------------------------------------------------------ */
/* CSV.  */

static void
write_csv (const char *path)
{
  FILE *f = strcmp (path, "-") == 0 ? stdout : fopen (path, "w");
  if (f == NULL)
    die ("%s: %s", path, strerror (errno));
  fputs ("case,function,size,alignment,distance,cache,contender,median_ns,"
	 "bytes_per_ns,ratio_vs_glibc\n", f);
  for (size_t i = 0; i < npoints; i++)
    {
      const struct point *p = &points[i];
      const struct group *g = &groups[p->group];
      if (!p->done)
	continue;
      for (int k = 0; k < p->cs->n; k++)
	{
	  if (p->type == PT_SEQ)
	    fprintf (f, "%s:%s,", cases[g->cid].name, p->dist->name);
	  else
	    fprintf (f, "%s,", cases[g->cid].name);
	  fprintf (f, "%s,%zu,%s,", func_names[g->func], p->size, g->align);
	  if (p->distance != LONG_MIN)
	    fprintf (f, "%ld", p->distance);
	  fprintf (f, ",%s,%s,%.3f,%.4f,%.4f\n", g->cache, p->cs->c[k].label,
		   p->med[k], p->med[k] > 0 ? (double) p->size / p->med[k] : 0,
		   ratio (p, k));
	}
    }
  if (f != stdout ? fclose (f) != 0 : fflush (f) != 0)
    die ("%s: %s", path, strerror (errno));
}

/* ------------------------------------------------------------------ */
/* SVG.  */

static const char *
svg_xlabel (const struct group *g)
{
  return g->xkind == X_DISTANCE ? "(dst - src) mod 4096, log scale; from 128: "
				  "median of each 64"
	 : g->xkind == X_DIST ? "distribution" : "size (log scale)";
}

/* From this distance on, the distance chart draws the median of each bin
   of DISTANCE_BIN distances rather than thousands of noisy points; the
   table and the CSV have every point.  */
#define DISTANCE_BIN_FROM 128
#define DISTANCE_BIN 64

static void
distance_bins (const struct group *g, int k, struct fcb_series *s)
{
  double t[DISTANCE_BIN];
  for (long lo = DISTANCE_BIN_FROM; lo < 4096; lo += DISTANCE_BIN)
    {
      unsigned int m = 0;
      for (size_t i = g->first; i < g->first + g->count; i++)
	{
	  const struct point *p = &points[i];
	  if (p->done && k < p->cs->n && p->distance >= lo
	      && p->distance < lo + DISTANCE_BIN)
	    t[m++] = p->med[k];
	}
      if (m == 0)
	continue;
      s->x[s->n] = (double) lo + DISTANCE_BIN / 2;
      s->y[s->n++] = median (t, m);
    }
}

static void
write_svg (const char *path, const char *subtitle)
{
  struct fcb_chart *charts = calloc (ngroups, sizeof *charts);
  size_t nch = 0;
  if (charts == NULL)
    die ("out of memory");
  for (size_t gi = 0; gi < ngroups; gi++)
    {
      const struct group *g = &groups[gi];
      const struct cset *h = g->header;
      struct fcb_chart *c = &charts[nch++];
      c->title = g->title;
      c->xlabel = svg_xlabel (g);
      c->nseries = (size_t) h->n;
      c->series = calloc ((size_t) h->n, sizeof *c->series);
      if (c->series == NULL)
	die ("out of memory");
      if (g->xkind == X_DIST)
	{
	  c->kind = FCB_CHART_BARS;
	  c->ylabel = "time / glibc time (lower is faster)";
	  c->refline = 1;
	  c->ncats = g->count;
	  c->cats = calloc (g->count, sizeof *c->cats);
	  if (c->cats == NULL)
	    die ("out of memory");
	  for (size_t i = 0; i < g->count; i++)
	    c->cats[i] = points[g->first + i].dist->name;
	}
      else
	{
	  /* Sizes: bandwidth, which spreads the contenders further apart
	     than time over seven decades.  Distances: time, on a log2
	     axis that gives the cliff at 1..63 room (distance 0 is in the
	     table and the CSV).  */
	  c->kind = g->xkind == X_SIZE ? FCB_CHART_SIZE : FCB_CHART_LOG2;
	  c->ylog = 1;
	  c->ylabel = g->xkind == X_SIZE ? "bandwidth, GB/s (log scale)"
		      : "time per call, ns (log scale)";
	}
      /* The chart titles drop the last parenthesis, the table has it.  */
      char *t = strdup (g->title), *paren = NULL;
      if (t == NULL)
	die ("out of memory");
      for (char *q = t; (q = strstr (q, " (")) != NULL; q++)
	paren = q;
      if (paren != NULL)
	*paren = 0;
      c->title = t;
      for (int k = 0; k < h->n; k++)
	{
	  struct fcb_series *s = &c->series[k];
	  s->label = h->c[k].label;
	  s->style = h->c[k].role == ROLE_GLIBC ? FCB_STYLE_GLIBC
		     : h->c[k].role == ROLE_FASTCOPY ? FCB_STYLE_FASTCOPY
		     : h->c[k].role == ROLE_VARIANT ? FCB_STYLE_VARIANT
		     : FCB_STYLE_REFERENCE;
	  s->x = calloc (g->count, sizeof *s->x);
	  s->y = calloc (g->count, sizeof *s->y);
	  if (s->x == NULL || s->y == NULL)
	    die ("out of memory");
	  for (size_t i = 0; i < g->count; i++)
	    {
	      const struct point *p = &points[g->first + i];
	      if (!p->done || k >= p->cs->n)
		continue;
	      if (g->xkind == X_DISTANCE && p->distance >= DISTANCE_BIN_FROM)
		continue;
	      s->x[s->n] = g->xkind == X_DISTANCE ? (double) p->distance
			   : (double) p->size;
	      s->y[s->n] = g->xkind == X_DIST ? ratio (p, k)
			   : g->xkind == X_SIZE ? (double) p->size / p->med[k]
			   : p->med[k];
	      if (g->xkind == X_DIST)
		s->n = i + 1;
	      else
		s->n++;
	    }
	  if (g->xkind == X_DISTANCE)
	    distance_bins (g, k, s);
	}
    }

  FILE *f = fopen (path, "w");
  if (f == NULL)
    die ("%s: %s", path, strerror (errno));
  char title[128];
  snprintf (title, sizeof title, "fastcopy-bench: libfastcopy %s vs glibc %s",
	    lib.version (), gnu_get_libc_version ());
  if (fcb_svg_write (f, title, subtitle, charts, nch) != 0 || fclose (f) != 0)
    die ("%s: write error", path);
  for (size_t i = 0; i < nch; i++)
    {
      for (size_t k = 0; k < charts[i].nseries; k++)
	free (charts[i].series[k].x), free (charts[i].series[k].y);
      free (charts[i].series);
      free (charts[i].cats);
      free ((char *) charts[i].title);
    }
  free (charts);
}

/* ------------------------------------------------------------------ */
/* Summary: the project's targets, each with the measured value.  */

static int targets_met, targets_missed, targets_unmeasured;

static void
target (const char *what, const char *measured, const char *goal, int state)
{
  /* state: 1 met, 0 missed, -1 not measured */
  printf ("%-52s %-24s %-10s %s\n", what, measured, goal,
	  state > 0 ? "yes" : state == 0 ? "NO" : "-");
  if (state > 0)
    targets_met++;
  else if (state == 0)
    targets_missed++;
  else
    targets_unmeasured++;
}

static const struct group *
find_group (enum case_id cid, const char *align)
{
  for (size_t i = 0; i < ngroups; i++)
    if (groups[i].cid == cid && (align == NULL || strcmp (groups[i].align, align) == 0)
	&& groups[i].count > 0 && points[groups[i].first].done)
      return &groups[i];
  return NULL;
}

/* The worst libfastcopy ratio over the points of G whose size (or
   distance, for the distance sweep) is in [LO, HI].  */
static double
worst (const struct group *g, double lo, double hi, const struct point **at)
{
  double w = NAN;
  *at = NULL;
  for (size_t i = g->first; i < g->first + g->count; i++)
    {
      const struct point *p = &points[i];
      double x = g->xkind == X_DISTANCE ? (double) p->distance : (double) p->size;
      if (!p->done || x < lo || x > hi)
	continue;
      if (*at == NULL || ratio (p, 1) > w)
	w = ratio (p, 1), *at = p;
    }
  return w;
}

static void
summary_dists (enum case_id cid, const char *fn, double each, double gmean)
{
  const struct group *g = find_group (cid, NULL);
  char what[80], m[40], goal[16];
  if (g == NULL)
    {
      snprintf (what, sizeof what, "%s distributions", fn);
      target (what, "not measured", "", -1);
      return;
    }
  for (size_t i = g->first; i < g->first + g->count; i++)
    {
      const struct point *p = &points[i];
      snprintf (what, sizeof what, "%s distribution %s", fn, p->dist->name);
      snprintf (m, sizeof m, "%.3f", ratio (p, 1));
      snprintf (goal, sizeof goal, "<= %.2f", each);
      target (what, m, goal, ratio (p, 1) <= each);
    }
  double gm = geomean_ratio (g, 1, 0, SIZE_MAX);
  snprintf (what, sizeof what, "%s distributions, geometric mean", fn);
  snprintf (m, sizeof m, "%.3f", gm);
  snprintf (goal, sizeof goal, "<= %.2f", gmean);
  target (what, m, goal, gm <= gmean);
}

static void
summary_fixed (enum case_id cid, const char *fn, const char *align)
{
  const struct group *g = find_group (cid, align);
  char what[80], m[48];
  snprintf (what, sizeof what, "%s hot 0-2048 B %s: geomean", fn, align);
  if (g == NULL)
    {
      target (what, "not measured", "", -1);
      return;
    }
  double gm = geomean_ratio (g, 1, 0, 2048);
  snprintf (m, sizeof m, "%.3f", gm);
  target (what, m, "<= 1.05", gm <= 1.05);
  const struct point *at;
  double w = worst (g, 0, 2048, &at);
  snprintf (what, sizeof what, "%s hot 0-2048 B %s: worst size", fn, align);
  snprintf (m, sizeof m, "%.3f at %zu B", w, at->size);
  target (what, m, "<= 1.25", w <= 1.25);
}

/* Worst ratio over the cold points of [LO, HI] bytes in the listed cases.  */
static void
summary_cold (const char *what, const enum case_id *cid, int ncid, double goal)
{
  double w = NAN;
  const struct point *at = NULL;
  size_t lo = 32 * MiB, hi = 256 * MiB, seen_hi = 0;
  const char *fn = NULL;
  for (int i = 0; i < ncid; i++)
    {
      const struct group *g = find_group (cid[i], NULL);
      if (g == NULL)
	continue;
      const struct point *p;
      double r = worst (g, (double) lo, (double) hi, &p);
      for (size_t j = g->first; j < g->first + g->count; j++)
	if (points[j].done && points[j].size <= hi && points[j].size > seen_hi)
	  seen_hi = points[j].size;
      if (p != NULL && (at == NULL || r > w))
	w = r, at = p, fn = func_names[g->func];
    }
  char m[64], gl[16], full[96], b1[16], b2[16];
  snprintf (gl, sizeof gl, "<= %.2f", goal);
  if (at == NULL)
    {
      target (what, "not measured", gl, -1);
      return;
    }
  snprintf (full, sizeof full, "%s (measured %s-%s)", what,
	    fcb_format_size (b1, sizeof b1, (double) lo),
	    fcb_format_size (b2, sizeof b2, (double) seen_hi));
  snprintf (m, sizeof m, "%.3f at %s %s", w, fn,
	    fcb_format_size (b1, sizeof b1, (double) at->size));
  target (full, m, gl, w <= goal);
}

static void
summary_stream (void)
{
  static const enum case_id cid[] = { CASE_MEMCPY_COLD, CASE_MEMSET_COLD,
				      CASE_BZERO_COLD };
  int any = 0;
  for (int i = 0; i < 3; i++)
    {
      const struct group *g = find_group (cid[i], NULL);
      if (g == NULL)
	continue;
      for (size_t j = g->first; j < g->first + g->count; j++)
	{
	  const struct point *p = &points[j];
	  int r = p->cs->n - 1;
	  if (!p->done || p->size < 32 * MiB || p->cs->c[r].role != ROLE_REFERENCE)
	    continue;
	  if (!any++)
	    printf ("\nLarge cache-cold calls against the streaming reference "
		    "(ref:stream, AVX2 non-temporal stores):\n");
	  char b[16];
	  printf ("  %-7s %8s  glibc %6.2f GB/s (%3.0f%%)  libfastcopy %6.2f GB/s"
		  " (%3.0f%%)  ref %6.2f GB/s\n", func_names[g->func],
		  fcb_format_size (b, sizeof b, (double) p->size),
		  (double) p->size / p->med[0], 100 * p->med[r] / p->med[0],
		  (double) p->size / p->med[1], 100 * p->med[r] / p->med[1],
		  (double) p->size / p->med[r]);
	}
    }
}

static void
summary (void)
{
  printf ("\n== Summary: targets (ratio = libfastcopy's exported function time"
	  " / glibc time) ==\n");
  printf ("%-52s %-24s %-10s %s\n", "target", "measured", "goal", "met");
  summary_dists (CASE_MEMCPY_DIST, "memcpy", 0.90, 0.80);
  summary_dists (CASE_MEMSET_DIST, "memset", 1.00, 0.95);
  summary_fixed (CASE_MEMCPY_HOT, "memcpy", "aligned");
  summary_fixed (CASE_MEMCPY_HOT, "memcpy", "misaligned");
  summary_fixed (CASE_MEMSET_HOT, "memset", "aligned");
  summary_fixed (CASE_MEMSET_HOT, "memset", "misaligned");

  const struct group *g = find_group (CASE_MEMCPY_HOT, "aligned");
  const struct point *at;
  char m[48];
  if (g != NULL && !isnan (worst (g, 2048, 8192, &at)))
    {
      double w = worst (g, 2048, 8192, &at);
      snprintf (m, sizeof m, "%.3f at %zu B", w, at->size);
      target ("memcpy hot 2-8 KiB aligned: worst size", m, "<= 0.90", w <= 0.90);
    }
  else
    target ("memcpy hot 2-8 KiB aligned: worst size", "not measured", "<= 0.90", -1);

  g = find_group (CASE_MEMCPY_DISTANCE, NULL);
  if (g != NULL)
    {
      double w = worst (g, 1, 15, &at);
      snprintf (m, sizeof m, "%.3f at %ld", w, at->distance);
      target ("memcpy 16 KiB, (dst-src)%4096 in 1..15: worst", m, "<= 0.15",
	      w <= 0.15);
      w = worst (g, 16, 63, &at);
      snprintf (m, sizeof m, "%.3f at %ld", w, at->distance);
      target ("memcpy 16 KiB, (dst-src)%4096 in 16..63: worst", m, "<= 1.00",
	      w <= 1.00);
    }
  else
    target ("memcpy 16 KiB by (dst-src)%4096", "not measured", "", -1);

  static const enum case_id copy_cold[] = { CASE_MEMCPY_COLD };
  static const enum case_id set_cold[] = { CASE_MEMSET_COLD, CASE_BZERO_COLD };
  summary_cold ("memcpy cold", copy_cold, 1, 0.65);
  summary_cold ("memset/bzero cold", set_cold, 2, 0.90);
  printf ("%d met, %d missed, %d not measured\n", targets_met, targets_missed,
	  targets_unmeasured);
  summary_stream ();
}

/* ------------------------------------------------------------------ */
/* Main.  */

static void
help (void)
{
  printf ("Usage: fastcopy-bench [OPTION]...\n"
	  "Compare libfastcopy's memcpy, memmove, memset and bzero, and every usable\n"
	  "implementation in its table, with the system glibc's, in one process.\n\n"
	  "  -q, --quick        short run (under a minute): fewer sizes, rounds and\n"
	  "                     distances, smaller cold pool, sizes up to 64 MiB\n"
	  "  -c, --case LIST    comma-separated cases or groups to run (default: all)\n"
	  "  -r, --rounds N     interleaved rounds per point (default 7; quick 3)\n"
	  "  -t, --time MS      target length of one sample in ms (default 2; quick 1)\n"
	  "      --csv FILE     write every measurement as CSV ('-': stdout)\n"
	  "      --svg FILE     write charts as SVG\n"
	  "      --lib PATH     libfastcopy.so.1 to measure (default: the one linked)\n"
	  "      --data DIR     size distributions (*.csv) directory\n"
	  "      --calls N      calls per distribution sequence (default 65536)\n"
	  "      --seed N       seed of the sequences and the cold slot order (default 1)\n"
	  "      --pool MIB     cache-cold pool size in MiB (default 4x L3, quick 2x)\n"
	  "      --cpu N        pin to CPU N (default: the most idle CPU)\n"
	  "      --no-pin       do not pin to a CPU\n"
	  "      --strict       exit with status 3 if a target is missed\n"
	  "      --quiet        no progress on stderr\n"
	  "  -l, --list         list cases, groups and contenders, then exit\n"
	  "  -h, --help         this help\n"
	  "  -V, --version      version\n\n"
	  "Cases:\n");
  for (int i = 0; i < CASE_COUNT; i++)
    printf ("  %-16s %s\n", cases[i].name, cases[i].help);
  printf ("Groups:");
  for (size_t i = 0; i < N_OF (case_groups); i++)
    printf (" %s", case_groups[i].name);
  printf ("\n\nRatios are contender time / glibc time: below 1.00 is faster.\n"
	  "See fastcopy-bench(1).\n");
}

static unsigned long long
number (const char *s, const char *what, unsigned long long lo,
	unsigned long long hi)
{
  char *end;
  errno = 0;
  if (*s == '-' || *s == 0)
    usage_error ("%s: '%s' is not a number", what, s);
  unsigned long long v = strtoull (s, &end, 10);
  if (errno != 0 || *end != 0)
    usage_error ("%s: '%s' is not a number", what, s);
  if (v < lo || v > hi)
    usage_error ("%s: %llu is out of range (%llu to %llu)", what, v, lo, hi);
  return v;
}

static double
milliseconds (const char *s)
{
  char *end;
  errno = 0;
  double v = strtod (s, &end);
  if (errno != 0 || *end != 0 || end == s || !(v >= 0.01 && v <= 10000))
    usage_error ("--time: '%s' is not a number of milliseconds in 0.01..10000", s);
  return v;
}

static void
list (void)
{
  printf ("cases:\n");
  for (int i = 0; i < CASE_COUNT; i++)
    printf ("  %-16s %s\n", cases[i].name, cases[i].help);
  printf ("groups:\n");
  for (size_t i = 0; i < N_OF (case_groups); i++)
    {
      printf ("  %-16s", case_groups[i].name);
      for (int c = 0; c < CASE_COUNT; c++)
	if (case_groups[i].mask & (1u << c))
	  printf (" %s", cases[c].name);
      putchar ('\n');
    }
  printf ("contenders:\n");
  for (int f = 0; f < F_COUNT; f++)
    {
      printf ("  %-8s", func_names[f]);
      for (int k = 0; k < csets_wide[f].n; k++)
	printf (" %s", csets_wide[f].c[k].label);
      putchar ('\n');
    }
}

/* Idle ticks per CPU from /proc/stat into IDLE[CPU_SETSIZE]; 0 on
   success.  */
static int
idle_ticks (unsigned long long *idle)
{
  FILE *f = fopen ("/proc/stat", "r");
  if (f == NULL)
    return -1;
  char line[512];
  while (fgets (line, sizeof line, f) != NULL)
    {
      int cpu;
      unsigned long long v[5];
      if (sscanf (line, "cpu%d %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
		  &v[2], &v[3], &v[4]) == 6 && cpu >= 0 && cpu < CPU_SETSIZE)
	idle[cpu] = v[3] + v[4];
    }
  fclose (f);
  return 0;
}

/* The allowed CPU that was idle longest over the last 100 ms: on a shared
   machine, the one least likely to preempt the benchmark.  */
static int
idlest_cpu (void)
{
  static unsigned long long a[CPU_SETSIZE], b[CPU_SETSIZE];
  cpu_set_t allowed;
  if (sched_getaffinity (0, sizeof allowed, &allowed) != 0 || idle_ticks (a) != 0)
    return sched_getcpu ();
  struct timespec ts = { 0, 100 * 1000 * 1000 };
  nanosleep (&ts, NULL);
  if (idle_ticks (b) != 0)
    return sched_getcpu ();
  int best = -1;
  for (int c = 0; c < CPU_SETSIZE; c++)
    if (CPU_ISSET (c, &allowed) && (best < 0 || b[c] - a[c] > b[best] - a[best]))
      best = c;
  return best >= 0 ? best : sched_getcpu ();
}

static int
pin (void)
{
  if (!opt.pin)
    return -1;
  int cpu = opt.cpu >= 0 ? opt.cpu : idlest_cpu ();
  if (cpu < 0)
    return -1;
  cpu_set_t set;
  CPU_ZERO (&set);
  CPU_SET (cpu, &set);
  if (sched_setaffinity (0, sizeof set, &set) != 0)
    {
      if (opt.cpu >= 0)
	fprintf (stderr, "fastcopy-bench: cannot pin to CPU %d: %s; running "
		 "unpinned\n", cpu, strerror (errno));
      return -1;
    }
  return cpu;
}

int
main (int argc, char **argv)
{
  enum { O_CSV = 256, O_SVG, O_LIB, O_DATA, O_CALLS, O_SEED, O_POOL, O_CPU,
	 O_NOPIN, O_STRICT, O_QUIET };
  static const struct option longopts[] = {
    { "quick", no_argument, NULL, 'q' },
    { "case", required_argument, NULL, 'c' },
    { "rounds", required_argument, NULL, 'r' },
    { "time", required_argument, NULL, 't' },
    { "csv", required_argument, NULL, O_CSV },
    { "svg", required_argument, NULL, O_SVG },
    { "lib", required_argument, NULL, O_LIB },
    { "data", required_argument, NULL, O_DATA },
    { "calls", required_argument, NULL, O_CALLS },
    { "seed", required_argument, NULL, O_SEED },
    { "pool", required_argument, NULL, O_POOL },
    { "cpu", required_argument, NULL, O_CPU },
    { "no-pin", no_argument, NULL, O_NOPIN },
    { "strict", no_argument, NULL, O_STRICT },
    { "quiet", no_argument, NULL, O_QUIET },
    { "list", no_argument, NULL, 'l' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  int do_list = 0;
  opterr = 0;
  for (;;)
    {
      int o = getopt_long (argc, argv, ":qc:r:t:lhV", longopts, NULL);
      if (o == -1)
	break;
      switch (o)
	{
	case 'q': opt.quick = 1; break;
	case 'c': opt.cases |= parse_cases (optarg); break;
	case 'r': opt.rounds = (unsigned int) number (optarg, "--rounds", 1, MAX_ROUNDS); break;
	case 't': opt.time_ms = milliseconds (optarg); break;
	case O_CSV: opt.csv = optarg; break;
	case O_SVG: opt.svg = optarg; break;
	case O_LIB: opt.lib = optarg; break;
	case O_DATA: opt.data = optarg; break;
	case O_CALLS: opt.calls = (unsigned int) number (optarg, "--calls", 1, 1u << 24); break;
	case O_SEED: opt.seed = number (optarg, "--seed", 0, ULLONG_MAX); break;
	case O_POOL: opt.pool = number (optarg, "--pool", 1, 1u << 20) * MiB; break;
	case O_CPU: opt.cpu = (int) number (optarg, "--cpu", 0, CPU_SETSIZE - 1); break;
	case O_NOPIN: opt.pin = 0; break;
	case O_STRICT: opt.strict = 1; break;
	case O_QUIET: opt.quiet = 1; break;
	case 'l': do_list = 1; break;
	case 'h': help (); return 0;
	case 'V':
	  printf ("fastcopy-bench (libfastcopy) %s\n", fastcopy_version ());
	  return 0;
	case ':':
	  usage_error ("option '%s' needs an argument", argv[optind - 1]);
	default:
	  if (optopt)
	    usage_error ("unknown option '-%c'", optopt);
	  usage_error ("unknown option '%s'", argv[optind - 1]);
	}
    }
  if (optind < argc)
    usage_error ("unexpected argument '%s'", argv[optind]);
  int all = opt.cases == 0;
  if (all)
    opt.cases = (1u << CASE_COUNT) - 1;
  unsigned int rounds = opt.rounds ? opt.rounds : opt.quick ? 3 : 7;
  double time_ms = opt.time_ms ? opt.time_ms : opt.quick ? 1 : 2;
  progress_on = !opt.quiet && isatty (2);

  open_libraries ();
  build_contenders ();
  if (do_list)
    {
      list ();
      return 0;
    }
  verify_contenders ();
  const unsigned int dist_cases = (1u << CASE_MEMCPY_DIST) | (1u << CASE_MEMSET_DIST);
  if ((opt.cases & dist_cases) && !load_dists (!all))
    {
      fprintf (stderr, "fastcopy-bench: no distribution data found (looked in "
	       "%s); skipping the distributions (use --data DIR)\n",
	       data_places_text ());
      opt.cases &= ~dist_cases;
    }
  int cpu = pin ();
  plan ();

  const struct fastcopy_cpu *c = lib.cpu ();
  char l1[16], l2[16], l3[16], subtitle[512];
  printf ("fastcopy-bench %s, %s mode: %u rounds, %.2g ms per sample\n",
	  fastcopy_version (), opt.quick ? "quick" : "full", rounds, time_ms);
  printf ("glibc       %s  %s\n", gnu_get_libc_version (), lib.libc_path);
  printf ("libfastcopy %s  %s\n", lib.version (), lib.fc_path);
  printf ("CPU         %s family %u model %u; L1d %s, L2 %s, L3 %s; ",
	  c->vendor, c->family, c->model,
	  fcb_format_size (l1, sizeof l1, (double) c->l1d_size),
	  fcb_format_size (l2, sizeof l2, (double) c->l2_size),
	  fcb_format_size (l3, sizeof l3, (double) c->l3_size));
  if (cpu >= 0)
    printf ("pinned to CPU %d\n", cpu);
  else
    printf ("not pinned\n");
  for (int f = 0; f < F_COUNT; f++)
    {
      const struct fastcopy_choice *ch = lib.selected (func_names[f]);
      printf ("%-11s libfastcopy uses %s: %s\n", func_names[f],
	      ch && ch->impl ? ch->impl->name : "?", ch && ch->reason ? ch->reason : "?");
    }
  printf ("contenders  glibc = libc.so.6's own function (dlsym), libfastcopy ="
	  " the exported\n            function (dlsym), fc:NAME = table entry "
	  "called directly%s\n", fcb_stream_usable ()
	  ? ",\n            ref:stream = AVX2 streaming-store loop (cold, >= 256 KiB)"
	  : "");
  printf ("ratio       contender time / glibc time (below 1 is faster)\n");
  fflush (stdout);
  snprintf (subtitle, sizeof subtitle, "%s family %u model %u, L3 %s; %s mode, "
	    "median of %u interleaved rounds; libfastcopy = exported function,"
	    " fc:NAME = table entry", c->vendor, c->family, c->model, l3,
	    opt.quick ? "quick" : "full", rounds);

  uint64_t t0 = now_ns ();
  for (int cid = 0; cid < CASE_COUNT; cid++)
    {
      if (!(opt.cases & (1u << cid)))
	continue;
      /* The distance sweep has thousands of points: at most 5 rounds of
	 short samples there (a short sample is also less likely to be hit
	 by preemption), enough for a cliff of 10x and more.  */
      if (cid == CASE_MEMCPY_DISTANCE)
	run_case (cid, rounds > 5 ? 5 : rounds, time_ms / 8);
      else
	run_case (cid, rounds, time_ms);
    }
  summary ();
  printf ("\n(measured in %.1f s; %lu samples, %lu retaken after a context "
	  "switch%s)\n", (double) (now_ns () - t0) / 1e9, samples_taken,
	  samples_retaken, samples_retaken > samples_taken / 20
	  ? ": the machine is busy, expect noise" : "");

  if (opt.csv)
    write_csv (opt.csv);
  if (opt.svg)
    write_svg (opt.svg, subtitle);
  if (opt.strict && targets_missed > 0)
    return 3;
  return 0;
}
