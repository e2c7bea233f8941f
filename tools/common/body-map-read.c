/* SPDX-License-Identifier: MIT */
/* Reading the body map from a file (body-map-read.h).  The section is
   found by name through the section headers, which strip keeps; each
   record's start is relative to the record's own address, sh_addr plus
   its offset in the section.  */

#include "body-map-read.h"

#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_SIZE sizeof (struct fc_body_range)
/* perf_event's register numbers (asm/perf_regs.h): AX..IP, then R8..R15
   on x86-64 only.  */
#define PERF_IP 8
#define PERF_R8 16
#define PERF_R15 23

static void __attribute__ ((format (printf, 4, 5)))
say (char *err, size_t errlen, const char *path, const char *fmt, ...)
{
  va_list ap;
  int n = snprintf (err, errlen, "%s: ", path);
  if (n < 0 || (size_t) n >= errlen)
    return;
  va_start (ap, fmt);
  vsnprintf (err + n, errlen - n, fmt, ap);
  va_end (ap);
}

/* The whole file, or NULL with the reason in ERR.  */
static unsigned char *
slurp (const char *path, size_t *size, char *err, size_t errlen)
{
  FILE *f = fopen (path, "rb");
  if (f == NULL)
    {
      say (err, errlen, path, "%s", strerror (errno));
      return NULL;
    }
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = malloc (cap);
  while (buf != NULL)
    {
      len += fread (buf + len, 1, cap - len, f);
      if (len < cap)
	break;
      unsigned char *more = cap > SIZE_MAX / 2 ? NULL : realloc (buf, cap * 2);
      if (more == NULL)
	{
	  free (buf);
	  buf = NULL;
	  break;
	}
      buf = more;
      cap *= 2;
    }
  if (buf == NULL)
    say (err, errlen, path, "out of memory");
  else if (ferror (f))
    {
      say (err, errlen, path, "read error");
      free (buf);
      buf = NULL;
    }
  fclose (f);
  *size = len;
  return buf;
}

/* The fields of the ELF headers this reader needs, of either class.  */
struct elf_view
{
  int elf_class;
  uint64_t shoff, phoff;
  unsigned shnum, shentsize, shstrndx, phnum, phentsize;
};

struct section
{
  uint32_t name, type;
  uint64_t addr, offset, size;
};

static int
within (size_t size, uint64_t offset, uint64_t len)
{
  return offset <= size && len <= size - offset;
}

static void
read_section (const unsigned char *p, int elf_class, struct section *s)
{
  if (elf_class == ELFCLASS64)
    {
      Elf64_Shdr h;
      memcpy (&h, p, sizeof h);
      *s = (struct section) { h.sh_name, h.sh_type, h.sh_addr, h.sh_offset,
			      h.sh_size };
    }
  else
    {
      Elf32_Shdr h;
      memcpy (&h, p, sizeof h);
      *s = (struct section) { h.sh_name, h.sh_type, h.sh_addr, h.sh_offset,
			      h.sh_size };
    }
}

/* The PT_LOAD segments into MAP.  0, or -1 with the reason in ERR.  */
static int
read_segments (const unsigned char *file, size_t size,
	       const struct elf_view *v, struct fc_body_map *map,
	       const char *path, char *err, size_t errlen)
{
  size_t want = v->elf_class == ELFCLASS64 ? sizeof (Elf64_Phdr)
					   : sizeof (Elf32_Phdr);
  if (v->phentsize != want
      || !within (size, v->phoff, (uint64_t) v->phnum * want))
    {
      say (err, errlen, path, "truncated or corrupt program headers");
      return -1;
    }
  map->segment = calloc (v->phnum ? v->phnum : 1, sizeof *map->segment);
  if (map->segment == NULL)
    {
      say (err, errlen, path, "out of memory");
      return -1;
    }
  for (unsigned i = 0; i < v->phnum; i++)
    {
      const unsigned char *p = file + v->phoff + (uint64_t) i * want;
      struct fc_body_segment seg;
      uint32_t type;
      if (v->elf_class == ELFCLASS64)
	{
	  Elf64_Phdr h;
	  memcpy (&h, p, sizeof h);
	  type = h.p_type;
	  seg = (struct fc_body_segment) { h.p_offset, h.p_filesz, h.p_vaddr };
	}
      else
	{
	  Elf32_Phdr h;
	  memcpy (&h, p, sizeof h);
	  type = h.p_type;
	  seg = (struct fc_body_segment) { h.p_offset, h.p_filesz, h.p_vaddr };
	}
      if (type == PT_LOAD)
	map->segment[map->nsegment++] = seg;
    }
  return 0;
}

