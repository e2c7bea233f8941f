/* SPDX-License-Identifier: MIT */
/* Workloads: reading both formats and drawing call sequences
   (workload.h).  */

#define _GNU_SOURCE 1
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/measure.h"
#include "common/workload.h"

const char *const fcw_distance_names[FC_REC_NDIST] = { FC_REC_DISTANCES };
const char *const fcw_overlap_names[FC_REC_NOVERLAP] = { FC_REC_OVERLAPS };
const char *const fcw_family_names[FASTCOPY_FAMILY_COUNT] = {
  [FASTCOPY_FAMILY_COPY] = FC_REC_COPY, [FASTCOPY_FAMILY_CLEAR] = FC_REC_CLEAR
};

const char *
fcw_machine_class_text (const struct fcw_machine_class *c, char *buf,
			size_t size)
{
  if (c->kind == FCW_MACHINE_CLASS_KNOWN)
    snprintf (buf, size, "vendor=%s family=%u model=%u policy=%s",
	      c->cpu_vendor, c->cpu_family, c->cpu_model, c->policy);
  else
    snprintf (buf, size, "%s", c->kind == FCW_MACHINE_CLASS_MIXED ? "mixed"
						       : "unknown");
  return buf;
}

const char *
fcw_machine_class_cpu_text (const struct fcw_machine_class *c, char *buf,
			    size_t size)
{
  if (c->kind == FCW_MACHINE_CLASS_KNOWN)
    snprintf (buf, size, "%s family %u model %u", c->cpu_vendor,
	      c->cpu_family, c->cpu_model);
  else
    snprintf (buf, size, "%s", c->kind == FCW_MACHINE_CLASS_MIXED ? "mixed"
						       : "unknown");
  return buf;
}

/* The word after KEY at *P, up to a space or the end, into BUF of SIZE
   bytes: letters, digits, '-', '_' and '.' only, and digits only with
   DIGITS.  Advances *P past it and one space.  Returns 0 or -1.  */
static int
class_field (const char **p, const char *key, char *buf, size_t size,
	     int digits)
{
  size_t k = strlen (key), n = 0;
  if (strncmp (*p, key, k) != 0)
    return -1;
  const char *s = *p + k;
  for (; s[n] && s[n] != ' '; n++)
    if (digits ? !isdigit ((unsigned char) s[n])
	: !isalnum ((unsigned char) s[n]) && !strchr ("-_.", s[n]))
      return -1;
  if (n == 0 || n >= size || (digits && n > 9))
    return -1;
  memcpy (buf, s, n);
  buf[n] = 0;
  *p = s + n + (s[n] == ' ');
  return 0;
}

int
fcw_machine_class_parse (const char *text, struct fcw_machine_class *c)
{
  memset (c, 0, sizeof *c);
  if (strcmp (text, "mixed") == 0 || strcmp (text, "unknown") == 0)
    {
      c->kind = text[0] == 'm' ? FCW_MACHINE_CLASS_MIXED
				 : FCW_MACHINE_CLASS_UNKNOWN;
      return 0;
    }
  char family[12], model[12];
  const char *p = text;
  if (class_field (&p, "vendor=", c->cpu_vendor, sizeof c->cpu_vendor, 0)
      || class_field (&p, "family=", family, sizeof family, 1)
      || class_field (&p, "model=", model, sizeof model, 1)
      || class_field (&p, "policy=", c->policy, sizeof c->policy, 0)
      || *p != 0 || p[-1] == ' ')
    {
      memset (c, 0, sizeof *c);
      return -1;
    }
  c->cpu_family = (unsigned int) strtoul (family, NULL, 10);
  c->cpu_model = (unsigned int) strtoul (model, NULL, 10);
  c->kind = FCW_MACHINE_CLASS_KNOWN;
  return 0;
}

int
fcw_machine_class_equal (const struct fcw_machine_class *a,
			 const struct fcw_machine_class *b)
{
  if (a->kind != b->kind)
    return 0;
  return a->kind != FCW_MACHINE_CLASS_KNOWN
	 || (strcmp (a->cpu_vendor, b->cpu_vendor) == 0
	     && a->cpu_family == b->cpu_family
	     && a->cpu_model == b->cpu_model
	     && strcmp (a->policy, b->policy) == 0);
}

