/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: the processes seen, what each maps, and what a sample
   means.

   A process's executable mappings come from the kernel's mmap2 records
   (a process that starts while sampling), from its parent's at fork, or
   from /proc/PID/maps when its first sample comes before any record (a
   process that was running before).  A process that exits before its
   maps could be read keeps what the records told, or none: its samples
   then count as not attributable, not as errors.

   Only mappings of two kinds of file are kept: a libfastcopy, known by
   the body map in its file (not by its name), and a libc whose copy and
   clear functions can be told by symbols.  Each file is looked at once.  */

#define _GNU_SOURCE 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/elf-read.h"
#include "common/message.h"
#include "sample/sample.h"
#include "common/workload.h"
#include "tools-interface.h"

enum object_kind { OBJECT_OTHER, OBJECT_FASTCOPY, OBJECT_LIBC };

/* A file that some process maps code from.  */
struct object
{
  uint64_t dev, ino;		/* the file; 0, 0: unknown, PATH says */
  char *path;
  enum object_kind kind;
  struct fc_body_map map;	/* OBJECT_FASTCOPY */
  uint64_t census;		/* OBJECT_FASTCOPY: its census's link-time
				   address; 0: none (an older library) */
  struct glibc_funcs *glibc;	/* OBJECT_LIBC, NULL without symbols */
  struct object *next;
};

struct mapping
{
  uint64_t start, end, pgoff;
  struct object *object;
};

struct proc
{
  struct proc_tally t;
  /* The implementation of each family its samples landed in, and
     whether they landed in more than one.  */
  char impl[FASTCOPY_FAMILY_COUNT][9];
  int impls_mixed[FASTCOPY_FAMILY_COUNT];
  int maps_known;		/* from /proc, or since exec */
  int maps_tried;		/* /proc/PID/maps was read or could not be */
  int maps_again;		/* read /proc/PID/maps at the next sample:
				   it executed a program */
  int maps_fastcopy;		/* counted in total.mapped_fastcopy */
  size_t nmaps;
  struct mapping *map;
  struct proc *next;
};

#define NHASH 1024
static struct proc *proc_hash[NHASH];
static struct object *objects;
static int keep_comm;
static struct tallies total;
static size_t calls_cap;

void
procs_init (int comm)
{
  keep_comm = comm;
}

/* The object of file DEV, INO at PATH, classified on first sight.  The
   file is read at PATH if it is that file there, else (a file deleted
   since, as a library an upgrade replaced; a path in another mount
   namespace) through ALTERNATE, the mapping's /proc/PID/map_files
   entry.  */
static struct object *
object_of (uint64_t dev, uint64_t ino, const char *path,
	   const char *alternate)
{
  for (struct object *o = objects; o != NULL; o = o->next)
    if (ino != 0 ? o->dev == dev && o->ino == ino
	: o->ino == 0 && strcmp (o->path, path) == 0)
      return o;
  struct object *o = zalloc (sizeof *o);
  o->dev = dev;
  o->ino = ino;
  o->path = xasprintf ("%s", path);
  o->next = objects;
  objects = o;
  struct stat st;
  const char *file = stat (path, &st) == 0
		     && (ino == 0 || (st.st_ino == ino
				      && major (st.st_dev) == dev >> 32
				      && minor (st.st_dev) == (dev & UINT32_MAX)))
		     ? path : alternate;
  char err[512];
  int r = fc_body_map_load (file, &o->map, err, sizeof err);
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  int named = strncmp (base, "libfastcopy.so", 14) == 0;
  if (r == 0)
    {
      o->kind = OBJECT_FASTCOPY;
      o->census = elf_section_address (file, FC_CENSUS_SECTION);
    }
  else if (r < 0 && named)
    error_msg ("%s; its samples are not attributed", err);
  else if (r == 1 && named)
    {
      /* Named so, without a body map: an older library.  Its samples are
	 counted, not attributed.  */
      error_msg ("%s has no body map (section " FC_BODY_MAP_SECTION "): "
		 "its samples cannot be attributed", path);
      o->kind = OBJECT_FASTCOPY;
    }
  else if (strncmp (base, "libc.so.6", 9) == 0
	   || strncmp (base, "libc-", 5) == 0)
    {
      o->kind = OBJECT_LIBC;
      o->glibc = glibc_funcs_load (file);
      if (o->glibc != NULL)
	total.glibc_symbols = 1;
    }
  return o;
}

