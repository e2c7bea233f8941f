/* fastcopy-bench: where its data files (the size distributions, the
   targets) are looked for, in order: --data, $FASTCOPY_BENCH_DATA, the
   directory 'make install' puts them in, then the source tree, so that the
   tool also runs uninstalled from a build.  */

#include "config.h"

#include <stdlib.h>

#include "bench.h"

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
fcb_data_dir (int (*has) (const char *dir))
{
  const char *places[] = { opt.data, getenv ("FASTCOPY_BENCH_DATA"),
			   FCB_PKGDATADIR, FCB_SRCDATADIR };
  for (size_t i = 0; i < N_OF (places); i++)
    if (places[i] != NULL && *places[i] != 0 && has (places[i]))
      return places[i];
  return NULL;
}
