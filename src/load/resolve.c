/* SPDX-License-Identifier: MIT */
/* The load: the IFUNC resolvers, which gather the CPU and the settings,
   select a plan (select.c) and commit it (commit.c); the two dispatch
   slots; and the initializer that applies FASTCOPY.  This is the only
   file that writes the slots.

   The exported functions are plain STT_FUNC symbols (entry.c, and the
   entry points that entry-points.def places in front of a variant) that
   fall through into the selected variant, jump to it, or jump through
   fc_copy_slot / fc_clear_slot.  Each slot is a read-only pointer whose
   initial value is a local IFUNC symbol, so the linker emits an
   R_X86_64_IRELATIVE relocation for it; ld.so runs the resolver when it
   relocates libfastcopy itself, after every other relocation of this
   object.  Exporting the IFUNC symbols directly would make ld.so resolve
   them for earlier-relocated BIND_NOW libraries before libfastcopy is
   relocated, and print "Relink ... for IFUNC symbol" (doc/design.md).

   The library is built with -fno-tree-switch-conversion so that the
   switches below stay code, not tables of relocated addresses.

   glibc=on (FASTCOPY) points both slots at glibc's own memmove and memset
   and both entry bytes at the slots, from the initializer: see
   use_glibc.  */

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>
#include "calls/dispatch.h"
#include "load-state.h"
#include "calls/profile.h"

/* Each row of entry-points.def names an implementation of its own family
   (a duplicate row is a duplicate case label below).  */
