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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/elf-read.h"
#include "sample/sample.h"

struct range
{
  uint64_t start, end;
};

struct glibc_funcs
{
  size_t nsegments, nranges;
  struct elf_segment segment[16];	/* PT_LOAD: file offsets to
					   addresses */
  struct range *range;		/* link-time addresses, sorted */
};

/* The 64-bit ELF file at PATH into F, its section and program headers
   whole: 0, or -1.  */
static int
image_open (const char *path, struct elf_file *f)
{
  if (elf_load (path, f) != 0)
    return -1;
  if (f->elf_class == ELFCLASS64 && elf_sections_ok (f)
      && elf_segments_ok (f))
    return 0;
  elf_free (f);
  return -1;
}

/* The debug file of F by its build ID, into PATH.  */
static int
debug_file (const struct elf_file *f, char *path, size_t size)
{
  for (size_t i = 0; i < f->shnum; i++)
    {
      struct elf_section s;
      elf_section (f, i, &s);
      if (s.type != SHT_NOTE || !elf_within (f, s.offset, s.size))
	continue;
      const unsigned char *p = f->data + s.offset, *end = p + s.size;
      while (end - p >= (long) sizeof (Elf64_Nhdr))
	{
	  Elf64_Nhdr n;
	  memcpy (&n, p, sizeof n);
	  size_t name = (n.n_namesz + 3) & ~3u, desc = (n.n_descsz + 3) & ~3u;
	  const unsigned char *d = p + sizeof n + name;
	  if ((size_t) (end - p) < sizeof n + name + desc)
	    break;
	  if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4
	      && memcmp (p + sizeof n, "GNU", 4) == 0 && n.n_descsz >= 2)
	    {
	      int len = snprintf (path, size, "/usr/lib/debug/.build-id/%02x/",
				  d[0]);
	      for (size_t k = 1; k < n.n_descsz && len > 0
		   && (size_t) len + 8 < size; k++)
		len += snprintf (path + len, size - (size_t) len, "%02x", d[k]);
	      snprintf (path + len, size - (size_t) len, ".debug");
	      return 0;
	    }
	  p += sizeof n + name + desc;
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

/* The ranges of the functions in F's .symtab into G; 0, or -1 if it has
   no .symtab.  */
static int
symbol_ranges (const struct elf_file *f, struct glibc_funcs *g)
{
  struct elf_section symtab, strtab;
  size_t n = elf_section_of_type (f, SHT_SYMTAB, &symtab) == 0
	     ? elf_symbols (f, &symtab, &strtab) : 0;
  if (n == 0)
    return -1;
  g->range = xrealloc (g->range, (n + 1) * sizeof *g->range);
  g->nranges = 0;
  for (size_t i = 0; i < n; i++)
    {
      struct elf_symbol sym;
      elf_symbol (f, &symtab, i, &sym);
      const char *name = elf_string (f, &strtab, sym.name);
      if (ELF64_ST_TYPE (sym.info) == STT_FUNC && sym.size > 0
	  && name != NULL && copy_or_clear (name))
	g->range[g->nranges++] = (struct range) { sym.value,
						  sym.value + sym.size };
    }
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
  struct elf_file lib, debug = { NULL };
  if (image_open (path, &lib) != 0)
    return NULL;
  struct glibc_funcs *g = zalloc (sizeof *g);
  for (size_t i = 0; i < lib.phnum && g->nsegments < 16; i++)
    {
      struct elf_segment seg;
      elf_segment (&lib, i, &seg);
      if (seg.type == PT_LOAD)
	g->segment[g->nsegments++] = seg;
    }
  char dbg[128];
  int found = symbol_ranges (&lib, g) == 0
	      || (debug_file (&lib, dbg, sizeof dbg) == 0
		  && image_open (dbg, &debug) == 0
		  && symbol_ranges (&debug, g) == 0);
  elf_free (&debug);
  elf_free (&lib);
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
    if (file_offset - g->segment[i].offset < g->segment[i].filesz)
      vaddr = g->segment[i].vaddr + (file_offset - g->segment[i].offset);
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