static struct proc *
proc_find (pid_t pid, int create)
{
  struct proc **h = &proc_hash[(unsigned int) pid % NHASH];
  for (struct proc *p = *h; p != NULL; p = p->next)
    if (p->t.pid == pid)
      return p;
  if (!create)
    return NULL;
  struct proc *p = zalloc (sizeof *p);
  p->t.pid = pid;
  p->next = *h;
  *h = p;
  total.nprocs++;
  return p;
}

/* Forget P's mappings that overlap [START, END).  */
static void
unmap (struct proc *p, uint64_t start, uint64_t end)
{
  size_t k = 0;
  for (size_t i = 0; i < p->nmaps; i++)
    if (p->map[i].end <= start || p->map[i].start >= end)
      p->map[k++] = p->map[i];
  p->nmaps = k;
}

static void
add_mapping (struct proc *p, uint64_t start, uint64_t end, uint64_t pgoff,
	     uint64_t dev, uint64_t ino, const char *path)
{
  unmap (p, start, end);
  char alternate[80];
  snprintf (alternate, sizeof alternate, "/proc/%d/map_files/%llx-%llx",
	    (int) p->t.pid, (unsigned long long) start,
	    (unsigned long long) end);
  struct object *o = object_of (dev, ino, path, alternate);
  if (o->kind == OBJECT_OTHER)
    return;
  p->map = xrealloc (p->map, (p->nmaps + 1) * sizeof *p->map);
  p->map[p->nmaps++] = (struct mapping) { start, end, pgoff, o };
}

/* P's executable file mappings from /proc.  */
static void
read_maps (struct proc *p)
{
  char name[64], line[4096 + 128];
  p->maps_tried = 1;
  snprintf (name, sizeof name, "/proc/%d/maps", (int) p->t.pid);
  FILE *f = fopen (name, "re");
  if (f == NULL)
    return;			/* gone already */
  p->nmaps = 0;
  while (fgets (line, sizeof line, f) != NULL)
    {
      unsigned long long start, end, pgoff, ino;
      unsigned int maj, min;
      char perms[8];
      int at = 0;
      if (sscanf (line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end,
		  perms, &pgoff, &maj, &min, &ino, &at) != 7 || at == 0
	  || perms[2] != 'x' || line[at] != '/')
	continue;
      line[strcspn (line, "\n")] = 0;
      add_mapping (p, start, end, pgoff, (uint64_t) maj << 32 | min, ino,
		   line + at);
    }
  fclose (f);
  p->maps_known = 1;
  if (keep_comm)
    {
      /* The name may hold a newline: the file ends with one more.  */
      snprintf (name, sizeof name, "/proc/%d/comm", (int) p->t.pid);
      f = fopen (name, "re");
      size_t n = f != NULL ? fread (p->t.comm, 1, sizeof p->t.comm, f) : 0;
      if (n > 0 && p->t.comm[n - 1] == '\n')
	n--;
      if (n > 0)
	p->t.comm[n < sizeof p->t.comm ? n : sizeof p->t.comm - 1] = 0;
      if (f != NULL)
	fclose (f);
    }
}

static const struct mapping *
mapping_at (const struct proc *p, uint64_t ip)
{
  for (size_t i = 0; i < p->nmaps; i++)
    if (ip >= p->map[i].start && ip < p->map[i].end)
      return &p->map[i];
  return NULL;
}

/* The destination and source of a call at a point where its arguments
   are still as the caller passed them: the entry path, where the size is
   still the size argument itself (RDX on x86-64; on i386 a stack word,
   the two before it being the destination and the source, as pushed).
   0 if not recoverable here.  */
static int
entry_arguments (const struct sample *s, const struct fc_body_range *rec,
		 int family, uint64_t *dst, uint64_t *src)
{
  const struct fc_body_term *t = &rec->term[0];
  if (rec->path != FC_BODY_PATH_ENTRY || t->scale != 1
      || rec->term[1].scale != 0 || rec->term[2].scale != 0
      || rec->constant != 0)
    return 0;
  if (!s->abi32)
    {
      if (t->reg != PERF_REG_X86_DX)
	return 0;
      *dst = s->regs[PERF_REG_X86_DI];
      *src = family == FASTCOPY_FAMILY_COPY ? s->regs[PERF_REG_X86_SI] : 0;
      return 1;
    }
  int k = t->reg - FC_BODY_STACK_WORD;
  if (k < 2 || (size_t) k >= s->nstack)
    return 0;
  *dst = s->stack[k - 2];
  *src = family == FASTCOPY_FAMILY_COPY ? s->stack[k - 1] : 0;
  return 1;
}

