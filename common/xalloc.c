/* SPDX-License-Identifier: MIT */
/* Allocation that cannot fail (xalloc.h).  */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/file-read.h"
#include "common/message.h"
#include "common/xalloc.h"

static void
out_of_memory (void)
{
  error_msg ("out of memory");
  exit (EXIT_FAILURE);
}

void *
xrealloc (void *p, size_t n)
{
  p = realloc (p, n ? n : 1);
  if (p == NULL)
    out_of_memory ();
  return p;
}

char *
xasprintf (const char *fmt, ...)
{
  va_list ap;
  char *s;
  va_start (ap, fmt);
  if (vasprintf (&s, fmt, ap) < 0)
    out_of_memory ();
  va_end (ap);
  return s;
}

int
xfile_read_fd (int fd, char **data, size_t *len)
{
  int rc = file_read_fd (fd, data, len);
  if (rc != 0 && errno == ENOMEM)
    out_of_memory ();
  return rc;
}
