/* SPDX-License-Identifier: MIT */
/* MEMMOVE: memmove (and so memcpy) with VEC_SIZE-byte vectors, one body
   for every vector ISA and both ABIs (vec-blocks.h says how a variant is
   made of it).  Assumptions: the ISA of vec-<isa>.h is usable; unaligned
   loads and stores are cheap.  Arguments: DST = dst, SRC = src, LEN = n
   (x86-64: rdi, rsi, rdx; i386 loads them from the stack into eax, ecx,
   edx); returns dst in rax (eax).  VEC below is VEC_SIZE bytes.  The
   figures behind the choices: doc/performance.md, "Figures behind the
   bodies".

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
   one store under a mask of n bytes.  avx512m, the entry variant, takes one of
   the shapes of entry-shapes.h: with MASKED_PAIR (the default) n <= 2 VEC
   is one class with no size branch, two masked loads and two masked
   stores; with MASKED_MIDDLE, VEC < n <= 4 VEC is one class of head and
   tail vectors and two masked ones between them.  Random sizes
   mispredict size branches, which costs more than the masked moves on
   AMD's cores, and on Zen 4 and Zen 5 even a predicted one costs glibc's
   classes up to 1.4x at 96-128 B.  With MOVE_NEAR (avx512m),
   the exported memmove takes classes 1 and 2 without masks when dst and
   src are less than MOVE_NEAR bytes apart (.Lnear): a load that reads a
   masked store's bytes waits longer for them than for a plain store's,
   and a memmove that close is often followed by one that reads what it
   wrote.
   3. n > 8 VEC, dst not inside (src, src+n), below rep_movsb_threshold
      and copy_nt_threshold: a loop of 4-VEC blocks to VEC-aligned
      destinations (BLOCK_LOOP) between the first VEC and the last 4 VEC,
      which are loaded before it and stored after it.
   4. dst inside (src, src+n), or with alias_backward dst 256 to 2047
      bytes past src modulo PAGE_SIZE and src not inside (dst, dst+n):
      the same loop from the end down.
   5. rep_movsb_threshold <= n < copy_nt_threshold: REP MOVSB to a
      VEC-aligned destination, unless alias_guard is on and (dst - src)
      mod PAGE_SIZE is in 1..LINE_SIZE-1, where REP MOVSB is many times
      slower on Zen 3 and Zen 4: then the loop.
   6. n >= copy_nt_threshold and the buffers disjoint: non-temporal stores
      of 4 VEC at a time to whole lines, so that a huge copy does not
      evict the whole cache; the first and the last 4 VEC are stored
      normally, before and after (behind an sfence).  With STREAM_PAIRS
      (Intel's variants), two pages at a time first, as glibc's
      large_memcpy_2x; on Zen 4 one stream is faster.  Overlapping
      buffers take the loop.
   Nothing is read or written outside [src, src+n) and [dst, dst+n).

   The body map (body-range.h, doc/size-registers.md): n stays in LEN
   on every path but two.  REP MOVSB uses it up: there n is
   LEN + REP_DST - dst, then REP_CNT + REP_DST - dst.  The streaming
   loop of STREAM_PAIRS counts in PAIR_LINES, LEN's register: there n
   is LIMIT - DST + 4 VEC.  On i386, n is taken from its argument on
   the stack until it is loaded and from the epilogue's pops on.  */

#include "entry.h"
#include "vec-abi.h"
#include "vec-blocks.h"

#define NT_AHEAD	(8 * LINE_SIZE)	/* how far the stream loops prefetch */
/* alias_backward's distances, dst - src modulo PAGE_SIZE: forward, the
   loop's loads would wait on its own stores that far back (4K
   aliasing); backward, on stores PAGE_SIZE minus that back, which have
   left the store queue (Zen 5, doc/performance.md).  */
#define BACK_ALIAS_MIN	256
#define BACK_ALIAS_END	2048

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
#define MOVE_32		VMOVU, %YMM(0), %YMM(1)

