/* SPDX-License-Identifier: MIT */
/* fastcopy-profile --report: a recording (or a distribution) as tables,
   and as an SVG chart of sizes against calls and against bytes.

   Sizes are shown in classes of powers of two (0, 1, 2-3, 4-7, ...), those
   with calls: the recording's buckets never straddle one, so each falls in
   one class.  */

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "common/json.h"
#include "common/message.h"
#include "profile/profile.h"
#include "tools-interface.h"
#include "common/svg.h"
#include "common/workload.h"

#define CLASSES 66		/* size 0, then [2^(k-1), 2^k - 1] */

static int
class_of (unsigned long long size)
{
  return size == 0 ? 0 : 64 - __builtin_clzll (size);
}

/* "0", "1", "2-3", "64 KiB-128 KiB" (the upper end exclusive from 1 KiB
   on, where the sizes are written in units).  */
static void
class_text (int k, char *buf, size_t size)
{
  if (k <= 1)
    snprintf (buf, size, "%d", k);
  else if (k <= 10)
    snprintf (buf, size, "%llu-%llu", 1ull << (k - 1), (1ull << k) - 1);
  else
    {
      char a[24], b[24];
      /* k <= 62: a recording's sizes are below 2^62 (workload.c).  */
      fc_size_format (1ull << (k - 1), FC_SIZE_1_DECIMAL, a, sizeof a);
      fc_size_format (1ull << k, FC_SIZE_1_DECIMAL, b, sizeof b);
      snprintf (buf, size, "%s-%s", a, b);
    }
}

static double
percent (double part, double whole)
{
  return whole > 0 ? 100 * part / whole : 0;
}

/* The calls and bytes of FA by class.  */
static void
by_class (const struct fcw_family *fa, struct fcw_tally *cls)
{
  memset (cls, 0, CLASSES * sizeof *cls);
  for (size_t b = 0; b < fa->nbuckets; b++)
    {
      struct fcw_tally *t = &cls[class_of (fa->bucket[b].lo)];
      t->calls += fa->bucket[b].t.calls;
      t->bytes += fa->bucket[b].t.bytes;
    }
}

static void
size_table (const struct fcw_family *fa)
{
  struct fcw_tally cls[CLASSES];
  by_class (fa, cls);
  printf ("  %-18s %14s %7s %7s %16s %7s %7s\n", "size", "calls", "%",
	  "cum %", "bytes", "%", "cum %");
  double cum_calls = 0, cum_bytes = 0;
  for (int k = 0; k < CLASSES; k++)
    {
      if (!(cls[k].calls > 0))
	continue;
      char b[48];
      class_text (k, b, sizeof b);
      cum_calls += cls[k].calls;
      cum_bytes += cls[k].bytes;
      /* A distribution has shares, not counts.  */
      char calls[24] = "-", bytes[24] = "-";
      if (fa->recorded)
	{
	  snprintf (calls, sizeof calls, "%.0f", cls[k].calls);
	  snprintf (bytes, sizeof bytes, "%.0f", cls[k].bytes);
	}
      printf ("  %-18s %14s %6.1f%% %6.1f%% %16s %6.1f%% %6.1f%%\n", b,
	      calls, percent (cls[k].calls, fa->calls),
	      percent (cum_calls, fa->calls), bytes,
	      percent (cls[k].bytes, fa->bytes),
	      percent (cum_bytes, fa->bytes));
    }
}

/* The share of calls whose address mod 64 is a multiple of 64, 16, 8.  */
static void
alignment_line (const char *what, const struct fcw_tally *align, double calls)
{
  double a64 = 0, a16 = 0, a8 = 0;
  for (int i = 0; i < 64; i++)
    {
      a64 += i == 0 ? align[i].calls : 0;
      a16 += i % 16 == 0 ? align[i].calls : 0;
      a8 += i % 8 == 0 ? align[i].calls : 0;
    }
  printf ("  %s: 64-byte aligned %.1f%%, 16-byte %.1f%%, 8-byte %.1f%%\n",
	  what, percent (a64, calls), percent (a16, calls),
	  percent (a8, calls));
}

