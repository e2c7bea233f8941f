/* memset_avx2: memset with 32-byte AVX2 stores.

   Assumptions: AVX2 usable (CPU and OS).  Arguments: rdi = dst, esi = byte
   (only the low 8 bits count), rdx = n; returns dst in rax.

   Like memmove_avx2, the entry is assembly so that each small size class
   is a short path:
   1. n < 32: the byte replicated into a 64-bit register by multiplication,
      then head and tail stores of 1, 2, 4 or 8 bytes, or two 16-byte
      stores (16-31).
   2. 32 <= n <= 64, 128, 256: 2, 4 or 8 vector stores from head and tail.
   3. n > 256: memset_avx2_large (memset-avx2-large.c): REP STOSB window,
      streaming stores, the aligned store loop.

   The exported memset and __memset_chk are defined in front of memset_avx2
   and fall through into it when the policy chose it (see memmove-avx2.S
   for why).  */

#include "asm.h"

	.hidden	fc_clear_fallthrough, fc_clear_slot, memset_avx2_large

	.text
	.p2align 6
	.globl	__memset_chk
	.type	__memset_chk, @function
__memset_chk:
	.cfi_startproc
	_CET_ENDBR
	cmpq	%rdx, %rcx		/* dst_size < n: overflow */
	jb	.Lchk_fail
	.globl	memset
	.type	memset, @function
memset:
	_CET_ENDBR
	cmpb	$0, fc_clear_fallthrough(%rip)
	je	.Lvia_slot
	.globl	memset_avx2
	.hidden	memset_avx2
	.type	memset_avx2, @function
memset_avx2:
	_CET_ENDBR
	movq	%rdi, %rax
	cmpq	$32, %rdx
	jb	.Lless_32
	vmovd	%esi, %xmm0
	vpbroadcastb %xmm0, %ymm0
	cmpq	$64, %rdx
	ja	.Lmore_64
	/* 32 <= n <= 64.  */
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, -32(%rdi,%rdx)
	vzeroupper
	ret

.Lless_32:
	movzbl	%sil, %ecx
	movabsq	$0x0101010101010101, %r8
	imulq	%r8, %rcx
	cmpl	$16, %edx
	jae	.Lbetween_16_31
	cmpl	$8, %edx
	jae	.Lbetween_8_15
	cmpl	$4, %edx
	jae	.Lbetween_4_7
	cmpl	$1, %edx
	jb	.Lreturn		/* n == 0 */
	movb	%cl, (%rdi)
	je	.Lreturn		/* flags still from cmpl: n == 1 */
	movw	%cx, -2(%rdi,%rdx)
.Lreturn:
	ret

.Lbetween_4_7:
	movl	%ecx, (%rdi)
	movl	%ecx, -4(%rdi,%rdx)
	ret

.Lbetween_8_15:
	movq	%rcx, (%rdi)
	movq	%rcx, -8(%rdi,%rdx)
	ret

.Lbetween_16_31:
	vmovq	%rcx, %xmm0
	vpunpcklqdq %xmm0, %xmm0, %xmm0
	vmovdqu	%xmm0, (%rdi)
	vmovdqu	%xmm0, -16(%rdi,%rdx)
	ret

.Lmore_64:
	cmpq	$128, %rdx
	ja	.Lmore_128
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, 32(%rdi)
	vmovdqu	%ymm0, -64(%rdi,%rdx)
	vmovdqu	%ymm0, -32(%rdi,%rdx)
	vzeroupper
	ret

.Lmore_128:
	cmpq	$256, %rdx
	ja	.Lmore_256
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, 32(%rdi)
	vmovdqu	%ymm0, 64(%rdi)
	vmovdqu	%ymm0, 96(%rdi)
	vmovdqu	%ymm0, -128(%rdi,%rdx)
	vmovdqu	%ymm0, -96(%rdi,%rdx)
	vmovdqu	%ymm0, -64(%rdi,%rdx)
	vmovdqu	%ymm0, -32(%rdi,%rdx)
	vzeroupper
	ret

.Lmore_256:
	vzeroupper
	jmp	memset_avx2_large

.Lvia_slot:
	jmp	*fc_clear_slot(%rip)

.Lchk_fail:
	jmp	__chk_fail@PLT
	.cfi_endproc
	.size	__memset_chk, . - __memset_chk
	.size	memset, . - memset
	.size	memset_avx2, . - memset_avx2

	.section .note.GNU-stack, "", @progbits
