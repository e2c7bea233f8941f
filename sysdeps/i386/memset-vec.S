/* SPDX-License-Identifier: MIT */
/* MEMSET for i386: memset with VEC_SIZE-byte vector stores.  One body for
   every vector ISA, as on x86-64: memset-<isa>.S defines MEMSET and
   IMPL_ID (its impl-list.def id) and includes vec-<isa>.h (sysdeps/x86),
   which names the registers and mnemonics and says how to broadcast the
   byte.

   Assumptions: the ISA of vec-<isa>.h is usable.  Arguments on the stack
   (entry.h): dst, the byte (only the low 8 bits count), n; returns dst in
   eax.  VEC below is VEC_SIZE bytes.

   Strategy, by size, as on x86-64 (sysdeps/x86_64/memset-vec.S):
   1. n < VEC: the byte broadcast into XMM(0) only, then head and tail
      stores of 16, 8, 4 or 2 bytes from it, or one byte.
   2. VEC <= n <= 2 VEC, 4 VEC, 8 VEC: 2, 4 or 8 stores from head and tail.
   3. n > 8 VEC, below rep_stosb_threshold and clear_nt_threshold: an
      aligned 4-VEC store loop between the 4 head VEC already stored and an
      unaligned 4-VEC tail.
   4. rep_stosb_threshold <= n < clear_nt_threshold: REP STOSB.
   5. n >= clear_nt_threshold: the same loop with non-temporal stores to
      64-byte-aligned lines (the 4 head VEC cover the part before the first
      one), then an sfence and the tail.  */

#include "entry.h"

#define MEMSET_BYTE	8(%esp)	/* for BROADCAST_START */
#define DST_BLOCK	%ecx	/* where the loop stores next */
#define LIMIT		%edx	/* where the tail starts (n is not needed
				   once it is known) */

#define VZEROUPPER_RETURN	VZEROUPPER; ret

VARIANT_BEGIN (CLEAR, IMPL_ID, MEMSET)
	BROADCAST_START
	movl	4(%esp), %eax
	movl	12(%esp), %edx
	cmpl	$VEC_SIZE, %edx
	jb	.Lless_vec
	BROADCAST_VEC
	cmpl	$(2 * VEC_SIZE), %edx
	ja	.Lmore_2x_vec
	/* VEC <= n <= 2 VEC.  */
	VMOVU	%VEC(0), (%eax)
	VMOVU	%VEC(0), -VEC_SIZE(%eax,%edx)
	VZEROUPPER_RETURN

	.p2align 4
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
	XMOVD	%XMM(0), %ecx
	cmpl	$1, %edx
	ja	.Lbetween_2_3
	jb	.Lreturn		/* n == 0 */
	movb	%cl, (%eax)
.Lreturn:
	ret
.Lbetween_2_3:
	movw	%cx, (%eax)
	movw	%cx, -2(%eax,%edx)
	ret

#if VEC_SIZE > 16
	.p2align 4
.Lbetween_16_31:
	XMOVU	%XMM(0), (%eax)
	XMOVU	%XMM(0), -16(%eax,%edx)
	ret
#endif

	.p2align 4
.Lbetween_8_15:
	XMOVQ	%XMM(0), (%eax)
	XMOVQ	%XMM(0), -8(%eax,%edx)
	ret

	.p2align 4
.Lbetween_4_7:
	XMOVD	%XMM(0), (%eax)
	XMOVD	%XMM(0), -4(%eax,%edx)
	ret

	.p2align 4
.Lmore_2x_vec:
	VMOVU	%VEC(0), (%eax)
	VMOVU	%VEC(0), VEC_SIZE(%eax)
	cmpl	$(4 * VEC_SIZE), %edx
	ja	.Lmore_4x_vec
	/* 2 VEC < n <= 4 VEC.  */
	VMOVU	%VEC(0), -(2 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(0), -VEC_SIZE(%eax,%edx)
	VZEROUPPER_RETURN

	.p2align 4
.Lmore_4x_vec:
	VMOVU	%VEC(0), (2 * VEC_SIZE)(%eax)
	VMOVU	%VEC(0), (3 * VEC_SIZE)(%eax)
	cmpl	$(8 * VEC_SIZE), %edx
	ja	.Lmore_8x_vec
	/* 4 VEC < n <= 8 VEC.  */
	VMOVU	%VEC(0), -(4 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(0), -(3 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(0), -(2 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(0), -VEC_SIZE(%eax,%edx)
	VZEROUPPER_RETURN

	.p2align 4
.Lmore_8x_vec:
	/* The first 4 VEC are stored.  The thresholds are at their offset
	   from the GOT, in ecx.  */
	FC_GOT (cx)
	cmpl	fc_load@GOTOFF+FC_OFFSET_REP_STOSB(%ecx), %edx
	jae	.Lrep_or_stream
	cmpl	fc_load@GOTOFF+FC_OFFSET_CLEAR_NT(%ecx), %edx
	jae	.Lrep_or_stream
	leal	(4 * VEC_SIZE)(%eax), DST_BLOCK
	andl	$-VEC_SIZE, DST_BLOCK	/* the first aligned VEC after the head */
	leal	-(4 * VEC_SIZE)(%eax,%edx), LIMIT
	.p2align 4
.Lloop_4x_vec:
	VMOVA	%VEC(0), (DST_BLOCK)
	VMOVA	%VEC(0), VEC_SIZE(DST_BLOCK)
	VMOVA	%VEC(0), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(0), (3 * VEC_SIZE)(DST_BLOCK)
	addl	$(4 * VEC_SIZE), DST_BLOCK
	cmpl	LIMIT, DST_BLOCK
	jb	.Lloop_4x_vec
.Lstore_tail:
	VMOVU	%VEC(0), (LIMIT)
	VMOVU	%VEC(0), VEC_SIZE(LIMIT)
	VMOVU	%VEC(0), (2 * VEC_SIZE)(LIMIT)
	VMOVU	%VEC(0), (3 * VEC_SIZE)(LIMIT)
	VZEROUPPER_RETURN

	.p2align 4
.Lrep_or_stream:
	cmpl	fc_load@GOTOFF+FC_OFFSET_CLEAR_NT(%ecx), %edx
	jae	.Lstream
	/* REP STOSB stores AL to [edi], ecx times; edi is the caller's.  */
	VZEROUPPER
	movl	%edi, %ecx
	movl	%eax, %edi
	XMOVD	%XMM(0), %eax
	xchgl	%ecx, %edx		/* ecx: n, edx: the caller's edi */
	rep stosb
	movl	%edx, %edi
	movl	4(%esp), %eax
	ret

.Lstream:
	leal	63(%eax), DST_BLOCK
	andl	$-64, DST_BLOCK
	leal	-(4 * VEC_SIZE)(%eax,%edx), LIMIT
	.p2align 4
.Lstream_loop:
	VMOVNT	%VEC(0), (DST_BLOCK)
	VMOVNT	%VEC(0), VEC_SIZE(DST_BLOCK)
	VMOVNT	%VEC(0), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(0), (3 * VEC_SIZE)(DST_BLOCK)
	addl	$(4 * VEC_SIZE), DST_BLOCK
	cmpl	LIMIT, DST_BLOCK
	jb	.Lstream_loop
	sfence
	jmp	.Lstore_tail
VARIANT_END (CLEAR, IMPL_ID, MEMSET)

	.section .note.GNU-stack, "", @progbits
