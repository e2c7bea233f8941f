/* SPDX-License-Identifier: MIT */
/* For the assembly variants of x86-64: the tables of src/ as assembler
   symbols and VARIANT_BEGIN/VARIANT_END (sysdeps/x86/entry-common.h), and
   the code of the exported entry points that sit in front of a variant's
   body.  Which variant that is, and which ones they jump to directly, is
   src/entry-points.def's.

   The exported memcpy, memmove, their _chk forms and memcpy@GLIBC_2.2.5
   (copy), and memset and __memset_chk (clear) compare the family's entry
   byte, fc_copy_entry or fc_clear_entry, with 1: below, they fall into
   the host's body; equal, they jump to byte 1's; above, a chain of
   compares reaches the others, and the jump through the dispatch slot the
   rest.  */

#ifndef FASTCOPY_ENTRY_H
#define FASTCOPY_ENTRY_H 1

/* Hidden objects are reached PC-relative; thresholds are 8-byte words.  */
#define FC_WORD		8
#define FC_DATA(sym)	sym(%rip)
#include "entry-common.h"

/* The exported copy functions, in front of the host's body.  Code placement matters to the small-size paths
   (measured up to 1.5x on 8-15 byte copies between two placements of the
   same code): the exported entry starts a 64-byte line, the stubs its
   tests jump to sit in front of it, and it falls into the body with no
   padding between.  */
#define FC_ENTRY_POINTS_COPY(id)			\
	.p2align 6;					\
	.cfi_startproc;					\
.Lcopy_elsewhere:					\
	fc_copy_elsewhere;				\
.Lcopy_chk_fail:					\
	jmp	__chk_fail@PLT;				\
	.cfi_endproc;					\
	.globl	__memcpy_chk, __memmove_chk;		\
	.type	__memcpy_chk, @function;		\
	.type	__memmove_chk, @function;		\
__memcpy_chk:						\
__memmove_chk:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	cmpq	%rdx, %rcx;	/* dst_size < n */	\
	jb	.Lcopy_chk_fail;			\
	jmp	.Lcopy_entry;				\
	.cfi_endproc;					\
	.size	__memcpy_chk, . - __memcpy_chk;		\
	.size	__memmove_chk, . - __memmove_chk;	\
	/* The pre-2.14 memcpy, still referenced by old binaries: a	\
	   symbol of its own, since a second versioned name on memcpy's	\
	   address would replace memcpy@@GLIBC_2.14 in the link.  */	\
	.globl	memcpy_glibc_2_2_5;			\
	.type	memcpy_glibc_2_2_5, @function;		\
memcpy_glibc_2_2_5:					\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	jmp	.Lcopy_entry;				\
	.cfi_endproc;					\
	.size	memcpy_glibc_2_2_5, . - memcpy_glibc_2_2_5; \
	.symver	memcpy_glibc_2_2_5, memcpy@GLIBC_2.2.5;	\
	.p2align 6;					\
	.globl	memmove, memcpy;			\
	.type	memmove, @function;			\
	.type	memcpy, @function;			\
memmove:						\
memcpy:							\
.Lcopy_entry:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	cmpb	$1, fc_copy_entry(%rip);		\
	fc_copy_jump1;					\
	ja	.Lcopy_elsewhere

#define FC_ENTRY_POINTS_CLEAR(id)			\
	.p2align 6;					\
	.cfi_startproc;					\
.Lclear_elsewhere:					\
	fc_clear_elsewhere;				\
.Lclear_chk_fail:					\
	jmp	__chk_fail@PLT;				\
	.cfi_endproc;					\
	.globl	__memset_chk;				\
	.type	__memset_chk, @function;		\
__memset_chk:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	cmpq	%rdx, %rcx;	/* dst_size < n */	\
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
	cmpb	$1, fc_clear_entry(%rip);		\
	fc_clear_jump1;					\
	ja	.Lclear_elsewhere

#define FC_ENTRY_POINTS_END_COPY		\
	.size	memmove, . - memmove;		\
	.size	memcpy, . - memcpy
#define FC_ENTRY_POINTS_END_CLEAR		\
	.size	memset, . - memset

#endif
