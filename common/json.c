/* SPDX-License-Identifier: MIT */
/* JSON on standard output (json.h).  */

#include <stdio.h>

#include "common/json.h"

/* How many bytes at P make one well-formed UTF-8 character (the ranges of
   Unicode's table 3-7: no overlong form, no surrogate, nothing above
   U+10FFFF), or if they do not, minus the length of the longest start of
   one there, at least 1: each such start becomes one U+FFFD, as Unicode
   recommends, and the next byte is read afresh.  */
static int
utf8_sequence (const unsigned char *p)
{
  unsigned char lo = 0x80, hi = 0xbf;
  int n;
  if (*p < 0x80)
    return 1;
  if (*p >= 0xc2 && *p <= 0xdf)
    n = 2;
  else if (*p >= 0xe0 && *p <= 0xef)
    {
      n = 3;
      if (*p == 0xe0)
	lo = 0xa0;
      else if (*p == 0xed)
	hi = 0x9f;
    }
  else if (*p >= 0xf0 && *p <= 0xf4)
    {
      n = 4;
      if (*p == 0xf0)
	lo = 0x90;
      else if (*p == 0xf4)
	hi = 0x8f;
    }
  else
    return -1;
  /* The terminating NUL is below every range: a truncated sequence stops
     there.  */
  for (int i = 1; i < n; i++)
    {
      if (p[i] < lo || p[i] > hi)
	return -i;
      lo = 0x80, hi = 0xbf;
    }
  return n;
}

void
json_string (const char *s)
{
  putchar ('"');
  for (const unsigned char *p = (const unsigned char *) s; *p;)
    {
      int n = utf8_sequence (p);
      if (n < 0)
	{
	  fputs ("\\ufffd", stdout);
	  p += -n;
	  continue;
	}
      if (n > 1)
	fwrite (p, 1, (size_t) n, stdout);
      else if (*p == '"' || *p == '\\')
	printf ("\\%c", *p);
      else if (*p == '\n')
	fputs ("\\n", stdout);
      else if (*p < 0x20 || *p == 0x7f)
	printf ("\\u%04x", *p);
      else
	putchar (*p);
      p += n;
    }
  putchar ('"');
}

void
json_key (const char *key, int *first)
{
  if (!*first)
    putchar (',');
  *first = 0;
  json_string (key);
  putchar (':');
}

void
json_str_field (const char *key, const char *value, int *first)
{
  json_key (key, first);
  if (value == NULL)
    fputs ("null", stdout);
  else
    json_string (value);
}

void
json_num_field (const char *key, unsigned long long v, int *first)
{
  json_key (key, first);
  printf ("%llu", v);
}

/* Shares and means: enough digits to tell them apart, never an exponent
   that a reader would have to expect.  */
void
json_double_field (const char *key, double v, int *first)
{
  json_key (key, first);
  printf ("%.6f", v);
}

void
json_bool_field (const char *key, int v, int *first)
{
  json_key (key, first);
  fputs (v ? "true" : "false", stdout);
}
