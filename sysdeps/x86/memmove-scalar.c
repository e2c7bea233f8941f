/* SPDX-License-Identifier: MIT */
/* memmove_scalar: general-purpose registers only, no string
   instructions (gpr-inline.h describes the strategy).  */

#pragma GCC target ("general-regs-only")

#include "fastcopy-internal.h"
#include "gpr-inline.h"

void *
memmove_scalar (void *dst, const void *src, size_t n)
{
  return memmove_gpr (dst, src, n);
}
