/* SPDX-License-Identifier: MIT */
/* The body map: where each copy and clear body's paths lie in
   libfastcopy.so.1, and how the call's size is recovered from the
   registers at every instruction of each (the size-register contract,
   doc/size-registers.md).

   The bodies emit one record per range of instructions into the section
   fastcopy_body_map (allocated and read-only, so that strip keeps it; no
   process reads it, and no relocation is left for the loader: every
   address in it is relative to the record itself).  A sampler reads it
   from the library's file, and the contract test checks it by
   single-stepping every body under ptrace.

   The size of the call whose instruction lies in a range is
     constant + sum of term[i].scale * value (term[i].reg)
   over the terms whose scale is not 0.  A register is named by its
   perf_event number (asm/perf_regs.h: PERF_REG_X86_AX 0, BX 1, CX 2,
   DX 3, SI 4, DI 5, BP 6, SP 7, R8 16 ... R15 23); FC_BODY_STACK_WORD + K
   is the pointer-sized word at SP + K * pointer size (i386, before a body
   has loaded its arguments).  Values are taken as unsigned of the ABI's
   pointer width, and so is the sum.  */

#ifndef FASTCOPY_BODY_MAP_H
#define FASTCOPY_BODY_MAP_H 1

#define FC_BODY_MAP_SECTION "fastcopy_body_map"
#define FC_BODY_MAP_VERSION 1

/* Where in a body an instruction is.  */
#define FC_BODY_PATH_ENTRY	0	/* exported entry, dispatch, class tests */
#define FC_BODY_PATH_CLASS	1	/* a fixed class: no loop (n up to 8 VEC) */
#define FC_BODY_PATH_LOOP	2	/* the forward loop */
#define FC_BODY_PATH_BACKWARD	3	/* the backward loop */
#define FC_BODY_PATH_REP	4	/* REP MOVSB / REP STOSB */
#define FC_BODY_PATH_STREAM	5	/* non-temporal stores */
#define FC_BODY_PATH_COUNT	6

#define FC_BODY_STACK_WORD	64	/* + K: the word at SP + K words */
#define FC_BODY_TERMS		3

#ifndef __ASSEMBLER__
# include <stdint.h>

struct fc_body_term
{
  int8_t reg;			/* perf_event register number, or
				   FC_BODY_STACK_WORD + K */
  int8_t pad;
  int16_t scale;		/* 0: no term */
};

struct fc_body_range
{
  int32_t start;		/* the first instruction, relative to this
				   field's own address */
  uint32_t length;		/* bytes of instructions */
  char impl[8];			/* impl-list.def name, NUL-padded */
  uint8_t family;		/* enum fastcopy_family */
  uint8_t path;			/* FC_BODY_PATH_* */
  uint8_t version;		/* FC_BODY_MAP_VERSION */
  uint8_t pad;
  int32_t constant;
  struct fc_body_term term[FC_BODY_TERMS];
};

_Static_assert (sizeof (struct fc_body_range) == 36,
		"the body map's records are laid out by hand in the bodies");
#endif

#endif
