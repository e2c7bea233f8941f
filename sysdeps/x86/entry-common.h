/* SPDX-License-Identifier: MIT */
/* What the entry.h of every architecture shares: the tables of src/ as
   assembler symbols, the jumps of the exported entry points, and the
   macros that begin and end a variant, with the exported entry points.
   sysdeps/<arch>/entry.h defines
     FC_WORD        the size of a threshold word (size_t)
     FC_DATA(sym)   the operand that addresses the hidden object SYM
		    (PC-relative, or at its offset from the GOT)
   before it includes this file, and for the entry points
     FC_ENTRY_GOT   what FC_DATA needs first (i386: the GOT in ECX)
     FC_CHK_COMPARE a compare that sets CF when a _chk form's
		    destination size is below n
     FC_CHK_FAIL    the jump to glibc's __chk_fail
     FC_COPY_OLD_ENTRIES  the architecture's other exported copy entry
		    points, which jump to .Lcopy_entry (x86-64's
		    memcpy@GLIBC_2.2.5)
     FC_SIZE_AT_ENTRY  the size of the call at a function's first
		    instruction, as BODY_RANGE's terms (body-range.h)
     FC_ENTRY_THUNKS_COPY, FC_ENTRY_THUNKS_CLEAR  what the entry points
		    call, emitted after their entry variant's body (i386: the GOT
		    thunks)

   From keys.def:         FC_OFFSET_<key>, the byte offset of the key's
			  word in fc_state.tunables (load-state.h).
   From entry-points.def: FC_ENTRY_BYTE_<impl>, the byte the exported
			  entry points compare (0 for the entry variant, 1, 2, ...),
			  or FC_ENTRY_SLOT.
   And the jumps of the exported entry points to the selected
   implementation: fc_<family>_jump1 after their compare with byte 1,
   fc_<family>_elsewhere for the rest.  */

#ifndef FASTCOPY_ENTRY_COMMON_H
#define FASTCOPY_ENTRY_COMMON_H 1

#ifdef __CET__
# include <cet.h>	/* _CET_ENDBR and the IBT/SHSTK property note */
#else
# define _CET_ENDBR
#endif

#include "traits.h"
#include "body-range.h"

	.hidden	fc_state, fc_copy_slot, fc_clear_slot
	.hidden	fc_census, memmove_census, memset_census
/* The entry bytes, in the census's state (src/calls/census.h).  */
	.set	fc_copy_entry, fc_census + FC_CENSUS_ENTRY_OFFSET
	.set	fc_clear_entry, fc_census + FC_CENSUS_ENTRY_OFFSET + 1

	.set	fc_key_index, 0
#define FC_KEY(id, name, family, type, trait) \
	.set FC_OFFSET_##id, fc_key_index * FC_WORD; \
	.set fc_key_index, fc_key_index + 1;
#include "keys.def"
#undef FC_KEY

/* Every implementation is reached through the slot (FC_ENTRY_SLOT,
   traits.h) unless entry-points.def names it; the bytes it gives must run
   0, 1, 2, ... per family.  */
#define FC_IMPL(id, family, name, function, ...) \
	.set FC_ENTRY_BYTE_##id, FC_ENTRY_SLOT;
#include "impl-list.def"
#undef FC_IMPL
	.set	fc_entry_next_COPY, 0
	.set	fc_entry_next_CLEAR, 0
#define FC_ENTRY(family, impl, byte) \
	.if (byte) != fc_entry_next_##family; \
	.error "entry-points.def: the bytes of a family must run 0, 1, 2, ..."; \
	.endif; \
	.set fc_entry_next_##family, fc_entry_next_##family + 1; \
	.set FC_ENTRY_BYTE_##impl, byte;
#include "entry-points.def"
#undef FC_ENTRY
	.if fc_entry_next_COPY == 0 || fc_entry_next_CLEAR == 0
	.error "entry-points.def: every family needs an entry variant (byte 0)"
	.endif

/* fc_<family>_jump1: a jump to the implementation of byte 1 if equal.
   fc_<family>_elsewhere: a compare and a jump for each of bytes 2 and up,
   and for the census, then the jump through the slot.  */
#define FC_IMPL(id, family, name, function, ...) \
	FC_IF_##family (id, function)
/* A conditional jump in its 32-bit form (0x0f, 0x80 + CC): its length is
   known to the assembler, as memmove's entry needs (FC_MOVE_ENTRY).  */