/* A sample S of process P in SPAN of the body map MAP.  A sample in the
   exported entry points, which every implementation of the family
   shares, is a call of the implementation P's other samples show
   (procs_tallies): the entry's time is part of every call, and its
   stalls land there or in the body by chance.  */
static void
body_sample (const struct sample *s, struct proc *p,
	     const struct fc_body_map *map, const struct fc_body_span *span)
{
  const struct fc_body_range *rec = &span->rec;
  uint64_t size, dst, src;
  if (fc_body_size (map, rec, s->regs, s->stack, s->nstack, &size) != 0)
    {
      if (rec->impl[0] == 0)
	total.shared++;
      else
	total.unattributed++;
      return;
    }
  if (rec->impl[0] != 0 && rec->family < FASTCOPY_FAMILY_COUNT)
    {
      char *seen = p->impl[rec->family];
      if (seen[0] == 0)
	memcpy (seen, rec->impl, sizeof p->impl[0]);
      else if (strncmp (seen, rec->impl, sizeof p->impl[0]) != 0)
	p->impls_mixed[rec->family] = 1;
    }
  if (total.ncalls == calls_cap)
    {
      calls_cap = calls_cap ? calls_cap * 2 : 4096;
      total.calls = xrealloc (total.calls, calls_cap * sizeof *total.calls);
    }
  struct call_sample *c = &total.calls[total.ncalls++];
  memset (c, 0, sizeof *c);
  c->pid = s->pid;
  c->size = size;
  memcpy (c->impl, rec->impl, sizeof rec->impl);
  c->family = rec->family;
  c->path = rec->path;
  c->dst_align = c->src_align = c->overlap = -1;
  c->distance = -1;
  if (!entry_arguments (s, rec, rec->family, &dst, &src))
    return;
  uint64_t mask = s->abi32 ? UINT32_MAX : UINT64_MAX;
  c->dst_align = (int8_t) (dst & 63);
  if (rec->family != FASTCOPY_FAMILY_COPY)
    return;
  c->src_align = (int8_t) (src & 63);
  c->distance = (int16_t) ((dst - src) & 4095);
  c->overlap = ((src - dst) & mask) < size ? 1
	       : ((dst - src) & mask) < size ? 2 : 0;
}

static void
on_sample (const struct sample *s)
{
  struct proc *p = proc_find (s->pid, 1);
  total.samples++;
  p->t.samples++;
  if ((!p->maps_known && !p->maps_tried) || p->maps_again)
    {
      p->maps_again = 0;
      read_maps (p);
    }
  if (!p->maps_fastcopy)
    for (size_t i = 0; i < p->nmaps; i++)
      if (p->map[i].object->kind == OBJECT_FASTCOPY)
	{
	  p->maps_fastcopy = 1;
	  total.mapped_fastcopy++;
	  break;
	}
  const struct mapping *m = mapping_at (p, s->ip);
  if (m == NULL)
    {
      if (!p->maps_known && p->nmaps == 0)
	total.no_maps++;
      return;
    }
  uint64_t offset = s->ip - m->start + m->pgoff;
  const struct object *o = m->object;
  if (o->kind == OBJECT_LIBC)
    {
      if (o->glibc != NULL && glibc_funcs_has (o->glibc, offset))
	{
	  total.glibc++;
	  p->t.glibc++;
	}
      return;
    }
  total.in_fastcopy++;
  if (o->map.count == 0)
    {
      total.no_body_map++;
      return;
    }
  const struct fc_body_span *span
    = fc_body_map_find (&o->map, fc_body_map_vaddr (&o->map, offset));
  if (span == NULL)
    return;
  total.fastcopy++;
  p->t.fastcopy++;
  body_sample (s, p, &o->map, span);
}

