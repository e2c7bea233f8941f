/* SPDX-License-Identifier: MIT */
/* For the assembly variants of i386: the tables of src/ as assembler
   symbols and VARIANT_BEGIN/VARIANT_END (sysdeps/x86/entry-common.h), the
   exported entry points that sit in front of a variant's body, and the
   GOT address that i386 code needs to reach any data.

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
   host in src/entry-points.def and work as on x86-64
   (sysdeps/x86_64/entry.h).  i386's glibc has one memcpy,
   memcpy@GLIBC_2.0, so there is no second one here.  */

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

/* glibc's fortify failure, which does not return: through the PLT, which
   in i386 position-independent code wants the GOT in EBX.  */
#define FC_CHK_FAIL					\
	FC_GOT (bx);					\
	jmp	__chk_fail@PLT

/* The exported copy functions, in front of the host's body: the exported
   entry starts a 64-byte line and falls into
   the body, as on x86-64.  */
#define FC_ENTRY_POINTS_COPY(id)			\
	.p2align 6;					\
	.cfi_startproc;					\
.Lcopy_elsewhere:					\
	fc_copy_elsewhere;				\
.Lcopy_chk_fail:					\
	FC_CHK_FAIL;					\
	.cfi_endproc;					\
	.globl	__memcpy_chk, __memmove_chk;		\
	.type	__memcpy_chk, @function;		\
	.type	__memmove_chk, @function;		\
__memcpy_chk:						\
__memmove_chk:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	movl	16(%esp), %eax;				\
	cmpl	12(%esp), %eax;	/* dst_size < n */	\
	jb	.Lcopy_chk_fail;			\
	jmp	.Lcopy_entry;				\
	.cfi_endproc;					\
	.size	__memcpy_chk, . - __memcpy_chk;		\
	.size	__memmove_chk, . - __memmove_chk;	\
	.p2align 6;					\
	.globl	memmove, memcpy;			\
	.type	memmove, @function;			\
	.type	memcpy, @function;			\
memmove:						\
memcpy:							\
.Lcopy_entry:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	FC_GOT (cx);					\
	cmpb	$1, FC_DATA (fc_copy_entry);		\
	fc_copy_jump1;					\
	ja	.Lcopy_elsewhere

#define FC_ENTRY_POINTS_CLEAR(id)			\
	.p2align 6;					\
	.cfi_startproc;					\
.Lclear_elsewhere:					\
	fc_clear_elsewhere;				\
.Lclear_chk_fail:					\
	FC_CHK_FAIL;					\
	.cfi_endproc;					\
	.globl	__memset_chk;				\
	.type	__memset_chk, @function;		\
__memset_chk:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	movl	16(%esp), %eax;				\
	cmpl	12(%esp), %eax;	/* dst_size < n */	\
	jb	.Lclear_chk_fail;			\
	jmp	.Lclear_entry;				\
	.cfi_endproc;					\
	.size	__memset_chk, . - __memset_chk;		\
	.p2align 6;					\
	.globl	memset;					\
	.type	memset, @function;			\
memset:							\
.Lclear_entry:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	FC_GOT (cx);					\
	cmpb	$1, FC_DATA (fc_clear_entry);		\
	fc_clear_jump1;					\
	ja	.Lclear_elsewhere

#define FC_ENTRY_POINTS_END_COPY		\
	.size	memmove, . - memmove;		\
	.size	memcpy, . - memcpy
#define FC_ENTRY_POINTS_END_CLEAR		\
	.size	memset, . - memset

#endif
