/* SPDX-License-Identifier: MIT */
/* Area: copy
   Purpose: every usable copy and clear implementation at the edges of
   mapped memory, where the masked loads and stores of the AVX-512
   variants reach past the buffer: a masked-out byte must neither fault
   nor be written.  For every size 0..320 the source ends exactly where a
   PROT_NONE page begins, and so does the destination (canaries before
   it); with size 0, both pointers point at the PROT_NONE page itself,
   for every alignment of the page offset below 64 (glibc accepts any
   pointer with size 0).  Return values must be dst.  */

#include "fctest.h"

#define MAX_N 320

int
main (void)
{
  struct fct_region src, dst;
  size_t tested = 0;

  fct_init ();
  fct_region_init (&src, MAX_N);
  fct_region_init (&dst, MAX_N);
  fct_fill_random (src.base, (size_t) (src.end - src.base), 7);
  fct_region_protect (&src, PROT_READ);

  for (size_t i = 0; i < fastcopy_impl_count (); i++)
    {
      const struct fastcopy_impl *impl = fastcopy_impl_at (i);
      char name[64];
      snprintf (name, sizeof name, "%s/%s",
		impl->family == FASTCOPY_FAMILY_COPY ? "copy" : "clear",
		impl->name);
      if (!fastcopy_impl_usable (impl))
	{
	  fct_unsupported ("%s: not usable on this CPU", name);
	  continue;
	}

      fct_begin ("%s: sizes 0..%d ending exactly at a PROT_NONE page",
		 name, MAX_N);
      for (size_t n = 0; n <= MAX_N; n++)
	{
	  const unsigned char *s = src.end - n;
	  unsigned char *d = dst.end - n;
	  unsigned salt = (unsigned) n * 0x9du + 1;
	  fct_case_fn = name;
	  fct_case_n = n;
	  fct_case_kind = impl->family == FASTCOPY_FAMILY_COPY ? 1 : 2;
	  fct_canary_fill (d - FCT_CANARY, d, salt);
	  fct_fill_inverse (d, s, n);
	  void *r = impl->family == FASTCOPY_FAMILY_COPY
		    ? impl->copy (d, s, n) : impl->clear (d, 0xa7, n);
	  if (r != d)
	    fct_fail ("n=%zu: returned %p, not dst %p", n, r, (void *) d);
	  size_t at = impl->family == FASTCOPY_FAMILY_COPY
		      ? fct_mismatch (d, s, n) : fct_mismatch_byte (d, 0xa7, n);
	  if (at < n)
	    fct_fail ("n=%zu: dst[%zu] is wrong", n, at);
	  fct_canary_check (d - FCT_CANARY, d, salt, d, 0);
	}
      fct_end ();

      fct_begin ("%s: size 0 with both pointers in a PROT_NONE page", name);
      for (unsigned off = 0; off < 64; off++)
	{
	  void *d = dst.end + off;
	  const void *s = src.end + off;
	  fct_case_fn = name;
	  fct_case_n = 0;
	  void *r = impl->family == FASTCOPY_FAMILY_COPY
		    ? impl->copy (d, s, 0) : impl->clear (d, 0, 0);
	  if (r != d)
	    fct_fail ("offset %u: returned %p, not dst %p", off, r, d);
	}
      fct_end ();
      tested++;
    }
  fct_expect (tested > 0, "at least one usable implementation");
  return fct_finish ();
}