/* A register number a record may name in a map of ELF_CLASS.  */
static int
known_register (int elf_class, int reg)
{
  if (reg >= FC_BODY_STACK_WORD)
    return 1;
  if (reg >= 0 && reg <= PERF_IP)
    return 1;
  return elf_class == ELFCLASS64 && reg >= PERF_R8 && reg <= PERF_R15;
}

/* NULL when REC is a record this reader knows, else what is wrong.  */
static const char *
check_record (int elf_class, const struct fc_body_range *rec)
{
  if (rec->version != FC_BODY_MAP_VERSION)
    return "a record of an unknown version";
  if (rec->path >= FC_BODY_PATH_COUNT)
    return "a record of an unknown path";
  if (rec->family > 1)
    return "a record of an unknown family";
  if (memchr (rec->impl, 0, sizeof rec->impl) == NULL)
    return "a record whose name is not terminated";
  if (rec->length == 0)
    return "an empty range";
  for (int i = 0; i < FC_BODY_TERMS; i++)
    if (rec->term[i].scale != 0
	&& !known_register (elf_class, rec->term[i].reg))
      return "a record naming an unknown register";
  return NULL;
}

static int
by_start (const void *a, const void *b)
{
  const struct fc_body_span *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The records of section S into MAP.  0, or -1 with the reason in ERR.  */
static int
read_records (const unsigned char *file, size_t size,
	      const struct section *s, struct fc_body_map *map,
	      const char *path, char *err, size_t errlen)
{
  if (!within (size, s->offset, s->size) || s->size % RECORD_SIZE != 0)
    {
      say (err, errlen, path, "truncated body map (%llu bytes)",
	   (unsigned long long) s->size);
      return -1;
    }
  uint64_t mask = map->elf_class == ELFCLASS64 ? UINT64_MAX : UINT32_MAX;
  map->count = s->size / RECORD_SIZE;
  map->span = calloc (map->count ? map->count : 1, sizeof *map->span);
  if (map->span == NULL)
    {
      say (err, errlen, path, "out of memory");
      return -1;
    }
  for (size_t i = 0; i < map->count; i++)
    {
      struct fc_body_span *sp = &map->span[i];
      memcpy (&sp->rec, file + s->offset + i * RECORD_SIZE, RECORD_SIZE);
      const char *bad = check_record (map->elf_class, &sp->rec);
      if (bad != NULL)
	{
	  say (err, errlen, path, "body map record %zu: %s", i, bad);
	  return -1;
	}
      uint64_t at = s->addr + i * RECORD_SIZE;
      sp->start = (at + (uint64_t) (int64_t) sp->rec.start) & mask;
      sp->end = sp->start + sp->rec.length;
    }
  qsort (map->span, map->count, sizeof *map->span, by_start);
  for (size_t i = 1; i < map->count; i++)
    if (map->span[i].start < map->span[i - 1].end)
      {
	say (err, errlen, path, "body map ranges overlap at %#llx",
	     (unsigned long long) map->span[i].start);
	return -1;
      }
  return 0;
}

static int
read_header (const unsigned char *file, size_t size, struct elf_view *v)
{
  if (size < EI_NIDENT || memcmp (file, ELFMAG, SELFMAG) != 0
      || file[EI_DATA] != ELFDATA2LSB)
    return -1;
  v->elf_class = file[EI_CLASS];
  if (v->elf_class == ELFCLASS64 && size >= sizeof (Elf64_Ehdr))
    {
      Elf64_Ehdr h;
      memcpy (&h, file, sizeof h);
      *v = (struct elf_view) { ELFCLASS64, h.e_shoff, h.e_phoff, h.e_shnum,
			       h.e_shentsize, h.e_shstrndx, h.e_phnum,
			       h.e_phentsize };
      return 0;
    }
  if (v->elf_class == ELFCLASS32 && size >= sizeof (Elf32_Ehdr))
    {
      Elf32_Ehdr h;
      memcpy (&h, file, sizeof h);
      *v = (struct elf_view) { ELFCLASS32, h.e_shoff, h.e_phoff, h.e_shnum,
			       h.e_shentsize, h.e_shstrndx, h.e_phnum,
			       h.e_phentsize };
      return 0;
    }
  return -1;
}

/* The body map's section header into *S: 0, 1 when there is none, -1
   when the section headers are corrupt.  */
static int
find_section (const unsigned char *file, size_t size,
	      const struct elf_view *v, struct section *s)
{
  size_t want = v->elf_class == ELFCLASS64 ? sizeof (Elf64_Shdr)
					   : sizeof (Elf32_Shdr);
  if (v->shnum == 0)
    return 1;
  if (v->shentsize != want
      || !within (size, v->shoff, (uint64_t) v->shnum * want)
      || v->shstrndx >= v->shnum)
    return -1;
  struct section names;
  read_section (file + v->shoff + (uint64_t) v->shstrndx * want,
		v->elf_class, &names);
  if (!within (size, names.offset, names.size))
    return -1;
  for (unsigned i = 0; i < v->shnum; i++)
    {
      read_section (file + v->shoff + (uint64_t) i * want, v->elf_class, s);
      const char *name = (const char *) file + names.offset + s->name;
      size_t len = sizeof FC_BODY_MAP_SECTION;
      if (s->name < names.size && names.size - s->name >= len
	  && memcmp (name, FC_BODY_MAP_SECTION, len) == 0)
	return s->type == SHT_PROGBITS ? 0 : -1;
    }
  return 1;
}

int
fc_body_map_load (const char *path, struct fc_body_map *map, char *err,
		  size_t errlen)
{
  memset (map, 0, sizeof *map);
  size_t size;
  unsigned char *file = slurp (path, &size, err, errlen);
  if (file == NULL)
    return -1;
  struct elf_view v;
  struct section s;
  int rc;
  if (read_header (file, size, &v) != 0)
    {
      say (err, errlen, path, "not a little-endian ELF file");
      rc = -1;
    }
  else if ((rc = find_section (file, size, &v, &s)) < 0)
    say (err, errlen, path, "truncated or corrupt section headers");
  else if (rc == 0)
    {
      map->elf_class = v.elf_class;
      if (read_segments (file, size, &v, map, path, err, errlen) != 0
	  || read_records (file, size, &s, map, path, err, errlen) != 0)
	rc = -1;
    }
  free (file);
  if (rc != 0)
    fc_body_map_free (map);
  return rc;
}

void
fc_body_map_free (struct fc_body_map *map)
{
  free (map->span);
  free (map->segment);
  memset (map, 0, sizeof *map);
}

uint64_t
fc_body_map_vaddr (const struct fc_body_map *map, uint64_t file_offset)
{
  for (size_t i = 0; i < map->nsegment; i++)
    {
      const struct fc_body_segment *seg = &map->segment[i];
      if (file_offset >= seg->offset
	  && file_offset - seg->offset < seg->filesz)
	return seg->vaddr + (file_offset - seg->offset);
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
  uint64_t mask = map->elf_class == ELFCLASS64 ? UINT64_MAX : UINT32_MAX;
  uint64_t sum = (uint64_t) (int64_t) rec->constant;
  for (int i = 0; i < FC_BODY_TERMS; i++)
    {
      const struct fc_body_term *t = &rec->term[i];
      uint64_t value;
      if (t->scale == 0)
	continue;
      if (!known_register (map->elf_class, t->reg))
	return -1;
      if (t->reg >= FC_BODY_STACK_WORD)
	{
	  size_t k = t->reg - FC_BODY_STACK_WORD;
	  if (k >= nstack)
	    return -1;
	  value = stack[k];
	}
      else
	value = regs[t->reg];
      sum += (uint64_t) (int64_t) t->scale * (value & mask);
    }
  *size = sum & mask;
  return 0;
}
