/* SPDX-License-Identifier: MIT */
/* Area: copy
   Purpose: overlapping copies through the exported functions: memmove,
   and memcpy (both versions) and mempcpy, which glibc programs rely on to
   be overlap-safe (doc/design.md); both directions, every distance
   1..130 and 192..10000, lengths 1..20000, and src == dst.  */

#include "fctest.h"

int
main (void)
{
  struct fct_region r;
  unsigned char *scratch;

  fct_init ();
  fct_region_init (&r, FCT_OVERLAP_MAX);
  scratch = malloc (FCT_OVERLAP_MAX);
  if (scratch == NULL)
    return 1;

  const struct fct_copy targets[] = {
    { "memmove", (fct_copy_fn) fct_symbol ("memmove", NULL), FCT_RET_DST },
    { "memcpy", (fct_copy_fn) fct_symbol ("memcpy", NULL), FCT_RET_DST },
#ifdef __x86_64__	/* i386 has one memcpy, GLIBC_2.0 */
    { "memcpy@GLIBC_2.2.5", (fct_copy_fn) fct_symbol ("memcpy", "GLIBC_2.2.5"),
      FCT_RET_DST },
#endif
    { "mempcpy", (fct_copy_fn) fct_symbol ("mempcpy", NULL), FCT_RET_END },
  };

  for (size_t i = 0; i < FCT_ARRAY_SIZE (targets); i++)
    {
      fct_begin ("%s: overlapping copies, distances 0..130 and far, both directions",
		 targets[i].name);
      fct_overlap_sweep (&targets[i], &r, scratch, (size_t) -1, 130, 1);
      fct_end ();
    }
  return fct_finish ();
}
