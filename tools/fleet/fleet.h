/* SPDX-License-Identifier: MIT */
/* fastcopy-fleet: declarations shared by its source files
   (fastcopy-fleet(1)).

   main.c     options and subcommands
   merge.c    loading recordings fit for a fleet, merging them, and
              saying whether a sum's bound is enough to tune from
   accumulate.c  a machine's sample into its running total
   export.c   a recording as Prometheus exposition text
   import.c   exposition text or a Prometheus query result back into a
              recording
   output.c   writing a file atomically
   The recording format is common/workload.c's.  */

#ifndef FASTCOPY_FLEET_H
#define FASTCOPY_FLEET_H 1

#include <stddef.h>

#include "common/workload.h"

/* The metric names of the export; the import reads them back.  */
#define FLEET_SIZE_METRIC "fastcopy_call_size_bytes"
#define FLEET_CALLS_METRIC "fastcopy_calls_total"
/* The bound's (export.c): per family, (calls * bound)^2 and the calls of
   the hosts that state one; for the clears' share, (all calls *
   bound)^2.  */
#define FLEET_BOUND_METRIC "fastcopy_bound_weighted_squared"
#define FLEET_SHARE_BOUND_METRIC "fastcopy_bound_share_weighted_squared"
#define FLEET_BOUND_CALLS_METRIC "fastcopy_bound_calls_total"

/* merge.c: load the recording at PATH into W, refusing what a fleet must
   not add up: a file that is no recording, of another format version,
   cut short (no end line) or otherwise damaged.  Returns 0, or -1 after
   an error message that names the file.  */
int load_recording (const char *path, struct fcw_workload *w);

/* Say on standard output whether the recording written to PATH, W, is
   enough to tune from: its bound, within FCW_ENOUGH_BOUND or not, or
   that the bound is unknown.  */
void report_bound (const char *path, const struct fcw_workload *w);

/* The subcommands; each returns the exit status.  */
int merge_main (const char *out, int mix, char *const *paths, int n);
int export_main (const char *out, const char *host, const char *path);
int import_main (const char *out, int mix, const char *path);
int accumulate_main (const char *total, const char *sample);

/* W as a recording, COMMENT after its first lines, into a new string of
   *LEN bytes; NULL after an error message.  */
char *recording_text (const struct fcw_workload *w, const char *comment,
		      size_t *len);

/* output.c: replace PATH with the LEN bytes at DATA, atomically: a
   temporary file in the same directory, whose name does not end in
   .prom, renamed over it, so that readers see the old file or the new
   one, and nothing is left behind on failure.  Returns 0, or -1 after an
   error message.  */
int write_output (const char *path, const char *data, size_t len);

#endif
