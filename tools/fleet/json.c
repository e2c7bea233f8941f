/* SPDX-License-Identifier: MIT */
/* fastcopy-fleet: a small, strict JSON reader (RFC 8259) for the results
   of Prometheus's HTTP API (fleet.h).  Anything else than one well-formed
   value is refused, with the byte where it went wrong.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "fleet/fleet.h"

/* Deeper nesting than any query result has.  */
#define MAX_DEPTH 32

struct parser
{
  const char *s, *end, *start;
  char *err;
  size_t errlen;
  int failed;
};

static void __attribute__ ((format (printf, 2, 3)))
fail (struct parser *p, const char *fmt, ...)
{
  if (p->failed)
    return;
  p->failed = 1;
  int n = snprintf (p->err, p->errlen, "byte %zu: ",
		    (size_t) (p->s - p->start) + 1);
  va_list ap;
  va_start (ap, fmt);
  if (n >= 0 && (size_t) n < p->errlen)
    vsnprintf (p->err + n, p->errlen - (size_t) n, fmt, ap);
  va_end (ap);
}

static void
skip_space (struct parser *p)
{
  while (p->s < p->end && *p->s && strchr (" \t\r\n", *p->s))
    p->s++;
}

/* The byte at the cursor as a message shows it.  */
static const char *
found (struct parser *p, char *buf, size_t size)
{
  if (p->s == p->end)
    snprintf (buf, size, "the end of the input");
  else if ((unsigned char) *p->s >= 0x20 && (unsigned char) *p->s < 0x7f)
    snprintf (buf, size, "'%c'", *p->s);
  else
    snprintf (buf, size, "byte 0x%02x", (unsigned char) *p->s);
  return buf;
}

static int
hex4 (struct parser *p, unsigned int *u)
{
  *u = 0;
  for (int i = 0; i < 4; i++, p->s++)
    {
      char c = p->s < p->end ? *p->s : 0;
      int d = c >= '0' && c <= '9' ? c - '0'
	      : c >= 'a' && c <= 'f' ? c - 'a' + 10
	      : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (d < 0)
	{
	  fail (p, "a \\u escape needs four hexadecimal digits");
	  return -1;
	}
      *u = *u * 16 + (unsigned int) d;
    }
  return 0;
}

static size_t
utf8 (unsigned int u, char *out)
{
  if (u < 0x80)
    return out[0] = (char) u, 1;
  if (u < 0x800)
    return out[0] = (char) (0xc0 | u >> 6), out[1] = (char) (0x80 | (u & 0x3f)), 2;
  if (u < 0x10000)
    return out[0] = (char) (0xe0 | u >> 12),
	   out[1] = (char) (0x80 | ((u >> 6) & 0x3f)),
	   out[2] = (char) (0x80 | (u & 0x3f)), 3;
  return out[0] = (char) (0xf0 | u >> 18),
	 out[1] = (char) (0x80 | ((u >> 12) & 0x3f)),
	 out[2] = (char) (0x80 | ((u >> 6) & 0x3f)),
	 out[3] = (char) (0x80 | (u & 0x3f)), 4;
}

/* The length of the UTF-8 sequence at S (before END) that starts with a
   byte of 0x80 or more, or 0 if it is not one.  */
static size_t
utf8_length (const char *s, const char *end)
{
  unsigned char c = (unsigned char) *s;
  size_t len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
	       : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (len == 0 || (size_t) (end - s) < len)
    return 0;
  for (size_t i = 1; i < len; i++)
    if (((unsigned char) s[i] & 0xc0) != 0x80)
      return 0;
  return len;
}

/* A string at the cursor, which is on its opening quote; NULL on error.
   A null character (\u0000) is refused: the strings are C strings.  */
