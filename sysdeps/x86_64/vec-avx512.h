/* SPDX-License-Identifier: MIT */
/* The AVX-512 instance of memmove-vec.S and memset-vec.S: 64-byte zmm
   vectors in zmm16-zmm28, EVEX encoding.  Registers 16-31 have no legacy
   SSE encoding, so writing them leaves no dirty upper state behind and
   no vzeroupper is needed.  Small sizes are masked (vec-masked.h).  */

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
/* The low 16 and 32 bytes of VEC(0) and VEC(1), for sizes below a VEC on
   memmove's path without masks (MOVE_NEAR, memmove-vec.S).  */
#define XMM(i)		XMM_##i
#define XMM_0		xmm16
#define XMM_1		xmm17
#define YMM(i)		YMM_##i
#define YMM_0		ymm16
#define YMM_1		ymm17
#define XMOVU		vmovdqu64

/* Sizes below 4 VEC: masks of 64 bits (vec-masked.h).  */
#define KMOV_MASK(r64, r32, k)	kmovq r64, k
#include "vec-masked.h"

/* memset: the byte of %esi into every byte of VEC(0).  */
#define BROADCAST_START	vpbroadcastb %esi, %zmm16
#define BROADCAST_XMM
#define BROADCAST_VEC
