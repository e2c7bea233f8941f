/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: the targets of the summary, read at run time from the
   targets file (data/targets.conf; its format: that file's opening comment
   and fastcopy-bench(1), TARGETS).

   The file holds target sets.  Each set lists policy rows (a set applies
   when the library matched this CPU to one of them, fastcopy_policy_matched:
   the library's own answer, so that the bench judges a CPU by the class the
   library put it in; a set listing none is the fallback), and the first
   set that applies is used.  A set is a list of checks; the
   checks written before the first set belong to every set.  A check names
   the cases (and layout) whose points its targets are judged on, and the
   title the summary prints when none of them ran.  A target is a
   statistic of libfastcopy's ratio to glibc, or of its net ratio (above
   the null contender's time, net-ratio.h), over the points in a range (each
   point alone, their geometric mean, the worst), optionally only at the
   points where glibc's own time shows a cliff, and the largest value that
   meets it.  Slack lines raise every goal when the glibc measured is
   of a given version.  */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "bench.h"

#define TARGETS_FILE "targets.conf"
#define LABEL_MAX 81		/* 80 characters and the NUL */
#define MAX_WORDS 16

enum statistic { STAT_EACH, STAT_GEOMEAN, STAT_WORST };

struct target
{
  enum statistic stat;
  int ranged;			/* only the points with x in [LO, HI] */
  double lo, hi;
  double cliff;			/* > 0: only the points where glibc takes at
				   least CLIFF times its median over the
				   group */
  double goal;			/* met when the value is at most this */
  double peers;			/* > 0: and at most PEERS times every
				   --against peer's */
  int net;			/* judged on net ratios */
  char label[LABEL_MAX];
};

struct check
{
  unsigned int cases;		/* bit per case */
  const char *align;		/* the groups' layout; NULL: any */
  char title[LABEL_MAX];
  struct target *targets;
  size_t ntargets;
};

struct check_list
{
  struct check *v;
  size_t n;
};

#define MAX_SET_ROWS 8

struct target_set
{
  char name[32];
  unsigned int line;
  char rows[MAX_SET_ROWS][24];	/* auto policy rows; none: any CPU, the
				   fallback */
  size_t nrows;
  char rows_text[160];		/* as written: "rows=A,B" */
  struct check_list checks;
};

/* slack glibc=LO[-HI] +AMOUNT  */
struct slack
{
  unsigned int lo, hi;		/* glibc versions, major * 1000 + minor */
  double amount;
  unsigned int line;
  char versions[32];		/* as written */
};

static char targets_path[PATH_MAX];	/* "": no file found */
static struct target_set *sets;
static size_t nsets;
static struct check_list common;	/* before the first set */
static struct slack *slacks;
static size_t nslacks;

/* What applies to this run.  */
static const struct target_set *chosen;
static const struct slack *slack;		/* NULL: none */
static char cpu_text[96];
static char cpu_row[24];			/* the row the library matched */
static char glibc_version[32];

/* ------------------------------------------------------------------ */
/* Reading the file.  */

static unsigned int lineno;

static void __attribute__ ((noreturn, format (printf, 1, 2)))
bad (const char *fmt, ...)
{
  char msg[256];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  error_exit (1, "%s:%u: %s", targets_path, lineno, msg);
}

/* Room for element N of an array that holds N: the capacity is the next
   power of two.  */
static void *
grow (void *v, size_t n, size_t size)
{
  if (n != 0 && (n & (n - 1)) != 0)
    return v;
  v = realloc (v, (n ? 2 * n : 1) * size);
  if (v == NULL)
    error_exit (1, "out of memory");
  return v;
}

struct word
{
  const char *text;
  int quoted;
};

/* Split LINE in place into words: runs of non-blanks, or "quoted text".
   Returns the number of words; a line that starts with '#' has none.  */
static int
split (char *line, struct word *w)
{
  int n = 0;
  char *p = line;
  for (;;)
    {
      while (*p == ' ' || *p == '\t')
	p++;
      if (*p == 0 || (n == 0 && *p == '#'))
	return n;
      if (n == MAX_WORDS)
	bad ("more than %d words", MAX_WORDS);
      w[n].quoted = *p == '"';
      if (w[n].quoted)
	{
	  char *end = strchr (++p, '"');
	  if (end == NULL)
	    bad ("a quote is not closed");
	  *end = 0;
	  w[n++].text = p;
	  p = end + 1;
	  if (*p != 0 && *p != ' ' && *p != '\t')
	    bad ("a closing quote must end the word");
	  continue;
	}
      w[n++].text = p;
      while (*p != 0 && *p != ' ' && *p != '\t')
	p++;
      if (*p != 0)
	*p++ = 0;
      if (strchr (w[n - 1].text, '"') != NULL)
	bad ("a quote inside the word '%s'", w[n - 1].text);
    }
}

