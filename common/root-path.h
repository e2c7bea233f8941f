/* SPDX-License-Identifier: MIT */
/* Paths inside a root directory.  The tools work on the system whose root
   is "/" or fastcopy-preload's --root DIR, and follow symbolic links as
   that system would: an absolute link target starts again at its root.  */

#ifndef FC_TOOLS_ROOT_PATH_H
#define FC_TOOLS_ROOT_PATH_H

/* ROOT joined with the absolute PATH: the host's name for it.  A new
   string.  */
char *root_join (const char *root, const char *path);

/* PATH (absolute, inside ROOT) made canonical the way realpath -m does
   it: symbolic links followed, '.', '..' and repeated '/' resolved,
   components that do not exist taken as they are; '..' stops at ROOT.  A
   new string, or NULL with errno ELOOP or ENAMETOOLONG.  */
char *root_canonical (const char *root, const char *path);

#endif
