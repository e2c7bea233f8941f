/* SPDX-License-Identifier: MIT */
/* MEMMOVE: memmove in general-purpose registers, no vector and no string
   instruction except REP MOVSB from rep_movsb_threshold with
   REP_FROM_THRESHOLD.  memmove-scalar.S and memmove-erms.S define MEMMOVE
   and IMPL_ID and include it.  A word W is the register's width: 8 bytes
   on x86-64, 4 on i386.

   Strategy, by size:
   1. n < 2 W: head and tail, possibly overlapping, of a word, 4 (x86-64),
      2 or 1 bytes, both loaded before either is stored.
   2. 2 W <= n <= 4 W: two words from the head and two from the tail, all
      loaded before any store.
   3. n > 4 W: 4 words per pass, forward unless dst lies inside
      (src, src+n), in which case backward.  The 4 words at the far end
      (the tail forward, the head backward) are loaded first and stored
      last, covering the remainder with overlapping stores; in between,
      each word is loaded and stored in the order of the pass, so that no
      store reaches a source word still to be read.  i386 keeps those 4
      words on the stack (pushed from memory, popped to memory), for want
      of registers.
   4. REP_FROM_THRESHOLD: n >= rep_movsb_threshold and dst not inside
      (src, src+n): forward REP MOVSB.  Backward REP MOVSB has no
      fast-string microcode, so overlap backward stays in registers.
   Nothing is read or written outside [src, src+n) and [dst, dst+n).

   The body map (body-range.h, doc/size-registers.md): n stays in LEN
   (rdx, edx) from the moment it is loaded, the REP MOVSB path included;
   i386 reads it from the stack before.  These were C over gcc's register
   allocation; in assembly the size is where the contract says.  */

#include "entry.h"

#ifdef __x86_64__
# define W		8
# define LEN		%rdx
# define TMP		%rax
# define SRC		%rsi
# define DST		%rdi
# define PASS		%rcx	/* a pass's offset in the buffers */
/* The compare of n with rep_movsb_threshold.  */
# define CMP_REP_THRESHOLD cmpq	fc_state+FC_OFFSET_REP_MOVSB(%rip), %rdx
#else
# define W		4
# define LEN		%edx
# define TMP		%esi
# define SRC		%ecx
# define DST		%eax
# define PASS		%ebx
/* The thunk reads the GOT's address into ecx, before any argument is
   loaded.  */
# define CMP_REP_THRESHOLD			\
	FC_GOT (cx, tunables);			\
	movl	12(%esp), %edx;			\
	cmpl	fc_state@GOTOFF+FC_OFFSET_REP_MOVSB(%ecx), %edx
#endif
#define IN_LEN		0, FC_PERF_DX, 1
/* The first and the last N bytes, possibly overlapping (any n from N to
   2 N), through registers A and B with the move MOV, both loaded before
   either is stored.  */
#define HEAD_TAIL(n, mov, a, b)				\
	mov	(SRC), a;				\
	mov	-n(SRC,LEN), b;				\
	mov	a, (DST);				\
	mov	b, -n(DST,LEN)
/* A pass of the loops over 4 words: those ending at PASS forward, those
   starting there backward, each word loaded and stored in the order of
   the pass, through TMP.  */
#define COPY_WORD(off)					\
	mov	off(SRC,PASS), TMP;			\
	mov	TMP, off(DST,PASS)
#define PASS_UP						\
	COPY_WORD (-(4 * W)); COPY_WORD (-(3 * W));	\
	COPY_WORD (-(2 * W)); COPY_WORD (-W)
#define PASS_DOWN					\
	COPY_WORD ((3 * W)); COPY_WORD ((2 * W));	\
	COPY_WORD (W); COPY_WORD (0)
/* A word of the buffers onto the stack and back (i386).  */
#define PUSH_WORD(mem)		pushl mem; .cfi_adjust_cfa_offset W
#define POP_WORD(mem)		popl mem; .cfi_adjust_cfa_offset -W

VARIANT_BEGIN (COPY, IMPL_ID, MEMMOVE)
#ifdef __x86_64__
	/* rdi dst, rsi src, rdx n; rax returns dst.  */
	movq	%rdi, %rax
# ifdef REP_FROM_THRESHOLD
	CMP_REP_THRESHOLD
	jb	.Lregisters
	movq	%rdi, %rcx
	subq	%rsi, %rcx
	cmpq	%rdx, %rcx
	jb	.Lregisters		/* dst inside (src, src+n) */
	BODY_RANGE (REP, IN_LEN)
	movq	%rdx, %rcx
	rep movsb
	ret