/* The vectors of the paths above 8 VEC: VEC(0) the first VEC, BLOCK_A
   the block a loop moves, VEC(5-7) and LAST the rest of the 4 VEC at the
   other end, which the loops leave for last.  With 13 vector registers or
   more, LAST is VEC(8), BLOCK_B the block in flight beside BLOCK_A and
   the streaming loop's block (STREAM_BLOCK); with 8 (i386), LAST is a
   slot on the stack, reached through VEC(4), free where LAST is loaded
   and stored, and the streaming loop's block is BLOCK_A.  */
#define BLOCK_A		VEC(1), VEC(2), VEC(3), VEC(4)
#define BLOCK_B		VEC(9), VEC(10), VEC(11), VEC(12)
#if VEC_REGS >= 13
# define LOAD_LAST(mem)		VMOVU mem, %VEC(8)
# define STORE_LAST(mem)	VMOVU %VEC(8), mem
# define STREAM_BLOCK		BLOCK_B
#else
# define LOAD_LAST(mem)		VMOVU mem, %VEC(4); VMOVU %VEC(4), LAST_SLOT
# define STORE_LAST(mem)	VMOVU LAST_SLOT, %VEC(4); VMOVU %VEC(4), mem
# define STREAM_BLOCK		BLOCK_A
# ifdef STREAM_PAIRS
#  error "STREAM_PAIRS keeps two blocks in flight: 13 vector registers"
# endif
#endif
#define TAIL_SRC	DST_BLOCK	/* after the streaming loop */
/* STREAM_PAIRS_LOOP's pass and step (vec-blocks.h).  */
#define COPY_PAIR_PASS					\
	prefetcht0 NT_AHEAD(SRC_BLOCK);			\
	prefetcht0 (PAGE_SIZE + NT_AHEAD)(SRC_BLOCK);	\
	LOAD_4 (0, (SRC_BLOCK), BLOCK_A);		\
	LOAD_4 (PAGE_SIZE, (SRC_BLOCK), BLOCK_B);	\
	STORE_4 (VMOVNT, 0, (DST_BLOCK), BLOCK_A);	\
	STORE_4 (VMOVNT, PAGE_SIZE, (DST_BLOCK), BLOCK_B); \
	ADVANCE_BLOCKS (4 * VEC_SIZE)
#define COPY_NEXT_PAIR	add $PAGE_SIZE, SRC_BLOCK; add $PAGE_SIZE, DST_BLOCK

/* OUT = the source of the destination address IN: IN - DST + SRC.  */
#define SOURCE_OF(in, out)	mov in, out; sub DST, out; add SRC, out
/* The next blocks, STEP bytes on: SUB of a negated step, as an 8-bit
   immediate holds -128 but not 128.  */
#define ADVANCE_BLOCKS(step)	sub $-(step), SRC_BLOCK; sub $-(step), DST_BLOCK

/* The loop over the 4-VEC blocks between the first and the last 4 VEC,
   in one of two directions: the step from a block to the next, the
   offset of a block from DST_BLOCK and SRC_BLOCK (the end of a block
   backward), the jump out when the next block would reach LIMIT, and the
   jump back while it does not.  It leaves for DONE.  */
#define FORWARD_BLOCKS		(4 * VEC_SIZE), 0, jae, jb
#define BACKWARD_BLOCKS		-(4 * VEC_SIZE), -(4 * VEC_SIZE), jbe, ja
#define BLOCK_LOOP(dir, ...)	BLOCK_LOOP_ (dir, __VA_ARGS__)
#if VEC_REGS >= 13
/* BLOCK_A for DST_BLOCK and BLOCK_B for NEXT_BLOCK in turn, each loaded
   before the block ahead of it is stored, so that no load waits on a
   store to the same page offset (4K aliasing).  */
# define BLOCK_LOOP_(step, off, jout, jback, loop, store_a, store_b, done) \
	LOAD_4 (off, (SRC_BLOCK), BLOCK_A);		\
	.p2align 4;					\
loop:	sub	$-(step), SRC_BLOCK;			\
	lea	(step)(DST_BLOCK), NEXT_BLOCK;		\
	cmp	LIMIT, NEXT_BLOCK;			\
	jout	store_a;				\
	LOAD_4 (off, (SRC_BLOCK), BLOCK_B);		\
	STORE_4 (VMOVA, off, (DST_BLOCK), BLOCK_A);	\
	sub	$-(step), SRC_BLOCK;			\
	lea	(step)(NEXT_BLOCK), DST_BLOCK;		\
	cmp	LIMIT, DST_BLOCK;			\
	jout	store_b;				\
	LOAD_4 (off, (SRC_BLOCK), BLOCK_A);		\
	STORE_4 (VMOVA, off, (NEXT_BLOCK), BLOCK_B);	\
	jmp	loop;					\
