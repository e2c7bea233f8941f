/* SPDX-License-Identifier: MIT */
/* The implementation table and the function of each implementation,
   generated from impl-list.def.  The functions come from switches, code
   that computes each address PC-relative, rather than from a table of
   pointers that the dynamic linker would have to relocate.  */

#include "fastcopy-internal.h"

#define FC_IMPL(id, family, name, function, requires, traits, \
		rep_when_named, summary) \
  [FC_IMPL_##id] = { name, FASTCOPY_FAMILY_##family, traits, requires, \
		     summary },
const struct fc_impl fc_impl_table[FC_IMPL_COUNT] = {
#include "impl-list.def"
};
#undef FC_IMPL

/* Every text fits its field (the fields have no room for a pointer).  */
#define FC_IMPL(id, family, impl_name, function, requires, traits,	\
		rep_when_named, impl_summary)				\
  _Static_assert (sizeof (impl_name) <= sizeof fc_impl_table[0].name	\
		  && sizeof (impl_summary)				\
		     <= sizeof fc_impl_table[0].summary,			\
		  "impl-list.def: a text of " impl_name " is too long");
#include "impl-list.def"
#undef FC_IMPL

fastcopy_copy_fn
fc_copy_function (enum fc_impl_id id)
{
  switch (id)
    {
#define FC_IMPL(id, family, name, function, requires, traits, \
		rep_when_named, summary) \
      FC_CASE_##family (id, function)
#define FC_CASE_COPY(id, f) case FC_IMPL_##id: return f;
#define FC_CASE_CLEAR(id, f)
#include "impl-list.def"
#undef FC_CASE_COPY
#undef FC_CASE_CLEAR
#undef FC_IMPL
    default:
      return memmove_scalar;
    }
}

fastcopy_clear_fn
fc_clear_function (enum fc_impl_id id)
{
  switch (id)
    {
#define FC_IMPL(id, family, name, function, requires, traits, \
		rep_when_named, summary) \
      FC_CASE_##family (id, function)
#define FC_CASE_COPY(id, f)
#define FC_CASE_CLEAR(id, f) case FC_IMPL_##id: return f;
#include "impl-list.def"
#undef FC_CASE_COPY
#undef FC_CASE_CLEAR
#undef FC_IMPL
    default:
      return memset_scalar;
    }
}
