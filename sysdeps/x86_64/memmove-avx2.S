/* memmove_avx2: memmove (and so memcpy) with 32-byte AVX2 vectors.

   Assumptions: AVX2 usable (CPU and OS); unaligned loads and stores are
   cheap.  Arguments: rdi = dst, rsi = src, rdx = n; returns dst in rax.

   Small copies are a matter of cycles per call, so this entry is assembly:
   the branch layout keeps each size class on a short path with at most one
   taken branch, and every class loads all of its data before storing any
   of it, which makes each one overlap-safe without a direction check.
   1. n < 32: general-purpose registers (1, 2-3, 4-7, 8-15 bytes) or two
      16-byte vectors (16-31), head and tail possibly overlapping.
   2. 32 < n <= 64, 128, 256: 2, 4 or 8 vectors, half from the head and half
      from the tail.
   3. n > 256, forward-safe, below the REP MOVSB and streaming thresholds:
      a software-pipelined loop of 128-byte blocks here (the same loop in C
      measured 1.1-1.3x glibc at 257-1024 bytes, and 1.12x at 16 KiB with
      (dst - src) mod 4096 = 32); the mirror of that loop for a destination
      inside the source (1.33x glibc at 512 bytes in C).  From either
      threshold on, memmove_avx2_large (memmove-avx2-large.c): the REP
      MOVSB window with its aliasing guard, streaming stores.

   The exported memmove, memcpy, memcpy@GLIBC_2.2.5, __memcpy_chk and
   __memmove_chk are defined here, in front of memmove_avx2: when the policy
   chose memmove_avx2 they fall through into it; otherwise they jump through
   the dispatch slot.  The jump through the slot measured 0.6-0.8 ns per
   call here, 16% of a 32-byte copy; the flag test costs nothing
   measurable.  */

#include "entry.h"

	.hidden	memmove_avx2_large
VARIANT_BEGIN (COPY, COPY_AVX2, memmove_avx2)
	movq	%rdi, %rax
	cmpq	$32, %rdx
	jb	.Lless_32
	vmovdqu	(%rsi), %ymm0
	cmpq	$64, %rdx
	ja	.Lmore_64
	/* 32 <= n <= 64.  */
	vmovdqu	-32(%rsi,%rdx), %ymm1
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm1, -32(%rdi,%rdx)
	vzeroupper
	ret

	.p2align 5
.Lless_32:
	cmpl	$16, %edx
	jae	.Lbetween_16_31
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

	.p2align 5
.Lbetween_16_31:
	/* VEX.128 moves leave the upper halves clean: no vzeroupper.  */
	vmovdqu	(%rsi), %xmm0
	vmovdqu	-16(%rsi,%rdx), %xmm1
	vmovdqu	%xmm0, (%rdi)
	vmovdqu	%xmm1, -16(%rdi,%rdx)
	ret

	.p2align 5
.Lmore_64:
	/* ymm0 holds the first 32 bytes.  */
	cmpq	$128, %rdx
	ja	.Lmore_128
	vmovdqu	32(%rsi), %ymm1
	vmovdqu	-64(%rsi,%rdx), %ymm2
	vmovdqu	-32(%rsi,%rdx), %ymm3
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm1, 32(%rdi)
	vmovdqu	%ymm2, -64(%rdi,%rdx)
	vmovdqu	%ymm3, -32(%rdi,%rdx)
	vzeroupper
	ret

	.p2align 5
