/* SPDX-License-Identifier: MIT */
/* fastcopy-fleet: writing a file atomically (fleet.h).  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file-replace.h"
#include "common/message.h"
#include "common/xalloc.h"
#include "fleet/fleet.h"

int
write_output (const char *path, const char *data, size_t len)
{
  struct stat st;
  int exists = lstat (path, &st) == 0;
  if (exists && !S_ISREG (st.st_mode))
    {
      error_msg ("%s: not a regular file; refusing to replace it", path);
      return -1;
    }
  if (!exists && errno != ENOENT)
    {
      error_msg ("%s: %s", path, strerror (errno));
      return -1;
    }
  char *copy = xasprintf ("%s", path);
  /* The textfile collector reads only *.prom: the temporary name must
     not end so.  */
  struct file_replacement r = {
    .path = path, .dir = dirname (copy),
    .tmp_template = ".fastcopy-fleet.XXXXXX", .old = exists ? &st : NULL,
    .keep_empty = 1
  };
  int ret = file_replace (&r, data, len);
  free (copy);
  return ret;
}