static char *
string (struct parser *p)
{
  const char *q = ++p->s;
  char *out = xrealloc (NULL, (size_t) (p->end - q) + 1);
  size_t n = 0;
  char buf[32];
  while (p->s < p->end && *p->s != '"')
    {
      unsigned char c = (unsigned char) *p->s;
      if (c < 0x20)
	{
	  fail (p, "%s inside a string", found (p, buf, sizeof buf));
	  goto bad;
	}
      if (c >= 0x80)
	{
	  size_t len = utf8_length (p->s, p->end);
	  if (len == 0)
	    {
	      fail (p, "a string that is not UTF-8");
	      goto bad;
	    }
	  memcpy (out + n, p->s, len);
	  n += len;
	  p->s += len;
	  continue;
	}
      if (c != '\\')
	{
	  out[n++] = *p->s++;
	  continue;
	}
      p->s++;
      char e = p->s < p->end ? *p->s : 0;
      const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
      const char *at = e ? strchr (from, e) : NULL;
      if (at != NULL)
	{
	  out[n++] = to[at - from];
	  p->s++;
	  continue;
	}
      if (e != 'u')
	{
	  fail (p, "'\\%c' is no escape of JSON", e ? e : '?');
	  goto bad;
	}
      p->s++;
      unsigned int u, low;
      if (hex4 (p, &u) != 0)
	goto bad;
      if (u >= 0xd800 && u < 0xdc00)
	{
	  if (p->end - p->s < 2 || p->s[0] != '\\' || p->s[1] != 'u')
	    {
	      fail (p, "a high surrogate without its low one");
	      goto bad;
	    }
	  p->s += 2;
	  if (hex4 (p, &low) != 0)
	    goto bad;
	  if (low < 0xdc00 || low > 0xdfff)
	    {
	      fail (p, "a high surrogate without its low one");
	      goto bad;
	    }
	  u = 0x10000 + ((u - 0xd800) << 10) + (low - 0xdc00);
	}
      else if ((u >= 0xdc00 && u < 0xe000) || u == 0)
	{
	  fail (p, "\\u%04x is not a character here", u);
	  goto bad;
	}
      n += utf8 (u, out + n);
    }
  if (p->s == p->end)
    {
      fail (p, "a string without its closing quote");
      goto bad;
    }
  p->s++;
  out[n] = 0;
  return out;
bad:
  free (out);
  return NULL;
}

/* A number as RFC 8259 spells it: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?  */
static int
number (struct parser *p, double *v)
{
  const char *q = p->s;
#define DIGITS(min)							\
  do {									\
    int nd = 0;								\
    while (q < p->end && *q >= '0' && *q <= '9')			\
      q++, nd++;							\
    if (nd < (min))							\
      {									\
	p->s = q;							\
	fail (p, "a malformed number");					\
	return -1;							\
      }									\
  } while (0)
  if (q < p->end && *q == '-')
    q++;
  if (q < p->end && *q == '0')
    q++;
  else
    DIGITS (1);
  if (q < p->end && *q == '.')
    {
      q++;
      DIGITS (1);
    }
  if (q < p->end && (*q == 'e' || *q == 'E'))
    {
      q++;
      if (q < p->end && (*q == '+' || *q == '-'))
	q++;
      DIGITS (1);
    }
#undef DIGITS
  char buf[64];
  if (q - p->s >= (long) sizeof buf)
    {
      fail (p, "a number of more than %zu characters", sizeof buf - 1);
      return -1;
    }
  memcpy (buf, p->s, (size_t) (q - p->s));
  buf[q - p->s] = 0;
  errno = 0;
  *v = strtod (buf, NULL);
  if (errno == ERANGE && !isfinite (*v))
    {
      fail (p, "the number %s is out of range", buf);
      return -1;
    }
  p->s = q;
  return 0;
}

static int value (struct parser *p, struct json *v, int depth);

