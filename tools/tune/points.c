/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: what every candidate is measured on, and how.

   Per family, against glibc's memcpy or memset in the same process:
   1. the workloads: call sequences drawn from the distribution files
      (random size, source and destination on every call), the same
      sequences as fastcopy-bench's distributions cases;
   2. fixed sizes hot: one size in a loop on the same buffers, both
      page-aligned, or misaligned (source at +5, destination at +3, so that
      (dst - src) mod 4096 = 4094 stays clear of the aliasing window);
   3. fixed sizes cold: one size cycled through slots of a pool beyond the
      caches (fcm_slots); and for the streaming stage, large sizes hot
      in both layouts (a destination in cache, where streaming must not
      lose) and cold, at the streaming thresholds of its ladder;
   4. copies only: ALIAS_SIZE bytes at (dst - src) mod 4096 distances, where
      REP MOVSB can fall off a cliff on some CPUs.
   Every point runs glibc and the candidates interleaved, in rounds
   (measure.h); the median counts.  */

#define _GNU_SOURCE 1
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <gnu/libc-version.h>
#include <link.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/data-dir.h"
#include "tune.h"

struct fcw_workload workloads[MAX_WORKLOADS];
int nworkloads;
static uint64_t *sequences[FASTCOPY_FAMILY_COUNT][MAX_WORKLOADS];

/* Calls per workload sequence: fastcopy-bench's default, so that the
   figures match its distributions cases.  */
#define SEQ_CALLS 65536

/* Where the hot layouts put the buffers (fastcopy-bench's too).  */
#define MIS_SRC 5
#define MIS_DST 3

/* One source and one destination buffer serve every point.  Cold calls
   cycle through all of one: a pool of POOL_BYTES, beyond the caches of
   the machines measured (the L3 glibc reports is no guide: AMD's KVM
   guests report 320 MiB for a 32 MiB L3).  Cold sizes go up to
   MAX_COLD.  Two buffers of 128 MiB (--quick) or 256 MiB: several
   testsuites may run a tuner side by side.  */
static char *src_buf, *dst_buf;
#define POOL_BYTES ((size_t) (opt.quick ? 128 : 256) * MiB)
#define MAX_COLD ((size_t) (opt.quick ? 64 : 256) * MiB)

static void
load_workload (const char *path)
{
  if (nworkloads == MAX_WORKLOADS)
    error_exit (1, "at most %d workloads", MAX_WORKLOADS);
  char err[PATH_MAX + 128];
  if (fcw_load (&workloads[nworkloads], path, err, sizeof err) != 0)
    error_exit (1, "%s", err);
  nworkloads++;
}

void
points_load (char *const *paths, int n)
{
  for (int i = 0; i < n; i++)
    load_workload (paths[i]);
  if (n == 0)
    {
      const char *dir = fcb_data_dir (NULL, fcw_dir_has);
      if (dir == NULL)
	error_exit (1, "no distribution data found (looked in %s)",
		    fcb_data_places_text ());
      char **list;
      int m = fcw_list (dir, &list);
      if (m < 0)
	error_exit (1, "%s: %s", dir, strerror (errno));
      for (int i = 0; i < m; i++)
	load_workload (list[i]);
      fcw_list_free (list);
    }
}

void
points_setup (void)
{
  size_t largest_call = 0;
  for (int w = 0; w < nworkloads; w++)
    for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
      {
	size_t bytes, largest = fcw_largest (&workloads[w],
					     (enum fastcopy_family) f);
	sequences[f][w] = fcw_sequence (&workloads[w],
					(enum fastcopy_family) f, SEQ_CALLS, 1,
					&bytes);
	if (sequences[f][w] == NULL && workloads[w].family[f].calls > 0)
	  error_exit (1, "out of memory");
	largest_call = largest > largest_call ? largest : largest_call;
      }
  size_t bytes = POOL_BYTES > MAX_COLD ? POOL_BYTES : MAX_COLD;
  if (bytes < FCM_SEQ_BUF + largest_call)
    bytes = FCM_SEQ_BUF + largest_call;
  bytes += 8192;
  src_buf = fcm_map (bytes);
  dst_buf = fcm_map (bytes);
  if (src_buf == NULL || dst_buf == NULL)
    error_exit (1, "cannot map 2 x %zu MiB: %s", bytes / (size_t) MiB,
		strerror (errno));
}

