/* SPDX-License-Identifier: MIT */
/* memmove_avx512: memmove-vec.S with vec-avx512.h.  */
#define MEMMOVE		memmove_avx512
#define IMPL_ID		COPY_AVX512
/* Intel's: streaming two pages at a time (memmove-vec.S says why).  */
#define STREAM_PAIRS	1
#include "vec-avx512.h"
#include "memmove-vec.S"
