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

/* file_read_fd (file-read.h): all that FD reads into *DATA, with a NUL
   after its *LEN bytes; 0, or -1 with errno set when FD cannot be
   read.  */
int xfile_read_fd (int fd, char **data, size_t *len);

#endif
