/* SPDX-License-Identifier: MIT */
/* Area: clear
   Purpose: every clear implementation in the table that is usable on this
   CPU, called directly through impl->clear with the values 0, 0xff, 0x5a,
   0x1234a5, 0x100 and -2 (only the low byte may be stored): every size
   0..256 at all 64 alignments with every value, 257..1024 and 2040..2056
   at all 64 alignments with the values taking turns, sizes from 1.5 KiB
   to 4 MiB+7 and just above half and all of the L3 cache size
   (streaming-store paths) at sampled alignments; each buffer ends at or just before a guard
   page, canaries around it, return value must be dst.  */

#include "fctest.h"

int
main (void)
{
  struct fct_region r;
  size_t tested = 0, cache[2], ncache = fct_cache_sizes (cache);

  fct_init ();
  fct_region_init (&r, cache[1] > FCT_LARGE_MAX ? cache[1] : FCT_LARGE_MAX);

  for (size_t i = 0; i < fastcopy_impl_count (); i++)
    {
      const struct fastcopy_impl *impl = fastcopy_impl_at (i);
      char name[64];

      if (impl->family != FASTCOPY_FAMILY_CLEAR)
	continue;
      snprintf (name, sizeof name, "clear/%s", impl->name);
      if (!fastcopy_impl_usable (impl))
	{
	  fct_unsupported ("%s: not usable on this CPU", name);
	  continue;
	}
      if (fct_expect (impl->clear != NULL, "%s: has a clear function", name))
	continue;
      struct fct_clear t = { name, impl->clear, FCT_RET_DST, 0 };

      fct_begin ("%s: sizes 0..256, all alignments x all values", name);
      for (size_t n = 0; n <= 256; n++)
	fct_clear_size (&t, &r, n, FCT_CLEAR_ALL);
      fct_end ();
      fct_begin ("%s: sizes 257..1024 and 2040..2056, all alignments", name);
      for (size_t n = 257; n <= 1024; n++)
	fct_clear_size (&t, &r, n, FCT_CLEAR_ROTATE);
      for (size_t n = 2040; n <= 2056; n++)
	fct_clear_size (&t, &r, n, FCT_CLEAR_ROTATE);
      fct_end ();
      fct_begin ("%s: sizes 1535..4 MiB+7, sampled alignments", name);
      for (size_t k = 0; k < FCT_ARRAY_SIZE (fct_large_sizes); k++)
	fct_clear_size (&t, &r, fct_large_sizes[k], FCT_CLEAR_SAMPLE);
      fct_end ();
      fct_begin ("%s: sizes above half and all of the L3 cache (%zu, %zu)",
		 name, cache[0], cache[1]);
      for (size_t k = 0; k < ncache; k++)
	fct_clear_size (&t, &r, cache[k], FCT_CLEAR_SAMPLE);
      fct_end ();
      tested++;
    }
  fct_expect (tested > 0, "clear: at least one usable implementation");
  return fct_finish ();
}
