/* SPDX-License-Identifier: MIT */
/* SVG charts for fastcopy-bench and fastcopy-profile, written by hand: no library, plain
   elements a browser or rsvg-convert renders as they are.

   Layout: charts in a grid of two columns; each chart has its plot area on
   the left and its legend in a column on the right, so that no line hides
   a label.  Axes: log2 for byte sizes (ticks at powers of two), log10 with
   1-2-5 ticks for times and bandwidths, or linear.  */

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tools-interface.h"
#include "common/svg.h"

#define CHART_W 640
#define CHART_H 400
#define PLOT_X 78		/* plot area, relative to the chart */
#define PLOT_Y 40
#define PLOT_W 400
#define PLOT_H 300
#define LEGEND_X (PLOT_X + PLOT_W + 16)
#define HEAD_H 64		/* document heading */

/* Text with the XML specials escaped.  */
static void
put_text (FILE *f, const char *s)
{
  for (; *s; s++)
    switch (*s)
      {
      case '&': fputs ("&amp;", f); break;
      case '<': fputs ("&lt;", f); break;
      case '>': fputs ("&gt;", f); break;
      case '"': fputs ("&quot;", f); break;
      default: fputc (*s, f);
      }
}

static const char *const variant_colours[] = {
  "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
  "#17becf", "#bcbd22"
};
#define N_VARIANT_COLOURS (sizeof variant_colours / sizeof variant_colours[0])

/* Peers (--against) are solid lines like the two main contenders.  */
static const char *const peer_colours[] = {
  "#e6ab02", "#1b9e77", "#a6761d", "#666666"
};
#define N_PEER_COLOURS (sizeof peer_colours / sizeof peer_colours[0])

struct look
{
  const char *colour;
  double width;
  const char *dash;		/* NULL: solid */
};

static struct look
series_look (const struct fcb_chart *c, size_t i)
{
  struct look l = { "#000000", 2.0, NULL };
  size_t variant = 0, peer = 0;
  for (size_t j = 0; j < i; j++)
    {
      variant += c->series[j].style == FCB_STYLE_VARIANT;
      peer += c->series[j].style == FCB_STYLE_PEER;
    }
  switch (c->series[i].style)
    {
    case FCB_STYLE_GLIBC:
      break;
    case FCB_STYLE_FASTCOPY:
      l.colour = "#d62728";
      l.width = 2.5;
      break;
    case FCB_STYLE_PEER:
      l.colour = peer_colours[peer % N_PEER_COLOURS];
      l.width = 2.5;
      break;
    case FCB_STYLE_VARIANT:
      l.colour = variant_colours[variant % N_VARIANT_COLOURS];
      l.width = 1.5;
      l.dash = "6,3";
      break;
    case FCB_STYLE_REFERENCE:
      l.colour = "#7f7f7f";
      l.width = 1.5;
      l.dash = "2,3";
      break;
    }
  return l;
}

/* One axis: maps a value to [0, 1].  */
struct axis
{
  int log;			/* 0 linear, 2 log2, 10 log10 */
  double lo, hi;		/* in transformed units */
};

static double
axis_t (const struct axis *a, double v)
{
  if (a->log == 2)
    v = log2 (v);
  else if (a->log == 10)
    v = log10 (v);
  return a->hi > a->lo ? (v - a->lo) / (a->hi - a->lo) : 0.5;
}

static int
drawable (const struct axis *a, double v)
{
  return a->log == 0 || v > 0;
}

static void
format_number (char *buf, size_t len, double v)
{
  if (v != 0 && (fabs (v) >= 1e5 || fabs (v) < 1e-2))
    snprintf (buf, len, "%.0e", v);
  else
    snprintf (buf, len, "%g", v);
}