size_t
fcw_grid_bucket (unsigned long long size)
{
  return fc_size_bucket (size);
}

unsigned long long
fcw_grid_lo (size_t i)
{
  unsigned long long lo, hi;
  fc_size_bucket_range (i, &lo, &hi);
  return lo;
}

unsigned long long
fcw_grid_hi (size_t i)
{
  unsigned long long lo, hi;
  fc_size_bucket_range (i, &lo, &hi);
  return hi;
}

/* Sizes a file may give: the engine's limit is far below.  */
#define SIZE_LIMIT (1ull << 62)
#define MAX_VALUES (1u << 24)	/* of a distribution line: sizes 0..16 Mi */

/* "MemcpyGoogleA.csv" -> "GoogleA".  */
static void
name_of (const char *path, char *name, size_t size)
{
  const char *base = strrchr (path, '/');
  base = base ? base + 1 : path;
  size_t n = strlen (base);
  if (n > 4 && strcmp (base + n - 4, ".csv") == 0)
    n -= 4;
  if (n > 6 && strncmp (base, "Memcpy", 6) == 0)
    base += 6, n -= 6;
  snprintf (name, size, "%.*s", (int) n, base);
}

struct reader
{
  struct fcw_workload *w;
  unsigned int line;
  size_t cap[FASTCOPY_FAMILY_COUNT];
  unsigned int data_lines;	/* the header and the rows so far */
  int ended;			/* the end line was read */
  char *err;
  size_t errlen;
};

static int __attribute__ ((format (printf, 2, 3)))
fail (struct reader *r, const char *fmt, ...)
{
  int n = r->line ? snprintf (r->err, r->errlen, "%s:%u: ", r->w->path,
			      r->line)
		  : snprintf (r->err, r->errlen, "%s: ", r->w->path);
  va_list ap;
  va_start (ap, fmt);
  if (n >= 0 && (size_t) n < r->errlen)
    vsnprintf (r->err + n, r->errlen - (size_t) n, fmt, ap);
  va_end (ap);
  return -1;
}

static int
add_bucket (struct reader *r, int f, unsigned long long lo,
	    unsigned long long hi, double calls, double bytes)
{
  struct fcw_family *fa = &r->w->family[f];
  if (fa->nbuckets == r->cap[f])
    {
      size_t cap = r->cap[f] ? 2 * r->cap[f] : 1024;
      struct fcw_bucket *b = realloc (fa->bucket, cap * sizeof *b);
      if (b == NULL)
	return fail (r, "out of memory");
      fa->bucket = b;
      r->cap[f] = cap;
    }
  fa->bucket[fa->nbuckets++] = (struct fcw_bucket) { lo, hi, { calls, bytes } };
  return 0;
}

/* A number of calls or bytes: finite and not negative.  */
static int
amount (const char *s, double *v)
{
  char *end;
  errno = 0;
  *v = strtod (s, &end);
  return end != s && *end == 0 && errno == 0 && isfinite (*v) && *v >= 0;
}

static int
size_value (const char *s, unsigned long long *v, const char **rest)
{
  char *end;
  if (!isdigit ((unsigned char) *s))
    return 0;
  errno = 0;
  *v = strtoull (s, &end, 10);
  *rest = end;
  return errno == 0 && *v < SIZE_LIMIT;
}

/* A distribution: probabilities separated by commas or white space, value
   i being that of size i, over any number of lines.  */
static int
distribution_line (struct reader *r, char *line, size_t *index)
{
  for (char *tok = strtok (line, ", \t\r\n"); tok != NULL;
       tok = strtok (NULL, ", \t\r\n"))
    {
      double p;
      if (!amount (tok, &p))
	return fail (r, "value %zu is not a probability", *index);
      for (int f = 0; f < FASTCOPY_FAMILY_COUNT && p > 0; f++)
	if (add_bucket (r, f, *index, *index, p, p * (double) *index) != 0)
	  return -1;
      if (++*index > MAX_VALUES)
	return fail (r, "too many values");
    }
  return 0;
}

static void
add (struct fcw_tally *t, double calls, double bytes)
{
  t->calls += calls;
  t->bytes += bytes;
}