/* ------------------------------------------------------------------------ */
/* The plan.  */

static void
add (struct point_set *ps, struct tpoint p)
{
  if (ps->n == MAX_POINTS)
    error_exit (1, "more than %d points", MAX_POINTS);
  ps->p[ps->n++] = p;
}

static int
cmp_size (const void *a, const void *b)
{
  size_t x = *(const size_t *) a, y = *(const size_t *) b;
  return x < y ? -1 : x > y;
}

/* Hot sizes: every size up to 16 (quick: fewer), then STEPS per doubling
   up to 1 MiB, multiples of 8.  */
static size_t
hot_sizes (size_t *v)
{
  static const size_t small_quick[] = { 0, 1, 2, 3, 4, 6, 8, 12 };
  size_t n = 0;
  if (opt.quick)
    for (size_t i = 0; i < sizeof small_quick / sizeof *small_quick; i++)
      v[n++] = small_quick[i];
  else
    for (size_t s = 0; s < 16; s++)
      v[n++] = s;
  int steps = opt.quick ? 2 : 4;
  for (int k = 0;; k++)
    {
      double x = 16.0 * exp2 ((double) k / steps);
      size_t s = ((size_t) x + 4) / 8 * 8;
      if (s > 1 * MiB)
	break;
      if (s != v[n - 1])
	v[n++] = s;
    }
  return n;
}

static const size_t cold_quick[] = { 4 * KiB, 64 * KiB, 1 * MiB, 4 * MiB,
  16 * MiB, 64 * MiB };
static const size_t cold_full[] = { 256, 4 * KiB, 16 * KiB, 64 * KiB,
  256 * KiB, 1 * MiB, 2 * MiB, 4 * MiB, 8 * MiB, 16 * MiB, 32 * MiB,
  64 * MiB, 128 * MiB, 256 * MiB };

/* Distances: near the cliff every one, elsewhere a sample.  */
static size_t
distances (size_t *v)
{
  size_t n = 0;
  if (opt.quick)
    {
      static const size_t d[] = { 0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33,
	47, 48, 63, 64, 65, 96, 128, 512, 2048, 4032, 4064, 4080, 4094,
	4095 };
      for (size_t i = 0; i < sizeof d / sizeof *d; i++)
	v[n++] = d[i];
      return n;
    }
  for (size_t d = 0; d < 80; d++)
    v[n++] = d;
  for (size_t d = 96; d < 4080; d += 64)
    v[n++] = d;
  for (size_t d = 4080; d < 4096; d++)
    v[n++] = d;
  return n;
}

/* An empty plan for FAMILY, then the workloads that have calls of it.  */
static void
start_plan (struct point_set *ps, enum fastcopy_family family)
{
  ps->family = family;
  ps->n = 0;
  for (int w = 0; w < nworkloads; w++)
    if (workloads[w].family[family].calls > 0)
      add (ps, (struct tpoint) { .kind = PK_WORKLOAD, .workload = w });
}

void
points_plan (struct point_set *ps, enum fastcopy_family family,
	     const unsigned long long *extra, int nextra)
{
  start_plan (ps, family);

  size_t sizes[MAX_POINTS];
  size_t n = hot_sizes (sizes);
  for (int mis = 0; mis < 2; mis++)
    for (size_t i = 0; i < n; i++)
      add (ps, (struct tpoint) { .kind = PK_HOT, .size = sizes[i],
				 .misaligned = mis });

  const size_t *cold = opt.quick ? cold_quick : cold_full;
  n = opt.quick ? sizeof cold_quick / sizeof *cold_quick
		: sizeof cold_full / sizeof *cold_full;
  memcpy (sizes, cold, n * sizeof *sizes);
  for (int i = 0; i < nextra; i++)
    if (extra[i] != NEVER && extra[i] <= MAX_COLD)
      {
	int dup = 0;
	for (size_t j = 0; j < n; j++)
	  dup |= sizes[j] == extra[i];
	if (!dup)
	  sizes[n++] = (size_t) extra[i];
      }
  qsort (sizes, n, sizeof *sizes, cmp_size);
  for (size_t i = 0; i < n; i++)
    add (ps, (struct tpoint) { .kind = PK_COLD, .size = sizes[i] });

  if (family == FASTCOPY_FAMILY_COPY)
    {
      n = distances (sizes);
      for (size_t i = 0; i < n; i++)
	add (ps, (struct tpoint) { .kind = PK_ALIAS, .size = ALIAS_SIZE,
				   .distance = sizes[i] });
    }
}

