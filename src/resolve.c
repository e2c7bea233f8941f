/* The IFUNC resolvers and the two dispatch slots.

   The exported functions (entry.c) are plain STT_FUNC symbols that jump
   through fc_copy_slot / fc_clear_slot.  Each slot is a read-only pointer
   whose initial value is a local IFUNC symbol, so the linker emits an
   R_X86_64_IRELATIVE relocation for it; ld.so runs the resolver when it
   relocates libfastcopy itself, after every other relocation of this
   object.  Exporting the IFUNC symbols directly would make ld.so resolve
   them for earlier-relocated BIND_NOW libraries before libfastcopy is
   relocated, and print "Relink ... for IFUNC symbol" (notes/pitfalls.md).

   The library is built with -fno-tree-switch-conversion so that the
   switches below stay code, not tables of relocated addresses.

   FASTCOPY in the environment is applied later, by apply_environment at
   the end of this file, which rebinds a slot when it names another
   implementation.  */

#include <stdint.h>
#include <stdlib.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fastcopy-internal.h"
#include "settings.h"

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

/* In .data.rel.ro like the flags: read-only once ld.so has relocated
   libfastcopy, except for the moment apply_environment rewrites them.  */
FC_HIDDEN __attribute__ ((section (".data.rel.ro")))
fastcopy_copy_fn fc_copy_slot = copy_ifunc;
FC_HIDDEN __attribute__ ((section (".data.rel.ro")))
fastcopy_clear_fn fc_clear_slot = clear_ifunc;

/* Point FAMILY's slot and flag at implementation ID.  Their page is
   read-only (RELRO) by now: open it for the two stores only.  On failure
   nothing changes and 0 is returned.  */
static int
rebind (enum fastcopy_family family, enum fc_impl_id id)
{
  int copy = family == FASTCOPY_FAMILY_COPY;
  uintptr_t slot = copy ? (uintptr_t) &fc_copy_slot : (uintptr_t) &fc_clear_slot;
  uintptr_t flag = copy ? (uintptr_t) &fc_copy_fallthrough
			: (uintptr_t) &fc_clear_fallthrough;
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);
  uintptr_t lo = (slot < flag ? slot : flag) & -page;
  uintptr_t hi = ((slot > flag ? slot : flag) + sizeof (void *) + page - 1)
		 & -page;
  if (mprotect ((void *) lo, hi - lo, PROT_READ | PROT_WRITE) != 0)
    return 0;
  if (copy)
    {
      fc_copy_fallthrough = id == FC_IMPL_COPY_AVX2;
      fc_copy_slot = copy_function (id);
    }
  else
    {
      fc_clear_fallthrough = id == FC_IMPL_CLEAR_AVX2;
      fc_clear_slot = clear_function (id);
    }
  mprotect ((void *) lo, hi - lo, PROT_READ);
  return 1;
}

/* The second settings phase (settings.h): FASTCOPY and FASTCOPY_CONFIG,
   read through libc now that it is initialized, in secure-execution
   processes not at all.  It runs before the other initializers of
   libfastcopy (priority 101), e.g. api.c's, which publishes the choices.  */
__attribute__ ((constructor (101))) static void
apply_environment (void)
{
  if (!fc_settings_load_environment (getenv ("FASTCOPY"),
				     getenv ("FASTCOPY_CONFIG"),
				     getauxval (AT_SECURE) != 0))
    return;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      struct fc_selection s = fc_select ((enum fastcopy_family) f);
      if (s.impl != fc_selected[f].impl && !rebind ((enum fastcopy_family) f,
						    s.impl))
	{
	  /* Keep what the resolver chose, with its own thresholds.  */
	  fc_default_thresholds ((enum fastcopy_family) f, fc_selected[f].impl);
	  continue;
	}
      fc_selected[f] = s;
    }
}
