/* SPDX-License-Identifier: MIT */
/* Reading a file whole.  Self-contained (libc only), so that a test can
   build it alongside body-map-read.c.  */

#ifndef FC_TOOLS_FILE_READ_H
#define FC_TOOLS_FILE_READ_H

#include <stddef.h>

/* All that FD reads until its end into *DATA, allocated, with a NUL
   after its *LEN bytes so that text can be read as a string: 0, or -1
   with errno set (ENOMEM when memory ran out) and nothing allocated.  */
int file_read_fd (int fd, char **data, size_t *len);

#endif
