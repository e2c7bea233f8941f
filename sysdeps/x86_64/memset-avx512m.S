/* SPDX-License-Identifier: MIT */
/* memset_avx512m: memset-vec.S with vec-avx512.h and the masked small
   classes of entry-shapes.h.  */
#define MEMSET		memset_avx512m
#define IMPL_ID		CLEAR_AVX512M
#include "entry-shapes.h"
#include "vec-avx512.h"
#include "memset-vec.S"
