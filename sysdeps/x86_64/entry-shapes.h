/* SPDX-License-Identifier: MIT */
/* The shapes of the small classes of avx512m, the entry variant
   (src/entry-points.def), by name.  A build takes the shape FC_ENTRY_SHAPE
   names (CPPFLAGS=-DFC_ENTRY_SHAPE=middle), pair unless told;
   bench/compare-shapes builds each of them as the entry variant and
   measures them side by side, so that a machine that comes rarely settles the question
   in one run, and make check assembles each so that none rots.

     pair     n <= 2 VEC one class with no size branch: the first VEC and
	      the VEC that ends at n, under one mask of min (n, VEC) bytes
	      (the same VEC twice below VEC).  The default: the one shape
	      measured with no fixed size above 1.15 of glibc on Zen 4 and
	      Zen 5 (doc/performance.md, the AMD Zen 4 and Zen 5 sections).
     pair64   the same class, with the second VEC at VEC under a mask of
	      max (n - VEC, 0) bytes.
     middle   n <= VEC one masked move; VEC < n <= 4 VEC one class of
	      head and tail vectors and two masked ones between them.
     classes  n <= VEC one masked move; glibc's classes above (2 VEC,
	      4 VEC), as avx512 has them.

   The shape sets MASKED_PAIR (with PAIR_AT_VEC for pair64) or
   MASKED_MIDDLE for memmove-vec.S and memset-vec.S.  */

#define FC_SHAPE_pair		1
#define FC_SHAPE_pair64		2
#define FC_SHAPE_middle		3
#define FC_SHAPE_classes	4
#define FC_SHAPE_ID(name)	FC_SHAPE_ID_ (name)
#define FC_SHAPE_ID_(name)	FC_SHAPE_##name

#ifndef FC_ENTRY_SHAPE
# define FC_ENTRY_SHAPE		pair
#endif

#if FC_SHAPE_ID (FC_ENTRY_SHAPE) == FC_SHAPE_pair
# define MASKED_PAIR		1
#elif FC_SHAPE_ID (FC_ENTRY_SHAPE) == FC_SHAPE_pair64
# define MASKED_PAIR		1
# define PAIR_AT_VEC		1
#elif FC_SHAPE_ID (FC_ENTRY_SHAPE) == FC_SHAPE_middle
# define MASKED_MIDDLE		1
#elif FC_SHAPE_ID (FC_ENTRY_SHAPE) != FC_SHAPE_classes
# error "FC_ENTRY_SHAPE: none of pair, pair64, middle, classes"
#endif
