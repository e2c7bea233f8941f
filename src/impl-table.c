/* SPDX-License-Identifier: MIT */
/* The implementation table, generated from impl-list.def.  */

#include "fastcopy-internal.h"

#define FC_IMPL(id, family, name, function, requires, traits, own_rep, summary) \
  [FC_IMPL_##id] = { name, FASTCOPY_FAMILY_##family, summary, requires, \
		     FC_COPY_FN_##family (function), \
		     FC_CLEAR_FN_##family (function), traits },
#define FC_COPY_FN_COPY(f) f
#define FC_COPY_FN_CLEAR(f) 0
#define FC_CLEAR_FN_COPY(f) 0
#define FC_CLEAR_FN_CLEAR(f) f

const struct fastcopy_impl fc_impl_table[FC_IMPL_COUNT] = {
#include "impl-list.def"
};
