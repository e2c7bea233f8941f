/* SPDX-License-Identifier: MIT */
/* The AVX-512 instance of memmove-vec.S and memset-vec.S: 64-byte zmm
   vectors in zmm16-zmm28, EVEX encoding.  Registers 16-31 have no legacy
   SSE encoding, so writing them leaves no dirty upper state behind and
   no vzeroupper is needed.  Below one vector, a byte mask from BZHI in a
   k-register makes one masked load and store do any size with no branch:
   a masked-out byte is neither read nor written, and cannot fault.  */

#define VEC_SIZE	64
#define VEC(i)		VEC_##i
#define VEC_0		zmm16
#define VEC_1		zmm17
#define VEC_2		zmm18
#define VEC_3		zmm19
#define VEC_4		zmm20
#define VEC_5		zmm21
#define VEC_6		zmm22
#define VEC_7		zmm23
#define VEC_8		zmm24
#define VEC_9		zmm25
#define VEC_10		zmm26
#define VEC_11		zmm27
#define VEC_12		zmm28
#define VMOVU		vmovdqu64
#define VMOVA		vmovdqa64
#define VMOVNT		vmovntdq
#define VZEROUPPER

/* Sizes below VEC_SIZE: a mask of n bytes.  */
#define MASKED_SMALL	1
#define VMOVU_MASKED	vmovdqu8
#define KMOV_MASK	kmovq

/* For n <= VEC (n in rdx): k1 masks n bytes.  Clobbers rcx.  */
#define LENGTH_MASK				\
	movq	$-1, %rcx;			\
	bzhiq	%rdx, %rcx, %rcx;		\
	KMOV_MASK %rcx, %k1

/* For VEC < n <= 4 VEC (n in rdx): k1 masks n - VEC bytes (BZHI stops at
   all 64 from 2 VEC on), k2 n - 2 VEC bytes, none up to 2 VEC.  Clobbers
   rcx, r8 and r9.  */
#define MIDDLE_MASKS				\
	leaq	-VEC_SIZE(%rdx), %rcx;		\
	movq	$-1, %r8;			\
	bzhiq	%rcx, %r8, %rcx;		\
	KMOV_MASK %rcx, %k1;			\
	leaq	-(2 * VEC_SIZE)(%rdx), %rcx;	\
	xorl	%r9d, %r9d;			\
	cmpq	$(2 * VEC_SIZE), %rdx;		\
	cmova	%rcx, %r9;			\
	bzhiq	%r9, %r8, %r8;			\
	KMOV_MASK %r8, %k2

/* memset: the byte of %esi into every byte of VEC(0).  */
#define BROADCAST_START	vpbroadcastb %esi, %zmm16
#define BROADCAST_XMM
#define BROADCAST_VEC
