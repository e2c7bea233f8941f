/* SPDX-License-Identifier: MIT */
/* memmove_sse2: memmove-vec.S with vec-sse2.h, x86-64 and i386.  */
#define MEMMOVE		memmove_sse2
#define IMPL_ID		COPY_SSE2
#include "vec-sse2.h"
#include "memmove-vec.S"
