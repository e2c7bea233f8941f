/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: the net ratio.  A plain ratio is a contender's time
   over glibc's.  The net ratio first takes away from both the floor, the
   time of the null contender (a function that returns at once, called as
   every other one is): what is left is the work of the function itself,
   so the net ratio says how much of glibc's work a contender needs, and
   how close a result is to the limit the harness leaves.  */

#ifndef FASTCOPY_NET_RATIO_H
#define FASTCOPY_NET_RATIO_H 1

#include <math.h>

/* Below this share of glibc's time, glibc's own work (GLIBC - NULL_T)
   is within the noise of the two medians: a percent of either would
   change the net ratio by a fifth or more.  */
#define FCB_NET_MIN_WORK 0.05

/* (T - NULL_T) / (GLIBC - NULL_T): 1 for glibc itself, 0 for the null
   contender, below 0 for a contender faster than the null one (noise).
   The three may be times, or ratios to glibc (GLIBC then 1).  NAN when
   glibc's work is not above FCB_NET_MIN_WORK of its time: there is no
   work of glibc's to compare with.  */
static inline double
fcb_net_ratio (double t, double glibc, double null_t)
{
  if (!(glibc - null_t > FCB_NET_MIN_WORK * glibc))
    return NAN;
  return (t - null_t) / (glibc - null_t);
}

#endif /* net-ratio.h */