/* A size, as the settings write one (size.h); "never" is no end of a
   range.  */
static double
size_value (const char *s, const char *what)
{
  unsigned long long v;
  if (fc_size_parse (s, strlen (s), &v) != FC_SIZE_OK || v == FASTCOPY_NEVER)
    bad ("%s: '%s' is not a size (" FC_SIZE_SYNTAX ")", what, s);
  return (double) v;
}

/* "LO-HI" into [*LO, *HI].  */
static void
range_value (const char *s, double *lo, double *hi)
{
  const char *dash = strchr (s, '-');
  char first[32];
  if (dash == NULL || (size_t) (dash - s) >= sizeof first)
    bad ("'%s' is not a range LO-HI", s);
  snprintf (first, sizeof first, "%.*s", (int) (dash - s), s);
  *lo = size_value (first, "range");
  *hi = size_value (dash + 1, "range");
  if (*lo > *hi)
    bad ("range '%s' runs backwards", s);
}

static void
label_value (const struct word *w, char *out, const char *what)
{
  if (!w->quoted)
    bad ("%s '%s' must be quoted", what, w->text);
  if (strlen (w->text) >= LABEL_MAX)
    bad ("%s is longer than %d characters", what, LABEL_MAX - 1);
  snprintf (out, LABEL_MAX, "%s", w->text);
}


/* The check and the set being filled in: each must be complete before the
   next one of its kind starts, and at the end.  */
static struct check_list *
current_checks (void)
{
  return nsets ? &sets[nsets - 1].checks : &common;
}

static void
finish_check (void)
{
  const struct check_list *l = current_checks ();
  if (l->n > 0 && l->v[l->n - 1].ntargets == 0)
    bad ("the check \"%s\" has no targets", l->v[l->n - 1].title);
}

static void
finish_set (void)
{
  finish_check ();
  if (nsets > 0 && sets[nsets - 1].checks.n == 0 && common.n == 0)
    bad ("the set '%s' has no checks", sets[nsets - 1].name);
}

/* rows=ROW,ROW...: names of rows of the library's auto table, into S.
   One file serves both architectures, whose tables differ: a name this
   library lacks is not an error, it never matches (bench.exp checks the
   shipped file's names against the x86-64 table).  */
static void
parse_rows (const char *list, struct target_set *s)
{
  char copy[160], *save = NULL;
  snprintf (copy, sizeof copy, "%s", list);
  for (char *tok = strtok_r (copy, ",", &save); tok != NULL;
       tok = strtok_r (NULL, ",", &save))
    {
      if (strlen (tok) >= sizeof s->rows[0])
	bad ("rows=: '%s' is longer than a row's name", tok);
      if (s->nrows == MAX_SET_ROWS)
	bad ("rows=: more than %d rows", MAX_SET_ROWS);
      snprintf (s->rows[s->nrows++], sizeof s->rows[0], "%s", tok);
    }
  if (s->nrows == 0)
    bad ("rows= names no row");
}

/* set NAME [rows=ROW,ROW...]  */
static void
parse_set (const struct word *w, int n)
{
  finish_set ();
  if (n < 2 || w[1].quoted)
    bad ("'set' needs a name");
  for (size_t i = 0; i < nsets; i++)
    {
      if (strcmp (sets[i].name, w[1].text) == 0)
	bad ("a second set '%s' (the first is on line %u)", w[1].text,
	     sets[i].line);
      if (sets[i].nrows == 0)
	bad ("the set '%s' can never apply: the fallback set '%s' (line %u)"
	     " applies to every CPU and comes first", w[1].text, sets[i].name,
	     sets[i].line);
    }
  sets = grow (sets, nsets, sizeof *sets);
  struct target_set *s = &sets[nsets++];
  memset (s, 0, sizeof *s);
  if (strlen (w[1].text) >= sizeof s->name)
    bad ("set name longer than %zu characters", sizeof s->name - 1);
  snprintf (s->name, sizeof s->name, "%s", w[1].text);
  s->line = lineno;
  if (n > 3)
    bad ("a set line is: set NAME [rows=ROW,ROW...]");
  if (n == 3)
    {
      if (w[2].quoted || strncmp (w[2].text, "rows=", 5) != 0)
	bad ("'%s' is not rows=ROW,ROW...", w[2].text);
      if (strlen (w[2].text) >= sizeof s->rows_text)
	bad ("rows= is longer than %zu characters", sizeof s->rows_text - 1);
      snprintf (s->rows_text, sizeof s->rows_text, "%s", w[2].text);
      parse_rows (w[2].text + 5, s);
    }
}

