/* SPDX-License-Identifier: MIT */
/* The body map reader (tools/common/body-map-read.h), until the one of
   tools/common/body-map-read.c replaces this file.

   Only the headers and the one section are read (pread), not the whole
   file: the sampler asks this of every program and library that a
   sampled process maps.  Both ELF classes, little-endian (x86).  */

#define _GNU_SOURCE 1
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/body-map-read.h"

/* The file being read, and where a failure is told.  */
struct elf_file
{
  int fd, elf_class;
  const char *path;
  char *err;
  size_t errlen;
};

static int __attribute__ ((format (printf, 2, 3)))
fail (struct elf_file *f, const char *fmt, ...)
{
  va_list ap;
  int n = snprintf (f->err, f->errlen, "%s: ", f->path);
  if (n < 0 || (size_t) n >= f->errlen)
    return -1;
  va_start (ap, fmt);
  vsnprintf (f->err + n, f->errlen - (size_t) n, fmt, ap);
  va_end (ap);
  return -1;
}

/* LEN bytes at OFFSET into BUF; 0, or -1 after FAIL.  */
static int
read_at (struct elf_file *f, void *buf, size_t len, uint64_t offset,
	 const char *what)
{
  ssize_t n = pread (f->fd, buf, len, (off_t) offset);
  if (n < 0)
    return fail (f, "%s", strerror (errno));
  if ((size_t) n != len)
    return fail (f, "truncated ELF file (%s)", what);
  return 0;
}

/* The fields of a section header that matter here, for either class.  */
struct section
{
  uint32_t name;
  uint64_t addr, offset, size;
};

/* N entries of ENTSIZE bytes at OFFSET, read at once (one system call,
   not one per entry: every file a sampled process maps is looked at);
   NULL after FAIL.  */
static unsigned char *
read_table (struct elf_file *f, uint64_t offset, size_t entsize, size_t n,
	    size_t minsize, const char *what)
{
  unsigned char *t = malloc (n * entsize + 1);
  if (entsize < minsize || t == NULL
      || read_at (f, t, n * entsize, offset, what) != 0)
    {
      free (t);
      fail (f, "bad %s", what);
      return NULL;
    }
  return t;
}

/* Section header I of TABLE.  */
static struct section
section_at (const struct elf_file *f, const unsigned char *table,
	    size_t entsize, size_t i)
{
  if (f->elf_class == ELFCLASS64)
    {
      Elf64_Shdr h;
      memcpy (&h, table + i * entsize, sizeof h);
      return (struct section) { h.sh_name, h.sh_addr, h.sh_offset,
				h.sh_size };
    }
  Elf32_Shdr h;
  memcpy (&h, table + i * entsize, sizeof h);
  return (struct section) { h.sh_name, h.sh_addr, h.sh_offset, h.sh_size };
}

/* The PT_LOAD segments into MAP.  */
static int
load_segments (struct elf_file *f, struct fc_body_map *map, uint64_t phoff,
	       size_t phentsize, size_t phnum)
{
  int is64 = f->elf_class == ELFCLASS64;
  unsigned char *table = read_table (f, phoff, phentsize, phnum,
				     is64 ? sizeof (Elf64_Phdr)
				     : sizeof (Elf32_Phdr), "program headers");
  map->segment = calloc (phnum ? phnum : 1, sizeof *map->segment);
  if (table == NULL || map->segment == NULL)
    {
      free (table);
      return table == NULL ? -1 : fail (f, "out of memory");
    }
  for (size_t i = 0; i < phnum; i++)
    {
      const unsigned char *e = table + i * phentsize;
      if (is64)
	{
	  Elf64_Phdr h;
	  memcpy (&h, e, sizeof h);
	  if (h.p_type == PT_LOAD)
	    map->segment[map->nsegments++]
	      = (struct fc_body_segment) { h.p_offset, h.p_filesz, h.p_vaddr };
	}
      else
	{
	  Elf32_Phdr h;
	  memcpy (&h, e, sizeof h);
	  if (h.p_type == PT_LOAD)
	    map->segment[map->nsegments++]
	      = (struct fc_body_segment) { h.p_offset, h.p_filesz, h.p_vaddr };
	}
    }
  free (table);
  return 0;
}

