/* memset_erms: register stores below rep_stosb_threshold, REP STOSB from
   it.  */

#pragma GCC target ("general-regs-only")

#include "fastcopy-internal.h"
#include "gpr-inline.h"
#include "rep-inline.h"

void *
memset_erms (void *dst, int c, size_t n)
{
  if (n >= fc_tunables.rep_stosb_threshold)
    {
      rep_stosb (dst, c, n);
      return dst;
    }
  return memset_gpr (dst, c, n);
}
