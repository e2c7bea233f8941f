/* For the assembly variants: the tables of src/ as assembler symbols, and
   the exported entry points that sit in front of a variant's body.

   From keys.def:      FC_OFFSET_<key>, the byte offset of the key's word
		       in fc_load.tunables (load-state.h).
   From impl-list.def: FC_RANK_<impl>, the rank of an ENTRY implementation
		       among its family's (0, 1, ...), or 0xff.

   The exported memcpy, memmove, their _chk forms and memcpy@GLIBC_2.2.5
   (copy), and memset and __memset_chk (clear) are emitted in front of the
   body of the family's ENTRY implementation of rank 0, which they fall
   into when it is selected.  They reach the one of rank 1 with a direct
   jump on the same compare, those of higher ranks through a chain of
   compares, and the rest through the dispatch slot.  resolve.c writes the
   byte they compare, fc_copy_entry or fc_clear_entry: the selected
   implementation's rank.  The jump through the slot measured 0.6-0.8 ns
   per call on Zen 3, 16% of a 32-byte copy.  */

#ifndef FASTCOPY_ENTRY_H
#define FASTCOPY_ENTRY_H 1

#ifdef __CET__
# include <cet.h>	/* _CET_ENDBR and the IBT/SHSTK property note */
#else
# define _CET_ENDBR
#endif

#include "traits.h"

	.hidden	fc_load, fc_copy_slot, fc_clear_slot
	.hidden	fc_copy_entry, fc_clear_entry

	.set	fc_key_index, 0
#define FC_KEY(id, name, family, type, trait) \
	.set FC_OFFSET_##id, fc_key_index * 8; \
	.set fc_key_index, fc_key_index + 1;
#include "keys.def"
#undef FC_KEY

	.set	fc_rank_COPY, 0
	.set	fc_rank_CLEAR, 0
#define FC_IMPL(id, family, name, function, requires, traits, own_rep, summary) \
	.if (traits) & FC_TRAIT_ENTRY; \
	.set FC_RANK_##id, fc_rank_##family; \
	.set fc_rank_##family, fc_rank_##family + 1; \
	.else; \
	.set FC_RANK_##id, 0xff; \
	.endif;
#include "impl-list.def"
#undef FC_IMPL

/* fc_<family>_rank1: a jump to the rank-1 ENTRY implementation if equal.
   fc_<family>_elsewhere: jumps to those of higher ranks, then through the
   slot.  */
#define FC_IMPL(id, family, name, function, requires, traits, own_rep, summary) \
	FC_IF_##family (id, function)
#define FC_JUMP_IF_RANK1(id, function) \
	.if FC_RANK_##id == 1; je function; .endif;
#define FC_JUMP_IF_HIGHER(id, function, byte) \
	.if FC_RANK_##id > 1 && FC_RANK_##id != 0xff; \
	cmpb $FC_RANK_##id, byte(%rip); \
	je function; \
	.endif;

	.macro	fc_copy_rank1
#define FC_IF_COPY(id, function) FC_JUMP_IF_RANK1 (id, function)
#define FC_IF_CLEAR(id, function)
#include "impl-list.def"
#undef FC_IF_COPY
#undef FC_IF_CLEAR
	.endm

	.macro	fc_clear_rank1
#define FC_IF_COPY(id, function)
#define FC_IF_CLEAR(id, function) FC_JUMP_IF_RANK1 (id, function)
#include "impl-list.def"
#undef FC_IF_COPY
#undef FC_IF_CLEAR
	.endm

	.macro	fc_copy_elsewhere
#define FC_IF_COPY(id, function) \
	FC_JUMP_IF_HIGHER (id, function, fc_copy_entry)
#define FC_IF_CLEAR(id, function)
#include "impl-list.def"
#undef FC_IF_COPY
#undef FC_IF_CLEAR
	jmp	*fc_copy_slot(%rip)
	.endm

	.macro	fc_clear_elsewhere
#define FC_IF_COPY(id, function)
#define FC_IF_CLEAR(id, function) \
	FC_JUMP_IF_HIGHER (id, function, fc_clear_entry)
#include "impl-list.def"
#undef FC_IF_COPY
#undef FC_IF_CLEAR
	jmp	*fc_clear_slot(%rip)
	.endm
#undef FC_IMPL

/* The exported copy functions, in front of the body of the rank-0 ENTRY
   implementation.  Code placement matters to the small-size paths
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
	fc_copy_rank1;					\
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
	fc_clear_rank1;					\
	ja	.Lclear_elsewhere

#define FC_ENTRY_POINTS_END_COPY		\
	.size	memmove, . - memmove;		\
	.size	memcpy, . - memcpy
#define FC_ENTRY_POINTS_END_CLEAR		\
	.size	memset, . - memset

/* The start of variant NAME, implementation ID of FAMILY (COPY, CLEAR): a
   hidden function, preceded by the exported entry points when it is the
   family's first ENTRY implementation.  */
#define VARIANT_BEGIN(family, id, name) FC_VARIANT_BEGIN (family, id, name)
#define VARIANT_END(family, id, name) FC_VARIANT_END (family, id, name)
/* (One more level, so that ID and NAME may be macros themselves.)  */
#define FC_VARIANT_BEGIN(family, id, name)		\
	.text;						\
	.globl	name;					\
	.hidden	name;					\
	.type	name, @function;			\
	.if FC_RANK_##id == 0;				\
	FC_ENTRY_POINTS_##family (id);			\
	.else;						\
	.p2align 6;					\
	.cfi_startproc;					\
	.endif;						\
name:							\
	_CET_ENDBR

#define FC_VARIANT_END(family, id, name)		\
	.cfi_endproc;					\
	.size	name, . - name;				\
	.if FC_RANK_##id == 0;				\
	FC_ENTRY_POINTS_END_##family;			\
	.endif

#endif
