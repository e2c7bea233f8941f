/* SPDX-License-Identifier: MIT */
/* MEMMOVE: memmove (and so memcpy) with VEC_SIZE-byte vectors.  One body
   for every vector ISA and both ABIs: memmove-<isa>.S defines MEMMOVE and
   IMPL_ID (its impl-list.def id) and includes vec-<isa>.h, which names the
   registers and mnemonics; vec-abi.h (sysdeps/x86_64, sysdeps/i386) names
   the arguments and the general registers of each role.

   Assumptions: the ISA of vec-<isa>.h is usable; unaligned loads and
   stores are cheap.  Arguments: DST = dst, SRC = src, LEN = n (x86-64:
   rdi, rsi, rdx; i386 loads them from the stack into eax, ecx, edx);
   returns dst in rax (eax).  VEC below is VEC_SIZE bytes.

   Strategy, by size.  Up to 8 VEC every class loads all of its data
   before storing any, so each one is overlap-safe without a direction
   check.
   1. n < VEC: general-purpose registers (1, 2-3, 4-7, 8-15 bytes; i386,
      which has no 64-bit ones to spare, moves 4-15 through the low halves
      of vectors) or, when VEC is wider, two 16-byte vectors (16-31), head
      and tail possibly overlapping.
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
   65..256 and even on the distributions
   (doc/bench/*-small-copy-classes.txt), so the other AVX-512 variants
   store no more vectors than glibc does.
   3. n > 8 VEC, dst not inside (src, src+n), below rep_movsb_threshold
      and copy_nt_threshold: a software-pipelined loop of 4-VEC blocks to
      VEC-aligned destinations; each block is loaded before the previous
      one is stored, so a load never waits on a store to the same 4 KiB
      page offset (4K aliasing).  The first VEC and the last 4 VEC are
      loaded before the loop and stored after it.  (In C this loop measured
      1.1-1.3x glibc at 257-1024 bytes and 1.12x at 16 KiB with
      (dst - src) mod 4096 = 32 on Zen 3.)  With 8 vector registers
      (i386) there is no room for the second block in flight: each block
      is loaded after the previous one is stored, and the last VEC waits
      on the stack (LAST below).
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
   Nothing is read or written outside [src, src+n) and [dst, dst+n).

   The body map (body-range.h, doc/size-registers.md): n stays in LEN
   on every path but two.  REP MOVSB uses it up: there n is
   LEN + REP_DST - dst, then REP_CNT + REP_DST - dst.  The streaming
   loop of STREAM_PAIRS counts in PAIR_LINES, LEN's register: there n
   is LIMIT - DST + 4 VEC.  On i386, n is taken from its argument on
   the stack until it is loaded and from the epilogue's pops on.  */

#include "entry.h"
#include "vec-abi.h"

#define NT_AHEAD	512	/* prefetch distance of the streaming loops */
#define STREAM_PAGE	4096	/* the pages the streaming loop pairs */
#define STREAM_PAGE_SHIFT 12

#define VZEROUPPER_RETURN	VZEROUPPER; ret

/* The first and the last N bytes, possibly overlapping (any n from N to
   2 N), through the two registers of MOVE: a move of N bytes, two
   registers (MOVE_4, MOVE_8 of vec-abi.h).  */
#define HEAD_TAIL(n, move)	HEAD_TAIL_ (n, move)
#define HEAD_TAIL_(n, mov, a, b)		\
	mov	(SRC), a;			\
	mov	-n(SRC,LEN), b;			\
	mov	a, (DST);			\
	mov	b, -n(DST,LEN)
#define MOVE_16		XMOVU, %XMM(0), %XMM(1)

/* The vectors of the paths above 8 VEC: VEC(0) the first VEC, VEC(1-4)
   the block a loop moves, VEC(5-7) and LAST the rest of the 4 VEC at the
   other end, which the loops leave for last.  With 13 vector registers or
   more, LAST is VEC(8), VEC(9-12) the block in flight beside VEC(1-4)
   and the streaming loop's block (STREAM_0-3); with 8 (i386), LAST is a
   slot on the stack, reached through VEC(4), free where LAST is loaded
   and stored, and the streaming loop's block is VEC(1-4).  */
