/* SPDX-License-Identifier: MIT */
/* memmove_avx512m: memmove-vec.S with vec-avx512.h and the masked small
   classes of entry-shapes.h; the exported memmove takes the classes
   without masks when dst and src are less than 4 VEC apart.  */
#define MEMMOVE		memmove_avx512m
#define IMPL_ID		COPY_AVX512M
#define MOVE_NEAR	(4 * VEC_SIZE)
#include "entry-shapes.h"
#include "vec-avx512.h"
#include "memmove-vec.S"
