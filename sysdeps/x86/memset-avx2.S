/* SPDX-License-Identifier: MIT */
/* memset_avx2: memset-vec.S with vec-avx2.h, x86-64 and i386.  */
#define MEMSET		memset_avx2
#define IMPL_ID		CLEAR_AVX2
#include "vec-avx2.h"
#include "memset-vec.S"
