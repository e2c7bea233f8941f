/* SPDX-License-Identifier: MIT */
/* MEMMOVE for i386: memmove (and so memcpy) with VEC_SIZE-byte vectors.
   One body for every vector ISA, as on x86-64: memmove-<isa>.S defines
   MEMMOVE and IMPL_ID (its impl-list.def id) and includes vec-<isa>.h
   (sysdeps/x86), which names the registers and mnemonics.

   Assumptions: the ISA of vec-<isa>.h is usable; unaligned loads and
   stores are cheap.  Arguments on the stack (entry.h): dst, src, n;
   returns dst in eax.  VEC below is VEC_SIZE bytes.  i386 has eight
   vector registers, VEC(0) .. VEC(7), and three free general ones (eax:
   dst, ecx: src, edx: n); the loops save ebx, esi and edi.

   Strategy, by size.  Up to 8 VEC every class loads all of its data
   before storing any, so each one is overlap-safe without a direction
   check.
   1. n < VEC: vector registers for 4-7 and 8-15 bytes (and two 16-byte
      ones for 16-31 when VEC is wider), head and tail possibly
      overlapping; general registers below 4 bytes.
   2. VEC <= n <= 2 VEC, 4 VEC, 8 VEC: 2, 4 or 8 vectors, half from the
      head and half from the tail.  VEC(0) holds the first VEC from the
      moment n >= VEC is known.
   3. n > 8 VEC, dst not inside (src, src+n), below rep_movsb_threshold
      and copy_nt_threshold: a loop of 4-VEC blocks to VEC-aligned
      destinations.  The first VEC (on the stack: the loop needs the
      registers) and the last 4 VEC are loaded before the loop and stored
      after it.  Eight registers leave no room for the x86-64 body's
      software pipelining.
   4. dst inside (src, src+n): the mirror of that loop, from the end down.
   5. rep_movsb_threshold <= n < copy_nt_threshold: REP MOVSB to a
      VEC-aligned destination, unless alias_guard is on and (dst - src)
      mod 4096 is in 1..63: then the loop.
   6. n >= copy_nt_threshold and the buffers disjoint: the first and the
      last 4 VEC stored normally, then non-temporal stores of 4-VEC blocks
      to the 64-byte-aligned lines between them, and an sfence.
      Overlapping buffers take the loop.
   Nothing is read or written outside [src, src+n) and [dst, dst+n).  */

#include "entry.h"

#define DST_BLOCK	%edi	/* destination of the block in VEC(0-3) */
#define SRC_BLOCK	%esi	/* its source */
#define LIMIT		%ebx	/* where the loop stops: the tail (head);
				   the GOT before that */

#define NT_AHEAD	512	/* prefetch distance of the streaming loop */

#define VZEROUPPER_RETURN	VZEROUPPER; ret

/* The loops' registers.  A return from the middle of the code keeps the
   unwind information of what follows it: the registers still pushed.  */
#define PUSH_LOOP_REGS	FC_PUSH (%ebx); FC_PUSH (%esi); FC_PUSH (%edi)
#define POP_LOOP_REGS_RETURN				\
	.cfi_remember_state;				\
	FC_POP (%edi); FC_POP (%esi); FC_POP (%ebx);	\
	VZEROUPPER_RETURN;				\
	.cfi_restore_state

VARIANT_BEGIN (COPY, IMPL_ID, MEMMOVE)
	movl	4(%esp), %eax
	movl	8(%esp), %ecx
	movl	12(%esp), %edx
	cmpl	$VEC_SIZE, %edx
	jb	.Lless_vec
	VMOVU	(%ecx), %VEC(0)
	cmpl	$(2 * VEC_SIZE), %edx
	ja	.Lmore_2x_vec
	/* VEC <= n <= 2 VEC.  */
	VMOVU	-VEC_SIZE(%ecx,%edx), %VEC(1)
	VMOVU	%VEC(0), (%eax)
	VMOVU	%VEC(1), -VEC_SIZE(%eax,%edx)
	VZEROUPPER_RETURN

	.p2align 4
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
	ja	.Lbetween_2_3
	jb	.Lreturn		/* n == 0 */
	movzbl	(%ecx), %ecx
	movb	%cl, (%eax)
.Lreturn:
	ret

	.p2align 4
