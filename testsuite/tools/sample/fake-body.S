/* SPDX-License-Identifier: MIT */
/* A synthetic libfastcopy for fastcopy-sample's tests: two bodies and
   their records of the body map (src/body-map.h), laid out by hand, so
   that the test's sizes are the oracle of the sampler's attribution.

   fake_copy (dst, src, n): an entry that spins with the size in RDX, then
   a "loop" that spins with RDX cleared and the size only in
   24 + RCX + 2 * R8 (RCX = n - 40, R8 = 8): a sample there is right only
   if the expression is evaluated, constant, scales and all.  It copies
   nothing; its time does not depend on n.
   fake_fsrm (dst, src, n): REP MOVSB forward, as libfastcopy's fsrm does
   for every size and every copy that does not overlap backward, and
   named "fsrm" so that the sampler turns its samples into calls with the
   cost of that implementation.  */

#include "body-map.h"

#define REG_DX 3
#define REG_CX 2
#define REG_R8 16

/* One record: START and END labels, the implementation's name (8 bytes),
   the path, the constant and three terms (register, scale).  */
#define RECORD(start, end, impl, path, constant, r0, s0, r1, s1, r2, s2) \
	.long start - .; \
	.long end - start; \
	.ascii impl; \
	.byte 0, path, FC_BODY_MAP_VERSION, 0; \
	.long constant; \
	.byte r0, 0; .short s0; \
	.byte r1, 0; .short s1; \
	.byte r2, 0; .short s2

	.text
	.globl	fake_copy
	.type	fake_copy, @function
fake_copy:
.Lcopy_entry:
	mov	$2000, %eax
1:	dec	%eax
	jnz	1b
	lea	-40(%rdx), %rcx
	mov	$8, %r8d
	xor	%edx, %edx
.Lcopy_loop:
	mov	$6000, %eax
2:	dec	%eax
	jnz	2b
	mov	%rdi, %rax
	ret
.Lcopy_end:
	.size	fake_copy, . - fake_copy

	.globl	fake_fsrm
	.type	fake_fsrm, @function
fake_fsrm:
.Lfsrm_entry:
	mov	%rdi, %rax
	mov	%rdx, %rcx
.Lfsrm_rep:
	rep movsb
	ret
.Lfsrm_end:
	.size	fake_fsrm, . - fake_fsrm

	.section fastcopy_body_map, "a"
	.balign	4
	RECORD (.Lcopy_entry, .Lcopy_loop, "fake\0\0\0\0", FC_BODY_PATH_ENTRY,
		0, REG_DX, 1, 0, 0, 0, 0)
	RECORD (.Lcopy_loop, .Lcopy_end, "fake\0\0\0\0", FC_BODY_PATH_LOOP,
		24, REG_CX, 1, REG_R8, 2, 0, 0)
	RECORD (.Lfsrm_entry, .Lfsrm_rep, "fsrm\0\0\0\0", FC_BODY_PATH_ENTRY,
		0, REG_DX, 1, 0, 0, 0, 0)
	RECORD (.Lfsrm_rep, .Lfsrm_end, "fsrm\0\0\0\0", FC_BODY_PATH_REP,
		0, REG_DX, 1, 0, 0, 0, 0)

	.section .note.GNU-stack, "", @progbits