/* Horizontal and vertical tick lines and labels.  VERTICAL: ticks along x.  */
static void
tick (FILE *f, int ox, int oy, int vertical, double t, const char *label)
{
  if (t < -1e-9 || t > 1 + 1e-9)
    return;
  if (vertical)
    {
      double x = ox + PLOT_X + t * PLOT_W;
      fprintf (f, "<line x1='%.1f' y1='%d' x2='%.1f' y2='%d' stroke='#e0e0e0'/>\n",
	       x, oy + PLOT_Y, x, oy + PLOT_Y + PLOT_H);
      fprintf (f, "<text x='%.1f' y='%d' text-anchor='middle'>", x,
	       oy + PLOT_Y + PLOT_H + 16);
    }
  else
    {
      double y = oy + PLOT_Y + PLOT_H - t * PLOT_H;
      fprintf (f, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#e0e0e0'/>\n",
	       ox + PLOT_X, y, ox + PLOT_X + PLOT_W, y);
      fprintf (f, "<text x='%d' y='%.1f' text-anchor='end'>", ox + PLOT_X - 6,
	       y + 4);
    }
  put_text (f, label);
  fputs ("</text>\n", f);
}

static void
x_ticks (FILE *f, int ox, int oy, const struct fcb_chart *c,
	 const struct axis *a)
{
  char buf[32];
  if (a->log == 2)
    {
      int lo = (int) ceil (a->lo - 1e-9), hi = (int) floor (a->hi + 1e-9);
      int step = (hi - lo) / 10 + 1;
      for (int k = lo; k <= hi; k++)
	if (k % step == 0)
	  {
	    if (c->kind == FCB_CHART_SIZE && k >= 0 && k < 64)
	      fc_size_format (1ull << k, FC_SIZE_1_DECIMAL, buf, sizeof buf);
	    else
	      format_number (buf, sizeof buf, ldexp (1, k));
	    tick (f, ox, oy, 1, axis_t (a, ldexp (1, k)), buf);
	  }
      return;
    }
  double range = a->hi - a->lo;
  double step = pow (10, floor (log10 (range > 0 ? range : 1)));
  if (range / step < 4)
    step /= 2;
  for (double v = ceil (a->lo / step) * step; v <= a->hi + 1e-9; v += step)
    {
      format_number (buf, sizeof buf, v);
      tick (f, ox, oy, 1, axis_t (a, v), buf);
    }
}

static void
y_ticks (FILE *f, int ox, int oy, const struct axis *a)
{
  char buf[32];
  if (a->log == 10)
    {
      int decades = (int) ceil (a->hi - a->lo);
      static const double steps[] = { 1, 2, 5 };
      for (int k = (int) floor (a->lo); k <= (int) ceil (a->hi); k++)
	for (int s = 0; s < 3; s++)
	  {
	    if (decades > 3 && s > 0)
	      continue;
	    double v = steps[s] * pow (10, k);
	    double t = axis_t (a, v);
	    format_number (buf, sizeof buf, v);
	    tick (f, ox, oy, 0, t, buf);
	  }
      return;
    }
  double range = a->hi - a->lo;
  double step = pow (10, floor (log10 (range > 0 ? range : 1)));
  if (range / step < 4)
    step /= 2;
  if (range / step < 4)
    step /= 2;
  for (double v = ceil (a->lo / step) * step; v <= a->hi + 1e-9; v += step)
    {
      format_number (buf, sizeof buf, v);
      tick (f, ox, oy, 0, axis_t (a, v), buf);
    }
}

static void
legend (FILE *f, int ox, int oy, const struct fcb_chart *c)
{
  for (size_t i = 0; i < c->nseries; i++)
    {
      struct look l = series_look (c, i);
      int y = oy + PLOT_Y + 8 + (int) i * 20;
      if (c->kind == FCB_CHART_BARS)
	fprintf (f, "<rect x='%d' y='%d' width='22' height='10' fill='%s'/>\n",
		 ox + LEGEND_X, y - 5, l.colour);
      else
	fprintf (f, "<line x1='%d' y1='%d' x2='%d' y2='%d' stroke='%s' "
		 "stroke-width='%.1f'%s%s%s/>\n", ox + LEGEND_X, y,
		 ox + LEGEND_X + 22, y, l.colour, l.width,
		 l.dash ? " stroke-dasharray='" : "", l.dash ? l.dash : "",
		 l.dash ? "'" : "");
      fprintf (f, "<text x='%d' y='%d'>", ox + LEGEND_X + 28, y + 4);
      put_text (f, c->series[i].label);
      fputs ("</text>\n", f);
    }
}