static void
on_mmap (pid_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
	 uint64_t dev, uint64_t ino, int exec, const char *path)
{
  struct proc *p = proc_find (pid, 1);
  if (exec && path[0] == '/')
    add_mapping (p, start, start + len, pgoff, dev, ino, path);
  else
    unmap (p, start, start + len);
}

static void
on_exec (pid_t pid, const char *comm)
{
  struct proc *p = proc_find (pid, 1);
  p->nmaps = 0;
  p->maps_known = 1;
  /* Each CPU's records come in order, but not the CPUs' among them: the
     mappings of the new program may have come already, from a CPU whose
     records were read first, and are gone now.  /proc has them, unless
     the process is gone too; then the records that follow this one
     are all there is.  */
  p->maps_again = 1;
  if (keep_comm)
    snprintf (p->t.comm, sizeof p->t.comm, "%s", comm);
}

static void
on_fork (pid_t pid, pid_t parent)
{
  struct proc *p = proc_find (pid, 1);
  const struct proc *from = proc_find (parent, 0);
  if (p->maps_known || p->nmaps > 0 || from == NULL)
    return;
  p->map = xrealloc (p->map, (from->nmaps + 1) * sizeof *p->map);
  memcpy (p->map, from->map, from->nmaps * sizeof *p->map);
  p->nmaps = from->nmaps;
  p->maps_known = from->maps_known;
  memcpy (p->t.comm, from->t.comm, sizeof p->t.comm);
}

const struct sample_sink procs_sink = {
  .sample = on_sample,
  .mmap = on_mmap,
  .exec = on_exec,
  .fork = on_fork,
};

size_t
procs_census_targets (struct census_target **out)
{
  size_t n = 0;
  *out = NULL;
  for (size_t h = 0; h < NHASH; h++)
    for (const struct proc *p = proc_hash[h]; p != NULL; p = p->next)
      for (size_t i = 0; i < p->nmaps; i++)
	{
	  const struct mapping *m = &p->map[i];
	  uint64_t vaddr = fc_body_map_vaddr (&m->object->map, m->pgoff);
	  if (m->object->kind != OBJECT_FASTCOPY || m->object->census == 0
	      || vaddr == UINT64_MAX)
	    continue;
	  *out = xrealloc (*out, (n + 1) * sizeof **out);
	  (*out)[n++] = (struct census_target) {
	    p->t.pid, m->start - vaddr + m->object->census
	  };
	  break;
	}
  return n;
}

static int
by_samples (const void *a, const void *b)
{
  const struct proc_tally *x = a, *y = b;
  if (x->samples != y->samples)
    return x->samples < y->samples ? 1 : -1;
  return x->pid < y->pid ? -1 : x->pid > y->pid;
}

void
procs_reset (void)
{
  struct call_sample *calls = total.calls;
  memset (&total, 0, sizeof total);
  total.calls = calls;
  for (size_t h = 0; h < NHASH; h++)
    for (struct proc *p = proc_hash[h]; p != NULL; p = p->next)
      {
	p->t.samples = p->t.fastcopy = p->t.glibc = 0;
	p->maps_fastcopy = 0;
      }
}

void
procs_tallies (struct tallies *t)
{
  *t = total;
  t->calls = xrealloc (NULL, (total.ncalls + 1) * sizeof *t->calls);
  t->ncalls = 0;
  for (size_t i = 0; i < total.ncalls; i++)
    {
      struct call_sample c = total.calls[i];
      if (c.impl[0] == 0)
	{
	  /* The exported entry: the process's one implementation of the
	     family, or time no implementation's cost covers.  */
	  const struct proc *p = proc_find (c.pid, 0);
	  if (p == NULL || p->impl[c.family][0] == 0
	      || p->impls_mixed[c.family])
	    {
	      t->shared++;
	      continue;
	    }
	  memcpy (c.impl, p->impl[c.family], sizeof c.impl);
	}
      t->calls[t->ncalls++] = c;
    }
  t->procs = xrealloc (NULL, (total.nprocs + 1) * sizeof *t->procs);
  t->nprocs = 0;
  for (size_t h = 0; h < NHASH; h++)
    for (const struct proc *p = proc_hash[h]; p != NULL; p = p->next)
      if (p->t.samples > 0)
	t->procs[t->nprocs++] = p->t;
  qsort (t->procs, t->nprocs, sizeof *t->procs, by_samples);
}
