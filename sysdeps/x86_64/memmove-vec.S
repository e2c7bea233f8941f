/* SPDX-License-Identifier: MIT */
/* MEMMOVE: memmove (and so memcpy) with VEC_SIZE-byte vectors.  One body
   for every vector ISA: memmove-<isa>.S defines MEMMOVE and IMPL_ID (its
   impl-list.def id) and includes vec-<isa>.h, which names the registers
   and mnemonics.

   Assumptions: the ISA of vec-<isa>.h is usable; unaligned loads and
   stores are cheap.  Arguments: rdi = dst, rsi = src, rdx = n; returns dst
   in rax.  VEC below is VEC_SIZE bytes.

   Strategy, by size.  Up to 8 VEC every class loads all of its data
   before storing any, so each one is overlap-safe without a direction
   check.
   1. n < VEC: general-purpose registers (1, 2-3, 4-7, 8-15 bytes) or, when
      VEC is wider, two 16-byte vectors (16-31), head and tail possibly
      overlapping.
   2. VEC <= n <= 2 VEC, 4 VEC, 8 VEC: 2, 4 or 8 vectors, half from the
      head and half from the tail.  VEC(0) holds the first VEC from the
      moment n >= VEC is known.
   With MASKED_SMALL (AVX-512), class 1 is instead n <= VEC, one load and
   one store under a mask of n bytes.  With MASKED_MIDDLE too (avx512m),
   VEC < n <= 4 VEC is one class: head and tail vectors and two masked
   ones between them, one branch on the size where class 2 has two:
   sizes drawn at random mispredict such branches, and on AMD's cores a
   misprediction costs more than the masked moves (Zen 4: 2.0-2.7 ns per
   copy on the Google distributions' sizes up to 256 B against 2.5-3.5
   for two classes; Zen 5: 0.73 of glibc on sizes 65..256 against 0.94).
   On Intel's the two classes are 1.4-2x faster at every fixed size
   65..256 and even on the distributions (doc/bench/README.md, small
   size classes), so the other AVX-512 variants store no more vectors
   than glibc does.
   3. n > 8 VEC, dst not inside (src, src+n), below rep_movsb_threshold
      and copy_nt_threshold: a software-pipelined loop of 4-VEC blocks to
      VEC-aligned destinations; each block is loaded before the previous
      one is stored, so a load never waits on a store to the same 4 KiB
      page offset (4K aliasing).  The first VEC and the last 4 VEC are
      loaded before the loop and stored after it.  (In C this loop measured
      1.1-1.3x glibc at 257-1024 bytes and 1.12x at 16 KiB with
      (dst - src) mod 4096 = 32 on Zen 3.)
   4. dst inside (src, src+n): the mirror of that loop, from the end down.
   5. rep_movsb_threshold <= n < copy_nt_threshold: REP MOVSB to a
      VEC-aligned destination, unless alias_guard is on and (dst - src)
      mod 4096 is in 1..63, where REP MOVSB is 15-30x slower on Zen 3 and
      Zen 4: then the loop.
   6. n >= copy_nt_threshold and the buffers disjoint: non-temporal stores
      of 4 VEC at a time to 64-byte-aligned lines, so that a huge copy
      does not evict the whole cache; the first 4 VEC are stored normally
      before, the last 4 VEC after an sfence.  With STREAM_PAIRS (the
      Intel variants), two pages at a time first: 4 VEC at the same
      offset of two consecutive 4 KiB pages per pass, as glibc's
      large_memcpy_2x, which copied at 11.2 GB/s against 9.2 for one
      stream on the Granite Rapids guest; on the Zen 4 guest a pass over
      two pages measured 13 GB/s against 17-18 for one stream (both cold,
      16-256 MiB), so AMD's variants keep one.  Overlapping buffers take
      the loop.
   Nothing is read or written outside [src, src+n) and [dst, dst+n).  */

#include "entry.h"

/* The blocks of the loops.  */
#define DST_BLOCK	%rcx	/* destination of the block in VEC(1-4) */
#define SRC_BLOCK	%r8	/* source of the next block to load */
#define LIMIT		%r9	/* where the loop stops: the tail (head) */
#define NEXT_BLOCK	%r10	/* destination of the block in VEC(9-12) */

#define PAIRS		%r11	/* page pairs left to stream */

