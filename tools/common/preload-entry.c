/* SPDX-License-Identifier: MIT */
/* How /etc/ld.so.preload splits into entries, and which are libfastcopy's
   (preload-entry.h).  */

#include <fnmatch.h>
#include <limits.h>
#include <string.h>

#include "common/preload-entry.h"
/* Generated from packaging/preload-remove.sh by preload-rule.sh: the
   tables preload_name_patterns and preload_dir_patterns.  */
#include "tools/common/preload-rule.h"

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

int
preload_entry_is_ours (const char *entry, size_t len, const char *libdir)
{
  /* A longer name cannot be opened; a NUL byte ends it for ld.so but not
     for the shell, so neither side takes such an entry for libfastcopy's.  */
  char name[PATH_MAX];
  if (len >= sizeof name || memchr (entry, '\0', len) != NULL)
    return 0;
  memcpy (name, entry, len);
  name[len] = '\0';
  char *slash = strrchr (name, '/');
  if (!matches (preload_name_patterns, slash != NULL ? slash + 1 : name))
    return 0;
  if (slash == NULL)
    return 1;
  slash[1] = '\0';		/* the directory, with its '/' */
  size_t dlen = (size_t) (slash + 1 - name);
  return matches (preload_dir_patterns, name)
    || (libdir != NULL && strlen (libdir) + 1 == dlen
	&& memcmp (name, libdir, dlen - 1) == 0);
}