/* A glibc version "MAJOR.MINOR" as MAJOR * 1000 + MINOR; 0 if S is none.  */
static unsigned int
version_value (const char *s)
{
  unsigned int major, minor;
  int end = 0;
  if (sscanf (s, "%3u.%3u%n", &major, &minor, &end) != 2 || s[end] != 0
      || *s < '0' || *s > '9')
    return 0;
  return major * 1000 + minor;
}

/* slack glibc=LO[-HI] +AMOUNT  */
static void
parse_slack (const struct word *w, int n)
{
  if (nsets > 0)
    bad ("'slack' belongs before the first set: it applies to every set");
  if (n != 3 || w[1].quoted || strncmp (w[1].text, "glibc=", 6) != 0)
    bad ("a slack line is: slack glibc=VERSION[-VERSION] +AMOUNT");
  struct slack sl = { .line = lineno };
  const char *v = w[1].text + 6;
  char lo[16];
  const char *dash = strchr (v, '-');
  snprintf (lo, sizeof lo, "%.*s", dash ? (int) (dash - v) : 15, v);
  sl.lo = version_value (lo);
  sl.hi = dash ? version_value (dash + 1) : sl.lo;
  if (sl.lo == 0 || sl.hi == 0 || strlen (v) >= sizeof sl.versions)
    bad ("glibc=%s: not a glibc version MAJOR.MINOR or a range of them", v);
  if (sl.lo > sl.hi)
    bad ("glibc=%s runs backwards", v);
  snprintf (sl.versions, sizeof sl.versions, "%s", v);
  char *end;
  sl.amount = strtod (w[2].text + 1, &end);
  if (w[2].text[0] != '+' || *end != 0 || end == w[2].text + 1
      || !(sl.amount >= 0) || !isfinite (sl.amount))
    bad ("slack '%s' is not +AMOUNT, a ratio of 0 or more", w[2].text);
  slacks = grow (slacks, nslacks, sizeof *slacks);
  slacks[nslacks++] = sl;
}

/* check CASE[,CASE...] [aligned|misaligned|random] "TITLE"  */
static void
parse_check (const struct word *w, int n)
{
  finish_check ();
  if (n < 3 || n > 4 || !w[n - 1].quoted)
    bad ("'check' takes CASE[,CASE...], an optional layout and a quoted "
	 "title");
  struct check_list *l = current_checks ();
  l->v = grow (l->v, l->n, sizeof *l->v);
  struct check *c = &l->v[l->n++];
  memset (c, 0, sizeof *c);
  char copy[256], *save = NULL;
  snprintf (copy, sizeof copy, "%s", w[1].text);
  for (char *tok = strtok_r (copy, ",", &save); tok != NULL;
       tok = strtok_r (NULL, ",", &save))
    {
      int id = fcb_case_by_name (tok);
      if (id < 0)
	bad ("unknown case '%s' (fastcopy-bench --list names them)", tok);
      c->cases |= 1u << id;
    }
  if (c->cases == 0)
    bad ("'check' names no case");
  if (n == 4)
    {
      static const char *const layouts[] = { "aligned", "misaligned",
					     "random" };
      for (size_t i = 0; i < N_OF (layouts); i++)
	if (strcmp (w[2].text, layouts[i]) == 0)
	  c->align = layouts[i];
      if (c->align == NULL || w[2].quoted)
	bad ("unknown layout '%s' (aligned, misaligned, random)", w[2].text);
    }
  label_value (&w[n - 1], c->title, "the title");
  if (strchr (c->title, '{') != NULL)
    bad ("a check's title has no placeholders");
}

/* The factor TEXT of KEY (cliff=, peers=): a number above 0.  */
static double
factor_value (const char *text, const char *key)
{
  char *end;
  double f = strtod (text, &end);
  if (*end != 0 || end == text || !(f > 0) || !isfinite (f))
    bad ("%s%s: not a factor above 0", key, text);
  return f;
}

