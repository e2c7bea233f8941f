/* SPDX-License-Identifier: MIT */
/* The tools' messages (message.h).  */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

const char *
refusal_text (const char *message, char *buf, size_t size)
{
  static const char *const endings[] = { "; file ignored", ": file ignored",
					 ": ignored", NULL };
  size_t n = strlen (message);
  for (int i = 0; endings[i] != NULL; i++)
    {
      size_t e = strlen (endings[i]);
      if (n >= e && strcmp (message + n - e, endings[i]) == 0)
	{
	  n -= e;
	  break;
	}
    }
  snprintf (buf, size, "%.*s", (int) n, message);
  return buf;
}
