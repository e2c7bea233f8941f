/* SPDX-License-Identifier: MIT */
/* MEMSET: memset with VEC_SIZE-byte vector stores, one body for every
   vector ISA and both ABIs (vec-blocks.h says how a variant is made of
   it).  Assumptions: the ISA of vec-<isa>.h is usable.  Arguments: DST =
   dst, MEMSET_BYTE = the byte (only the low 8 bits count), LEN = n
   (x86-64: rdi, esi, rdx; i386 loads dst and n from the stack into eax
   and edx, and broadcasts the byte from there); returns dst in rax
   (eax).  VEC below is VEC_SIZE bytes.  The figures behind the choices:
   doc/performance.md, "Figures behind the bodies".

   Strategy, by size:
   1. n < VEC: the byte broadcast into XMM(0) only (for AVX2 no dirty upper
      half, so no vzeroupper), then head and tail stores of 16, 8 or 4
      bytes from it, or single bytes below 4.  With MASKED_SMALL (AVX-512),
      n <= VEC instead: one store under a mask of n bytes.  avx512m takes
      a shape of entry-shapes.h: with MASKED_PAIR n <= 2 VEC is one class
      of two masked stores, with MASKED_MIDDLE VEC < n <= 4 VEC one class
      of head and tail stores and two masked ones between them
      (memmove-vec.S says why).
   2. VEC <= n <= 2 VEC, 4 VEC, 8 VEC: 2, 4 or 8 stores from head and tail.
      Stores go out between the size tests: the head first, then more head
      or the tail as the size class becomes known.
   3. n > 8 VEC, below rep_stosb_threshold and clear_nt_threshold: an
      aligned 4-VEC store loop between the 4 head VEC already stored and an
      unaligned 4-VEC tail.
   4. rep_stosb_threshold <= n < clear_nt_threshold: REP STOSB (with
      MASKED_SMALL, before any other store).
   5. n >= clear_nt_threshold: non-temporal stores to whole lines (the
      4 head VEC cover the part before the first one), with
      STREAM_PAIRS two pages at a time first as memmove-vec.S streams,
      then 4 VEC at a time, then an sfence and the tail.

   The body map (body-range.h, doc/size-registers.md): n is in LEN until
   the loops turn LEN into LIMIT, then LIMIT - DST + 4 VEC; REP STOSB's
   registers are the ABI's (vec-abi.h).  On i386, n is taken from its
   argument on the stack until it is loaded.  */

#include "entry.h"
#include "vec-abi.h"
#include "vec-blocks.h"

/* Every store is of VEC(0), the byte broadcast.  */
#define FILL_2		VEC(0), VEC(0)
#define FILL_4		VEC(0), VEC(0), VEC(0), VEC(0)

/* 4 VEC at DST_BLOCK with MOV, and on to the next, while below LIMIT.  */
#define FILL_LOOP(mov, loop)				\
	.p2align 4;					\
loop:	STORE_4 (mov, 0, (DST_BLOCK), FILL_4);		\
	sub	$-(4 * VEC_SIZE), DST_BLOCK;		\
	cmp	LIMIT, DST_BLOCK;			\
	jb	loop
/* STREAM_PAIRS_LOOP's pass and step (vec-blocks.h).  */
#define FILL_PAIR_PASS					\
	STORE_4 (VMOVNT, 0, (DST_BLOCK), FILL_4);	\
	STORE_4 (VMOVNT, PAGE_SIZE, (DST_BLOCK), FILL_4); \
	sub	$-(4 * VEC_SIZE), DST_BLOCK
#define FILL_NEXT_PAIR	add $PAGE_SIZE, DST_BLOCK

VARIANT_BEGIN (CLEAR, IMPL_ID, MEMSET)
	BROADCAST_START
	MEMSET_ARGS
	BODY_RANGE (ENTRY, IN_LEN)
#ifdef MASKED_PAIR
	cmp	$(2 * VEC_SIZE), LEN
	ja	.Lmore_2x_vec_masked
	/* n <= 2 VEC: two masked stores (vec-masked.h).  */
	BODY_RANGE (CLASS, IN_LEN)
	PAIR_MASKS
	VMOVU_MASKED %VEC(0), (DST){%k1}
	VMOVU_MASKED %VEC(0), PAIR_AT (DST){PAIR_K}
	ret
