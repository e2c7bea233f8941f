/* SPDX-License-Identifier: MIT */
/* Declarations shared inside libfastcopy.  Everything here is hidden: the
   only exported symbols are the standard names (entry.c and the entry
   points that entry-points.def places) and the FASTCOPY_1 API (api.c).
   doc/design.md follows a call from an exported name to a variant.  */

#ifndef FASTCOPY_INTERNAL_H
#define FASTCOPY_INTERNAL_H 1

#include "config.h"
#include <stddef.h>
#include "fastcopy.h"
#include "traits.h"

#define FC_HIDDEN __attribute__ ((visibility ("hidden")))

/* State written only on demand (a configuration file or variable to
   parse, a tool asking, a recording): file-backed zeros in a section of
   its own after fc_state's, not .bss, which the dynamic loader would map,
   or zero the last page of, in every process.  build.exp checks that the
   library has no .bss to speak of.  */
#define FC_LAZY __attribute__ ((section (".fastcopy_lazy")))

/* Code that runs inside an IFUNC resolver, while ld.so is relocating
   libfastcopy: no stack protector (a distribution's CFLAGS may turn it on,
   and the canary is not ours to rely on this early), no libc, no
   relocations.  */
#define FC_EARLY __attribute__ ((no_stack_protector))

_Static_assert (FC_TRAIT_REP == FASTCOPY_TRAIT_REP
		&& FC_TRAIT_NT == FASTCOPY_TRAIT_NT
		&& FC_TRAIT_ALIAS_GUARD == FASTCOPY_TRAIT_ALIAS_GUARD
		&& FC_TRAIT_ENTRY == FASTCOPY_TRAIT_ENTRY
		&& FC_TRAIT_PROFILE == FASTCOPY_TRAIT_PROFILE,
		"traits.h and fastcopy.h disagree");
_Static_assert (FC_NEVER == FASTCOPY_NEVER, "traits.h and fastcopy.h disagree");

/* Identifiers of every implementation, from the one list in impl-list.def.  */
enum fc_impl_id
{
#define FC_IMPL(id, family, name, function, ...) FC_IMPL_##id,
#include "impl-list.def"
#undef FC_IMPL
  FC_IMPL_COUNT
};

/* Every implementation function.  Copy ones have memmove semantics.  */
#define FC_IMPL(id, family, name, function, ...) \
  FC_DECLARE_##family (function);
#define FC_DECLARE_COPY(f) \
  FC_HIDDEN void *f (void *dst, const void *src, size_t n)
#define FC_DECLARE_CLEAR(f) \
  FC_HIDDEN void *f (void *dst, int c, size_t n)
#include "impl-list.def"
#undef FC_IMPL
#undef FC_DECLARE_COPY
#undef FC_DECLARE_CLEAR

/* The implementation table (impl-table.c), generated from impl-list.def.
   Its texts are arrays and it holds no function, so it needs no
   relocation: loading the library writes no word of it.  The public
   struct fastcopy_impl views, with pointers, are api.c's, made on first
   use.  */
struct fc_impl
{
  char name[8];
  unsigned char family;		/* enum fastcopy_family */
  unsigned int traits;		/* FC_TRAIT_* */
  unsigned long long requires;	/* FASTCOPY_CPU_* */
  unsigned long long rep_when_named;	/* or FC_FROM_ROW */
  char summary[200];
};
extern FC_HIDDEN const struct fc_impl fc_impl_table[FC_IMPL_COUNT];

/* The settings, from the one list in keys.def.  */
enum fc_key
{
#define FC_KEY(id, name, family, type, trait) FC_KEY_##id,
#include "keys.def"
#undef FC_KEY
  FC_KEY_COUNT
};

/* What keys.def says of key KEY: its name ("rep_movsb_threshold"), its
   family, its type (a FASTCOPY_SETTING_* value) and the implementation
   trait that makes it matter (0: always).  Switches, not a table: the
   names are literals reached from code, so the parser in the resolvers
   needs no relocated pointer.  */

