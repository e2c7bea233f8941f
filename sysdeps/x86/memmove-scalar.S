/* SPDX-License-Identifier: MIT */
/* memmove_scalar: memmove-gpr.S, general-purpose registers only, no
   string instructions.  */
#define MEMMOVE		memmove_scalar
#define IMPL_ID		COPY_SCALAR
#include "memmove-gpr.S"
