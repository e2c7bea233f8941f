/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: paths under --root.  The tool works on the system
   inside the root directory: the preload file, the library and the C
   library that tells what $LIB means are all looked for there.  */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "preload.h"

const char *root = "/";

/* ROOT joined with the absolute path PATH.  */
char *
rooted (const char *path)
{
  if (strcmp (root, "/") == 0)
    return xasprintf ("%s", path);
  size_t n = strlen (root);
  while (n > 1 && root[n - 1] == '/')
    n--;
  return xasprintf ("%.*s%s", (int) n, root, path);
}

/* Follow symbolic links of the last component of PATH (an absolute path
   inside the root) the way the system inside the root would: absolute link
   targets are relative to the root.  Returns the path inside the root, or
   NULL with errno set.  */
char *
follow_in_root (const char *path)
{
  char *cur = xasprintf ("%s", path);
  for (int hops = 0; hops < 40; hops++)
    {
      char *host = rooted (cur);
      char target[PATH_MAX];
      ssize_t n = readlink (host, target, sizeof target - 1);
      int saved = errno;
      free (host);
      if (n < 0)
	{
	  if (saved == EINVAL)	/* not a link: done */
	    return cur;
	  if (saved == ENOENT)
	    {
	      errno = ENOENT;
	      free (cur);
	      return NULL;
	    }
	  free (cur);
	  errno = saved;
	  return NULL;
	}
      target[n] = '\0';
      char *next;
      if (target[0] == '/')
	next = xasprintf ("%s", target);
      else
	{
	  char *slash = strrchr (cur, '/');
	  next = xasprintf ("%.*s/%s", (int) (slash - cur), cur, target);
	}
      free (cur);
      cur = next;
    }
  free (cur);
  errno = ELOOP;
  return NULL;
}

/* What glibc's $LIB expands to for 64-bit programs inside the root, judged
   by where libc.so.6 lives; NULL when that cannot be told.  Debian and its
   derivatives: lib/x86_64-linux-gnu; Fedora, RHEL, SUSE: lib64.  */
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