/* each|geomean|worst [LO-HI] [cliff=F] [peers=F] [net] <= GOAL "LABEL"  */
static void
parse_target (enum statistic stat, const struct word *w, int n)
{
  struct check_list *l = current_checks ();
  if (l->n == 0)
    bad ("a target before any 'check'");
  struct target t = { .stat = stat };
  int i = n - 3;		/* the "<=" */
  if (n < 4 || n > 8 || strcmp (w[i].text, "<=") != 0 || !w[n - 1].quoted)
    bad ("a target is STATISTIC [LO-HI] [cliff=F] [peers=F] [net] <= GOAL "
	 "\"LABEL\"");
  for (int q = 1; q < i; q++)
    if (strncmp (w[q].text, "cliff=", 6) == 0 && t.cliff == 0)
      t.cliff = factor_value (w[q].text + 6, "cliff=");
    else if (strncmp (w[q].text, "peers=", 6) == 0 && t.peers == 0)
      t.peers = factor_value (w[q].text + 6, "peers=");
    else if (strcmp (w[q].text, "net") == 0 && !w[q].quoted)
      {
	if (t.net)
	  bad ("'net' is written twice");
	t.net = 1;
      }
    else if (!t.ranged && !w[q].quoted)
      {
	t.ranged = 1;
	range_value (w[q].text, &t.lo, &t.hi);
      }
    else
      bad ("a target is STATISTIC [LO-HI] [cliff=F] [peers=F] [net] <= GOAL "
	   "\"LABEL\"");
  char *end;
  t.goal = strtod (w[i + 1].text, &end);
  if (*end != 0 || end == w[i + 1].text || !(t.goal > 0) || !isfinite (t.goal))
    bad ("goal '%s' is not a ratio above 0", w[i + 1].text);
  label_value (&w[n - 1], t.label, "the label");
  for (const char *p = strchr (t.label, '{'); p != NULL; p = strchr (p + 1, '{'))
    if (strncmp (p, "{name}", 6) == 0)
      {
	if (stat != STAT_EACH)
	  bad ("{name} is only for 'each' targets");
      }
    else if (strncmp (p, "{measured}", 10) == 0)
      {
	if (stat == STAT_EACH || !t.ranged)
	  bad ("{measured} needs a 'geomean' or 'worst' target with a range");
      }
    else
      bad ("unknown placeholder in '%s' ({name}, {measured})", t.label);
  struct check *c = &l->v[l->n - 1];
  c->targets = grow (c->targets, c->ntargets, sizeof *c->targets);
  c->targets[c->ntargets++] = t;
}

static void
parse_file (FILE *f)
{
  char *line = NULL;
  size_t cap = 0;
  ssize_t len;
  lineno = 0;
  while ((len = getline (&line, &cap, f)) >= 0)
    {
      lineno++;
      if ((size_t) len != strlen (line))
	bad ("a NUL byte");
      while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
	line[--len] = 0;
      struct word w[MAX_WORDS];
      int n = split (line, w);
      if (n == 0)
	continue;
      if (w[0].quoted)
	bad ("a line starts with a keyword, not a quoted text");
      if (strcmp (w[0].text, "set") == 0)
	parse_set (w, n);
      else if (strcmp (w[0].text, "slack") == 0)
	parse_slack (w, n);
      else if (strcmp (w[0].text, "check") == 0)
	parse_check (w, n);
      else if (strcmp (w[0].text, "each") == 0)
	parse_target (STAT_EACH, w, n);
      else if (strcmp (w[0].text, "geomean") == 0)
	parse_target (STAT_GEOMEAN, w, n);
      else if (strcmp (w[0].text, "worst") == 0)
	parse_target (STAT_WORST, w, n);
      else
	bad ("unknown keyword '%s' (set, slack, check, each, geomean, "
	     "worst)", w[0].text);
    }
  if (ferror (f))
    error_exit (1, "%s: %s", targets_path, strerror (errno));
  free (line);
  finish_set ();
  if (nsets == 0)
    error_exit (1, "%s: no target set", targets_path);
}

static int
has_targets (const char *dir)
{
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/%s", dir, TARGETS_FILE);
  return access (path, F_OK) == 0;
}

