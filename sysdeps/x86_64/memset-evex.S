/* SPDX-License-Identifier: MIT */
/* memset_evex: memset-vec.S with vec-evex.h.  */
#define MEMSET		memset_evex
#define IMPL_ID		CLEAR_EVEX
#include "vec-evex.h"
#include "memset-vec.S"