/* The members of an array or an object: the cursor is on '[' or '{'.  */
static int
members (struct parser *p, struct json *v, int depth)
{
  char close = v->type == JSON_ARRAY ? ']' : '}';
  char buf[32];
  size_t cap = 0;
  p->s++;
  skip_space (p);
  if (p->s < p->end && *p->s == close)
    {
      p->s++;
      return 0;
    }
  for (;;)
    {
      if (v->n == cap)
	{
	  cap = cap ? 2 * cap : 8;
	  v->item = xrealloc (v->item, cap * sizeof *v->item);
	}
      struct json *m = &v->item[v->n];
      memset (m, 0, sizeof *m);
      v->n++;
      skip_space (p);
      if (v->type == JSON_OBJECT)
	{
	  if (p->s == p->end || *p->s != '"')
	    {
	      fail (p, "expected a member's name in quotes, found %s",
		    found (p, buf, sizeof buf));
	      return -1;
	    }
	  if ((m->key = string (p)) == NULL)
	    return -1;
	  skip_space (p);
	  if (p->s == p->end || *p->s != ':')
	    {
	      fail (p, "expected ':' after a member's name, found %s",
		    found (p, buf, sizeof buf));
	      return -1;
	    }
	  p->s++;
	}
      if (value (p, m, depth + 1) != 0)
	return -1;
      skip_space (p);
      if (p->s < p->end && *p->s == ',')
	{
	  p->s++;
	  continue;
	}
      if (p->s < p->end && *p->s == close)
	{
	  p->s++;
	  return 0;
	}
      fail (p, "expected ',' or '%c', found %s", close,
	    found (p, buf, sizeof buf));
      return -1;
    }
}

static int
value (struct parser *p, struct json *v, int depth)
{
  char buf[32];
  skip_space (p);
  if (depth > MAX_DEPTH)
    {
      fail (p, "nested more than %d deep", MAX_DEPTH);
      return -1;
    }
  if (p->s == p->end)
    {
      fail (p, "expected a value, found the end of the input");
      return -1;
    }
  static const struct { const char *word; enum json_type type; } words[] = {
    { "null", JSON_NULL }, { "false", JSON_FALSE }, { "true", JSON_TRUE }
  };
  for (size_t i = 0; i < 3; i++)
    {
      size_t n = strlen (words[i].word);
      if ((size_t) (p->end - p->s) >= n && memcmp (p->s, words[i].word, n) == 0)
	{
	  v->type = words[i].type;
	  p->s += n;
	  return 0;
	}
    }
  switch (*p->s)
    {
    case '"':
      v->type = JSON_STRING;
      return (v->string = string (p)) != NULL ? 0 : -1;
    case '[':
      v->type = JSON_ARRAY;
      return members (p, v, depth);
    case '{':
      v->type = JSON_OBJECT;
      return members (p, v, depth);
    default:
      if (*p->s == '-' || (*p->s >= '0' && *p->s <= '9'))
	{
	  v->type = JSON_NUMBER;
	  return number (p, &v->number);
	}
      fail (p, "expected a value, found %s", found (p, buf, sizeof buf));
      return -1;
    }
}

struct json *
json_parse (const char *text, size_t len, char *err, size_t errlen)
{
  struct parser p = { .s = text, .end = text + len, .start = text,
		      .err = err, .errlen = errlen };
  struct json *v = xrealloc (NULL, sizeof *v);
  memset (v, 0, sizeof *v);
  if (value (&p, v, 0) == 0)
    {
      skip_space (&p);
      if (p.s != p.end)
	{
	  char buf[32];
	  fail (&p, "%s after the value", found (&p, buf, sizeof buf));
	}
    }
  if (p.failed)
    {
      json_free (v);
      return NULL;
    }
  return v;
}

static void
free_members (struct json *v)
{
  for (size_t i = 0; i < v->n; i++)
    free_members (&v->item[i]);
  free (v->item);
  free (v->string);
  free (v->key);
}

void
json_free (struct json *v)
{
  if (v == NULL)
    return;
  free_members (v);
  free (v);
}

const struct json *
json_member (const struct json *object, const char *key)
{
  if (object == NULL || object->type != JSON_OBJECT)
    return NULL;
  for (size_t i = 0; i < object->n; i++)
    if (strcmp (object->item[i].key, key) == 0)
      return &object->item[i];
  return NULL;
}
