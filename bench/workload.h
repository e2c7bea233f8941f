/* Workloads: size distributions of real programs' copies and clears, read
   from files, and the call sequences drawn from them (workload.c).
   fastcopy-bench replays them (its distributions cases) and fastcopy-tune
   chooses by them.

   A file is one line of comma-separated probabilities: value i is the
   probability that a call has size i (bench/data/README.md).  */

#ifndef FASTCOPY_WORKLOAD_H
#define FASTCOPY_WORKLOAD_H 1

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

struct fcw_workload
{
  char name[64];		/* the file name without .csv and a leading
				   "Memcpy": "GoogleA" */
  char path[PATH_MAX];
  double *cdf;			/* cdf[i]: probability of a size <= i,
				   unnormalized */
  size_t nsizes;		/* sizes 0 .. nsizes-1 */
  size_t max_size;		/* the largest size with a nonzero
				   probability */
};

/* Read the workload at PATH into W.  Returns 0, or -1 with the reason in
   ERR (which names the file).  */
int fcw_load (struct fcw_workload *w, const char *path, char *err,
	      size_t errlen);
void fcw_free (struct fcw_workload *w);

/* NCALLS calls drawn from W for the engine (fcm_seq_entry): sizes from the
   distribution, source and destination anywhere in their FCM_SEQ_BUF-byte
   buffers, so that every alignment and every distance occurs.  The draw
   is fixed by SEED and W's name, so that every contender, every run and
   every tool gets the same calls.  *BYTES gets the sum of the sizes.
   NULL if out of memory.  */
uint64_t *fcw_sequence (const struct fcw_workload *w, size_t ncalls,
			uint64_t seed, size_t *bytes);

/* The workload files (*.csv) of DIR, sorted, into *PATHS, a
   NULL-terminated array to release with fcw_list_free.  Returns how many,
   or -1 (errno set) if DIR cannot be read.  */
int fcw_list (const char *dir, char ***paths);
void fcw_list_free (char **paths);

/* Nonzero when DIR holds at least one workload file.  */
int fcw_dir_has (const char *dir);

#endif