void
fcb_load_targets (const struct fastcopy_cpu *cpu, const char *glibc)
{
  const char *dir = fcb_data_dir (opt.data, has_targets);
  if (dir == NULL)
    {
      if (opt.strict)
	error_exit (1, "--strict: no %s found (looked in %s)", TARGETS_FILE,
		    fcb_data_places_text ());
      return;
    }
  snprintf (targets_path, sizeof targets_path, "%s/%s", dir, TARGETS_FILE);
  FILE *f = fopen (targets_path, "r");
  if (f == NULL)
    error_exit (1, "%s: %s", targets_path, strerror (errno));
  parse_file (f);
  fclose (f);
  snprintf (cpu_text, sizeof cpu_text, "%s family %u model %u", cpu->vendor,
	    cpu->family, cpu->model);
  snprintf (cpu_row, sizeof cpu_row, "%s", lib.policy_matched ("auto")->name);
  for (size_t i = 0; i < nsets && chosen == NULL; i++)
    {
      if (sets[i].nrows == 0)
	chosen = &sets[i];
      for (size_t k = 0; k < sets[i].nrows && chosen == NULL; k++)
	if (strcmp (sets[i].rows[k], cpu_row) == 0)
	  chosen = &sets[i];
    }
  if (chosen == NULL && opt.strict)
    error_exit (1, "--strict: no target set of %s applies to this CPU (%s)",
		targets_path, cpu_text);
  snprintf (glibc_version, sizeof glibc_version, "%s", glibc);
  unsigned int v = version_value (glibc);
  for (size_t i = 0; i < nslacks && slack == NULL; i++)
    if (v >= slacks[i].lo && v <= slacks[i].hi)
      slack = &slacks[i];
}

/* ------------------------------------------------------------------ */
/* Judging.  */

static int *counts;		/* per verdict */
static int partial;		/* targets judged on part of their points */

/* One line of the summary; EXTRA (the floor, the peers' values, notes)
   follows the verdict.  */
static void
line (const char *what, const char *measured, const char *goal,
      enum verdict v, const char *extra)
{
  static const char *const word[] = { "yes", "NO", "-", "n/a" };
  printf ("%-52s %-28s %-12s %s%s\n", what, measured, goal, word[v], extra);
  counts[v]++;
}

/* A group whose points C judges: of one of its cases and its layout, and
   measured.  */
static int
judged (const struct check *c, const struct group *g)
{
  return (c->cases & (1u << g->cid)) != 0
	 && (c->align == NULL || strcmp (c->align, g->align) == 0)
	 && g->count > 0 && points[g->first].done;
}

/* Where P lies on its group's axis: the distance for the distance sweep,
   else the size.  */
static double
x_of (const struct group *g, const struct point *p)
{
  return g->xkind == X_DISTANCE ? (double) p->distance : (double) p->size;
}

static int
in_range (const struct target *t, double x)
{
  return !t->ranged || (x >= t->lo && x <= t->hi);
}

/* P for the summary: a distance, a distribution, or a size; the cold
   groups name the function too, as one check may span memset and bzero,
   and the hot ones the layout, if C spans both.  */
static void
point_text (const struct check *c, const struct group *g,
	    const struct point *p, char *buf, size_t len)
{
  char b[16];
  fc_size_format (p->size, FC_SIZE_1_DECIMAL, b, sizeof b);
  if (g->xkind == X_DISTANCE)
    snprintf (buf, len, "%ld", p->distance);
  else if (g->xkind == X_DIST)
    snprintf (buf, len, "%s", p->dist->name);
  else if (strcmp (g->cache, "cold") == 0)
    snprintf (buf, len, "%s %s", func_names[g->func], b);
  else
    snprintf (buf, len, "%s%s%s", b, c->align ? "" : " ",
	      c->align ? "" : g->align);
}

/* LABEL with {name} replaced by NAME and {measured} by MEASURED.  */
static void
expand (const char *label, const char *name, const char *measured,
	char *out, size_t len)
{
  size_t o = 0;
  out[0] = 0;
  for (const char *p = label; *p != 0 && o + 1 < len;)
    {
      const char *with = NULL;
      if (strncmp (p, "{name}", 6) == 0)
	with = name, p += 6;
      else if (strncmp (p, "{measured}", 10) == 0)
	with = measured, p += 10;
      if (with != NULL)
	o += (size_t) snprintf (out + o, len - o, "%s", with);
      else
	out[o++] = *p++, out[o] = 0;
    }
}

/* The value target T judges for contender K at P: its ratio, or for a
   net target its net ratio.  */
static double
value_at (const struct target *t, const struct point *p, int k)
{
  return t->net ? fcb_point_net_ratio (p, k) : fcb_ratio (p, k);
}

/* V with 3 decimals, or "-" for no value.  */
static const char *
value_text (double v, char *buf, size_t len)
{
  if (isnan (v))
    snprintf (buf, len, "-");
  else
    snprintf (buf, len, "%.3f", v);
  return buf;
}