#if VEC_REGS >= 13
# define LOAD_LAST(mem)		VMOVU mem, %VEC(8)
# define STORE_LAST(mem)	VMOVU %VEC(8), mem
# define STREAM_0		VEC(9)
# define STREAM_1		VEC(10)
# define STREAM_2		VEC(11)
# define STREAM_3		VEC(12)
#else
# define LOAD_LAST(mem)		VMOVU mem, %VEC(4); VMOVU %VEC(4), LAST_SLOT
# define STORE_LAST(mem)	VMOVU LAST_SLOT, %VEC(4); VMOVU %VEC(4), mem
# define STREAM_0		VEC(1)
# define STREAM_1		VEC(2)
# define STREAM_2		VEC(3)
# define STREAM_3		VEC(4)
# ifdef STREAM_PAIRS
#  error "STREAM_PAIRS keeps two blocks in flight: 13 vector registers"
# endif
#endif
#define TAIL_SRC	DST_BLOCK	/* after the streaming loop */

/* Where the size is, as BODY_RANGE's terms.  */
#define IN_LEN		0, PERF_LEN, 1
#define IN_REP_LEN	0, PERF_LEN, 1, PERF_REP_DST, 1, PERF_RET, -1
#define IN_REP_CNT	0, PERF_REP_CNT, 1, PERF_REP_DST, 1, PERF_RET, -1
#define IN_LIMIT	(4 * VEC_SIZE), PERF_LIMIT, 1, PERF_DST, -1

VARIANT_BEGIN (COPY, IMPL_ID, MEMMOVE)
	MEMMOVE_ARGS
	BODY_RANGE (ENTRY, IN_LEN)
#ifdef MASKED_SMALL
	cmp	$VEC_SIZE, LEN
	ja	.Lmore_vec
	/* n <= VEC: one masked load and store of the first n bytes.  */
	BODY_RANGE (CLASS, IN_LEN)
	LENGTH_MASK
	VMOVU_MASKED (SRC), %VEC(0){%k1}{z}
	VMOVU_MASKED %VEC(0), (DST){%k1}
	ret

	.p2align 4
.Lmore_vec:
	BODY_RANGE (ENTRY, IN_LEN)
	VMOVU	(SRC), %VEC(0)
# ifdef MASKED_MIDDLE
	cmp	$(4 * VEC_SIZE), LEN
	ja	.Lmore_4x_vec
	/* VEC < n <= 4 VEC: the first and the last VEC, and between them the
	   second and the third VEC under masks of n - VEC and n - 2 VEC bytes
	   (none when that is not above zero).  */
	BODY_RANGE (CLASS, IN_LEN)
	VMOVU	-VEC_SIZE(SRC,LEN), %VEC(1)
	MIDDLE_MASKS
	VMOVU_MASKED VEC_SIZE(SRC), %VEC(2){%k1}{z}
	VMOVU_MASKED (2 * VEC_SIZE)(SRC), %VEC(3){%k2}{z}
	VMOVU	%VEC(0), (DST)
	VMOVU_MASKED %VEC(2), VEC_SIZE(DST){%k1}
	VMOVU_MASKED %VEC(3), (2 * VEC_SIZE)(DST){%k2}
	VMOVU	%VEC(1), -VEC_SIZE(DST,LEN)
	ret
# else
	cmp	$(2 * VEC_SIZE), LEN
	ja	.Lmore_2x_vec
	/* VEC < n <= 2 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	VMOVU	-VEC_SIZE(SRC,LEN), %VEC(1)
	VMOVU	%VEC(0), (DST)
	VMOVU	%VEC(1), -VEC_SIZE(DST,LEN)
	ret
# endif
#else
	cmp	$VEC_SIZE, LEN
	jb	.Lless_vec
	VMOVU	(SRC), %VEC(0)
	cmp	$(2 * VEC_SIZE), LEN
	ja	.Lmore_2x_vec
	/* VEC <= n <= 2 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	VMOVU	-VEC_SIZE(SRC,LEN), %VEC(1)
	VMOVU	%VEC(0), (DST)
	VMOVU	%VEC(1), -VEC_SIZE(DST,LEN)
	VZEROUPPER_RETURN
#endif

#ifndef MASKED_SMALL
	/* Each size-class target starts a 32-byte block: code placement
	   changed small copies by up to 1.5x on Zen 3.  */
	.p2align 5
