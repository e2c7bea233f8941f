/* SPDX-License-Identifier: MIT */
/* Reading a file whole (file-read.h).  */

#include "file-read.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

int
file_read_fd (int fd, char **data, size_t *len)
{
  /* A regular file's size, and room for the NUL and for the read that
     finds the end, saves growing; a file that grows meanwhile still
     grows the buffer.  */
  struct stat st;
  size_t cap = 8192, n = 0;
  if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode)
      && (uintmax_t) st.st_size < SIZE_MAX / 2)
    cap = (size_t) st.st_size + 2;
  char *buf = malloc (cap);
  for (;;)
    {
      if (buf != NULL && n + 1 == cap)
	{
	  char *more = cap <= SIZE_MAX / 2 ? realloc (buf, cap * 2) : NULL;
	  if (more == NULL)
	    free (buf);
	  buf = more;
	  cap *= 2;
	}
      if (buf == NULL)
	{
	  errno = ENOMEM;
	  return -1;
	}
      ssize_t got = read (fd, buf + n, cap - 1 - n);
      if (got < 0 && errno == EINTR)
	continue;
      if (got < 0)
	{
	  int e = errno;
	  free (buf);
	  errno = e;
	  return -1;
	}
      if (got == 0)
	break;
      n += (size_t) got;
    }
  buf[n] = '\0';
  *data = buf;
  *len = n;
  return 0;
}
