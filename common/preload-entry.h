/* SPDX-License-Identifier: MIT */
/* The rules of /etc/ld.so.preload that the tools follow, and with them the
   package scripts: how a line splits into entries, and which entries are
   libfastcopy's.  */

#ifndef FC_TOOLS_PRELOAD_ENTRY_H
#define FC_TOOLS_PRELOAD_ENTRY_H

#include <stddef.h>
#include <sys/stat.h>

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

/* Nonzero when the entry (LEN bytes at ENTRY) is libfastcopy's on the
   system whose root directory is ROOT ("/" for this one): it names the
   library's file, or a name of it in one of the library's directories, by
   the rule stated in packaging/preload-remove.sh (the one statement of the
   rule, which the package scripts follow too; the tables this code uses
   are generated from it).  LIBDIR, when not NULL, is one more directory
   the library may be in: the tool's own installation directory.  */
int preload_entry_is_ours (const char *root, const char *libdir,
			   const char *entry, size_t len);

/* The file the entry loads on that system: its path inside ROOT with
   every link followed, for the first value of $LIB (in the rule's order)
   and, for a bare name, the first library directory where a file of that
   name exists.  A new string, or NULL when there is none.  */
char *preload_entry_file (const char *root, const char *libdir,
			  const char *entry, size_t len);

/* The file the entry loads in processes whose $LIB is LIB: its path
   inside ROOT with every link followed, a bare name looked up in /LIB and
   /usr/LIB.  A new string, or NULL when there is none.  */
char *preload_entry_file_for (const char *root, const char *lib,
			      const char *entry, size_t len);

/* Nonzero when the entry names the file FILE, the status of a file on
   the host (same device and inode), with $LIB expanded and bare names
   looked up as for preload_entry_is_ours.  */
int preload_entry_names (const char *root, const char *libdir,
			 const char *entry, size_t len,
			 const struct stat *file);

#endif
