/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: the workloads of the distributions cases (read by
   workload.c): the --dist files, or else the shipped size distributions
   (the .csv files of data/), and the call sequences drawn from each, fixed
   by --seed and the file's name so that every contender and every run gets
   the same calls.  */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "common/workload.h"

struct dist *dists;
size_t ndists;

/* The directory of the distributions; NULL if there is none and
   REQUIRED is 0.  A --data without them is an error.  */
static const char *
find_data_dir (int required)
{
  if (opt.data != NULL && *opt.data != 0)
    {
      char **paths;
      int n = fcw_list (opt.data, &paths);
      if (n < 0)
	error_exit (1, "--data %s: %s", opt.data, strerror (errno));
      fcw_list_free (paths);
      if (n == 0)
	error_exit (1, "--data %s: no .csv files there", opt.data);
    }
  const char *dir = fcb_data_dir (opt.data, fcw_dir_has);
  if (dir != NULL || !required)
    return dir;
  error_exit (1, "no distribution data found (looked in %s); use --data DIR",
	      fcb_data_places_text ());
}

enum fastcopy_family
fcb_family (enum func f)
{
  return f == F_MEMCPY || f == F_MEMMOVE ? FASTCOPY_FAMILY_COPY
					 : FASTCOPY_FAMILY_CLEAR;
}

static void
load (const char *path)
{
  struct dist *d = &dists[ndists++];
  struct fcw_workload w;
  char err[PATH_MAX + 256];
  if (fcw_load (&w, path, err, sizeof err) != 0)
    error_exit (1, "%s", err);
  snprintf (d->file, sizeof d->file, "%s", w.path);
  snprintf (d->name, sizeof d->name, "%s", w.name);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      d->seq[f] = fcw_sequence (&w, (enum fastcopy_family) f, opt.calls,
				opt.seed, &d->bytes[f]);
      if (d->seq[f] == NULL && w.family[f].calls > 0)
	error_exit (1, "out of memory");
      d->largest[f] = fcw_largest (&w, (enum fastcopy_family) f);
    }
  fcw_free (&w);
}

int
fcb_load_dists (int required)
{
  if (opt.ndists > 0)
    {
      dists = calloc ((size_t) opt.ndists, sizeof *dists);
      if (dists == NULL)
	error_exit (1, "out of memory");
      for (int i = 0; i < opt.ndists; i++)
	load (opt.dists[i]);
      return 1;
    }
  const char *dir = find_data_dir (required);
  if (dir == NULL)
    return 0;
  char **paths;
  int n = fcw_list (dir, &paths);
  if (n < 0)
    error_exit (1, "%s: %s", dir, strerror (errno));
  if (n == 0)
    error_exit (1, "%s: no distributions", dir);
  dists = calloc ((size_t) n, sizeof *dists);
  if (dists == NULL)
    error_exit (1, "out of memory");
  for (int i = 0; i < n; i++)
    load (paths[i]);
  fcw_list_free (paths);
  return 1;
}
