/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: a candidate timed as it runs once written.

   A written setting is in force from the library's load, and programs
   call the exported memcpy and memset, which reach the implementation
   through the entry points (src/entry-points.def): one implementation
   per family falls through, the others take a jump, a chain of compares
   or the dispatch slot.  A table entry called directly pays none of that
   (up to 11% on fixed sizes on Emerald Rapids, doc/bench/), so the
   decision is timed on the exported function of a copy of libfastcopy
   loaded into a link namespace of its own (dlmopen) with the candidate's
   settings in FASTCOPY at its load, in this process beside glibc's
   function.  The copy's own API says what it runs, and a copy that does
   not run the candidate stops the tuner.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune.h"

/* Each namespace has a libc of its own, and glibc 2.36's static TLS ran
   out at the twelfth on this project's machines: the decisions load at
   most MAX_DEPLOYED per family.  */
static int nloaded;

/* The file of the libfastcopy this program runs with.  */
static const char *
library_path (void)
{
  Dl_info info;
  if (dladdr ((void *) fastcopy_version, &info) == 0 || info.dli_fname == NULL)
    error_exit (1, "cannot tell which libfastcopy this program runs with");
  return info.dli_fname;
}

/* dlsym in HANDLE, or the tuner stops.  */
static void *
symbol (void *handle, const char *name)
{
  void *p = dlsym (handle, name);
  if (p == NULL)
    error_exit (1, "a copy of libfastcopy has no %s: %s", name, dlerror ());
  return p;
}

struct fcm_fn
deployed_fn (const struct family *f, const struct candidate *c,
	     char *report, size_t size)
{
  if (nloaded == FASTCOPY_FAMILY_COUNT * MAX_DEPLOYED)
    error_exit (1, "more than %d copies of libfastcopy to load",
		FASTCOPY_FAMILY_COUNT * MAX_DEPLOYED);
  /* "copy=avx2,rep_movsb_threshold=4KiB,copy_nt_threshold=never" */
  char settings[256];
  snprintf (settings, sizeof settings, "%s=%s,%s", f->name, c->impl->name,
	    c->items);
  const char *saved = getenv ("FASTCOPY");
  char *keep = saved != NULL ? strdup (saved) : NULL;
  if (setenv ("FASTCOPY", settings, 1) != 0)
    error_exit (1, "setenv FASTCOPY: out of memory");
  void *h = dlmopen (LM_ID_NEWLM, library_path (), RTLD_NOW | RTLD_LOCAL);
  if (keep != NULL)
    setenv ("FASTCOPY", keep, 1);
  else
    unsetenv ("FASTCOPY");
  free (keep);
  if (h == NULL)
    error_exit (1,
		"cannot load a copy of libfastcopy to time %s as deployed: %s",
		c->label, dlerror ());
  nloaded++;

  int copy = f->id == FASTCOPY_FAMILY_COPY;
  const char *function = copy ? "memcpy" : "memset";
  const struct fastcopy_choice *(*selected) (const char *)
    = symbol (h, "fastcopy_selected");
  const struct fastcopy_setting *(*setting) (const char *)
    = symbol (h, "fastcopy_setting_find");
  const struct fastcopy_choice *choice = selected (function);
  const struct fastcopy_setting *rep = setting (f->rep_key);
  const struct fastcopy_setting *nt = setting (f->nt_key);
  if (choice == NULL || rep == NULL || nt == NULL
      || strcmp (choice->impl->name, c->impl->name) != 0
      || rep->number != c->rep || nt->number != c->nt)
    error_exit (1,
		"a copy of libfastcopy loaded with FASTCOPY=%s does not run it: "
		"%s runs %s, %s %s, %s %s", settings, function,
		choice ? choice->impl->name : "?", f->rep_key,
		rep ? rep->value : "?", f->nt_key, nt ? nt->value : "?");
  snprintf (report, size, "FASTCOPY=%s: the exported %s runs %s", settings,
	    function, choice->impl->name);

  struct fcm_fn fn = { .call = copy ? FCM_COPY : FCM_SET,
		       .before = points_warm_up };
  if (copy)
    *(void **) &fn.copy = symbol (h, function);
  else
    *(void **) &fn.set = symbol (h, function);
  return fn;
}
