/* SPDX-License-Identifier: MIT */
/* MEMSET: memset in general-purpose registers, no vector and no string
   instruction except REP STOSB from rep_stosb_threshold with
   REP_FROM_THRESHOLD.  memset-scalar.S and memset-erms.S define MEMSET
   and IMPL_ID and include it.  A word W is the register's width: 8 bytes
   on x86-64, 4 on i386.

   Strategy, by size, with the byte in every byte of a word:
   1. n < 2 W: head and tail stores, possibly overlapping, of a word, 4
      (x86-64), 2 or 1 bytes.
   2. 2 W <= n <= 4 W: two words at the head and two at the tail.
   3. n > 4 W: passes of 4 words, the first at dst, then the last 4 words
      of the buffer, covering the remainder with overlapping stores.
   4. REP_FROM_THRESHOLD: n >= rep_stosb_threshold: REP STOSB.

   The body map (body-range.h, doc/size-registers.md): n stays in LEN
   (rdx, edx) from the moment it is loaded, the REP STOSB path included;
   i386 reads it from the stack before.  */

#include "entry.h"

#ifdef __x86_64__
# define W		8
# define LEN_REG	%rdx
# define V		%rcx		/* the byte in every byte */
# define DST		%rdi
# define END		%r8		/* where a pass ends */
#else
# define W		4
# define LEN_REG	%edx
# define V		%ecx
# define DST		%eax
# define END		%ebx
#endif
#define IN_LEN		0, FC_PERF_DX, 1
/* The 4 words that end at DST + AT.  */
#define SET_4_WORDS(at)					\
	mov	V, -(4 * W)(DST,at);			\
	mov	V, -(3 * W)(DST,at);			\
	mov	V, -(2 * W)(DST,at);			\
	mov	V, -W(DST,at)

VARIANT_BEGIN (CLEAR, IMPL_ID, MEMSET)
#ifdef __x86_64__
	/* rdi dst, esi the byte, rdx n; rax returns dst.  */
	movq	%rdi, %rax
# ifdef REP_FROM_THRESHOLD
	cmpq	fc_state+FC_OFFSET_REP_STOSB(%rip), %rdx
	jb	.Lregisters
	BODY_RANGE (REP, IN_LEN)
	movq	%rdx, %rcx
	movl	%esi, %eax
	movq	%rdi, %r8
	rep stosb
	movq	%r8, %rax
	ret
.Lregisters:
	BODY_RANGE (ENTRY, IN_LEN)
# endif
	movzbl	%sil, %ecx
	movabsq	$0x0101010101010101, %r8
	imulq	%r8, %rcx		/* the byte in every byte */
#else
	/* eax dst, ecx the byte, edx n from the stack; eax returns dst.  */
# ifdef REP_FROM_THRESHOLD
	/* The thunk reads the GOT's address into ecx, before any argument
	   is loaded.  */
	FC_GOT (cx, tunables)
	movl	12(%esp), %edx
	cmpl	fc_state@GOTOFF+FC_OFFSET_REP_STOSB(%ecx), %edx
	BODY_RANGE (ENTRY, IN_LEN)
	jb	.Lregisters
	BODY_RANGE (REP, IN_LEN)
	FC_REP_STOSB_RET
.Lregisters:
	BODY_RANGE (ENTRY, 0, (FC_BODY_STACK_WORD + 3), 1)
# endif
	movl	4(%esp), %eax
	movzbl	8(%esp), %ecx
	movl	12(%esp), %edx
	BODY_RANGE (ENTRY, IN_LEN)
	imull	$0x01010101, %ecx, %ecx	/* the byte in every byte */
#endif
	cmp	$(2 * W), LEN_REG
	jae	.Lmore_2w
#ifdef __x86_64__
	cmpl	$W, %edx
	jae	.Lbetween_8_15
#endif
	cmpl	$4, %edx
	jae	.Lbetween_4_7
	cmpl	$2, %edx
	jae	.Lbetween_2_3
	testl	%edx, %edx
	je	.Lreturn
	BODY_RANGE (CLASS, IN_LEN)
	movb	%cl, (DST)
.Lreturn:
	ret
.Lbetween_2_3:
	BODY_RANGE (CLASS, IN_LEN)
	movw	%cx, (DST)
	movw	%cx, -2(DST,LEN_REG)
	ret
.Lbetween_4_7:
	BODY_RANGE (CLASS, IN_LEN)
	movl	%ecx, (DST)
	movl	%ecx, -4(DST,LEN_REG)
	ret
#ifdef __x86_64__
.Lbetween_8_15:
	BODY_RANGE (CLASS, IN_LEN)
	movq	V, (DST)
	movq	V, -W(DST,LEN_REG)
	ret
#endif

.Lmore_2w:
	BODY_RANGE (ENTRY, IN_LEN)
	cmp	$(4 * W), LEN_REG
	ja	.Lmore_4w
	BODY_RANGE (CLASS, IN_LEN)
	mov	V, (DST)
	mov	V, W(DST)
	mov	V, -(2 * W)(DST,LEN_REG)
	mov	V, -W(DST,LEN_REG)
	ret

.Lmore_4w:
	/* Passes of 4 words ending at END, the first at 4 W, while that is
	   below n; then the last 4 words.  */
	BODY_RANGE (LOOP, IN_LEN)
#ifdef __i386__
	FC_PUSH (%ebx)
#endif
	mov	$(4 * W), END
.Lloop:
	SET_4_WORDS (END)
	add	$(4 * W), END
	cmp	LEN_REG, END
	jb	.Lloop
	SET_4_WORDS (LEN_REG)
#ifdef __i386__
	FC_POP (%ebx)
#endif
	ret
VARIANT_END (CLEAR, IMPL_ID, MEMSET)
#if defined __i386__ && defined REP_FROM_THRESHOLD
FC_GOT_THUNK (cx, tunables, IMPL_ID, 0, (FC_BODY_STACK_WORD + 4), 1)
#endif

	.section .note.GNU-stack, "", @progbits
