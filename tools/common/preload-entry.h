/* SPDX-License-Identifier: MIT */
/* The rules of /etc/ld.so.preload that the tools follow, and with them the
   package scripts: how a line splits into entries, and which entries are
   libfastcopy's.  */

#ifndef FC_TOOLS_PRELOAD_ENTRY_H
#define FC_TOOLS_PRELOAD_ENTRY_H

#include <stddef.h>

/* One line of the file (without its newline), entry by entry.  Entries
   are separated by spaces, tabs and colons, as ld.so separates them, and
   '#' starts a comment that runs to the end of the line.  */
struct preload_scan
{
  /* Set by preload_scan_next: the separators in front of the entry (when
     it returns 0: those after the last entry), and the entry.  */
  const char *sep, *entry;
  size_t sep_len, entry_len;
  /* The comment, from its '#' to the end of the line; NULL if none.  */
  const char *comment;
  size_t comment_len;
  const char *p, *end;		/* what is left of the part before it */
};

void preload_scan_start (struct preload_scan *s, const char *line,
			 size_t len);

/* Move to the next entry: 1, or 0 after the last one.  */
int preload_scan_next (struct preload_scan *s);

/* Nonzero when the entry (LEN bytes at ENTRY) is libfastcopy's: its last
   component matches one of the rule's file-name patterns, and the part
   before it (with its last '/') is empty, because ld.so looks a bare name
   up itself, or matches one of the rule's directory patterns, or is
   LIBDIR plus '/' (LIBDIR may be NULL).  The patterns come from
   packaging/preload-remove.sh, the rule's one statement.  */
int preload_entry_is_ours (const char *entry, size_t len, const char *libdir);

#endif