/* One contender over a target's points: the sums of the logarithms of
   its ratios and of the null contender's, for the geometric means, and
   its largest value in the target's form, with where it is.  */
struct tally
{
  size_t n;
  double logsum, lognull;
  double worst;
  const struct group *wg;	/* where the worst is; NULL: no value */
  const struct point *wp;
};

static void
tally_add (struct tally *t, const struct target *tg, const struct group *g,
	   const struct point *p, int k)
{
  t->n++;
  t->logsum += log (fcb_ratio (p, k));
  t->lognull += log (fcb_ratio (p, NULL_CONTENDER));
  double v = value_at (tg, p, k);
  if (!isnan (v) && (t->wp == NULL || v > t->worst))
    t->worst = v, t->wg = g, t->wp = p;
}

/* The geometric mean of the ratios, and of the null contender's.  */
static double
tally_geomean (const struct tally *t)
{
  return exp (t->logsum / (double) t->n);
}

static double
tally_null (const struct tally *t)
{
  return exp (t->lognull / (double) t->n);
}

/* The statistic of target TG over the tally, in its form: a net geometric
   mean is the net ratio of the geometric means, as the tables give it;
   NAN where there is none.  */
static double
tally_value (const struct tally *t, const struct target *tg)
{
  if (t->n == 0)
    return NAN;
  if (tg->stat != STAT_GEOMEAN)
    return t->wp ? t->worst : NAN;
  return tg->net ? fcb_net_ratio (tally_geomean (t), 1, tally_null (t))
		 : tally_geomean (t);
}

/* The value of target T for peer J at P, or NAN where that peer was not
   measured (a peer without bzero).  */
static double
peer_value (const struct target *t, const struct point *p, int j)
{
  int k = fcb_contender_index (p->cs, lib.peers[j].label);
  return k < 0 ? NAN : value_at (t, p, k);
}

/* "  aocl-libmem 0.412" (a net target: "  aocl-libmem net 0.283") for
   every peer with a value: its value at point P, or if P is NULL the
   statistic of its tally PEERS[J].  */
static void
peers_text (const struct tally *peers, const struct target *t,
	    const struct point *p, char *buf, size_t len)
{
  size_t o = 0;
  buf[0] = 0;
  for (int j = 0; j < lib.npeers && o < len; j++)
    {
      double v = p ? peer_value (t, p, j) : tally_value (&peers[j], t);
      if (!isnan (v))
	o += (size_t) snprintf (buf + o, len - o, "  %s %s%.3f",
				lib.peers[j].label, t->net ? "net " : "", v);
    }
}

/* The floor beside libfastcopy's value of target T: the null contender's
   ratio and libfastcopy's figure in the other form, "  (null 0.279, net
   0.262)" or for a net target "  (null 0.279, ratio 0.463)"; at P, or if
   P is NULL their geometric means over the tally FC.  */
static void
floor_text (const struct target *t, const struct tally *fc,
	    const struct point *p, char *buf, size_t len)
{
  double null, ratio, net;
  if (p != NULL)
    {
      null = fcb_ratio (p, NULL_CONTENDER);
      ratio = fcb_ratio (p, 1);
      net = fcb_point_net_ratio (p, 1);
    }
  else
    {
      null = tally_null (fc);
      ratio = tally_geomean (fc);
      net = fcb_net_ratio (ratio, 1, null);
    }
  char b[16];
  snprintf (buf, len, "  (null %.3f, %s %s)", null, t->net ? "ratio" : "net",
	    value_text (t->net ? ratio : net, b, sizeof b));
}

/* The goal of T as it applies to this run: with the slack, if any.  */
static double
goal_of (const struct target *t)
{
  return t->goal + (slack ? slack->amount : 0);
}

static void
goal_text (const struct target *t, char *buf, size_t len)
{
  snprintf (buf, len, "%s<= %.2f", t->net ? "net " : "", goal_of (t));
}

/* Glibc's median time over the measured points of G.  */
static double
glibc_median (const struct group *g)
{
  double *t = malloc (g->count * sizeof *t);
  if (t == NULL)
    error_exit (1, "out of memory");
  unsigned int m = 0;
  for (size_t i = g->first; i < g->first + g->count; i++)
    if (points[i].done)
      t[m++] = points[i].med[0];
  double med = fcm_median (t, m);
  free (t);
  return med;
}

