/* SPDX-License-Identifier: MIT */
/* fastcopy-fleet accumulate: a machine's sample into its running total,
   what fastcopy-fleet.service does after each run (fastcopy-fleet(1)).

   A sample that cannot be read (the run failed, or was cut short) leaves
   the total as it is, and so does one with no call of libfastcopy.  A
   sample of the total's class and implementations is added to it.  One
   of another class or other implementations (new settings were pushed)
   starts a new total; the old one is kept beside it as
   TOTAL.previous.csv (one generation), so that nothing counted is lost.
   Its series were exported until then and Prometheus keeps them; the new
   total's carry the new labels.  Every file is replaced atomically.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/message.h"
#include "fleet/fleet.h"

static double
calls_of (const struct fcw_workload *w)
{
  double n = 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    for (size_t i = 0; i < w->family[f].nbuckets; i++)
      n += w->family[f].bucket[i].t.calls;
  return n;
}

/* Nonzero when A and B are of one class and one choice of
   implementations, the labels of their exported series.  */
static int
same_series (const struct fcw_workload *a, const struct fcw_workload *b)
{
  if (!fcw_machine_class_equal (&a->machine_class, &b->machine_class))
    return 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    if (strcmp (a->family[f].impl, b->family[f].impl) != 0)
      return 0;
  return 1;
}

static int
write_recording (const char *path, const struct fcw_workload *w,
		 const char *comment)
{
  size_t len;
  char *text = recording_text (w, comment, &len);
  int st = text != NULL && write_output (path, text, len) == 0 ? 0 : -1;
  free (text);
  return st;
}

int
accumulate_main (const char *total_path, const char *sample_path)
{
  struct fcw_workload sample, total;
  if (load_recording (sample_path, &sample) != 0)
    {
      error_msg ("%s is left as it is", total_path);
      return 1;
    }
  if (calls_of (&sample) == 0)
    {
      printf ("%s has no call of libfastcopy: %s is left as it is\n",
	      sample_path, total_path);
      fcw_free (&sample);
      return 0;
    }
  if (access (total_path, F_OK) != 0)
    {
      int st = errno == ENOENT
	       ? write_recording (total_path, &sample,
				  "# accumulated by fastcopy-fleet\n")
	       : (error_msg ("%s: %s", total_path, strerror (errno)), -1);
      if (st == 0)
	{
	  printf ("%s: a new total, from %s\n", total_path, sample_path);
	  report_bound (total_path, &sample);
	}
      fcw_free (&sample);
      return st ? 1 : 0;
    }
  if (load_recording (total_path, &total) != 0)
    {
      error_msg ("%s is left as it is, and %s is not added to it: move "
		 "the total away to start a new one", total_path, sample_path);
      fcw_free (&sample);
      return 1;
    }
  int st;
  if (same_series (&total, &sample))
    {
      st = fcw_merge (&total, &sample) != 0
	   ? (error_msg ("out of memory"), -1)
	   : write_recording (total_path, &total,
			      "# accumulated by fastcopy-fleet\n");
      if (st == 0)
	{
	  printf ("%s: %s added\n", total_path, sample_path);
	  report_bound (total_path, &total);
	}
    }
  else
    {
      char *previous;
      size_t len = strlen (total_path);
      if (len > 4 && strcmp (total_path + len - 4, ".csv") == 0)
	len -= 4;
      if (asprintf (&previous, "%.*s.previous.csv", (int) len, total_path) < 0)
	previous = NULL;
      st = previous == NULL
	   ? (error_msg ("out of memory"), -1)
	   : write_recording (previous, &total,
			      "# the total before a change of class or "
			      "implementations, kept by fastcopy-fleet\n");
      if (st == 0)
	st = write_recording (total_path, &sample,
			      "# accumulated by fastcopy-fleet\n");
      if (st == 0)
	printf ("%s: a new total, from %s, whose class or implementations "
		"differ; the old one is %s\n", total_path, sample_path,
		previous);
      if (st == 0)
	report_bound (total_path, &sample);
      free (previous);
    }
  fcw_free (&total);
  fcw_free (&sample);
  return st ? 1 : 0;
}
