/* SPDX-License-Identifier: MIT */
/* The x86-64 ABI of the vector bodies (sysdeps/x86/memmove-vec.S,
   memset-vec.S), as vec-<isa>.h is their ISA: where the arguments are,
   which registers each body uses for what, and how it reaches the
   thresholds.  sysdeps/i386/vec-abi.h defines the same names.

   Arguments in rdi, rsi and rdx; rax returns dst; rcx, rsi, rdi and
   r8-r11 are the callee's, so nothing is saved.  Pointer-width
   instructions in the bodies carry no size suffix: their register
   operands give it.  */

#ifndef FASTCOPY_VEC_ABI_H
#define FASTCOPY_VEC_ABI_H 1

/* Vector registers: 16 (32 with AVX-512), so the loops keep two blocks
   in flight besides the head and the tail.  */
#define VEC_REGS	16

/* The threshold KEY (keys.def) of fc_state.tunables, PC-relative.  */
#define TUNABLE(key)	fc_state+FC_OFFSET_##key(%rip)
#define CMP_WORD	cmpq		/* a compare with a threshold word */

#ifdef MEMMOVE
# define DST		%rdi
# define SRC		%rsi
# define LEN		%rdx
# define LEN32		%edx
# define MEMMOVE_ARGS	movq %rdi, %rax
# define DST_BLOCK	%rcx	/* destination of the block in VEC(1-4) */
# define SRC_BLOCK	%r8	/* source of the next block to load */
# define LIMIT		%r9	/* where the loop stops: the tail (head) */
# define NEXT_BLOCK	%r10	/* the pipelined loops' second block */
# define PAIRS		%r11	/* page pairs left to stream */
# define PAIR_LINES	%edx	/* blocks left in the pair of pages (n is
				   not needed once streaming) */
# define DIST		%rcx	/* dst - src or src - dst, before the loops */
# define DIST32		%ecx
/* Below 16 bytes, general registers: 1-3 bytes through BYTE_TMP and
   WORD_TMP, 4 and 8 (MOVE_4, MOVE_8: the move and its two registers)
   through ecx and esi.  None needs saving.  */
# define SMALL_SAVE
# define SMALL_RESTORE
# define BYTE_TMP	%ecx
# define BYTE_TMP8	%cl
# define WORD_TMP	%esi
# define WORD_TMP16	%si
# define MOVE_4		movl, %ecx, %esi
# define MOVE_8		movq, %rcx, %rsi
/* REP MOVSB's registers; the arguments are in them already.  */
# define REP_DST	%rdi
# define REP_SRC	%rsi
# define REP_CNT	%rcx
# define REP_CNT32	%ecx
# define REP_GAP	%r8	/* src - dst */
# define REP_MOVSB_ARGS
/* The paths above 8 VEC use only the callee's registers.  */
# define PUSH_LOOP_REGS
# define POP_LOOP_REGS_RET(path)	ret
/* The perf register numbers of the registers the body map's ranges
   name (body-range.h): DST, LEN, LIMIT, REP MOVSB's count and
   destination, and rax, which holds dst from the start.  */
# define PERF_DST	FC_PERF_DI
# define PERF_LEN	FC_PERF_DX
# define PERF_LIMIT	FC_PERF_R9
# define PERF_REP_CNT	FC_PERF_CX
# define PERF_REP_DST	FC_PERF_DI
# define PERF_RET	FC_PERF_AX
#endif

#ifdef MEMSET
# define DST		%rdi
# define LEN		%rdx
# define LEN32		%edx
# define MEMSET_BYTE	%esi	/* for BROADCAST_START */
# define MEMSET_ARGS	movq %rdi, %rax
/* The byte in a general register, for the sizes below 4: its argument
   register.  */
# define BYTE_REG	%sil
# define GET_BYTE_REG
# define DST_BLOCK	%rcx	/* where the loop stores next */
# define LIMIT		%rdx	/* where the tail starts (n is not needed
				   once it is known) */
# define PAIRS		%r9	/* page pairs left to stream */
# define PAIR_LINES	%r8d	/* blocks left in the pair of pages */
# define GET_TUNABLES
/* REP STOSB: n to rcx and the byte to al; dst, in rdi already, is kept
   in rdx meanwhile to be returned.  n is in rdx, then in rcx, then
   rcx + rdi - rdx while rdi moves on.  */
# define REP_STOSB_ARGS				\
	movq	%rdx, %rcx;			\
	BODY_RANGE (REP, 0, FC_PERF_CX, 1);	\
	movl	%esi, %eax;			\
	movq	%rdi, %rdx;			\
	BODY_RANGE (REP, 0, FC_PERF_CX, 1, FC_PERF_DI, 1, FC_PERF_DX, -1)
# define REP_STOSB_DONE	movq %rdx, %rax
# define PERF_DST	FC_PERF_DI
# define PERF_LEN	FC_PERF_DX
# define PERF_LIMIT	FC_PERF_DX
#endif

/* The thunks the body calls (sysdeps/i386/vec-abi.h): none.  */
#define BODY_THUNKS

#endif
