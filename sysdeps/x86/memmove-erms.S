/* SPDX-License-Identifier: MIT */
/* memmove_erms: memmove-gpr.S below rep_movsb_threshold, forward REP
   MOVSB from it (the seed policy for ERMS CPUs without FSRM, where REP
   MOVSB's start-up cost loses on short copies).  Backward overlapping
   moves stay in registers: backward REP MOVSB has no fast-string
   microcode.  */
#define MEMMOVE		memmove_erms
#define IMPL_ID		COPY_ERMS
#define REP_FROM_THRESHOLD 1
#include "memmove-gpr.S"
