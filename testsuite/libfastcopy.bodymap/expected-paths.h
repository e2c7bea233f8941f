/* SPDX-License-Identifier: MIT */
/* The paths of each implementation's body, by hand, in the order of
   FC_BODY_PATH_*: e entry, c class, l loop, b backward loop, r REP, s
   streaming.  body-map.c checks that a call visits each; map-file.c that
   the map of a library file has a range of each.  */

#ifndef FC_EXPECTED_PATHS_H
#define FC_EXPECTED_PATHS_H 1

#include <stddef.h>
#include <string.h>

static const char *const path_letter = "eclbrs";	/* FC_BODY_PATH_* */

/* FAMILY: copy 0, clear 1.  NULL for an implementation not written down
   here.  */
static const char *
expected_paths (int family, const char *impl)
{
  static const struct
  {
    int family;
    const char *impl, *paths;
  } table[] = {
    { 0, "avx512m", "eclbrs" }, { 0, "avx512", "eclbrs" },
    { 0, "avx2", "eclbrs" }, { 0, "evex", "eclbrs" },
    { 0, "sse2", "eclbrs" }, { 0, "fsrm", "ebr" },
    { 0, "erms", "eclbr" }, { 0, "scalar", "eclb" },
    { 1, "avx512m", "eclrs" }, { 1, "avx512", "eclrs" },
    { 1, "avx2", "eclrs" }, { 1, "evex", "eclrs" },
    { 1, "sse2", "eclrs" }, { 1, "fsrm", "er" },
    { 1, "erms", "eclr" }, { 1, "scalar", "ecl" },
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (table[i].family == family && strcmp (table[i].impl, impl) == 0)
      return table[i].paths;
  return NULL;
}

#endif
