/* fastcopy-bench: the targets of the summary, read at run time from the
   targets file (data/targets.conf; its format: that file's opening comment
   and fastcopy-bench(1), TARGETS).

   The file holds target sets.  Each set has a CPU condition (vendor,
   family, model range, required features; none for the fallback), and the
   first set whose condition this CPU meets applies.  A set is a list of
   checks; a check names the cases (and layout) whose points its targets
   are judged on, and the title the summary prints when none of them ran.
   A target is a statistic of libfastcopy's ratio to glibc over the points
   in a range (each point alone, their geometric mean, the worst) and the
   largest ratio that meets it.  */

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
  double goal;			/* met when the ratio is at most this */
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

struct target_set
{
  char name[32];
  unsigned int line;
  char condition[160];		/* as written, words joined by spaces;
				   "": any CPU, the fallback */
  char vendor[13];		/* "": any */
  int has_family, has_model;
  unsigned int family, model_lo, model_hi;
  unsigned long long features;	/* FASTCOPY_CPU_* bits, all required */
  struct check *checks;
  size_t nchecks;
};

static char targets_path[PATH_MAX];	/* "": no file found */
static struct target_set *sets;
static size_t nsets;
static const struct target_set *chosen;

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
  fcb_die ("%s:%u: %s", targets_path, lineno, msg);
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
    fcb_die ("out of memory");
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

/* A whole number, decimal or 0x-hexadecimal, up to MAX.  */
static unsigned long long
number (const char *s, const char *what, unsigned long long max)
{
  char *end;
  errno = 0;
  unsigned long long v = strtoull (s, &end, 0);
  if (*s < '0' || *s > '9' || *end != 0 || errno != 0 || v > max)
    bad ("%s: '%s' is not a number from 0 to %llu", what, s, max);
  return v;
}

/* A size: a whole number with an optional B, KiB, MiB or GiB.  */
static double
size_value (const char *s, const char *what)
{
  static const struct { const char *unit; double bytes; } units[] = {
    { "", 1 }, { "B", 1 }, { "KiB", 1024 }, { "MiB", 1024.0 * 1024 },
    { "GiB", 1024.0 * 1024 * 1024 } };
  size_t digits = strspn (s, "0123456789");
  for (size_t i = 0; digits > 0 && i < N_OF (units); i++)
    if (strcmp (s + digits, units[i].unit) == 0)
      {
	char n[24];
	if (digits >= sizeof n)
	  break;
	snprintf (n, sizeof n, "%.*s", (int) digits, s);
	return (double) number (n, what, 1ull << 50) * units[i].bytes;
      }
  bad ("%s: '%s' is not a number, a size in B, KiB, MiB or GiB", what, s);
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

/* The set, check and target being filled in: each must be complete
   before the next one of its kind starts, and at the end.  */
static void
finish_check (void)
{
  struct target_set *s = nsets ? &sets[nsets - 1] : NULL;
  if (s != NULL && s->nchecks > 0 && s->checks[s->nchecks - 1].ntargets == 0)
    bad ("the check \"%s\" has no targets", s->checks[s->nchecks - 1].title);
}

static void
finish_set (void)
{
  finish_check ();
  if (nsets > 0 && sets[nsets - 1].nchecks == 0)
    bad ("the set '%s' has no checks", sets[nsets - 1].name);
}

static void
parse_feature_list (const char *list, struct target_set *s)
{
  char copy[160], *save = NULL;
  snprintf (copy, sizeof copy, "%s", list);
  for (char *tok = strtok_r (copy, ",", &save); tok != NULL;
       tok = strtok_r (NULL, ",", &save))
    {
      unsigned int b = 0;
      while (lib.feature_name (b) != NULL
	     && strcasecmp (lib.feature_name (b), tok) != 0)
	b++;
      if (lib.feature_name (b) == NULL)
	bad ("unknown CPU feature '%s' (fastcopy-info names them)", tok);
      s->features |= 1ull << b;
    }
  if (s->features == 0)
    bad ("features= names no feature");
}

/* set NAME [vendor=V] [family=N] [model=N|LO-HI] [features=F,...]  */
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
      if (sets[i].condition[0] == 0)
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
  for (int i = 2; i < n; i++)
    {
      const char *eq = strchr (w[i].text, '=');
      if (w[i].quoted || eq == NULL)
	bad ("'%s' is not a condition KEY=VALUE", w[i].text);
      size_t klen = (size_t) (eq - w[i].text);
      const char *v = eq + 1;
      for (int j = 2; j < i; j++)
	if (strncmp (w[j].text, w[i].text, klen + 1) == 0)
	  bad ("%.*s is given twice", (int) klen + 1, w[i].text);
      if (klen == 6 && strncmp (w[i].text, "vendor", 6) == 0)
	{
	  if (*v == 0 || strlen (v) >= sizeof s->vendor)
	    bad ("vendor=: '%s' is not a CPU vendor (\"GenuineIntel\", "
		 "\"AuthenticAMD\", ...)", v);
	  snprintf (s->vendor, sizeof s->vendor, "%s", v);
	}
      else if (klen == 6 && strncmp (w[i].text, "family", 6) == 0)
	{
	  s->has_family = 1;
	  s->family = (unsigned int) number (v, "family=", UINT_MAX);
	}
      else if (klen == 5 && strncmp (w[i].text, "model", 5) == 0)
	{
	  char lo[24];
	  const char *dash = strchr (v, '-');
	  snprintf (lo, sizeof lo, "%.*s", dash ? (int) (dash - v) : 23, v);
	  s->has_model = 1;
	  s->model_lo = (unsigned int) number (lo, "model=", UINT_MAX);
	  s->model_hi = dash ? (unsigned int) number (dash + 1, "model=",
						      UINT_MAX)
			     : s->model_lo;
	  if (s->model_lo > s->model_hi)
	    bad ("model=%s runs backwards", v);
	}
      else if (klen == 8 && strncmp (w[i].text, "features", 8) == 0)
	parse_feature_list (v, s);
      else
	bad ("unknown condition '%.*s' (vendor, family, model, features)",
	     (int) klen, w[i].text);
      size_t len = strlen (s->condition);
      if (len + strlen (w[i].text) + 2 > sizeof s->condition)
	bad ("the conditions are longer than %zu characters",
	     sizeof s->condition - 2);
      snprintf (s->condition + len, sizeof s->condition - len, "%s%s",
		len ? " " : "", w[i].text);
    }
}

