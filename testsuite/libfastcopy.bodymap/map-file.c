/* SPDX-License-Identifier: MIT */
/* Area: bodymap
   Purpose: the body map of a library file, read as a sampler reads it
   (common/body-map-read.c), with no process of the library's ABI:
   the i386 library's map is read by an x86-64 program too, as the amd64
   fastcopy-sample reads it.  The map must load (no empty, overlapping or
   unknown record), be of the ABI named, lie in the file's loadable
   segments, and hold, for each implementation the ABI builds (written
   here by hand), a range of each of its paths, and the entry points'
   ranges of both families; no other name.  What each instruction's size
   is needs the code to run: body-map.c single-steps it.

   Arguments: ABI (x86_64 or i386) and the library's file.  Self-contained:
   it is built by the build machine's compiler as well as the library's,
   so it takes nothing from fctest.h.  */

#include "body-map-read.h"
#include "expected-paths.h"

#include <elf.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void
result (int ok, const char *what, const char *detail)
{
  printf ("%s: %s%s%s\n", ok ? "PASS" : "FAIL", what,
	  !ok && detail[0] ? ": " : "", !ok ? detail : "");
  failures += !ok;
}

/* The implementations each ABI builds (Makefile.am), by hand.  */
static const char *const impls_x86_64[] = {
  "avx512m", "avx512", "avx2", "evex", "sse2", "fsrm", "erms", "scalar", NULL
};
static const char *const impls_i386[] = {
  "avx2", "sse2", "fsrm", "erms", "scalar", NULL
};

static int
listed (const char *const *impls, const char *name)
{
  if (name[0] == 0)
    return 1;			/* the entry points */
  for (; *impls != NULL; impls++)
    if (strcmp (*impls, name) == 0)
      return 1;
  return 0;
}

/* The paths of FAMILY's ranges named IMPL, as letters in path order.  */
static void
paths_of (const struct fc_body_map *map, int family, const char *impl,
	  char *out)
{
  unsigned seen = 0;
  for (size_t i = 0; i < map->count; i++)
    {
      const struct fc_body_range *r = &map->span[i].rec;
      if (r->family == family && strncmp (r->impl, impl, sizeof r->impl) == 0)
	seen |= 1u << r->path;
    }
  for (int k = 0; k < FC_BODY_PATH_COUNT; k++)
    if (seen & (1u << k))
      *out++ = path_letter[k];
  *out = 0;
}

static int
in_segment (const struct fc_body_map *map, const struct fc_body_span *s)
{
  for (size_t i = 0; i < map->nsegment; i++)
    {
      const struct fc_body_segment *g = &map->segment[i];
      if (s->start >= g->vaddr && s->end <= g->vaddr + g->filesz)
	return 1;
    }
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc != 3
      || (strcmp (argv[1], "x86_64") != 0 && strcmp (argv[1], "i386") != 0))
    {
      printf ("FAIL: usage: map-file x86_64|i386 LIBRARY\n");
      return 1;
    }
  int x86_64 = strcmp (argv[1], "x86_64") == 0;
  const char *const *impls = x86_64 ? impls_x86_64 : impls_i386;
  char what[128], detail[512] = "";

  struct fc_body_map map;
  int rc = fc_body_map_load (argv[2], &map, detail, sizeof detail);
  if (rc == 1)
    snprintf (detail, sizeof detail, "none");
  result (rc == 0, "the body map is read", detail);
  if (rc != 0)
    return 1;
  printf ("NOTE: %zu ranges\n", map.count);

  snprintf (detail, sizeof detail, "ELF class %d", map.elf_class);
  result (map.elf_class == (x86_64 ? ELFCLASS64 : ELFCLASS32),
	  x86_64 ? "a 64-bit map" : "a 32-bit map", detail);

  size_t outside = 0, unknown = 0;
  detail[0] = 0;
  for (size_t i = 0; i < map.count; i++)
    {
      const struct fc_body_span *s = &map.span[i];
      outside += !in_segment (&map, s);
      if (!listed (impls, s->rec.impl))
	{
	  unknown++;
	  snprintf (detail, sizeof detail, "\"%.8s\"", s->rec.impl);
	}
    }
  snprintf (what, sizeof what, "%zu ranges outside the loadable segments",
	    outside);
  result (outside == 0, "every range in a loadable segment", what);
  result (unknown == 0, "no range of an implementation this ABI does not build",
	  detail);

  static const char *const family_name[] = { "copy", "clear" };
  for (int family = 0; family < 2; family++)
    {
      char got[FC_BODY_PATH_COUNT + 1];
      paths_of (&map, family, "", got);
      snprintf (what, sizeof what, "%s entry points: an entry range",
		family_name[family]);
      snprintf (detail, sizeof detail, "paths \"%s\"", got);
      result (strcmp (got, "e") == 0, what, detail);
      for (const char *const *impl = impls; *impl != NULL; impl++)
	{
	  const char *want = expected_paths (family, *impl);
	  paths_of (&map, family, *impl, got);
	  snprintf (what, sizeof what, "%s %s: a range of each path",
		    family_name[family], *impl);
	  snprintf (detail, sizeof detail, "paths \"%s\", expected \"%s\"",
		    got, want != NULL ? want : "(none written down)");
	  result (want != NULL && strcmp (got, want) == 0, what, detail);
	}
    }
  fc_body_map_free (&map);
  return failures != 0;
}
