/* SPDX-License-Identifier: MIT */
/* memset_erms: register stores below rep_stosb_threshold, REP STOSB from
   it.  */

#pragma GCC target ("general-regs-only")

#include "load-state.h"
#include "gpr-inline.h"
#include "rep-inline.h"

void *
memset_erms (void *dst, int c, size_t n)
{
  if (n >= FC_TUNABLE (REP_STOSB))
    {
      rep_stosb (dst, c, n);
      return dst;
    }
  return memset_gpr (dst, c, n);
}
