/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: running a case: the buffers of each group, the slots of
   the cold pool, every point measured by the engine (measure.h) with the
   contenders of its set, progress on stderr, and the group's table once it
   is done.  */

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

static size_t progress_done;

static void
progress (const struct group *g, const struct point *p)
{
  if (!opt.progress)
    return;
  char b[80];
  if (g->xkind == X_DISTANCE)
    snprintf (b, sizeof b, "distance %ld", p->distance);
  else if (g->xkind == X_DIST)
    snprintf (b, sizeof b, "%s", p->dist->name);
  else
    fc_size_format (p->size, FC_SIZE_1_DECIMAL, b, sizeof b);
  fprintf (stderr, "\r\033[K[%zu/%zu] %s %s %s %s", progress_done + 1, npoints,
	   func_names[g->func], g->cache, g->align, b);
}

/* The calls of one repetition at point P.  */
static void
calls_of (const struct point *p, struct fcm_calls *c)
{
  const struct group *g = &groups[p->group];
  memset (c, 0, sizeof *c);
  c->dst = g->dbase + p->doff;
  c->src = g->sbase ? g->sbase + p->soff : NULL;
  c->n = p->size;
  c->fill = p->fill;
  switch (p->type)
    {
    case PT_FIXED:
      c->layout = FCM_SAME;
      break;
    case PT_COLD:
      c->layout = FCM_SLOTS;
      c->order = p->order;
      c->nslots = p->nslots;
      c->stride = p->stride;
      break;
    case PT_SEQ:
      c->layout = FCM_SEQUENCE;
      c->seq = p->dist->seq[fcb_family (g->func)];
      c->nseq = opt.calls;
      break;
    }
}

static void
measure (struct point *p, unsigned int rounds, double time_ms)
{
  static struct fcm_point m;
  calls_of (p, &m.calls);
  m.nfn = p->cs->n;
  for (int k = 0; k < m.nfn; k++)
    m.fn[k] = &p->cs->c[k].fn;
  m.target_ns = (uint64_t) (time_ms * 1e6);
  m.rounds = 0;
  fcm_measure (&m, rounds, p->med);
  p->done = 1;
}

static void *
map (size_t bytes)
{
  void *p = fcm_map (bytes);
  if (p == NULL)
    error_exit (1, "cannot map %zu MiB: %s", bytes / MiB, strerror (errno));
  return p;
}

void
fcb_run_case (enum case_id cid, unsigned int rounds, double time_ms)
{
  for (size_t gi = 0; gi < ngroups; gi++)
    {
      struct group *g = &groups[gi];
      if (g->cid != cid)
	continue;
      int copy = g->func == F_MEMCPY || g->func == F_MEMMOVE;
      size_t max = 0;
      for (size_t i = g->first; i < g->first + g->count; i++)
	if (points[i].type == PT_SEQ)
	  {
	    size_t l = points[i].dist->largest[fcb_family (g->func)];
	    max = l > max ? l : max;
	  }
	else if (points[i].size > max)
	  max = points[i].size;

      size_t sbytes = 0, dbytes = 0;
      char *sbuf = NULL, *dbuf = NULL;
      switch (g->xkind == X_DIST ? PT_SEQ : points[g->first].type)
	{
	case PT_FIXED:
	  if (g->func == F_MEMMOVE)
	    dbytes = max + max / 2 + 2 * PAGE;
	  else
	    {
	      dbytes = max + 2 * PAGE;
	      sbytes = copy ? max + 2 * PAGE : 0;
	    }
	  break;
	case PT_SEQ:
	  dbytes = FCM_SEQ_BUF + max + PAGE;
	  sbytes = copy ? FCM_SEQ_BUF + max + PAGE : 0;
	  break;
	case PT_COLD:
	  {
	    /* Each size cycles through the pool in its own random order
	       (fcm_slots).  */
	    size_t pool = fcb_pool_bytes () / (copy ? 2 : 1);
	    dbytes = (max > pool ? max : pool) + PAGE;
	    sbytes = copy ? dbytes : 0;
	    for (size_t i = g->first; i < g->first + g->count; i++)
	      {
		struct point *p = &points[i];
		struct fcm_calls c;
		p->order = fcm_slots (&c, p->size, pool, opt.seed);
		if (p->order == NULL)
		  error_exit (1, "out of memory");
		p->nslots = c.nslots;
		p->stride = c.stride;
	      }
	  }
	  break;
	}
      dbuf = map (dbytes);
      sbuf = sbytes ? map (sbytes) : NULL;
      g->dbase = dbuf;
      g->sbase = g->func == F_MEMMOVE ? dbuf : sbuf;

      for (size_t i = g->first; i < g->first + g->count; i++)
	{
	  progress (g, &points[i]);
	  measure (&points[i], rounds, time_ms);
	  progress_done++;
	}

      for (size_t i = g->first; i < g->first + g->count; i++)
	{
	  free (points[i].order);
	  points[i].order = NULL;
	}
      fcm_unmap (dbuf, dbytes);
      fcm_unmap (sbuf, sbytes);
      g->dbase = NULL;
      g->sbase = NULL;
      if (opt.progress)
	fputs ("\r\033[K", stderr);
      fcb_print_group (g);
    }
}
