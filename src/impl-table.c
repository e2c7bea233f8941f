/* SPDX-License-Identifier: MIT */
/* The implementation table, generated from impl-list.def: data only, so
   that the settings parser and its fuzzer can read it without linking
   the variants (their functions: resolve.c).  */

#include "fastcopy-internal.h"

#define FC_IMPL(id, fam, impl_name, function, ...) \
  [FC_IMPL_##id] = { .name = impl_name, .family = FASTCOPY_FAMILY_##fam, \
		     __VA_ARGS__ },
const struct fc_impl fc_impl_table[FC_IMPL_COUNT] = {
#include "impl-list.def"
};
#undef FC_IMPL

/* Every name fits its field with its NUL; a summary that does not draws
   gcc's "initializer-string ... is too long" here, where the field is one
   byte shorter than the table's.  */
#define FC_IMPL(id, family, impl_name, function, ...)			\
  _Static_assert (sizeof (impl_name) <= sizeof fc_impl_table[0].name,	\
		  "impl-list.def: the name " impl_name " is too long");
#include "impl-list.def"
#undef FC_IMPL
struct fc_impl_summary_check
{
  unsigned int traits;
  unsigned long long requires;
  unsigned long long rep_when_named;
  char summary[sizeof fc_impl_table[0].summary - 1];
};
#define FC_IMPL(id, family, impl_name, function, ...) { __VA_ARGS__ },
static const struct fc_impl_summary_check summary_check[]
  __attribute__ ((unused)) = {
#include "impl-list.def"
};
#undef FC_IMPL
