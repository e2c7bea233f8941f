/* SPDX-License-Identifier: MIT */
/* MEMSET: memset with VEC_SIZE-byte vector stores.  One body for every
   vector ISA: memset-<isa>.S defines MEMSET and IMPL_ID (its impl-list.def
   id) and includes vec-<isa>.h, which names the registers and mnemonics
   and says how to broadcast the byte.

   Assumptions: the ISA of vec-<isa>.h is usable.  Arguments: rdi = dst,
   esi = byte (only the low 8 bits count), rdx = n; returns dst in rax.
   VEC below is VEC_SIZE bytes.

   Strategy, by size:
   1. n < VEC: the byte broadcast into XMM(0) only (for AVX2 no dirty upper
      half, so no vzeroupper), then head and tail stores of 16, 8 or 4
      bytes from it, or single bytes below 4.  With MASKED_SMALL (AVX-512),
      n <= VEC instead: one store under a mask of n bytes, and with
      MASKED_MIDDLE too (avx512m) VEC < n <= 4 VEC is one class of head
      and tail stores and two masked ones between them (memmove-vec.S
      says why, and where each shape wins).
   2. VEC <= n <= 2 VEC, 4 VEC, 8 VEC: 2, 4 or 8 stores from head and tail.
      Stores go out between the size tests: the head first, then more head
      or the tail as the size class becomes known.
   3. n > 8 VEC, below rep_stosb_threshold and clear_nt_threshold: an
      aligned 4-VEC store loop between the 4 head VEC already stored and an
      unaligned 4-VEC tail.  (In C it measured 1.5-2x glibc at 257-768
      bytes on Zen 3.)
   4. rep_stosb_threshold <= n < clear_nt_threshold: REP STOSB (with
      MASKED_SMALL, before any other store).
   5. n >= clear_nt_threshold: non-temporal stores to 64-byte-aligned
      lines (the 4 head VEC cover the part before the first one), with
      STREAM_PAIRS two pages at a time first as memmove-vec.S streams,
      then 4 VEC at a time, then an sfence and the tail.  */

#include "entry.h"

#define MEMSET_BYTE	%esi	/* for BROADCAST_START */
#define DST_BLOCK	%rcx	/* where the loop stores next */
#define LIMIT		%rdx	/* where the tail starts (n is not needed
				   once it is known) */
#define PAIRS		%r9	/* page pairs left to stream */
#define STREAM_PAGE	4096	/* the pages the streaming loop pairs */
#define STREAM_PAGE_SHIFT 12

#define VZEROUPPER_RETURN	VZEROUPPER; ret

VARIANT_BEGIN (CLEAR, IMPL_ID, MEMSET)
	BROADCAST_START
	movq	%rdi, %rax
#ifdef MASKED_SMALL
	cmpq	$VEC_SIZE, %rdx
	ja	.Lmore_vec
	/* n <= VEC: one store under a mask of n bytes.  */
	LENGTH_MASK
	VMOVU_MASKED %VEC(0), (%rdi){%k1}
	ret

	.p2align 4
.Lmore_vec:
# ifdef MASKED_MIDDLE
	/* VEC < n <= 4 VEC: the first and the last VEC, and between them the
	   second and the third VEC under masks of n - VEC and n - 2 VEC bytes
	   (none when that is not above zero): one branch for the class.  On
	   sizes drawn uniformly from 65..256 on Zen 5 it measured 0.49 of
	   glibc, against 1.00 for stores of 2 and 4 VEC.  */
	cmpq	$(4 * VEC_SIZE), %rdx
	ja	.Lmore_4x_vec_head
	MIDDLE_MASKS
	VMOVU	%VEC(0), (%rdi)
	VMOVU_MASKED %VEC(0), VEC_SIZE(%rdi){%k1}
	VMOVU_MASKED %VEC(0), (2 * VEC_SIZE)(%rdi){%k2}
	VMOVU	%VEC(0), -VEC_SIZE(%rdi,%rdx)
	ret
