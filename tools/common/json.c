/* SPDX-License-Identifier: MIT */
/* JSON on standard output (json.h).  */

#include <stdio.h>

#include "common/json.h"

void
json_string (const char *s)
{
  putchar ('"');
  for (const unsigned char *p = (const unsigned char *) s; *p; p++)
    {
      if (*p == '"' || *p == '\\')
	printf ("\\%c", *p);
      else if (*p == '\n')
	fputs ("\\n", stdout);
      else if (*p < 0x20 || *p >= 0x7f)
	printf ("\\u%04x", *p);
      else
	putchar (*p);
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
