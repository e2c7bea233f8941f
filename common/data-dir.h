/* SPDX-License-Identifier: MIT */
/* Where fastcopy-bench and fastcopy-tune look for their data files (the
   size distributions, the targets): data-dir.c.  */

#ifndef FASTCOPY_DATA_DIR_H
#define FASTCOPY_DATA_DIR_H 1

/* The first of the places for data files (GIVEN, from an option, then
   $FASTCOPY_BENCH_DATA, the installed directory, the source tree) for
   which HAS returns nonzero; NULL if none.  */
const char *fcb_data_dir (const char *given, int (*has) (const char *dir));

/* The installed directory and the source tree, for messages.  */
const char *fcb_data_places_text (void);

#endif