.Lbetween_2_3:
	FC_PUSH (%ebx)
	movzwl	(%ecx), %ebx
	movzwl	-2(%ecx,%edx), %ecx
	movw	%bx, (%eax)
	movw	%cx, -2(%eax,%edx)
	FC_POP (%ebx)
	ret

	.p2align 4
.Lbetween_4_7:
	XMOVD	(%ecx), %XMM(0)
	XMOVD	-4(%ecx,%edx), %XMM(1)
	XMOVD	%XMM(0), (%eax)
	XMOVD	%XMM(1), -4(%eax,%edx)
	ret

	.p2align 4
.Lbetween_8_15:
	XMOVQ	(%ecx), %XMM(0)
	XMOVQ	-8(%ecx,%edx), %XMM(1)
	XMOVQ	%XMM(0), (%eax)
	XMOVQ	%XMM(1), -8(%eax,%edx)
	ret

#if VEC_SIZE > 16
	.p2align 4
.Lbetween_16_31:
	XMOVU	(%ecx), %XMM(0)
	XMOVU	-16(%ecx,%edx), %XMM(1)
	XMOVU	%XMM(0), (%eax)
	XMOVU	%XMM(1), -16(%eax,%edx)
	ret
#endif

	.p2align 4
.Lmore_2x_vec:
	cmpl	$(4 * VEC_SIZE), %edx
	ja	.Lmore_4x_vec
	/* 2 VEC < n <= 4 VEC.  */
	VMOVU	VEC_SIZE(%ecx), %VEC(1)
	VMOVU	-(2 * VEC_SIZE)(%ecx,%edx), %VEC(2)
	VMOVU	-VEC_SIZE(%ecx,%edx), %VEC(3)
	VMOVU	%VEC(0), (%eax)
	VMOVU	%VEC(1), VEC_SIZE(%eax)
	VMOVU	%VEC(2), -(2 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(3), -VEC_SIZE(%eax,%edx)
	VZEROUPPER_RETURN

	.p2align 4
.Lmore_4x_vec:
	cmpl	$(8 * VEC_SIZE), %edx
	ja	.Lmore_8x_vec
	/* 4 VEC < n <= 8 VEC.  */
	VMOVU	VEC_SIZE(%ecx), %VEC(1)
	VMOVU	(2 * VEC_SIZE)(%ecx), %VEC(2)
	VMOVU	(3 * VEC_SIZE)(%ecx), %VEC(3)
	VMOVU	-(4 * VEC_SIZE)(%ecx,%edx), %VEC(4)
	VMOVU	-(3 * VEC_SIZE)(%ecx,%edx), %VEC(5)
	VMOVU	-(2 * VEC_SIZE)(%ecx,%edx), %VEC(6)
	VMOVU	-VEC_SIZE(%ecx,%edx), %VEC(7)
	VMOVU	%VEC(0), (%eax)
	VMOVU	%VEC(1), VEC_SIZE(%eax)
	VMOVU	%VEC(2), (2 * VEC_SIZE)(%eax)
	VMOVU	%VEC(3), (3 * VEC_SIZE)(%eax)
	VMOVU	%VEC(4), -(4 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(5), -(3 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(6), -(2 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(7), -VEC_SIZE(%eax,%edx)
	VZEROUPPER_RETURN

	.p2align 4
.Lmore_8x_vec:
	PUSH_LOOP_REGS
	FC_GOT (bx)
	movl	%eax, %esi
	subl	%ecx, %esi		/* esi: dst - src */
	cmpl	%edx, %esi
	jb	.Lbackward		/* dst inside (src, src+n) */
	cmpl	fc_load@GOTOFF+FC_OFFSET_REP_MOVSB(%ebx), %edx
	jae	.Lrep_or_stream
	cmpl	fc_load@GOTOFF+FC_OFFSET_COPY_NT(%ebx), %edx
	jae	.Lrep_or_stream
.Lforward:
	/* The first VEC to the stack; the last 4 VEC in VEC(4-7).  */
	subl	$VEC_SIZE, %esp
	.cfi_adjust_cfa_offset VEC_SIZE
	VMOVU	%VEC(0), (%esp)
	VMOVU	-(4 * VEC_SIZE)(%ecx,%edx), %VEC(4)
	VMOVU	-(3 * VEC_SIZE)(%ecx,%edx), %VEC(5)
	VMOVU	-(2 * VEC_SIZE)(%ecx,%edx), %VEC(6)
	VMOVU	-VEC_SIZE(%ecx,%edx), %VEC(7)
	leal	VEC_SIZE(%eax), DST_BLOCK
	andl	$-VEC_SIZE, DST_BLOCK	/* the first aligned block after the head */
	movl	DST_BLOCK, SRC_BLOCK
	subl	%eax, SRC_BLOCK
	addl	%ecx, SRC_BLOCK
	leal	-(4 * VEC_SIZE)(%eax,%edx), LIMIT
	.p2align 4
.Lloop_4x_vec:
	/* Each block is loaded after the previous one is stored: the source
	   lies ahead of the destination, or does not overlap it.  */
	VMOVU	(SRC_BLOCK), %VEC(0)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(1)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(2)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVA	%VEC(0), (DST_BLOCK)
	VMOVA	%VEC(1), VEC_SIZE(DST_BLOCK)
	VMOVA	%VEC(2), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(3), (3 * VEC_SIZE)(DST_BLOCK)
	addl	$(4 * VEC_SIZE), SRC_BLOCK
	addl	$(4 * VEC_SIZE), DST_BLOCK
	cmpl	LIMIT, DST_BLOCK
	jb	.Lloop_4x_vec
	VMOVU	%VEC(4), (LIMIT)
	VMOVU	%VEC(5), VEC_SIZE(LIMIT)
	VMOVU	%VEC(6), (2 * VEC_SIZE)(LIMIT)
	VMOVU	%VEC(7), (3 * VEC_SIZE)(LIMIT)
	VMOVU	(%esp), %VEC(0)
	VMOVU	%VEC(0), (%eax)
	jmp	.Lfree_stack_return
	.cfi_adjust_cfa_offset -VEC_SIZE

	.p2align 4
.Lbackward:
	/* dst inside (src, src+n): the same loop from the end down.  The
	   first 4 VEC go to VEC(4-7), the last VEC to the stack; blocks end
	   on VEC-aligned destinations.  */
	VMOVU	-VEC_SIZE(%ecx,%edx), %VEC(1)
	subl	$VEC_SIZE, %esp
	.cfi_adjust_cfa_offset VEC_SIZE
	VMOVU	%VEC(1), (%esp)
	VMOVU	(%ecx), %VEC(4)
	VMOVU	VEC_SIZE(%ecx), %VEC(5)
	VMOVU	(2 * VEC_SIZE)(%ecx), %VEC(6)
	VMOVU	(3 * VEC_SIZE)(%ecx), %VEC(7)
	leal	(%eax,%edx), DST_BLOCK
	andl	$-VEC_SIZE, DST_BLOCK	/* the end of the first block */
	movl	DST_BLOCK, SRC_BLOCK
	subl	%eax, SRC_BLOCK
	addl	%ecx, SRC_BLOCK		/* the end of its source */
	leal	(4 * VEC_SIZE)(%eax), LIMIT	/* the end of the head */
	.p2align 4
.Lback_loop_4x_vec:
	VMOVU	-(4 * VEC_SIZE)(SRC_BLOCK), %VEC(0)
	VMOVU	-(3 * VEC_SIZE)(SRC_BLOCK), %VEC(1)
	VMOVU	-(2 * VEC_SIZE)(SRC_BLOCK), %VEC(2)
	VMOVU	-VEC_SIZE(SRC_BLOCK), %VEC(3)
	VMOVA	%VEC(0), -(4 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(1), -(3 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(2), -(2 * VEC_SIZE)(DST_BLOCK)
	VMOVA	%VEC(3), -VEC_SIZE(DST_BLOCK)
	subl	$(4 * VEC_SIZE), SRC_BLOCK
	subl	$(4 * VEC_SIZE), DST_BLOCK
	cmpl	LIMIT, DST_BLOCK
	ja	.Lback_loop_4x_vec
	VMOVU	(%esp), %VEC(0)
	VMOVU	%VEC(0), -VEC_SIZE(%eax,%edx)
	VMOVU	%VEC(4), (%eax)
	VMOVU	%VEC(5), VEC_SIZE(%eax)
	VMOVU	%VEC(6), (2 * VEC_SIZE)(%eax)
	VMOVU	%VEC(7), (3 * VEC_SIZE)(%eax)
.Lfree_stack_return:
	addl	$VEC_SIZE, %esp
	.cfi_adjust_cfa_offset -VEC_SIZE
	POP_LOOP_REGS_RETURN

	.p2align 4
.Lrep_or_stream:
	/* n > 8 VEC, forward-safe, at or above one of the thresholds;
	   esi: dst - src, ebx: the GOT.  */
	cmpl	fc_load@GOTOFF+FC_OFFSET_COPY_NT(%ebx), %edx
	jae	.Lstream_if_disjoint
	cmpl	$0, fc_load@GOTOFF+FC_OFFSET_ALIAS_GUARD(%ebx)
	je	.Lrep_movsb
	andl	$4095, %esi
	decl	%esi
	cmpl	$63, %esi
	jb	.Lforward		/* (dst - src) mod 4096 in 1..63 */
.Lrep_movsb:
	/* REP MOVSB to a VEC-aligned destination, as on x86-64: VEC(0)
	   holds the first VEC, stored here, unless src is less than VEC
	   ahead of dst.  */
	movl	%eax, %edi
	movl	%ecx, %esi
	subl	%eax, %ecx		/* src - dst */
	cmpl	$VEC_SIZE, %ecx
	jb	.Lrep_movsb_unaligned
	VMOVU	%VEC(0), (%edi)
	movl	%edi, %ecx
	negl	%ecx
	andl	$(VEC_SIZE - 1), %ecx
	addl	%ecx, %esi
	addl	%ecx, %edi
	subl	%ecx, %edx
.Lrep_movsb_unaligned:
	VZEROUPPER
	movl	%edx, %ecx
	rep movsb
	POP_LOOP_REGS_RETURN

.Lstream_if_disjoint:
	movl	%ecx, %esi
	subl	%eax, %esi
	cmpl	%edx, %esi
	jb	.Lforward		/* src inside (dst, dst+n) */
	/* Disjoint buffers: the first and the last 4 VEC can be stored
	   first; the streaming loop covers the whole lines between them.  */
	VMOVU	VEC_SIZE(%ecx), %VEC(1)
	VMOVU	(2 * VEC_SIZE)(%ecx), %VEC(2)
	VMOVU	(3 * VEC_SIZE)(%ecx), %VEC(3)
	VMOVU	-(4 * VEC_SIZE)(%ecx,%edx), %VEC(4)
	VMOVU	-(3 * VEC_SIZE)(%ecx,%edx), %VEC(5)
	VMOVU	-(2 * VEC_SIZE)(%ecx,%edx), %VEC(6)
	VMOVU	-VEC_SIZE(%ecx,%edx), %VEC(7)
	VMOVU	%VEC(0), (%eax)
	VMOVU	%VEC(1), VEC_SIZE(%eax)
	VMOVU	%VEC(2), (2 * VEC_SIZE)(%eax)
	VMOVU	%VEC(3), (3 * VEC_SIZE)(%eax)
	VMOVU	%VEC(4), -(4 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(5), -(3 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(6), -(2 * VEC_SIZE)(%eax,%edx)
	VMOVU	%VEC(7), -VEC_SIZE(%eax,%edx)
	leal	63(%eax), DST_BLOCK
	andl	$-64, DST_BLOCK
	movl	DST_BLOCK, SRC_BLOCK
	subl	%eax, SRC_BLOCK
	addl	%ecx, SRC_BLOCK
	leal	-(4 * VEC_SIZE)(%eax,%edx), LIMIT
	.p2align 4
.Lstream_loop:
	prefetcht0 NT_AHEAD(SRC_BLOCK)
	VMOVU	(SRC_BLOCK), %VEC(0)
	VMOVU	VEC_SIZE(SRC_BLOCK), %VEC(1)
	VMOVU	(2 * VEC_SIZE)(SRC_BLOCK), %VEC(2)
	VMOVU	(3 * VEC_SIZE)(SRC_BLOCK), %VEC(3)
	VMOVNT	%VEC(0), (DST_BLOCK)
	VMOVNT	%VEC(1), VEC_SIZE(DST_BLOCK)
	VMOVNT	%VEC(2), (2 * VEC_SIZE)(DST_BLOCK)
	VMOVNT	%VEC(3), (3 * VEC_SIZE)(DST_BLOCK)
	addl	$(4 * VEC_SIZE), SRC_BLOCK
	addl	$(4 * VEC_SIZE), DST_BLOCK
	cmpl	LIMIT, DST_BLOCK
	jb	.Lstream_loop
	sfence
	POP_LOOP_REGS_RETURN
VARIANT_END (COPY, IMPL_ID, MEMMOVE)

	.section .note.GNU-stack, "", @progbits