.Lless_vec:
	BODY_RANGE (ENTRY, IN_LEN)
# if VEC_SIZE > 16
	cmpl	$16, LEN32
	jae	.Lbetween_16_31
# endif
	cmpl	$8, LEN32
	jae	.Lbetween_8_15
	cmpl	$4, LEN32
	jae	.Lbetween_4_7
	cmpl	$1, LEN32
	jb	.Lreturn		/* n == 0 */
	BODY_RANGE (CLASS, IN_LEN)
	SMALL_SAVE
	movzbl	(SRC), BYTE_TMP
	je	.Lstore_1		/* flags still from cmpl: n == 1 */
	movzwl	-2(SRC,LEN), WORD_TMP
	movw	WORD_TMP16, -2(DST,LEN)
.Lstore_1:
	movb	BYTE_TMP8, (DST)
	SMALL_RESTORE
.Lreturn:
	ret

	.p2align 5
.Lbetween_4_7:
	BODY_RANGE (CLASS, IN_LEN)
	HEAD_TAIL (4, MOVE_4)
	ret

	.p2align 5
.Lbetween_8_15:
	BODY_RANGE (CLASS, IN_LEN)
	HEAD_TAIL (8, MOVE_8)
	ret

# if VEC_SIZE > 16
	.p2align 5
.Lbetween_16_31:
	BODY_RANGE (CLASS, IN_LEN)
	HEAD_TAIL (16, MOVE_16)
	ret
# endif
#endif

#ifndef MASKED_MIDDLE
	.p2align 5
.Lmore_2x_vec:
	BODY_RANGE (ENTRY, IN_LEN)
	cmp	$(4 * VEC_SIZE), LEN
	ja	.Lmore_4x_vec
	/* 2 VEC < n <= 4 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	VMOVU	VEC_SIZE(SRC), %VEC(1)
	VMOVU	-(2 * VEC_SIZE)(SRC,LEN), %VEC(2)
	VMOVU	-VEC_SIZE(SRC,LEN), %VEC(3)
	VMOVU	%VEC(0), (DST)
	VMOVU	%VEC(1), VEC_SIZE(DST)
	VMOVU	%VEC(2), -(2 * VEC_SIZE)(DST,LEN)
	VMOVU	%VEC(3), -VEC_SIZE(DST,LEN)
	VZEROUPPER_RETURN

#endif

	.p2align 5
.Lmore_4x_vec:
	BODY_RANGE (ENTRY, IN_LEN)
	cmp	$(8 * VEC_SIZE), LEN
	ja	.Lmore_8x_vec
	/* 4 VEC < n <= 8 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	VMOVU	VEC_SIZE(SRC), %VEC(1)
	VMOVU	(2 * VEC_SIZE)(SRC), %VEC(2)
	VMOVU	(3 * VEC_SIZE)(SRC), %VEC(3)
	VMOVU	-(4 * VEC_SIZE)(SRC,LEN), %VEC(4)
	VMOVU	-(3 * VEC_SIZE)(SRC,LEN), %VEC(5)
	VMOVU	-(2 * VEC_SIZE)(SRC,LEN), %VEC(6)
	VMOVU	-VEC_SIZE(SRC,LEN), %VEC(7)
	VMOVU	%VEC(0), (DST)
	VMOVU	%VEC(1), VEC_SIZE(DST)
	VMOVU	%VEC(2), (2 * VEC_SIZE)(DST)
	VMOVU	%VEC(3), (3 * VEC_SIZE)(DST)
	VMOVU	%VEC(4), -(4 * VEC_SIZE)(DST,LEN)
	VMOVU	%VEC(5), -(3 * VEC_SIZE)(DST,LEN)
	VMOVU	%VEC(6), -(2 * VEC_SIZE)(DST,LEN)
	VMOVU	%VEC(7), -VEC_SIZE(DST,LEN)
	VZEROUPPER_RETURN

	.p2align 5
.Lmore_8x_vec:
	BODY_RANGE (ENTRY, IN_LEN)
	PUSH_LOOP_REGS
	mov	DST, DIST
	sub	SRC, DIST		/* DIST: dst - src */
	cmp	LEN, DIST
	jb	.Lbackward		/* dst inside (src, src+n) */
	cmp	TUNABLE (REP_MOVSB), LEN
	jae	.Lrep_or_stream
	cmp	TUNABLE (COPY_NT), LEN
	jae	.Lrep_or_stream