.Lmore_128:
	cmpq	$256, %rdx
	ja	.Lmore_256
	vmovdqu	32(%rsi), %ymm1
	vmovdqu	64(%rsi), %ymm2
	vmovdqu	96(%rsi), %ymm3
	vmovdqu	-128(%rsi,%rdx), %ymm4
	vmovdqu	-96(%rsi,%rdx), %ymm5
	vmovdqu	-64(%rsi,%rdx), %ymm6
	vmovdqu	-32(%rsi,%rdx), %ymm7
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm1, 32(%rdi)
	vmovdqu	%ymm2, 64(%rdi)
	vmovdqu	%ymm3, 96(%rdi)
	vmovdqu	%ymm4, -128(%rdi,%rdx)
	vmovdqu	%ymm5, -96(%rdi,%rdx)
	vmovdqu	%ymm6, -64(%rdi,%rdx)
	vmovdqu	%ymm7, -32(%rdi,%rdx)
	vzeroupper
	ret

	.p2align 5
.Lmore_256:
	/* Forward-safe and below both the REP MOVSB and the streaming
	   threshold: the loop below.  Otherwise memmove_avx2_large.  */
	movq	%rdi, %rcx
	subq	%rsi, %rcx
	cmpq	%rdx, %rcx
	jb	.Lbackward		/* dst inside (src, src+n) */
	cmpq	fc_load+FC_OFFSET_REP_MOVSB(%rip), %rdx
	jae	.Llarge
	cmpq	fc_load+FC_OFFSET_COPY_NT(%rip), %rdx
	jae	.Llarge
	/* ymm0 holds the head; the last 128 bytes go to ymm5-8.  Then
	   128-byte blocks to 32-byte-aligned destinations, software-pipelined:
	   each block is loaded before the previous one is stored, so a load
	   never waits on a store to the same 4 KiB page offset (4K aliasing,
	   (dst - src) mod 4096 below 128).  */
	vmovdqu	-128(%rsi,%rdx), %ymm5
	vmovdqu	-96(%rsi,%rdx), %ymm6
	vmovdqu	-64(%rsi,%rdx), %ymm7
	vmovdqu	-32(%rsi,%rdx), %ymm8
	leaq	32(%rdi), %rcx
	andq	$-32, %rcx		/* rcx: first aligned block after the head */
	movq	%rcx, %r8
	subq	%rdi, %r8
	addq	%rsi, %r8		/* r8: its source */
	leaq	-128(%rdi,%rdx), %r9	/* r9: where the tail starts */
	vmovdqu	(%r8), %ymm1
	vmovdqu	32(%r8), %ymm2
	vmovdqu	64(%r8), %ymm3
	vmovdqu	96(%r8), %ymm4
	.p2align 4
.Lloop:
	/* ymm1-4: the block for rcx.  */
	subq	$-128, %r8
	leaq	128(%rcx), %r10
	cmpq	%r9, %r10
	jae	.Lstore_a
	vmovdqu	(%r8), %ymm9
	vmovdqu	32(%r8), %ymm10
	vmovdqu	64(%r8), %ymm11
	vmovdqu	96(%r8), %ymm12
	vmovdqa	%ymm1, (%rcx)
	vmovdqa	%ymm2, 32(%rcx)
	vmovdqa	%ymm3, 64(%rcx)
	vmovdqa	%ymm4, 96(%rcx)
	/* ymm9-12: the block for r10.  */
	subq	$-128, %r8
	leaq	128(%r10), %rcx
	cmpq	%r9, %rcx
	jae	.Lstore_b
	vmovdqu	(%r8), %ymm1
	vmovdqu	32(%r8), %ymm2
	vmovdqu	64(%r8), %ymm3
	vmovdqu	96(%r8), %ymm4
	vmovdqa	%ymm9, (%r10)
	vmovdqa	%ymm10, 32(%r10)
	vmovdqa	%ymm11, 64(%r10)
	vmovdqa	%ymm12, 96(%r10)
	jmp	.Lloop

.Lstore_b:
	vmovdqa	%ymm9, (%r10)
	vmovdqa	%ymm10, 32(%r10)
	vmovdqa	%ymm11, 64(%r10)
	vmovdqa	%ymm12, 96(%r10)
	jmp	.Lstore_tail
