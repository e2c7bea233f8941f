/* SPDX-License-Identifier: MIT */
/* The masked small sizes of the AVX-512 instances of memmove-vec.S and
   memset-vec.S (vec-avx512.h, vec-evex.h), which define VEC_SIZE and
   KMOV_MASK (R64, R32, K) first: the move of a VEC_SIZE-bit mask from a
   general register, named both ways, into K.  Below one
   vector, a byte mask from BZHI in a k-register makes one masked load and
   store do any size with no branch: a masked-out byte is neither read nor
   written, and cannot fault.  Needs AVX512BW (byte masks) and BMI2.  */

#define MASKED_SMALL	1
#define VMOVU_MASKED	vmovdqu8

/* For n <= VEC (n in rdx): k1 masks n bytes.  Clobbers rcx.  */
#define LENGTH_MASK				\
	movq	$-1, %rcx;			\
	bzhiq	%rdx, %rcx, %rcx;		\
	KMOV_MASK (%rcx, %ecx, %k1)

/* For VEC < n <= 4 VEC (n in rdx): k1 masks n - VEC bytes (BZHI keeps all
   64 bits from an index of 64 on, and KMOV_MASK the low VEC_SIZE of them),
   k2 n - 2 VEC bytes, none up to 2 VEC.  Clobbers rcx, r8 and r9.  */
#define MIDDLE_MASKS				\
	leaq	-VEC_SIZE(%rdx), %rcx;		\
	movq	$-1, %r8;			\
	bzhiq	%rcx, %r8, %rcx;		\
	KMOV_MASK (%rcx, %ecx, %k1);		\
	leaq	-(2 * VEC_SIZE)(%rdx), %rcx;	\
	xorl	%r9d, %r9d;			\
	cmpq	$(2 * VEC_SIZE), %rdx;		\
	cmova	%rcx, %r9;			\
	bzhiq	%r9, %r8, %r8;			\
	KMOV_MASK (%r8, %r8d, %k2)

/* For n <= 2 VEC (n in rdx), MASKED_PAIR (entry-shapes.h): k1 masks
   min (n, VEC) bytes, the first VEC's, and PAIR_K the second VEC's bytes
   at PAIR_AT (base): with PAIR_AT_VEC, max (n - VEC, 0) bytes at VEC (k2);
   else k1's again at max (n - VEC, 0), the VEC that ends at n.  Clobbers
   rcx, r8 and r9.  */
#define PAIR_MASKS				\
	movq	$-1, %rcx;			\
	bzhiq	%rdx, %rcx, %r8;		\
	KMOV_MASK (%r8, %r8d, %k1);		\
	leaq	-VEC_SIZE(%rdx), %r8;		\
	xorl	%r9d, %r9d;			\
	cmpq	$VEC_SIZE, %rdx;		\
	cmova	%r8, %r9;			\
	PAIR_SECOND_MASK
#ifdef PAIR_AT_VEC
# define PAIR_SECOND_MASK			\
	bzhiq	%r9, %rcx, %rcx;		\
	KMOV_MASK (%rcx, %ecx, %k2)
# define PAIR_K		%k2
# define PAIR_AT(base)	VEC_SIZE(base)
#else
# define PAIR_SECOND_MASK
# define PAIR_K		%k1
# define PAIR_AT(base)	(base,%r9)
#endif