/* How many of the full run's points of G lie in T's range.  */
static size_t
full_points_in_range (const struct target *t, const struct group *g)
{
  static double x[FCB_MAX_POINTS];
  size_t n = fcb_full_points (g->cid, x), in = 0;
  for (size_t i = 0; i < n; i++)
    in += in_range (t, x[i]);
  return in;
}

/* Whether V, a statistic of T (at point P for 'each', else over the
   tallies PEERS), is at most T's peers factor times every peer's value
   of the same: always when T asks nothing of the peers or none was
   measured.  */
static int
ahead_of_peers (const struct target *t, double v, const struct tally *peers,
		const struct point *p)
{
  if (t->peers == 0)
    return 1;
  for (int j = 0; j < lib.npeers; j++)
    {
      double pv = p ? peer_value (t, p, j) : tally_value (&peers[j], t);
      if (!isnan (pv) && v > t->peers * pv)
	return 0;
    }
  return 1;
}

/* The line of target T, LABEL, whose value is V (WHERE follows it, " at
   96 B"): met when V is at most the goal and ahead of the peers.  For
   'each', the floor and the peers' values are at P; else the peers' are
   their statistics over the tallies PEERS, and the floor is at the worst
   point or over the tally FC.  NOTE ends the line.  A net value may be
   missing (glibc no slower than the null contender): nothing to
   judge.  */
static void
judge_value (const struct target *t, const char *label, double v,
	     const char *where, const char *goal, const struct tally *fc,
	     const struct tally *peers, const struct point *p,
	     const char *note)
{
  char measured[96], extra[320];
  if (isnan (v))
    {
      snprintf (extra, sizeof extra, "  (glibc's work under 5%% of its time)%s", note);
      line (label, "no net ratio", goal, NOT_APPLICABLE, extra);
      return;
    }
  snprintf (measured, sizeof measured, "%.3f%s", v, where);
  floor_text (t, fc, p ? p : t->stat == STAT_WORST ? fc->wp : NULL, extra,
	      sizeof extra);
  size_t len = strlen (extra);
  peers_text (peers, t, p, extra + len, sizeof extra - len);
  len = strlen (extra);
  if (t->peers > 0 && len < sizeof extra)
    len += (size_t) snprintf (extra + len, sizeof extra - len,
			      "  (and at most %.2f x each peer's)", t->peers);
  if (len < sizeof extra)
    snprintf (extra + len, sizeof extra - len, "%s", note);
  line (label, measured, goal,
	v <= goal_of (t) && ahead_of_peers (t, v, peers, p) ? MET : MISSED,
	extra);
}

/* Print the line of target T of check C, or for 'each' a line per
   point.  */
static void
judge (const struct check *c, const struct target *t)
{
  char goal[24], label[160], measured[96], name[80], b1[64], b2[16];
  char extra[256], note[96] = "";
  goal_text (t, goal, sizeof goal);
  struct tally fc = { 0 }, peers[MAX_PEERS];
  memset (peers, 0, sizeof peers);
  double seen_hi = 0, steepest = 0, cliff_lo = INFINITY, cliff_hi = 0;
  size_t in_range_n = 0, full_n = 0;
  for (size_t gi = 0; gi < ngroups; gi++)
    {
      const struct group *g = &groups[gi];
      if (!judged (c, g))
	continue;
      double median = t->cliff > 0 ? glibc_median (g) : 0;
      full_n += full_points_in_range (t, g);
      for (size_t i = g->first; i < g->first + g->count; i++)
	{
	  const struct point *p = &points[i];
	  double x = x_of (g, p);
	  if (!p->done || !in_range (t, x))
	    continue;
	  in_range_n++;
	  if (x > seen_hi)
	    seen_hi = x;
	  if (t->cliff > 0)
	    {
	      double steep = p->med[0] / median;
	      steepest = steep > steepest ? steep : steepest;
	      if (steep < t->cliff)
		continue;
	      cliff_lo = x < cliff_lo ? x : cliff_lo;
	      cliff_hi = x > cliff_hi ? x : cliff_hi;
	    }
	  tally_add (&fc, t, g, p, 1);
	  for (int j = 0; j < lib.npeers; j++)
	    {
	      int k = fcb_contender_index (p->cs, lib.peers[j].label);
	      if (k >= 0)
		tally_add (&peers[j], t, g, p, k);
	    }
	  if (t->stat == STAT_EACH)
	    {
	      point_text (c, g, p, name, sizeof name);
	      expand (t->label, name, "", label, sizeof label);
	      judge_value (t, label, value_at (t, p, 1), "", goal, &fc,
			   peers, p, "");
	    }
	}
    }
  if (in_range_n == 0)
    {
      line (c->title, "not measured", goal, NOT_MEASURED, "");
      return;
    }
  snprintf (measured, sizeof measured, "%s-%s",
	    fc_size_format ((unsigned long long) t->lo, FC_SIZE_1_DECIMAL, b1,
			    sizeof b1),
	    fc_size_format ((unsigned long long) seen_hi, FC_SIZE_1_DECIMAL,
			    b2, sizeof b2));
  expand (t->label, "", measured, label, sizeof label);
  if (in_range_n < full_n)
    {
      partial++;
      snprintf (note, sizeof note, "  (on %zu of the full run's %zu %s)",
		in_range_n, full_n,
		c->cases == 1u << CASE_MEMCPY_DISTANCE ? "distances" : "points");
    }
  if (fc.n == 0)
    {
      /* A cliff target where glibc has none.  */
      snprintf (extra, sizeof extra, "  (glibc's slowest is %.1fx its "
		"median)%s", steepest, note);
      line (label, "no cliff in glibc", goal, NOT_APPLICABLE, extra);
      return;
    }
  if (t->stat == STAT_EACH)
    return;
  if (t->cliff > 0)
    {
      size_t len = strlen (note);
      snprintf (note + len, sizeof note - len, "  (the cliff: %zu of them, "
		"from %g to %g)", fc.n, cliff_lo, cliff_hi);
    }
  name[0] = 0;
  if (t->stat == STAT_WORST && fc.wp != NULL)
    {
      point_text (c, fc.wg, fc.wp, b1, sizeof b1);
      snprintf (name, sizeof name, " at %s", b1);
    }
  judge_value (t, label, tally_value (&fc, t), name, goal, &fc, peers, NULL,
	       note);
}

