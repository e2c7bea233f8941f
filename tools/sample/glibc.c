/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: where glibc's own copy and clear functions lie, so
   that the copy share counts them too (what libfastcopy would replace).

   Their names (memmove, __memmove_avx_unaligned_erms, __memset_evex...)
   are in the library's .symtab when it has one; Debian strips it, and
   keeps it in the debug file that libc6-dbg installs under
   /usr/lib/debug/.build-id/, named by the library's build ID.  64-bit
   libraries only: a 32-bit libc's samples count as other code.  */

#define _GNU_SOURCE 1
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sample/sample.h"

struct range
{
  uint64_t start, end;
};

struct glibc_funcs
{
  size_t nsegments, nranges;
  Elf64_Phdr segment[16];	/* PT_LOAD: file offsets to addresses */
  struct range *range;		/* link-time addresses, sorted */
};

/* A file mapped whole, read-only.  */
struct elf_image
{
  const unsigned char *p;
  size_t size;
};

static int
image_open (const char *path, struct elf_image *im)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  im->p = NULL;
  if (fd < 0)
    return -1;
  if (fstat (fd, &st) == 0 && (size_t) st.st_size >= sizeof (Elf64_Ehdr))
    {
      void *p = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_PRIVATE, fd,
		      0);
      if (p != MAP_FAILED)
	{
	  im->p = p;
	  im->size = (size_t) st.st_size;
	}
    }
  close (fd);
  if (im->p == NULL)
    return -1;
  const Elf64_Ehdr *e = (const void *) im->p;
  if (memcmp (e->e_ident, ELFMAG, SELFMAG) != 0
      || e->e_ident[EI_CLASS] != ELFCLASS64
      || e->e_shoff > im->size
      || (im->size - e->e_shoff) / sizeof (Elf64_Shdr) < e->e_shnum
      || e->e_phoff > im->size
      || (im->size - e->e_phoff) / sizeof (Elf64_Phdr) < e->e_phnum)
    {
      munmap ((void *) im->p, im->size);
      im->p = NULL;
      return -1;
    }
  return 0;
}

static void
image_close (struct elf_image *im)
{
  if (im->p != NULL)
    munmap ((void *) im->p, im->size);
}

static const Elf64_Shdr *
sections (const struct elf_image *im)
{
  return (const void *) (im->p + ((const Elf64_Ehdr *) im->p)->e_shoff);
}

/* The section of type TYPE, or NULL.  */
static const Elf64_Shdr *
section_of_type (const struct elf_image *im, uint32_t type)
{
  const Elf64_Ehdr *e = (const void *) im->p;
  for (size_t i = 0; i < e->e_shnum; i++)
    if (sections (im)[i].sh_type == type
	&& sections (im)[i].sh_offset <= im->size
	&& im->size - sections (im)[i].sh_offset >= sections (im)[i].sh_size)
      return &sections (im)[i];
  return NULL;
}

/* The debug file of IM by its build ID, into PATH.  */
static int
debug_file (const struct elf_image *im, char *path, size_t size)
{
  const Elf64_Ehdr *e = (const void *) im->p;
  for (size_t i = 0; i < e->e_shnum; i++)
    {
      const Elf64_Shdr *s = &sections (im)[i];
      if (s->sh_type != SHT_NOTE || s->sh_offset > im->size
	  || im->size - s->sh_offset < s->sh_size)
	continue;
      const unsigned char *p = im->p + s->sh_offset, *end = p + s->sh_size;
      while (end - p >= (long) sizeof (Elf64_Nhdr))
	{
	  const Elf64_Nhdr *n = (const void *) p;
	  size_t name = (n->n_namesz + 3) & ~3u, desc = (n->n_descsz + 3) & ~3u;
	  const unsigned char *d = p + sizeof *n + name;
	  if ((size_t) (end - p) < sizeof *n + name + desc)
	    break;
	  if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4
	      && memcmp (p + sizeof *n, "GNU", 4) == 0 && n->n_descsz >= 2)
	    {
	      int len = snprintf (path, size, "/usr/lib/debug/.build-id/%02x/",
				  d[0]);
	      for (size_t k = 1; k < n->n_descsz && len > 0
		   && (size_t) len + 8 < size; k++)
		len += snprintf (path + len, size - (size_t) len, "%02x", d[k]);
	      snprintf (path + len, size - (size_t) len, ".debug");
	      return 0;
	    }
	  p += sizeof *n + name + desc;
	}
    }
  return -1;
}

