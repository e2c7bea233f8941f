/* SPDX-License-Identifier: MIT */
/* Where fastcopy-bench and fastcopy-tune look for their data files (the
   size distributions, the targets), in order: the option's directory,
   $FASTCOPY_BENCH_DATA, the directory 'make install' puts them in, then
   the source tree, so that the tools also run uninstalled from a build.  */

#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/data-dir.h"

const char *
fcb_data_places_text (void)
{
  /* FCB_SRCDATADIR is empty in a build that leaves the source path out.  */
  static char buf[2 * PATH_MAX];
  snprintf (buf, sizeof buf, "%s%s%s", FCB_PKGDATADIR,
	    *FCB_SRCDATADIR ? " and " : "", FCB_SRCDATADIR);
  return buf;
}

const char *
fcb_data_dir (const char *given, int (*has) (const char *dir))
{
  const char *places[] = { given, getenv ("FASTCOPY_BENCH_DATA"),
			   FCB_PKGDATADIR, FCB_SRCDATADIR };
  for (size_t i = 0; i < sizeof places / sizeof places[0]; i++)
    if (places[i] != NULL && *places[i] != 0 && has (places[i]))
      return places[i];
  return NULL;
}