store_b: STORE_4 (VMOVA, off, (NEXT_BLOCK), BLOCK_B);	\
	jmp	done;					\
store_a: STORE_4 (VMOVA, off, (DST_BLOCK), BLOCK_A)
#else
/* BLOCK_A alone, loaded after the block before it is stored: the source
   lies ahead of the destination (behind it backward), or does not
   overlap it.  */
# define BLOCK_LOOP_(step, off, jout, jback, loop, ...)	\
	.p2align 4;					\
loop:	LOAD_4 (off, (SRC_BLOCK), BLOCK_A);		\
	STORE_4 (VMOVA, off, (DST_BLOCK), BLOCK_A);	\
	ADVANCE_BLOCKS (step);				\
	cmp	LIMIT, DST_BLOCK;			\
	jback	loop
#endif

/* The 3 VEC after VEC(0), the rest of the first 4 VEC.  */
#define LOAD_HEAD_REST(a, b, c)			\
	VMOVU	VEC_SIZE(SRC), %a;		\
	LOAD_2 (2 * VEC_SIZE, (SRC), b, c)
/* The 4 VEC the loops leave for last, at OFF off BASE: VEC(5-7), LAST.  */
#define LOAD_TAIL(off, base)			\
	VMOVU	(off)base, %VEC(5);		\
	LOAD_2 (off + VEC_SIZE, base, VEC(6), VEC(7)); \
	LOAD_LAST ((off + 3 * VEC_SIZE)base)
#define STORE_TAIL(off, base)			\
	VMOVU	%VEC(5), (off)base;		\
	STORE_2 (VMOVU, off + VEC_SIZE, base, VEC(6), VEC(7)); \
	STORE_LAST ((off + 3 * VEC_SIZE)base)

/* Where the size is, as BODY_RANGE's terms, besides IN_LEN and IN_LIMIT.  */
#define IN_REP_LEN	0, PERF_LEN, 1, PERF_REP_DST, 1, PERF_RET, -1
#define IN_REP_CNT	0, PERF_REP_CNT, 1, PERF_REP_DST, 1, PERF_RET, -1

VARIANT_BEGIN (COPY, IMPL_ID, MEMMOVE)
	MEMMOVE_ARGS
	BODY_RANGE (ENTRY, IN_LEN)
#ifdef MASKED_PAIR
	cmp	$(2 * VEC_SIZE), LEN
	ja	.Lmore_2x_vec
	/* n <= 2 VEC: two masked loads, then two masked stores
	   (vec-masked.h).  */
	BODY_RANGE (CLASS, IN_LEN)
	PAIR_MASKS
	VMOVU_MASKED (SRC), %VEC(0){%k1}{z}
	VMOVU_MASKED PAIR_AT (SRC), %VEC(1){PAIR_K}{z}
	VMOVU_MASKED %VEC(0), (DST){%k1}
	VMOVU_MASKED %VEC(1), PAIR_AT (DST){PAIR_K}
	ret
#elif defined MASKED_SMALL
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
#else
	cmp	$VEC_SIZE, LEN
	jb	.Lless_vec
	VMOVU	(SRC), %VEC(0)
#endif
#ifdef MASKED_MIDDLE
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
#endif

#ifdef MOVE_NEAR
	/* The exported memmove, with dst and src less than MOVE_NEAR bytes
	   apart (entry-common.h): classes 1 and 2 without masks.  */
	.p2align 4
.Lnear:
	MEMMOVE_ARGS
	BODY_RANGE (ENTRY, IN_LEN)
	cmp	$VEC_SIZE, LEN
	jbe	.Lless_vec
	VMOVU	(SRC), %VEC(0)
