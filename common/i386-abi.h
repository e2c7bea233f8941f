/* SPDX-License-Identifier: MIT */
/* The i386 ABI of a system: whether it runs 32-bit programs, and what
   libfastcopy's preload entries give them.  The dynamic loader of a
   32-bit program reads /etc/ld.so.preload too and expands $LIB its own
   way; with no i386 libfastcopy where an entry leads, it prints an error
   at every start of every 32-bit program.  */

#ifndef FC_TOOLS_I386_ABI_H
#define FC_TOOLS_I386_ABI_H

#include <stddef.h>

/* What $LIB stands for in the 32-bit processes of the system whose root
   is ROOT, or NULL when it has no i386 ABI: neither does dpkg list i386
   as a foreign architecture nor is there an i386 C library.  */
const char *i386_lib_value (const char *root);

/* What an entry gives 32-bit processes.  */
struct i386_load
{
  char *file;			/* the file it loads (path inside the root), or NULL */
  const char *problem;		/* NULL when FILE is an i386 shared object */
};

/* Fill OUT for the entry (LEN bytes at ENTRY) on the system in ROOT,
   whose 32-bit $LIB is LIB.  Free OUT->file.  */
void i386_entry_load (const char *root, const char *lib, const char *entry,
		      size_t len, struct i386_load *out);

/* How to give 32-bit programs libfastcopy through the entry on the
   system in ROOT: the commands that install the i386 library on a dpkg
   system, else the package's name; for a path without $LIB, which loads
   the 64-bit library in every process, that it needs $LIB.  */
const char *i386_advice (const char *root, const char *entry, size_t len);

#endif
