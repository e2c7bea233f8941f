/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: the cases (what each measures, the groups of cases that
   --case accepts) and the plan: every group and point of the chosen cases,
   made before anything runs so that progress can count them.

   Cases: fixed-size hot loops (same buffers each call); the (dst - src) mod
   4096 sweep at 16 KiB that exposes the REP MOVSB aliasing cliff;
   overlapping memmove both ways; cache-cold calls cycled through a pool
   several times the last-level cache; and call sequences drawn from the
   real-workload size distributions in data/, the same sequence for every
   contender.  */

#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* Where the two layouts put the buffers.  Misaligned: src at page + 5 and
   dst at page + 3, so neither is 8-byte aligned, they are misaligned to
   each other, and (dst - src) mod 4096 = 4094 stays clear of the
   REP MOVSB aliasing cliff at 1..63 (which the distance case measures on
   its own).  */
#define MIS_SRC 5
#define MIS_DST 3

/* The sizes from which the streaming reference is measured.  */
#define STREAM_FROM (256 * KiB)

/* Room for the sizes of the memcpy-hot and memset-hot cases.  */
#define MAX_HOT_SIZES 256

/* 16 KiB: the size at which REP MOVSB's aliasing cliff shows.  */
#define DISTANCE_SIZE (16 * KiB)