.Lforward:
	BODY_RANGE (LOOP, IN_LEN)
	/* VEC(0) holds the head; the last 4 VEC go to VEC(5-7) and LAST.  */
	VMOVU	-(4 * VEC_SIZE)(SRC,LEN), %VEC(5)
	VMOVU	-(3 * VEC_SIZE)(SRC,LEN), %VEC(6)
	VMOVU	-(2 * VEC_SIZE)(SRC,LEN), %VEC(7)
	LOAD_LAST (-VEC_SIZE(SRC,LEN))
	lea	VEC_SIZE(DST), DST_BLOCK
	and	$-VEC_SIZE, DST_BLOCK	/* the first aligned block after the head */
	mov	DST_BLOCK, SRC_BLOCK
	sub	DST, SRC_BLOCK
	add	SRC, SRC_BLOCK
	lea	-(4 * VEC_SIZE)(DST,LEN), LIMIT
#if VEC_REGS >= 13
	VMOVU	(SRC_BLOCK), %VEC(1)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(2)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(4)
	.p2align 4
.Lloop_4x_vec:
	/* VEC(1-4): the block for DST_BLOCK.  */
	sub	$-(4 * VEC_SIZE), SRC_BLOCK
	lea	(4 * VEC_SIZE)(DST_BLOCK), NEXT_BLOCK
	cmp	LIMIT, NEXT_BLOCK
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
	sub	$-(4 * VEC_SIZE), SRC_BLOCK
	lea	(4 * VEC_SIZE)(NEXT_BLOCK), DST_BLOCK
	cmp	LIMIT, DST_BLOCK
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
#else
	.p2align 4
.Lloop_4x_vec:
	/* VEC(1-4): the block for DST_BLOCK, loaded after the previous one
	   is stored: the source lies ahead of the destination, or does not
	   overlap it.  */
	VMOVU	(SRC_BLOCK), %VEC(1)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(2)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(4)
	VMOVA	%VEC(1), (DST_BLOCK)
	VMOVA	%VEC(2), VEC_SIZE(DST_BLOCK)
	VMOVA	%VEC(3), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(4), (3 * VEC_SIZE)(DST_BLOCK)
	sub	$-(4 * VEC_SIZE), SRC_BLOCK
	sub	$-(4 * VEC_SIZE), DST_BLOCK
	cmp	LIMIT, DST_BLOCK
	jb	.Lloop_4x_vec
#endif
.Lstore_tail:
	VMOVU	%VEC(5), (LIMIT)
	VMOVU	%VEC(6), VEC_SIZE(LIMIT)
	VMOVU	%VEC(7), (2 * VEC_SIZE)(LIMIT)
	STORE_LAST ((3 * VEC_SIZE)(LIMIT))
	VMOVU	%VEC(0), (DST)
	VZEROUPPER
	POP_LOOP_REGS_RET (LOOP)

	.p2align 5
.Lbackward:
	BODY_RANGE (BACKWARD, IN_LEN)
	/* dst inside (src, src+n): the same loop from the end down.  The first
	   4 VEC (VEC(0), VEC(5-7)) and the last VEC (LAST) are loaded first;
	   blocks end on VEC-aligned destinations.  */
	VMOVU	VEC_SIZE(SRC), %VEC(5)
	VMOVU	(2 * VEC_SIZE)(SRC), %VEC(6)
	VMOVU	(3 * VEC_SIZE)(SRC), %VEC(7)
	LOAD_LAST (-VEC_SIZE(SRC,LEN))
	lea	(DST,LEN), DST_BLOCK
	and	$-VEC_SIZE, DST_BLOCK	/* the end of the first block */
	mov	DST_BLOCK, SRC_BLOCK
	sub	DST, SRC_BLOCK
	add	SRC, SRC_BLOCK		/* the end of its source */
	lea	(4 * VEC_SIZE)(DST), LIMIT	/* the end of the head */
