/* SPDX-License-Identifier: MIT */
/* memset_scalar: general-purpose register stores, no string
   instructions.  */

#pragma GCC target ("general-regs-only")

#include "fastcopy-internal.h"
#include "gpr-inline.h"

void *
memset_scalar (void *dst, int c, size_t n)
{
  return memset_gpr (dst, c, n);
}
