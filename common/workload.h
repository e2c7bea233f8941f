/* SPDX-License-Identifier: MIT */
/* Workloads: what real programs copy and clear, read from files, and the
   call sequences drawn from them (workload.c).  fastcopy-bench replays
   them (its distributions cases, --dist), fastcopy-tune chooses by them
   (--workload) and fastcopy-profile reports them.

   Two formats, told apart by their first line that is not a comment:
   - a distribution (the .csv files of bench/data): one line of comma-separated
     probabilities, value i that of a call of i bytes; it stands for both
     families, with any alignment;
   - a recording (fastcopy-profile(1), FILE FORMAT): a header
     "family,what,value,calls,bytes" and one line per counted value; sizes
     come in buckets, and the alignments, (dst - src) mod 4096 classes,
     overlaps and functions are recorded too.  Comment lines carry the
     format's version, the class of machine (struct fcw_machine_class), the
     implementations and, last, an end line that counts the lines above
     it, so that a truncated file is told from a whole one.  */

#ifndef FASTCOPY_WORKLOAD_H
#define FASTCOPY_WORKLOAD_H 1

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fastcopy.h"
#include "recording.h"
#include "size-buckets.h"

#define FCW_NFUNCTIONS 4
/* The recording's words (recording.h) by their index: family by enum
   fastcopy_family, distance class and overlap as the counts below.  */
extern const char *const fcw_family_names[FASTCOPY_FAMILY_COUNT];
extern const char *const fcw_distance_names[FC_REC_NDIST];
extern const char *const fcw_overlap_names[FC_REC_NOVERLAP];

/* The class of machines a recording comes from: its CPU as fastcopy-info
   shows it (vendor, display family and model) and the row of the auto
   policy table that CPU matches (fastcopy_policy_matched ("auto"), which
   no setting changes, so that a machine stays in its class when its
   settings are tuned).  A recording states it in one comment line:
     # class: vendor=AuthenticAMD family=26 model=2 policy=amd-zen5
     # class: mixed
   A file without the line (every file written before it existed) is of
   class unknown.  Recorders fill it with fcw_machine_class_here.  */
enum fcw_machine_class_kind
{
  FCW_MACHINE_CLASS_UNKNOWN = 0,
  FCW_MACHINE_CLASS_KNOWN,
  FCW_MACHINE_CLASS_MIXED		/* a merge of several classes */
};

struct fcw_machine_class
{
  enum fcw_machine_class_kind kind;
  char cpu_vendor[13];		/* fastcopy_cpu ()->vendor: "AuthenticAMD" */
  unsigned int cpu_family, cpu_model;
  char policy[32];		/* the policy row's name: "amd-zen5" */
};

/* The longest text of fcw_machine_class_text and
   fcw_machine_class_cpu_text, with its terminating null byte.  */
#define FCW_MACHINE_CLASS_TEXT 96

/* The class as the recording's line gives it after "# class: ", or
   "unknown".  */
const char *fcw_machine_class_text (const struct fcw_machine_class *c,
				    char *buf, size_t size);
/* Its CPU as fastcopy-info shows it, "AuthenticAMD family 26 model 2", or
   "mixed" or "unknown".  */
const char *fcw_machine_class_cpu_text (const struct fcw_machine_class *c,
					char *buf, size_t size);
/* Parse TEXT, as fcw_machine_class_text writes it, into C.  Returns 0 or
   -1.  */
int fcw_machine_class_parse (const char *text, struct fcw_machine_class *c);
/* Nonzero when A and B are the same class (unknown is only unknown).  */
int fcw_machine_class_equal (const struct fcw_machine_class *a,
			     const struct fcw_machine_class *b);
/* The class of the machine this process runs on (workload-class.c, which
   links libfastcopy).  */
void fcw_machine_class_here (struct fcw_machine_class *c);

/* The library's recording buckets (src/size-buckets.h): every size up to 512
   has its own, then eight per doubling.  Bucket I holds sizes
   [fcw_grid_lo (I), fcw_grid_hi (I)]; FCW_GRID_BUCKETS of them cover the
   sizes below 2^47, the largest range of addresses an x86-64 process
   has.  */
#define FCW_GRID_EXACT FC_BUCKET_EXACT
#define FCW_GRID_PER_DOUBLING FC_BUCKET_PER_DOUBLING
#define FCW_GRID_TOP 47
#define FCW_GRID_BUCKETS \
  (FCW_GRID_EXACT + 1 + (FCW_GRID_TOP - 9) * FCW_GRID_PER_DOUBLING)
size_t fcw_grid_bucket (unsigned long long size);
unsigned long long fcw_grid_lo (size_t i);
unsigned long long fcw_grid_hi (size_t i);

struct fcw_tally
{
  double calls, bytes;
};

/* Calls of sizes LO..HI.  */
struct fcw_bucket
{
  unsigned long long lo, hi;
  struct fcw_tally t;
};