enum
{
#define FC_IMPL(id, family, name, function, ...) \
  FC_FAMILY_OF_##id = FASTCOPY_FAMILY_##family,
#include "impl-list.def"
#undef FC_IMPL
};
#define FC_ENTRY(family, impl, byte) \
  _Static_assert ((int) FC_FAMILY_OF_##impl == (int) FASTCOPY_FAMILY_##family, \
		  "entry-points.def: " #impl " is not of family " #family);
#include "entry-points.def"
#undef FC_ENTRY

unsigned char
fc_entry_byte (enum fc_impl_id id)
{
  switch (id)
    {
#define FC_ENTRY(family, impl, byte) case FC_IMPL_##impl: return byte;
#include "entry-points.def"
#undef FC_ENTRY
    default:
      return FC_ENTRY_SLOT;
    }
}

/* The function of each implementation: switches, code that computes
   each address PC-relative, rather than a table of pointers that the
   dynamic linker would have to relocate.  */

fastcopy_copy_fn
fc_copy_function (enum fc_impl_id id)
{
  switch (id)
    {
#define FC_IMPL(id, family, name, function, ...) \
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
#define FC_IMPL(id, family, name, function, ...) \
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

/* Make the plan once, in the first resolver: the CPU, the configuration
   file, then the selection.  */
static FC_EARLY void
plan_once (void)
{
  if (fc_state.planned)
    return;
  fc_state.planned = 1;
  const struct fc_cpu *cpu = fc_cpu_init ();
  fc_settings_load (cpu);
  struct fc_plan plan;
  fc_select (cpu, &fc_state.settings.merged, NULL, 0, &plan);
  fc_commit (&plan, cpu);
}

static FC_EARLY fastcopy_copy_fn
resolve_copy (void)
{
  plan_once ();
  enum fc_impl_id id = (enum fc_impl_id) fc_state.plan.impl[FASTCOPY_FAMILY_COPY];
  fc_copy_entry = fc_entry_byte (id);
  return fc_copy_function (id);
}

static FC_EARLY fastcopy_clear_fn
resolve_clear (void)
{
  plan_once ();
  enum fc_impl_id id = (enum fc_impl_id) fc_state.plan.impl[FASTCOPY_FAMILY_CLEAR];
  fc_clear_entry = fc_entry_byte (id);
  return fc_clear_function (id);
}

static void *copy_ifunc (void *, const void *, size_t)
  __attribute__ ((ifunc ("resolve_copy")));
static void *clear_ifunc (void *, int, size_t)
  __attribute__ ((ifunc ("resolve_clear")));

/* In .data.rel.ro: read-only once ld.so has relocated libfastcopy, except
   for the moment rebind or use_glibc rewrites them.  */
__attribute__ ((section (".data.rel.ro")))
fastcopy_copy_fn fc_copy_slot = copy_ifunc;
__attribute__ ((section (".data.rel.ro")))
fastcopy_clear_fn fc_clear_slot = clear_ifunc;

/* The slots are read-only (RELRO) once ld.so has relocated libfastcopy:
   open their page(s) for a few stores (WRITABLE), then close them
   again.  Returns 0 or errno.  */
static int
slots_writable (int writable)
{
  uintptr_t at[] = { (uintptr_t) &fc_copy_slot, (uintptr_t) &fc_clear_slot };
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (size_t i = 0; i < sizeof at / sizeof at[0]; i++)
    {
      lo = at[i] < lo ? at[i] : lo;
      hi = at[i] > hi ? at[i] : hi;
    }
  uintptr_t page = (uintptr_t) sysconf (_SC_PAGESIZE);
  lo &= -page;
  hi = (hi + sizeof (void *) + page - 1) & -page;
  int prot = writable ? PROT_READ | PROT_WRITE : PROT_READ;
  return mprotect ((void *) lo, hi - lo, prot) != 0 ? errno : 0;
}

/* Point FAMILY's slot and entry byte at implementation ID.  On failure
   nothing changes and errno is returned.  */
static int
rebind (enum fastcopy_family family, enum fc_impl_id id)
{
  int err = slots_writable (1);
  if (err != 0)
    return err;
  if (family == FASTCOPY_FAMILY_COPY)
    {
      fc_copy_entry = fc_entry_byte (id);
      fc_copy_slot = fc_copy_function (id);
    }
  else
    {
      fc_clear_entry = fc_entry_byte (id);
      fc_clear_slot = fc_clear_function (id);
    }
  slots_writable (0);
  return 0;
}

/* glibc=on: make every exported function end in glibc's own code, as if
   libfastcopy were not loaded.  The copy slot gets the memmove and the
   clear slot the memset that the process would call without libfastcopy
   (dlsym's RTLD_NEXT: glibc's, resolved by glibc's own IFUNC for this
   CPU, unless a library preloaded after this one defines them), and both
   entry bytes FC_ENTRY_SLOT, so that memcpy, memmove, memset and their
   _chk forms jump through the slots; the rest call through them already.
   Every copy function gets memmove, as every implementation here is
   overlap-safe (on x86-64 glibc's memcpy is its memmove; i386's memcpy
   is not overlap-safe, and a program that relied on libfastcopy's must
   keep working).  The _chk forms keep their size check, and call glibc's
   __chk_fail as before.

   Why here, in the initializer, and not in the resolvers or on the first
   call: the resolvers run while ld.so relocates this library, before
   any PLT call can be bound and before FASTCOPY can be read, and a GOT
   entry bound to glibc's symbol at load would cost every process a
   lookup.  A slot that looked glibc up on its first call would run dlsym
   inside whatever made that call: a signal handler, malloc holding its
   arena lock (realloc copies), two threads at once.  Here libc is
   initialized, dlsym takes ld.so's recursive lock (held already in a
   dlopen), and until the stores below the slots hold this library's
   implementations, so a memcpy that dlsym itself makes cannot recurse.
   Processes without FASTCOPY never get here: no cost at load.  The price
   is the one every FASTCOPY setting pays: a library initialized before
   libfastcopy has used its implementations.

   Returns 0; on failure nothing changes, a warning says why, and -1.  */
static int
use_glibc (void)
{
  fastcopy_copy_fn copy = (fastcopy_copy_fn) dlsym (RTLD_NEXT, "memmove");
  fastcopy_clear_fn clear = (fastcopy_clear_fn) dlsym (RTLD_NEXT, "memset");
  const char *missing = copy == NULL ? "memmove"
			: clear == NULL ? "memset" : "";
  int err = *missing == 0 ? slots_writable (1) : 0;
  if (*missing == 0 && err == 0)
    {
      /* Each store leaves a correct function in reach: a call in another
	 thread gets this library's implementation or glibc's.  */
      fc_copy_slot = copy;
      fc_clear_slot = clear;
      fc_copy_entry = FC_ENTRY_SLOT;
      fc_clear_entry = FC_ENTRY_SLOT;
      slots_writable (0);
      return 0;
    }
  const struct fc_item *it = &fc_state.settings.merged.item[FC_KEY_GLIBC];
  size_t len = 0;
  while (missing[len] != 0)
    len++;
  fc_diag_add (&fc_settings_scratch.diags,
	       len != 0 ? FC_W_GLIBC_MISSING : FC_W_GLIBC_NOT_BOUND, it->src,
	       it->line, FC_KEY_GLIBC, (unsigned long long) err, missing,
	       len);
  return -1;
}

/* NAME's value in the environment ENVP, or NULL.  */
static const char *
env_value (char *const *envp, const char *name)
{
  for (; envp != NULL && *envp != NULL; envp++)
    {
      const char *e = *envp, *n = name;
      while (*n != 0 && *e == *n)
	e++, n++;
      if (*n == 0 && *e == '=')
	return e + 1;
    }
  return NULL;
}

/* The second settings phase (settings.h): FASTCOPY and FASTCOPY_CONFIG,
   now that libc is initialized, in secure-execution processes not at all.
   glibc hands an initializer the environment (argc, argv, envp: at start
   and in dlopen, where it is environ), so no getenv: one symbol fewer to
   look up in every process.  A family whose slot cannot be rewritten
   keeps its implementation, with the thresholds the settings give it, and
   a warning says so.  glibc=on binds glibc's functions instead
   (use_glibc).  */
__attribute__ ((constructor (101))) static void
apply_environment (int argc, char **argv, char **envp)
{
  (void) argc;
  (void) argv;
  const char *env = env_value (envp, "FASTCOPY");
  const char *config = env_value (envp, "FASTCOPY_CONFIG");
  const struct fc_cpu *cpu = fc_cpu_init ();
  /* Without them, nothing to do, and getauxval (bound lazily, through
     the PLT) is neither called nor looked up.  */
  if ((env == NULL && config == NULL)
      || !fc_settings_load_environment (cpu, env, config,
					getauxval (AT_SECURE) != 0))
    return;
  const struct fc_layer *settings = &fc_state.settings.merged;
  struct fc_plan next;
  fc_select (cpu, settings, NULL, 0, &next);
  /* Recording: the profile implementations call the workers; if it
     cannot start, the workers take their place.  */
  int recording
    = next.impl[FASTCOPY_FAMILY_COPY] != next.worker[FASTCOPY_FAMILY_COPY]
      && fc_profile_start (fc_copy_function ((enum fc_impl_id)
					     next.worker[FASTCOPY_FAMILY_COPY]),
			   fc_clear_function ((enum fc_impl_id)
					      next.worker[FASTCOPY_FAMILY_CLEAR]))
	 == 0;
  /* glibc=on: glibc's functions in both slots, or, if they cannot be
     bound, this library's implementations as without it.  */
  int glibc = next.values.on[FC_KEY_GLIBC] != 0 && use_glibc () == 0;
  unsigned int kept = 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      if (!recording)
	next.impl[f] = next.worker[f];
      if (glibc || next.impl[f] == fc_state.plan.impl[f])
	continue;
      int err = rebind ((enum fastcopy_family) f,
			(enum fc_impl_id) next.impl[f]);
      if (err == 0)
	continue;
      int key = fc_impl_key ((enum fastcopy_family) f);
      const struct fc_item *it = &settings->item[key];
      const char *name = fc_impl_table[fc_state.plan.impl[f]].name;
      size_t len = 0;
      while (name[len] != 0)
	len++;
      fc_diag_add (&fc_settings_scratch.diags, FC_W_NOT_REBOUND, it->src,
		   it->line, key, (unsigned long long) err, name, len);
      kept |= 1u << f;
    }
  /* A family that keeps its implementation gets that one's thresholds.  */
  if (kept)
    {
      fc_select (cpu, settings, &fc_state.plan, kept, &next);
      for (int f = 0; f < FASTCOPY_FAMILY_COUNT && !recording; f++)
	next.impl[f] = next.worker[f];
    }
  next.values.on[FC_KEY_GLIBC] = (unsigned char) glibc;
  fc_commit (&next, cpu);
}
