/* Workloads: reading the distribution files and drawing call sequences
   from them (workload.h).  */

#define _GNU_SOURCE 1
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"
#include "workload.h"

/* "MemcpyGoogleA.csv" -> "GoogleA".  */
static void
name_of (const char *path, char *name, size_t size)
{
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen (base);
  if (n > 4 && strcmp (base + n - 4, ".csv") == 0)
    n -= 4;
  if (n > 6 && strncmp (base, "Memcpy", 6) == 0)
    base += 6, n -= 6;
  snprintf (name, size, "%.*s", (int) n, base);
}

int
fcw_load (struct fcw_workload *w, const char *path, char *err, size_t errlen)
{
  memset (w, 0, sizeof *w);
  snprintf (w->path, sizeof w->path, "%s", path);
  name_of (path, w->name, sizeof w->name);
  FILE *f = fopen (path, "r");
  if (f == NULL)
    {
      snprintf (err, errlen, "%s: %s", path, strerror (errno));
      return -1;
    }
  size_t cap = 8192, n = 0;
  double *p = malloc (cap * sizeof *p), sum = 0;
  const char *why = NULL;
  for (;;)
    {
      int ch;
      while ((ch = getc (f)) != EOF && (ch == ',' || isspace (ch)))
	;
      if (ch == EOF || p == NULL)
	break;
      ungetc (ch, f);
      double v;
      if (fscanf (f, "%lf", &v) != 1 || !(v >= 0) || !isfinite (v))
	{
	  why = "is not a probability";
	  break;
	}
      if (n == cap)
	{
	  double *q = realloc (p, (cap *= 2) * sizeof *p);
	  if (q == NULL)
	    free (p);
	  p = q;
	  if (p == NULL)
	    break;
	}
      p[n++] = v;
      if (v > 0)
	w->max_size = n - 1;
    }
  fclose (f);
  if (p == NULL)
    snprintf (err, errlen, "%s: out of memory", path);
  else if (why != NULL)
    snprintf (err, errlen, "%s: value %zu %s", path, n, why);
  else if (n > FCM_SEQ_MAX_SIZE + 1)
    snprintf (err, errlen, "%s: %zu sizes; at most %u (0..%u) are supported",
	      path, n, FCM_SEQ_MAX_SIZE + 1, FCM_SEQ_MAX_SIZE);
  else
    {
      for (size_t i = 0; i < n; i++)
	sum += p[i], p[i] = sum;
      if (sum > 0)
	{
	  w->cdf = p;
	  w->nsizes = n;
	  return 0;
	}
      snprintf (err, errlen, "%s: no size has a nonzero probability", path);
    }
  free (p);
  return -1;
}

void
fcw_free (struct fcw_workload *w)
{
  free (w->cdf);
  w->cdf = NULL;
}

uint64_t *
fcw_sequence (const struct fcw_workload *w, size_t ncalls, uint64_t seed,
	      size_t *bytes)
{
  uint64_t *seq = malloc (ncalls * sizeof *seq);
  if (seq == NULL)
    return NULL;
  uint64_t st = seed;
  for (const char *c = w->name; *c; c++)
    st = st * 131 + (unsigned char) *c;
  double sum = w->cdf[w->nsizes - 1];
  *bytes = 0;
  for (size_t i = 0; i < ncalls; i++)
    {
      double u = (double) (fcm_splitmix64 (&st) >> 11) * 0x1p-53 * sum;
      size_t lo = 0, hi = w->nsizes - 1;
      while (lo < hi)
	{
	  size_t mid = (lo + hi) / 2;
	  if (w->cdf[mid] > u)
	    hi = mid;
	  else
	    lo = mid + 1;
	}
      size_t size = lo;
      uint64_t so = fcm_splitmix64 (&st) % (FCM_SEQ_BUF - size + 1);
      uint64_t dof = fcm_splitmix64 (&st) % (FCM_SEQ_BUF - size + 1);
      seq[i] = fcm_seq_entry (size, so, dof);
      *bytes += size;
    }
  return seq;
}

static int
csv_filter (const struct dirent *e)
{
  size_t n = strlen (e->d_name);
  return n > 4 && strcmp (e->d_name + n - 4, ".csv") == 0;
}

int
fcw_list (const char *dir, char ***paths)
{
  struct dirent **list;
  int n = scandir (dir, &list, csv_filter, alphasort);
  if (n < 0)
    return -1;
  char **v = calloc ((size_t) n + 1, sizeof *v);
  int ok = v != NULL;
  for (int i = 0; i < n; i++)
    {
      if (ok && asprintf (&v[i], "%s/%s", dir, list[i]->d_name) < 0)
	{
	  v[i] = NULL;
	  ok = 0;
	}
      free (list[i]);
    }
  free (list);
  if (!ok)
    {
      fcw_list_free (v);
      errno = ENOMEM;
      return -1;
    }
  *paths = v;
  return n;
}

void
fcw_list_free (char **paths)
{
  for (size_t i = 0; paths != NULL && paths[i] != NULL; i++)
    free (paths[i]);
  free (paths);
}

int
fcw_dir_has (const char *dir)
{
  char **paths;
  int n = fcw_list (dir, &paths);
  if (n >= 0)
    fcw_list_free (paths);
  return n > 0;
}
