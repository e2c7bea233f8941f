/* SPDX-License-Identifier: MIT */
/* Sizes: the one parser and the one formatter (size.h).  The parser runs
   inside the IFUNC resolvers (settings.c), so it calls nothing, reads no
   table of pointers and is FC_EARLY; the formatter is for the API and the
   programs, which run later, and may use snprintf.  Units are powers of
   1024 kept as shifts, so that i386 needs no 64-bit division from
   libgcc.  */

#include <stdio.h>
#include "size.h"

/* The blanks the settings allow between a number and its unit ("4 KiB").  */
static FC_EARLY int
is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* S[0..N) is WORD, which is lower case, in any case.  OR-ing 0x20 lowers
   an ASCII letter and makes no other byte a lower-case letter.  */
static FC_EARLY int
is_word (const char *s, size_t n, const char *word)
{
  size_t i = 0;
  while (i < n && word[i] != 0 && (s[i] | 0x20) == word[i])
    i++;
  return i == n && word[i] == 0;
}

int
fc_size_parse (const char *s, size_t n, unsigned long long *out)
{
  if (is_word (s, n, "never"))
    {
      *out = FASTCOPY_NEVER;
      return FC_SIZE_OK;
    }
  if (n > 0 && s[0] == '-')
    return FC_SIZE_NEGATIVE;
  size_t i = 0;
  unsigned long long v = 0;
  int big = 0;
  for (; i < n && s[i] >= '0' && s[i] <= '9'; i++)
    {
      if (v > FC_SIZE_LIMIT)
	big = 1;		/* keep going; v no longer matters */
      else
	v = v * 10 + (unsigned long long) (s[i] - '0');
    }
  if (i == 0)
    return FC_SIZE_NOT_SIZE;
  while (i < n && is_blank (s[i]))
    i++;
  /* The unit: K, M, G or T, alone or with "iB".  */
  int shift = 0;
  if (i < n)
    {
      char c = (char) (s[i] | 0x20);
      shift = c == 'k' ? 10 : c == 'm' ? 20 : c == 'g' ? 30 : c == 't' ? 40 : 0;
      if (shift == 0
	  || (i + 1 < n && !is_word (s + i + 1, n - i - 1, "ib")))
	return FC_SIZE_NOT_SIZE;
    }
  if (big || v > (FC_SIZE_LIMIT >> shift))
    return FC_SIZE_TOO_BIG;
  *out = v << shift;
  return FC_SIZE_OK;
}

const char *
fc_size_format (unsigned long long v, enum fc_size_style style, char *buf,
		size_t size)
{
  /* Arrays, not pointers: the library's copy needs no relocation.  */
  static const char units[][4] = { "B", "KiB", "MiB", "GiB", "TiB" };
  if (v == FASTCOPY_NEVER)
    {
      snprintf (buf, size, "never");
      return buf;
    }
  /* U: the unit, SHIFT its power of two.  The exact styles take the
     largest that divides V, the others the largest not above it.  */
  int u = 0, shift = 0;
  int exact = style == FC_SIZE_EXACT || style == FC_SIZE_EXACT_SPACED;
  while (u < 4 && (v >> (shift + 10)) != 0
	 && (!exact || (v & ((1ull << (shift + 10)) - 1)) == 0))
    u++, shift += 10;
  unsigned long long whole = v >> shift;
  switch (style)
    {
    case FC_SIZE_EXACT:
      snprintf (buf, size, "%llu%s", whole, u ? units[u] : "");
      break;
    case FC_SIZE_EXACT_SPACED:
      snprintf (buf, size, "%llu %s", whole, u ? units[u] : "bytes");
      break;
    case FC_SIZE_3_DIGITS:
      if (u == 0)
	snprintf (buf, size, "%llu B", v);
      else
	snprintf (buf, size, "%.3g %s", (double) v / (double) (1ull << shift),
		  units[u]);
      break;
    case FC_SIZE_1_DECIMAL:
      if ((v & ((1ull << shift) - 1)) == 0)
	snprintf (buf, size, "%llu %s", whole, units[u]);
      else
	snprintf (buf, size, "%.1f %s", (double) v / (double) (1ull << shift),
		  units[u]);
      break;
    case FC_SIZE_BYTES:
    default:
      snprintf (buf, size, "%llu", v);
      break;
    }
  return buf;
}
