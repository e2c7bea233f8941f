/* SPDX-License-Identifier: MIT */
/* Area: copy
   Purpose: the streaming-store paths of every implementation that has
   one (FASTCOPY_TRAIT_NT), copy and clear, with the streaming threshold
   set at its lowest (fastcopy_set) and no REP window: every size around
   the edges of the page-pair loops (1, 2 and 3 pairs of 4 KiB pages, with
   the head and tail vectors and the line alignment of the destination
   moving them), at sampled alignments and page offsets; sizes of many
   pairs; and overlapping copies above the threshold in both directions,
   which must not stream.  Guard pages and canaries as everywhere.  */

#include "fctest.h"

/* Sizes around K pairs of pages: enough room on both sides for the first
   and last 4 VEC of the widest vectors (4 x 64 bytes) and the up to 63
   bytes in front of the first whole line.  */
#define EDGE 400

static void
stream_copies (const struct fct_copy *t, struct fct_pair *b,
	       struct fct_region *r, unsigned char *scratch)
{
  fct_begin ("%s: sizes around 1, 2 and 3 page pairs, sampled alignments",
	     t->name);
  for (size_t k = 1; k <= 3; k++)
    fct_copy_range (t, b, k * 8192 - EDGE, k * 8192 + EDGE, 0);
  fct_end ();
  static const size_t many[] = { 65536, 65536 + 4096, 1048576 + 129,
				 1048576 + 8191 };
  fct_begin ("%s: sizes of many page pairs", t->name);
  fct_copy_list (t, b, many, FCT_ARRAY_SIZE (many));
  fct_end ();
  fct_begin ("%s: overlapping copies above the threshold, both directions",
	     t->name);
  static const size_t lengths[] = { 8192, 10000, 16384 + 300, 20000 };
  static const size_t distances[] = { 1, 64, 4095, 4096, 8192 };
  for (size_t i = 0; i < FCT_ARRAY_SIZE (lengths); i++)
    for (size_t k = 0; k < FCT_ARRAY_SIZE (distances); k++)
      for (int back = 0; back < 2; back++)
	fct_overlap_case (t, r, scratch, lengths[i], distances[k], back,
			  (unsigned) (i * 7 + k) & 63);
  fct_end ();
}

static void
stream_clears (const struct fct_clear *t, struct fct_region *r)
{
  fct_begin ("%s: sizes around 1, 2 and 3 page pairs, sampled alignments",
	     t->name);
  for (size_t k = 1; k <= 3; k++)
    for (size_t n = k * 8192 - EDGE; n <= k * 8192 + EDGE; n++)
      fct_clear_size (t, r, n, FCT_CLEAR_SAMPLE);
  fct_clear_size (t, r, 1048576 + 129, FCT_CLEAR_SAMPLE);
  fct_end ();
}

int
main (void)
{
  struct fct_pair b;
  struct fct_region r;
  size_t tested = 0;

  fct_init ();
  fct_pair_init (&b, 1048576 + 8192, 9);
  fct_region_init (&r, 1048576 + 8192);
  unsigned char *scratch = malloc (FCT_OVERLAP_MAX);
  if (scratch == NULL)
    return 1;
  fct_expect (fastcopy_set ("rep_movsb_threshold=never,copy_nt_threshold=0,"
			    "rep_stosb_threshold=never,clear_nt_threshold=0",
			    NULL, NULL) == 0,
	      "fastcopy_set: streaming from 0 bytes, no REP window");

  for (size_t i = 0; i < fastcopy_impl_count (); i++)
    {
      const struct fastcopy_impl *impl = fastcopy_impl_at (i);
      char name[64];
      if (!(impl->traits & FASTCOPY_TRAIT_NT))
	continue;
      snprintf (name, sizeof name, "%s/%s",
		impl->family == FASTCOPY_FAMILY_COPY ? "copy" : "clear",
		impl->name);
      if (!fastcopy_impl_usable (impl))
	{
	  fct_unsupported ("%s: not usable on this CPU", name);
	  continue;
	}
      if (impl->family == FASTCOPY_FAMILY_COPY)
	{
	  struct fct_copy t = { name, impl->copy, FCT_RET_DST };
	  stream_copies (&t, &b, &r, scratch);
	}
      else
	{
	  struct fct_clear t = { name, impl->clear, FCT_RET_DST, 0 };
	  stream_clears (&t, &r);
	}
      tested++;
    }
  fct_expect (tested > 0, "at least one implementation streams");
  free (scratch);
  return fct_finish ();
}