const struct case_info cases[CASE_COUNT] = {
  [CASE_MEMCPY_HOT] = { "memcpy-hot",
    "memcpy, fixed sizes 0 B - 64 MiB, same buffers, aligned and misaligned" },
  [CASE_MEMSET_HOT] = { "memset-hot",
    "memset, fixed sizes 0 B - 64 MiB, same buffer, aligned and misaligned" },
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

const struct case_group case_groups[] = {
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
const size_t ncase_groups = N_OF (case_groups);

int
fcb_case_by_name (const char *name)
{
  for (int i = 0; i < CASE_COUNT; i++)
    if (strcmp (name, cases[i].name) == 0)
      return i;
  return -1;
}

unsigned int
fcb_parse_cases (const char *list)
{
  unsigned int mask = 0;
  char *copy = strdup (list), *save = NULL;
  if (copy == NULL)
    error_exit (1, "out of memory");
  for (char *tok = strtok_r (copy, ",", &save); tok != NULL;
       tok = strtok_r (NULL, ",", &save))
    {
      int c = fcb_case_by_name (tok);
      unsigned int m = c >= 0 ? 1u << c : 0;
      for (size_t i = 0; i < ncase_groups; i++)
	if (strcmp (tok, case_groups[i].name) == 0)
	  m = case_groups[i].mask;
      if (m == 0)
	usage_exit (2, "unknown case '%s' (see --list)", tok);
      mask |= m;
    }
  free (copy);
  if (mask == 0)
    usage_exit (2, "--case needs at least one case name");
  return mask;
}

/* ------------------------------------------------------------------ */
/* Groups and points.  */

struct point *points;
size_t npoints;
static size_t cap_points;
struct group groups[32];
size_t ngroups;

static struct group *
new_group (enum case_id cid, enum func f, const char *align,
	   const char *cache, enum xkind xk, const char *fmt, ...)
{
  if (ngroups == N_OF (groups))
    error_exit (1, "too many groups");
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
	error_exit (1, "out of memory");
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
/* Size lists.  */

static size_t
push (size_t *v, size_t n, size_t x)
{
  if (n == 0 || v[n - 1] < x)
    v[n++] = x;
  return n;
}

/* Every size up to 64 (quick: to 32, then every 8th), then steps growing
   with the size to 8 KiB, then a few sizes to 64 MiB.  */
static size_t
hot_sizes (size_t *v, int quick)
{
  size_t n = 0;
  for (size_t s = 0; s <= 64; s++)
    if (!quick || s <= 32 || s % 8 == 0)
      n = push (v, n, s);
  static const struct { size_t upto, step; } full[] = {
    { 256, 16 }, { 512, 32 }, { 1024, 64 }, { 2048, 128 }, { 8192, 512 } };
  static const struct { size_t upto, step; } fewer[] = {
    { 128, 32 }, { 256, 64 }, { 1024, 128 }, { 2048, 256 }, { 8192, 1024 } };
  size_t s = 64;
  for (int i = 0; i < 5; i++)
    {
      size_t upto = quick ? fewer[i].upto : full[i].upto;
      size_t step = quick ? fewer[i].step : full[i].step;
      for (; s + step <= upto; s += step)
	n = push (v, n, s + step);
    }
  static const size_t big_full[] = { 12 * KiB, 16 * KiB, 24 * KiB, 32 * KiB,
    48 * KiB, 64 * KiB, 128 * KiB, 256 * KiB, 512 * KiB, MiB, 2 * MiB,
    4 * MiB, 8 * MiB, 16 * MiB, 32 * MiB, 64 * MiB };
  static const size_t big_quick[] = { 16 * KiB, 64 * KiB, 256 * KiB, MiB,
    4 * MiB, 16 * MiB, 64 * MiB };
  const size_t *big = quick ? big_quick : big_full;
  size_t nbig = quick ? N_OF (big_quick) : N_OF (big_full);
  for (size_t i = 0; i < nbig; i++)
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

static size_t
distances (long *v, int quick)
{
  size_t n = 0;
  if (!quick)
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
/* The plan.  */

size_t
fcb_full_points (enum case_id cid, double *x)
{
  size_t v[MAX_HOT_SIZES], n = 0;
  long d[4096];
  switch (cid)
    {
    case CASE_MEMCPY_HOT:
    case CASE_MEMSET_HOT:
      n = hot_sizes (v, 0);
      break;
    case CASE_BZERO_HOT:
      memcpy (v, bzero_sizes, sizeof bzero_sizes);
      n = N_OF (bzero_sizes);
      break;
    case CASE_MEMMOVE_HOT:
      memcpy (v, memmove_sizes, sizeof memmove_sizes);
      n = N_OF (memmove_sizes);
      break;
    case CASE_MEMCPY_COLD:
    case CASE_MEMSET_COLD:
    case CASE_BZERO_COLD:
      memcpy (v, cold_sizes_full, sizeof cold_sizes_full);
      n = N_OF (cold_sizes_full);
      break;
    case CASE_MEMCPY_DISTANCE:
      n = distances (d, 0);
      for (size_t i = 0; i < n; i++)
	x[i] = (double) d[i];
      return n;
    case CASE_MEMCPY_DIST:
    case CASE_MEMSET_DIST:
    case CASE_COUNT:
      return 0;
    }
  for (size_t i = 0; i < n; i++)
    x[i] = (double) v[i];
  return n;
}

size_t
fcb_pool_bytes (void)
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
    error_exit (1, "out of memory");
  size_t n = distances (d, opt.quick);
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
			       "distributions (%u calls, %s alignment, "
			       "%lu KiB buffers)", func_names[f], opt.calls,
			       opt.ndists ? "recorded (else random)" : "random",
			       FCM_SEQ_BUF / KiB);
  enum fastcopy_family fam = fcb_family (f);
  for (size_t i = 0; i < ndists; i++)
    if (dists[i].seq[fam] != NULL)
      {
	struct point *p = new_point (g, PT_SEQ, dists[i].bytes[fam],
				     &csets[f]);
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
			       fcb_pool_bytes () / MiB);
  for (size_t i = 0; i < n; i++)
    {
      struct point *p = new_point (g, PT_COLD, sizes[i],
				   sizes[i] >= STREAM_FROM ? &csets_wide[f]
				   : &csets[f]);
      p->distance = f == F_MEMCPY ? 0 : LONG_MIN;
    }
}

void
fcb_plan (void)
{
  size_t sizes[MAX_HOT_SIZES], n = hot_sizes (sizes, opt.quick);
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
