/* SPDX-License-Identifier: MIT */
/* memset_fsrm: REP STOSB for every size.

   The body map (body-range.h, doc/size-registers.md): n stays in LEN
   (rdx, edx) from the moment it is loaded; i386 reads it from the stack
   before.  */

#include "entry.h"

#define MEMSET		memset_fsrm
#define IMPL_ID		CLEAR_FSRM
#define IN_LEN		0, FC_PERF_DX, 1

VARIANT_BEGIN (CLEAR, IMPL_ID, MEMSET)
#ifdef __x86_64__
	/* rdi dst, esi the byte, rdx n; dst waits in r8 to be returned.  */
	movq	%rdi, %r8
	BODY_RANGE (REP, IN_LEN)
	movq	%rdx, %rcx
	movl	%esi, %eax
	rep stosb
	movq	%r8, %rax
	ret
#else
	/* edi dst (saved), eax the byte, edx n from the stack.  */
	movl	12(%esp), %edx
	BODY_RANGE (REP, IN_LEN)
	FC_REP_STOSB_RET
#endif
VARIANT_END (CLEAR, IMPL_ID, MEMSET)

	.section .note.GNU-stack, "", @progbits
