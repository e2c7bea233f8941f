/* Helpers for the assembly variants.  */

#ifndef FASTCOPY_ASM_H
#define FASTCOPY_ASM_H 1

#ifdef __CET__
# include <cet.h>	/* _CET_ENDBR and the IBT/SHSTK property note */
#else
# define _CET_ENDBR
#endif

/* A hidden function: reached through the dispatch slot, never exported.  */
#define ENTRY_HIDDEN(name)			\
	.text;					\
	.globl name;				\
	.hidden name;				\
	.type name, @function;			\
	.p2align 6;				\
name:						\
	.cfi_startproc;				\
	_CET_ENDBR

#define END(name)				\
	.cfi_endproc;				\
	.size name, . - name

#endif
