/* fastcopy-bench: the real-workload size distributions (the .csv files of
   data/, one line of probabilities for sizes 0, 1, 2, ... each) and the call sequence
   drawn from each: sizes from the distribution, src and dst anywhere in
   their buffers, fixed by --seed and the file's name so that every
   contender and every run gets the same calls.  */

#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

struct dist *dists;
size_t ndists;

static int
csv_filter (const struct dirent *e)
{
  size_t n = strlen (e->d_name);
  return n > 4 && strcmp (e->d_name + n - 4, ".csv") == 0;
}

/* The number of distributions in DIR, or -1 (errno set) if it cannot be
   read.  */
static int
count_csv (const char *dir)
{
  struct dirent **list;
  int n = scandir (dir, &list, csv_filter, alphasort);
  for (int j = 0; j < n; j++)
    free (list[j]);
  if (n >= 0)
    free (list);
  return n;
}

static int
has_csv (const char *dir)
{
  return count_csv (dir) > 0;
}

/* The directory of the distributions; NULL if there is none and
   REQUIRED is 0.  A --data without them is an error.  */
static const char *
find_data_dir (int required)
{
  if (opt.data != NULL && *opt.data != 0)
    {
      int n = count_csv (opt.data);
      if (n < 0)
	fcb_die ("--data %s: %s", opt.data, strerror (errno));
      if (n == 0)
	fcb_die ("--data %s: no .csv files there", opt.data);
    }
  const char *dir = fcb_data_dir (has_csv);
  if (dir != NULL || !required)
    return dir;
  fcb_die ("no distribution data found (looked in %s); use --data DIR",
	   fcb_data_places_text ());
}

/* One line of probabilities for sizes 0..N-1, comma-separated.  */
static void
load_dist (struct dist *d, uint64_t seed)
{
  FILE *f = fopen (d->file, "r");
  if (f == NULL)
    fcb_die ("%s: %s", d->file, strerror (errno));
  size_t cap = 8192;
  double *p = malloc (cap * sizeof *p), sum = 0;
  size_t n = 0;
  if (p == NULL)
    fcb_die ("out of memory");
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
	fcb_die ("%s: value %zu is not a probability", d->file, n);
      if (n == cap)
	{
	  p = realloc (p, (cap *= 2) * sizeof *p);
	  if (p == NULL)
	    fcb_die ("out of memory");
	}
      p[n++] = v;
    }
  fclose (f);
  if (n > FCM_SEQ_MAX_SIZE + 1)
    fcb_die ("%s: %zu sizes; at most %u (0..%u) are supported", d->file, n,
	     FCM_SEQ_MAX_SIZE + 1, FCM_SEQ_MAX_SIZE);
  for (size_t i = 0; i < n; i++)
    sum += p[i], p[i] = sum;
  if (!(sum > 0))
    fcb_die ("%s: no size has a nonzero probability", d->file);
  d->cdf = p;
  d->nsizes = n;

  /* The call sequence: sizes from the distribution, src and dst anywhere
     in their buffers (so every alignment and every distance occurs).  */
  d->seq = malloc (opt.calls * sizeof *d->seq);
  if (d->seq == NULL)
    fcb_die ("out of memory");
  uint64_t st = seed;
  d->bytes = 0;
  for (unsigned int i = 0; i < opt.calls; i++)
    {
      double u = (double) (fcb_splitmix64 (&st) >> 11) * 0x1p-53 * sum;
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
      uint64_t so = fcb_splitmix64 (&st) % (FCM_SEQ_BUF - size + 1);
      uint64_t dof = fcb_splitmix64 (&st) % (FCM_SEQ_BUF - size + 1);
      d->seq[i] = fcm_seq_entry (size, so, dof);
      d->bytes += size;
    }
}

int
fcb_load_dists (int required)
{
  const char *dir = find_data_dir (required);
  if (dir == NULL)
    return 0;
  struct dirent **list;
  int n = scandir (dir, &list, csv_filter, alphasort);
  if (n <= 0)
    fcb_die ("%s: no distributions", dir);
  dists = calloc ((size_t) n, sizeof *dists);
  if (dists == NULL)
    fcb_die ("out of memory");
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
