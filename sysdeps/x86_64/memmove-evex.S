/* SPDX-License-Identifier: MIT */
/* memmove_evex: memmove-vec.S with vec-evex.h.  */
#define MEMMOVE		memmove_evex
#define IMPL_ID		COPY_EVEX
#include "vec-evex.h"
#include "memmove-vec.S"
