/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: the preload file as lines, and libfastcopy's entries
   in them.  Which entries are libfastcopy's and how a line splits into
   entries are the rules of common/preload-entry.c, which the package
   scripts follow too.  */

#include <string.h>

#include "common/preload-entry.h"
#include "preload.h"

/* By the shared rule inside the root, with the directory this build
   installs the library in (a build for /usr/local writes its full path
   there).  */
int
is_ours (const char *entry, size_t len)
{
  return preload_entry_is_ours (root, FASTCOPY_LIBDIR, entry, len);
}

void
content_push (struct content *c, char *p, size_t len)
{
  if (c->n == c->cap)
    {
      c->cap = c->cap ? c->cap * 2 : 16;
      c->lines = xrealloc (c->lines, c->cap * sizeof c->lines[0]);
    }
  c->lines[c->n].p = p;
  c->lines[c->n].len = len;
  c->n++;
}

/* Split DATA (LEN bytes, NUL-terminated) into lines.  */
void
content_parse (struct content *c, char *data, size_t len)
{
  memset (c, 0, sizeof *c);
  c->final_newline = len == 0 || data[len - 1] == '\n';
  size_t start = 0;
  for (size_t i = 0; i < len; i++)
    if (data[i] == '\n')
      {
	content_push (c, data + start, i - start);
	start = i + 1;
      }
  if (start < len)
    content_push (c, data + start, len - start);
}

void
content_join (const struct content *c, struct buf *out)
{
  for (size_t i = 0; i < c->n; i++)
    {
      buf_add (out, c->lines[i].p, c->lines[i].len);
      if (i + 1 < c->n || c->final_newline)
	buf_add (out, "\n", 1);
    }
}

/* Index of the first line from FROM on that has one of our entries, or -1;
   the entry in *ENTRY and *LEN unless ENTRY is NULL.  */
long
find_entry (const struct content *c, long from, const char **entry,
	    size_t *len)
{
  for (size_t i = (size_t) from; i < c->n; i++)
    {
      struct preload_scan s;
      preload_scan_start (&s, c->lines[i].p, c->lines[i].len);
      while (preload_scan_next (&s))
	if (is_ours (s.entry, s.entry_len))
	  {
	    if (entry != NULL)
	      {
		*entry = s.entry;
		*len = s.entry_len;
	      }
	    return (long) i;
	  }
    }
  return -1;
}

/* Remove our entries from C.  A line that holds only our entries (and
   separators, and perhaps a comment) goes away entirely; in a line that
   also names other libraries only our names go, each with the separators
   in front of it (or, for a line's first name, the ones after it).
   Returns the number of names removed.  Rewritten lines are allocated and
   live until the program exits.  */
size_t
remove_entries (struct content *c)
{
  size_t removed = 0, w = 0;
  for (size_t i = 0; i < c->n; i++)
    {
      struct line l = c->lines[i];
      struct preload_scan s;
      size_t names = 0, ours = 0;
      preload_scan_start (&s, l.p, l.len);
      while (preload_scan_next (&s))
	{
	  names++;
	  ours += is_ours (s.entry, s.entry_len);
	}
      if (ours == 0)
	{
	  c->lines[w++] = l;
	  continue;
	}
      removed += ours;
      if (ours == names)
	continue;		/* the whole line was ours */
      struct buf b = { 0 };
      int first_kept = 1;
      preload_scan_start (&s, l.p, l.len);
      for (size_t t = 0; preload_scan_next (&s); t++)
	{
	  if (t == 0)
	    buf_add (&b, s.sep, s.sep_len);	/* the line's indentation */
	  if (is_ours (s.entry, s.entry_len))
	    continue;
	  if (!first_kept)
	    buf_add (&b, s.sep, s.sep_len);
	  buf_add (&b, s.entry, s.entry_len);
	  first_kept = 0;
	}
      buf_add (&b, s.sep, s.sep_len);	/* after the last name */
      if (s.comment != NULL)
	buf_add (&b, s.comment, s.comment_len);
      l.p = b.data;
      l.len = b.len;
      c->lines[w++] = l;
    }
  c->n = w;
  return removed;
}
