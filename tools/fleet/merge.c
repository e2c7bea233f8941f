/* SPDX-License-Identifier: MIT */
/* fastcopy-fleet merge: recordings of one class of machines into one
   (fastcopy-fleet(1)).  Every file is loaded and checked before anything
   is written, and the output replaces OUT atomically, so that OUT may be
   one of the inputs (a running total).  */

#define _GNU_SOURCE 1
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/message.h"
#include "fleet/fleet.h"

int
load_recording (const char *path, struct fcw_workload *w)
{
  char err[PATH_MAX + 256];
  if (fcw_load (w, path, err, sizeof err) != 0)
    {
      error_msg ("%s", err);
      return -1;
    }
  const char *why = NULL;
  if (!w->family[FASTCOPY_FAMILY_COPY].recorded)
    why = "a size distribution, not a recording";
  else if (!w->has_end_line)
    why = "no end line ('# end: N lines'): the file was cut short, or "
	  "written before recordings had one (record it again)";
  if (why != NULL)
    {
      error_msg ("%s: %s", path, why);
      fcw_free (w);
      return -1;
    }
  return 0;
}

char *
recording_text (const struct fcw_workload *w, const char *comment,
		size_t *len)
{
  char *text = NULL;
  FILE *f = open_memstream (&text, len);
  if (f == NULL || fcw_write (f, w, comment) != 0 || fclose (f) != 0)
    {
      error_msg ("out of memory");
      free (text);
      return NULL;
    }
  return text;
}

void
report_bound (const char *path, const struct fcw_workload *w)
{
  const struct fcw_bound *b = &w->bound;
  if (!b->known)
    {
      printf ("%s: bound unknown (a recording added up states none): "
	      "whether it is enough to tune from cannot be told\n", path);
      return;
    }
  /* Judged as the recording writes it, to four decimals, so that the
     file read again is judged alike.  */
  int enough = 1;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    if (round (b->tvd[f] * 1e4) > round (FCW_ENOUGH_BOUND * 1e4))
      enough = 0;
  printf ("%s: bound copy=%.4f clear=%.4f share=%.4f (95%%): %s %.2f\n",
	  path, b->tvd[FASTCOPY_FAMILY_COPY], b->tvd[FASTCOPY_FAMILY_CLEAR],
	  b->share, enough ? "enough to tune from, both families within"
	  : "not yet enough: keep sampling until both families are within",
	  FCW_ENOUGH_BOUND);
}

int
merge_main (const char *out, int mix, char *const *paths, int n)
{
  struct fcw_workload total, one;
  if (load_recording (paths[0], &total) != 0)
    return 1;
  for (int i = 1; i < n; i++)
    {
      if (load_recording (paths[i], &one) != 0)
	{
	  fcw_free (&total);
	  return 1;
	}
      if (!mix && !fcw_machine_class_equal (&total.machine_class,
					    &one.machine_class))
	{
	  char a[FCW_MACHINE_CLASS_TEXT], b[FCW_MACHINE_CLASS_TEXT];
	  error_msg ("%s is of class %s, %s of class %s: merge recordings of "
		     "one class, or give --mix", paths[0],
		     fcw_machine_class_text (&total.machine_class, a,
					     sizeof a),
		     paths[i],
		     fcw_machine_class_text (&one.machine_class, b, sizeof b));
	  fcw_free (&one);
	  fcw_free (&total);
	  return 1;
	}
      int bad = fcw_merge (&total, &one);
      fcw_free (&one);
      if (bad)
	{
	  error_msg ("out of memory");
	  fcw_free (&total);
	  return 1;
	}
    }
  char *comment;
  if (asprintf (&comment, "# merged by fastcopy-fleet from %d recording%s\n",
		n, n == 1 ? "" : "s") < 0)
    comment = NULL;
  size_t len;
  char *text = comment ? recording_text (&total, comment, &len) : NULL;
  int st = text != NULL && write_output (out, text, len) == 0 ? 0 : 1;
  if (st == 0)
    report_bound (out, &total);
  free (text);
  free (comment);
  fcw_free (&total);
  return st;
}
