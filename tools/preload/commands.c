/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: the commands enable, disable and status.  */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file-replace.h"
#include "common/i386-abi.h"
#include "common/json.h"
#include "common/preload-entry.h"
#include "common/shared-object.h"
#include "preload.h"

int no_test;
int json_output;

/* Who loads the library once the file changes: the programs of this
   system, or of the one under --root.  */
static const char *
programs_from_now_on (void)
{
  static char *words;
  if (strcmp (root, "/") == 0)
    return "every program started from now on";
  if (words == NULL)
    words = xasprintf ("every program that the system under %s starts "
		       "from now on", root);
  return words;
}

/* The entry to write for the library in FASTCOPY_LIBDIR.  */
static char *
preferred_entry (void)
{
  const char *lib = dst_lib ();
  if (lib != NULL)
    {
      char *usr = xasprintf ("/usr/%s", lib);
      char *top = xasprintf ("/%s", lib);
      char *e = NULL;
      if (strcmp (FASTCOPY_LIBDIR, usr) == 0)
	e = xasprintf ("/usr/$LIB/%s", FASTCOPY_SONAME);
      else if (strcmp (FASTCOPY_LIBDIR, top) == 0)
	e = xasprintf ("/$LIB/%s", FASTCOPY_SONAME);
      free (usr);
      free (top);
      if (e != NULL)
	return e;
    }
  return xasprintf ("%s/%s", FASTCOPY_LIBDIR, FASTCOPY_SONAME);
}

/* Warn when the root runs 32-bit programs and the entry (LEN bytes at
   ENTRY) gives them no i386 library: their dynamic loader then prints an
   error at every start.  Enabling goes on: 64-bit programs are served.  */
static void
warn_i386 (const char *entry, size_t len)
{
  const char *lib = i386_lib_value (root);
  if (lib == NULL)
    return;
  struct i386_load l;
  i386_entry_load (root, lib, entry, len, &l);
  if (l.problem != NULL)
    fprintf (stderr,
	     "%s: warning: 32-bit programs get no i386 libfastcopy from '%.*s'\n"
	     "  (it leads them to %s: %s);\n"
	     "every 32-bit program will print an ld.so error each time it starts;\n"
	     "to fix this: %s\n",
	     tool_name, (int) len, entry, l.file != NULL ? l.file : "nothing",
	     l.problem, i386_advice (root, entry, len));
  free (l.file);
}

int
cmd_enable (void)
{
  char *libpath = xasprintf ("%s/%s", FASTCOPY_LIBDIR, FASTCOPY_SONAME);
  char *libhost = rooted (libpath);
  char *libin = follow_in_root (libpath);
  if (libin == NULL)
    {
      error_msg ("%s: %s; is libfastcopy installed?", libhost,
		 strerror (errno));
      return EXIT_ERROR;
    }
  char *libreal = rooted (libin);
  const char *bad = libfastcopy_problem (libreal, &elf_abi_x86_64);
  if (bad != NULL)
    {
      error_msg ("%s: %s; refusing to enable it", libhost, bad);
      return EXIT_ERROR;
    }

  struct pfile f;
  if (pfile_load (&f) < 0)
    return EXIT_ERROR;
  struct content c;
  content_parse (&c, f.data, f.len);
  const char *tok;
  size_t toklen;
  long at = find_entry (&c, 0, &tok, &toklen);
  if (at >= 0)
    {
      msg ("libfastcopy is already enabled in %s (line %ld: %.*s); nothing to do\n",
	   f.shown, at + 1, (int) toklen, tok);
      warn_i386 (tok, toklen);
      return EXIT_OK;
    }

  warn_comments (&f);
  int unreadable = warn_unreadable (&f);
  char *entry = preferred_entry ();
  if (!no_test)
    {
      int is_root = strcmp (root, "/") == 0;
      int t = test_library (libreal, is_root ? entry : NULL);
      if (t < 0)
	{
	  error_msg ("not enabling: the test process failed with %s preloaded; %s is unchanged",
		     libhost, f.shown);
	  return EXIT_ERROR;
	}
      if (t > 0)
	{
	  /* The dynamic loader does not resolve ENTRY to our file here
	     (say, an RPM built for /usr/lib64 installed on Debian): fall back
	     to the plain path, which always names the tested file.  */
	  msg ("note: ld.so does not resolve %s to %s here; writing the full path instead\n",
	       entry, libhost);
	  free (entry);
	  entry = xasprintf ("%s", libpath);
	}
    }
  else
    msg ("not testing the library (--no-test)\n");

  if (dir_lock (f.dir) < 0)
    return EXIT_ERROR;
  for (int attempt = 0;; attempt++)
    {
      if (attempt > 0)
	{
	  if (pfile_load (&f) < 0)
	    return EXIT_ERROR;
	  content_parse (&c, f.data, f.len);
	  if (find_entry (&c, 0, &tok, &toklen) >= 0)
	    {
	      msg ("libfastcopy was enabled meanwhile; nothing to do\n");
	      warn_i386 (tok, toklen);
	      return EXIT_OK;
	    }
	}
      if (c.n == 0)
	c.final_newline = 1;
      content_push (&c, entry, strlen (entry));
      struct buf out = { 0 };
      content_join (&c, &out);
      int r = pfile_replace (&f, out.data, out.len);
      free (out.data);
      if (r < 0)
	return EXIT_ERROR;
      if (r == 0)
	break;
      if (attempt == 4)
	{
	  error_msg ("%s keeps changing while it is being edited; giving up",
		     f.shown);
	  return EXIT_ERROR;
	}
    }
  if (!f.exists)
    restore_label (f.path);
  msg ("enabled: added '%s' to %s\n", entry, f.shown);
  if (unreadable)
    msg ("%s, if it can read %s, loads %s\n", programs_from_now_on (),
	 f.shown, libpath);
  else
    msg ("%s loads %s\n", programs_from_now_on (), libpath);
  warn_i386 (entry, strlen (entry));
  return EXIT_OK;
}