/* WHAT's value NAME among the N NAMES: its index, or -1.  */
static int
named (const char *name, const char *const *names, int n)
{
  for (int i = 0; i < n; i++)
    if (strcmp (name, names[i]) == 0)
      return i;
  return -1;
}

/* A recording's line: family,what,value,calls,bytes.  Rows of a kind this
   reader does not know are skipped, so that later versions may add
   some.  */
static int
recording_line (struct reader *r, char *line)
{
  char *field[6];
  int n = 0;
  for (char *p = line; n < 6; n++)
    {
      field[n] = p;
      p = strchr (p, ',');
      if (p == NULL)
	{
	  n++;
	  break;
	}
      *p++ = 0;
    }
  double calls, bytes;
  if (n != 5)
    return fail (r, "expected " FC_REC_HEADER);
  int f = named (field[0], fcw_family_names, FASTCOPY_FAMILY_COUNT);
  if (f < 0)
    return fail (r, "unknown family '%s'", field[0]);
  if (!amount (field[3], &calls) || !amount (field[4], &bytes))
    return fail (r, "calls and bytes must be numbers, not '%s' and '%s'",
		 field[3], field[4]);
  struct fcw_family *fa = &r->w->family[f];
  const char *what = field[1], *value = field[2], *rest;
  unsigned long long lo, hi;
  int i;
  if (strcmp (what, FC_REC_SIZE) == 0)
    {
      if (!size_value (value, &lo, &rest))
	return fail (r, "'%s' is not a size", value);
      hi = lo;
      if (*rest == '-' && !size_value (rest + 1, &hi, &rest))
	return fail (r, "'%s' is not a size range", value);
      if (*rest != 0 || hi < lo)
	return fail (r, "'%s' is not a size range", value);
      return add_bucket (r, f, lo, hi, calls, bytes);
    }
  if (strcmp (what, FC_REC_DST_ALIGN) == 0
      || strcmp (what, FC_REC_SRC_ALIGN) == 0)
    {
      if (!size_value (value, &lo, &rest) || *rest != 0 || lo > 63)
	return fail (r, "'%s' is not an address mod 64", value);
      add (&(strcmp (what, FC_REC_DST_ALIGN) == 0 ? fa->dst_align : fa->src_align)[lo], calls,
	   bytes);
    }
  else if (strcmp (what, FC_REC_DISTANCE) == 0)
    {
      if ((i = named (value, fcw_distance_names, FC_REC_NDIST)) < 0)
	return fail (r, "unknown distance class '%s'", value);
      add (&fa->distance[i], calls, bytes);
    }
  else if (strcmp (what, FC_REC_OVERLAP) == 0)
    {
      if ((i = named (value, fcw_overlap_names, FC_REC_NOVERLAP)) < 0)
	return fail (r, "unknown overlap '%s'", value);
      add (&fa->overlap[i], calls, bytes);
    }
  else if (strcmp (what, FC_REC_FUNCTION) == 0)
    {
      if (fa->nfunctions == FCW_NFUNCTIONS || strlen (value) >= 24)
	return fail (r, "more than %d functions, or a long name",
		     FCW_NFUNCTIONS);
      struct fcw_count *c = &fa->function[fa->nfunctions++];
      snprintf (c->name, sizeof c->name, "%s", value);
      add (&c->t, calls, bytes);
    }
  return 0;
}

/* "# impl: copy=avx512m clear=avx512m": either may be missing.  */
static int
impl_line (struct reader *r, const char *text)
{
  char buf[128];
  snprintf (buf, sizeof buf, "%s", text);
  for (char *tok = strtok (buf, " "); tok != NULL; tok = strtok (NULL, " "))
    {
      char *eq = strchr (tok, '=');
      int f = -1;
      if (eq != NULL)
	{
	  *eq = 0;
	  f = named (tok, fcw_family_names, FASTCOPY_FAMILY_COUNT);
	}
      if (f < 0 || eq[1] == 0 || strlen (eq + 1) >= sizeof r->w->family[f].impl)
	return fail (r, "'# impl: %s' is not 'copy=NAME clear=NAME'", text);
      snprintf (r->w->family[f].impl, sizeof r->w->family[f].impl, "%s",
		eq + 1);
    }
  return 0;
}

