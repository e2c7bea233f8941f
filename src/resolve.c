/* The IFUNC resolvers and the two dispatch slots.

   The exported functions (entry.c) are plain STT_FUNC symbols that jump
   through fc_copy_slot / fc_clear_slot.  Each slot is a read-only pointer
   whose initial value is a local IFUNC symbol, so the linker emits an
   R_X86_64_IRELATIVE relocation for it; ld.so runs the resolver when it
   relocates libfastcopy itself, after every other relocation of this
   object.  Exporting the IFUNC symbols directly would make ld.so resolve
   them for earlier-relocated BIND_NOW libraries before libfastcopy is
   relocated, and print "Relink ... for IFUNC symbol" (notes/pitfalls.md).

   This file is built with -fno-jump-tables -fno-tree-switch-conversion so
   that the switches below stay code, not tables of relocated addresses.  */

#include "fastcopy-internal.h"

static FC_EARLY fastcopy_copy_fn
copy_function (enum fc_impl_id id)
{
  switch (id)
    {
#define FC_IMPL(id, family, name, function, requires, summary) \
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

static FC_EARLY fastcopy_clear_fn
clear_function (enum fc_impl_id id)
{
  switch (id)
    {
#define FC_IMPL(id, family, name, function, requires, summary) \
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

/* Set when the AVX2 variant is selected, so that the exported entry points
   in front of it fall through instead of jumping through the slot.  Written
   by the resolvers, i.e. before ld.so makes this section read-only.  */
FC_HIDDEN __attribute__ ((section (".data.rel.ro")))
unsigned char fc_copy_fallthrough, fc_clear_fallthrough;

static FC_EARLY fastcopy_copy_fn
resolve_copy (void)
{
  struct fc_selection s = fc_select (FASTCOPY_FAMILY_COPY);
  fc_selected[FASTCOPY_FAMILY_COPY] = s;
  fc_copy_fallthrough = s.impl == FC_IMPL_COPY_AVX2;
  return copy_function (s.impl);
}

static FC_EARLY fastcopy_clear_fn
resolve_clear (void)
{
  struct fc_selection s = fc_select (FASTCOPY_FAMILY_CLEAR);
  fc_selected[FASTCOPY_FAMILY_CLEAR] = s;
  fc_clear_fallthrough = s.impl == FC_IMPL_CLEAR_AVX2;
  return clear_function (s.impl);
}

static void *copy_ifunc (void *, const void *, size_t)
  __attribute__ ((ifunc ("resolve_copy")));
static void *clear_ifunc (void *, int, size_t)
  __attribute__ ((ifunc ("resolve_clear")));

FC_HIDDEN const fastcopy_copy_fn fc_copy_slot = copy_ifunc;
FC_HIDDEN const fastcopy_clear_fn fc_clear_slot = clear_ifunc;
