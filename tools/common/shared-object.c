/* SPDX-License-Identifier: MIT */
/* Whether a file is a shared object of an ABI (shared-object.h).  */

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

/* The dynamic symbol table of the object of SIZE bytes at P, of the class
   whose types are EHDR, SHDR and SYM: whether it defines SYMBOL.  Every
   offset is checked against SIZE: the file may come from a disk image.  */
#define DEFINES_IN(Ehdr, Shdr, Sym)					\
  {									\
    const Ehdr *eh = (const Ehdr *) p;					\
    if (size < sizeof *eh || eh->e_shentsize != sizeof (Shdr)		\
	|| eh->e_shoff > size						\
	|| (size - eh->e_shoff) / sizeof (Shdr) < eh->e_shnum)		\
      return 0;								\
    const Shdr *sh = (const Shdr *) (p + eh->e_shoff);			\
    for (size_t i = 0; i < eh->e_shnum; i++)				\
      {									\
	if (sh[i].sh_type != SHT_DYNSYM || sh[i].sh_link >= eh->e_shnum	\
	    || sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset \
	    || sh[i].sh_entsize != sizeof (Sym))				\
	  continue;							\
	const Shdr *str = &sh[sh[i].sh_link];				\
	if (str->sh_offset > size || str->sh_size > size - str->sh_offset) \
	  continue;							\
	const Sym *sym = (const Sym *) (p + sh[i].sh_offset);		\
	const char *names = (const char *) (p + str->sh_offset);	\
	for (size_t k = 0; k < sh[i].sh_size / sizeof (Sym); k++)	\
	  if (sym[k].st_shndx != SHN_UNDEF && sym[k].st_name < str->sh_size \
	      && strnlen (names + sym[k].st_name,			\
			  str->sh_size - sym[k].st_name)		\
		 == len							\
	      && memcmp (names + sym[k].st_name, symbol, len) == 0)	\
	    return 1;							\
      }									\
    return 0;								\
  }

static int
defines (const unsigned char *p, size_t size, const char *symbol)
{
  size_t len = strlen (symbol);
  if (size < EI_NIDENT || memcmp (p, ELFMAG, SELFMAG) != 0)
    return 0;
  if (p[EI_CLASS] == ELFCLASS64)
    DEFINES_IN (Elf64_Ehdr, Elf64_Shdr, Elf64_Sym)
  else
    DEFINES_IN (Elf32_Ehdr, Elf32_Shdr, Elf32_Sym)
}

int
shared_object_defines (const char *path, const char *symbol)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0)
    return 0;
  if (fstat (fd, &st) < 0 || !S_ISREG (st.st_mode) || st.st_size == 0)
    {
      close (fd);
      return 0;
    }
  void *map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    return 0;
  int found = defines (map, (size_t) st.st_size, symbol);
  munmap (map, (size_t) st.st_size);
  return found;
}

const char *
libfastcopy_problem (const char *path, const struct elf_abi *abi)
{
  const char *bad = shared_object_check (path, abi);
  if (bad == NULL && !shared_object_defines (path, "fastcopy_version"))
    bad = "not libfastcopy (it defines no fastcopy_version)";
  return bad;
}