#endif
#if !defined MASKED_MIDDLE || defined MOVE_NEAR
	cmp	$(2 * VEC_SIZE), LEN
	ja	.Lmore_2x_vec
	/* VEC <= n <= 2 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	VMOVU	-VEC_SIZE(SRC,LEN), %VEC(1)
	STORE_HEAD_TAIL (VMOVU, VEC_SIZE, VEC(0), VEC(1))
	VZEROUPPER_RETURN
#endif

#if !defined MASKED_SMALL || defined MOVE_NEAR
	/* n < VEC (n <= VEC on the near path).  Each size-class target starts
	   a 32-byte block: code placement changes the time of small copies.  */
	.p2align 5
.Lless_vec:
	BODY_RANGE (ENTRY, IN_LEN)
# if VEC_SIZE > 32
	cmpl	$32, LEN32
	jae	.Lbetween_32_64
# endif
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
# if VEC_SIZE > 32
	.p2align 5
.Lbetween_32_64:
	BODY_RANGE (CLASS, IN_LEN)
	HEAD_TAIL (32, MOVE_32)
	ret
# endif
#endif

#if !defined MASKED_MIDDLE || defined MOVE_NEAR
	.p2align 5
.Lmore_2x_vec:
	BODY_RANGE (ENTRY, IN_LEN)
# ifdef MASKED_PAIR
	VMOVU	(SRC), %VEC(0)		/* the pair's class loaded none */
# endif
	cmp	$(4 * VEC_SIZE), LEN
	ja	.Lmore_4x_vec
	/* 2 VEC < n <= 4 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	VMOVU	VEC_SIZE(SRC), %VEC(1)
	LOAD_2 (-(2 * VEC_SIZE), (SRC,LEN), VEC(2), VEC(3))
	STORE_2 (VMOVU, 0, (DST), VEC(0), VEC(1))
	STORE_2 (VMOVU, -(2 * VEC_SIZE), (DST,LEN), VEC(2), VEC(3))
	VZEROUPPER_RETURN

#endif

	.p2align 5
.Lmore_4x_vec:
	BODY_RANGE (ENTRY, IN_LEN)
	cmp	$(8 * VEC_SIZE), LEN
	ja	.Lmore_8x_vec
	/* 4 VEC < n <= 8 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	LOAD_HEAD_REST (VEC(1), VEC(2), VEC(3))
	LOAD_4 (-(4 * VEC_SIZE), (SRC,LEN), VEC(4), VEC(5), VEC(6), VEC(7))
	STORE_4 (VMOVU, 0, (DST), VEC(0), VEC(1), VEC(2), VEC(3))
	STORE_4 (VMOVU, -(4 * VEC_SIZE), (DST,LEN),
		 VEC(4), VEC(5), VEC(6), VEC(7))
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
	CMP_WORD $0, TUNABLE (ALIAS_BACKWARD)
	jne	.Lbackward_if_aliasing
.Lforward:
	BODY_RANGE (LOOP, IN_LEN)
	/* VEC(0) holds the head; the last 4 VEC go to VEC(5-7) and LAST.  */
	LOAD_TAIL (-(4 * VEC_SIZE), (SRC,LEN))
	/* DST_BLOCK: the first aligned block after the head.  */
	ALIGN_DOWN (VEC_SIZE(DST), VEC_SIZE, DST_BLOCK)
	SOURCE_OF (DST_BLOCK, SRC_BLOCK)
	lea	-(4 * VEC_SIZE)(DST,LEN), LIMIT
	BLOCK_LOOP (FORWARD_BLOCKS, .Lloop_4x_vec, .Lstore_a, .Lstore_b,
		    .Lstore_tail)
.Lstore_tail:
	STORE_TAIL (0, (LIMIT))
	VMOVU	%VEC(0), (DST)
	VZEROUPPER
	POP_LOOP_REGS_RET (LOOP)

	.p2align 5
.Lbackward:
	BODY_RANGE (BACKWARD, IN_LEN)
	/* dst inside (src, src+n): the same loop from the end down.  The first
	   4 VEC (VEC(0), VEC(5-7)) and the last VEC (LAST) are loaded first;
	   blocks end on VEC-aligned destinations.  */
	LOAD_HEAD_REST (VEC(5), VEC(6), VEC(7))
	LOAD_LAST (-VEC_SIZE(SRC,LEN))
	/* DST_BLOCK: the end of the first block.  */
	ALIGN_DOWN ((DST,LEN), VEC_SIZE, DST_BLOCK)
	SOURCE_OF (DST_BLOCK, SRC_BLOCK)	/* the end of its source */
	lea	(4 * VEC_SIZE)(DST), LIMIT	/* the end of the head */
	BLOCK_LOOP (BACKWARD_BLOCKS, .Lback_loop_4x_vec, .Lback_store_a,
		    .Lback_store_b, .Lback_finish)
