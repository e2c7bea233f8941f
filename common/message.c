/* SPDX-License-Identifier: MIT */
/* The tools' messages (message.h).  */

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
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

/* "TOOL: MESSAGE" and a newline on standard error, after standard
   output.  */
static void
vreport (const char *fmt, va_list ap)
{
  fflush (stdout);
  fprintf (stderr, "%s: ", tool_name);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
}

void
error_msg (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vreport (fmt, ap);
  va_end (ap);
}

/* vreport, then the pointer to --help.  */
static void
vusage (const char *fmt, va_list ap)
{
  vreport (fmt, ap);
  fprintf (stderr, "Try '%s --help' for more information.\n", tool_name);
}

void
usage_msg (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vusage (fmt, ap);
  va_end (ap);
}

void
error_exit (int status, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vreport (fmt, ap);
  va_end (ap);
  exit (status);
}

void
usage_exit (int status, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  vusage (fmt, ap);
  va_end (ap);
  exit (status);
}

void
getopt_usage_msg (int c, char *const *argv)
{
  /* optopt is the short option getopt_long stopped at (or the value of
     a long one that lacks its argument), 0 for an unknown long one; a
     long one is the word before optind.  */
  const char *word = argv[optind - 1];
  if (c == ':' && word[0] == '-' && word[1] == '-')
    usage_msg ("option '%s' needs an argument", word);
  else if (c == ':')
    usage_msg ("option '-%c' needs an argument", optopt);
  else if (optopt != 0)
    usage_msg ("unrecognized option '-%c'", optopt);
  else
    usage_msg ("unrecognized option '%s'", word);
}

const char *
shown_name (const char *name)
{
  return name[0] != '\0' ? name : "''";
}

int
empty_name_msg (const char *option, const char *name)
{
  if (name[0] != '\0')
    return 0;
  usage_msg ("%s needs a file name, not ''", option);
  return 1;
}

unsigned long long
option_number (const char *option, const char *text, unsigned long long lo,
	       unsigned long long hi)
{
  char *end;
  errno = 0;
  /* strtoull would take "-1" for a number, and "" for 0.  */
  if (*text == '-' || *text == 0)
    usage_exit (2, "%s: '%s' is not a number", option, text);
  unsigned long long v = strtoull (text, &end, 10);
  if (errno != 0 || *end != 0)
    usage_exit (2, "%s: '%s' is not a number", option, text);
  if (v < lo || v > hi)
    usage_exit (2, "%s: %llu is out of range (%llu to %llu)", option, v, lo,
		hi);
  return v;
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
