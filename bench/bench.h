/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: declarations shared by its source files.

   fastcopy-bench.c  options, the heading, main
   glibc-root.c      --glibc-root: running under another glibc's loader
   cases.c           the cases, and planning their groups and points
   contenders.c      the functions measured: glibc's, libfastcopy's, its
                     table's, and those of the --against libraries
   distributions.c   the size distributions and their call sequences
   run.c             measuring the planned points
   report.c          tables, CSV, SVG charts, the summary
   net-ratio.h       the net ratio, above the null contender's time
   targets.c         the targets file: its sets, and judging their targets
   stream.c          the streaming reference
   and, in the programs' internal library common/libcommon.a, which the
   tools link too (common/common.am):
   measure.c         the measuring engine
   workload.c        reading a distribution or recording, drawing its calls
   data-dir.c        where the data files are looked for
   svg.c             SVG charts  */

#ifndef FASTCOPY_BENCH_H
#define FASTCOPY_BENCH_H 1

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/data-dir.h"
#include "fastcopy.h"
#include "common/measure.h"
#include "common/message.h"
#include "net-ratio.h"
#include "tools-interface.h"
#include "common/svg.h"

#define KiB ((size_t) 1 << 10)
#define MiB ((size_t) 1 << 20)
#define PAGE 4096ul
#define N_OF(a) (sizeof (a) / sizeof (a)[0])

#define MAX_CONTENDERS FCM_MAX_FNS
#define MAX_ROUNDS FCM_MAX_ROUNDS
#define MAX_PEERS 4		/* --against libraries */
#define MAX_DISTS 16		/* --dist files */

/* fastcopy-bench.c: the options.  */
struct options
{
  int quick;
  unsigned int rounds;		/* 0: mode default */
  double time_ms;		/* 0: mode default */
  const char *csv;
  const char *svg;
  const char *lib;
  const char *against[MAX_PEERS];
  int nagainst;
  const char *glibc_root;
  const char *data;
  const char *dists[MAX_DISTS];	/* --dist files */
  int ndists;
  int cpu;			/* -1: the most idle one */
  int pin;
  int quiet;
  int strict;
  unsigned long long seed;
  unsigned int calls;
  size_t pool;			/* bytes; 0: mode default */
  unsigned int cases;		/* bit per case */
  int progress;			/* progress lines on stderr */
};
extern struct options opt;

/* Messages are common/message.h's; a helper that finds an error exits
   at once: with 1 (error_exit (1, ...)), or with 2 for a bad option:
   usage_exit (2, ...) adds a pointer to --help, error_exit (2, ...) is
   for an option whose argument is well formed but unusable, such as a
   library that cannot be opened.  */

/* cases.c: the case table and the groups of cases.  */
enum case_id
{
  CASE_MEMCPY_HOT,
  CASE_MEMSET_HOT,
  CASE_BZERO_HOT,
  CASE_MEMMOVE_HOT,
  CASE_MEMCPY_DISTANCE,
  CASE_MEMCPY_DIST,
  CASE_MEMSET_DIST,
  CASE_MEMCPY_COLD,
  CASE_MEMSET_COLD,
  CASE_BZERO_COLD,
  CASE_COUNT
};

struct case_info
{
  const char *name;
  const char *help;
};
extern const struct case_info cases[CASE_COUNT];

struct case_group
{
  const char *name;
  unsigned int mask;		/* bit per case */
};
extern const struct case_group case_groups[];
extern const size_t ncase_groups;

/* The bits of a comma-separated LIST of cases and groups; a bad name is a
   usage error.  */
unsigned int fcb_parse_cases (const char *list);

/* The case called NAME, or -1.  */
int fcb_case_by_name (const char *name);

/* contenders.c: the functions measured.  */
enum func { F_MEMCPY, F_MEMMOVE, F_MEMSET, F_BZERO, F_COUNT };
extern const char *const func_names[F_COUNT];

enum role { ROLE_GLIBC, ROLE_FASTCOPY, ROLE_NULL, ROLE_PEER, ROLE_VARIANT,
	    ROLE_REFERENCE };

struct contender
{
  char label[40];
  enum role role;
  struct fcm_fn fn;
};

/* The contenders for one function; glibc is always [0], libfastcopy [1],
   the null contender [NULL_CONTENDER], then the peers (a peer without
   bzero is missing from bzero's set), the variants, and in a wide set the
   reference.  The null contender is a function that returns at once,
   called as every other one is: its time is what the harness itself
   costs, the floor under every contender's.  */
#define NULL_CONTENDER 2
struct cset
{
  const char *function;
  int n;
  struct contender c[MAX_CONTENDERS];
};

/* glibc, libfastcopy, the table's variants; the "wide" sets add the
   streaming reference at the end.  */
extern struct cset csets[F_COUNT];
extern struct cset csets_wide[F_COUNT];

/* An --against library.  */
struct peer
{
  void *handle;
  char path[PATH_MAX];
  char label[40];		/* the file name without "lib" and ".so..." */
};

/* The libraries, libc's version and libfastcopy's introspection found on
   their own handles.  */
