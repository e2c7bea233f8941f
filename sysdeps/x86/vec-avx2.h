/* SPDX-License-Identifier: MIT */
/* The AVX2 instance of memmove-vec.S and memset-vec.S, of x86-64 and of
   i386: 32-byte ymm vectors, VEX encoding.  A dirty upper half of a ymm
   register slows the caller's SSE code down, so every path that wrote one
   ends with vzeroupper; the paths below 32 bytes use VEX.128 moves, which
   leave the upper halves clean, and need none.  */

#define VEC_SIZE	32
#define VEC(i)		ymm##i		/* VEC(0) .. VEC(12); VEC(7) on i386 */
#define XMM(i)		xmm##i		/* the low 16 bytes of VEC(i) */
#define VMOVU		vmovdqu
#define VMOVA		vmovdqa
#define VMOVNT		vmovntdq
#define XMOVU		vmovdqu
#define XMOVQ		vmovq
#define XMOVD		vmovd
#define VZEROUPPER	vzeroupper

/* memset: the byte of MEMSET_BYTE (memset-vec.S) into XMM(0) (below
   VEC_SIZE) or VEC(0).  */
#define BROADCAST_START	vmovd MEMSET_BYTE, %xmm0
#define BROADCAST_XMM	vpbroadcastb %xmm0, %xmm0
#define BROADCAST_VEC	vpbroadcastb %xmm0, %ymm0
