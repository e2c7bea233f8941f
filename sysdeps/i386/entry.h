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
   host in src/entry-points.def, as on x86-64.  i386's glibc has one
   memcpy, memcpy@GLIBC_2.0, so there is no second one here.  */

#ifndef FASTCOPY_ENTRY_H
#define FASTCOPY_ENTRY_H 1

/* Thresholds are 4-byte words; the entry points keep the GOT in ECX.  */
#define FC_WORD		4
#define FC_DATA(sym)	sym@GOTOFF(%ecx)
#include "entry-common.h"

/* REG (bx, cx...): the GOT's address into %eREG.  The thunk is GCC's:
   the same name in a COMDAT group, so the link keeps one copy.  The add
   must follow the call: GOTPC is relative to the return address.  */
#define FC_GOT(reg)					\
	call	__x86.get_pc_thunk.reg;			\
	addl	$_GLOBAL_OFFSET_TABLE_, %e##reg

	.macro	fc_pc_thunk reg
	.pushsection .text.__x86.get_pc_thunk.\reg, "axG", @progbits, __x86.get_pc_thunk.\reg, comdat
	.globl	__x86.get_pc_thunk.\reg
	.hidden	__x86.get_pc_thunk.\reg
	.type	__x86.get_pc_thunk.\reg, @function
__x86.get_pc_thunk.\reg:
	.cfi_startproc
	movl	(%esp), %e\reg
	ret
	.cfi_endproc
	.size	__x86.get_pc_thunk.\reg, . - __x86.get_pc_thunk.\reg
	.popsection
	.endm
	fc_pc_thunk bx
	fc_pc_thunk cx

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

/* The entry points (entry-common.h): FC_DATA wants the GOT in ECX; the
   _chk forms' destination size is at 16(%esp), n at 12(%esp).  glibc's
   fortify failure, which does not return, is reached through the PLT,
   which in i386 position-independent code wants the GOT in EBX.  */
#define FC_ENTRY_GOT	FC_GOT (cx)
#define FC_CHK_COMPARE					\
	movl	16(%esp), %eax;				\
	cmpl	12(%esp), %eax
#define FC_CHK_FAIL					\
	FC_GOT (bx);					\
	jmp	__chk_fail@PLT
#define FC_COPY_OLD_ENTRIES

#endif