/* A function row of a recording as a report shows it.  The library
   records some exported functions under one row because it cannot tell
   their calls apart (fastcopy-profile(1), FILE FORMAT): memcpy and
   memmove are one entry point, bzero calls the body memset jumps to.  The
   report says so rather than name one of them.  */
static const char *
function_label (const char *row)
{
  static const struct
  {
    const char *row, *label;
  } groups[] = {
    { "memcpy", "memcpy/memmove (one entry, not told apart)" },
    { "memset", "memset/bzero (not told apart)" },
  };
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
    if (strcmp (row, groups[i].row) == 0)
      return groups[i].label;
  return row;
}

static void
named_line (const char *what, const struct fcw_tally *t,
	    const char *const *names, int n, double calls)
{
  printf ("  %s:", what);
  for (int i = 0; i < n; i++)
    printf ("%s %s %.1f%%", i ? "," : "", names[i],
	    percent (t[i].calls, calls));
  putchar ('\n');
}

static void
family_report (const struct fcw_family *fa, const char *name)
{
  if (!fa->recorded)
    {
      printf ("\n%s: mean %.1f bytes per call\n", name, fa->bytes / fa->calls);
      size_table (fa);
      return;
    }
  printf ("\n%s: %.0f calls, %.0f bytes, mean %.1f bytes per call\n", name,
	  fa->calls, fa->bytes, fa->bytes / fa->calls);
  size_table (fa);
  printf ("  functions:");
  for (int i = 0; i < fa->nfunctions; i++)
    printf ("%s %s %.0f calls (%.1f%%)", i ? "," : "",
	    function_label (fa->function[i].name), fa->function[i].t.calls,
	    percent (fa->function[i].t.calls, fa->calls));
  putchar ('\n');
  alignment_line ("destination", fa->dst_align, fa->calls);
  if (strcmp (name, "copy") != 0)
    return;
  alignment_line ("source", fa->src_align, fa->calls);
  named_line ("(dst - src) mod 4096", fa->distance, fcw_distance_names,
	      FC_REC_NDIST, fa->calls);
  named_line ("buffers overlapping", fa->overlap, fcw_overlap_names,
	      FC_REC_NOVERLAP, fa->calls);
}

/* The same as JSON: one object per family, its size classes, and for a
   recording its functions and alignments.  */
static void
family_json (const struct fcw_family *fa, const char *name, int *first)
{
  struct fcw_tally cls[CLASSES];
  by_class (fa, cls);
  json_str_field ("family", name, first);
  json_bool_field ("recorded", fa->recorded, first);
  if (fa->recorded)
    {
      json_double_field ("calls", fa->calls, first);
      json_double_field ("bytes", fa->bytes, first);
    }
  json_double_field ("mean_bytes", fa->bytes / fa->calls, first);
  json_key ("sizes", first);
  putchar ('[');
  for (int k = 0, n = 0; k < CLASSES; k++)
    if (cls[k].calls > 0)
      {
	int f = 1;
	printf ("%s{", n++ ? "," : "");
	json_num_field ("lo", k == 0 ? 0 : 1ull << (k - 1), &f);
	json_num_field ("hi", k == 0 ? 0 : (1ull << (k - 1)) * 2 - 1, &f);
	json_double_field ("calls_percent", percent (cls[k].calls, fa->calls),
			   &f);
	json_double_field ("bytes_percent", percent (cls[k].bytes, fa->bytes),
			   &f);
	putchar ('}');
      }
  putchar (']');
  if (!fa->recorded)
    return;
  json_key ("functions", first);
  putchar ('[');
  for (int i = 0; i < fa->nfunctions; i++)
    {
      int f = 1;
      printf ("%s{", i ? "," : "");
      json_str_field ("row", fa->function[i].name, &f);
      json_str_field ("label", function_label (fa->function[i].name), &f);
      json_double_field ("calls", fa->function[i].t.calls, &f);
      json_double_field ("bytes", fa->function[i].t.bytes, &f);
      putchar ('}');
    }
  putchar (']');
  json_key ("destination_aligned_percent", first);
  double a[3] = { 0, 0, 0 };
  for (int i = 0; i < 64; i++)
    {
      a[0] += i == 0 ? fa->dst_align[i].calls : 0;
      a[1] += i % 16 == 0 ? fa->dst_align[i].calls : 0;
      a[2] += i % 8 == 0 ? fa->dst_align[i].calls : 0;
    }
  int f = 1;
  putchar ('{');
  json_double_field ("64", percent (a[0], fa->calls), &f);
  json_double_field ("16", percent (a[1], fa->calls), &f);
  json_double_field ("8", percent (a[2], fa->calls), &f);
  putchar ('}');
}