/* The rest of LINE after PREFIX, or NULL if it does not start so.  */
static const char *
after (const char *line, const char *prefix)
{
  size_t n = strlen (prefix);
  return strncmp (line, prefix, n) == 0 ? line + n : NULL;
}

/* TEXT, after "# bound: ": "copy=TVD clear=TVD share=DIFF", each from 0
   to 1, and whatever follows them; or "unknown".  */
static int
bound_line (struct reader *r, const char *text)
{
  struct fcw_bound *b = &r->w->bound;
  int at = 0;
  memset (b, 0, sizeof *b);
  if (strncmp (text, "unknown", 7) == 0)
    return 0;
  if (sscanf (text, "copy=%lf clear=%lf share=%lf%n", &b->tvd[0], &b->tvd[1],
	      &b->share, &at) != 3 || at == 0
      || (text[at] != 0 && text[at] != ' ')
      || !(b->tvd[0] >= 0 && b->tvd[0] <= 1 && b->tvd[1] >= 0
	   && b->tvd[1] <= 1 && b->share >= 0 && b->share <= 1))
    return fail (r, "'" FC_REC_BOUND "%.100s' is not 'copy=TVD clear=TVD "
		 "share=DIFF', each from 0 to 1, or 'unknown'", text);
  b->known = 1;
  return 0;
}

/* A comment: the version, the command, the class, the implementations,
   the bound or the end line; others say nothing to a reader.  */
static int
comment_line (struct reader *r, const char *line)
{
  struct fcw_workload *w = r->w;
  const char *text;
  if ((text = after (line, FC_REC_VERSION_LINE)) != NULL)
    {
      if (strcmp (text, FC_REC_VERSION_TEXT) != 0)
	return fail (r, "format version '%.20s'; this reader knows "
		     "version %d", text, FC_REC_VERSION);
    }
  else if ((text = after (line, FC_REC_COMMAND)) != NULL)
    snprintf (w->command, sizeof w->command, "%s", text);
  else if ((text = after (line, FC_REC_CLASS)) != NULL)
    {
      if (fcw_machine_class_parse (text, &w->machine_class) != 0)
	return fail (r, "'%.100s' is not 'vendor=VENDOR family=N model=N "
		     "policy=ROW', 'mixed' or 'unknown'", line);
    }
  else if ((text = after (line, FC_REC_IMPL)) != NULL)
    return impl_line (r, text);
  else if ((text = after (line, FC_REC_BOUND)) != NULL)
    return bound_line (r, text);
  else if ((text = after (line, FC_REC_END)) != NULL)
    {
      char count[16];
      snprintf (count, sizeof count, "%u lines", r->data_lines);
      if (strcmp (text, count) != 0)
	return fail (r, "the end line says '%.40s', but %u lines of data "
		     "came before it: the file was altered", text,
		     r->data_lines);
      r->ended = 1;
    }
  return 0;
}

static int
cmp_bucket (const void *a, const void *b)
{
  const struct fcw_bucket *x = a, *y = b;
  return x->lo < y->lo ? -1 : x->lo > y->lo;
}

size_t
fcw_sum_family (struct fcw_family *fa)
{
  free (fa->cdf);
  fa->cdf = malloc ((fa->nbuckets ? fa->nbuckets : 1) * sizeof *fa->cdf);
  if (fa->cdf == NULL)
    return (size_t) -1;
  fa->calls = fa->bytes = 0;
  fa->max_size = 0;
  for (size_t i = 0; i < fa->nbuckets; i++)
    {
      const struct fcw_bucket *b = &fa->bucket[i];
      if (i > 0 && b->lo <= fa->bucket[i - 1].hi)
	return i;
      fa->calls += b->t.calls;
      fa->bytes += b->t.bytes;
      fa->cdf[i] = fa->calls;
      if (b->t.calls > 0)
	fa->max_size = b->hi;
    }
  return 0;
}

