/* SPDX-License-Identifier: MIT */
/* The i386 ABI of the vector bodies (sysdeps/x86/memmove-vec.S,
   memset-vec.S), as vec-<isa>.h is their ISA: where the arguments are,
   which registers each body uses for what, and how it reaches the
   thresholds.  sysdeps/x86_64/vec-abi.h defines the same names.

   Arguments on the stack (entry.h): 4(%esp) dst, 8(%esp) src or the
   byte, 12(%esp) n; eax returns dst.  eax, ecx and edx are the callee's;
   ebx, esi and edi are saved before use.  The thresholds are at their
   offset from the GOT (FC_GOT, entry.h), in a register each body names
   GOT.  Pointer-width instructions in the bodies carry no size suffix:
   their register operands give it.  */

#ifndef FASTCOPY_VEC_ABI_H
#define FASTCOPY_VEC_ABI_H 1

/* Vector registers: 8, VEC(0) .. VEC(7).  The loops move one block at a
   time, and one VEC they keep for last waits in LAST_SLOT, on the stack
   (memmove-vec.S).  */
#define VEC_REGS	8

/* The threshold KEY (keys.def) of fc_state.tunables.  */
#define TUNABLE(key)	fc_state@GOTOFF+FC_OFFSET_##key(GOT)
#define CMP_WORD	cmpl		/* a compare with a threshold word */

#ifdef MEMMOVE
# define DST		%eax
# define SRC		%ecx
# define LEN		%edx
# define LEN32		%edx
# define MEMMOVE_ARGS				\
	movl	4(%esp), %eax;			\
	movl	8(%esp), %ecx;			\
	movl	12(%esp), %edx
# define DST_BLOCK	%edi	/* destination of the block in VEC(1-4) */
# define SRC_BLOCK	%esi	/* its source */
# define LIMIT		%ebx	/* where the loop stops: the tail (head) */
# define GOT		%ebx	/* before LIMIT is set */
# define DIST		%esi	/* dst - src or src - dst, before the loops */
# define DIST32		%esi
/* Below 16 bytes: 1-3 bytes through BYTE_TMP, ebx, saved for it, and
   WORD_TMP; 4 and 8 (MOVE_4, MOVE_8: the move and its two registers)
   through the low halves of VEC(0) and VEC(1), for want of 64-bit
   general registers and of free ones.  */
# define SMALL_SAVE	FC_PUSH (%ebx)
# define SMALL_RESTORE	FC_POP (%ebx)
# define BYTE_TMP	%ebx
# define BYTE_TMP8	%bl
# define WORD_TMP	%ecx
# define WORD_TMP16	%cx
# define MOVE_4		XMOVD, %XMM(0), %XMM(1)
# define MOVE_8		XMOVQ, %XMM(0), %XMM(1)
/* REP MOVSB's registers, the loops' (saved); the arguments are moved
   there.  */
# define REP_DST	%edi
# define REP_SRC	%esi
# define REP_CNT	%ecx
# define REP_CNT32	%ecx
# define REP_GAP	%ecx	/* src - dst */
# define REP_MOVSB_ARGS				\
	movl	%eax, %edi;			\
	movl	%ecx, %esi
/* The paths above 8 VEC: ebx, esi and edi saved, LAST_SLOT reserved and
   the GOT in GOT.  The return keeps the unwind information of the code
   after it: the registers still pushed.  Its ranges in the body map
   (body-range.h) take n from the stack: the registers that held it may
   be popped by then.  */
# define LAST_SLOT	(%esp)
# define PUSH_LOOP_REGS				\
	FC_PUSH (%ebx);				\
	FC_PUSH (%esi);				\
	FC_PUSH (%edi);				\
	subl	$VEC_SIZE, %esp;		\
	.cfi_adjust_cfa_offset VEC_SIZE;	\
	FC_GOT (bx, loop_regs)
# define POP_LOOP_REGS_RET(path)		\
	.cfi_remember_state;			\
	BODY_RANGE (path, 0, (FC_BODY_STACK_WORD + 6 + VEC_SIZE / 4), 1); \
	addl	$VEC_SIZE, %esp;		\
	.cfi_adjust_cfa_offset -VEC_SIZE;	\
	BODY_RANGE (path, 0, (FC_BODY_STACK_WORD + 6), 1); \
	FC_POP (%edi);				\
	BODY_RANGE (path, 0, (FC_BODY_STACK_WORD + 5), 1); \
	FC_POP (%esi);				\
	BODY_RANGE (path, 0, (FC_BODY_STACK_WORD + 4), 1); \
	FC_POP (%ebx);				\
	BODY_RANGE (path, 0, (FC_BODY_STACK_WORD + 3), 1); \
	ret;					\
	.cfi_restore_state
/* The perf register numbers of the registers the body map's ranges
   name (body-range.h): DST, LEN, LIMIT, REP MOVSB's count and
   destination, and eax, which holds dst from the start.  */
# define PERF_DST	FC_PERF_AX
# define PERF_LEN	FC_PERF_DX
# define PERF_LIMIT	FC_PERF_BX
# define PERF_REP_CNT	FC_PERF_CX
# define PERF_REP_DST	FC_PERF_DI
# define PERF_RET	FC_PERF_AX
/* The thunk PUSH_LOOP_REGS calls, where n is still in LEN.  */
# define BODY_THUNKS	FC_GOT_THUNK (bx, loop_regs, IMPL_ID, 0, FC_PERF_DX, 1)
#endif

#ifdef MEMSET
# define DST		%eax
# define LEN		%edx
# define LEN32		%edx
# define MEMSET_BYTE	8(%esp)	/* for BROADCAST_START */
# define MEMSET_ARGS				\
	movl	4(%esp), %eax;			\
	movl	12(%esp), %edx
/* The byte in a general register, for the sizes below 4: from XMM(0),
   where BROADCAST_START put it.  */
# define BYTE_REG	%cl
# define GET_BYTE_REG	XMOVD %XMM(0), %ecx
# define DST_BLOCK	%ecx	/* where the loop stores next */
# define LIMIT		%edx	/* where the tail starts (n is not needed
				   once it is known) */
# define GOT		%ecx	/* before DST_BLOCK is set */
# define GET_TUNABLES	FC_GOT (cx, tunables)
/* REP STOSB: n to ecx, dst to edi and the byte to al; edi is the
   caller's, kept in edx meanwhile, and dst is read again.  n stays in
   edx up to the exchange; from there it is taken from its argument
   (body-range.h).  That range opens at the exchange: opened before the
   moves, it would leave the REP range before it empty where VZEROUPPER
   is (sse2).  */
# define REP_STOSB_ARGS				\
	movl	%edi, %ecx;			\
	movl	%eax, %edi;			\
	XMOVD	%XMM(0), %eax;			\
	BODY_RANGE (REP, 0, (FC_BODY_STACK_WORD + 3), 1); \
	xchgl	%ecx, %edx
# define REP_STOSB_DONE				\
	movl	%edx, %edi;			\
	movl	4(%esp), %eax
# define PERF_DST	FC_PERF_AX
# define PERF_LEN	FC_PERF_DX
# define PERF_LIMIT	FC_PERF_DX
/* The thunk GET_TUNABLES calls, where n is still in LEN.  */
# define BODY_THUNKS	FC_GOT_THUNK (cx, tunables, IMPL_ID, 0, FC_PERF_DX, 1)
#endif

#endif