.Lregisters:
	BODY_RANGE (ENTRY, IN_LEN)
# endif
	cmpq	$(2 * W), %rdx
	jae	.Lmore_2w
	cmpl	$W, %edx
	jae	.Lbetween_8_15
	cmpl	$4, %edx
	jae	.Lbetween_4_7
	cmpl	$2, %edx
	jae	.Lbetween_2_3
	testl	%edx, %edx
	je	.Lreturn
	BODY_RANGE (CLASS, IN_LEN)
	movzbl	(%rsi), %ecx
	movb	%cl, (%rdi)
.Lreturn:
	ret
.Lbetween_2_3:
	BODY_RANGE (CLASS, IN_LEN)
	movzwl	(%rsi), %ecx
	movzwl	-2(%rsi,%rdx), %r8d
	movw	%cx, (%rdi)
	movw	%r8w, -2(%rdi,%rdx)
	ret
.Lbetween_4_7:
	BODY_RANGE (CLASS, IN_LEN)
	HEAD_TAIL (4, movl, %ecx, %r8d)
	ret
.Lbetween_8_15:
	BODY_RANGE (CLASS, IN_LEN)
	HEAD_TAIL (W, movq, %rcx, %r8)
	ret
.Lmore_2w:
	BODY_RANGE (ENTRY, IN_LEN)
	cmpq	$(4 * W), %rdx
	ja	.Lmore_4w
	BODY_RANGE (CLASS, IN_LEN)
	movq	(%rsi), %rcx
	movq	W(%rsi), %r8
	movq	-(2 * W)(%rsi,%rdx), %r9
	movq	-W(%rsi,%rdx), %r10
	movq	%rcx, (%rdi)
	movq	%r8, W(%rdi)
	movq	%r9, -(2 * W)(%rdi,%rdx)
	movq	%r10, -W(%rdi,%rdx)
	ret
#else
	/* eax dst, ecx src, edx n from the stack; eax returns dst.  */
# ifdef REP_FROM_THRESHOLD
	CMP_REP_THRESHOLD
	BODY_RANGE (ENTRY, IN_LEN)
	jb	.Lregisters
	movl	4(%esp), %eax
	subl	8(%esp), %eax
	cmpl	%edx, %eax
	jb	.Lregisters		/* dst inside (src, src+n) */
	BODY_RANGE (REP, IN_LEN)
	FC_STRING_ARGS
	movl	%edx, %ecx
	rep movsb
	FC_STRING_RET
.Lregisters:
	BODY_RANGE (ENTRY, 0, (FC_BODY_STACK_WORD + 3), 1)
# endif
	movl	4(%esp), %eax
	movl	8(%esp), %ecx
	movl	12(%esp), %edx
	BODY_RANGE (ENTRY, IN_LEN)
	cmpl	$(2 * W), %edx
	jae	.Lmore_2w
	cmpl	$2, %edx
	jae	.Lbetween_2_3
	testl	%edx, %edx
	je	.Lreturn
	BODY_RANGE (CLASS, IN_LEN)
	movzbl	(%ecx), %ecx
	movb	%cl, (%eax)
.Lreturn:
	ret
.Lbetween_2_3:
	/* 2..7 bytes: 2 or 4 from the head and from the tail, through ebx
	   and the source's own register.  */
	BODY_RANGE (CLASS, IN_LEN)
	FC_PUSH (%ebx)
	cmpl	$4, %edx
	jae	.Lbetween_4_7
	movzwl	(%ecx), %ebx
	movzwl	-2(%ecx,%edx), %ecx
	movw	%bx, (%eax)
	movw	%cx, -2(%eax,%edx)
	FC_POP (%ebx)
	ret
	.cfi_adjust_cfa_offset 4
	.cfi_rel_offset %ebx, 0
.Lbetween_4_7:
	HEAD_TAIL (4, movl, %ebx, %ecx)
	FC_POP (%ebx)
	ret
.Lmore_2w:
	BODY_RANGE (ENTRY, IN_LEN)
	cmpl	$(4 * W), %edx
	ja	.Lmore_4w
	BODY_RANGE (CLASS, IN_LEN)
	FC_PUSH (%ebx)
	FC_PUSH (%esi)
	FC_PUSH (%edi)
	movl	(%ecx), %ebx
	movl	W(%ecx), %esi
	movl	-(2 * W)(%ecx,%edx), %edi
	movl	-W(%ecx,%edx), %ecx
	movl	%ebx, (%eax)
	movl	%esi, W(%eax)
	movl	%edi, -(2 * W)(%eax,%edx)
	movl	%ecx, -W(%eax,%edx)
	FC_POP (%edi)
	FC_POP (%esi)
	FC_POP (%ebx)
	ret