/* check CASE[,CASE...] [aligned|misaligned|random] "TITLE"  */
static void
parse_check (const struct word *w, int n)
{
  if (nsets == 0)
    bad ("'check' before any 'set'");
  finish_check ();
  if (n < 3 || n > 4 || !w[n - 1].quoted)
    bad ("'check' takes CASE[,CASE...], an optional layout and a quoted "
	 "title");
  struct target_set *s = &sets[nsets - 1];
  s->checks = grow (s->checks, s->nchecks, sizeof *s->checks);
  struct check *c = &s->checks[s->nchecks++];
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

/* each|geomean|worst [LO-HI] <= GOAL "LABEL"  */
static void
parse_target (enum statistic stat, const struct word *w, int n)
{
  if (nsets == 0 || sets[nsets - 1].nchecks == 0)
    bad ("a target before any 'check'");
  struct target t = { .stat = stat, .ranged = n == 5 };
  int i = n - 3;		/* the "<=" */
  if (n < 4 || n > 5 || strcmp (w[i].text, "<=") != 0 || !w[n - 1].quoted)
    bad ("a target is STATISTIC [LO-HI] <= GOAL \"LABEL\"");
  if (t.ranged)
    range_value (w[1].text, &t.lo, &t.hi);
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
  struct check *c = &sets[nsets - 1].checks[sets[nsets - 1].nchecks - 1];
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
      else if (strcmp (w[0].text, "check") == 0)
	parse_check (w, n);
      else if (strcmp (w[0].text, "each") == 0)
	parse_target (STAT_EACH, w, n);
      else if (strcmp (w[0].text, "geomean") == 0)
	parse_target (STAT_GEOMEAN, w, n);
      else if (strcmp (w[0].text, "worst") == 0)
	parse_target (STAT_WORST, w, n);
      else
	bad ("unknown keyword '%s' (set, check, each, geomean, worst)",
	     w[0].text);
    }
  if (ferror (f))
    fcb_die ("%s: %s", targets_path, strerror (errno));
  free (line);
  finish_set ();
  if (nsets == 0)
    fcb_die ("%s: no target set", targets_path);
}

static int
has_targets (const char *dir)
{
  char path[PATH_MAX];
  snprintf (path, sizeof path, "%s/%s", dir, TARGETS_FILE);
  return access (path, F_OK) == 0;
}

static int
applies (const struct target_set *s, const struct fastcopy_cpu *cpu)
{
  return (s->vendor[0] == 0 || strcmp (s->vendor, cpu->vendor) == 0)
	 && (!s->has_family || s->family == cpu->family)
	 && (!s->has_model || (cpu->model >= s->model_lo
			       && cpu->model <= s->model_hi))
	 && (s->features & ~cpu->features) == 0;
}

void
fcb_load_targets (const struct fastcopy_cpu *cpu)
{
  const char *dir = fcb_data_dir (has_targets);
  if (dir == NULL)
    {
      if (opt.strict)
	fcb_die ("--strict: no %s found (looked in %s)", TARGETS_FILE,
		 fcb_data_places_text ());
      return;
    }
  snprintf (targets_path, sizeof targets_path, "%s/%s", dir, TARGETS_FILE);
  FILE *f = fopen (targets_path, "r");
  if (f == NULL)
    fcb_die ("%s: %s", targets_path, strerror (errno));
  parse_file (f);
  fclose (f);
  for (size_t i = 0; i < nsets && chosen == NULL; i++)
    if (applies (&sets[i], cpu))
      chosen = &sets[i];
  if (chosen == NULL && opt.strict)
    fcb_die ("--strict: no target set of %s applies to this CPU (%s family %u"
	     " model %u)", targets_path, cpu->vendor, cpu->family, cpu->model);
}