static int
by_start (const void *a, const void *b)
{
  const struct fc_body_span *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The records of section S into MAP's spans, sorted and checked.  */
static int
load_spans (struct elf_file *f, struct fc_body_map *map,
	    const struct section *s)
{
  size_t rsize = sizeof (struct fc_body_range);
  if (s->size % rsize != 0)
    return fail (f, "section " FC_BODY_MAP_SECTION " is %llu bytes, not "
		 "a whole number of %zu-byte records",
		 (unsigned long long) s->size, rsize);
  map->count = s->size / rsize;
  map->span = calloc (map->count ? map->count : 1, sizeof *map->span);
  struct fc_body_range *rec = malloc (s->size ? s->size : 1);
  if (map->span == NULL || rec == NULL)
    {
      free (rec);
      return fail (f, "out of memory");
    }
  if (read_at (f, rec, s->size, s->offset, FC_BODY_MAP_SECTION))
    {
      free (rec);
      return -1;
    }
  int bad = 0;
  for (size_t i = 0; i < map->count && !bad; i++)
    {
      struct fc_body_span *sp = &map->span[i];
      sp->rec = rec[i];
      /* START is relative to its own field, the record's first.  */
      sp->start = s->addr + i * rsize + (uint64_t) (int64_t) rec[i].start;
      sp->end = sp->start + rec[i].length;
      if (rec[i].version != FC_BODY_MAP_VERSION)
	bad = fail (f, "body map record %zu has version %u; this reader "
		    "knows version %d", i, rec[i].version,
		    FC_BODY_MAP_VERSION);
      else if (rec[i].path >= FC_BODY_PATH_COUNT || rec[i].length == 0
	       || rec[i].family > 1)
	bad = fail (f, "body map record %zu is corrupt", i);
    }
  free (rec);
  if (bad)
    return -1;
  qsort (map->span, map->count, sizeof *map->span, by_start);
  for (size_t i = 1; i < map->count; i++)
    if (map->span[i].start < map->span[i - 1].end)
      return fail (f, "body map records overlap at link-time address "
		   "%#llx", (unsigned long long) map->span[i].start);
  return 0;
}

static int
load (struct elf_file *f, struct fc_body_map *map)
{
  unsigned char ident[EI_NIDENT];
  if (read_at (f, ident, sizeof ident, 0, "header"))
    return fail (f, "not an ELF file");
  if (memcmp (ident, ELFMAG, SELFMAG) != 0)
    return fail (f, "not an ELF file");
  f->elf_class = map->elf_class = ident[EI_CLASS];
  if (ident[EI_DATA] != ELFDATA2LSB
      || (f->elf_class != ELFCLASS64 && f->elf_class != ELFCLASS32))
    return fail (f, "not a little-endian 32- or 64-bit ELF file");
  uint64_t shoff, phoff;
  size_t shentsize, shnum, shstrndx, phentsize, phnum;
  if (f->elf_class == ELFCLASS64)
    {
      Elf64_Ehdr h;
      if (read_at (f, &h, sizeof h, 0, "header"))
	return -1;
      shoff = h.e_shoff, shentsize = h.e_shentsize, shnum = h.e_shnum;
      shstrndx = h.e_shstrndx;
      phoff = h.e_phoff, phentsize = h.e_phentsize, phnum = h.e_phnum;
    }
  else
    {
      Elf32_Ehdr h;
      if (read_at (f, &h, sizeof h, 0, "header"))
	return -1;
      shoff = h.e_shoff, shentsize = h.e_shentsize, shnum = h.e_shnum;
      shstrndx = h.e_shstrndx;
      phoff = h.e_phoff, phentsize = h.e_phentsize, phnum = h.e_phnum;
    }
  if (load_segments (f, map, phoff, phentsize, phnum))
    return -1;
  if (shnum == 0 || shstrndx >= shnum)
    return 1;
  size_t shsize = f->elf_class == ELFCLASS64 ? sizeof (Elf64_Shdr)
					      : sizeof (Elf32_Shdr);
  unsigned char *table = read_table (f, shoff, shentsize, shnum, shsize,
				     "section headers");
  if (table == NULL)
    return -1;
  struct section names = section_at (f, table, shentsize, shstrndx);
  char *name = names.size <= (1u << 20)
	       ? (char *) read_table (f, names.offset, 1, names.size, 1,
				      "section names") : NULL;
  int r = name != NULL ? 1 : fail (f, "bad section names");
  for (size_t i = 0; i < shnum && r == 1; i++)
    {
      struct section s = section_at (f, table, shentsize, i);
      if (s.name < names.size
	  && names.size - s.name >= sizeof FC_BODY_MAP_SECTION
	  && memcmp (name + s.name, FC_BODY_MAP_SECTION,
		     sizeof FC_BODY_MAP_SECTION) == 0)
	r = load_spans (f, map, &s);
    }
  free (name);
  free (table);
  return r;
}

int
fc_body_map_load (const char *path, struct fc_body_map *map, char *err,
		  size_t errlen)
{
  memset (map, 0, sizeof *map);
  struct elf_file f = { .path = path, .err = err, .errlen = errlen };
  f.fd = open (path, O_RDONLY | O_CLOEXEC);
  if (f.fd < 0)
    return fail (&f, "%s", strerror (errno));
  int r = load (&f, map);
  close (f.fd);
  if (r != 0)
    fc_body_map_free (map);
  return r;
}

void
fc_body_map_free (struct fc_body_map *map)
{
  free (map->span);
  free (map->segment);
  map->span = NULL;
  map->segment = NULL;
  map->count = map->nsegments = 0;
}

uint64_t
fc_body_map_vaddr (const struct fc_body_map *map, uint64_t file_offset)
{
  for (size_t i = 0; i < map->nsegments; i++)
    {
      const struct fc_body_segment *s = &map->segment[i];
      if (file_offset - s->offset < s->filesz)
	return s->vaddr + (file_offset - s->offset);
    }
  return UINT64_MAX;
}

const struct fc_body_span *
fc_body_map_find (const struct fc_body_map *map, uint64_t vaddr)
{
  size_t lo = 0, hi = map->count;
  while (lo < hi)
    {
      size_t mid = lo + (hi - lo) / 2;
      if (vaddr < map->span[mid].start)
	hi = mid;
      else if (vaddr >= map->span[mid].end)
	lo = mid + 1;
      else
	return &map->span[mid];
    }
  return NULL;
}

int
fc_body_size (const struct fc_body_map *map, const struct fc_body_range *rec,
	      const uint64_t *regs, const uint64_t *stack, size_t nstack,
	      uint64_t *size)
{
  uint64_t mask = map->elf_class == ELFCLASS32 ? UINT32_MAX : UINT64_MAX;
  uint64_t sum = (uint64_t) (int64_t) rec->constant;
  for (int i = 0; i < FC_BODY_TERMS; i++)
    {
      const struct fc_body_term *t = &rec->term[i];
      uint64_t v;
      if (t->scale == 0)
	continue;
      if (t->reg >= FC_BODY_STACK_WORD)
	{
	  size_t k = (size_t) (t->reg - FC_BODY_STACK_WORD);
	  if (k >= nstack)
	    return -1;
	  v = stack[k];
	}
      else if (t->reg >= 0 && t->reg < PERF_REG_X86_64_MAX
	       && (t->reg <= PERF_REG_X86_SP || t->reg >= PERF_REG_X86_R8))
	v = regs[t->reg];
      else
	return -1;
      sum += (uint64_t) (int64_t) t->scale * (v & mask);
    }
  *size = sum & mask;
  return 0;
}
