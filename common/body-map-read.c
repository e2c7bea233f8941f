/* SPDX-License-Identifier: MIT */
/* Reading the body map from a file (body-map-read.h).  The section is
   found by name through the section headers, which strip keeps; each
   record's start is relative to the record's own address, sh_addr plus
   its offset in the section.  */

#include "body-map-read.h"
#include "elf-read.h"
#include "file-read.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* The PT_LOAD segments into MAP.  0, or -1 with the reason in ERR.  */
static int
read_segments (const struct elf_file *f, struct fc_body_map *map,
	       const char *path, char *err, size_t errlen)
{
  if (!elf_segments_ok (f))
    {
      say (err, errlen, path, "truncated or corrupt program headers");
      return -1;
    }
  map->segment = calloc (f->phnum ? f->phnum : 1, sizeof *map->segment);
  if (map->segment == NULL)
    {
      say (err, errlen, path, "out of memory");
      return -1;
    }
  for (unsigned i = 0; i < f->phnum; i++)
    {
      struct elf_segment seg;
      elf_segment (f, i, &seg);
      if (seg.type == PT_LOAD)
	map->segment[map->nsegment++]
	  = (struct fc_body_segment) { seg.offset, seg.filesz, seg.vaddr };
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
read_records (const struct elf_file *f, const struct elf_section *s,
	      struct fc_body_map *map, const char *path, char *err,
	      size_t errlen)
{
  if (!elf_within (f, s->offset, s->size) || s->size % RECORD_SIZE != 0)
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
      memcpy (&sp->rec, f->data + s->offset + i * RECORD_SIZE, RECORD_SIZE);
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

int
fc_body_map_load (const char *path, struct fc_body_map *map, char *err,
		  size_t errlen)
{
  memset (map, 0, sizeof *map);
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      say (err, errlen, path, "%s", strerror (errno));
      return -1;
    }
  char *data;
  size_t size;
  int rc = file_read_fd (fd, &data, &size);
  if (rc != 0)
    say (err, errlen, path, "%s",
	 errno == ENOMEM ? "out of memory" : "read error");
  close (fd);
  if (rc != 0)
    return -1;
  struct elf_file f;
  struct elf_section s;
  if (elf_parse ((unsigned char *) data, size, &f) != 0)
    {
      say (err, errlen, path, "not a little-endian ELF file");
      rc = -1;
    }
  else if ((rc = elf_section_named (&f, FC_BODY_MAP_SECTION, &s)) < 0
	   || (rc == 0 && s.type != SHT_PROGBITS))
    {
      say (err, errlen, path, "truncated or corrupt section headers");
      rc = -1;
    }
  else if (rc == 0)
    {
      map->elf_class = f.elf_class;
      if (read_segments (&f, map, path, err, errlen) != 0
	  || read_records (&f, &s, map, path, err, errlen) != 0)
	rc = -1;
    }
  elf_free (&f);
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