#define FC_JCC32(cc, target)	.byte 0x0f, 0x80 + (cc); .long target - . - 4
#define FC_CC_E		0x4
#define FC_CC_BE	0x6
#define FC_CC_A		0x7
#define FC_JUMP_IF_BYTE1(id, function) \
	.if FC_ENTRY_BYTE_##id == 1; FC_JCC32 (FC_CC_E, function); .endif;
#define FC_JUMP_IF_HIGHER(id, function, byte) \
	.if FC_ENTRY_BYTE_##id > 1 && FC_ENTRY_BYTE_##id != FC_ENTRY_SLOT; \
	cmpb $FC_ENTRY_BYTE_##id, FC_DATA (byte); \
	je function; \
	.endif;

	.macro	fc_copy_jump1
#define FC_IF_COPY(id, function) FC_JUMP_IF_BYTE1 (id, function)
#define FC_IF_CLEAR(id, function)
#include "impl-list.def"
#undef FC_IF_COPY
#undef FC_IF_CLEAR
	.endm

	.macro	fc_clear_jump1
#define FC_IF_COPY(id, function)
#define FC_IF_CLEAR(id, function) FC_JUMP_IF_BYTE1 (id, function)
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
	cmpb	$FC_ENTRY_CENSUS, FC_DATA (fc_copy_entry)
	je	memmove_census
	jmp	*FC_DATA (fc_copy_slot)
	.endm

	.macro	fc_clear_elsewhere
#define FC_IF_COPY(id, function)
#define FC_IF_CLEAR(id, function) \
	FC_JUMP_IF_HIGHER (id, function, fc_clear_entry)
#include "impl-list.def"
#undef FC_IF_COPY
#undef FC_IF_CLEAR
	cmpb	$FC_ENTRY_CENSUS, FC_DATA (fc_clear_entry)
	je	memset_census
	jmp	*FC_DATA (fc_clear_slot)
	.endm
#undef FC_IMPL

/* The start of variant NAME, implementation ID of FAMILY (COPY, CLEAR): a
   hidden function, preceded by the exported entry points when it is the
   family's entry variant in entry-points.def.  It opens the body's first range
   (body-range.h), and VARIANT_END closes its last.  */
#define VARIANT_BEGIN(family, id, name) FC_VARIANT_BEGIN (family, id, name)
#define VARIANT_END(family, id, name) FC_VARIANT_END (family, id, name)
/* (One more level, so that ID and NAME may be macros themselves.)  */
#define FC_VARIANT_BEGIN(family, id, name)		\
	.text;						\
	.globl	name;					\
	.hidden	name;					\
	.type	name, @function;			\
	.if FC_ENTRY_BYTE_##id == 0;				\
	FC_ENTRY_POINTS_##family (id);			\
	.else;						\
	.p2align 6;					\
	.cfi_startproc;					\
	.endif;						\
name:							\
	BODY_RANGE_OF (id, ENTRY, FC_SIZE_AT_ENTRY);	\
	_CET_ENDBR

#define FC_VARIANT_END(family, id, name)		\
	BODY_END;					\
	.cfi_endproc;					\
	.size	name, . - name;				\
	.if FC_ENTRY_BYTE_##id == 0;				\
	FC_ENTRY_POINTS_END_##family;			\
	FC_ENTRY_THUNKS_##family;			\
	.endif

/* A _chk form NAME: FAIL (the jump to __chk_fail) if the destination is
   smaller than n, else the entry point at ENTRY.  */
#define FC_CHK_ENTRY(name, fail, entry)			\
	.globl	name;					\
	.type	name, @function;			\
name:							\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	FC_CHK_COMPARE;	/* dst_size < n */		\
	jb	fail;					\
	jmp	entry;					\
	.cfi_endproc;					\
	.size	name, . - name

/* The exported functions of a family, in front of its entry variant's body
   (src/entry-points.def).  Code placement matters to the small-size
   paths (measured up to 1.5x on 8-15 byte copies between two placements
   of the same code): the exported entry starts a 64-byte line, the stubs
   its tests jump to sit in front of it, and it falls into the body with
   no padding between.  They compare the family's entry byte,
   fc_copy_entry or fc_clear_entry, with 1: below, they fall into the
   entry variant's body; equal, they jump to byte 1's; above, a chain of
   compares reaches the others and the census (src/calls/census.h), and
   the jump through the dispatch slot the rest.
   Their ranges in the body map are ENTRY_COPY's or ENTRY_CLEAR's, up to
   the entry variant's first instruction.  */