#elif defined MASKED_SMALL
	cmp	$VEC_SIZE, LEN
	ja	.Lmore_vec
	/* n <= VEC: one store under a mask of n bytes.  */
	BODY_RANGE (CLASS, IN_LEN)
	LENGTH_MASK
	VMOVU_MASKED %VEC(0), (DST){%k1}
	ret

	.p2align 4
.Lmore_vec:
	BODY_RANGE (ENTRY, IN_LEN)
#endif
#ifdef MASKED_SMALL
# ifdef MASKED_MIDDLE
	/* VEC < n <= 4 VEC: the first and the last VEC, and between them the
	   second and the third VEC under masks of n - VEC and n - 2 VEC bytes
	   (none when that is not above zero): one branch for the class.  */
	cmp	$(4 * VEC_SIZE), LEN
	ja	.Lmore_4x_vec_head
	BODY_RANGE (CLASS, IN_LEN)
	MIDDLE_MASKS
	VMOVU	%VEC(0), (DST)
	VMOVU_MASKED %VEC(0), VEC_SIZE(DST){%k1}
	VMOVU_MASKED %VEC(0), (2 * VEC_SIZE)(DST){%k2}
	VMOVU	%VEC(0), -VEC_SIZE(DST,LEN)
	ret
# else
#  ifndef MASKED_PAIR
	cmp	$(2 * VEC_SIZE), LEN
	ja	.Lmore_2x_vec_masked
	/* VEC < n <= 2 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	STORE_HEAD_TAIL (VMOVU, VEC_SIZE, VEC(0), VEC(0))
	ret
#  endif
.Lmore_2x_vec_masked:
	BODY_RANGE (ENTRY, IN_LEN)
	cmp	$(4 * VEC_SIZE), LEN
	ja	.Lmore_4x_vec_head
	/* 2 VEC < n <= 4 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	STORE_2 (VMOVU, 0, (DST), FILL_2)
	STORE_2 (VMOVU, -(2 * VEC_SIZE), (DST,LEN), FILL_2)
	ret
# endif
.Lmore_4x_vec_head:
	BODY_RANGE (ENTRY, IN_LEN)
	/* In the REP STOSB window, REP STOSB does all of it: head stores
	   first would each wait for their line when the destination is not
	   in cache.  */
	GET_TUNABLES
	cmp	TUNABLE (REP_STOSB), LEN
	jb	.Lstore_head
	cmp	TUNABLE (CLEAR_NT), LEN
	jb	.Lrep_stosb
.Lstore_head:
	BODY_RANGE (CLASS, IN_LEN)
	STORE_2 (VMOVU, 0, (DST), FILL_2)
	jmp	.Lmore_4x_vec
#else
	cmp	$VEC_SIZE, LEN
	jb	.Lless_vec
	BROADCAST_VEC
	cmp	$(2 * VEC_SIZE), LEN
	ja	.Lmore_2x_vec
	/* VEC <= n <= 2 VEC.  */
	BODY_RANGE (CLASS, IN_LEN)
	STORE_HEAD_TAIL (VMOVU, VEC_SIZE, VEC(0), VEC(0))
	VZEROUPPER_RETURN

	/* Each size-class target starts a 32-byte block, as in
	   memmove-vec.S.  */
	.p2align 5
.Lless_vec:
	BODY_RANGE (ENTRY, IN_LEN)
	BROADCAST_XMM
# if VEC_SIZE > 16
	cmpl	$16, LEN32
	jae	.Lbetween_16_31
# endif
	cmpl	$8, LEN32
	jae	.Lbetween_8_15
	cmpl	$4, LEN32
	jae	.Lbetween_4_7
	GET_BYTE_REG
	cmpl	$1, LEN32
	ja	.Lbetween_2_3
	jb	.Lreturn		/* n == 0 */
	BODY_RANGE (CLASS, IN_LEN)
	movb	BYTE_REG, (DST)
.Lreturn:
	ret

# if VEC_SIZE > 16
	.p2align 5