#endif

.Lmore_4w:
	BODY_RANGE (ENTRY, IN_LEN)
#ifdef __x86_64__
	movq	%rdi, %rcx
	subq	%rsi, %rcx
	cmpq	%rdx, %rcx
	jb	.Lbackward		/* dst inside (src, src+n) */
	/* Forward: the last 4 words into r8-r11, then passes of 4 words
	   ending at rcx, the first at 4 W.  */
	BODY_RANGE (LOOP, IN_LEN)
	movq	-(4 * W)(%rsi,%rdx), %r8
	movq	-(3 * W)(%rsi,%rdx), %r9
	movq	-(2 * W)(%rsi,%rdx), %r10
	movq	-W(%rsi,%rdx), %r11
	movl	$(4 * W), %ecx
.Lloop:
	PASS_UP
	addq	$(4 * W), %rcx
	cmpq	%rdx, %rcx
	jb	.Lloop
	movq	%r8, -(4 * W)(%rdi,%rdx)
	movq	%r9, -(3 * W)(%rdi,%rdx)
	movq	%r10, -(2 * W)(%rdi,%rdx)
	movq	%r11, -W(%rdi,%rdx)
	movq	%rdi, %rax
	ret

.Lbackward:
	/* The first 4 words into r8-r11, then passes of 4 words from the
	   end down, starting at rcx, down to the first 4 W.  */
	BODY_RANGE (BACKWARD, IN_LEN)
	movq	(%rsi), %r8
	movq	W(%rsi), %r9
	movq	(2 * W)(%rsi), %r10
	movq	(3 * W)(%rsi), %r11
	movq	%rdx, %rcx
.Lback_loop:
	subq	$(4 * W), %rcx
	PASS_DOWN
	cmpq	$(4 * W), %rcx
	ja	.Lback_loop
	movq	%r8, (%rdi)
	movq	%r9, W(%rdi)
	movq	%r10, (2 * W)(%rdi)
	movq	%r11, (3 * W)(%rdi)
	movq	%rdi, %rax
	ret
#else
	FC_PUSH (%ebx)
	FC_PUSH (%esi)
	movl	%eax, %ebx
	subl	%ecx, %ebx
	cmpl	%edx, %ebx
	jb	.Lbackward		/* dst inside (src, src+n) */
	/* Forward: the last 4 words pushed, then passes of 4 words ending
	   at ebx, the first at 4 W.  */
	BODY_RANGE (LOOP, IN_LEN)
	PUSH_WORD (-W(%ecx,%edx))
	PUSH_WORD (-(2 * W)(%ecx,%edx))
	PUSH_WORD (-(3 * W)(%ecx,%edx))
	PUSH_WORD (-(4 * W)(%ecx,%edx))
	movl	$(4 * W), %ebx
.Lloop:
	PASS_UP
	addl	$(4 * W), %ebx
	cmpl	%edx, %ebx
	jb	.Lloop
	POP_WORD (-(4 * W)(%eax,%edx))
	POP_WORD (-(3 * W)(%eax,%edx))
	POP_WORD (-(2 * W)(%eax,%edx))
	POP_WORD (-W(%eax,%edx))
	FC_POP (%esi)
	FC_POP (%ebx)
	ret

	.cfi_adjust_cfa_offset (2 * W)
	.cfi_rel_offset %ebx, W
	.cfi_rel_offset %esi, 0
.Lbackward:
	/* The first 4 words pushed, then passes of 4 words from the end
	   down, starting at ebx, down to the first 4 W.  */
	BODY_RANGE (BACKWARD, IN_LEN)
	PUSH_WORD ((3 * W)(%ecx))
	PUSH_WORD ((2 * W)(%ecx))
	PUSH_WORD (W(%ecx))
	PUSH_WORD ((%ecx))
	movl	%edx, %ebx
.Lback_loop:
	subl	$(4 * W), %ebx
	PASS_DOWN
	cmpl	$(4 * W), %ebx
	ja	.Lback_loop
	POP_WORD ((%eax))
	POP_WORD (W(%eax))
	POP_WORD ((2 * W)(%eax))
	POP_WORD ((3 * W)(%eax))
	FC_POP (%esi)
	FC_POP (%ebx)
	ret
#endif
VARIANT_END (COPY, IMPL_ID, MEMMOVE)
#if defined __i386__ && defined REP_FROM_THRESHOLD
FC_GOT_THUNK (cx, tunables, IMPL_ID, 0, (FC_BODY_STACK_WORD + 4), 1)
#endif

	.section .note.GNU-stack, "", @progbits