#define NT_AHEAD	512	/* prefetch distance of the streaming loops */
#define STREAM_PAGE	4096	/* the pages the streaming loop pairs */
#define STREAM_PAGE_SHIFT 12

#define VZEROUPPER_RETURN	VZEROUPPER; ret

VARIANT_BEGIN (COPY, IMPL_ID, MEMMOVE)
	movq	%rdi, %rax
#ifdef MASKED_SMALL
	cmpq	$VEC_SIZE, %rdx
	ja	.Lmore_vec
	/* n <= VEC: one masked load and store of the first n bytes.  */
	LENGTH_MASK
	VMOVU_MASKED (%rsi), %VEC(0){%k1}{z}
	VMOVU_MASKED %VEC(0), (%rdi){%k1}
	ret

	.p2align 4
.Lmore_vec:
	VMOVU	(%rsi), %VEC(0)
# ifdef MASKED_MIDDLE
	cmpq	$(4 * VEC_SIZE), %rdx
	ja	.Lmore_4x_vec
	/* VEC < n <= 4 VEC: the first and the last VEC, and between them the
	   second and the third VEC under masks of n - VEC and n - 2 VEC bytes
	   (none when that is not above zero).  */
	VMOVU	-VEC_SIZE(%rsi,%rdx), %VEC(1)
	MIDDLE_MASKS
	VMOVU_MASKED VEC_SIZE(%rsi), %VEC(2){%k1}{z}
	VMOVU_MASKED (2 * VEC_SIZE)(%rsi), %VEC(3){%k2}{z}
	VMOVU	%VEC(0), (%rdi)
	VMOVU_MASKED %VEC(2), VEC_SIZE(%rdi){%k1}
	VMOVU_MASKED %VEC(3), (2 * VEC_SIZE)(%rdi){%k2}
	VMOVU	%VEC(1), -VEC_SIZE(%rdi,%rdx)
	ret
# else
	cmpq	$(2 * VEC_SIZE), %rdx
	ja	.Lmore_2x_vec
	/* VEC < n <= 2 VEC.  */
	VMOVU	-VEC_SIZE(%rsi,%rdx), %VEC(1)
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(1), -VEC_SIZE(%rdi,%rdx)
	ret
# endif
#else
	cmpq	$VEC_SIZE, %rdx
	jb	.Lless_vec
	VMOVU	(%rsi), %VEC(0)
	cmpq	$(2 * VEC_SIZE), %rdx
	ja	.Lmore_2x_vec
	/* VEC <= n <= 2 VEC.  */
	VMOVU	-VEC_SIZE(%rsi,%rdx), %VEC(1)
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(1), -VEC_SIZE(%rdi,%rdx)
	VZEROUPPER_RETURN
#endif

#ifndef MASKED_SMALL
	/* Each size-class target starts a 32-byte block: code placement
	   changed small copies by up to 1.5x on Zen 3.  */
	.p2align 5
.Lless_vec:
#if VEC_SIZE > 16
	cmpl	$16, %edx
	jae	.Lbetween_16_31
#endif
	cmpl	$8, %edx
	jae	.Lbetween_8_15
	cmpl	$4, %edx
	jae	.Lbetween_4_7
	cmpl	$1, %edx
	jb	.Lreturn		/* n == 0 */
	movzbl	(%rsi), %ecx
	je	.Lstore_1		/* flags still from cmpl: n == 1 */
	movzwl	-2(%rsi,%rdx), %esi
	movw	%si, -2(%rdi,%rdx)
.Lstore_1:
	movb	%cl, (%rdi)
.Lreturn:
	ret

	.p2align 5
.Lbetween_4_7:
	movl	(%rsi), %ecx
	movl	-4(%rsi,%rdx), %esi
	movl	%ecx, (%rdi)
	movl	%esi, -4(%rdi,%rdx)
	ret

	.p2align 5
.Lbetween_8_15:
	movq	(%rsi), %rcx
	movq	-8(%rsi,%rdx), %rsi
	movq	%rcx, (%rdi)
	movq	%rsi, -8(%rdi,%rdx)
	ret

#if VEC_SIZE > 16
	.p2align 5
.Lbetween_16_31:
	XMOVU	(%rsi), %XMM(0)
	XMOVU	-16(%rsi,%rdx), %XMM(1)
	XMOVU	%XMM(0), (%rdi)
	XMOVU	%XMM(1), -16(%rdi,%rdx)
	ret
