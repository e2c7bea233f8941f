/* SPDX-License-Identifier: MIT */
/* memmove_avx512: memmove-vec.S with vec-avx512.h.  */
#define MEMMOVE		memmove_avx512
#define IMPL_ID		COPY_AVX512
#include "vec-avx512.h"
#include "memmove-vec.S"
