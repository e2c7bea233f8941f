/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: declarations shared by its source files.

   main.c         options, the heading, the settings printed and written
   candidates.c   the candidates: every usable implementation of a family
                  with the thresholds it reads
   points.c       what is measured: the workloads, fixed sizes hot and
                  cold, the aliasing sweep; the buffers; running a point
   figures.c      a candidate's figures against glibc, and the objective
   objective.c    the objective, a pure function of the figures
   choose.c       measuring every candidate and choosing one per family
   deployed.c     a candidate as it runs once written: the exported
                  function of a copy of the library loaded with its settings
   compare.c      the decision among the default and the best candidates,
                  timed as deployed
   config-write.c installing settings into the configuration file
   The measuring engine is fastcopy-bench's (common/measure.h).  */

#ifndef FASTCOPY_TUNE_H
#define FASTCOPY_TUNE_H 1

#include <stddef.h>
#include <stdint.h>

#include "fastcopy.h"
#include "common/measure.h"
#include "common/message.h"
#include "tools-interface.h"
#include "common/workload.h"

#define KiB 1024ull
#define MiB (1024ull * 1024ull)
#define NEVER FASTCOPY_NEVER

/* The objective's bounds (objective.c).  A fixed size up to 10% slower
   than glibc is never held against a candidate; beyond that, up to 5%
   above the best worst ratio.  DIST_NOISE: how far two measurements of
   the same candidate's workloads geomean differ in one run (up to 2% on
   Emerald Rapids: 1.047 and 1.049, 2.268 and 2.292, 0.519 and 0.509).  */
#define SLOWER_LIMIT 1.10
#define WORST_MARGIN 0.05
#define DIST_NOISE 0.03

#define MAX_WORKLOADS 32
#define MAX_POINTS 512
#define MAX_CANDIDATES 128

struct options
{
  int quick, write, compare, quiet, verbose, list;
  const char *config;
  int nset;
  char *set[16];
  int nworkload;
  char *workload[MAX_WORKLOADS];	/* --workload files */
};
extern struct options opt;

/* main.c  */
/* One progress line on stderr (overwritten on a terminal); none with
   --quiet.  */
void progress (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));
void progress_done (void);
/* What the candidates are chosen by, as the output names it:
   "distributions" (the ones fastcopy-bench ships) or, with --workload,
   "workloads".  */
const char *workloads_name (void);

/* points.c: what every candidate is measured on, per family.  */
enum point_kind
{
  PK_WORKLOAD,			/* a call sequence drawn from a workload */
  PK_HOT,			/* one size, the same buffers every call */
  PK_COLD,			/* one size, slots of a pool beyond the caches */
  PK_ALIAS			/* copies of ALIAS_SIZE at one (dst-src) mod
				   4096 */
};
#define PK_ALL 0xfu
#define PK_BIT(kind) (1u << (kind))
#define ALIAS_SIZE (16 * KiB)

struct tpoint
{
  enum point_kind kind;
  size_t size;			/* per call; PK_WORKLOAD: unused */
  int misaligned;		/* PK_HOT: src at +5, dst at +3 */
  size_t distance;		/* PK_ALIAS */
  int workload;			/* PK_WORKLOAD: index into workloads */
};

struct point_set
{
  enum fastcopy_family family;
  int n;
  struct tpoint p[MAX_POINTS];
};

/* The workloads every candidate is measured on; a family is measured on
   those that have calls of it.  */
extern struct fcw_workload workloads[MAX_WORKLOADS];
extern int nworkloads;

/* Load the workloads: the files at PATHS, or with N 0 the distributions
   that fastcopy-bench ships.  Enough to plan the points.  */
void points_load (char *const *paths, int n);
/* Before measuring: draw the workloads' call sequences and map the
   buffers for every point.  */
void points_setup (void);

/* The points of FAMILY.  EXTRA sizes (NEXTRA of them: thresholds the
   candidates may take) are measured cold too, where they fit.  */
void points_plan (struct point_set *ps, enum fastcopy_family family,
		  const unsigned long long *extra, int nextra);

/* The points of the streaming stage (candidates.c): the workloads, and
   each of the NNT streaming thresholds NT from 1 MiB up to the largest
   cold size, and that size, hot and cold.  */
void stream_points_plan (struct point_set *ps, enum fastcopy_family family,
			 const unsigned long long *nt, int nnt);

/* "hot 128 B misaligned", "cold 4 MiB", "GoogleA", "alias 33".  */
const char *point_text (const struct tpoint *p, char *buf, size_t size);

/* Every size some point of PS calls with, sorted, into *SIZES (from
   malloc); returns how many.  WORKLOADS: only the workloads' sizes (the
   ends of their buckets), else only the others.  */
size_t points_sizes (const struct point_set *ps, int workloads_only,
		     size_t **sizes);

/* Measure the NFN functions FNS at each point of PS whose kind is in
   KINDS, interleaved as measure.h describes, ROUNDS rounds; RESULT gets
   the median ns per repetition of every function at every point.  LABEL
   heads the progress lines.  */
typedef void (*point_result_fn) (const struct tpoint *p, const double *med,
				 void *arg);
void points_run (const struct point_set *ps, unsigned int kinds,
		 const struct fcm_fn *const *fns, int nfn, unsigned int rounds,
		 point_result_fn result, void *arg, const char *label);

