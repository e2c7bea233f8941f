/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: installing settings into the configuration file.  The
   user's lines and comments stay; the first line of each key set is
   replaced, later ones are commented out (the last one would win); keys
   not yet there are appended.  The file is read and replaced under its
   directory's lock, the one fastcopy-preload and the package scripts take
   too, so that no writer loses another's change; the new contents go to a
   temporary file in the same directory, are checked with the library's
   parser, fsync'd and renamed over the file, and the directory is fsync'd
   (common/file-replace.c).  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/file-replace.h"
#include "common/message.h"
#include "common/xalloc.h"
#include "tune.h"

static char *
read_file (const char *path, size_t *len, struct stat *st, int *exists)
{
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  *exists = 0;
  *len = 0;
  if (fd < 0)
    {
      if (errno == ENOENT)
	return NULL;
      error_exit (1, "%s: %s", path, strerror (errno));
    }
  if (fstat (fd, st) != 0)
    error_exit (1, "%s: %s", path, strerror (errno));
  if (!S_ISREG (st->st_mode))
    error_exit (1, "%s: not a regular file", path);
  *exists = 1;
  char *buf;
  if (xfile_read_fd (fd, &buf, len) != 0)
    error_exit (1, "%s: %s", path, strerror (errno));
  close (fd);
  return buf;
}

/* The key a line sets, if it sets one: [LEN bytes at *KEY].  */
static int
line_key (const char *line, size_t n, const char **key, size_t *klen)
{
  size_t i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t'))
    i++;
  size_t start = i;
  while (i < n && (line[i] == '_' || (line[i] >= 'a' && line[i] <= 'z')
		   || (line[i] >= 'A' && line[i] <= 'Z')
		   || (line[i] >= '0' && line[i] <= '9')))
    i++;
  size_t end = i;
  while (i < n && (line[i] == ' ' || line[i] == '\t'))
    i++;
  if (end == start || i == n || line[i] != '=')
    return 0;
  *key = line + start;
  *klen = end - start;
  return 1;
}

static int
count_errors (const char *path)
{
  return fastcopy_check_config (path, 0, NULL, NULL);
}

/* The file a new file's problems are said to be in: the one it replaces,
   whose lines it keeps, not the temporary file.  */
struct new_file
{
  const char *path;
  int old_errors;
};

/* The library's word on an error of the new file, in ARG's name.  */
static void
print_new_error (const struct fastcopy_diagnostic *d, void *arg)
{
  const struct new_file *nf = arg;
  char why[512];
  if (d->severity == FASTCOPY_ERROR)
    error_msg ("%s:%u: %s", nf->path, d->line,
	       refusal_text (d->message, why, sizeof why));
}

/* file_replace's last check: the new file TMP must not have more errors
   than the old one; ARG is its struct new_file.  */
static int
no_more_errors (const char *tmp, void *arg)
{
  const struct new_file *nf = arg;
  if (count_errors (tmp) <= nf->old_errors)
    return 0;
  int new_errors = fastcopy_check_config (tmp, 0, print_new_error, arg);
  error_msg ("the new file would have %d error%s (the old one had %d); "
	     "nothing written", new_errors, new_errors == 1 ? "" : "s",
	     nf->old_errors);
  return 1;
}

void
write_config (const char *path, int n, char *const *keys,
	      char *const *values, const char *header)
{
  char resolved[PATH_MAX];
  if (realpath (path, resolved) != NULL)
    path = resolved;		/* write through a symlink to its target */
  char *dir_copy = strdup (path);
  if (dir_copy == NULL)
    error_exit (1, "out of memory");
  const char *dir = dirname (dir_copy);
  if (dir_lock (dir) != 0)
    exit (1);
  struct stat st;
  int exists;
  size_t len;
  char *old = read_file (path, &len, &st, &exists);
  struct new_file nf = { path, exists ? count_errors (path) : 0 };

  char *text;
  size_t text_len;
  FILE *f = open_memstream (&text, &text_len);
  if (f == NULL)
    error_exit (1, "out of memory");
  int *done = calloc ((size_t) n, sizeof *done);
  if (done == NULL)
    error_exit (1, "out of memory");
  for (size_t pos = 0; pos < len;)
    {
      const char *line = old + pos;
      const char *nl = memchr (line, '\n', len - pos);
      size_t ll = nl ? (size_t) (nl - line) : len - pos;
      pos += ll + (nl != NULL);
      const char *key;
      size_t klen;
      int k = -1;
      if (line_key (line, ll, &key, &klen))
	for (int i = 0; i < n; i++)
	  if (strlen (keys[i]) == klen && memcmp (keys[i], key, klen) == 0)
	    k = i;
      if (k < 0)
	fprintf (f, "%.*s\n", (int) ll, line);
      else if (!done[k])
	{
	  fprintf (f, "%s = %s\n", keys[k], values[k]);
	  done[k] = 1;
	}
      else
	fprintf (f, "# (replaced by fastcopy-tune) %.*s\n", (int) ll, line);
    }
  /* Appended keys come after a blank line and a comment saying why.  */
  int header_done = 0;
  int blank = len == 0 || (len >= 2 && old[len - 1] == '\n'
			   && old[len - 2] == '\n');
  for (int i = 0; i < n; i++)
    if (!done[i])
      {
	if (!header_done++)
	  fprintf (f, "%s# %s\n", blank ? "" : "\n", header);
	fprintf (f, "%s = %s\n", keys[i], values[i]);
      }
  if (fclose (f) != 0)
    error_exit (1, "out of memory");

  const struct file_replacement r = {
    .path = path,
    .dir = dir,
    .tmp_template = ".fastcopy.conf.XXXXXX",
    .old = exists ? &st : NULL,
    .check = no_more_errors,
    .check_arg = &nf,
  };
  if (file_replace (&r, text, text_len) != 0)
    exit (1);
  fprintf (stderr, "%s: wrote %s\n", tool_name, path);
  free (text);
  free (done);
  free (dir_copy);
  free (old);
}

