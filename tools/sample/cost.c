/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: what one call costs, to turn samples into calls.

   A sample stands for one sampling period of time spent in a body, so
   the calls of an implementation and size are its samples times the
   period divided by the time of one call.  That time is measured here,
   with fastcopy-bench's engine (common/measure.h): the implementation of
   this process's libfastcopy named by the body map, called at the middle
   of each size bucket on buffers in the caches, at places drawn in 4 KiB,
   the median of five rounds.  Sizes above MAX_MEASURED, the largest a
   call of the engine's sequences holds, are taken as proportional to
   it.

   The table is kept between runs in a small file, one per CPU model
   (cost-VENDOR-FAMILY-MODEL-STEPPING.csv), that names the CPU's features
   and the library's version: a change of either measures again.  It is
   replaced atomically (common/file-replace.c).  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file-replace.h"
#include "common/message.h"
#include "fastcopy.h"
#include "common/measure.h"
#include "sample/sample.h"

#define MAX_MEASURED FCM_SEQ_MAX_SIZE

struct cost
{
  int family;
  char impl[16];
  uint64_t size;		/* the bucket's first size */
  double ns;			/* 0: not measured yet */
  double in_class;		/* the median of its class's ns, or 0 */
};

static struct cost *table;
static size_t ncosts;
static int table_changed;
char cost_cache_path[4096];
int cost_measured_now;
const char *cost_cache_dir;

static struct cost *
find (int family, const char *impl, uint64_t size)
{
  for (size_t i = 0; i < ncosts; i++)
    if (table[i].family == family && table[i].size == size
	&& strcmp (table[i].impl, impl) == 0)
      return &table[i];
  return NULL;
}

static struct cost *
add (int family, const char *impl, uint64_t size)
{
  table = xrealloc (table, (ncosts + 1) * sizeof *table);
  struct cost *c = &table[ncosts++];
  memset (c, 0, sizeof *c);
  c->family = family;
  snprintf (c->impl, sizeof c->impl, "%s", impl);
  c->size = size;
  return c;
}

void
cost_want (int family, const char *impl, uint64_t size)
{
  unsigned long long lo, hi;
  fc_size_bucket_range (fc_size_bucket (size), &lo, &hi);
  if (find (family, impl, lo) == NULL)
    add (family, impl, lo);
}

/* The lines that say what the table is for: this CPU and library.  */
static char *
identity (void)
{
  const struct fastcopy_cpu *c = fastcopy_cpu ();
  return xasprintf ("# fastcopy-sample cost table: ns per call\n"
		    "# cpu: %s family %u model %u stepping %u features %#llx\n"
		    "# library: %s\n", c->vendor, c->family, c->model,
		    c->stepping, c->features, fastcopy_version ());
}

/* Nonzero when this program is the installed fastcopy-sample: a build
   tree's, run by root, keeps its table with the user's, not in the
   installed system's cache, which its library's version may not be.  */
static int
installed (void)
{
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/fastcopy-sample", FCS_BINDIR);
  char *self = realpath ("/proc/self/exe", NULL), *want = realpath (path, NULL);
  int yes = self != NULL && want != NULL && strcmp (self, want) == 0;
  free (self);
  free (want);
  return yes;
}

static void
cache_path (void)
{
  const struct fastcopy_cpu *c = fastcopy_cpu ();
  char dir[3000];
  const char *home = getenv ("HOME"), *xdg = getenv ("XDG_CACHE_HOME");
  if (cost_cache_dir != NULL)
    snprintf (dir, sizeof dir, "%s", cost_cache_dir);
  else if (geteuid () == 0 && installed ())
    snprintf (dir, sizeof dir, "/var/cache/fastcopy");
  else if (xdg != NULL && xdg[0] == '/')
    snprintf (dir, sizeof dir, "%s/fastcopy", xdg);
  else if (home != NULL && home[0] == '/')
    snprintf (dir, sizeof dir, "%s/.cache/fastcopy", home);
  else
    return;
  snprintf (cost_cache_path, sizeof cost_cache_path,
	    "%s/cost-%s-%u-%u-%u.csv", dir, c->vendor, c->family, c->model,
	    c->stepping);
}

/* The measured rows of the cache file for this CPU and library.  */
static void
cache_read (void)
{
  FILE *f = fopen (cost_cache_path, "re");
  if (f == NULL)
    return;
  char *id = identity (), line[256];
  size_t idlen = strlen (id), at = 0;
  int same = 1;
  while (fgets (line, sizeof line, f) != NULL)
    {
      if (at < idlen)
	{
	  size_t n = strlen (line);
	  same = same && n <= idlen - at && memcmp (id + at, line, n) == 0;
	  at += n;
	  continue;
	}
      int family;
      char impl[16];
      unsigned long long size;
      double ns;
      if (!same || sscanf (line, "%d,%15[a-z0-9_],%llu,%lf", &family, impl,
			   &size, &ns) != 4 || !(ns > 0))
	continue;
      struct cost *c = find (family, impl, size);
      if (c == NULL)
	c = add (family, impl, size);
      c->ns = ns;
    }
  fclose (f);
  free (id);
}