/* A copy or clear function's name, with its variants: memmove,
   __memmove_avx_unaligned_erms, __memcpy_chk, __mempcpy_evex, bzero.  */
static int
copy_or_clear (const char *name)
{
  static const char *const stem[] = { "memmove", "memcpy", "mempcpy",
				      "memset", "bzero", "wmemset" };
  while (*name == '_')
    name++;
  for (size_t i = 0; i < sizeof stem / sizeof *stem; i++)
    {
      size_t n = strlen (stem[i]);
      if (strncmp (name, stem[i], n) == 0
	  && (name[n] == 0 || name[n] == '_'))
	return 1;
    }
  return 0;
}

static int
by_start (const void *a, const void *b)
{
  const struct range *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The ranges of the functions in IM's .symtab into G; 0, or -1 if it has
   no .symtab.  */
static int
symbol_ranges (const struct elf_image *im, struct glibc_funcs *g)
{
  const Elf64_Shdr *symtab = section_of_type (im, SHT_SYMTAB);
  const Elf64_Ehdr *e = (const void *) im->p;
  if (symtab == NULL || symtab->sh_link >= e->e_shnum)
    return -1;
  const Elf64_Shdr *strtab = &sections (im)[symtab->sh_link];
  if (strtab->sh_offset > im->size
      || im->size - strtab->sh_offset < strtab->sh_size)
    return -1;
  const Elf64_Sym *sym = (const void *) (im->p + symtab->sh_offset);
  const char *str = (const char *) im->p + strtab->sh_offset;
  size_t n = symtab->sh_size / sizeof *sym;
  g->range = xrealloc (g->range, (n + 1) * sizeof *g->range);
  g->nranges = 0;
  for (size_t i = 0; i < n; i++)
    if (ELF64_ST_TYPE (sym[i].st_info) == STT_FUNC && sym[i].st_size > 0
	&& sym[i].st_name < strtab->sh_size
	&& memchr (str + sym[i].st_name, 0, strtab->sh_size - sym[i].st_name)
	&& copy_or_clear (str + sym[i].st_name))
      g->range[g->nranges++] = (struct range) { sym[i].st_value,
						sym[i].st_value
						+ sym[i].st_size };
  qsort (g->range, g->nranges, sizeof *g->range, by_start);
  /* Aliases (memcpy of memmove) and nested symbols made one range, so
     that the ranges are disjoint for the search.  */
  size_t k = 0;
  for (size_t i = 0; i < g->nranges; i++)
    if (k > 0 && g->range[i].start < g->range[k - 1].end)
      {
	if (g->range[i].end > g->range[k - 1].end)
	  g->range[k - 1].end = g->range[i].end;
      }
    else
      g->range[k++] = g->range[i];
  g->nranges = k;
  return k > 0 ? 0 : -1;
}

struct glibc_funcs *
glibc_funcs_load (const char *path)
{
  struct elf_image lib, debug = { NULL, 0 };
  if (image_open (path, &lib) != 0)
    return NULL;
  struct glibc_funcs *g = zalloc (sizeof *g);
  const Elf64_Ehdr *e = (const void *) lib.p;
  const Elf64_Phdr *ph = (const void *) (lib.p + e->e_phoff);
  for (size_t i = 0; i < e->e_phnum && g->nsegments < 16; i++)
    if (ph[i].p_type == PT_LOAD)
      g->segment[g->nsegments++] = ph[i];
  char dbg[128];
  int found = symbol_ranges (&lib, g) == 0
	      || (debug_file (&lib, dbg, sizeof dbg) == 0
		  && image_open (dbg, &debug) == 0
		  && symbol_ranges (&debug, g) == 0);
  image_close (&debug);
  image_close (&lib);
  if (!found)
    {
      glibc_funcs_free (g);
      return NULL;
    }
  return g;
}

int
glibc_funcs_has (const struct glibc_funcs *g, uint64_t file_offset)
{
  uint64_t vaddr = UINT64_MAX;
  for (size_t i = 0; i < g->nsegments; i++)
    if (file_offset - g->segment[i].p_offset < g->segment[i].p_filesz)
      vaddr = g->segment[i].p_vaddr + (file_offset - g->segment[i].p_offset);
  size_t lo = 0, hi = g->nranges;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (vaddr < g->range[mid].start)
	hi = mid;
      else if (vaddr >= g->range[mid].end)
	lo = mid + 1;
      else
	return 1;
    }
  return 0;
}

void
glibc_funcs_free (struct glibc_funcs *g)
{
  if (g != NULL)
    free (g->range);
  free (g);
}