.Lback_finish:
	STORE_LAST (-VEC_SIZE(DST,LEN))
	STORE_4 (VMOVU, 0, (DST), VEC(0), VEC(5), VEC(6), VEC(7))
	VZEROUPPER
	POP_LOOP_REGS_RET (BACKWARD)

.Lbackward_if_aliasing:
	BODY_RANGE (ENTRY, IN_LEN)
	/* alias_backward: dst BACK_ALIAS_MIN to BACK_ALIAS_END - 1 bytes
	   past src modulo PAGE_SIZE, the loop backward, unless src is
	   inside (dst, dst+n); DIST: dst - src.  */
	neg	DIST			/* src - dst */
	cmp	LEN, DIST
	jb	.Lforward		/* src inside (dst, dst+n) */
	neg	DIST
	sub	$BACK_ALIAS_MIN, DIST
	andl	$ALIAS_MASK, DIST32
	cmpl	$(BACK_ALIAS_END - BACK_ALIAS_MIN), DIST32
	jb	.Lbackward
	jmp	.Lforward

	.p2align 4
.Lrep_or_stream:
	BODY_RANGE (ENTRY, IN_LEN)
	/* n > 8 VEC, forward-safe, at or above one of the thresholds;
	   DIST: dst - src.  */
	cmp	TUNABLE (COPY_NT), LEN
	jae	.Lstream_if_disjoint
	CMP_WORD $0, TUNABLE (ALIAS_GUARD)
	je	.Lrep_movsb
	andl	$ALIAS_MASK, DIST32
	decl	DIST32
	cmpl	$(LINE_SIZE - 1), DIST32
	jb	.Lforward		/* 0 < DIST & ALIAS_MASK < LINE_SIZE */
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
	   matter: the first 4 VEC (they cover the part of a line in front of
	   the first whole one) go out now, the last 4 VEC after the loops.  */
	BODY_RANGE (STREAM, IN_LEN)
	LOAD_HEAD_REST (VEC(1), VEC(2), VEC(3))
	STORE_4 (VMOVU, 0, (DST), VEC(0), VEC(1), VEC(2), VEC(3))
	ALIGN_DOWN ((LINE_SIZE - 1)(DST), LINE_SIZE, DST_BLOCK)
	SOURCE_OF (DST_BLOCK, SRC_BLOCK)
	lea	-(4 * VEC_SIZE)(DST,LEN), LIMIT
	BODY_RANGE (STREAM, IN_LIMIT)
#ifdef STREAM_PAIRS
	STREAM_PAIRS_LOOP (COPY_PAIR_PASS, COPY_NEXT_PAIR)
#endif
	/* 4 VEC at a time (what is left of the pairs, under two pages).  */
	cmp	LIMIT, DST_BLOCK
	jae	.Lstream_tail
	.p2align 4
.Lstream_loop:
	prefetcht0 NT_AHEAD(SRC_BLOCK)
	LOAD_4 (0, (SRC_BLOCK), STREAM_BLOCK)
	STORE_4 (VMOVNT, 0, (DST_BLOCK), STREAM_BLOCK)
	ADVANCE_BLOCKS (4 * VEC_SIZE)
	cmp	LIMIT, DST_BLOCK
	jb	.Lstream_loop
.Lstream_tail:
	sfence
	SOURCE_OF (LIMIT, TAIL_SRC)	/* the source of the last 4 VEC */
	LOAD_TAIL (0, (TAIL_SRC))
	STORE_TAIL (0, (LIMIT))
	VZEROUPPER
	POP_LOOP_REGS_RET (STREAM)
VARIANT_END (COPY, IMPL_ID, MEMMOVE)
BODY_THUNKS

	.section .note.GNU-stack, "", @progbits