static void
frame (FILE *f, int ox, int oy, const struct fcb_chart *c)
{
  fprintf (f, "<text x='%d' y='%d' font-size='14' font-weight='bold'>", ox + 10,
	   oy + 22);
  put_text (f, c->title);
  fputs ("</text>\n", f);
  fprintf (f, "<text x='%d' y='%d' text-anchor='middle'>", ox + PLOT_X + PLOT_W / 2,
	   oy + PLOT_Y + PLOT_H + 36);
  put_text (f, c->xlabel);
  fputs ("</text>\n", f);
  fprintf (f, "<text transform='translate(%d,%d) rotate(-90)' "
	   "text-anchor='middle'>", ox + 16, oy + PLOT_Y + PLOT_H / 2);
  put_text (f, c->ylabel);
  fputs ("</text>\n", f);
}

static void
border (FILE *f, int ox, int oy)
{
  fprintf (f, "<rect x='%d' y='%d' width='%d' height='%d' fill='none' "
	   "stroke='#404040'/>\n", ox + PLOT_X, oy + PLOT_Y, PLOT_W, PLOT_H);
}

/* The y axis for the values of C, padded to whole decades (log) or from 0
   (linear).  */
static struct axis
y_axis (const struct fcb_chart *c)
{
  struct axis a = { c->ylog ? 10 : 0, 0, 0 };
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < c->nseries; i++)
    for (size_t j = 0; j < c->series[i].n; j++)
      {
	double v = c->series[i].y[j];
	if (!(v > 0) || !isfinite (v))
	  continue;
	lo = fmin (lo, v);
	hi = fmax (hi, v);
      }
  if (c->refline > 0)
    {
      lo = fmin (lo, c->refline);
      hi = fmax (hi, c->refline);
    }
  if (!isfinite (lo))
    lo = 1, hi = 10;
  if (c->ylog)
    {
      a.lo = floor (log10 (lo));
      a.hi = ceil (log10 (hi));
      if (a.hi - a.lo < 1)
	a.hi = a.lo + 1;
    }
  else
    {
      a.lo = 0;
      a.hi = hi * 1.1;
    }
  return a;
}

static void
line_chart (FILE *f, int ox, int oy, const struct fcb_chart *c)
{
  struct axis ax = { c->kind == FCB_CHART_LINEAR ? 0 : 2, INFINITY, -INFINITY };
  for (size_t i = 0; i < c->nseries; i++)
    for (size_t j = 0; j < c->series[i].n; j++)
      {
	double v = c->series[i].x[j];
	if (!drawable (&ax, v))
	  continue;
	v = ax.log ? log2 (v) : v;
	ax.lo = fmin (ax.lo, v);
	ax.hi = fmax (ax.hi, v);
      }
  if (!isfinite (ax.lo))
    ax.lo = 0, ax.hi = 1;
  struct axis ay = y_axis (c);

  x_ticks (f, ox, oy, c, &ax);
  y_ticks (f, ox, oy, &ay);
  border (f, ox, oy);
  if (c->refline > 0)
    {
      double y = oy + PLOT_Y + PLOT_H - axis_t (&ay, c->refline) * PLOT_H;
      fprintf (f, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#808080' "
	       "stroke-dasharray='4,4'/>\n", ox + PLOT_X, y, ox + PLOT_X + PLOT_W, y);
    }

  for (size_t i = 0; i < c->nseries; i++)
    {
      const struct fcb_series *s = &c->series[i];
      struct look l = series_look (c, i);
      int open = 0;
      for (size_t j = 0; j < s->n; j++)
	{
	  if (!drawable (&ax, s->x[j]) || !(s->y[j] > 0) || !isfinite (s->y[j]))
	    {
	      if (open)
		fputs ("'/>\n", f);
	      open = 0;
	      continue;
	    }
	  double x = ox + PLOT_X + axis_t (&ax, s->x[j]) * PLOT_W;
	  double y = oy + PLOT_Y + PLOT_H - axis_t (&ay, s->y[j]) * PLOT_H;
	  if (!open)
	    fprintf (f, "<polyline fill='none' stroke='%s' stroke-width='%.1f'"
		     " stroke-linejoin='round'%s%s%s points='", l.colour,
		     l.width, l.dash ? " stroke-dasharray='" : "",
		     l.dash ? l.dash : "", l.dash ? "'" : "");
	  fprintf (f, "%s%.1f,%.1f", open ? " " : "", x, y);
	  open = 1;
	}
      if (open)
	fputs ("'/>\n", f);
    }
  legend (f, ox, oy, c);
}

