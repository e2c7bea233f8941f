/* SPDX-License-Identifier: MIT */
/* memmove_avx512m: memmove-vec.S with vec-avx512.h and the masked class of
   small sizes up to 4 VEC.  */
#define MEMMOVE		memmove_avx512m
#define IMPL_ID		COPY_AVX512M
#define MASKED_MIDDLE	1
#include "vec-avx512.h"
#include "memmove-vec.S"