#if VEC_REGS >= 13
	VMOVU	-(4 * VEC_SIZE)(SRC_BLOCK), %VEC(1)
	VMOVU	-(3 * VEC_SIZE)(SRC_BLOCK), %VEC(2)
	VMOVU	-(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	-VEC_SIZE(SRC_BLOCK), %VEC(4)
	.p2align 4
.Lback_loop_4x_vec:
	/* VEC(1-4): the block ending at DST_BLOCK.  */
	sub	$(4 * VEC_SIZE), SRC_BLOCK
	lea	-(4 * VEC_SIZE)(DST_BLOCK), NEXT_BLOCK
	cmp	LIMIT, NEXT_BLOCK
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
	sub	$(4 * VEC_SIZE), SRC_BLOCK
	lea	-(4 * VEC_SIZE)(NEXT_BLOCK), DST_BLOCK
	cmp	LIMIT, DST_BLOCK
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
#else
	.p2align 4
.Lback_loop_4x_vec:
	/* VEC(1-4): the block ending at DST_BLOCK.  */
	VMOVU	-(4 * VEC_SIZE)(SRC_BLOCK), %VEC(1)
	VMOVU	-(3 * VEC_SIZE)(SRC_BLOCK), %VEC(2)
	VMOVU	-(2 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVU	-VEC_SIZE(SRC_BLOCK), %VEC(4)
	VMOVA	%VEC(1), -(4 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(2), -(3 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(3), -(2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(4), -VEC_SIZE(DST_BLOCK)
	sub	$(4 * VEC_SIZE), SRC_BLOCK
	sub	$(4 * VEC_SIZE), DST_BLOCK
	cmp	LIMIT, DST_BLOCK
	ja	.Lback_loop_4x_vec
#endif
.Lback_finish:
	STORE_LAST (-VEC_SIZE(DST,LEN))
	VMOVU	%VEC(0), (DST)
	VMOVU	%VEC(5), VEC_SIZE(DST)
	VMOVU	%VEC(6), (2 * VEC_SIZE)(DST)
	VMOVU	%VEC(7), (3 * VEC_SIZE)(DST)
	VZEROUPPER
	POP_LOOP_REGS_RET (BACKWARD)

	.p2align 4
.Lrep_or_stream:
	BODY_RANGE (ENTRY, IN_LEN)
	/* n > 8 VEC, forward-safe, at or above one of the thresholds;
	   DIST: dst - src.  */
	cmp	TUNABLE (COPY_NT), LEN
	jae	.Lstream_if_disjoint
	CMP_WORD $0, TUNABLE (ALIAS_GUARD)
	je	.Lrep_movsb
	andl	$4095, DIST32
	decl	DIST32
	cmpl	$63, DIST32
	jb	.Lforward		/* (dst - src) mod 4096 in 1..63 */
.Lrep_movsb:
	BODY_RANGE (REP, IN_LEN)
	/* REP MOVSB to a VEC-aligned destination, which measured faster:
	   VEC(0) holds the first VEC, stored here.  Not when src is less than
	   VEC ahead of dst: there that store would overwrite source bytes
	   REP MOVSB has yet to read.  */
	REP_MOVSB_ARGS
	mov	REP_SRC, REP_GAP
	sub	REP_DST, REP_GAP
	cmp	$VEC_SIZE, REP_GAP
	jb	.Lrep_movsb_unaligned
	VMOVU	%VEC(0), (REP_DST)
	mov	REP_DST, REP_CNT
	neg	REP_CNT
	andl	$(VEC_SIZE - 1), REP_CNT32
	add	REP_CNT, REP_SRC
	add	REP_CNT, REP_DST
	sub	REP_CNT, LEN
.Lrep_movsb_unaligned:
	BODY_RANGE (REP, IN_REP_LEN)
	VZEROUPPER
	mov	LEN, REP_CNT
	BODY_RANGE (REP, IN_REP_CNT)
	rep movsb
	POP_LOOP_REGS_RET (REP)

.Lstream_if_disjoint:
	BODY_RANGE (ENTRY, IN_LEN)
	mov	SRC, DIST
	sub	DST, DIST
	cmp	LEN, DIST
	jb	.Lforward		/* src inside (dst, dst+n) */
	/* The buffers are disjoint, so the order of the stores does not
	   matter: the first 4 VEC (they cover the up to 63 bytes in front of
	   the first whole line) go out now, the last 4 VEC after the
	   loops.  */
	BODY_RANGE (STREAM, IN_LEN)
	VMOVU	VEC_SIZE(SRC), %VEC(1)
	VMOVU	(2 * VEC_SIZE)(SRC), %VEC(2)
	VMOVU	(3 * VEC_SIZE)(SRC), %VEC(3)
	VMOVU	%VEC(0), (DST)
	VMOVU	%VEC(1), VEC_SIZE(DST)
	VMOVU	%VEC(2), (2 * VEC_SIZE)(DST)
	VMOVU	%VEC(3), (3 * VEC_SIZE)(DST)
	lea	63(DST), DST_BLOCK
	and	$-64, DST_BLOCK
	mov	DST_BLOCK, SRC_BLOCK
	sub	DST, SRC_BLOCK
	add	SRC, SRC_BLOCK
	lea	-(4 * VEC_SIZE)(DST,LEN), LIMIT
	BODY_RANGE (STREAM, IN_LIMIT)
#ifdef STREAM_PAIRS
	/* Whole pairs of pages first: each pass copies 4 VEC at one offset
	   of a page and 4 VEC at the same offset of the next, so that two
	   streams of loads and of write-combined stores are in flight.  */
	mov	LIMIT, PAIRS
	sub	DST_BLOCK, PAIRS
	shr	$(STREAM_PAGE_SHIFT + 1), PAIRS
	jz	.Lstream_lines
	.p2align 4
.Lstream_pair:
	movl	$(STREAM_PAGE / (4 * VEC_SIZE)), PAIR_LINES
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
	sub	$-(4 * VEC_SIZE), SRC_BLOCK
	sub	$-(4 * VEC_SIZE), DST_BLOCK
	decl	PAIR_LINES
	jnz	.Lstream_pair_lines
	add	$STREAM_PAGE, SRC_BLOCK
	add	$STREAM_PAGE, DST_BLOCK
	dec	PAIRS
	jnz	.Lstream_pair
.Lstream_lines:
#endif
	/* 4 VEC at a time (what is left of the pairs, under two pages).  */
	cmp	LIMIT, DST_BLOCK
	jae	.Lstream_tail
	.p2align 4
.Lstream_loop:
	prefetcht0 NT_AHEAD(SRC_BLOCK)
	VMOVU	(SRC_BLOCK), %STREAM_0
	VMOVU	VEC_SIZE(SRC_BLOCK), %STREAM_1
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %STREAM_2
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %STREAM_3
	VMOVNT	%STREAM_0, (DST_BLOCK)
	VMOVNT	%STREAM_1, VEC_SIZE(DST_BLOCK)
	VMOVNT	%STREAM_2, (2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%STREAM_3, (3 * VEC_SIZE)(DST_BLOCK)
	sub	$-(4 * VEC_SIZE), SRC_BLOCK
	sub	$-(4 * VEC_SIZE), DST_BLOCK
	cmp	LIMIT, DST_BLOCK
	jb	.Lstream_loop
.Lstream_tail:
	sfence
	mov	LIMIT, TAIL_SRC
	sub	DST, TAIL_SRC
	add	SRC, TAIL_SRC		/* the source of the last 4 VEC */
	VMOVU	(TAIL_SRC), %VEC(5)
	VMOVU	VEC_SIZE(TAIL_SRC), %VEC(6)
	VMOVU	(2 * VEC_SIZE)(TAIL_SRC), %VEC(7)
	LOAD_LAST ((3 * VEC_SIZE)(TAIL_SRC))
	VMOVU	%VEC(5), (LIMIT)
	VMOVU	%VEC(6), VEC_SIZE(LIMIT)
	VMOVU	%VEC(7), (2 * VEC_SIZE)(LIMIT)
	STORE_LAST ((3 * VEC_SIZE)(LIMIT))
	VZEROUPPER
	POP_LOOP_REGS_RET (STREAM)
VARIANT_END (COPY, IMPL_ID, MEMMOVE)
BODY_THUNKS

	.section .note.GNU-stack, "", @progbits
