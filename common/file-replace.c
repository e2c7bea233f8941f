/* SPDX-License-Identifier: MIT */
/* Replacing a file atomically, under the directory lock (file-replace.h).  */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "common/file-replace.h"
#include "common/message.h"
#include "common/xalloc.h"

/* Held open, and so locked, until the program exits.  */
static int lock_fd = -1;

int
dir_lock (const char *dir)
{
  lock_fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd < 0)
    return 0;
  for (int i = 0; i < 100; i++)
    {
      if (flock (lock_fd, LOCK_EX | LOCK_NB) == 0)
	return 0;
      if (errno != EWOULDBLOCK && errno != EINTR)
	return 0;
      struct timespec ts = { 0, 100 * 1000 * 1000 };
      nanosleep (&ts, NULL);
    }
  error_msg ("%s is locked by another process (a package manager?); "
	     "try again later", dir);
  return -1;
}

int
dir_sync (const char *dir)
{
  int dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return -1;
  int r = fsync (dfd);
  int saved = errno;
  close (dfd);
  errno = saved;
  return r;
}

static int
write_full (int fd, const char *p, size_t n)
{
  while (n > 0)
    {
      ssize_t w = write (fd, p, n);
      if (w < 0)
	{
	  if (errno == EINTR)
	    continue;
	  return -1;
	}
      p += w;
      n -= (size_t) w;
    }
  return 0;
}

static int
remove_file (const struct file_replacement *r)
{
  int c = r->check != NULL ? r->check (NULL, r->check_arg) : 0;
  if (c != 0)
    return c;
  if (r->old != NULL && unlink (r->path) < 0)
    {
      error_msg ("cannot remove %s: %s", shown_name (r->path),
		 strerror (errno));
      return -1;
    }
  if (dir_sync (r->dir) < 0)
    {
      error_msg ("cannot sync directory %s: %s", r->dir, strerror (errno));
      return -1;
    }
  return 0;
}

/* Write the new file to a temporary one and rename it over R->path.  */
static int
rename_over (const struct file_replacement *r, const char *data, size_t len)
{
  char *tmp = xasprintf ("%s/%s", r->dir, r->tmp_template);
  int fd = mkostemp (tmp, O_CLOEXEC);
  if (fd < 0)
    {
      int e = errno;
      error_msg ("cannot create a temporary file in %s: %s%s", r->dir,
		 strerror (e), e == EACCES || e == EPERM ? " (run it as root)" : "");
      free (tmp);
      return -1;
    }
  int ret = -1;
  /* The owner first: a change of owner may clear mode bits.  Only root
     can give a file away, so for others keeping the owner is a wish.  */
  if ((r->old != NULL && fchown (fd, r->old->st_uid, r->old->st_gid) < 0
       && geteuid () == 0)
      || fchmod (fd, r->old != NULL ? r->old->st_mode & 07777 : 0644) < 0
      || write_full (fd, data, len) < 0 || fsync (fd) < 0)
    {
      error_msg ("cannot write %s: %s", tmp, strerror (errno));
      close (fd);
      goto out_unlink;
    }
  if (close (fd) < 0)
    {
      error_msg ("cannot write %s: %s", tmp, strerror (errno));
      goto out_unlink;
    }
  int c = r->check != NULL ? r->check (tmp, r->check_arg) : 0;
  if (c != 0)
    {
      ret = c;
      goto out_unlink;
    }
  if (rename (tmp, r->path) < 0)
    {
      error_msg ("cannot rename %s to %s: %s", tmp, shown_name (r->path),
		 strerror (errno));
      goto out_unlink;
    }
  free (tmp);
  if (dir_sync (r->dir) < 0)
    {
      error_msg ("%s was replaced, but syncing %s failed: %s", r->path, r->dir,
		 strerror (errno));
      return -1;
    }
  return 0;

out_unlink:
  unlink (tmp);
  free (tmp);
  return ret;
}

int
file_replace (const struct file_replacement *r, const char *data, size_t len)
{
  sigset_t block, old;
  sigemptyset (&block);
  sigaddset (&block, SIGINT);
  sigaddset (&block, SIGTERM);
  sigaddset (&block, SIGHUP);
  sigaddset (&block, SIGQUIT);
  sigprocmask (SIG_BLOCK, &block, &old);
  int ret = len == 0 && !r->keep_empty ? remove_file (r)
    : rename_over (r, data, len);
  sigprocmask (SIG_SETMASK, &old, NULL);
  return ret;
}
