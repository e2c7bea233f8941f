/* Declarations shared inside libfastcopy.  Everything here is hidden: the
   only exported symbols are the standard names (entry.c) and the FASTCOPY_1
   API (api.c).  */

#ifndef FASTCOPY_INTERNAL_H
#define FASTCOPY_INTERNAL_H 1

#include "config.h"
#include <stddef.h>
#include "fastcopy.h"

#define FC_HIDDEN __attribute__ ((visibility ("hidden")))

/* Code that runs inside an IFUNC resolver, while ld.so is relocating
   libfastcopy: no stack protector (a distribution's CFLAGS may turn it on,
   and the canary is not ours to rely on this early), no libc, no
   relocations.  */
#define FC_EARLY __attribute__ ((no_stack_protector))

/* Identifiers of every implementation, from the one list in impl-list.def.  */
enum fc_impl_id
{
#define FC_IMPL(id, family, name, function, requires, summary) FC_IMPL_##id,
#include "impl-list.def"
#undef FC_IMPL
  FC_IMPL_COUNT
};

/* Every implementation function.  Copy ones have memmove semantics.  */
#define FC_IMPL(id, family, name, function, requires, summary) \
  FC_DECLARE_##family (function);
#define FC_DECLARE_COPY(f) \
  FC_HIDDEN void *f (void *dst, const void *src, size_t n)
#define FC_DECLARE_CLEAR(f) \
  FC_HIDDEN void *f (void *dst, int c, size_t n)
#include "impl-list.def"
#undef FC_IMPL

/* CPU features, read once by cpu-features.c, the one place that runs CPUID.
   Safe to call from an IFUNC resolver: no relocations, no libc.  */
FC_HIDDEN FC_EARLY const struct fastcopy_cpu *fc_cpu_init (void);

/* Thresholds the variants read on their hot paths.  The policy fills them
   with defaults for the CPU and the chosen variants (select.c).  */
struct fc_tunables
{
  size_t rep_movsb_threshold;	/* copy: REP MOVSB from this size ... */
  size_t copy_nt_threshold;	/* ... up to here; streaming stores above */
  size_t rep_stosb_threshold;	/* clear: REP STOSB from this size ... */
  size_t clear_nt_threshold;	/* ... up to here; streaming stores above */
  int alias_guard;		/* copy: no REP MOVSB when (dst-src)%4096
				   is in 1..63 */
};
extern FC_HIDDEN struct fc_tunables fc_tunables;

#include <stddef.h>
#include "tunables-offsets.h"
_Static_assert (offsetof (struct fc_tunables, rep_movsb_threshold)
		== FC_TUNABLES_REP_MOVSB, "tunables-offsets.h is stale");
_Static_assert (offsetof (struct fc_tunables, copy_nt_threshold)
		== FC_TUNABLES_COPY_NT, "tunables-offsets.h is stale");
_Static_assert (offsetof (struct fc_tunables, rep_stosb_threshold)
		== FC_TUNABLES_REP_STOSB, "tunables-offsets.h is stale");
_Static_assert (offsetof (struct fc_tunables, clear_nt_threshold)
		== FC_TUNABLES_CLEAR_NT, "tunables-offsets.h is stale");

/* The policy: which implementation a family gets on this CPU, and why.
   Runs inside the IFUNC resolvers, so it must not use relocations or libc.
   fc_select is what the resolvers call; the pieces it is made of:
   fc_select_auto (the default rules), fc_select_seed (the seed patch's
   rules) and fc_default_thresholds (fills fc_tunables for a choice).  */
struct fc_selection
{
  enum fc_impl_id impl;
  const char *reason;
};
FC_HIDDEN FC_EARLY struct fc_selection fc_select (enum fastcopy_family family);
FC_HIDDEN FC_EARLY struct fc_selection
fc_select_auto (enum fastcopy_family family);
FC_HIDDEN FC_EARLY struct fc_selection
fc_select_seed (enum fastcopy_family family);
FC_HIDDEN FC_EARLY void fc_default_thresholds (enum fastcopy_family family,
					       enum fc_impl_id impl);

/* The settings (settings.c, settings.h): what the configuration file and
   the FASTCOPY environment variable ask for.  fc_settings_choice loads them
   (once per process) and returns the implementation asked for FAMILY:
   FC_CHOICE_AUTO (also when nothing is set), FC_CHOICE_SEED or
   FC_CHOICE_IMPL (id) of an implementation usable on this CPU.  After
   fc_default_thresholds, fc_settings_apply puts the configured thresholds
   over the defaults and returns the reason to report: S's own, or one
   naming the setting that chose the implementation.  */
#define FC_CHOICE_AUTO 0ull
#define FC_CHOICE_SEED 1ull
#define FC_CHOICE_IMPL(id) (2ull + (unsigned long long) (id))
FC_HIDDEN FC_EARLY unsigned long long
fc_settings_choice (enum fastcopy_family family);
FC_HIDDEN FC_EARLY const char *fc_settings_apply (enum fastcopy_family family,
						  struct fc_selection s);

/* What the resolvers chose, for the introspection API.  */
extern FC_HIDDEN struct fc_selection fc_selected[FASTCOPY_FAMILY_COUNT];

/* The implementation table, generated from impl-list.def.  */
extern FC_HIDDEN const struct fastcopy_impl fc_impl_table[FC_IMPL_COUNT];

#endif
