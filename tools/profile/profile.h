/* SPDX-License-Identifier: MIT */
/* fastcopy-profile: declarations shared by its source files.

   main.c    options
   record.c  running a command with recording on, and merging the files
             its processes leave into one
   report.c  a recording as a table and an SVG chart
   The file format is read and written by common/workload.c.  */

#ifndef FASTCOPY_PROFILE_TOOL_H
#define FASTCOPY_PROFILE_TOOL_H 1

/* Run ARGV with libfastcopy recording every process it starts, and write
   their sum to OUT, which must not exist.  Returns the exit status: the
   command's, or 1 when it could not be recorded (OUT among the
   reasons).  */
int record (const char *out, char *const *argv);

/* Print the recording or distribution at PATH as tables (JSON: as one
   JSON object); with SVG, write its size charts there.  Returns the exit
   status.  */
int report (const char *path, const char *svg, int json);

#endif
