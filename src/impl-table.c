/* SPDX-License-Identifier: MIT */
/* The implementation table, generated from impl-list.def: data only, so
   that the settings parser and its fuzzer can read it without linking
   the variants (their functions: resolve.c).  */

#include "fastcopy-internal.h"

/* A text that exactly fills its field has no room for its NUL, which C
   allows silently; C++ does not, and its compatibility warning, made an
   error here, fails the build.  A longer text draws gcc's warning
   "initializer-string ... is too long", which build.exp's -Werror
   compile of this file fails on.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wc++-compat"
#define FC_IMPL(id, fam, impl_name, function, ...) \
  [FC_IMPL_##id] = { .name = impl_name, .family = FASTCOPY_FAMILY_##fam, \
		     __VA_ARGS__ },
const struct fc_impl fc_impl_table[FC_IMPL_COUNT] = {
#include "impl-list.def"
};
#undef FC_IMPL
#pragma GCC diagnostic pop

#define FC_IMPL(id, family, impl_name, function, ...)			\
  _Static_assert (sizeof (impl_name) <= sizeof fc_impl_table[0].name,	\
		  "impl-list.def: the name " impl_name " is too long");
#include "impl-list.def"
#undef FC_IMPL