/* ------------------------------------------------------------------ */
/* Judging.  */

static int *count_met, *count_missed, *count_unmeasured;

static void
line (const char *what, const char *measured, const char *goal, int state)
{
  /* state: 1 met, 0 missed, -1 not measured */
  printf ("%-52s %-24s %-10s %s\n", what, measured, goal,
	  state > 0 ? "yes" : state == 0 ? "NO" : "-");
  if (state > 0)
    ++*count_met;
  else if (state == 0)
    ++*count_missed;
  else
    ++*count_unmeasured;
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
in_range (const struct target *t, const struct group *g, const struct point *p)
{
  return p->done && (!t->ranged || (x_of (g, p) >= t->lo
				    && x_of (g, p) <= t->hi));
}

/* P for the summary: a distance, a distribution, or a size; the cold
   groups name the function too, as one check may span memset and bzero.  */
static void
point_text (const struct group *g, const struct point *p, char *buf,
	    size_t len)
{
  char b[16];
  if (g->xkind == X_DISTANCE)
    snprintf (buf, len, "%ld", p->distance);
  else if (g->xkind == X_DIST)
    snprintf (buf, len, "%s", p->dist->name);
  else if (strcmp (g->cache, "cold") == 0)
    snprintf (buf, len, "%s %s", func_names[g->func],
	      fcb_format_size (b, sizeof b, (double) p->size));
  else
    snprintf (buf, len, "%zu B", p->size);
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

static void
goal_text (const struct target *t, char *buf, size_t len)
{
  snprintf (buf, len, "<= %.2f", t->goal);
}

/* Print the line of target T of check C, or for 'each' a line per
   point.  */
static void
judge (const struct check *c, const struct target *t)
{
  char goal[16], label[160], measured[96], name[64], b1[16], b2[16];
  goal_text (t, goal, sizeof goal);
  double sum = 0, worst = 0, seen_hi = 0;
  size_t n = 0;
  const struct group *wg = NULL;
  const struct point *wp = NULL;
  for (size_t gi = 0; gi < ngroups; gi++)
    {
      const struct group *g = &groups[gi];
      if (!judged (c, g))
	continue;
      for (size_t i = g->first; i < g->first + g->count; i++)
	{
	  const struct point *p = &points[i];
	  if (!in_range (t, g, p))
	    continue;
	  double r = fcb_ratio (p, 1);
	  n++;
	  sum += log (r);
	  if (wp == NULL || r > worst)
	    worst = r, wg = g, wp = p;
	  if (x_of (g, p) > seen_hi)
	    seen_hi = x_of (g, p);
	  if (t->stat == STAT_EACH)
	    {
	      point_text (g, p, name, sizeof name);
	      expand (t->label, name, "", label, sizeof label);
	      snprintf (measured, sizeof measured, "%.3f", r);
	      line (label, measured, goal, r <= t->goal);
	    }
	}
    }
  if (n == 0)
    line (c->title, "not measured", goal, -1);
  if (n == 0 || t->stat == STAT_EACH)
    return;
  snprintf (measured, sizeof measured, "%s-%s",
	    fcb_format_size (b1, sizeof b1, t->lo),
	    fcb_format_size (b2, sizeof b2, seen_hi));
  expand (t->label, "", measured, label, sizeof label);
  if (t->stat == STAT_GEOMEAN)
    {
      double gm = exp (sum / (double) n);
      snprintf (measured, sizeof measured, "%.3f", gm);
      line (label, measured, goal, gm <= t->goal);
    }
  else
    {
      point_text (wg, wp, name, sizeof name);
      snprintf (measured, sizeof measured, "%.3f at %s", worst, name);
      line (label, measured, goal, worst <= t->goal);
    }
}

void
fcb_judge_targets (int *met, int *missed, int *unmeasured)
{
  count_met = met;
  count_missed = missed;
  count_unmeasured = unmeasured;
  if (targets_path[0] == 0)
    {
      printf ("no targets: no %s found (looked in %s)\n", TARGETS_FILE,
	      fcb_data_places_text ());
      return;
    }
  if (chosen == NULL)
    {
      printf ("no target set of %s applies to this CPU\n", targets_path);
      return;
    }
  printf ("target set '%s' (%s) from %s\n", chosen->name,
	  chosen->condition[0] ? chosen->condition
	  : "no CPU condition: the fallback", targets_path);
  printf ("%-52s %-24s %-10s %s\n", "target", "measured", "goal", "met");
  for (size_t i = 0; i < chosen->nchecks; i++)
    {
      const struct check *c = &chosen->checks[i];
      int ran = 0;
      for (size_t gi = 0; gi < ngroups; gi++)
	ran |= judged (c, &groups[gi]);
      /* One line for the whole check, with the goal if it has one.  */
      char goal[16] = "";
      if (!ran && c->ntargets == 1)
	goal_text (&c->targets[0], goal, sizeof goal);
      if (!ran)
	line (c->title, "not measured", goal, -1);
      for (size_t k = 0; ran && k < c->ntargets; k++)
	judge (c, &c->targets[k]);
    }
}