int
cmd_disable (void)
{
  struct pfile f;
  if (pfile_load (&f) < 0)
    return EXIT_ERROR;
  if (dir_lock (f.dir) < 0)
    return EXIT_ERROR;
  for (int attempt = 0;; attempt++)
    {
      if (attempt > 0 && pfile_load (&f) < 0)
	return EXIT_ERROR;
      struct content c;
      content_parse (&c, f.data, f.len);
      size_t removed = remove_entries (&c);
      if (removed == 0)
	{
	  msg ("libfastcopy is not enabled in %s; nothing to do\n", f.shown);
	  return EXIT_OK;
	}
      struct buf out = { 0 };
      content_join (&c, &out);
      int r = pfile_replace (&f, out.data ? out.data : "", out.len);
      free (out.data);
      if (r < 0)
	return EXIT_ERROR;
      if (r == 0)
	{
	  if (out.len == 0 && f.via_link)
	    msg ("disabled: emptied %s, which %s points to (libfastcopy was its only entry)\n",
		 f.path, f.shown);
	  else if (out.len == 0)
	    msg ("disabled: removed %s (libfastcopy was its only entry)\n",
		 f.shown);
	  else
	    msg ("disabled: removed %zu libfastcopy entr%s from %s\n", removed,
		 removed == 1 ? "y" : "ies", f.shown);
	  msg ("%s uses glibc's functions again\n", programs_from_now_on ());
	  return EXIT_OK;
	}
      if (attempt == 4)
	{
	  error_msg ("%s keeps changing while it is being edited; giving up",
		     f.shown);
	  return EXIT_ERROR;
	}
    }
}

/* status: each libfastcopy entry, what it loads, and the verdict; where
   the root runs 32-bit programs, the same for them.  */
struct entry_state
{
  long line;			/* from 1 */
  char *entry;
  char *file;			/* in the root; NULL: nothing */
  const char *state;		/* "ok", or what is wrong */
  char *file32;			/* lib32 set: what 32-bit programs load */
  const char *state32;
};

static void
print_status_json (const struct pfile *f, const char *library, int installed,
		   const struct entry_state *e, size_t n, const char *lib32,
		   int status)
{
  int top = 1;
  putchar ('{');
  json_str_field ("file", f->shown, &top);
  json_bool_field ("exists", f->exists, &top);
  json_bool_field ("enabled", n > 0, &top);
  json_str_field ("library", library, &top);
  json_bool_field ("installed", installed, &top);
  json_str_field ("i386_lib", lib32, &top);
  json_key ("entries", &top);
  putchar ('[');
  for (size_t i = 0; i < n; i++)
    {
      int first = 1;
      printf ("%s{", i ? "," : "");
      json_num_field ("line", (unsigned long long) e[i].line, &first);
      json_str_field ("entry", e[i].entry, &first);
      json_str_field ("loads", e[i].file, &first);
      json_str_field ("state", e[i].state, &first);
      if (lib32 != NULL)
	{
	  json_str_field ("i386_loads", e[i].file32, &first);
	  json_str_field ("i386_state", e[i].state32, &first);
	}
      putchar ('}');
    }
  putchar (']');
  json_num_field ("status", (unsigned long long) status, &top);
  printf ("}\n");
}