.Lbetween_16_31:
	BODY_RANGE (CLASS, IN_LEN)
	STORE_HEAD_TAIL (XMOVU, 16, XMM(0), XMM(0))
	ret
# endif

	.p2align 5
.Lbetween_8_15:
	BODY_RANGE (CLASS, IN_LEN)
	STORE_HEAD_TAIL (XMOVQ, 8, XMM(0), XMM(0))
	ret

	.p2align 5
.Lbetween_4_7:
	BODY_RANGE (CLASS, IN_LEN)
	STORE_HEAD_TAIL (XMOVD, 4, XMM(0), XMM(0))
	ret

	.p2align 5
.Lbetween_2_3:
	BODY_RANGE (CLASS, IN_LEN)
	movb	BYTE_REG, (DST)
	movb	BYTE_REG, 1(DST)
	movb	BYTE_REG, -1(DST,LEN)
	ret

	.p2align 5
.Lmore_2x_vec:
	BODY_RANGE (CLASS, IN_LEN)
	STORE_2 (VMOVU, 0, (DST), FILL_2)
	cmp	$(4 * VEC_SIZE), LEN
	ja	.Lmore_4x_vec
	/* 2 VEC < n <= 4 VEC.  */
	STORE_2 (VMOVU, -(2 * VEC_SIZE), (DST,LEN), FILL_2)
	VZEROUPPER_RETURN

#endif

	.p2align 5
.Lmore_4x_vec:
	BODY_RANGE (CLASS, IN_LEN)
	STORE_2 (VMOVU, 2 * VEC_SIZE, (DST), FILL_2)
	cmp	$(8 * VEC_SIZE), LEN
	ja	.Lmore_8x_vec
	/* 4 VEC < n <= 8 VEC.  */
	STORE_4 (VMOVU, -(4 * VEC_SIZE), (DST,LEN), FILL_4)
	VZEROUPPER_RETURN

	.p2align 5
.Lmore_8x_vec:
	/* The first 4 VEC are stored.  */
	BODY_RANGE (ENTRY, IN_LEN)
	GET_TUNABLES
	cmp	TUNABLE (REP_STOSB), LEN
	jae	.Lrep_or_stream
	cmp	TUNABLE (CLEAR_NT), LEN
	jae	.Lrep_or_stream
	BODY_RANGE (LOOP, IN_LEN)
	/* DST_BLOCK: the first aligned VEC after the head.  */
	ALIGN_DOWN ((4 * VEC_SIZE)(DST), VEC_SIZE, DST_BLOCK)
	lea	-(4 * VEC_SIZE)(DST,LEN), LIMIT
	BODY_RANGE (LOOP, IN_LIMIT)
	FILL_LOOP (VMOVA, .Lloop_4x_vec)
.Lstore_tail:
	STORE_4 (VMOVU, 0, (LIMIT), FILL_4)
	VZEROUPPER_RETURN

	.p2align 4
.Lrep_or_stream:
	BODY_RANGE (ENTRY, IN_LEN)
	cmp	TUNABLE (CLEAR_NT), LEN
	jae	.Lstream
.Lrep_stosb:
	BODY_RANGE (REP, IN_LEN)
	VZEROUPPER
	REP_STOSB_ARGS
	rep stosb
	REP_STOSB_DONE
	ret

.Lstream:
	BODY_RANGE (STREAM, IN_LEN)
	ALIGN_DOWN ((LINE_SIZE - 1)(DST), LINE_SIZE, DST_BLOCK)
	lea	-(4 * VEC_SIZE)(DST,LEN), LIMIT
	BODY_RANGE (STREAM, IN_LIMIT)
#ifdef STREAM_PAIRS
	STREAM_PAIRS_LOOP (FILL_PAIR_PASS, FILL_NEXT_PAIR)
#endif
	cmp	LIMIT, DST_BLOCK
	jae	.Lstream_end
	FILL_LOOP (VMOVNT, .Lstream_loop)
.Lstream_end:
	sfence
	jmp	.Lstore_tail
VARIANT_END (CLEAR, IMPL_ID, MEMSET)
BODY_THUNKS

	.section .note.GNU-stack, "", @progbits
