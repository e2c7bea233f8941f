/* SPDX-License-Identifier: MIT */
/* The SSE2 instance of memmove-vec.S and memset-vec.S, of x86-64 and of
   i386: 16-byte xmm vectors, legacy encoding (baseline x86-64).  */

#define VEC_SIZE	16
#define VEC(i)		xmm##i		/* VEC(0) .. VEC(12); VEC(7) on i386 */
#define XMM(i)		xmm##i
#define VMOVU		movdqu
#define VMOVA		movdqa
#define VMOVNT		movntdq
#define XMOVU		movdqu
#define XMOVQ		movq
#define XMOVD		movd
#define VZEROUPPER

/* memset: the byte of MEMSET_BYTE (memset-vec.S: a register or the stack
   slot of the argument) into every byte of VEC(0).  */
#define BROADCAST_START			\
	movd	MEMSET_BYTE, %xmm0;	\
	punpcklbw %xmm0, %xmm0;		\
	punpcklwd %xmm0, %xmm0;		\
	pshufd	$0, %xmm0, %xmm0
#define BROADCAST_XMM
#define BROADCAST_VEC