int
cmd_status (void)
{
  struct pfile f;
  if (pfile_load (&f) < 0)
    return EXIT_ERROR;
  struct content c;
  content_parse (&c, f.data, f.len);
  char *libpath = xasprintf ("%s/%s", FASTCOPY_LIBDIR, FASTCOPY_SONAME);
  char *libhost = rooted (libpath);
  char *libin = follow_in_root (libpath);
  int lib_ok = libin != NULL
	       && libfastcopy_problem (rooted (libin), &elf_abi_x86_64) == NULL;

  warn_comments (&f);
  warn_unreadable (&f);
  /* Each entry: the file it loads, and whether that file is libfastcopy
     and passes the test enable runs; where the root runs 32-bit
     programs, also the file it loads for them and whether that passes
     the same test (which runs the 32-bit C library with it).  */
  const char *lib32 = i386_lib_value (root);
  int missing = 0, failing = 0, foreign = 0, missing32 = 0;
  const char *advice32 = NULL;
  struct entry_state *e = NULL;
  size_t n = 0;
  for (long at = find_entry (&c, 0, NULL, NULL); at >= 0;
       at = find_entry (&c, at + 1, NULL, NULL))
    {
      struct preload_scan s;
      preload_scan_start (&s, c.lines[at].p, c.lines[at].len);
      while (preload_scan_next (&s))
	{
	  if (!is_ours (s.entry, s.entry_len))
	    continue;
	  e = xrealloc (e, (n + 1) * sizeof *e);
	  struct entry_state *es = &e[n++];
	  *es = (struct entry_state) { .line = at + 1 };
	  es->entry = xasprintf ("%.*s", (int) s.entry_len, s.entry);
	  es->file = preload_entry_file (root, FASTCOPY_LIBDIR, s.entry,
					 s.entry_len);
	  char *host = es->file != NULL ? rooted (es->file) : NULL;
	  es->state = host != NULL ? shared_object_check (host, &elf_abi_x86_64)
		      : "no such file";
	  missing |= es->state != NULL;
	  if (es->state == NULL && !no_test && test_library (host, NULL) < 0)
	    {
	      es->state = "FAILS the test (above)";
	      failing = 1;
	    }
	  if (es->state == NULL && !shared_object_defines (host,
							   "fastcopy_version"))
	    {
	      es->state = "not libfastcopy (it defines no fastcopy_version)";
	      foreign = 1;
	    }
	  if (es->state == NULL)
	    es->state = "ok";
	  free (host);
	  if (lib32 == NULL)
	    continue;
	  struct i386_load l;
	  i386_entry_load (root, lib32, s.entry, s.entry_len, &l);
	  es->file32 = l.file;
	  es->state32 = l.problem;
	  if (es->state32 == NULL && no_test)
	    es->state32 = "an i386 shared object (not tested)";
	  else if (es->state32 == NULL)
	    {
	      char *host32 = rooted (l.file);
	      es->state32 = "ok";
	      if (test_library (host32, NULL) < 0)
		{
		  es->state32 = "FAILS the test (above)";
		  failing = 1;
		}
	      free (host32);
	    }
	  if (l.problem != NULL && advice32 == NULL)
	    advice32 = i386_advice (root, s.entry, s.entry_len);
	  missing32 |= l.problem != NULL;
	}
    }
  int status = n == 0 ? EXIT_NOT_ENABLED : missing ? EXIT_BROKEN
	       : failing || foreign ? EXIT_FAILS_TEST
	       : missing32 ? EXIT_NO_I386 : EXIT_OK;
  if (json_output)
    print_status_json (&f, libhost, lib_ok, e, n, lib32, status);
  else if (n == 0)
    {
      printf ("libfastcopy is not enabled (%s %s)\n", f.shown,
	      f.exists ? "has no libfastcopy entry" : "does not exist");
      printf ("library %s: %s\n", libhost,
	      lib_ok ? "installed" : "not installed");
    }
  else
    {
      printf (status == EXIT_BROKEN || status == EXIT_FAILS_TEST
	      ? "libfastcopy is enabled in %s, but an entry is BROKEN:\n"
	      : "libfastcopy is enabled in %s:\n", f.shown);
      for (size_t i = 0; i < n; i++)
	{
	  printf ("  line %ld: %s -> %s: %s\n", e[i].line, e[i].entry,
		  e[i].file != NULL ? e[i].file : "nothing", e[i].state);
	  if (lib32 != NULL)
	    printf ("    for 32-bit programs ($LIB is %s) -> %s: %s\n", lib32,
		    e[i].file32 != NULL ? e[i].file32 : "nothing",
		    e[i].state32);
	}
      if (status == EXIT_BROKEN || status == EXIT_FAILS_TEST)
	printf ("every dynamically linked program %s; run 'fastcopy-preload%s%s disable' to remove it\n",
		missing ? "reports an error for it"
		: failing ? "may fail with it" : "loads it instead of libfastcopy",
		strcmp (root, "/") ? " --root " : "",
		strcmp (root, "/") ? root : "");
      else if (status == EXIT_NO_I386)
	printf ("32-bit programs find no i386 libfastcopy: every 32-bit program prints an\n"
		"ld.so error each time it starts; to fix this: %s\n", advice32);
    }
  for (size_t i = 0; i < n; i++)
    {
      free (e[i].entry);
      free (e[i].file);
      free (e[i].file32);
    }
  free (e);
  return status;
}
