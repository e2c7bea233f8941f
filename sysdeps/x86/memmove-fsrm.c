/* SPDX-License-Identifier: MIT */
/* memmove_fsrm: REP MOVSB for every size, the seed policy for FSRM CPUs.
   Assumptions: none beyond x86-64 or i686; FSRM makes short REP MOVSB cheap.  */

#pragma GCC target ("general-regs-only")

#include "fastcopy-internal.h"
#include "gpr-inline.h"
#include "rep-inline.h"

void *
memmove_fsrm (void *dst, const void *src, size_t n)
{
  if (copy_forward_safe (dst, src, n))
    rep_movsb_forward (dst, src, n);
  else
    rep_movsb_backward (dst, src, n);
  return dst;
}
