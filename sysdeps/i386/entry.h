/* SPDX-License-Identifier: MIT */
/* For the assembly variants of i386: the tables of src/ as assembler
   symbols and VARIANT_BEGIN/VARIANT_END (sysdeps/x86/entry-common.h),
   what i386's exported entry points, which sit in front of a variant's
   body, need (their code is entry-common.h's), and the GOT address that
   i386 code needs to reach any data.

   Arguments are on the stack: 4(%esp) the destination, 8(%esp) the
   source or the byte, 12(%esp) the size, 16(%esp) the _chk forms'
   destination size.  EAX, ECX and EDX are free to use; the variants save
   EBX, ESI and EDI before they use them.

   i386 has no PC-relative data access: position-independent code reaches
   a hidden object at its link-time offset from the GOT, whose address a
   thunk's return address gives (FC_GOT).  Neither the offset nor the
   GOT address needs a dynamic relocation.

   The exported memcpy, memmove and their _chk forms (copy), and memset and
   __memset_chk (clear) are emitted in front of the body of the family's
   entry variant in src/entry-points.def, as on x86-64.  i386's glibc has one
   memcpy, memcpy@GLIBC_2.0, so there is no second one here.  */

#ifndef FASTCOPY_ENTRY_H
#define FASTCOPY_ENTRY_H 1

/* Thresholds are 4-byte words; the entry points keep the GOT in ECX.  */
#define FC_WORD		4
#define FC_DATA(sym)	sym@GOTOFF(%ecx)
#include "entry-common.h"

/* REG (bx, cx...): the GOT's address into %eREG, from the thunk
   .Lfc_got_THUNK.  The add must follow the call: GOTPC is relative to the
   return address.  Each body has its own thunks, emitted after it by
   FC_GOT_THUNK, rather than sharing GCC's __x86.get_pc_thunk.REG: in the
   body map a thunk is a range of the body that calls it, with the size
   where that caller keeps it (body-range.h).  */
#define FC_GOT(reg, thunk)				\
	call	.Lfc_got_##thunk;			\
	addl	$_GLOBAL_OFFSET_TABLE_, %e##reg

/* The thunk .Lfc_got_THUNK into %eREG, a range of IMPL's (body-range.h)
   where the size is the rest, BODY_RANGE's CONSTANT and terms.  */
#define FC_GOT_THUNK(reg, thunk, impl, ...)		\
	.cfi_startproc;					\
.Lfc_got_##thunk:					\
	movl	(%esp), %e##reg;			\
	ret;						\
.Lfc_got_##thunk##_end:					\
	.cfi_endproc;					\
	fc_body_record .Lfc_got_##thunk, .Lfc_got_##thunk##_end, impl, \
		FC_BODY_PATH_ENTRY, __VA_ARGS__

/* PUSH/POP of a register saved for the caller, with its unwind
   information.  */
#define FC_PUSH(reg)					\
	pushl	reg;					\
	.cfi_adjust_cfa_offset 4;			\
	.cfi_rel_offset reg, 0
#define FC_POP(reg)					\
	popl	reg;					\
	.cfi_adjust_cfa_offset -4;			\
	.cfi_restore reg

/* The string instructions of the register and REP variants
   (memmove-gpr.S, memmove-fsrm.S, memset-gpr.S, memset-fsrm.S), n in
   edx: FC_STRING_ARGS saves esi and edi and loads them with src and
   dst, and FC_STRING_RET restores them and returns dst; FC_REP_STOSB_RET
   is all of a memset by REP STOSB.  */
#define FC_STRING_ARGS					\
	FC_PUSH (%esi);					\
	FC_PUSH (%edi);					\
	movl	12(%esp), %edi;				\
	movl	16(%esp), %esi
#define FC_STRING_RET					\
	FC_POP (%edi);					\
	FC_POP (%esi);					\
	movl	4(%esp), %eax;				\
	ret
#define FC_REP_STOSB_RET				\
	FC_PUSH (%edi);					\
	movl	8(%esp), %edi;				\
	movzbl	12(%esp), %eax;				\
	movl	%edx, %ecx;				\
	rep stosb;					\
	FC_POP (%edi);					\
	movl	4(%esp), %eax;				\
	ret

/* The entry points (entry-common.h): FC_DATA wants the GOT in ECX; the
   _chk forms' destination size is at 16(%esp), n at 12(%esp).  glibc's
   fortify failure, which does not return, is reached through the PLT,
   which in i386 position-independent code wants the GOT in EBX.  */
#define FC_ENTRY_GOT	FC_GOT (cx, entry)
#define FC_CHK_COMPARE					\
	movl	16(%esp), %eax;				\
	cmpl	12(%esp), %eax
#define FC_CHK_FAIL					\
	FC_GOT (bx, chk_fail);				\
	jmp	__chk_fail@PLT
#define FC_COPY_OLD_ENTRIES

/* n is the third argument on the stack, under the return address: at
   the first instruction, and inside a thunk the entry points call, one
   word further.  */
#define FC_SIZE_AT_ENTRY	0, (FC_BODY_STACK_WORD + 3), 1
#define FC_ENTRY_THUNKS(family)					\
	FC_GOT_THUNK (cx, entry, ENTRY_##family, 0, (FC_BODY_STACK_WORD + 4), 1); \
	FC_GOT_THUNK (bx, chk_fail, ENTRY_##family, 0, (FC_BODY_STACK_WORD + 4), 1)
#define FC_ENTRY_THUNKS_COPY	FC_ENTRY_THUNKS (COPY)
#define FC_ENTRY_THUNKS_CLEAR	FC_ENTRY_THUNKS (CLEAR)

#endif
