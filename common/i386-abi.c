/* SPDX-License-Identifier: MIT */
/* The i386 ABI of a system (i386-abi.h).  */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/i386-abi.h"
#include "common/preload-entry.h"
#include "common/root-path.h"
#include "common/shared-object.h"
#include "common/xalloc.h"

/* Nonzero when PATH (absolute) exists inside ROOT, links followed as the
   system would follow them.  */
static int
exists_in_root (const char *root, const char *path)
{
  char *canon = root_canonical (root, path);
  if (canon == NULL)
    return 0;
  char *host = root_join (root, canon);
  int found = access (host, F_OK) == 0;
  free (host);
  free (canon);
  return found;
}

/* Nonzero when dpkg inside ROOT lists i386 as a foreign architecture:
   var/lib/dpkg/arch, one architecture a line, is what
   'dpkg --print-foreign-architectures' reads.  */
static int
dpkg_has_i386 (const char *root)
{
  char *path = root_join (root, "/var/lib/dpkg/arch");
  FILE *f = fopen (path, "re");
  free (path);
  if (f == NULL)
    return 0;
  char line[64];
  int found = 0;
  while (!found && fgets (line, sizeof line, f) != NULL)
    found = strcmp (line, "i386\n") == 0 || strcmp (line, "i386") == 0;
  fclose (f);
  return found;
}

const char *
i386_lib_value (const char *root)
{
  /* Debian's multiarch i386 C library (libc6:i386).  */
  if (dpkg_has_i386 (root)
      || exists_in_root (root, "/usr/lib/i386-linux-gnu/libc.so.6")
      || exists_in_root (root, "/lib/i386-linux-gnu/libc.so.6"))
    return "lib/i386-linux-gnu";
  if (!exists_in_root (root, "/lib/ld-linux.so.2"))
    return NULL;
  /* Only the i386 loader: on Debian that is the biarch libc6-i386 (which
     gcc-multilib brings), whose loader lives in lib32 and says so for
     $LIB; on Fedora, RHEL and SUSE (glibc.i686) it is lib.  */
  char *loader = root_canonical (root, "/lib/ld-linux.so.2");
  int lib32 = loader != NULL && (strncmp (loader, "/lib32/", 7) == 0
				 || strncmp (loader, "/usr/lib32/", 11) == 0);
  free (loader);
  return lib32 ? "lib32" : "lib";
}

void
i386_entry_load (const char *root, const char *lib, const char *entry,
		 size_t len, struct i386_load *out)
{
  out->file = preload_entry_file_for (root, lib, entry, len);
  if (out->file == NULL)
    {
      out->problem = "no such file";
      return;
    }
  char *host = root_join (root, out->file);
  out->problem = shared_object_check (host, &elf_abi_i386);
  free (host);
}

const char *
i386_advice (const char *root, const char *entry, size_t len)
{
  /* A path without $LIB names the same file in every process.  */
  if (memchr (entry, '/', len) != NULL && memmem (entry, len, "LIB", 3) == NULL)
    return "write the entry with $LIB (/usr/$LIB/libfastcopy.so.1) and install the i386 library";
  char *dpkg = root_join (root, "/var/lib/dpkg");
  int is_dpkg = access (dpkg, F_OK) == 0;
  free (dpkg);
  if (!is_dpkg)
    return "install the package libfastcopy.i686";
  return dpkg_has_i386 (root) ? "apt-get install libfastcopy1:i386"
    : "dpkg --add-architecture i386; apt-get update; apt-get install libfastcopy1:i386";
}
