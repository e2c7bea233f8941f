/* SPDX-License-Identifier: MIT */
/* memset_evex: memset-vec.S with vec-evex.h.  */
#define MEMSET		memset_evex
#define IMPL_ID		CLEAR_EVEX
/* Intel's: streaming two pages at a time (memmove-vec.S says why).  */
#define STREAM_PAIRS	1
#include "vec-evex.h"
#include "memset-vec.S"
