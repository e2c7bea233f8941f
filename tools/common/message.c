/* SPDX-License-Identifier: MIT */
/* The tools' messages (message.h).  */

#include <stdarg.h>
#include <stdio.h>

#include "common/message.h"

int message_quiet;

void
msg (const char *fmt, ...)
{
  va_list ap;
  if (message_quiet)
    return;
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
}

void
error_msg (const char *fmt, ...)
{
  va_list ap;
  fflush (stdout);
  fprintf (stderr, "%s: ", tool_name);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}