static void
judge_checks (const struct check_list *l)
{
  for (size_t i = 0; i < l->n; i++)
    {
      const struct check *c = &l->v[i];
      int ran = 0;
      for (size_t gi = 0; gi < ngroups; gi++)
	ran |= judged (c, &groups[gi]);
      /* One line for the whole check, with the goal if it has one.  */
      char goal[16] = "";
      if (!ran && c->ntargets == 1)
	goal_text (&c->targets[0], goal, sizeof goal);
      if (!ran)
	line (c->title, "not measured", goal, NOT_MEASURED, "");
      for (size_t k = 0; ran && k < c->ntargets; k++)
	judge (c, &c->targets[k]);
    }
}

/* Which set applies and why, and whether a slack raised the goals.  */
static void
print_choice (void)
{
  printf ("target set '%s' (line %u) from %s\n", chosen->name, chosen->line,
	  targets_path);
  if (chosen->nrows > 0)
    printf ("  applies: the library matched this CPU, %s, to the row %s, of "
	    "%s\n", cpu_text, cpu_row, chosen->rows_text);
  else
    {
      printf ("  applies: the fallback; the library matched this CPU, %s, "
	      "to the row %s, which no earlier set lists", cpu_text, cpu_row);
      for (const struct target_set *s = sets; s < chosen; s++)
	printf ("%s%s", s == sets ? " (" : ", ", s->name);
      printf ("%s\n", chosen == sets ? "" : ")");
    }
  if (slack != NULL)
    printf ("  goals: each raised by %.2f, as the slack line %u "
	    "(glibc=%s) says for the glibc measured, %s\n", slack->amount,
	    slack->line, slack->versions, glibc_version);
  else
    printf ("  goals: as written; no slack line is for the glibc measured, "
	    "%s\n", glibc_version);
}

void
fcb_judge_targets (int count[VERDICTS])
{
  counts = count;
  if (targets_path[0] == 0)
    {
      printf ("no targets: no %s found (looked in %s)\n", TARGETS_FILE,
	      fcb_data_places_text ());
      return;
    }
  if (chosen == NULL)
    {
      printf ("no target set of %s applies to this CPU (%s)\n", targets_path,
	      cpu_text);
      return;
    }
  print_choice ();
  printf ("%-52s %-28s %-12s %s\n", "target", "measured", "goal", "met");
  judge_checks (&chosen->checks);
  judge_checks (&common);
  if (partial > 0)
    printf ("%d target%s judged on part of the full run's points (quick "
	    "mode); run without --quick to judge %s in full\n", partial,
	    partial == 1 ? "" : "s", partial == 1 ? "it" : "them");
}
