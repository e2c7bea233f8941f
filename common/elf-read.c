/* SPDX-License-Identifier: MIT */
/* Reading ELF files of either class (elf-read.h).  */

#include "elf-read.h"
#include "file-read.h"

#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The header at P, of type Elf64_T or Elf32_T as F's class says, into
   *OUT as VALUE, an expression of the fields of the local H: they have
   the same names in both classes.  The file need not be aligned for the
   header, so it is copied out.  */
#define READ_EITHER(f, p, T, out, value)				\
  do									\
    {									\
      if ((f)->elf_class == ELFCLASS64)					\
	{								\
	  Elf64_##T h;							\
	  memcpy (&h, (p), sizeof h);					\
	  *(out) = (value);						\
	}								\
      else								\
	{								\
	  Elf32_##T h;							\
	  memcpy (&h, (p), sizeof h);					\
	  *(out) = (value);						\
	}								\
    }									\
  while (0)

/* The size of the class's Elf64_T or Elf32_T.  */
#define SIZE_OF(f, T) \
  ((f)->elf_class == ELFCLASS64 ? sizeof (Elf64_##T) : sizeof (Elf32_##T))

int
elf_parse (unsigned char *data, size_t size, struct elf_file *f)
{
  *f = (struct elf_file) { .data = data, .size = size };
  if (size < EI_NIDENT || memcmp (data, ELFMAG, SELFMAG) != 0
      || data[EI_DATA] != ELFDATA2LSB
      || (data[EI_CLASS] != ELFCLASS64 && data[EI_CLASS] != ELFCLASS32))
    return -1;
  f->elf_class = data[EI_CLASS];
  if (size < SIZE_OF (f, Ehdr))
    return -1;
  READ_EITHER (f, data, Ehdr, f,
	       ((struct elf_file) { .data = data, .size = size,
				    .elf_class = f->elf_class,
				    .shoff = h.e_shoff, .phoff = h.e_phoff,
				    .shnum = h.e_shnum,
				    .shentsize = h.e_shentsize,
				    .shstrndx = h.e_shstrndx,
				    .phnum = h.e_phnum,
				    .phentsize = h.e_phentsize }));
  return 0;
}

int
elf_load (const char *path, struct elf_file *f)
{
  char *data = NULL;
  size_t size = 0;
  struct stat st;
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  int rc = fd < 0 || fstat (fd, &st) != 0 || !S_ISREG (st.st_mode)
	   ? -1 : file_read_fd (fd, &data, &size);
  if (fd >= 0)
    close (fd);
  if (elf_parse ((unsigned char *) data, size, f) != 0 || rc != 0)
    {
      elf_free (f);
      return -1;
    }
  return 0;
}

void
elf_free (struct elf_file *f)
{
  free (f->data);
  f->data = NULL;
}

int
elf_within (const struct elf_file *f, uint64_t offset, uint64_t len)
{
  return offset <= f->size && len <= f->size - offset;
}

int
elf_sections_ok (const struct elf_file *f)
{
  return f->shentsize == SIZE_OF (f, Shdr)
	 && elf_within (f, f->shoff, (uint64_t) f->shnum * f->shentsize);
}

int
elf_segments_ok (const struct elf_file *f)
{
  return f->phentsize == SIZE_OF (f, Phdr)
	 && elf_within (f, f->phoff, (uint64_t) f->phnum * f->phentsize);
}

void
elf_section (const struct elf_file *f, size_t i, struct elf_section *s)
{
  READ_EITHER (f, f->data + f->shoff + i * f->shentsize, Shdr, s,
	       ((struct elf_section) { .name = h.sh_name, .type = h.sh_type,
				     .link = h.sh_link, .addr = h.sh_addr,
				     .offset = h.sh_offset,
				     .size = h.sh_size,
				     .entsize = h.sh_entsize }));
}

void
elf_segment (const struct elf_file *f, size_t i, struct elf_segment *s)
{
  READ_EITHER (f, f->data + f->phoff + i * f->phentsize, Phdr, s,
	       ((struct elf_segment) { .type = h.p_type, .offset = h.p_offset,
				     .filesz = h.p_filesz,
				     .vaddr = h.p_vaddr }));
}

const char *
elf_string (const struct elf_file *f, const struct elf_section *s,
	    uint64_t offset)
{
  if (!elf_within (f, s->offset, s->size) || offset >= s->size)
    return NULL;
  const char *p = (const char *) f->data + s->offset + offset;
  return memchr (p, 0, s->size - offset) != NULL ? p : NULL;
}

int
elf_section_named (const struct elf_file *f, const char *name,
		   struct elf_section *s)
{
  struct elf_section names;
  if (f->shnum == 0)
    return 1;
  if (!elf_sections_ok (f) || f->shstrndx >= f->shnum)
    return -1;
  elf_section (f, f->shstrndx, &names);
  if (!elf_within (f, names.offset, names.size))
    return -1;
  for (size_t i = 0; i < f->shnum; i++)
    {
      elf_section (f, i, s);
      const char *at = elf_string (f, &names, s->name);
      if (at != NULL && strcmp (at, name) == 0)
	return 0;
    }
  return 1;
}

int
elf_section_of_type (const struct elf_file *f, uint32_t type,
		     struct elf_section *s)
{
  for (size_t i = 0; i < f->shnum; i++)
    {
      elf_section (f, i, s);
      if (s->type == type && elf_within (f, s->offset, s->size))
	return 0;
    }
  return -1;
}

size_t
elf_symbols (const struct elf_file *f, const struct elf_section *symtab,
	     struct elf_section *strtab)
{
  if (symtab->entsize != SIZE_OF (f, Sym) || symtab->link >= f->shnum
      || !elf_within (f, symtab->offset, symtab->size))
    return 0;
  elf_section (f, symtab->link, strtab);
  if (!elf_within (f, strtab->offset, strtab->size))
    return 0;
  return symtab->size / symtab->entsize;
}

void
elf_symbol (const struct elf_file *f, const struct elf_section *symtab,
	    size_t i, struct elf_symbol *sym)
{
  READ_EITHER (f, f->data + symtab->offset + i * symtab->entsize, Sym, sym,
	       ((struct elf_symbol) { .name = h.st_name, .info = h.st_info,
				    .shndx = h.st_shndx,
				    .value = h.st_value, .size = h.st_size }));
}

uint64_t
elf_section_address (const char *path, const char *name)
{
  struct elf_file f;
  struct elf_section s;
  uint64_t address = 0;
  if (elf_load (path, &f) != 0)
    return 0;
  if (elf_section_named (&f, name, &s) == 0)
    address = s.addr;
  elf_free (&f);
  return address;
}