/* Per family, the shares of calls and of bytes by class, sizes from 1 on
   a log2 axis (size 0 has no place on it).  */
static int
write_svg (const struct fcw_workload *w, const char *path)
{
  static double x[2][CLASSES], y[2][2][CLASSES];
  struct fcb_series series[2][2];
  struct fcb_chart charts[2];
  static const char *const names[2] = { "copy", "clear" };
  char titles[2][64];
  size_t n = 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      const struct fcw_family *fa = &w->family[f];
      if (!(fa->calls > 0) || (f > 0 && !fa->recorded))
	continue;
      struct fcw_tally cls[CLASSES];
      by_class (fa, cls);
      size_t m = 0;
      for (int k = 1; k < CLASSES; k++)
	if (cls[k].calls > 0)
	  {
	    x[n][m] = ldexp (1, k - 1);
	    y[n][0][m] = percent (cls[k].calls, fa->calls);
	    y[n][1][m++] = percent (cls[k].bytes, fa->bytes);
	  }
      series[n][0] = (struct fcb_series) { "% of calls", FCB_STYLE_GLIBC,
					   m, x[n], y[n][0] };
      series[n][1] = (struct fcb_series) { "% of bytes", FCB_STYLE_FASTCOPY,
					   m, x[n], y[n][1] };
      if (fa->recorded)
	snprintf (titles[n], sizeof titles[n], "%s: %.0f calls, mean %.0f B",
		  names[f], fa->calls, fa->bytes / fa->calls);
      else
	snprintf (titles[n], sizeof titles[n], "sizes: mean %.0f B",
		  fa->bytes / fa->calls);
      charts[n] = (struct fcb_chart) {
	.title = titles[n], .xlabel = "size (from 2^k up to 2^(k+1))",
	.ylabel = "% of calls, % of bytes", .kind = FCB_CHART_SIZE,
	.nseries = 2, .series = series[n] };
      n++;
    }
  FILE *f = fopen (path, "w");
  if (f == NULL)
    {
      error_msg ("%s: %m", path);
      return 1;
    }
  char title[PATH_MAX + 32];
  snprintf (title, sizeof title, "%s: sizes against calls and bytes",
	    w->name);
  int bad = fcb_svg_write (f, title, w->command[0] ? w->command : w->path,
			   charts, n) != 0;
  if (fclose (f) != 0 || bad)
    {
      error_msg ("%s: write failed", path);
      return 1;
    }
  return 0;
}

int
report (const char *path, const char *svg, int json)
{
  struct fcw_workload w;
  char err[PATH_MAX + 256];
  if (fcw_load (&w, path, err, sizeof err) != 0)
    {
      error_msg ("%s", err);
      return 1;
    }
  int first = 1, n = 0;
  if (json)
    {
      putchar ('{');
      json_str_field ("file", w.path, &first);
      json_str_field ("command", w.command[0] ? w.command : NULL, &first);
      json_key ("families", &first);
      putchar ('[');
    }
  else
    printf ("%s: %s\n", w.path, w.command[0] ? w.command
	    : w.family[0].recorded ? "a recording" : "a size distribution "
	    "(for copies and clears alike, no alignments recorded)");
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    if (w.family[f].calls > 0 && (f == 0 || w.family[f].recorded))
      {
	const char *name = w.family[f].recorded ? (f ? "clear" : "copy")
			   : "sizes";
	if (!json)
	  family_report (&w.family[f], name);
	else
	  {
	    int ff = 1;
	    printf ("%s{", n++ ? "," : "");
	    family_json (&w.family[f], name, &ff);
	    putchar ('}');
	  }
      }
  if (json)
    printf ("]}\n");
  int status = svg ? write_svg (&w, svg) : 0;
  fcw_free (&w);
  return status;
}
