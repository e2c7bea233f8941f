/* SPDX-License-Identifier: MIT */
/* For the assembly variants of x86-64: the tables of src/ as assembler
   symbols and VARIANT_BEGIN/VARIANT_END (sysdeps/x86/entry-common.h), and
   what x86-64's exported entry points, which sit in front of a variant's
   body, need (their code is entry-common.h's).  Which variant that is,
   and which ones they jump to directly, is src/entry-points.def's.

   The exported functions are memcpy, memmove, their _chk forms and
   memcpy@GLIBC_2.2.5 (copy), and memset and __memset_chk (clear).  */

#ifndef FASTCOPY_ENTRY_H
#define FASTCOPY_ENTRY_H 1

/* Hidden objects are reached PC-relative; thresholds are 8-byte words.  */
#define FC_WORD		8
#define FC_DATA(sym)	sym(%rip)

/* The entry points (entry-common.h): the _chk forms' destination size is
   in rcx, n in rdx.  */
#define FC_ENTRY_GOT
#define FC_CHK_COMPARE	cmpq %rdx, %rcx
#define FC_CHK_FAIL	jmp __chk_fail@PLT
/* The pre-2.14 memcpy, still referenced by old binaries: a symbol of its
   own, since a second versioned name on memcpy's address would replace
   memcpy@@GLIBC_2.14 in the link.  */
#define FC_COPY_OLD_ENTRIES				\
	.globl	memcpy_glibc_2_2_5;			\
	.type	memcpy_glibc_2_2_5, @function;		\
memcpy_glibc_2_2_5:					\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	jmp	.Lcopy_entry;				\
	.cfi_endproc;					\
	.size	memcpy_glibc_2_2_5, . - memcpy_glibc_2_2_5; \
	.symver	memcpy_glibc_2_2_5, memcpy@GLIBC_2.2.5

/* memmove's test (entry-common.h): dst and src less than SPAN bytes
   apart, dst - src + SPAN - 1 <= 2 SPAN - 2 unsigned, for a jbe.  With
   the compare and the jumps before it and the ENDBR64, memmove is
   FC_MOVE_BYTES long.  */
#define FC_MOVE_TEST(span)				\
	leaq	((span) - 1)(%rdi), %rcx;		\
	subq	%rsi, %rcx;				\
	cmpq	$(2 * (span) - 2), %rcx
#ifdef __CET__
# define FC_MOVE_BYTES	46
#else
# define FC_MOVE_BYTES	42
#endif

/* n arrives in rdx, and the entry points reach the GOT through none.  */
#define FC_SIZE_AT_ENTRY	0, FC_PERF_DX, 1
#define FC_ENTRY_THUNKS_COPY
#define FC_ENTRY_THUNKS_CLEAR

#include "entry-common.h"

#endif