#define FC_ENTRY_POINTS_COPY(id)			\
	.p2align 6;					\
	.cfi_startproc;					\
.Lcopy_elsewhere:					\
	BODY_RANGE_OF (ENTRY_COPY, ENTRY, FC_SIZE_AT_ENTRY); \
	fc_copy_elsewhere;				\
.Lcopy_chk_fail:					\
	FC_CHK_FAIL;					\
	.cfi_endproc;					\
	FC_CHK_ENTRY (__memcpy_chk, .Lcopy_chk_fail, .Lcopy_entry); \
	FC_CHK_ENTRY (__memmove_chk, .Lcopy_chk_fail, .Lmove_entry); \
	FC_COPY_OLD_ENTRIES;				\
	FC_MOVE_ENTRY;					\
	.p2align 6;					\
	.globl	memcpy;					\
	.type	memcpy, @function;			\
	FC_MOVE_AT_COPY;				\
memcpy:							\
.Lcopy_entry:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	FC_ENTRY_GOT;					\
	cmpb	$1, FC_DATA (fc_copy_entry);		\
	fc_copy_jump1;					\
	ja	.Lcopy_elsewhere


/* memmove.  When the entry variant has a path for dst and src less than
   MOVE_NEAR bytes apart (memmove-vec.S), memmove is an entry point of its
   own that ends where memcpy's begins: the same jumps as memcpy's to the
   other implementations, then, with the entry variant selected,
   FC_MOVE_TEST (x86-64's entry.h) to that path, else on into memcpy's
   entry and the entry variant's body.
   Its jumps are spelled out in their 32-bit form (FC_JCC32), so that the
   assembler knows its length, FC_MOVE_BYTES.  Else memmove is memcpy's
   address.  */
#ifdef MOVE_NEAR
# define FC_MOVE_ENTRY					\
	.p2align 6;					\
	.skip	64 - FC_MOVE_BYTES, 0xcc;		\
	.globl	memmove;				\
	.type	memmove, @function;			\
memmove:						\
.Lmove_entry:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	cmpb	$1, FC_DATA (fc_copy_entry);		\
	fc_copy_jump1;					\
	FC_JCC32 (FC_CC_A, .Lcopy_elsewhere);		\
	FC_MOVE_TEST (MOVE_NEAR);			\
	FC_JCC32 (FC_CC_BE, .Lnear);			\
	.if . - memmove - FC_MOVE_BYTES;		\
	.error "memmove must end where memcpy begins";	\
	.endif;						\
	.cfi_endproc;					\
	.size	memmove, . - memmove
# define FC_MOVE_AT_COPY
# define FC_MOVE_SIZE
#else
# define FC_MOVE_ENTRY
# define FC_MOVE_AT_COPY				\
	.globl	memmove;				\
	.type	memmove, @function;			\
memmove:						\
.Lmove_entry:
# define FC_MOVE_SIZE	.size memmove, . - memmove
#endif

#define FC_ENTRY_POINTS_CLEAR(id)			\
	.p2align 6;					\
	.cfi_startproc;					\
.Lclear_elsewhere:					\
	BODY_RANGE_OF (ENTRY_CLEAR, ENTRY, FC_SIZE_AT_ENTRY); \
	fc_clear_elsewhere;				\
.Lclear_chk_fail:					\
	FC_CHK_FAIL;					\
	.cfi_endproc;					\
	FC_CHK_ENTRY (__memset_chk, .Lclear_chk_fail, .Lclear_entry); \
	.p2align 6;					\
	.globl	memset;					\
	.type	memset, @function;			\
memset:							\
.Lclear_entry:						\
	.cfi_startproc;					\
	_CET_ENDBR;					\
	FC_ENTRY_GOT;					\
	cmpb	$1, FC_DATA (fc_clear_entry);		\
	fc_clear_jump1;					\
	ja	.Lclear_elsewhere

#define FC_ENTRY_POINTS_END_COPY		\
	FC_MOVE_SIZE;				\
	.size	memcpy, . - memcpy
#define FC_ENTRY_POINTS_END_CLEAR		\
	.size	memset, . - memset

#endif
