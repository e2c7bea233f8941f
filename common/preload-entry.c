/* SPDX-License-Identifier: MIT */
/* How /etc/ld.so.preload splits into entries, and which are libfastcopy's
   (preload-entry.h).  */

#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/preload-entry.h"
#include "common/root-path.h"
#include "common/xalloc.h"
/* Generated from packaging/preload-remove.sh by preload-rule.sh: the
   library's file name preload_library and the tables
   preload_name_patterns, preload_dirs and preload_lib_values.  */
#include "common/preload-rule.h"

static int
is_sep (char c)
{
  return c == ' ' || c == '\t' || c == ':';
}

void
preload_scan_start (struct preload_scan *s, const char *line, size_t len)
{
  const char *hash = memchr (line, '#', len);
  s->p = line;
  s->end = hash != NULL ? hash : line + len;
  s->comment = hash;
  s->comment_len = hash != NULL ? (size_t) (line + len - hash) : 0;
}

int
preload_scan_next (struct preload_scan *s)
{
  const char *q = s->p;
  while (q < s->end && is_sep (*q))
    q++;
  s->sep = s->p;
  s->sep_len = (size_t) (q - s->p);
  if (q == s->end)
    {
      s->p = q;
      return 0;
    }
  s->entry = q;
  while (q < s->end && !is_sep (*q))
    q++;
  s->entry_len = (size_t) (q - s->entry);
  s->p = q;
  return 1;
}

/* Nonzero when S matches one of PATTERNS (shell patterns, as in a case
   statement: fnmatch without flags).  */
static int
matches (const char *const *patterns, const char *s)
{
  for (; *patterns != NULL; patterns++)
    if (fnmatch (*patterns, s, 0) == 0)
      return 1;
  return 0;
}

/* What the rule is asked: is an entry libfastcopy's (FILE NULL), or does
   it name FILE?  */
struct rule
{
  const char *root, *libdir;
  const struct stat *file;
};

/* The library's directories: the rule's, then LIBDIR; NULL past them.  */
static const char *
dir_at (const struct rule *r, size_t i)
{
  size_t n = sizeof preload_dirs / sizeof preload_dirs[0] - 1;
  return i < n ? preload_dirs[i] : i == n ? r->libdir : NULL;
}

/* The status of PATH (absolute, inside the root), links followed inside
   it.  */
static int
stat_in_root (const char *root, const char *path, struct stat *st)
{
  char *canon = root_canonical (root, path);
  if (canon == NULL)
    return -1;
  char *host = root_join (root, canon);
  int ret = stat (host, st);
  free (host);
  free (canon);
  return ret;
}

