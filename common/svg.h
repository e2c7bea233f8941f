/* SPDX-License-Identifier: MIT */
/* SVG charts written as one hand-made SVG document (svg.c), for
   fastcopy-bench and fastcopy-profile's report.  */

#ifndef FASTCOPY_SVG_H
#define FASTCOPY_SVG_H 1

#include <stddef.h>
#include <stdio.h>

enum fcb_chart_kind
{
  FCB_CHART_SIZE,		/* x: bytes, log2 axis */
  FCB_CHART_LOG2,		/* x: plain numbers, log2 axis */
  FCB_CHART_LINEAR,		/* x: plain numbers, linear axis */
  FCB_CHART_BARS		/* grouped bars over named categories */
};

enum fcb_style
{
  FCB_STYLE_GLIBC,
  FCB_STYLE_FASTCOPY,
  FCB_STYLE_PEER,
  FCB_STYLE_VARIANT,
  FCB_STYLE_REFERENCE
};

struct fcb_series
{
  const char *label;
  enum fcb_style style;
  size_t n;
  double *x;			/* unused for bars: y[i] belongs to category i */
  double *y;			/* values <= 0 are not drawn */
};

struct fcb_chart
{
  const char *title;
  const char *xlabel;
  const char *ylabel;
  enum fcb_chart_kind kind;
  int ylog;
  double refline;		/* horizontal line at this y; 0: none */
  size_t nseries;
  struct fcb_series *series;
  size_t ncats;			/* bars only */
  const char **cats;
};

/* Write CHARTS as one SVG document with heading TITLE and a second line
   SUBTITLE.  Returns 0, or -1 if writing failed.  */
int fcb_svg_write (FILE *f, const char *title, const char *subtitle,
		   const struct fcb_chart *charts, size_t ncharts);

#endif
