/* SPDX-License-Identifier: MIT */
/* Whether a file is a shared object of an ABI (shared-object.h).  */

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/shared-object.h"

const struct elf_abi elf_abi_x86_64 = { ELFCLASS64, EM_X86_64, "64-bit",
  "x86-64"
};
const struct elf_abi elf_abi_i386 = { ELFCLASS32, EM_386, "32-bit", "i386" };

const char *
shared_object_check (const char *path, const struct elf_abi *abi)
{
  static char why[256];
  /* The header of either class: e_type and e_machine sit at the same
     offsets in both.  */
  unsigned char h[sizeof (Elf64_Ehdr)];
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      snprintf (why, sizeof why, "%s", strerror (errno));
      return why;
    }
  ssize_t n = read (fd, h, sizeof h);
  close (fd);
  if (n < (ssize_t) sizeof (Elf32_Ehdr) || memcmp (h, ELFMAG, SELFMAG) != 0)
    return "not an ELF file";
  size_t header = abi->elf_class == ELFCLASS64 ? sizeof (Elf64_Ehdr)
    : sizeof (Elf32_Ehdr);
  if (h[EI_CLASS] != abi->elf_class || h[EI_DATA] != ELFDATA2LSB
      || (size_t) n < header)
    {
      snprintf (why, sizeof why, "not a %s little-endian ELF file",
		abi->class_name);
      return why;
    }
  unsigned type = h[16] | h[17] << 8, machine = h[18] | h[19] << 8;
  if (type != ET_DYN)
    return "not a shared object";
  if (machine != abi->machine)
    {
      snprintf (why, sizeof why, "not an %s object", abi->machine_name);
      return why;
    }
  return NULL;
}
