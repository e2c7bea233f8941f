/* SPDX-License-Identifier: MIT */
/* ELF files of either class, little-endian as on x86-64 and i386, read
   whole: the file header, the section and program headers, string tables
   and symbols, each in one form for both classes (a 64-bit tool reads
   i386 libraries too).  Every offset is checked against the file's size,
   which may be truncated or corrupt.  Self-contained (libc only), so that
   a test can build it alongside body-map-read.c.  */

#ifndef FC_TOOLS_ELF_READ_H
#define FC_TOOLS_ELF_READ_H

#include <stddef.h>
#include <stdint.h>

struct elf_file
{
  unsigned char *data;		/* the whole file, allocated */
  size_t size;
  int elf_class;		/* ELFCLASS64 or ELFCLASS32 */
  uint64_t shoff, phoff;
  unsigned shnum, shentsize, shstrndx, phnum, phentsize;
};

struct elf_section
{
  uint32_t name, type, link;
  uint64_t addr, offset, size, entsize;
};

struct elf_segment
{
  uint32_t type;
  uint64_t offset, filesz, vaddr;
};

struct elf_symbol
{
  uint32_t name;
  unsigned char info;
  uint16_t shndx;
  uint64_t value, size;
};

/* The headers of the file of SIZE bytes at DATA into F, which takes
   DATA (elf_free frees it, whatever the result): 0, or -1 when it is not
   a little-endian ELF file.  */
int elf_parse (unsigned char *data, size_t size, struct elf_file *f);

/* The regular file at PATH, read whole and parsed, into F: 0, or -1 when
   it cannot be read, is no regular file or is not little-endian ELF.  */
int elf_load (const char *path, struct elf_file *f);

void elf_free (struct elf_file *f);

/* Whether the LEN bytes at OFFSET lie in the file.  */
int elf_within (const struct elf_file *f, uint64_t offset, uint64_t len);

/* Whether the section headers, or the program headers, lie in the file
   and are of the class's size: only then may elf_section, or
   elf_segment, be called, with I below F->shnum, or F->phnum.  */
int elf_sections_ok (const struct elf_file *f);
int elf_segments_ok (const struct elf_file *f);
void elf_section (const struct elf_file *f, size_t i, struct elf_section *s);
void elf_segment (const struct elf_file *f, size_t i, struct elf_segment *p);

/* The string at OFFSET in string table S, or NULL when it does not lie
   in the file, ended within S.  */
const char *elf_string (const struct elf_file *f, const struct elf_section *s,
			uint64_t offset);

/* The first section named NAME into *S: 0; 1 when there is none; -1 when
   the section headers or their names are corrupt.  */
int elf_section_named (const struct elf_file *f, const char *name,
		       struct elf_section *s);

/* Where section NAME of the ELF object at PATH starts, from the object's
   load address; 0 when it has none or the file cannot be read.  */
uint64_t elf_section_address (const char *path, const char *name);

/* The first section of TYPE whose contents lie in the file into *S: 0,
   or -1 when there is none.  The section headers must be ok.  */
int elf_section_of_type (const struct elf_file *f, uint32_t type,
			 struct elf_section *s);

/* How many symbols the symbol table SYMTAB (a section of F) holds, with
   the string table of their names into *STRTAB; 0 when either does not
   lie in the file or the entries are not the class's.  */
size_t elf_symbols (const struct elf_file *f, const struct elf_section *symtab,
		    struct elf_section *strtab);
void elf_symbol (const struct elf_file *f, const struct elf_section *symtab,
		 size_t i, struct elf_symbol *sym);

#endif