static void
cache_write (void)
{
  char *dir = xasprintf ("%s", cost_cache_path);
  *strrchr (dir, '/') = 0;
  if (cost_cache_dir == NULL)
    {
      /* ~/.cache may not exist yet.  */
      char *up = xasprintf ("%s", dir);
      *strrchr (up, '/') = 0;
      mkdir (up, 0755);
      free (up);
      mkdir (dir, 0755);
    }
  char *id = identity ();
  size_t len = strlen (id);
  char *data = xasprintf ("%s", id);
  for (size_t i = 0; i < ncosts; i++)
    if (table[i].ns > 0)
      {
	char *row = xasprintf ("%d,%s,%llu,%.3f\n", table[i].family,
			       table[i].impl, (unsigned long long) table[i].size,
			       table[i].ns);
	data = xrealloc (data, len + strlen (row) + 1);
	strcpy (data + len, row);
	len += strlen (row);
	free (row);
      }
  struct stat st;
  char *tmp = xasprintf (".cost.XXXXXX");
  struct file_replacement r = {
    .path = cost_cache_path, .dir = dir, .tmp_template = tmp,
    .old = stat (cost_cache_path, &st) == 0 ? &st : NULL,
  };
  /* A cache that cannot be written is measured again next time.  */
  if (file_replace (&r, data, len) != 0)
    error_msg ("the cost table is not kept for the next run");
  free (tmp);
  free (data);
  free (id);
  free (dir);
}

/* ns per call of IMPL on N bytes, or 0 if this library cannot run it.
   The calls go to places drawn at random in 4 KiB, as a program's do:
   REP MOVSB and the vector bodies cost more when the buffers are not
   aligned, and a fixed place would measure one alignment only.  */
static double
measure_one (int family, const char *name, size_t n)
{
  const struct fastcopy_impl *impl = fastcopy_impl_find (family, name);
  if (impl == NULL || !fastcopy_impl_usable (impl)
      || impl->traits & FASTCOPY_TRAIT_PROFILE)
    return 0;
  enum { CALLS = 64, SPREAD = 4096 };
  uint64_t seq[CALLS], st = n;
  for (int i = 0; i < CALLS; i++)
    seq[i] = fcm_seq_entry (n, fcm_splitmix64 (&st) % SPREAD,
			    fcm_splitmix64 (&st) % SPREAD);
  size_t bytes = n + 2 * SPREAD;
  char *dst = fcm_map (bytes), *src = fcm_map (bytes);
  double med = 0;
  if (dst != NULL && src != NULL)
    {
      struct fcm_fn fn = { .call = family == FASTCOPY_FAMILY_COPY
			   ? FCM_COPY : FCM_SET,
			   .copy = impl->copy, .set = impl->clear };
      struct fcm_point *p = zalloc (sizeof *p);
      p->calls = (struct fcm_calls) { .layout = FCM_SEQUENCE, .dst = dst,
				      .src = src, .seq = seq, .nseq = CALLS };
      p->nfn = 1;
      p->fn[0] = &fn;
      p->target_ns = 100000;
      fcm_measure (p, 5, &med);
      free (p);
    }
  if (dst != NULL)
    fcm_unmap (dst, bytes);
  if (src != NULL)
    fcm_unmap (src, bytes);
  return med / CALLS;
}

/* Up to LOOPLESS_UPTO bytes the sizes of one class run the same
   instructions, or nearly: in the vector bodies their times alone should
   be the same (a REP MOVSB body's grow a little with the size within a
   class, which the median gives up).  Measured, they were not: on Zen 5
   the sizes of 1 to 64 bytes came out 1.6 to 2.1 ns, those of 257 to 512
   bytes 4.1 to 8.0 ns, from one size to the next, as the placements
   drawn for each and what else ran on the machine went; and each of
   those differences went straight into the ratio of their call counts.
   So there each size is given its class's median (the table keeps what
   was measured).  */
static void
in_class_medians (void)
{
  double *ns = xrealloc (NULL, (ncosts + 1) * sizeof *ns);
  for (size_t i = 0; i < ncosts; i++)
    {
      struct cost *c = &table[i];
      c->in_class = 0;
      if (c->size > LOOPLESS_UPTO || !(c->ns > 0))
	continue;
      size_t n = 0;
      for (size_t j = 0; j < ncosts; j++)
	if (table[j].family == c->family && table[j].ns > 0
	    && table[j].size <= LOOPLESS_UPTO
	    && size_class (table[j].size) == size_class (c->size)
	    && strcmp (table[j].impl, c->impl) == 0)
	  ns[n++] = table[j].ns;
      c->in_class = fcm_median (ns, n);
    }
  free (ns);
}

void
cost_measure (void)
{
  cache_path ();
  if (cost_cache_path[0])
    cache_read ();
  for (size_t i = 0; i < ncosts && !sample_stop; i++)
    {
      struct cost *c = &table[i];
      if (c->ns > 0)
	continue;
      unsigned long long lo, hi;
      fc_size_bucket_range (fc_size_bucket (c->size), &lo, &hi);
      uint64_t mid = lo + (hi - lo + 1) / 2;
      uint64_t n = mid > MAX_MEASURED ? MAX_MEASURED : mid;
      double ns = measure_one (c->family, c->impl, (size_t) n);
      if (ns > 0)
	{
	  c->ns = mid > n ? ns * ((double) mid / (double) n) : ns;
	  table_changed = cost_measured_now = 1;
	}
    }
  if (table_changed && cost_cache_path[0])
    cache_write ();
  in_class_medians ();
}

double
cost_alone (int family, const char *impl, uint64_t size)
{
  unsigned long long lo, hi;
  fc_size_bucket_range (fc_size_bucket (size), &lo, &hi);
  const struct cost *c = find (family, impl, lo);
  return c == NULL ? 0 : c->in_class > 0 ? c->in_class : c->ns;
}
