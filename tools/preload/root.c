/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: paths under --root.  The tool works on the system
   inside the root directory: the preload file, the library and the C
   library that tells what $LIB means are all looked for there.  */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/root-path.h"
#include "preload.h"

const char *root = "/";

/* ROOT joined with the absolute path PATH.  */
char *
rooted (const char *path)
{
  return root_join (root, path);
}

/* PATH (absolute, inside the root) with every symbolic link followed as
   the system inside the root would (root-path.h), when the file exists.
   Returns the path inside the root, or NULL with errno set.  */
char *
follow_in_root (const char *path)
{
  char *canon = root_canonical (root, path);
  if (canon == NULL)
    return NULL;
  char *host = rooted (canon);
  int exists = access (host, F_OK) == 0;
  int saved = errno;
  free (host);
  if (!exists)
    {
      free (canon);
      errno = saved;
      return NULL;
    }
  return canon;
}

/* What glibc's $LIB expands to for 64-bit programs inside the root, judged
   by where libc.so.6 lives; NULL when that cannot be told.  Debian and its
   derivatives: lib/x86_64-linux-gnu; Fedora, RHEL, SUSE: lib64.  What it
   expands to for 32-bit programs, which the other tools ask too, is
   i386_lib_value (common/i386-abi.c).  */
const char *
dst_lib (void)
{
  static const struct
  {
    const char *libc, *value;
  } layouts[] = {
    {"/usr/lib/" MULTIARCH "/libc.so.6", "lib/" MULTIARCH},
    {"/lib/" MULTIARCH "/libc.so.6", "lib/" MULTIARCH},
    {"/usr/lib64/libc.so.6", "lib64"},
    {"/lib64/libc.so.6", "lib64"},
  };
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
    {
      char *p = rooted (layouts[i].libc);
      int found = access (p, F_OK) == 0;
      free (p);
      if (found)
	return layouts[i].value;
    }
  return NULL;
}