/* Sort, check and sum the buckets of every family.  */
static int
finish (struct reader *r)
{
  struct fcw_workload *w = r->w;
  int any = 0;
  r->line = 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      struct fcw_family *fa = &w->family[f];
      qsort (fa->bucket, fa->nbuckets, sizeof *fa->bucket, cmp_bucket);
      size_t bad = fcw_sum_family (fa);
      if (bad == (size_t) -1)
	return fail (r, "out of memory");
      if (bad != 0)
	return fail (r, "%s sizes %llu-%llu overlap another bucket",
		     fcw_family_names[f], fa->bucket[bad].lo,
		     fa->bucket[bad].hi);
      any |= fa->calls > 0;
    }
  /* A recording may have no call: a process that copied nothing.  */
  if (!any && !w->family[0].recorded)
    return fail (r, "no size has a nonzero probability");
  return 0;
}

/* What a file that is neither format is told: its first line that is not
   a comment (LINE, numbered N) as its reader would see it, at most 40
   bytes, or none.  */
static int
not_a_workload (struct reader *r, unsigned int n, const char *line)
{
  char start[48];
  size_t i = 0;
  for (; line != NULL && line[i] && i < 40; i++)
    start[i] = isprint ((unsigned char) line[i]) ? line[i] : '?';
  start[i] = 0;
  r->line = 0;
  if (line == NULL)
    return fail (r, "not a fastcopy-profile recording or a size "
		 "distribution: it has no line but comments");
  return fail (r, "not a fastcopy-profile recording or a size distribution: "
	       "line %u, '%s%s', is neither the header '" FC_REC_HEADER "' nor "
	       "probabilities", n, start, line[i] ? "..." : "");
}

int
fcw_load (struct fcw_workload *w, const char *path, char *err, size_t errlen)
{
  memset (w, 0, sizeof *w);
  snprintf (w->path, sizeof w->path, "%s", path);
  name_of (path, w->name, sizeof w->name);
  struct reader r = { .w = w, .err = err, .errlen = errlen };
  FILE *f = fopen (path, "r");
  if (f == NULL)
    return fail (&r, "%s", strerror (errno));
  struct stat st;
  if (fstat (fileno (f), &st) == 0 && S_ISDIR (st.st_mode))
    {
      fclose (f);
      return fail (&r, "is a directory, not a fastcopy-profile recording");
    }
  char *line = NULL, first[48] = "";
  size_t cap = 0, index = 0;
  int recording = -1, bad = 0;
  ssize_t len;
  while (!bad && (len = getline (&line, &cap, f)) >= 0)
    {
      r.line++;
      while (len > 0 && isspace ((unsigned char) line[len - 1]))
	line[--len] = 0;
      if (len == 0)
	continue;
      if (line[0] == '#')
	{
	  bad = comment_line (&r, line);
	  continue;
	}
      if (r.ended)
	{
	  bad = fail (&r, "a line after the end line");
	  break;
	}
      r.data_lines++;
      int first_line = recording < 0;
      if (first_line)
	{
	  recording = strcmp (line, FC_REC_HEADER) == 0;
	  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
	    w->family[i].recorded = recording;
	  if (recording)
	    continue;
	  snprintf (first, sizeof first, "%s", line);
	}
      bad = recording ? recording_line (&r, line)
		      : distribution_line (&r, line, &index);
      /* A first line that holds no probabilities: some other file.  */
      if (bad && first_line)
	not_a_workload (&r, r.line, first);
    }
  if (!bad && ferror (f))
    bad = fail (&r, "%s", strerror (errno));
  if (!bad && recording < 0)
    bad = not_a_workload (&r, 0, NULL);
  w->has_end_line = r.ended;
  free (line);
  fclose (f);
  if (bad || finish (&r) != 0)
    {
      fcw_free (w);
      return -1;
    }
  return 0;
}

void
fcw_free (struct fcw_workload *w)
{
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      free (w->family[f].bucket);
      free (w->family[f].cdf);
      w->family[f].bucket = NULL;
      w->family[f].cdf = NULL;
    }
}

static void
add_tallies (struct fcw_tally *into, const struct fcw_tally *from, int n)
{
  for (int i = 0; i < n; i++)
    add (&into[i], from[i].calls, from[i].bytes);
}

/* The bound of a sum of two recordings' calls, A of CA calls and B of CB
   (fcw_merge).  */
static double
quadrature (double a, double ca, double b, double cb)
{
  return ca + cb > 0 ? hypot (a * ca, b * cb) / (ca + cb) : 0;
}