static void
bar_chart (FILE *f, int ox, int oy, const struct fcb_chart *c)
{
  struct axis ay = y_axis (c);
  y_ticks (f, ox, oy, &ay);
  border (f, ox, oy);
  double group_w = (double) PLOT_W / (c->ncats ? c->ncats : 1);
  double bar_w = group_w * 0.8 / (c->nseries ? c->nseries : 1);
  for (size_t j = 0; j < c->ncats; j++)
    {
      double gx = ox + PLOT_X + j * group_w;
      for (size_t i = 0; i < c->nseries; i++)
	{
	  double v = j < c->series[i].n ? c->series[i].y[j] : 0;
	  if (!(v > 0))
	    continue;
	  struct look l = series_look (c, i);
	  double h = axis_t (&ay, v) * PLOT_H;
	  fprintf (f, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' "
		   "fill='%s'/>\n", gx + group_w * 0.1 + i * bar_w,
		   oy + PLOT_Y + PLOT_H - h, bar_w, h, l.colour);
	}
      /* Category names are short ("GoogleA"); at 10 px about 6 px a
	 character, which fits eight groups side by side.  */
      fprintf (f, "<text x='%.1f' y='%d' text-anchor='middle' font-size='%d'>",
	       gx + group_w / 2, oy + PLOT_Y + PLOT_H + 16,
	       strlen (c->cats[j]) * 7.5 > group_w * 0.9 ? 10 : 12);
      put_text (f, c->cats[j]);
      fputs ("</text>\n", f);
    }
  if (c->refline > 0)
    {
      double y = oy + PLOT_Y + PLOT_H - axis_t (&ay, c->refline) * PLOT_H;
      fprintf (f, "<line x1='%d' y1='%.1f' x2='%d' y2='%.1f' stroke='#000000' "
	       "stroke-dasharray='4,4'/>\n", ox + PLOT_X, y, ox + PLOT_X + PLOT_W, y);
    }
  legend (f, ox, oy, c);
}

int
fcb_svg_write (FILE *f, const char *title, const char *subtitle,
	       const struct fcb_chart *charts, size_t ncharts)
{
  int cols = ncharts > 1 ? 2 : 1;
  int rows = (int) ((ncharts + cols - 1) / cols);
  int w = cols * CHART_W, h = HEAD_H + rows * CHART_H;

  fprintf (f, "<?xml version='1.0' encoding='UTF-8'?>\n"
	   "<svg xmlns='http://www.w3.org/2000/svg' width='%d' height='%d' "
	   "viewBox='0 0 %d %d' font-family='sans-serif' font-size='12'>\n",
	   w, h, w, h);
  fprintf (f, "<rect width='%d' height='%d' fill='#ffffff'/>\n", w, h);
  fputs ("<text x='12' y='26' font-size='18' font-weight='bold'>", f);
  put_text (f, title);
  fputs ("</text>\n<text x='12' y='48' fill='#404040'>", f);
  put_text (f, subtitle);
  fputs ("</text>\n", f);
  for (size_t i = 0; i < ncharts; i++)
    {
      int ox = (int) (i % cols) * CHART_W;
      int oy = HEAD_H + (int) (i / cols) * CHART_H;
      frame (f, ox, oy, &charts[i]);
      if (charts[i].kind == FCB_CHART_BARS)
	bar_chart (f, ox, oy, &charts[i]);
      else
	line_chart (f, ox, oy, &charts[i]);
    }
  fputs ("</svg>\n", f);
  return ferror (f) ? -1 : 0;
}
