/* SPDX-License-Identifier: MIT */
/* The records of the body map (src/body-map.h), written by the assembly
   next to the code they describe (doc/size-registers.md).

   BODY_RANGE (PATH, CONSTANT, REG, SCALE, ...) opens a range of path
   FC_BODY_PATH_<PATH> of the implementation being assembled (IMPL_ID) at
   this point, and closes the one open before it; up to three REG, SCALE
   terms follow, REG a perf register number (FC_PERF_*) or
   FC_BODY_STACK_WORD + K.  The size of the call at any instruction of
   the range is CONSTANT + the sum of SCALE * REG: at the instruction's
   address, before it runs.  VARIANT_BEGIN opens the first range of a
   body and VARIANT_END closes the last (entry-common.h).
   BODY_RANGE_OF (IMPL, ...) is the same for the range of another
   implementation, ENTRY_COPY or ENTRY_CLEAR: the exported entry points,
   shared by every implementation of their family, which have an empty
   name.

   Each record holds its start as an offset from itself and its length:
   the section needs no relocation when the library is loaded, and no
   process ever reads it.  */

#ifndef FASTCOPY_BODY_RANGE_H
#define FASTCOPY_BODY_RANGE_H 1

#include "body-map.h"

/* perf_event's register numbers (asm/perf_regs.h), the same on both
   ABIs for the registers they share.  */
#define FC_PERF_AX	0
#define FC_PERF_BX	1
#define FC_PERF_CX	2
#define FC_PERF_DX	3
#define FC_PERF_SI	4
#define FC_PERF_DI	5
#define FC_PERF_BP	6
#define FC_PERF_SP	7
#define FC_PERF_R8	16
#define FC_PERF_R9	17
#define FC_PERF_R10	18
#define FC_PERF_R11	19

/* enum fastcopy_family (include/fastcopy.h).  */
#define FC_FAMILY_COPY	0
#define FC_FAMILY_CLEAR	1

/* fc_body_impl_<ID>: a record's impl and family fields, from
   impl-list.def.  */
#define FC_IMPL(id, family, name, function, ...)		\
	.macro	fc_body_impl_##id;				\
.Lfc_body_name\@:						\
	.ascii	name;						\
	.skip	8 - (. - .Lfc_body_name\@);			\
	.byte	FC_FAMILY_##family;				\
	.endm;
#include "impl-list.def"
#undef FC_IMPL
	.macro	fc_body_impl_ENTRY_COPY
	.skip	8
	.byte	FC_FAMILY_COPY
	.endm
	.macro	fc_body_impl_ENTRY_CLEAR
	.skip	8
	.byte	FC_FAMILY_CLEAR
	.endm

/* One record for the instructions from START to END.  An empty range
   is refused: END - START is known only once the jumps between them are
   relaxed, after any .if could test it, so the symbol set here divides
   by it, and the assembler fails on its division by zero ("division by
   zero when setting .Lfc_body_range_not_empty...").  */
	.macro	fc_body_record start, end, impl, path, constant, r1=0, s1=0, r2=0, s2=0, r3=0, s3=0
	.pushsection FC_BODY_MAP_SECTION, "a"
	.balign	4
	.long	\start - .
	.long	\end - \start
	.set	.Lfc_body_range_not_empty\@, 1 / (\end - \start)
	fc_body_impl_\impl
	.byte	\path, FC_BODY_MAP_VERSION, 0
	.long	\constant
	.byte	\r1, 0
	.short	\s1
	.byte	\r2, 0
	.short	\s2
	.byte	\r3, 0
	.short	\s3
	.popsection
	.endm

/* The ranges of a body follow each other: label 8102 closes one, 8101
   opens the next.  */
	.set	fc_body_open, 0
	.macro	fc_body_range impl, path, constant, terms:vararg
	.if	fc_body_open
8102:
	.endif
8101:
	fc_body_record 8101b, 8102f, \impl, \path, \constant, \terms
	.set	fc_body_open, 1
	.endm

	.macro	fc_body_end
	.if	!fc_body_open
	.error	"BODY_END without a range open"
	.endif
8102:
	.set	fc_body_open, 0
	.endm

#define BODY_RANGE(path, ...) \
	fc_body_range IMPL_ID, FC_BODY_PATH_##path, __VA_ARGS__
#define BODY_RANGE_OF(impl, path, ...) \
	fc_body_range impl, FC_BODY_PATH_##path, __VA_ARGS__
#define BODY_END	fc_body_end

#endif
