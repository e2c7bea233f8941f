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
     overlaps and functions are recorded too.  */

#ifndef FASTCOPY_WORKLOAD_H
#define FASTCOPY_WORKLOAD_H 1

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fastcopy.h"

/* A recording's header line.  */
#define FCW_HEADER "family,what,value,calls,bytes"

#define FCW_NDIST 4		/* (dst - src) mod 4096: 0, 1-15, 16-63, other */
#define FCW_NOVERLAP 3		/* none, forward (dst < src), backward */
#define FCW_NFUNCTIONS 4
extern const char *const fcw_distance_names[FCW_NDIST];
extern const char *const fcw_overlap_names[FCW_NOVERLAP];

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
  struct fcw_tally distance[FCW_NDIST], overlap[FCW_NOVERLAP];
  int nfunctions;
  struct fcw_count function[FCW_NFUNCTIONS];
};

struct fcw_workload
{
  char name[64];		/* the file name without .csv and a leading
				   "Memcpy": "GoogleA" */
  char path[PATH_MAX];
  char command[208];		/* a recording's command; "" if none */
  struct fcw_family family[FASTCOPY_FAMILY_COUNT];
};

/* Read the workload at PATH into W.  Returns 0, or -1 with the reason in
   ERR (which names the file).  */
int fcw_load (struct fcw_workload *w, const char *path, char *err,
	      size_t errlen);
void fcw_free (struct fcw_workload *w);

/* Add the counts of FROM to INTO, both recordings (fastcopy-profile
   merges the files of a command's processes).  Returns 0, or -1 if out of
   memory.  */
int fcw_merge (struct fcw_workload *into, const struct fcw_workload *from);

/* Write W in the recording format, COMMENT (lines that start with '#',
   or "") after the first line.  Returns 0, or -1 if writing failed.  */
int fcw_write (FILE *f, const struct fcw_workload *w, const char *comment);

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
