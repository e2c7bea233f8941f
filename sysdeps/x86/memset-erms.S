/* SPDX-License-Identifier: MIT */
/* memset_erms: memset-gpr.S below rep_stosb_threshold, REP STOSB from
   it.  */
#define MEMSET		memset_erms
#define IMPL_ID		CLEAR_ERMS
#define REP_FROM_THRESHOLD 1
#include "memset-gpr.S"