# else
	cmpq	$(2 * VEC_SIZE), %rdx
	ja	.Lmore_2x_vec_masked
	/* VEC < n <= 2 VEC.  */
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(0), -VEC_SIZE(%rdi,%rdx)
	ret
.Lmore_2x_vec_masked:
	cmpq	$(4 * VEC_SIZE), %rdx
	ja	.Lmore_4x_vec_head
	/* 2 VEC < n <= 4 VEC.  */
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(0), VEC_SIZE(%rdi)
	VMOVU	%VEC(0), -(2 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(0), -VEC_SIZE(%rdi,%rdx)
	ret
# endif
.Lmore_4x_vec_head:
	/* In the REP STOSB window, REP STOSB does all of it: head stores
	   first would each wait for their line when the destination is not
	   in cache (1.2x glibc at 16 KiB cold on Zen 5).  */
	cmpq	fc_load+FC_OFFSET_REP_STOSB(%rip), %rdx
	jb	.Lstore_head
	cmpq	fc_load+FC_OFFSET_CLEAR_NT(%rip), %rdx
	jb	.Lrep_stosb
.Lstore_head:
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(0), VEC_SIZE(%rdi)
	jmp	.Lmore_4x_vec
#else
	cmpq	$VEC_SIZE, %rdx
	jb	.Lless_vec
	BROADCAST_VEC
	cmpq	$(2 * VEC_SIZE), %rdx
	ja	.Lmore_2x_vec
	/* VEC <= n <= 2 VEC.  */
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(0), -VEC_SIZE(%rdi,%rdx)
	VZEROUPPER_RETURN

	/* Each size-class target starts a 32-byte block, as in
	   memmove-vec.S.  */
	.p2align 5
.Lless_vec:
	BROADCAST_XMM
#if VEC_SIZE > 16
	cmpl	$16, %edx
	jae	.Lbetween_16_31
#endif
	cmpl	$8, %edx
	jae	.Lbetween_8_15
	cmpl	$4, %edx
	jae	.Lbetween_4_7
	cmpl	$1, %edx
	ja	.Lbetween_2_3
	jb	.Lreturn		/* n == 0 */
	movb	%sil, (%rdi)
.Lreturn:
	ret

#if VEC_SIZE > 16
	.p2align 5
.Lbetween_16_31:
	XMOVU	%XMM(0), (%rdi)
	XMOVU	%XMM(0), -16(%rdi,%rdx)
	ret
#endif

	.p2align 5
.Lbetween_8_15:
	XMOVQ	%XMM(0), (%rdi)
	XMOVQ	%XMM(0), -8(%rdi,%rdx)
	ret

	.p2align 5
.Lbetween_4_7:
	XMOVD	%XMM(0), (%rdi)
	XMOVD	%XMM(0), -4(%rdi,%rdx)
	ret

	.p2align 5
.Lbetween_2_3:
	movb	%sil, (%rdi)
	movb	%sil, 1(%rdi)
	movb	%sil, -1(%rdi,%rdx)
	ret

	.p2align 5
.Lmore_2x_vec:
	VMOVU	%VEC(0), (%rdi)
	VMOVU	%VEC(0), VEC_SIZE(%rdi)
	cmpq	$(4 * VEC_SIZE), %rdx
	ja	.Lmore_4x_vec
	/* 2 VEC < n <= 4 VEC.  */
	VMOVU	%VEC(0), -(2 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(0), -VEC_SIZE(%rdi,%rdx)
	VZEROUPPER_RETURN

#endif

	.p2align 5
.Lmore_4x_vec:
	VMOVU	%VEC(0), (2 * VEC_SIZE)(%rdi)
	VMOVU	%VEC(0), (3 * VEC_SIZE)(%rdi)
	cmpq	$(8 * VEC_SIZE), %rdx
	ja	.Lmore_8x_vec
	/* 4 VEC < n <= 8 VEC.  */
	VMOVU	%VEC(0), -(4 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(0), -(3 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(0), -(2 * VEC_SIZE)(%rdi,%rdx)
	VMOVU	%VEC(0), -VEC_SIZE(%rdi,%rdx)
	VZEROUPPER_RETURN

	.p2align 5
.Lmore_8x_vec:
	/* The first 4 VEC are stored.  */
	cmpq	fc_load+FC_OFFSET_REP_STOSB(%rip), %rdx
	jae	.Lrep_or_stream
	cmpq	fc_load+FC_OFFSET_CLEAR_NT(%rip), %rdx
	jae	.Lrep_or_stream
	leaq	(4 * VEC_SIZE)(%rdi), DST_BLOCK
	andq	$-VEC_SIZE, DST_BLOCK	/* the first aligned VEC after the head */
	leaq	-(4 * VEC_SIZE)(%rdi,%rdx), LIMIT
	.p2align 4
.Lloop_4x_vec:
	VMOVA	%VEC(0), (DST_BLOCK)
	VMOVA	%VEC(0), VEC_SIZE(DST_BLOCK)
	VMOVA	%VEC(0), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(0), (3 * VEC_SIZE)(DST_BLOCK)
	subq	$-(4 * VEC_SIZE), DST_BLOCK
	cmpq	LIMIT, DST_BLOCK
	jb	.Lloop_4x_vec
.Lstore_tail:
	VMOVU	%VEC(0), (LIMIT)
	VMOVU	%VEC(0), VEC_SIZE(LIMIT)
	VMOVU	%VEC(0), (2 * VEC_SIZE)(LIMIT)
	VMOVU	%VEC(0), (3 * VEC_SIZE)(LIMIT)
	VZEROUPPER_RETURN

	.p2align 4
.Lrep_or_stream:
	cmpq	fc_load+FC_OFFSET_CLEAR_NT(%rip), %rdx
	jae	.Lstream
.Lrep_stosb:
	VZEROUPPER
	movq	%rdx, %rcx
	movl	%esi, %eax		/* REP STOSB stores AL */
	movq	%rdi, %rdx
	rep stosb
	movq	%rdx, %rax
	ret

.Lstream:
	leaq	63(%rdi), DST_BLOCK
	andq	$-64, DST_BLOCK
	leaq	-(4 * VEC_SIZE)(%rdi,%rdx), LIMIT
#ifdef STREAM_PAIRS
	/* Whole pairs of pages first, 4 VEC at the same offset of each per
	   pass, as memmove-vec.S streams.  */
	movq	LIMIT, PAIRS
	subq	DST_BLOCK, PAIRS
	shrq	$(STREAM_PAGE_SHIFT + 1), PAIRS
	jz	.Lstream_lines
	.p2align 4
.Lstream_pair:
	movl	$(STREAM_PAGE / (4 * VEC_SIZE)), %r8d
.Lstream_pair_lines:
	VMOVNT	%VEC(0), (DST_BLOCK)
	VMOVNT	%VEC(0), VEC_SIZE(DST_BLOCK)
	VMOVNT	%VEC(0), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(0), (3 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(0), STREAM_PAGE(DST_BLOCK)
	VMOVNT	%VEC(0), (STREAM_PAGE + VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(0), (STREAM_PAGE + 2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(0), (STREAM_PAGE + 3 * VEC_SIZE)(DST_BLOCK)
	subq	$-(4 * VEC_SIZE), DST_BLOCK
	decl	%r8d
	jnz	.Lstream_pair_lines
	addq	$STREAM_PAGE, DST_BLOCK
	decq	PAIRS
	jnz	.Lstream_pair
.Lstream_lines:
#endif
	cmpq	LIMIT, DST_BLOCK
	jae	.Lstream_end
	.p2align 4
.Lstream_loop:
	VMOVNT	%VEC(0), (DST_BLOCK)
	VMOVNT	%VEC(0), VEC_SIZE(DST_BLOCK)
	VMOVNT	%VEC(0), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(0), (3 * VEC_SIZE)(DST_BLOCK)
	subq	$-(4 * VEC_SIZE), DST_BLOCK
	cmpq	LIMIT, DST_BLOCK
	jb	.Lstream_loop
.Lstream_end:
	sfence
	jmp	.Lstore_tail
VARIANT_END (CLEAR, IMPL_ID, MEMSET)

	.section .note.GNU-stack, "", @progbits
