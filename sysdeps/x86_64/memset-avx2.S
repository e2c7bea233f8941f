/* memset_avx2: memset with 32-byte AVX2 stores.

   Assumptions: AVX2 usable (CPU and OS).  Arguments: rdi = dst, esi = byte
   (only the low 8 bits count), rdx = n; returns dst in rax.

   Like memmove_avx2, the entry is assembly so that each small size class
   is a short path:
   1. n < 32: the byte broadcast into xmm0 only (no dirty upper halves, so
      no vzeroupper), then head and tail stores of 4, 8 or 16 bytes straight
      from it, or single bytes below 4.
   2. 32 <= n <= 64, 128, 256: 2, 4 or 8 vector stores from head and tail.
   3. n > 256, below the REP STOSB and streaming thresholds: an aligned
      4-vector store loop here (in C it measured 1.5-2x glibc at 257-768
      bytes); from either threshold on, memset_avx2_large
      (memset-avx2-large.c).

   The exported memset and __memset_chk are defined in front of memset_avx2
   and fall through into it when the policy chose it (see memmove-avx2.S
   for why).  */

#include "entry.h"

	.hidden	memset_avx2_large
VARIANT_BEGIN (CLEAR, CLEAR_AVX2, memset_avx2)
	vmovd	%esi, %xmm0
	movq	%rdi, %rax
	cmpq	$32, %rdx
	jb	.Lless_32
	vpbroadcastb %xmm0, %ymm0
	cmpq	$64, %rdx
	ja	.Lmore_64
	/* 32 <= n <= 64.  */
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, -32(%rdi,%rdx)
	vzeroupper
	ret

	.p2align 5
.Lless_32:
	/* Only xmm0 is written below: the upper halves stay clean.  */
	vpbroadcastb %xmm0, %xmm0
	cmpl	$16, %edx
	jae	.Lbetween_16_31
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

	.p2align 5
.Lbetween_16_31:
	vmovdqu	%xmm0, (%rdi)
	vmovdqu	%xmm0, -16(%rdi,%rdx)
	ret

	.p2align 5
.Lbetween_8_15:
	vmovq	%xmm0, (%rdi)
	vmovq	%xmm0, -8(%rdi,%rdx)
	ret

	.p2align 5
.Lbetween_4_7:
	vmovd	%xmm0, (%rdi)
	vmovd	%xmm0, -4(%rdi,%rdx)
	ret

	.p2align 5
.Lbetween_2_3:
	movb	%sil, (%rdi)
	movb	%sil, 1(%rdi)
	movb	%sil, -1(%rdi,%rdx)
	ret

	.p2align 5
.Lmore_64:
	/* Stores go out between the size tests: the head first, then more
	   head or the tail as the size class becomes known.  */
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm0, 32(%rdi)
	cmpq	$128, %rdx
	ja	.Lmore_128
	vmovdqu	%ymm0, -64(%rdi,%rdx)
	vmovdqu	%ymm0, -32(%rdi,%rdx)
	vzeroupper
	ret

	.p2align 5
.Lmore_128:
	vmovdqu	%ymm0, 64(%rdi)
	vmovdqu	%ymm0, 96(%rdi)
	cmpq	$256, %rdx
	ja	.Lmore_256
	vmovdqu	%ymm0, -128(%rdi,%rdx)
	vmovdqu	%ymm0, -96(%rdi,%rdx)
	vmovdqu	%ymm0, -64(%rdi,%rdx)
	vmovdqu	%ymm0, -32(%rdi,%rdx)
	vzeroupper
	ret

	.p2align 5
.Lmore_256:
	/* Below both the REP STOSB and the streaming threshold: an aligned
	   4-vector loop between the 128 head bytes already stored and an
	   unaligned 128-byte tail.  The rest is memset_avx2_large's.  */
	cmpq	fc_load+FC_OFFSET_REP_STOSB(%rip), %rdx
	jae	.Llarge
	cmpq	fc_load+FC_OFFSET_CLEAR_NT(%rip), %rdx
	jae	.Llarge
	leaq	128(%rdi), %rcx
	andq	$-32, %rcx		/* first aligned vector after the 128 head bytes */
	leaq	-128(%rdi,%rdx), %rdx	/* where the tail starts */
	.p2align 4
.Lloop:
	vmovdqa	%ymm0, (%rcx)
	vmovdqa	%ymm0, 32(%rcx)
	vmovdqa	%ymm0, 64(%rcx)
	vmovdqa	%ymm0, 96(%rcx)
	subq	$-128, %rcx
	cmpq	%rdx, %rcx
	jb	.Lloop
	vmovdqu	%ymm0, (%rdx)
	vmovdqu	%ymm0, 32(%rdx)
	vmovdqu	%ymm0, 64(%rdx)
	vmovdqu	%ymm0, 96(%rdx)
	vzeroupper
	ret

.Llarge:
	vzeroupper
	jmp	memset_avx2_large

VARIANT_END (CLEAR, CLEAR_AVX2, memset_avx2)

	.section .note.GNU-stack, "", @progbits
