/* SPDX-License-Identifier: MIT */
/* The EVEX instance of memmove-vec.S and memset-vec.S: 32-byte ymm
   vectors in ymm16-ymm28, EVEX encoding (AVX512VL).  For the AVX-512 CPUs
   whose core clock drops under heavy 512-bit use, where glibc too uses
   32-byte vectors (Intel without AVX-VNNI: Skylake-SP to Ice Lake-SP).
   Registers 16-31 have no VEX encoding, so writing them leaves no dirty
   upper state behind and no vzeroupper is needed.  Small sizes are masked
   (vec-masked.h), as with 64-byte vectors.  */

#define VEC_SIZE	32
#define VEC(i)		VEC_##i
#define VEC_0		ymm16
#define VEC_1		ymm17
#define VEC_2		ymm18
#define VEC_3		ymm19
#define VEC_4		ymm20
#define VEC_5		ymm21
#define VEC_6		ymm22
#define VEC_7		ymm23
#define VEC_8		ymm24
#define VEC_9		ymm25
#define VEC_10		ymm26
#define VEC_11		ymm27
#define VEC_12		ymm28
#define VMOVU		vmovdqu64
#define VMOVA		vmovdqa64
#define VMOVNT		vmovntdq
#define VZEROUPPER

/* Sizes below 4 VEC: masks of 32 bits (vec-masked.h).  */
#define KMOV_MASK(r64, r32, k)	kmovd r32, k
#include "vec-masked.h"

/* memset: the byte of %esi into every byte of VEC(0).  */
#define BROADCAST_START	vpbroadcastb %esi, %ymm16
#define BROADCAST_XMM
#define BROADCAST_VEC
