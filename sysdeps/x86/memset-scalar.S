/* SPDX-License-Identifier: MIT */
/* memset_scalar: memset-gpr.S, general-purpose register stores, no
   string instructions.  */
#define MEMSET		memset_scalar
#define IMPL_ID		CLEAR_SCALAR
#include "memset-gpr.S"