#endif
#endif

#ifndef MASKED_MIDDLE
	.p2align 5
.Lmore_2x_vec:
	cmpq	$(4 * VEC_SIZE), %rdx
	ja	.Lmore_4x_vec
	/* 2 VEC < n <= 4 VEC.  */
	VMOVU	VEC_SIZE(%rsi), %VEC(1)
	VMOVU	-(2 * VEC_SIZE)(%rsi,%rdx), %VEC(2)
	VMOVU	-VEC_SIZE(%rsi,%rdx), %VEC(3)
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(1), VEC_SIZE(%rdi)
	VMOVU	%VEC(2), -(2 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(3), -VEC_SIZE(%rdi,%rdx)
	VZEROUPPER_RETURN

#endif

	.p2align 5
.Lmore_4x_vec:
	cmpq	$(8 * VEC_SIZE), %rdx
	ja	.Lmore_8x_vec
	/* 4 VEC < n <= 8 VEC.  */
	VMOVU	VEC_SIZE(%rsi), %VEC(1)
	VMOVU	(2 * VEC_SIZE)(%rsi), %VEC(2)
	VMOVU	(3 * VEC_SIZE)(%rsi), %VEC(3)
	VMOVU	-(4 * VEC_SIZE)(%rsi,%rdx), %VEC(4)
	VMOVU	-(3 * VEC_SIZE)(%rsi,%rdx), %VEC(5)
	VMOVU	-(2 * VEC_SIZE)(%rsi,%rdx), %VEC(6)
	VMOVU	-VEC_SIZE(%rsi,%rdx), %VEC(7)
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(1), VEC_SIZE(%rdi)
	VMOVU	%VEC(2), (2 * VEC_SIZE)(%rdi)
	VMOVU	%VEC(3), (3 * VEC_SIZE)(%rdi)
	VMOVU	%VEC(4), -(4 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(5), -(3 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(6), -(2 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(7), -VEC_SIZE(%rdi,%rdx)
	VZEROUPPER_RETURN

	.p2align 5
.Lmore_8x_vec:
	movq	%rdi, %rcx
	subq	%rsi, %rcx		/* rcx: dst - src */
	cmpq	%rdx, %rcx
	jb	.Lbackward		/* dst inside (src, src+n) */
	cmpq	fc_load+FC_OFFSET_REP_MOVSB(%rip), %rdx
	jae	.Lrep_or_stream
	cmpq	fc_load+FC_OFFSET_COPY_NT(%rip), %rdx
	jae	.Lrep_or_stream
.Lforward:
	/* VEC(0) holds the head; the last 4 VEC go to VEC(5-8).  */
	VMOVU	-(4 * VEC_SIZE)(%rsi,%rdx), %VEC(5)
	VMOVU	-(3 * VEC_SIZE)(%rsi,%rdx), %VEC(6)
	VMOVU	-(2 * VEC_SIZE)(%rsi,%rdx), %VEC(7)
	VMOVU	-VEC_SIZE(%rsi,%rdx), %VEC(8)
	leaq	VEC_SIZE(%rdi), DST_BLOCK
	andq	$-VEC_SIZE, DST_BLOCK	/* the first aligned block after the head */
	movq	DST_BLOCK, SRC_BLOCK
	subq	%rdi, SRC_BLOCK
	addq	%rsi, SRC_BLOCK
	leaq	-(4 * VEC_SIZE)(%rdi,%rdx), LIMIT
	VMOVU	(SRC_BLOCK), %VEC(1)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(2)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(4)
	.p2align 4
.Lloop_4x_vec:
	/* VEC(1-4): the block for DST_BLOCK.  */
	subq	$-(4 * VEC_SIZE), SRC_BLOCK
	leaq	(4 * VEC_SIZE)(DST_BLOCK), NEXT_BLOCK
	cmpq	LIMIT, NEXT_BLOCK
	jae	.Lstore_a
	VMOVU	(SRC_BLOCK), %VEC(9)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(10)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(11)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(12)
	VMOVA	%VEC(1), (DST_BLOCK)
	VMOVA	%VEC(2), VEC_SIZE(DST_BLOCK)
	VMOVA	%VEC(3), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(4), (3 * VEC_SIZE)(DST_BLOCK)
	/* VEC(9-12): the block for NEXT_BLOCK.  */
	subq	$-(4 * VEC_SIZE), SRC_BLOCK
	leaq	(4 * VEC_SIZE)(NEXT_BLOCK), DST_BLOCK
	cmpq	LIMIT, DST_BLOCK
	jae	.Lstore_b
	VMOVU	(SRC_BLOCK), %VEC(1)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(2)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(4)
	VMOVA	%VEC(9), (NEXT_BLOCK)
	VMOVA	%VEC(10), VEC_SIZE(NEXT_BLOCK)
	VMOVA	%VEC(11), (2 * VEC_SIZE)(NEXT_BLOCK)
	VMOVA	%VEC(12), (3 * VEC_SIZE)(NEXT_BLOCK)
	jmp	.Lloop_4x_vec

.Lstore_b:
	VMOVA	%VEC(9), (NEXT_BLOCK)
	VMOVA	%VEC(10), VEC_SIZE(NEXT_BLOCK)
	VMOVA	%VEC(11), (2 * VEC_SIZE)(NEXT_BLOCK)
	VMOVA	%VEC(12), (3 * VEC_SIZE)(NEXT_BLOCK)
	jmp	.Lstore_tail
.Lstore_a:
	VMOVA	%VEC(1), (DST_BLOCK)
	VMOVA	%VEC(2), VEC_SIZE(DST_BLOCK)
	VMOVA	%VEC(3), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(4), (3 * VEC_SIZE)(DST_BLOCK)
.Lstore_tail:
	VMOVU	%VEC(5), (LIMIT)
	VMOVU	%VEC(6), VEC_SIZE(LIMIT)
	VMOVU	%VEC(7), (2 * VEC_SIZE)(LIMIT)
	VMOVU	%VEC(8), (3 * VEC_SIZE)(LIMIT)
	VMOVU	%VEC(0), (%rdi)
	VZEROUPPER_RETURN

	.p2align 5
.Lbackward:
	/* dst inside (src, src+n): the same loop from the end down.  The first
	   4 VEC (VEC(0), VEC(5-7)) and the last VEC (VEC(8)) are loaded first;
	   blocks end on VEC-aligned destinations.  */
	VMOVU	VEC_SIZE(%rsi), %VEC(5)
	VMOVU	(2 * VEC_SIZE)(%rsi), %VEC(6)
	VMOVU	(3 * VEC_SIZE)(%rsi), %VEC(7)
	VMOVU	-VEC_SIZE(%rsi,%rdx), %VEC(8)
	leaq	(%rdi,%rdx), DST_BLOCK
	andq	$-VEC_SIZE, DST_BLOCK	/* the end of the first block */
	movq	DST_BLOCK, SRC_BLOCK
	subq	%rdi, SRC_BLOCK
	addq	%rsi, SRC_BLOCK		/* the end of its source */
	leaq	(4 * VEC_SIZE)(%rdi), LIMIT	/* the end of the head */
	VMOVU	-(4 * VEC_SIZE)(SRC_BLOCK), %VEC(1)
	VMOVU	-(3 * VEC_SIZE)(SRC_BLOCK), %VEC(2)
	VMOVU	-(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	-VEC_SIZE(SRC_BLOCK), %VEC(4)
	.p2align 4
.Lback_loop_4x_vec:
	/* VEC(1-4): the block ending at DST_BLOCK.  */
	subq	$(4 * VEC_SIZE), SRC_BLOCK
	leaq	-(4 * VEC_SIZE)(DST_BLOCK), NEXT_BLOCK
	cmpq	LIMIT, NEXT_BLOCK
	jbe	.Lback_store_a
	VMOVU	-(4 * VEC_SIZE)(SRC_BLOCK), %VEC(9)
	VMOVU	-(3 * VEC_SIZE)(SRC_BLOCK), %VEC(10)
	VMOVU	-(2 * VEC_SIZE)(SRC_BLOCK), %VEC(11)
	VMOVU	-VEC_SIZE(SRC_BLOCK), %VEC(12)
	VMOVA	%VEC(1), -(4 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(2), -(3 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(3), -(2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(4), -VEC_SIZE(DST_BLOCK)
	/* VEC(9-12): the block ending at NEXT_BLOCK.  */
	subq	$(4 * VEC_SIZE), SRC_BLOCK
	leaq	-(4 * VEC_SIZE)(NEXT_BLOCK), DST_BLOCK
	cmpq	LIMIT, DST_BLOCK
	jbe	.Lback_store_b
	VMOVU	-(4 * VEC_SIZE)(SRC_BLOCK), %VEC(1)
	VMOVU	-(3 * VEC_SIZE)(SRC_BLOCK), %VEC(2)
	VMOVU	-(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	-VEC_SIZE(SRC_BLOCK), %VEC(4)
	VMOVA	%VEC(9), -(4 * VEC_SIZE)(NEXT_BLOCK)
	VMOVA	%VEC(10), -(3 * VEC_SIZE)(NEXT_BLOCK)
	VMOVA	%VEC(11), -(2 * VEC_SIZE)(NEXT_BLOCK)
	VMOVA	%VEC(12), -VEC_SIZE(NEXT_BLOCK)
	jmp	.Lback_loop_4x_vec

.Lback_store_b:
	VMOVA	%VEC(9), -(4 * VEC_SIZE)(NEXT_BLOCK)
	VMOVA	%VEC(10), -(3 * VEC_SIZE)(NEXT_BLOCK)
	VMOVA	%VEC(11), -(2 * VEC_SIZE)(NEXT_BLOCK)
	VMOVA	%VEC(12), -VEC_SIZE(NEXT_BLOCK)
	jmp	.Lback_finish
.Lback_store_a:
	VMOVA	%VEC(1), -(4 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(2), -(3 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(3), -(2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(4), -VEC_SIZE(DST_BLOCK)
.Lback_finish:
	VMOVU	%VEC(8), -VEC_SIZE(%rdi,%rdx)
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(5), VEC_SIZE(%rdi)
	VMOVU	%VEC(6), (2 * VEC_SIZE)(%rdi)
	VMOVU	%VEC(7), (3 * VEC_SIZE)(%rdi)
	VZEROUPPER_RETURN

	.p2align 4
.Lrep_or_stream:
	/* n > 8 VEC, forward-safe, at or above one of the thresholds;
	   rcx: dst - src.  */
	cmpq	fc_load+FC_OFFSET_COPY_NT(%rip), %rdx
	jae	.Lstream_if_disjoint
	cmpq	$0, fc_load+FC_OFFSET_ALIAS_GUARD(%rip)
	je	.Lrep_movsb
	andl	$4095, %ecx
	decl	%ecx
	cmpl	$63, %ecx
	jb	.Lforward		/* (dst - src) mod 4096 in 1..63 */
.Lrep_movsb:
	/* REP MOVSB to a VEC-aligned destination, which measured faster:
	   VEC(0) holds the first VEC, stored here.  Not when src is less than
	   VEC ahead of dst: there that store would overwrite source bytes
	   REP MOVSB has yet to read.  */
	movq	%rsi, %r8
	subq	%rdi, %r8
	cmpq	$VEC_SIZE, %r8
	jb	.Lrep_movsb_unaligned
	VMOVU	%VEC(0), (%rdi)
	movq	%rdi, %rcx
	negq	%rcx
	andl	$(VEC_SIZE - 1), %ecx
	addq	%rcx, %rsi
	addq	%rcx, %rdi
	subq	%rcx, %rdx
.Lrep_movsb_unaligned:
	VZEROUPPER
	movq	%rdx, %rcx
	rep movsb
	ret

.Lstream_if_disjoint:
	movq	%rsi, %rcx
	subq	%rdi, %rcx
	cmpq	%rdx, %rcx
	jb	.Lforward		/* src inside (dst, dst+n) */
	/* The buffers are disjoint, so the order of the stores does not
	   matter: the first 4 VEC (they cover the up to 63 bytes in front of
	   the first whole line) go out now, the last 4 VEC after the
	   loops.  */
	VMOVU	VEC_SIZE(%rsi), %VEC(1)
	VMOVU	(2 * VEC_SIZE)(%rsi), %VEC(2)
	VMOVU	(3 * VEC_SIZE)(%rsi), %VEC(3)
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(1), VEC_SIZE(%rdi)
	VMOVU	%VEC(2), (2 * VEC_SIZE)(%rdi)
	VMOVU	%VEC(3), (3 * VEC_SIZE)(%rdi)
	leaq	63(%rdi), DST_BLOCK
	andq	$-64, DST_BLOCK
	movq	DST_BLOCK, SRC_BLOCK
	subq	%rdi, SRC_BLOCK
	addq	%rsi, SRC_BLOCK
	leaq	-(4 * VEC_SIZE)(%rdi,%rdx), LIMIT
#ifdef STREAM_PAIRS
	/* Whole pairs of pages first: each pass copies 4 VEC at one offset
	   of a page and 4 VEC at the same offset of the next, so that two
	   streams of loads and of write-combined stores are in flight.  */
	movq	LIMIT, PAIRS
	subq	DST_BLOCK, PAIRS
	shrq	$(STREAM_PAGE_SHIFT + 1), PAIRS
	jz	.Lstream_lines
	.p2align 4
.Lstream_pair:
	movl	$(STREAM_PAGE / (4 * VEC_SIZE)), %edx
.Lstream_pair_lines:
	prefetcht0 NT_AHEAD(SRC_BLOCK)
	prefetcht0 (STREAM_PAGE + NT_AHEAD)(SRC_BLOCK)
	VMOVU	(SRC_BLOCK), %VEC(1)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(2)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(4)
	VMOVU	STREAM_PAGE(SRC_BLOCK), %VEC(9)
	VMOVU	(STREAM_PAGE + VEC_SIZE)(SRC_BLOCK), %VEC(10)
	VMOVU	(STREAM_PAGE + 2 * VEC_SIZE)(SRC_BLOCK), %VEC(11)
	VMOVU	(STREAM_PAGE + 3 * VEC_SIZE)(SRC_BLOCK), %VEC(12)
	VMOVNT	%VEC(1), (DST_BLOCK)
	VMOVNT	%VEC(2), VEC_SIZE(DST_BLOCK)
	VMOVNT	%VEC(3), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(4), (3 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(9), STREAM_PAGE(DST_BLOCK)
	VMOVNT	%VEC(10), (STREAM_PAGE + VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(11), (STREAM_PAGE + 2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(12), (STREAM_PAGE + 3 * VEC_SIZE)(DST_BLOCK)
	subq	$-(4 * VEC_SIZE), SRC_BLOCK
	subq	$-(4 * VEC_SIZE), DST_BLOCK
	decl	%edx
	jnz	.Lstream_pair_lines
	addq	$STREAM_PAGE, SRC_BLOCK
	addq	$STREAM_PAGE, DST_BLOCK
	decq	PAIRS
	jnz	.Lstream_pair
.Lstream_lines:
#endif
	/* 4 VEC at a time (what is left of the pairs, under two pages).  */
	cmpq	LIMIT, DST_BLOCK
	jae	.Lstream_tail
	.p2align 4
.Lstream_loop:
	prefetcht0 NT_AHEAD(SRC_BLOCK)
	VMOVU	(SRC_BLOCK), %VEC(9)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(10)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(11)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(12)
	VMOVNT	%VEC(9), (DST_BLOCK)
	VMOVNT	%VEC(10), VEC_SIZE(DST_BLOCK)
	VMOVNT	%VEC(11), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(12), (3 * VEC_SIZE)(DST_BLOCK)
	subq	$-(4 * VEC_SIZE), SRC_BLOCK
	subq	$-(4 * VEC_SIZE), DST_BLOCK
	cmpq	LIMIT, DST_BLOCK
	jb	.Lstream_loop
.Lstream_tail:
	sfence
	movq	LIMIT, %rcx
	subq	%rdi, %rcx
	addq	%rsi, %rcx		/* the source of the last 4 VEC */
	VMOVU	(%rcx), %VEC(5)
	VMOVU	VEC_SIZE(%rcx), %VEC(6)
	VMOVU	(2 * VEC_SIZE)(%rcx), %VEC(7)
	VMOVU	(3 * VEC_SIZE)(%rcx), %VEC(8)
	VMOVU	%VEC(5), (LIMIT)
	VMOVU	%VEC(6), VEC_SIZE(LIMIT)
	VMOVU	%VEC(7), (2 * VEC_SIZE)(LIMIT)
	VMOVU	%VEC(8), (3 * VEC_SIZE)(LIMIT)
	VZEROUPPER_RETURN
VARIANT_END (COPY, IMPL_ID, MEMMOVE)

	.section .note.GNU-stack, "", @progbits
