/* The SSE2 instance of memmove-vec.S and memset-vec.S: 16-byte xmm
   vectors, legacy encoding (baseline x86-64).  */

#define VEC_SIZE	16
#define VEC(i)		xmm##i		/* VEC(0) .. VEC(12) */
#define XMM(i)		xmm##i
#define VMOVU		movdqu
#define VMOVA		movdqa
#define VMOVNT		movntdq
#define XMOVU		movdqu
#define XMOVQ		movq
#define XMOVD		movd
#define VZEROUPPER

/* memset: the byte of %esi into every byte of VEC(0).  */
#define BROADCAST_START			\
	movd	%esi, %xmm0;		\
	punpcklbw %xmm0, %xmm0;		\
	punpcklwd %xmm0, %xmm0;		\
	pshufd	$0, %xmm0, %xmm0
#define BROADCAST_XMM
#define BROADCAST_VEC
