/* SPDX-License-Identifier: MIT */
/* Paths inside a root directory (root-path.h).  */

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/root-path.h"
#include "common/xalloc.h"

/* Links followed before giving up, as the kernel's limit.  */
#define MAX_LINKS 40

char *
root_join (const char *root, const char *path)
{
  size_t n = strlen (root);
  while (n > 0 && root[n - 1] == '/')
    n--;
  return xasprintf ("%.*s%s", (int) n, root, path);
}

char *
root_canonical (const char *root, const char *path)
{
  /* DONE is the part resolved so far ("" stands for the root itself);
     TODO what is left, from P on.  A link's target replaces the link's
     component at the front of TODO.  */
  char done[PATH_MAX] = "";
  size_t dlen = 0;
  char *todo = xasprintf ("%s", path), *p = todo;
  int links = 0;
  for (;;)
    {
      while (*p == '/')
	p++;
      if (*p == '\0')
	break;
      char *end = strchrnul (p, '/');
      size_t n = (size_t) (end - p);
      if (n == 1 && p[0] == '.')
	{
	  p = end;
	  continue;
	}
      if (n == 2 && p[0] == '.' && p[1] == '.')
	{
	  while (dlen > 0 && done[dlen - 1] != '/')
	    dlen--;
	  if (dlen > 0)
	    dlen--;
	  done[dlen] = '\0';
	  p = end;
	  continue;
	}
      if (dlen + 1 + n >= sizeof done)
	{
	  free (todo);
	  errno = ENAMETOOLONG;
	  return NULL;
	}
      size_t before = dlen;
      done[dlen++] = '/';
      memcpy (done + dlen, p, n);
      dlen += n;
      done[dlen] = '\0';

      char *host = root_join (root, done);
      char target[PATH_MAX];
      ssize_t t = readlink (host, target, sizeof target - 1);
      free (host);
      if (t < 0)
	{
	  /* Not a link, or missing: the component stays as it is.  */
	  p = end;
	  continue;
	}
      if (++links > MAX_LINKS)
	{
	  free (todo);
	  errno = ELOOP;
	  return NULL;
	}
      target[t] = '\0';
      char *next = xasprintf ("%s%s", target, end);
      free (todo);
      todo = p = next;
      dlen = target[0] == '/' ? 0 : before;
      done[dlen] = '\0';
    }
  free (todo);
  return xasprintf ("%s", dlen > 0 ? done : "/");
}