struct libraries
{
  void *libc;
  void *fc;
  char libc_path[PATH_MAX];
  char fc_path[PATH_MAX];
  char loader_path[PATH_MAX];	/* --glibc-root's loader; "": the system's */
  struct peer peers[MAX_PEERS];
  int npeers;
  const char *(*libc_version) (void);
  size_t (*impl_count) (void);
  const struct fastcopy_impl *(*impl_at) (size_t);
  int (*impl_usable) (const struct fastcopy_impl *);
  const struct fastcopy_choice *(*selected) (const char *);
  const char *(*version) (void);
  const struct fastcopy_cpu *(*cpu) (void);
  const struct fastcopy_policy *(*policy_matched) (const char *);
};
extern struct libraries lib;

/* Open libc, libfastcopy and the --against libraries; a peer that
   cannot be opened or lacks a function is an option error.  */
void fcb_open_libraries (void);
void fcb_build_contenders (void);
/* Exit with an error if a contender copies or clears wrongly (the null
   contender does neither, by design).  */
void fcb_verify_contenders (void);

/* The index of the contender called LABEL in S, or -1.  */
int fcb_contender_index (const struct cset *s, const char *label);

/* glibc-root.c: with --glibc-root, make sure this process runs under that
   glibc's loader and libc: exec it on this program (with ARGV) if not,
   or fill in lib.loader_path if so.  */
void fcb_enter_glibc_root (char **argv);

/* distributions.c: the workloads (workload.h): the shipped distributions
   or the --dist files, each with a call sequence of opt.calls entries per
   family it has calls of (NULL for one it has none of).  */
struct dist
{
  char name[64];		/* "GoogleA" */
  char file[PATH_MAX];
  uint64_t *seq[FASTCOPY_FAMILY_COUNT];
  size_t bytes[FASTCOPY_FAMILY_COUNT];	/* sum of the sizes */
  size_t largest[FASTCOPY_FAMILY_COUNT];	/* the largest size */
};
extern struct dist *dists;
extern size_t ndists;

/* Returns 0 if there is no data and REQUIRED is 0.  */
int fcb_load_dists (int required);
/* The family whose calls function F makes.  */
enum fastcopy_family fcb_family (enum func f);

/* Groups and points, planned by cases.c before anything runs (so that
   progress can count them), measured by run.c, reported by report.c.  */
enum ptype { PT_FIXED, PT_COLD, PT_SEQ };

/* One measured configuration, with a median per contender.  */
struct point
{
  int group;
  enum ptype type;
  size_t size;			/* per call; PT_SEQ: bytes of the sequence */
  long distance;		/* dst - src as placed; LONG_MIN: random */
  size_t soff, doff;		/* from the group's buffer bases */
  int fill;			/* memset value */
  const struct cset *cs;
  const struct dist *dist;	/* PT_SEQ */
  /* PT_COLD: slot i at offset order[i] * stride in the pools.  */
  size_t stride, nslots;
  uint32_t *order;
  double med[MAX_CONTENDERS];
  int done;
};

enum xkind { X_SIZE, X_DISTANCE, X_DIST };

/* A group: one sub-table of the report and one chart.  */
struct group
{
  enum case_id cid;
  enum func func;
  const char *align;		/* aligned, misaligned, random */
  const char *cache;		/* hot, cold, L2 */
  char title[160];
  enum xkind xkind;
  const struct cset *header;	/* the widest contender set of its points */
  size_t first, count;
  /* Buffers, set while the case runs.  */
  char *dbase;
  const char *sbase;
};

extern struct point *points;
extern size_t npoints;
extern struct group groups[32];
extern size_t ngroups;

/* Plan the groups and points of the cases in opt.cases.  */
void fcb_plan (void);

/* The points of case CID in full mode, whatever the mode: their x (the
   size, or the distance for memcpy-distance) into X, which has room for
   FCB_MAX_POINTS; returns how many.  0 for the distributions, whose
   points are the data files.  */
#define FCB_MAX_POINTS 4096
size_t fcb_full_points (enum case_id cid, double *x);

/* The size of the cache-cold pool in bytes.  */
size_t fcb_pool_bytes (void);

/* run.c: measure and print the groups of case CID.  */
void fcb_run_case (enum case_id cid, unsigned int rounds, double time_ms);

/* report.c: contender K's time at P over glibc's, and its net ratio
   (net-ratio.h).  */
double fcb_ratio (const struct point *p, int k);
double fcb_point_net_ratio (const struct point *p, int k);
void fcb_print_group (const struct group *g);
void fcb_write_csv (const char *path);
void fcb_write_svg (const char *path, const char *subtitle);
/* The summary: the targets, then large cold calls against the streaming
   reference.  Returns the number of targets missed.  */
int fcb_summary (void);

/* targets.c: read the targets file, if there is one, choose the set for
   CPU (opt.strict: having none is an error) and the slack for the glibc
   of version GLIBC.  */
void fcb_load_targets (const struct fastcopy_cpu *cpu, const char *glibc);
/* Print the chosen set and a line per target, and count the targets per
   verdict into COUNT.  */
enum verdict { MET, MISSED, NOT_MEASURED, NOT_APPLICABLE, VERDICTS };
void fcb_judge_targets (int count[VERDICTS]);

/* stream.c: the "best streaming copy" reference, an AVX2 loop of
   non-temporal stores.  Only for non-overlapping buffers.  */
int fcb_stream_usable (void);
void *fcb_stream_copy (void *dst, const void *src, size_t n);
void *fcb_stream_set (void *dst, int c, size_t n);

#endif /* bench.h */
