/* SPDX-License-Identifier: MIT */
/* The body map of a libfastcopy file (src/body-map.h,
   doc/size-registers.md): where each copy and clear body's paths lie, and
   the size of the call at each instruction from the registers, read from
   the file's section headers as a sampler reads it.  Self-contained (libc
   only, with elf-read.c and file-read.c), so that a test can build it
   alongside its own code.  */

#ifndef FC_TOOLS_BODY_MAP_READ_H
#define FC_TOOLS_BODY_MAP_READ_H

#include <stddef.h>
#include <stdint.h>
#include "body-map.h"

/* One record's range.  */
struct fc_body_span
{
  uint64_t start, end;		/* link-time virtual addresses (ELF
				   p_vaddr space), [start, end) */
  struct fc_body_range rec;	/* the record as stored */
};

/* A loadable segment: what maps file offsets to addresses.  */
struct fc_body_segment
{
  uint64_t offset, filesz, vaddr;
};

struct fc_body_map
{
  int elf_class;		/* ELFCLASS64 or ELFCLASS32: the ABI of the
				   library */
  size_t count;			/* spans, sorted by start, disjoint */
  struct fc_body_span *span;
  size_t nsegment;		/* the PT_LOAD segments */
  struct fc_body_segment *segment;
};

/* Read the body map of the ELF shared object at PATH.  0: done; 1: the
   file is ELF but has no body map (not libfastcopy, or too old); -1:
   unreadable, not ELF, truncated or corrupt records, or a record version
   it does not know, with the reason in ERR (naming PATH).  On 1 and -1,
   MAP holds nothing to free.  */
int fc_body_map_load (const char *path, struct fc_body_map *map, char *err,
		      size_t errlen);
void fc_body_map_free (struct fc_body_map *map);

/* The link-time address of FILE_OFFSET (a sample's IP - mapping start +
   mapping's page offset), or UINT64_MAX when no loadable segment holds
   it.  */
uint64_t fc_body_map_vaddr (const struct fc_body_map *map,
			    uint64_t file_offset);

/* The span covering VADDR, or NULL.  */
const struct fc_body_span *fc_body_map_find (const struct fc_body_map *map,
					     uint64_t vaddr);

/* The call's size from REGS (indexed by perf register number,
   PERF_REG_X86_64_MAX entries) and STACK (NSTACK pointer-sized words from
   SP up, for FC_BODY_STACK_WORD terms), in the map's pointer width, into
   *SIZE.  0, or -1 when a term needs a stack word beyond NSTACK or an
   unknown register.  */
int fc_body_size (const struct fc_body_map *map,
		  const struct fc_body_range *rec, const uint64_t *regs,
		  const uint64_t *stack, size_t nstack, uint64_t *size);

#endif
