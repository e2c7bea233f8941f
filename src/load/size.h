/* SPDX-License-Identifier: MIT */
/* Sizes in bytes, read and written one way everywhere: the settings
   parser and the API's texts in libfastcopy, and the programs
   (fastcopy-info, fastcopy-tune, fastcopy-profile, fastcopy-bench), which
   link the same size.c from src/libfcsize.a.  In the library these
   functions are hidden, and the parser is safe inside the IFUNC resolvers
   (FC_EARLY: no libc, no relocations; settings.c).  */

#ifndef FASTCOPY_SIZE_H
#define FASTCOPY_SIZE_H 1

#include "fastcopy-internal.h"

/* The largest size the parser takes: 1 TiB.  Above it a threshold can
   only mean "never", which says so.  */
#define FC_SIZE_LIMIT (1ull << 40)

/* The grammar, for messages: "never" is the settings' word on top.  */
#define FC_SIZE_SYNTAX "bytes, optionally with K, KiB, M, MiB, G, GiB, T or TiB"

/* What fc_size_parse found.  */
enum fc_size_status
{
  FC_SIZE_OK = 0,
  FC_SIZE_NOT_SIZE,		/* no digits, or an unknown unit */
  FC_SIZE_NEGATIVE,		/* a leading '-' */
  FC_SIZE_TOO_BIG		/* above FC_SIZE_LIMIT */
};

/* Parse S[0..N): decimal digits, optional blanks and a binary unit K, KiB,
   M, MiB, G, GiB, T or TiB in any case; or "never" in any case, which
   gives FASTCOPY_NEVER.  *OUT is written only on FC_SIZE_OK.  */
FC_HIDDEN FC_EARLY int fc_size_parse (const char *s, size_t n,
				      unsigned long long *out);

/* How fc_size_format writes a size; FASTCOPY_NEVER is "never" in all.  */
enum fc_size_style
{
  FC_SIZE_BYTES,		/* "65536": the settings' values */
  FC_SIZE_EXACT,		/* "64KiB", "1000": the largest unit that
				   divides it, as a configuration line says
				   it */
  FC_SIZE_EXACT_SPACED,		/* "64 KiB", "1000 bytes": the same, in prose */
  FC_SIZE_3_DIGITS,		/* "1.32 KiB", "1000 B": the largest unit
				   not above it, three significant digits */
  FC_SIZE_1_DECIMAL		/* "1.3 KiB", "64 KiB", "1000 B": the same,
				   one decimal unless whole */
};

/* V in STYLE into BUF of SIZE bytes; returns BUF.  */
FC_HIDDEN const char *fc_size_format (unsigned long long v,
				      enum fc_size_style style, char *buf,
				      size_t size);

#endif