void
stream_points_plan (struct point_set *ps, enum fastcopy_family family,
		    const unsigned long long *nt, int nnt)
{
  start_plan (ps, family);
  size_t sizes[MAX_POINTS];
  size_t n = 0;
  sizes[n++] = MAX_COLD;
  for (int i = 0; i < nnt && n < MAX_POINTS; i++)
    if (nt[i] != NEVER && nt[i] >= MiB && nt[i] < MAX_COLD)
      sizes[n++] = (size_t) nt[i];
  qsort (sizes, n, sizeof *sizes, cmp_size);
  /* Hot in both layouts: a threshold that streams a misaligned copy into
     cache lost 1.7x at 4 MiB on Zen 3 where the aligned one was even.  */
  for (size_t i = 0; i < n; i++)
    if (i == 0 || sizes[i] != sizes[i - 1])
      {
	for (int mis = 0; mis < 2; mis++)
	  add (ps, (struct tpoint) { .kind = PK_HOT, .size = sizes[i],
				     .misaligned = mis });
	add (ps, (struct tpoint) { .kind = PK_COLD, .size = sizes[i] });
      }
}

const char *
point_text (const struct tpoint *p, char *buf, size_t size)
{
  char b[32];
  switch (p->kind)
    {
    case PK_WORKLOAD:
      snprintf (buf, size, "%s", workloads[p->workload].name);
      break;
    case PK_HOT:
      snprintf (buf, size, "hot %s%s",
		fc_size_format (p->size, FC_SIZE_3_DIGITS, b, sizeof b),
		p->misaligned ? " misaligned" : "");
      break;
    case PK_COLD:
      snprintf (buf, size, "cold %s",
		fc_size_format (p->size, FC_SIZE_3_DIGITS, b, sizeof b));
      break;
    case PK_ALIAS:
      snprintf (buf, size, "alias %zu", p->distance);
      break;
    }
  return buf;
}

size_t
points_sizes (const struct point_set *ps, int workloads_only, size_t **sizes)
{
  size_t cap = (size_t) ps->n, n = 0;
  for (int w = 0; workloads_only && w < nworkloads; w++)
    cap += 2 * workloads[w].family[ps->family].nbuckets;
  size_t *v = malloc (cap * sizeof *v);
  if (v == NULL)
    error_exit (1, "out of memory");
  for (int i = 0; i < ps->n; i++)
    {
      const struct tpoint *p = &ps->p[i];
      if (p->kind != PK_WORKLOAD && !workloads_only)
	v[n++] = p->size;
      if (p->kind == PK_WORKLOAD && workloads_only)
	{
	  const struct fcw_family *fa = &workloads[p->workload].family[ps->family];
	  for (size_t b = 0; b < fa->nbuckets; b++)
	    if (fa->bucket[b].t.calls > 0)
	      {
		v[n++] = (size_t) fa->bucket[b].lo;
		v[n++] = (size_t) fa->bucket[b].hi;
	      }
	}
    }
  qsort (v, n, sizeof *v, cmp_size);
  size_t m = 0;
  for (size_t i = 0; i < n; i++)
    if (m == 0 || v[i] != v[m - 1])
      v[m++] = v[i];
  *sizes = v;
  return m;
}

/* ------------------------------------------------------------------------ */
/* The functions.  */

/* glibc's own function NAME: looked up on libc.so.6's handle and checked
   to lie in that object, so that libfastcopy (which this program is linked
   with) cannot stand in for it.  */