static void
merge_bound (struct fcw_workload *into, const struct fcw_workload *from)
{
  struct fcw_bound *a = &into->bound;
  const struct fcw_bound *b = &from->bound;
  if (!a->known || !b->known)
    {
      a->known = 0;
      return;
    }
  double all_a = 0, all_b = 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      double ca = into->family[f].calls, cb = from->family[f].calls;
      a->tvd[f] = quadrature (a->tvd[f], ca, b->tvd[f], cb);
      all_a += ca;
      all_b += cb;
    }
  a->share = quadrature (a->share, all_a, b->share, all_b);
}

int
fcw_merge (struct fcw_workload *into, const struct fcw_workload *from)
{
  /* Before the counts add up: the weights are the calls of each.  */
  merge_bound (into, from);
  if (!fcw_machine_class_equal (&into->machine_class, &from->machine_class))
    into->machine_class
      = (struct fcw_machine_class) { .kind = FCW_MACHINE_CLASS_MIXED };
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      char *impl = into->family[f].impl;
      if (strcmp (impl, from->family[f].impl) != 0)
	snprintf (impl, sizeof into->family[f].impl, "mixed");
      struct fcw_family *a = &into->family[f];
      const struct fcw_family *b = &from->family[f];
      /* Both lists are sorted; equal buckets add up.  */
      size_t na = a->nbuckets, nb = b->nbuckets, i = 0, j = 0, n = 0;
      struct fcw_bucket *m = malloc ((na + nb + 1) * sizeof *m);
      if (m == NULL)
	return -1;
      while (i < na || j < nb)
	if (j == nb || (i < na && a->bucket[i].lo < b->bucket[j].lo))
	  m[n++] = a->bucket[i++];
	else if (i == na || b->bucket[j].lo < a->bucket[i].lo
		 || b->bucket[j].hi != a->bucket[i].hi)
	  m[n++] = b->bucket[j++];
	else
	  {
	    m[n] = a->bucket[i++];
	    add (&m[n++].t, b->bucket[j].t.calls, b->bucket[j].t.bytes);
	    j++;
	  }
      free (a->bucket);
      a->bucket = m;
      a->nbuckets = n;
      if (fcw_sum_family (a) == (size_t) -1)
	return -1;
      a->recorded |= b->recorded;
      add_tallies (a->dst_align, b->dst_align, 64);
      add_tallies (a->src_align, b->src_align, 64);
      add_tallies (a->distance, b->distance, FC_REC_NDIST);
      add_tallies (a->overlap, b->overlap, FC_REC_NOVERLAP);
      for (int k = 0; k < b->nfunctions; k++)
	{
	  int x = 0;
	  while (x < a->nfunctions
		 && strcmp (a->function[x].name, b->function[k].name) != 0)
	    x++;
	  if (x == FCW_NFUNCTIONS)
	    continue;
	  if (x == a->nfunctions)
	    a->function[a->nfunctions++] = (struct fcw_count) { .t = { 0, 0 } };
	  snprintf (a->function[x].name, sizeof a->function[x].name, "%s",
		    b->function[k].name);
	  add (&a->function[x].t, b->function[k].t.calls,
	       b->function[k].t.bytes);
	}
    }
  return 0;
}

/* ",CALLS,BYTES" and the end of the row: whole numbers as such, others
   (the estimates of a sampler) with the digits that read back the same.  */
static void
write_tally (FILE *f, const struct fcw_tally *t)
{
  const double v[2] = { t->calls, t->bytes };
  for (int i = 0; i < 2; i++)
    if (v[i] == floor (v[i]) && v[i] < 0x1p63)
      fprintf (f, ",%.0f", v[i]);
    else
      fprintf (f, ",%.17g", v[i]);
  fputc ('\n', f);
}

/* The rows of N tallies with calls; returns how many.  */
static unsigned int
write_rows (FILE *f, const char *family, const char *what,
	    const struct fcw_tally *t, int n, const char *const *names)
{
  unsigned int rows = 0;
  for (int i = 0; i < n; i++)
    if (t[i].calls > 0)
      {
	fprintf (f, "%s,%s,", family, what);
	if (names != NULL)
	  fputs (names[i], f);
	else
	  fprintf (f, "%d", i);
	write_tally (f, &t[i]);
	rows++;
      }
  return rows;
}