static int
same_file (const struct stat *a, const struct stat *b)
{
  return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Nonzero when PATH is the file asked about: R->file, or else the
   library's file in one of its directories.  */
static int
is_wanted_file (const struct rule *r, const char *path)
{
  struct stat st, lib;
  if (stat_in_root (r->root, path, &st) < 0)
    return 0;
  if (r->file != NULL)
    return same_file (&st, r->file);
  const char *dir;
  for (size_t i = 0; (dir = dir_at (r, i)) != NULL; i++)
    {
      char *p = xasprintf ("%s/%s", dir, preload_library);
      int same = stat_in_root (r->root, p, &lib) == 0 && same_file (&st, &lib);
      free (p);
      if (same)
	return 1;
    }
  return 0;
}

/* Nonzero when DIR (canonical) is one of the library's directories.  */
static int
is_library_dir (const struct rule *r, const char *dir)
{
  const char *d;
  for (size_t i = 0; (d = dir_at (r, i)) != NULL; i++)
    if (strcmp (d, dir) == 0)
      return 1;
  return 0;
}

/* The rule for an entry X whose $LIB is expanded.  */
static int
expanded_matches (const struct rule *r, const char *x)
{
  const char *slash = strrchr (x, '/');
  if (slash == NULL)
    {
      /* A bare name: ld.so looks it up in the library directories.  */
      if (r->file == NULL && matches (preload_name_patterns, x))
	return 1;
      const char *dir;
      for (size_t i = 0; (dir = dir_at (r, i)) != NULL; i++)
	{
	  char *p = xasprintf ("%s/%s", dir, x);
	  int found = is_wanted_file (r, p);
	  free (p);
	  if (found)
	    return 1;
	}
      return 0;
    }
  if (x[0] != '/')
    return 0;
  if (is_wanted_file (r, x))
    return 1;
  if (r->file != NULL || !matches (preload_name_patterns, slash + 1))
    return 0;
  char *dir = xasprintf ("%.*s", (int) (slash - x), x);
  char *canon = root_canonical (r->root, dir[0] != '\0' ? dir : "/");
  int in = canon != NULL && is_library_dir (r, canon);
  free (canon);
  free (dir);
  return in;
}

/* NAME with every $LIB and ${LIB} replaced by VALUE: a new string.  */
static char *
expand_lib (const char *name, const char *value)
{
  char *out = xasprintf ("%s", "");
  for (const char *p = name;;)
    {
      const char *a = strstr (p, "$LIB"), *b = strstr (p, "${LIB}");
      const char *at = a != NULL && (b == NULL || a < b) ? a : b;
      char *next;
      if (at == NULL)
	next = xasprintf ("%s%s", out, p);
      else
	next = xasprintf ("%s%.*s%s", out, (int) (at - p), p, value);
      free (out);
      out = next;
      if (at == NULL)
	return out;
      p = at + (at == a ? 4 : 6);
    }
}

/* The entry as a string in NAME (PATH_MAX bytes); 0 when it cannot name a
   file: a longer name cannot be opened, and a NUL byte ends it for ld.so
   but not for the shell, so neither side takes it for libfastcopy's.  */
static int
entry_name (const char *entry, size_t len, char *name)
{
  if (len >= PATH_MAX || memchr (entry, '\0', len) != NULL)
    return 0;
  memcpy (name, entry, len);
  name[len] = '\0';
  return 1;
}

/* NAME with $LIB replaced by the I-th value of the rule; NULL past the
   last (for a name without $LIB: NAME itself, once).  A new string.  */
static char *
expansion (const char *name, size_t i)
{
  if (strstr (name, "$LIB") == NULL && strstr (name, "${LIB}") == NULL)
    return i == 0 ? xasprintf ("%s", name) : NULL;
  return preload_lib_values[i] != NULL ? expand_lib (name, preload_lib_values[i])
    : NULL;
}

static int
entry_matches (const struct rule *r, const char *entry, size_t len)
{
  char name[PATH_MAX], *x;
  if (!entry_name (entry, len, name))
    return 0;
  for (size_t i = 0; (x = expansion (name, i)) != NULL; i++)
    {
      int m = expanded_matches (r, x);
      free (x);
      if (m)
	return 1;
    }
  return 0;
}

/* The canonical path of PATH when a file is there, else NULL.  */
static char *
existing (const char *root, const char *path)
{
  char *canon = root_canonical (root, path);
  if (canon == NULL)
    return NULL;
  char *host = root_join (root, canon);
  struct stat st;
  int found = stat (host, &st) == 0;
  free (host);
  if (!found)
    {
      free (canon);
      return NULL;
    }
  return canon;
}

/* The file X (with $LIB expanded) loads: an absolute path, as it is; a
   bare name, in the first of the N directories DIRS that has it.  */
static char *
loaded_file (const char *root, const char *x, const char *const *dirs,
	     size_t n)
{
  if (x[0] == '/')
    return existing (root, x);
  if (strchr (x, '/') != NULL)
    return NULL;
  char *found = NULL;
  for (size_t k = 0; found == NULL && k < n; k++)
    {
      char *p = xasprintf ("%s/%s", dirs[k], x);
      found = existing (root, p);
      free (p);
    }
  return found;
}

char *
preload_entry_file (const char *root, const char *libdir, const char *entry,
		    size_t len)
{
  const struct rule r = { root, libdir, NULL };
  const char *dirs[sizeof preload_dirs / sizeof preload_dirs[0]];
  size_t n = 0;
  for (const char *d; (d = dir_at (&r, n)) != NULL; n++)
    dirs[n] = d;
  char name[PATH_MAX], *x, *found = NULL;
  if (!entry_name (entry, len, name))
    return NULL;
  for (size_t i = 0; found == NULL && (x = expansion (name, i)) != NULL; i++)
    {
      found = loaded_file (root, x, dirs, n);
      free (x);
    }
  return found;
}

char *
preload_entry_file_for (const char *root, const char *lib, const char *entry,
			size_t len)
{
  char name[PATH_MAX];
  if (!entry_name (entry, len, name))
    return NULL;
  char *x = expand_lib (name, lib);
  char *top = xasprintf ("/%s", lib), *usr = xasprintf ("/usr/%s", lib);
  const char *const dirs[] = { top, usr };
  char *found = loaded_file (root, x, dirs, 2);
  free (usr);
  free (top);
  free (x);
  return found;
}

int
preload_entry_is_ours (const char *root, const char *libdir,
		       const char *entry, size_t len)
{
  const struct rule r = { root, libdir, NULL };
  return entry_matches (&r, entry, len);
}

int
preload_entry_names (const char *root, const char *libdir,
		     const char *entry, size_t len, const struct stat *file)
{
  const struct rule r = { root, libdir, file };
  return entry_matches (&r, entry, len);
}
