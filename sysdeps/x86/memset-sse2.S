/* SPDX-License-Identifier: MIT */
/* memset_sse2: memset-vec.S with vec-sse2.h, x86-64 and i386.  */
#define MEMSET		memset_sse2
#define IMPL_ID		CLEAR_SSE2
#include "vec-sse2.h"
#include "memset-vec.S"
