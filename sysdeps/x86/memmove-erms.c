/* SPDX-License-Identifier: MIT */
/* memmove_erms: register copy below rep_movsb_threshold, forward REP MOVSB
   from it (the seed policy for ERMS CPUs without FSRM, where REP MOVSB's
   start-up cost loses on short copies).  Backward overlapping moves stay in
   registers: backward REP MOVSB has no fast-string microcode.  */

#pragma GCC target ("general-regs-only")

#include "load-state.h"
#include "gpr-inline.h"
#include "rep-inline.h"

void *
memmove_erms (void *dst, const void *src, size_t n)
{
  if (n >= FC_TUNABLE (REP_MOVSB) && copy_forward_safe (dst, src, n))
    {
      rep_movsb_forward (dst, src, n);
      return dst;
    }
  return memmove_gpr (dst, src, n);
}