.Lstore_a:
	vmovdqa	%ymm1, (%rcx)
	vmovdqa	%ymm2, 32(%rcx)
	vmovdqa	%ymm3, 64(%rcx)
	vmovdqa	%ymm4, 96(%rcx)
.Lstore_tail:
	vmovdqu	%ymm5, (%r9)
	vmovdqu	%ymm6, 32(%r9)
	vmovdqu	%ymm7, 64(%r9)
	vmovdqu	%ymm8, 96(%r9)
	vmovdqu	%ymm0, (%rdi)
	vzeroupper
	ret

	.p2align 5
.Lbackward:
	/* dst inside (src, src+n): the same loop from the end down.  The
	   first 128 bytes (ymm0, ymm5-7) and the last 32 (ymm8) are loaded
	   first; blocks end on 32-byte-aligned destinations.  */
	vmovdqu	32(%rsi), %ymm5
	vmovdqu	64(%rsi), %ymm6
	vmovdqu	96(%rsi), %ymm7
	vmovdqu	-32(%rsi,%rdx), %ymm8
	leaq	(%rdi,%rdx), %rcx
	andq	$-32, %rcx		/* rcx: end of the first block */
	movq	%rcx, %r8
	subq	%rdi, %r8
	addq	%rsi, %r8		/* r8: end of its source */
	leaq	128(%rdi), %r9		/* r9: end of the head */
	vmovdqu	-128(%r8), %ymm1
	vmovdqu	-96(%r8), %ymm2
	vmovdqu	-64(%r8), %ymm3
	vmovdqu	-32(%r8), %ymm4
	.p2align 4
.Lback_loop:
	/* ymm1-4: the block ending at rcx.  */
	subq	$128, %r8
	leaq	-128(%rcx), %r10
	cmpq	%r9, %r10
	jbe	.Lback_store_a
	vmovdqu	-128(%r8), %ymm9
	vmovdqu	-96(%r8), %ymm10
	vmovdqu	-64(%r8), %ymm11
	vmovdqu	-32(%r8), %ymm12
	vmovdqa	%ymm1, -128(%rcx)
	vmovdqa	%ymm2, -96(%rcx)
	vmovdqa	%ymm3, -64(%rcx)
	vmovdqa	%ymm4, -32(%rcx)
	/* ymm9-12: the block ending at r10.  */
	subq	$128, %r8
	leaq	-128(%r10), %rcx
	cmpq	%r9, %rcx
	jbe	.Lback_store_b
	vmovdqu	-128(%r8), %ymm1
	vmovdqu	-96(%r8), %ymm2
	vmovdqu	-64(%r8), %ymm3
	vmovdqu	-32(%r8), %ymm4
	vmovdqa	%ymm9, -128(%r10)
	vmovdqa	%ymm10, -96(%r10)
	vmovdqa	%ymm11, -64(%r10)
	vmovdqa	%ymm12, -32(%r10)
	jmp	.Lback_loop

.Lback_store_b:
	vmovdqa	%ymm9, -128(%r10)
	vmovdqa	%ymm10, -96(%r10)
	vmovdqa	%ymm11, -64(%r10)
	vmovdqa	%ymm12, -32(%r10)
	jmp	.Lback_finish
.Lback_store_a:
	vmovdqa	%ymm1, -128(%rcx)
	vmovdqa	%ymm2, -96(%rcx)
	vmovdqa	%ymm3, -64(%rcx)
	vmovdqa	%ymm4, -32(%rcx)
.Lback_finish:
	vmovdqu	%ymm8, -32(%rdi,%rdx)
	vmovdqu	%ymm0, (%rdi)
	vmovdqu	%ymm5, 32(%rdi)
	vmovdqu	%ymm6, 64(%rdi)
	vmovdqu	%ymm7, 96(%rdi)
	vzeroupper
	ret

.Llarge:
	vzeroupper
	jmp	memmove_avx2_large

VARIANT_END (COPY, COPY_AVX2, memmove_avx2)

	.section .note.GNU-stack, "", @progbits
