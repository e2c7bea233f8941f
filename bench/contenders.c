/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: the contenders, every one called through a volatile
   function pointer (measure.c):
   1. glibc: memcpy, memmove, memset, bzero as libc.so.6 itself defines them,
      found with dlsym on the dlopen("libc.so.6") handle, so that whatever is
      preloaded or linked first cannot stand in for them;
   2. libfastcopy: the function that libfastcopy.so.1 exports (dlsym on its
      own handle), including the dispatch jump that every program pays;
   3. null: a function that returns at once (dst, as the others do), the
      floor: what the call through the pointer and the measuring loop
      cost, whoever is called;
   4. peers: the functions of each --against library (AOCL-LibMem, say),
      found with dlsym on its handle;
   5. fc:NAME: every usable entry of that library's implementation table,
      called directly, but the profile ones (which only record and call
      another);
   6. ref:stream: an AVX2 loop of streaming stores (stream.c), on sizes that
      do not fit in the caches, the bandwidth to compare large copies with.
   Every lookup is checked with dladdr: the glibc functions must lie in
   libc.so.6, the others in the library that was opened.  */

#define _GNU_SOURCE 1
#include "config.h"

#include <dlfcn.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

const char *const func_names[F_COUNT] = {
  "memcpy", "memmove", "memset", "bzero"
};

struct cset csets[F_COUNT];
struct cset csets_wide[F_COUNT];
struct libraries lib;

static void *
must_dlsym (void *handle, const char *what, const char *name)
{
  dlerror ();
  void *p = dlsym (handle, name);
  const char *err = dlerror ();
  if (p == NULL || err != NULL)
    error_exit (1, "%s has no symbol %s%s%s", what, name, err ? ": " : "",
		err ? err : "");
  return p;
}

/* The file name ld.so loaded HANDLE from.  */
static void
handle_path (void *handle, char *buf, size_t len)
{
  struct link_map *lm = NULL;
  if (dlinfo (handle, RTLD_DI_LINKMAP, &lm) != 0 || lm == NULL)
    error_exit (1, "dlinfo failed: %s", dlerror ());
  snprintf (buf, len, "%s", lm->l_name);
}

/* The file of the object that FN lies in, or NULL.  */
static const char *
object_of (void *fn)
{
  Dl_info info;
  if (dladdr (fn, &info) == 0)
    return NULL;
  return info.dli_fname;
}

/* FN must be code in the object loaded from PATH: proof that the lookup
   reached the library we meant, not an interposed one.  */
static void
check_origin (void *fn, const char *name, const char *path, const char *who)
{
  const char *in = object_of (fn);
  if (in == NULL)
    error_exit (1, "cannot tell which object %s's %s at %p lies in", who, name,
		fn);
  if (strcmp (in, path) != 0)
    error_exit (1, "%s's %s resolved to code in %s, not in %s", who, name, in,
		path);
}

/* PEER's function NAME, or NULL if the library does not define it; *WHY
   then says so.  A lookup on the handle also searches the library's
   dependencies, so a symbol found there (libc's memcpy, say) is not the
   peer's.  */
static void *
peer_symbol (const struct peer *peer, const char *name, char *why, size_t len)
{
  dlerror ();
  void *fn = dlsym (peer->handle, name);
  const char *in = fn ? object_of (fn) : NULL;
  if (fn == NULL)
    snprintf (why, len, "it defines no %s", name);
  else if (in == NULL || strcmp (in, peer->path) != 0)
    snprintf (why, len, "it does not define %s (the one its handle finds "
	      "is in %s)", name, in ? in : "an unknown object");
  else
    return fn;
  return NULL;
}

/* The column label of the library at PATH: its file name without "lib"
   and from ".so" on (libaocl-libmem.so.5 -> aocl-libmem).  */
static void
peer_label (const char *path, char *label, size_t len)
{
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  if (strncmp (base, "lib", 3) == 0 && base[3] != 0)
    base += 3;
  const char *so = strstr (base, ".so");
  int n = so && so != base ? (int) (so - base) : (int) strlen (base);
  snprintf (label, len, "%.*s", n, base);
}

/* --against: each library is opened so that it stands in for nothing
   else.  RTLD_LOCAL keeps its symbols out of the global scope, so no
   library loaded later binds to them; RTLD_DEEPBIND makes its own
   references (its memmove calling its memcpy, say) bind inside it first,
   as they would if it were preloaded, and not to the libfastcopy that
   this program is linked with.  */
