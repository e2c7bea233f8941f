/* SPDX-License-Identifier: MIT */
/* memmove_avx2: memmove-vec.S with vec-avx2.h, x86-64 and i386.  */
#define MEMMOVE		memmove_avx2
#define IMPL_ID		COPY_AVX2
#include "vec-avx2.h"
#include "memmove-vec.S"
