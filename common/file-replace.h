/* SPDX-License-Identifier: MIT */
/* Replacing a system file the careful way: readers see the old contents
   or the new ones, never a partial file, and two writers that take the
   directory lock cannot lose each other's change.  fastcopy-preload edits
   /etc/ld.so.preload with it, fastcopy-tune --write fastcopy.conf.  */

#ifndef FC_TOOLS_FILE_REPLACE_H
#define FC_TOOLS_FILE_REPLACE_H

#include <stddef.h>
#include <sys/stat.h>

/* Lock DIR (flock (2) on the directory itself) until the program exits.
   The package scripts take the same lock (packaging/preload-remove.sh),
   so a writer holding it can read, edit and replace a file in DIR without
   another's change slipping in between.  Waits up to 10 seconds for
   another holder.  Returns 0, also when DIR cannot be opened (the lock is
   a courtesy between writers, not a permission), or -1 after an error
   message.  */
int dir_lock (const char *dir);

/* fsync (2) the directory DIR, after a file in it was renamed or removed.
   Returns 0 or -1 with errno set.  */
int dir_sync (const char *dir);

struct file_replacement
{
  const char *path;		/* the file (symbolic links followed) */
  const char *dir;		/* its directory */
  /* The temporary file's name in DIR, ending in XXXXXX (mkstemp (3)).  */
  const char *tmp_template;
  /* The file's status as read, whose mode and owner the new file gets;
     NULL when there is no file yet (the new one gets mode 0644).  */
  const struct stat *old;
  /* Nonzero: with LEN 0, write an empty file instead of removing it (the
     file is the target of a symbolic link, which must stay valid).  */
  int keep_empty;
  /* When not NULL, called just before the file is replaced, with TMP the
     complete new file, or NULL when the file is about to be removed.  A
     nonzero return cancels the replacement (it prints why, if it should)
     and is file_replace's return value.  */
  int (*check) (const char *tmp, void *arg);
  void *check_arg;
};

/* Replace R->path with the LEN bytes at DATA: they are written to a
   temporary file in the same directory, which gets the old file's mode
   and owner, is fsync'ed and renamed over the file; then the directory is
   fsync'ed.  With LEN 0 the file is removed instead (to the files the
   tools edit, an empty file and none mean the same), unless R->keep_empty.  Signals that would
   end the program are held meanwhile, so that no temporary file is left
   behind.  Returns 0, -1 after an error message, or R->check's nonzero
   return.  */
int file_replace (const struct file_replacement *r, const char *data,
		  size_t len);

#endif