static inline FC_EARLY const char *
fc_key_name (int key)
{
  switch (key)
    {
#define FC_KEY(id, name, family, type, trait) \
    case FC_KEY_##id: return #name;
#include "keys.def"
#undef FC_KEY
    default: return "";
    }
}

static inline FC_EARLY enum fastcopy_family
fc_key_family (int key)
{
  switch (key)
    {
#define FC_KEY(id, name, family, type, trait) \
    case FC_KEY_##id: return FASTCOPY_FAMILY_##family;
#include "keys.def"
#undef FC_KEY
    default: return FASTCOPY_FAMILY_COPY;
    }
}

static inline FC_EARLY enum fastcopy_setting_type
fc_key_type (int key)
{
  switch (key)
    {
#define FC_KEY(id, name, family, type, trait) \
    case FC_KEY_##id: return FASTCOPY_SETTING_##type;
#include "keys.def"
#undef FC_KEY
    default: return FASTCOPY_SETTING_SIZE;
    }
}

static inline FC_EARLY unsigned int
fc_key_trait (int key)
{
  switch (key)
    {
#define FC_KEY(id, name, family, type, trait) \
    case FC_KEY_##id: return (trait);
#include "keys.def"
#undef FC_KEY
    default: return 0;
    }
}

/* Thresholds, one word per key of keys.def in its order (the words of
   the IMPL keys are unused), so that the assembly can find them
   (FC_OFFSET_<key>, sysdeps/x86/entry-common.h).  The variants read
   fc_state.tunables (load-state.h) on their hot paths; only commit.c
   writes it.  */
struct fc_tunables
{
  size_t value[FC_KEY_COUNT];
};
#define FC_TUNABLE(key) (fc_state.tunables.value[FC_KEY_##key])

/* Change one of them now (fastcopy_set); calls in progress see the old or
   the new value.  */
FC_HIDDEN void fc_set_tunable (int key, size_t value);

/* The policy's vendors: a row is for AMD's CPUs, Intel's, or any.  */
enum fc_vendor
{
  FC_VENDOR_ANY = 0,		/* in policy rows: any vendor */
  FC_VENDOR_AMD,		/* AuthenticAMD, HygonGenuine */
  FC_VENDOR_INTEL		/* every other: GenuineIntel, and the CPUs
				   that cannot be told from Intel's without
				   CPUID (cpu-features.c) */
};

/* The CPU the policy matches: what fastcopy_cpu () reports, and its
   vendor class.  */
struct fc_cpu
{
  struct fastcopy_cpu id;
  unsigned char vendor;		/* enum fc_vendor, never ANY */
};

/* This machine's CPU, read once by cpu-features.c, the one place that
   learns it, from what glibc already read: no CPUID (but on a glibc
   older than 2.33), safe in an IFUNC resolver.  The vendor string stays
   empty until fc_cpu_vendor_string, for the tools, runs the one CPUID
   that knows it.  */
FC_HIDDEN FC_EARLY const struct fc_cpu *fc_cpu_init (void);
/* The same, with its cache sizes (sysconf), read on the first call.  */
FC_HIDDEN FC_EARLY const struct fc_cpu *fc_cpu_caches (void);
FC_HIDDEN const char *fc_cpu_vendor_string (void);

/* The features of REQUIRES (FASTCOPY_CPU_*) that CPU lacks: 0 when code
   that needs them can run on it.  The one test of whether a CPU can run
   an implementation (impl-list.def's .requires) or meets a policy row,
   for the settings parser, the selection and the API.  */
static inline unsigned long long
fc_cpu_lacks (const struct fc_cpu *cpu, unsigned long long requires)
{
  return requires & ~cpu->id.features;
}

/* A CPU a caller describes (fastcopy_plan_for), with its vendor class.  */
FC_HIDDEN void fc_cpu_from_description (const struct fastcopy_cpu *d,
					struct fc_cpu *cpu);

#endif