int
fcw_write (FILE *f, const struct fcw_workload *w, const char *comment)
{
  return fcw_write_extra (f, w, comment, "", 0);
}

int
fcw_write_extra (FILE *f, const struct fcw_workload *w, const char *comment,
		 const char *extra, unsigned int nextra)
{
  fputs (FC_REC_VERSION_LINE FC_REC_VERSION_TEXT "\n", f);
  if (w->machine_class.kind != FCW_MACHINE_CLASS_UNKNOWN)
    {
      char text[FCW_MACHINE_CLASS_TEXT];
      fprintf (f, FC_REC_CLASS "%s\n",
	       fcw_machine_class_text (&w->machine_class, text, sizeof text));
    }
  if (w->family[0].impl[0] || w->family[1].impl[0])
    {
      const char *sep = FC_REC_IMPL;
      for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
	if (w->family[i].impl[0])
	  {
	    fprintf (f, "%s%s=%s", sep, fcw_family_names[i], w->family[i].impl);
	    sep = " ";
	  }
      fputc ('\n', f);
    }
  if (w->bound.known)
    fprintf (f, FC_REC_BOUND "copy=%.4f clear=%.4f share=%.4f\n",
	     w->bound.tvd[FASTCOPY_FAMILY_COPY],
	     w->bound.tvd[FASTCOPY_FAMILY_CLEAR], w->bound.share);
  fputs (comment, f);
  fputs (FC_REC_HEADER "\n", f);
  unsigned int lines = 1;
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    {
      const struct fcw_family *fa = &w->family[i];
      const char *name = fcw_family_names[i];
      for (size_t b = 0; b < fa->nbuckets; b++)
	if (fa->bucket[b].t.calls > 0)
	  {
	    fprintf (f, "%s," FC_REC_SIZE ",%llu", name, fa->bucket[b].lo);
	    if (fa->bucket[b].hi != fa->bucket[b].lo)
	      fprintf (f, "-%llu", fa->bucket[b].hi);
	    write_tally (f, &fa->bucket[b].t);
	    lines++;
	  }
      for (int k = 0; k < fa->nfunctions; k++)
	lines += write_rows (f, name, FC_REC_FUNCTION, &fa->function[k].t, 1,
			     (const char *const[]) { fa->function[k].name });
      lines += write_rows (f, name, FC_REC_DST_ALIGN, fa->dst_align, 64, NULL);
      lines += write_rows (f, name, FC_REC_SRC_ALIGN, fa->src_align, 64, NULL);
      lines += write_rows (f, name, FC_REC_DISTANCE, fa->distance, FC_REC_NDIST,
			   fcw_distance_names);
      lines += write_rows (f, name, FC_REC_OVERLAP, fa->overlap, FC_REC_NOVERLAP,
			   fcw_overlap_names);
    }
  fputs (extra, f);
  fprintf (f, FC_REC_END "%u lines\n", lines + nextra);
  return ferror (f) ? -1 : 0;
}

size_t
fcw_largest (const struct fcw_workload *w, enum fastcopy_family family)
{
  unsigned long long m = w->family[family].max_size;
  return m < FCM_SEQ_MAX_SIZE ? (size_t) m : FCM_SEQ_MAX_SIZE;
}

/* An index drawn from the calls of the N tallies, or -1 if they have
   none.  */
static int
draw (const struct fcw_tally *t, int n, uint64_t *st)
{
  double total = 0;
  for (int i = 0; i < n; i++)
    total += t[i].calls;
  if (!(total > 0))
    return -1;
  double u = (double) (fcm_splitmix64 (st) >> 11) * 0x1p-53 * total;
  for (int i = 0; i < n; i++)
    if ((u -= t[i].calls) < 0 && t[i].calls > 0)
      return i;
  for (int i = n - 1;; i--)
    if (t[i].calls > 0)
      return i;
}

/* Offsets for a recorded call that may start below SPAN: the destination
   at a recorded address mod 64, the source at a recorded distance, and a
   source address mod 64 as recorded where the distance leaves it free.  */
