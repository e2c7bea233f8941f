/* SPDX-License-Identifier: MIT */
/* Whether a file is a shared object that processes of an ABI can load,
   judged by its ELF header.  */

#ifndef FC_TOOLS_SHARED_OBJECT_H
#define FC_TOOLS_SHARED_OBJECT_H

/* An ABI: the ELF class and machine of its objects, and how messages name
   them.  */
struct elf_abi
{
  unsigned char elf_class;	/* ELFCLASS32 or ELFCLASS64 */
  unsigned short machine;	/* EM_386, EM_X86_64 */
  const char *class_name;	/* "64-bit" */
  const char *machine_name;	/* "x86-64" */
};

extern const struct elf_abi elf_abi_x86_64, elf_abi_i386;

/* NULL when the file at host path PATH is a little-endian shared object of
   ABI, else what is wrong with it.  */
const char *shared_object_check (const char *path, const struct elf_abi *abi);

/* Whether the ELF object at host path PATH, of either class, defines
   SYMBOL in its dynamic symbol table: 1 if so, 0 if not or if it has no
   such table that can be read.  A library is libfastcopy when it defines
   fastcopy_version; any shared object would pass for it by name and ELF
   header alone.  */
int shared_object_defines (const char *path, const char *symbol);

/* NULL when the file at host path PATH is libfastcopy for ABI (a shared
   object of ABI that defines fastcopy_version), else what is wrong with
   it.  */
const char *libfastcopy_problem (const char *path, const struct elf_abi *abi);

#endif
