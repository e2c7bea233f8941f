/* SPDX-License-Identifier: MIT */
/* Area: copy
   Purpose: every usable copy implementation has memmove semantics: with
   source and destination overlapping in both directions at every distance
   1..130 and at 192..10000, for lengths from 1 to 20000 (both sides of
   the 2 KiB thresholds), and with src == dst, and at distances 1 and
   4097 for a length above the L3 cache size (where streaming stores
   must not be used), the destination holds the
   original source bytes, nothing else in the buffer changes, and the
   return value is dst.  */

#include "fctest.h"

int
main (void)
{
  static const size_t huge_distances[] = { 1, 4097 };
  struct fct_region r;
  unsigned char *scratch;
  size_t tested = 0, cache[2];
  size_t huge = cache[fct_cache_sizes (cache) - 1];
  size_t max = huge + 4097 > FCT_OVERLAP_MAX ? huge + 4097 : FCT_OVERLAP_MAX;

  fct_init ();
  fct_region_init (&r, max);
  scratch = malloc (max);
  if (scratch == NULL)
    return 1;

  for (size_t i = 0; i < fastcopy_impl_count (); i++)
    {
      const struct fastcopy_impl *impl = fastcopy_impl_at (i);
      char name[64];

      if (impl->family != FASTCOPY_FAMILY_COPY)
	continue;
      snprintf (name, sizeof name, "copy/%s", impl->name);
      if (!fastcopy_impl_usable (impl))
	{
	  fct_unsupported ("%s: overlap: not usable on this CPU", name);
	  continue;
	}
      if (impl->copy == NULL)
	continue;
      struct fct_copy t = { name, impl->copy, FCT_RET_DST };

      fct_begin ("%s: overlapping copies, distances 0..130 and far, both directions",
		 name);
      fct_overlap_sweep (&t, &r, scratch, (size_t) -1, 130, 1);
      fct_end ();
      fct_begin ("%s: overlapping copies of %zu bytes (above the L3 cache)",
		 name, huge);
      for (size_t k = 0; k < FCT_ARRAY_SIZE (huge_distances); k++)
	for (int back = 0; back < 2; back++)
	  fct_overlap_case (&t, &r, scratch, huge, huge_distances[k], back,
			    (unsigned) (k * 17 + (size_t) back * 5));
      fct_end ();
      tested++;
    }
  fct_expect (tested > 0, "copy: at least one usable implementation");
  return fct_finish ();
}
