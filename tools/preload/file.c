/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: reading and replacing the preload file.  The file
   applies to every dynamically linked program, so it is replaced whole
   (common/file-replace.c), under the directory lock, and only if it
   still holds what was read.  */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/file-replace.h"
#include "common/root-path.h"
#include "preload.h"

/* Locate the preload file and read it.  A symbolic link is followed
   inside the root and the file it points to is the one read and written,
   also when it does not exist yet: the link itself is never replaced.  A
   FIFO, device or directory is refused without being read (a FIFO would
   block the reader).  Returns 0, or -1 after printing an error.  */
int
pfile_load (struct pfile *f)
{
  memset (f, 0, sizeof *f);
  f->shown = rooted (PRELOAD_FILE);
  struct stat lst;
  f->via_link = lstat (f->shown, &lst) == 0 && S_ISLNK (lst.st_mode);
  char *inroot = root_canonical (root, PRELOAD_FILE);
  if (inroot == NULL)
    {
      error_msg ("cannot resolve %s: %s", f->shown, strerror (errno));
      return -1;
    }
  f->path = rooted (inroot);
  char *slash = strrchr (f->path, '/');
  f->dir = slash == f->path ? xasprintf ("/")
    : xasprintf ("%.*s", (int) (slash - f->path), f->path);
  free (inroot);

  int fd = open (f->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    {
      if (errno == ENOENT)
	{
	  f->data = xrealloc (NULL, 1);
	  f->data[0] = '\0';
	  return 0;
	}
      error_msg ("cannot open %s: %s", f->path, strerror (errno));
      return -1;
    }
  if (fstat (fd, &f->st) < 0)
    {
      error_msg ("cannot read %s: %s", f->path, strerror (errno));
      close (fd);
      return -1;
    }
  if (!S_ISREG (f->st.st_mode))
    {
      error_msg ("%s is %s, not a regular file; not touching it", f->path,
		 S_ISFIFO (f->st.st_mode) ? "a FIFO"
		 : S_ISDIR (f->st.st_mode) ? "a directory"
		 : S_ISCHR (f->st.st_mode) || S_ISBLK (f->st.st_mode)
		 ? "a device" : "a special file");
      close (fd);
      return -1;
    }
  if (xfile_read_fd (fd, &f->data, &f->len) < 0)
    {
      error_msg ("cannot read %s: %s", f->path, strerror (errno));
      close (fd);
      return -1;
    }
  close (fd);
  f->exists = 1;
  return 0;
}

/* Warn when the file is there but not every user may read it: ld.so
   reads it with the rights of the process it starts, so processes that
   cannot read it run without the libraries it names.  Returns nonzero
   after the warning.  */
int
warn_unreadable (const struct pfile *f)
{
  if (!f->exists || (f->st.st_mode & S_IROTH))
    return 0;
  fprintf (stderr,
	   "%s: warning: %s is not readable by all users (mode %04o): programs\n"
	   "that cannot read it (those of users other than its owner%s) run without\n"
	   "libfastcopy; 'chmod a+r %s' makes it apply to every program\n",
	   tool_name, f->path, (unsigned) (f->st.st_mode & 07777),
	   f->st.st_mode & S_IRGRP ? " and group" : "", f->path);
  return 1;
}

/* Nonzero when the file on disk still has the contents F was read with.  */
static int
pfile_unchanged (const struct pfile *f)
{
  int fd = open (f->path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
  if (fd < 0)
    return errno == ENOENT && !f->exists;
  char *data;
  size_t len;
  int ok = 0;
  if (xfile_read_fd (fd, &data, &len) == 0)
    {
      ok = f->exists && len == f->len && memcmp (data, f->data, len) == 0;
      free (data);
    }
  close (fd);
  return ok;
}

/* file_replace's last check: 1, nothing written, when another program
   changed the file since it was read.  */
static int
changed_meanwhile (const char *tmp, void *f)
{
  (void) tmp;
  return !pfile_unchanged (f);
}

/* Replace the file with DATA (or remove it when LEN is 0), unless it
   changed since it was read.  Returns 0, 1 when the file changed under us
   (nothing written), or -1 after printing an error.  */
int
pfile_replace (const struct pfile *f, const char *data, size_t len)
{
  const struct file_replacement r = {
    .path = f->path,
    .dir = f->dir,
    .tmp_template = ".ld.so.preload.fastcopy-XXXXXX",
    .old = f->exists ? &f->st : NULL,
    /* Never delete the file a link points to: empty it.  */
    .keep_empty = f->via_link,
    .check = changed_meanwhile,
    .check_arg = (void *) f,
  };
  return file_replace (&r, data, len);
}

/* glibc's ld.so (2.36, and the same rtld.c code before and since) blanks
   out only the first '#' comment of the file reliably: its loop never
   advances the start of its search, so the words of later comments are
   taken for library names and every program prints an error for each.
   Warn about files with more than one '#'.  */
void
warn_comments (const struct pfile *f)
{
  size_t n = 0;
  for (size_t i = 0; i < f->len; i++)
    n += f->data[i] == '#';
  if (n > 1)
    fprintf (stderr,
	     "%s: warning: %s has %zu '#' comments; the dynamic loader reads only the\n"
	     "first one as a comment reliably, and programs may print \"cannot be preloaded\"\n"
	     "errors for words of the others: keep at most one comment in this file\n",
	     tool_name, f->shown, n);
}

/* On an SELinux system give a newly created file its proper label.  */
void
restore_label (const char *path)
{
  static const char *const tools[] = { "/usr/sbin/restorecon", "/sbin/restorecon", NULL };
  if (strcmp (root, "/") != 0 || access ("/sys/fs/selinux/enforce", F_OK) != 0)
    return;
  for (size_t i = 0; tools[i] != NULL; i++)
    if (access (tools[i], X_OK) == 0)
      {
	pid_t pid = fork ();
	if (pid == 0)
	  {
	    execl (tools[i], tools[i], path, (char *) NULL);
	    _exit (127);
	  }
	if (pid > 0)
	  waitpid (pid, NULL, 0);
	return;
      }
}
