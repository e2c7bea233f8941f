/* SPDX-License-Identifier: MIT */
/* Area: copy
   Purpose: every copy implementation in the table that is usable on this
   CPU, called directly through impl->copy: every size 0..257 at all 64x64
   source/destination alignments, 258..1024 and 2040..2056 at sampled
   alignments, sizes from 1.5 KiB to 4 MiB+7, and sizes just above half
   and all of the L3 cache (streaming-store paths); sampled cases include
   sources moved off their guard page so that dst - src is not always
   near a multiple of 4 KiB; each buffer ends at or just before a guard
   page, canaries around the destination, return value
   must be dst.  New table entries are picked up without changes here.  */

#include "fctest.h"

int
main (void)
{
  struct fct_pair b;
  size_t tested = 0, cache[2], ncache = fct_cache_sizes (cache);

  fct_init ();
  fct_pair_init (&b, cache[1] > FCT_LARGE_MAX ? cache[1] : FCT_LARGE_MAX, 1);

  for (size_t i = 0; i < fastcopy_impl_count (); i++)
    {
      const struct fastcopy_impl *impl = fastcopy_impl_at (i);
      char name[64];

      if (impl->family != FASTCOPY_FAMILY_COPY)
	continue;
      snprintf (name, sizeof name, "copy/%s", impl->name);
      if (!fastcopy_impl_usable (impl))
	{
	  fct_unsupported ("%s: not usable on this CPU", name);
	  continue;
	}
      if (fct_expect (impl->copy != NULL, "%s: has a copy function", name))
	continue;
      struct fct_copy t = { name, impl->copy, FCT_RET_DST };

      fct_begin ("%s: sizes 0..257, all 64x64 alignments", name);
      fct_copy_range (&t, &b, 0, 257, 1);
      fct_end ();
      fct_begin ("%s: sizes 258..1024, sampled alignments", name);
      fct_copy_range (&t, &b, 258, 1024, 0);
      fct_end ();
      fct_begin ("%s: sizes 2040..2056, sampled alignments", name);
      fct_copy_range (&t, &b, 2040, 2056, 0);
      fct_end ();
      fct_begin ("%s: sizes 1535..4 MiB+7, sampled alignments", name);
      fct_copy_list (&t, &b, fct_large_sizes, FCT_ARRAY_SIZE (fct_large_sizes));
      fct_end ();
      fct_begin ("%s: sizes above half and all of the L3 cache (%zu, %zu)",
		 name, cache[0], cache[1]);
      fct_copy_list (&t, &b, cache, ncache);
      fct_end ();
      tested++;
    }
  fct_expect (tested > 0, "copy: at least one usable implementation");
  return fct_finish ();
}
