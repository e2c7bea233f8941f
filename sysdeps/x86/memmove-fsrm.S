/* SPDX-License-Identifier: MIT */
/* memmove_fsrm: REP MOVSB for every size, the seed policy for FSRM CPUs,
   forward unless dst lies inside (src, src+n); then from the last byte
   down with the direction flag set (no fast-string microcode, so slow,
   but what a pure string-instruction variant can do; the ABI wants the
   flag clear again on return).  Assumptions: none beyond x86-64 or i686;
   FSRM makes short REP MOVSB cheap.

   The body map (body-range.h, doc/size-registers.md): n stays in LEN
   (rdx, edx) from the moment it is loaded; i386 reads it from the stack
   before.  */

#include "entry.h"

#define MEMMOVE		memmove_fsrm
#define IMPL_ID		COPY_FSRM
#define IN_LEN		0, FC_PERF_DX, 1

VARIANT_BEGIN (COPY, IMPL_ID, MEMMOVE)
#ifdef __x86_64__
	/* rdi dst, rsi src, rdx n; rax returns dst.  */
	movq	%rdi, %rax
	movq	%rdi, %rcx
	subq	%rsi, %rcx
	cmpq	%rdx, %rcx
	jb	.Lbackward		/* dst inside (src, src+n) */
	BODY_RANGE (REP, IN_LEN)
	movq	%rdx, %rcx
	rep movsb
	ret
.Lbackward:
	BODY_RANGE (BACKWARD, IN_LEN)
	leaq	-1(%rdi,%rdx), %rdi
	leaq	-1(%rsi,%rdx), %rsi
	movq	%rdx, %rcx
	std
	rep movsb
	cld
	ret
#else
	/* edi dst, esi src (saved), edx n from the stack; eax returns
	   dst.  */
	movl	12(%esp), %edx
	BODY_RANGE (ENTRY, IN_LEN)
	FC_STRING_ARGS
	movl	%edi, %eax
	subl	%esi, %eax
	cmpl	%edx, %eax
	jb	.Lbackward		/* dst inside (src, src+n) */
	BODY_RANGE (REP, IN_LEN)
	movl	%edx, %ecx
	rep movsb
	FC_STRING_RET
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %esi, 4
	.cfi_rel_offset %edi, 0
.Lbackward:
	BODY_RANGE (BACKWARD, IN_LEN)
	leal	-1(%edi,%edx), %edi
	leal	-1(%esi,%edx), %esi
	movl	%edx, %ecx
	std
	rep movsb
	cld
	FC_STRING_RET
#endif
VARIANT_END (COPY, IMPL_ID, MEMMOVE)

	.section .note.GNU-stack, "", @progbits