static void
open_peers (void)
{
  for (int i = 0; i < opt.nagainst; i++)
    {
      const char *path = opt.against[i];
      struct peer *p = &lib.peers[lib.npeers++];
      p->handle = dlopen (path, RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
      if (p->handle == NULL)
	error_exit (2, "--against %s: cannot open it: %s", path, dlerror ());
      handle_path (p->handle, p->path, sizeof p->path);
      peer_label (p->path, p->label, sizeof p->label);
      for (int j = 0; j < i; j++)
	if (strcmp (lib.peers[j].label, p->label) == 0)
	  error_exit (2, "--against %s: a second library named '%s' (the"
		      " first is %s)", path, p->label, lib.peers[j].path);
      /* The summary finds a peer's column by its label.  */
      static const char *const builtin[] = { "glibc", "libfastcopy", "null" };
      for (size_t j = 0; j < N_OF (builtin); j++)
	if (strcmp (p->label, builtin[j]) == 0)
	  error_exit (2, "--against %s: named '%s', as a contender of the"
		      " tool's own", path, p->label);
      /* bzero is optional; the others must be there.  */
      char why[PATH_MAX + 80];
      for (int f = 0; f < F_COUNT; f++)
	if (f != F_BZERO && !peer_symbol (p, func_names[f], why, sizeof why))
	  error_exit (2, "--against %s: %s", path, why);
    }
}

void
fcb_open_libraries (void)
{
  lib.libc = dlopen ("libc.so.6", RTLD_NOW | RTLD_LOCAL);
  if (lib.libc == NULL)
    error_exit (1, "dlopen libc.so.6: %s", dlerror ());
  handle_path (lib.libc, lib.libc_path, sizeof lib.libc_path);

  /* Default: the libfastcopy this program is linked with.  */
  char linked[PATH_MAX];
  const char *path = opt.lib;
  if (path == NULL)
    {
      Dl_info info;
      if (dladdr ((void *) fastcopy_version, &info) == 0 || info.dli_fname == NULL)
	error_exit (1, "cannot locate the libfastcopy this program is linked with; use --lib");
      snprintf (linked, sizeof linked, "%s", info.dli_fname);
      path = linked;
    }
  else if (strchr (path, '/') == NULL)
    usage_exit (2, "--lib needs a path containing '/', not a bare name (%s)", path);
  lib.fc = dlopen (path, RTLD_NOW | RTLD_LOCAL);
  if (lib.fc == NULL)
    error_exit (1, "dlopen %s: %s", path, dlerror ());
  handle_path (lib.fc, lib.fc_path, sizeof lib.fc_path);

  const char *who = lib.fc_path;
  *(void **) &lib.impl_count = must_dlsym (lib.fc, who, "fastcopy_impl_count");
  *(void **) &lib.impl_at = must_dlsym (lib.fc, who, "fastcopy_impl_at");
  *(void **) &lib.impl_usable = must_dlsym (lib.fc, who, "fastcopy_impl_usable");
  *(void **) &lib.selected = must_dlsym (lib.fc, who, "fastcopy_selected");
  *(void **) &lib.version = must_dlsym (lib.fc, who, "fastcopy_version");
  *(void **) &lib.cpu = must_dlsym (lib.fc, who, "fastcopy_cpu");
  *(void **) &lib.policy_matched = must_dlsym (lib.fc, who,
						"fastcopy_policy_matched");
  /* The version of the libc that is measured, whichever loaded it.  */
  *(void **) &lib.libc_version = must_dlsym (lib.libc, lib.libc_path,
					     "gnu_get_libc_version");
  open_peers ();
}

/* The null contender, one per signature.  Called through the same
   pointer as the others, so never inlined into the measuring loop.  */
static void *
null_copy (void *dst, const void *src, size_t n)
{
  (void) src;
  (void) n;
  return dst;
}

static void *
null_set (void *dst, int c, size_t n)
{
  (void) c;
  (void) n;
  return dst;
}

static void
null_zero (void *dst, size_t n)
{
  (void) dst;
  (void) n;
}

static void
add (struct cset *s, const char *label, enum role role, enum fcm_call call,
     void *fn)
{
  if (s->n == MAX_CONTENDERS)
    error_exit (1, "more than %d contenders", MAX_CONTENDERS);
  struct contender *c = &s->c[s->n++];
  snprintf (c->label, sizeof c->label, "%s", label);
  c->role = role;
  c->fn.call = call;
  switch (call)
    {
    case FCM_COPY: *(void **) &c->fn.copy = fn; break;
    case FCM_SET: *(void **) &c->fn.set = fn; break;
    case FCM_ZERO: *(void **) &c->fn.zero = fn; break;
    }
}

void
fcb_build_contenders (void)
{
  for (int f = 0; f < F_COUNT; f++)
    {
      const char *name = func_names[f];
      enum fcm_call call = f == F_MEMSET ? FCM_SET
			   : f == F_BZERO ? FCM_ZERO : FCM_COPY;
      enum fastcopy_family fam = call == FCM_COPY ? FASTCOPY_FAMILY_COPY
			       : FASTCOPY_FAMILY_CLEAR;
      struct cset *s = &csets[f];
      s->function = name;

      void *g = must_dlsym (lib.libc, lib.libc_path, name);
      void *x = must_dlsym (lib.fc, lib.fc_path, name);
      check_origin (g, name, lib.libc_path, "glibc");
      check_origin (x, name, lib.fc_path, "libfastcopy");
      add (s, "glibc", ROLE_GLIBC, call, g);
      add (s, "libfastcopy", ROLE_FASTCOPY, call, x);
      add (s, "null", ROLE_NULL, call,
	   call == FCM_COPY ? (void *) null_copy
	   : call == FCM_SET ? (void *) null_set : (void *) null_zero);
      for (int i = 0; i < lib.npeers; i++)
	{
	  char why[PATH_MAX + 80];
	  void *fn = peer_symbol (&lib.peers[i], name, why, sizeof why);
	  if (fn != NULL)
	    add (s, lib.peers[i].label, ROLE_PEER, call, fn);
	}

      /* The variants take the family's signature: bzero's are clear
	 functions called with c = 0.  */
      for (size_t i = 0; i < lib.impl_count (); i++)
	{
	  const struct fastcopy_impl *im = lib.impl_at (i);
	  if (im->family != fam || !lib.impl_usable (im)
	      || (im->traits & FASTCOPY_TRAIT_PROFILE))
	    continue;
	  char label[40];
	  snprintf (label, sizeof label, "fc:%s", im->name);
	  if (fam == FASTCOPY_FAMILY_COPY)
	    add (s, label, ROLE_VARIANT, FCM_COPY, (void *) im->copy);
	  else
	    add (s, label, ROLE_VARIANT, FCM_SET, (void *) im->clear);
	}

      csets_wide[f] = *s;
      if (fcb_stream_usable ())
	add (&csets_wide[f], "ref:stream", ROLE_REFERENCE,
	     call == FCM_COPY ? FCM_COPY : FCM_SET,
	     call == FCM_COPY ? (void *) fcb_stream_copy
			      : (void *) fcb_stream_set);
    }
}

int
fcb_contender_index (const struct cset *s, const char *label)
{
  for (int k = 0; k < s->n; k++)
    if (strcmp (s->c[k].label, label) == 0)
      return k;
  return -1;
}

void
fcb_verify_contenders (void)
{
  enum { N = 3 * PAGE };
  unsigned char *a = malloc (N), *b = malloc (N), *want = malloc (N);
  if (a == NULL || b == NULL || want == NULL)
    error_exit (1, "out of memory");
  static const size_t sizes[] = { 0, 1, 7, 16, 33, 100, 128, 255, 1000, 4097, 8000 };
  for (int f = 0; f < F_COUNT; f++)
    for (int k = 0; k < csets_wide[f].n; k++)
      for (size_t si = 0; si < N_OF (sizes); si++)
	{
	  const struct contender *c = &csets_wide[f].c[k];
	  if (c->role == ROLE_NULL)
	    continue;
	  size_t n = sizes[si], so = si * 7 % 64, doff = si * 13 % 64;
	  for (size_t i = 0; i < N; i++)
	    a[i] = (unsigned char) (i * 131 + 7), b[i] = (unsigned char) (i ^ 0x5a);
	  for (size_t i = 0; i < N; i++)
	    want[i] = b[i];
	  for (size_t i = 0; i < n; i++)
	    want[doff + i] = f == F_MEMSET ? 0xa5 : f == F_BZERO ? 0 : a[so + i];
	  switch (c->fn.call)
	    {
	    case FCM_COPY: c->fn.copy (b + doff, a + so, n); break;
	    case FCM_SET: c->fn.set (b + doff, f == F_MEMSET ? 0xa5 : 0, n); break;
	    case FCM_ZERO: c->fn.zero (b + doff, n); break;
	    }
	  for (size_t i = 0; i < N; i++)
	    if (b[i] != want[i])
	      error_exit (1, "%s %s gives a wrong result (size %zu, byte %zu)",
			  c->label, func_names[f], n, i);
	}
  free (a);
  free (b);
  free (want);
}