struct fcw_count
{
  char name[24];
  struct fcw_tally t;
};

/* One family's part of a workload.  */
struct fcw_family
{
  size_t nbuckets;
  struct fcw_bucket *bucket;	/* ascending, disjoint */
  double *cdf;			/* calls of buckets 0..i */
  double calls, bytes;
  unsigned long long max_size;	/* the largest size with a call */
  int recorded;			/* alignments and distances were recorded */
  struct fcw_tally dst_align[64], src_align[64];	/* by address mod 64 */
  struct fcw_tally distance[FC_REC_NDIST], overlap[FC_REC_NOVERLAP];
  int nfunctions;
  struct fcw_count function[FCW_NFUNCTIONS];
  /* The implementation the family's calls went to, as the recording's
     "# impl:" line gives it: "avx512m", "mixed" (a merge of several), or
     "" when unknown.  */
  char impl[24];
};

/* How far a recording's histograms may lie from the truth, at 95%: its
   "# bound:" line (recording.h), which fastcopy-sample writes and an
   exact recording gives as zeros.  */
/* A histogram whose bound is at most this is close enough to the truth
   to tune from (fastcopy-sample calls one further off rough,
   fastcopy-fleet says when a total gets there).  */
#define FCW_ENOUGH_BOUND 0.05

struct fcw_bound
{
  int known;			/* the recording states one */
  double tvd[FASTCOPY_FAMILY_COUNT];	/* of each family's size histogram,
					   total variation distance */
  double share;			/* of the clears' share of all calls */
};

struct fcw_workload
{
  char name[64];		/* the file name without .csv and a leading
				   "Memcpy": "GoogleA" */
  char path[PATH_MAX];
  char command[208];		/* a recording's command; "" if none */
  struct fcw_machine_class machine_class;
  /* The file ended with its "# end: N lines" line, and N was right.  A
     recording without one may have been cut short.  */
  int has_end_line;
  struct fcw_bound bound;
  struct fcw_family family[FASTCOPY_FAMILY_COUNT];
};

/* Read the workload at PATH into W.  Returns 0, or -1 with the reason in
   ERR (which names the file).  */
int fcw_load (struct fcw_workload *w, const char *path, char *err,
	      size_t errlen);
void fcw_free (struct fcw_workload *w);

/* Add the counts of FROM to INTO, both recordings (fastcopy-profile
   merges the files of a command's processes).  INTO's class and
   implementations stay where FROM's are the same, and become mixed where
   they differ.  The bound is known where both are: the errors of
   separate recordings are independent, so their bounds, each weighted by
   its share of the calls, add in quadrature.  Returns 0, or -1 if out of
   memory.  */
int fcw_merge (struct fcw_workload *into, const struct fcw_workload *from);

/* Write W in the recording format: the version line, the class and
   implementation lines when known, COMMENT (lines that start with '#', or
   ""), the rows, and the end line.  Counts that are not whole numbers
   (estimates) are written with every digit they need.  Returns 0, or -1
   if writing failed.  */
int fcw_write (FILE *f, const struct fcw_workload *w, const char *comment);
/* The same, with NEXTRA more lines of data, EXTRA (each ending in a
   newline), before the end line: rows of kinds that only their writer
   fills (fastcopy-sample's impl and path rows).  */
int fcw_write_extra (FILE *f, const struct fcw_workload *w,
		     const char *comment, const char *extra,
		     unsigned int nextra);

/* The totals and the cumulative calls (cdf) of FA's buckets, which are
   sorted, as fcw_sequence needs them.  Returns the index of a bucket that
   overlaps the one before, 0, or (size_t) -1 when out of memory.  */
size_t fcw_sum_family (struct fcw_family *fa);

/* NCALLS calls of FAMILY drawn from W for the engine (fcm_seq_entry):
   sizes from the buckets (uniform within one, at most FCM_SEQ_MAX_SIZE),
   addresses with the recorded alignments and distances, or for a
   distribution anywhere in their buffers.  The draw is fixed by SEED and
   W's name, so that every contender, every run and every tool gets the
   same calls.  The buffers need FCM_SEQ_BUF + the largest size (of
   fcw_largest) bytes.  *BYTES gets the sum of the sizes.  NULL if out of
   memory or if W has no call of FAMILY.  */
uint64_t *fcw_sequence (const struct fcw_workload *w,
			enum fastcopy_family family, size_t ncalls,
			uint64_t seed, size_t *bytes);
size_t fcw_largest (const struct fcw_workload *w,
		    enum fastcopy_family family);

/* The workload files (*.csv) of DIR, sorted, into *PATHS, a
   NULL-terminated array to release with fcw_list_free.  Returns how many,
   or -1 (errno set) if DIR cannot be read.  */
int fcw_list (const char *dir, char ***paths);
void fcw_list_free (char **paths);

/* Nonzero when DIR holds at least one workload file.  */
int fcw_dir_has (const char *dir);

#endif
