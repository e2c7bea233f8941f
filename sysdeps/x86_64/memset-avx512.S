/* SPDX-License-Identifier: MIT */
/* memset_avx512: memset-vec.S with vec-avx512.h.  */
#define MEMSET		memset_avx512
#define IMPL_ID		CLEAR_AVX512
/* Intel's: streaming two pages at a time (memmove-vec.S says why).  */
#define STREAM_PAIRS	1
#include "vec-avx512.h"
#include "memset-vec.S"
