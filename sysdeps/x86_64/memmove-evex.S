/* SPDX-License-Identifier: MIT */
/* memmove_evex: memmove-vec.S with vec-evex.h.  */
#define MEMMOVE		memmove_evex
#define IMPL_ID		COPY_EVEX
/* Intel's: streaming two pages at a time (memmove-vec.S says why).  */
#define STREAM_PAIRS	1
#include "vec-evex.h"
#include "memmove-vec.S"
