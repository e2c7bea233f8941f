/* SPDX-License-Identifier: MIT */
/* memmove-vec.S and memset-vec.S are one body each for every vector ISA
   and both ABIs.  A variant's file, memmove-<isa>.S or memset-<isa>.S,
   defines MEMMOVE or MEMSET (the function's name) and IMPL_ID (its
   impl-list.def id), includes vec-<isa>.h, which names the registers and
   the mnemonics (and says how memset broadcasts its byte), and then the
   body.  The body includes vec-abi.h (sysdeps/x86_64, sysdeps/i386),
   which says where the arguments are and names the general registers of
   each role, and this file: what the two bodies share, the sizes of the
   memory they work in and blocks of two or four vector moves.  */

#ifndef FASTCOPY_VEC_BLOCKS_H
#define FASTCOPY_VEC_BLOCKS_H 1

#define PAGE_SIZE	4096	/* the pages the streaming loops pair */
#define PAGE_SHIFT	12
#define LINE_SIZE	64	/* a cache line, which streaming stores fill */
/* Loads and stores whose addresses agree in their bits below a page
   alias (4K aliasing): (dst - src) & ALIAS_MASK is their distance.  */
#define ALIAS_MASK	(PAGE_SIZE - 1)

#define VZEROUPPER_RETURN	VZEROUPPER; ret

/* Where the size is, as BODY_RANGE's terms: in LEN, or, once the loops
   have set LIMIT to where the last 4 VEC go, LIMIT - DST + 4 VEC.  */
#define IN_LEN		0, PERF_LEN, 1
#define IN_LIMIT	(4 * VEC_SIZE), PERF_LIMIT, 1, PERF_DST, -1

/* Blocks of vectors at consecutive VEC_SIZE steps from OFF off BASE, a
   parenthesized address such as (SRC) or (DST,LEN); the registers are
   named as VEC(i) is, or by a list such as memmove-vec.S's BLOCK_A.
   LOAD_* are unaligned loads; STORE_* take the move: VMOVU, VMOVA or
   VMOVNT.  */
#define LOAD_2(off, base, ...)		LOAD_2_ (off, base, __VA_ARGS__)
#define LOAD_4(off, base, ...)		LOAD_4_ (off, base, __VA_ARGS__)
#define STORE_2(mov, off, base, ...)	STORE_2_ (mov, off, base, __VA_ARGS__)
#define STORE_4(mov, off, base, ...)	STORE_4_ (mov, off, base, __VA_ARGS__)

#define LOAD_2_(off, base, a, b)		\
	VMOVU	(off)base, %a;			\
	VMOVU	(off + VEC_SIZE)base, %b
#define LOAD_4_(off, base, a, b, c, d)		\
	LOAD_2_ (off, base, a, b);		\
	LOAD_2_ (off + 2 * VEC_SIZE, base, c, d)
#define STORE_2_(mov, off, base, a, b)		\
	mov	%a, (off)base;			\
	mov	%b, (off + VEC_SIZE)base
#define STORE_4_(mov, off, base, a, b, c, d)	\
	STORE_2_ (mov, off, base, a, b);	\
	STORE_2_ (mov, off + 2 * VEC_SIZE, base, c, d)

/* OUT = ADDR rounded down to a multiple of ALIGN.  */
#define ALIGN_DOWN(addr, align, out)	lea addr, out; and $-(align), out

/* With STREAM_PAIRS, the whole pairs of pages from DST_BLOCK to LIMIT,
   if any: PASS moves 4 VEC at DST_BLOCK and 4 at the same offset of the
   next page and steps on to the next 4 VEC, and NEXT_PAIR steps over
   that second page.  Each pass keeps two streams of loads and of
   write-combined stores in flight.  */
#define STREAM_PAIRS_LOOP(pass, next_pair)		\
	mov	LIMIT, PAIRS;				\
	sub	DST_BLOCK, PAIRS;			\
	shr	$(PAGE_SHIFT + 1), PAIRS;		\
	jz	.Lstream_lines;				\
	.p2align 4;					\
.Lstream_pair:						\
	movl	$(PAGE_SIZE / (4 * VEC_SIZE)), PAIR_LINES; \
.Lstream_pair_lines:					\
	pass;						\
	decl	PAIR_LINES;				\
	jnz	.Lstream_pair_lines;			\
	next_pair;					\
	dec	PAIRS;					\
	jnz	.Lstream_pair;				\
.Lstream_lines:

/* The first N bytes of dst from HEAD and the last N from TAIL through the
   move MOV: any n from N to 2 N, the two stores possibly overlapping.  */
#define STORE_HEAD_TAIL(mov, n, head, tail)	\
	mov	%head, (DST);			\
	mov	%tail, -(n)(DST,LEN)

#endif
