/* SPDX-License-Identifier: MIT */
/* memset_fsrm: REP STOSB for every size.  */

#pragma GCC target ("general-regs-only")

#include "fastcopy-internal.h"
#include "rep-inline.h"

void *
memset_fsrm (void *dst, int c, size_t n)
{
  rep_stosb (dst, c, n);
  return dst;
}
