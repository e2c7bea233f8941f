/* SPDX-License-Identifier: MIT */
/* memset_avx512m: memset-vec.S with vec-avx512.h and the masked class of
   small sizes up to 4 VEC.  */
#define MEMSET		memset_avx512m
#define IMPL_ID		CLEAR_AVX512M
#define MASKED_MIDDLE	1
#include "vec-avx512.h"
#include "memset-vec.S"