static void
recorded_offsets (const struct fcw_family *fa, enum fastcopy_family family,
		  size_t span, uint64_t *st, size_t *soff, size_t *doff)
{
  int ad = draw (fa->dst_align, 64, st);
  if (ad < 0)
    ad = (int) (fcm_splitmix64 (st) & 63);
  *doff = (size_t) ad + 64 * (fcm_splitmix64 (st) % ((span - 1 - ad) / 64 + 1));
  *soff = 0;
  if (family != FASTCOPY_FAMILY_COPY)
    return;
  size_t d;
  switch (draw (fa->distance, FC_REC_NDIST, st))
    {
    case 0: d = 0; break;
    case 1: d = 1 + fcm_splitmix64 (st) % 15; break;
    case 2: d = 16 + fcm_splitmix64 (st) % 48; break;
    default:
      {
	int as = draw (fa->src_align, 64, st);
	if (as < 0)
	  as = (int) (fcm_splitmix64 (st) & 63);
	d = (size_t) ((ad - as) & 63) + 64 * (1 + fcm_splitmix64 (st) % 63);
      }
      break;
    }
  size_t r = (*doff - d) & 4095;
  *soff = r + 4096 * (fcm_splitmix64 (st) % ((span - 1 - r) / 4096 + 1));
}

uint64_t *
fcw_sequence (const struct fcw_workload *w, enum fastcopy_family family,
	      size_t ncalls, uint64_t seed, size_t *bytes)
{
  const struct fcw_family *fa = &w->family[family];
  if (!(fa->calls > 0))
    return NULL;
  uint64_t *seq = malloc (ncalls * sizeof *seq);
  if (seq == NULL)
    return NULL;
  uint64_t st = seed;
  for (const char *c = w->name; *c; c++)
    st = st * 131 + (unsigned char) *c;
  *bytes = 0;
  for (size_t i = 0; i < ncalls; i++)
    {
      double u = (double) (fcm_splitmix64 (&st) >> 11) * 0x1p-53 * fa->calls;
      size_t lo = 0, hi = fa->nbuckets - 1;
      while (lo < hi)
	{
	  size_t mid = (lo + hi) / 2;
	  if (fa->cdf[mid] > u)
	    hi = mid;
	  else
	    lo = mid + 1;
	}
      const struct fcw_bucket *b = &fa->bucket[lo];
      unsigned long long size = b->lo;
      if (b->hi > b->lo)
	size += fcm_splitmix64 (&st) % (b->hi - b->lo + 1);
      if (size > FCM_SEQ_MAX_SIZE)
	size = FCM_SEQ_MAX_SIZE;
      /* Calls that fit in half the buffer stay inside it.  */
      size_t span = size <= FCM_SEQ_BUF / 2 ? FCM_SEQ_BUF - (size_t) size + 1
					    : FCM_SEQ_BUF / 2;
      size_t so, dof;
      if (fa->recorded)
	recorded_offsets (fa, family, span, &st, &so, &dof);
      else
	{
	  so = fcm_splitmix64 (&st) % span;
	  dof = fcm_splitmix64 (&st) % span;
	}
      seq[i] = fcm_seq_entry ((size_t) size, so, dof);
      *bytes += (size_t) size;
    }
  return seq;
}

static int
csv_filter (const struct dirent *e)
{
  size_t n = strlen (e->d_name);
  return n > 4 && strcmp (e->d_name + n - 4, ".csv") == 0;
}

int
fcw_list (const char *dir, char ***paths)
{
  struct dirent **list;
  int n = scandir (dir, &list, csv_filter, alphasort);
  if (n < 0)
    return -1;
  char **v = calloc ((size_t) n + 1, sizeof *v);
  int ok = v != NULL;
  for (int i = 0; i < n; i++)
    {
      if (ok && asprintf (&v[i], "%s/%s", dir, list[i]->d_name) < 0)
	{
	  v[i] = NULL;
	  ok = 0;
	}
      free (list[i]);
    }
  free (list);
  if (!ok)
    {
      fcw_list_free (v);
      errno = ENOMEM;
      return -1;
    }
  *paths = v;
  return n;
}

void
fcw_list_free (char **paths)
{
  for (size_t i = 0; paths != NULL && paths[i] != NULL; i++)
    free (paths[i]);
  free (paths);
}

int
fcw_dir_has (const char *dir)
{
  char **paths;
  int n = fcw_list (dir, &paths);
  if (n >= 0)
    fcw_list_free (paths);
  return n > 0;
}
