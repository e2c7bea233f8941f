/* SPDX-License-Identifier: MIT */
/* Allocation for the tools: running out of memory ends the program with
   an error message, so callers need no failure path.  */

#ifndef FC_TOOLS_XALLOC_H
#define FC_TOOLS_XALLOC_H

#include <stddef.h>

/* realloc (P, N), never NULL; N == 0 still gives a usable pointer.  */
void *xrealloc (void *p, size_t n);

/* asprintf into a new string.  */
char *xasprintf (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

#endif
