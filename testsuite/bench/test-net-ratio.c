/* SPDX-License-Identifier: MIT */
/* fastcopy-bench's net ratio (net-ratio.h) on made-up figures, each with
   its answer worked out by hand.  testsuite/libfastcopy.bench builds and
   runs it.  Prints PASS/FAIL lines; exits 1 when one failed.  */

#include <math.h>
#include <stdio.h>

#include "bench/net-ratio.h"

struct tcase
{
  const char *name;
  double t, glibc, null_t;
  double want;			/* NAN: no net ratio */
  double within;		/* 0: exactly WANT */
};

#define CASE(NAME, T, GLIBC, NULL_T, WANT) \
  { .name = NAME, .t = T, .glibc = GLIBC, .null_t = NULL_T, .want = WANT }

static const struct tcase cases[] = {
  CASE ("half of glibc's work above the floor", 6, 10, 2, 0.5),
  CASE ("glibc against itself", 10, 10, 2, 1),
  CASE ("glibc against itself, figures that are no round numbers",
	2658.75, 2658.75, 1961.382, 1),
  CASE ("the null contender against itself", 2, 10, 2, 0),
  CASE ("faster than the null contender (noise): below 0", 1, 10, 2, -0.125),
  CASE ("slower than glibc: above 1", 18, 10, 2, 2),
  CASE ("no floor: the plain ratio", 3, 4, 0, 0.75),
  /* Ratios to glibc: the memcpy distributions of a Zen 4, libfastcopy
     0.468 and the null contender 0.279 of glibc's time: (0.468 - 0.279)
     / (1 - 0.279) = 0.189 / 0.721.  */
  { .name = "ratios: 0.468 over a floor of 0.279", .t = 0.468, .glibc = 1,
    .null_t = 0.279, .want = 0.262135922, .within = 1e-9 },
  CASE ("glibc no slower than the floor: none", 3, 2, 2, NAN),
  CASE ("glibc faster than the floor: none", 3, 1.9, 2, NAN),
  /* glibc 0.1% above the floor would give 712 for a contender 0.712
     above it: no ratio where glibc's work is under 5% of its time.  */
  CASE ("glibc 0.1% above the floor: none", 1.711, 1, 0.999, NAN),
  CASE ("glibc's work 4.9% of its time: none", 1, 1, 0.951, NAN),
  { .name = "glibc's work 5.1% of its time: a ratio", .t = 1, .glibc = 1,
    .null_t = 0.949, .want = 1, .within = 1e-12 },
};

int
main (void)
{
  int failed = 0;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    {
      const struct tcase *c = &cases[i];
      double got = fcb_net_ratio (c->t, c->glibc, c->null_t);
      int ok = isnan (c->want) ? isnan (got)
	       : c->within > 0 ? fabs (got - c->want) < c->within
	       : got == c->want;
      printf ("%s: %s (%g, %g, %g): %.9g\n", ok ? "PASS" : "FAIL", c->name,
	      c->t, c->glibc, c->null_t, got);
      failed |= !ok;
    }
  return failed;
}