/* The engine's function for glibc's memcpy or memset, found in
   libc.so.6 itself; and for FAMILY's implementation IMPL, whose
   thresholds ITEMS (fastcopy_set) are applied before every sample.  */
struct fcm_fn glibc_fn (enum fastcopy_family family);
struct fcm_fn impl_fn (const struct fastcopy_impl *impl, const char *items);
const char *glibc_version (void);
/* Before every sample of a function: one untimed call, so that the
   sample starts from the caches its own path leaves.  */
void points_warm_up (const struct fcm_fn *fn, struct fcm_calls *calls);

/* figures.c: a candidate against glibc over the points; objective.c: the
   figures the objective reads, and the objective.  */
struct figures
{
  double dist[MAX_WORKLOADS];	/* ratio per workload; 0: not measured */
  double dist_geomean;		/* 1 when no workload was measured */
  double fixed_log_sum;		/* hot and cold */
  int nfixed;
  double hot_log_sum;		/* hot only: a destination in cache */
  int nhot;
  double worst;			/* the highest hot or cold ratio */
  struct tpoint worst_at;
  double alias_worst;		/* the highest aliasing ratio; 0: none */
  size_t alias_at;
};

void figures_reset (struct figures *f);
/* Count RATIO (time / glibc's time) at P.  */
void figures_add (struct figures *f, const struct tpoint *p, double ratio);
/* The geometric mean of the workloads' ratios.  */
void figures_finish (struct figures *f);
double figures_fixed_geomean (const struct figures *f);
double figures_hot_geomean (const struct figures *f);
/* The worst ratio over every fixed-size point, aliasing included.  */
double figures_worst (const struct figures *f);
/* No fixed size (hot, cold or aliasing) more than SLOWER_LIMIT times
   glibc's time.  */
int figures_qualify (const struct figures *f);
/* The candidate of the N whose figures are FIG that the objective
   chooses, the default being DFLT; whether candidate I is among those it
   chooses from; and the worst ratio they may have.  */
int objective_choose (const struct figures *fig, int n, int dflt);
int objective_eligible (const struct figures *fig, int n, int dflt, int i);
double objective_worst_bound (const struct figures *fig, int n, int dflt);
/* The columns of a table row: distributions, worst hot/cold and where,
   aliasing worst and where.  */
void figures_print (const struct figures *f, enum fastcopy_family family);
void figures_print_heading (enum fastcopy_family family, int label_width);

/* candidates.c  */
struct candidate
{
  const struct fastcopy_impl *impl;
  unsigned long long rep, nt;	/* NEVER where the implementation reads
				   none */
  char items[160];		/* fastcopy_set before every sample */
  char label[64];		/* "avx2 rep=2KiB nt=16MiB" */
  int is_default;		/* the library's own choice */
  int shares;			/* the candidate whose workload figures are
				   this one's: the same path at every
				   workload size */
  struct figures fig;
};

struct family
{
  enum fastcopy_family id;
  const char *name;		/* "copy", "clear" */
  const char *rep_key, *nt_key;	/* the settings of its thresholds */
  struct point_set points;
  int n;
  struct candidate c[MAX_CANDIDATES];
  int chosen;			/* index into c */
  int dflt;			/* the library's default, index into c */
};

/* F's points, and its candidates of the first stage (candidates.c): for
   every usable implementation, every value of the REP ladder it reads,
   the default streaming threshold, less those that take the same path as
   an earlier one at every size measured.  The library's default comes
   first among its implementation's.  F->id says which family.  */
void candidates_make (struct family *f);
/* The second stage for F, once chosen: its candidate with every value of
   the streaming ladder, into S, on S's points.  Returns 0 when there is
   nothing to choose (no streaming threshold, or one path for all).  */
int stream_candidates_make (struct family *s, const struct family *f);
/* F's choice takes the streaming threshold S chose; the default candidate
   stays as it is.  */
void candidate_take_nt (struct family *f, const struct family *s);
/* Which path a candidate's implementation takes at size N: 'V' (vector
   or register loop), 'R' (REP) or 'S' (streaming stores).  */
char candidate_path (const struct candidate *c, size_t n);

/* choose.c: measure F's candidates, print the table, choose.  */
void choose (struct family *f);

/* deployed.c: candidate C of family F as it runs once written, through
   the exported memcpy or memset of a copy of libfastcopy loaded with C's
   settings in FASTCOPY; REPORT gets what that copy says it runs.  At
   most MAX_DEPLOYED per family.  */
#define MAX_DEPLOYED 3
struct fcm_fn deployed_fn (const struct family *f, const struct candidate *c,
			   char *report, size_t size);

/* compare.c: the decision, timed as deployed.  F's default, its choice
   and the best candidate of another implementation, through the
   exported function, measured again on F's points and S's large sizes
   (S: the streaming stage, or NULL); the objective chooses among them,
   and a choice slower than the default on the workloads gives way to
   the default.  F->chosen becomes the decision.  */
void compare (struct family *f, const struct family *s);
/* Whether the candidate of FIG[1] may replace the default of FIG[0],
   both timed as deployed: the objective's first two rules, and not
   slower than the default on the workloads at all.  */
int objective_confirmed (const struct figures *fig);

/* config-write.c: put the N settings KEYS = VALUES into the
   configuration file PATH, keeping its other lines (HEADER: the comment
   above appended keys).  Exits on failure.  */
void write_config (const char *path, int n, char *const *keys,
		   char *const *values, const char *header);

#endif