static void *
glibc_symbol (const char *name)
{
  void *libc = dlopen ("libc.so.6", RTLD_NOW | RTLD_LOCAL);
  struct link_map *lm = NULL;
  if (libc == NULL || dlinfo (libc, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL)
    error_exit (1, "dlopen libc.so.6: %s", dlerror ());
  void *fn = dlsym (libc, name);
  Dl_info info;
  if (fn == NULL || dladdr (fn, &info) == 0 || info.dli_fname == NULL
      || strcmp (info.dli_fname, lm->l_name) != 0)
    error_exit (1, "cannot find glibc's own %s in %s", name, lm->l_name);
  return fn;
}

const char *
glibc_version (void)
{
  return gnu_get_libc_version ();
}

void
points_warm_up (const struct fcm_fn *fn, struct fcm_calls *calls)
{
  fcm_time (fn, calls, 1);
}

/* Before every sample of a table entry: its thresholds, then the warm-up
   call.  */
static void
before_sample (const struct fcm_fn *fn, struct fcm_calls *calls)
{
  static char last[256];
  const char *items = fn->arg;
  if (items != NULL && strcmp (last, items) != 0)
    {
      if (fastcopy_set (items, NULL, NULL) != 0)
	error_exit (1, "fastcopy_set (\"%s\") refused", items);
      snprintf (last, sizeof last, "%s", items);
    }
  points_warm_up (fn, calls);
}

struct fcm_fn
glibc_fn (enum fastcopy_family family)
{
  struct fcm_fn fn = { .before = before_sample };
  if (family == FASTCOPY_FAMILY_COPY)
    {
      fn.call = FCM_COPY;
      *(void **) &fn.copy = glibc_symbol ("memcpy");
    }
  else
    {
      fn.call = FCM_SET;
      *(void **) &fn.set = glibc_symbol ("memset");
    }
  return fn;
}

struct fcm_fn
impl_fn (const struct fastcopy_impl *impl, const char *items)
{
  int copy = impl->family == FASTCOPY_FAMILY_COPY;
  return (struct fcm_fn) { .call = copy ? FCM_COPY : FCM_SET,
			   .copy = impl->copy, .set = impl->clear,
			   .before = before_sample, .arg = items };
}

/* ------------------------------------------------------------------------ */
/* Running.  */

/* Sample lengths in ns and rounds: short samples where a call is short.  */
static uint64_t
target_ns (enum point_kind kind)
{
  switch (kind)
    {
    case PK_WORKLOAD: return opt.quick ? 1000000 : 2000000;
    case PK_COLD: return opt.quick ? 1000000 : 2000000;
    case PK_ALIAS: return opt.quick ? 100000 : 200000;
    default: return opt.quick ? 200000 : 500000;
    }
}

static void
calls_of (const struct tpoint *p, enum fastcopy_family family,
	  struct fcm_calls *c)
{
  memset (c, 0, sizeof *c);
  c->dst = dst_buf;
  c->src = src_buf;
  c->n = p->size;
  c->fill = family == FASTCOPY_FAMILY_CLEAR ? 0xa5 : 0;
  switch (p->kind)
    {
    case PK_WORKLOAD:
      c->layout = FCM_SEQUENCE;
      c->seq = sequences[family][p->workload];
      c->nseq = SEQ_CALLS;
      break;
    case PK_HOT:
      c->layout = FCM_SAME;
      if (p->misaligned)
	{
	  c->dst += MIS_DST;
	  c->src += MIS_SRC;
	}
      break;
    case PK_COLD:
      c->layout = FCM_SLOTS;
      if (fcm_slots (c, p->size, POOL_BYTES, 1) == NULL)
	error_exit (1, "out of memory");
      break;
    case PK_ALIAS:
      c->layout = FCM_SAME;
      c->dst += p->distance;
      break;
    }
}

void
points_run (const struct point_set *ps, unsigned int kinds,
	    const struct fcm_fn *const *fns, int nfn, unsigned int rounds,
	    point_result_fn result, void *arg, const char *label)
{
  static struct fcm_point m;
  if (nfn > FCM_MAX_FNS)
    error_exit (1, "more than %d functions in a point", FCM_MAX_FNS);
  for (int i = 0; i < ps->n; i++)
    {
      const struct tpoint *p = &ps->p[i];
      if (!(kinds & PK_BIT (p->kind)))
	continue;
      char b[64];
      progress ("%s: %s", label, point_text (p, b, sizeof b));
      calls_of (p, ps->family, &m.calls);
      m.nfn = nfn;
      for (int k = 0; k < nfn; k++)
	m.fn[k] = fns[k];
      m.target_ns = target_ns (p->kind);
      m.rounds = 0;
      double med[FCM_MAX_FNS];
      fcm_measure (&m, rounds, med);
      free ((void *) m.calls.order);
      result (p, med, arg);
    }
}
