/* SPDX-License-Identifier: MIT */
/* fastcopy-fleet import: a class's counts, as exposition text (an
   exported file, or node_exporter's page) or as the result of a
   Prometheus instant query (JSON of /api/v1/query), back into a
   recording (fastcopy-fleet(1), METRICS).

   1. The input is read into samples: a metric name (none in a query
      result that aggregated it away), the labels this tool exported, and
      a value.  Series of other metrics are skipped; series of every host
      add up.
   2. The size histogram is checked whole: every bound of the export's
      grid and +Inf, for each family that has any, cumulative, and equal
      to its _count.  Its differences are the grid buckets' calls.
   3. The calls counters give the alignments, distances, overlaps and
      functions.  What the export leaves out stays out: the bytes of a
      range of sizes (taken at its middle size) and of the other rows
      (0).
   4. The bound's series give the bound of the sum, where every call of
      the histograms is of a host that states one (import_bound).  */

#define _GNU_SOURCE 1
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "common/message.h"
#include "common/xalloc.h"
#include "fleet/fleet.h"

struct sample
{
  char name[64];		/* "" when a query dropped it */
  /* The labels read; "" when absent.  */
  char le[32], family[8], kind[16], value[32], policy[32], cpu[64],
    impl[24];
  double v;
};

struct input
{
  const char *path;		/* as messages name it */
  struct sample *s;
  size_t n, cap;
};

static int __attribute__ ((format (printf, 3, 4)))
bad_input (const struct input *in, unsigned int line, const char *fmt, ...)
{
  char text[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (text, sizeof text, fmt, ap);
  va_end (ap);
  if (line)
    error_msg ("%s:%u: %s", in->path, line, text);
  else
    error_msg ("%s: %s", in->path, text);
  return -1;
}

static struct sample *
new_sample (struct input *in)
{
  if (in->n == in->cap)
    {
      in->cap = in->cap ? 2 * in->cap : 1024;
      in->s = xrealloc (in->s, in->cap * sizeof *in->s);
    }
  struct sample *s = &in->s[in->n++];
  memset (s, 0, sizeof *s);
  return s;
}

/* Keep label NAME's VALUE if it is one this tool reads.  Returns 0, or
   -1 when the value is too long to be one of ours.  */
static int
keep_label (struct sample *s, const char *name, const char *value)
{
  static const struct { const char *name; size_t off, size; } known[] = {
#define L(x) { #x, offsetof (struct sample, x), sizeof ((struct sample *) 0)->x }
    L (le), L (family), L (kind), L (value), L (policy), L (cpu), L (impl),
#undef L
    { "__name__", offsetof (struct sample, name), sizeof ((struct sample *) 0)->name }
  };
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcmp (name, known[i].name) == 0)
      {
	if (strlen (value) >= known[i].size)
	  return -1;
	strcpy ((char *) s + known[i].off, value);
      }
  return 0;
}

/* A sample's value: a number, +Inf, -Inf or NaN, the whole of TEXT.  */
static int
sample_value (const char *text, double *v)
{
  char *end;
  if (strcmp (text, "+Inf") == 0 || strcmp (text, "-Inf") == 0
      || strcmp (text, "NaN") == 0)
    {
      *v = text[0] == 'N' ? NAN : text[0] == '+' ? INFINITY : -INFINITY;
      return 0;
    }
  errno = 0;
  *v = strtod (text, &end);
  return end != text && *end == 0 && errno == 0 && !isspace ((unsigned char) *text)
	 ? 0 : -1;
}

static int
is_name_char (char c, int first)
{
  return isalpha ((unsigned char) c) || c == '_' || c == ':'
	 || (!first && isdigit ((unsigned char) c));
}

/* One line of exposition text that is not a comment: NAME{LABELS} VALUE
   [TIMESTAMP].  */
static int
exposition_sample (struct input *in, unsigned int ln, char *line)
{
  char *p = line;
  if (!is_name_char (*p, 1))
    return bad_input (in, ln, "expected a metric name, found '%.40s'", line);
  while (is_name_char (*p, 0))
    p++;
  size_t nlen = (size_t) (p - line);
  int ours = strncmp (line, "fastcopy_", 9) == 0;
  struct sample s;
  memset (&s, 0, sizeof s);
  if (nlen >= sizeof s.name)
    ours = 0;
  else
    memcpy (s.name, line, nlen);
  if (*p == '{')
    {
      p++;
      while (*p != '}')
	{
	  char *name = p;
	  while (is_name_char (*p, p == name) && *p != ':')
	    p++;
	  if (p == name || *p != '=' || p[1] != '"')
	    return bad_input (in, ln, "a malformed label at '%.40s'", name);
	  *p = 0;
	  p += 2;
	  char *value = p, *out = p;
	  while (*p != '"')
	    {
	      if (*p == 0)
		return bad_input (in, ln, "a label value without its closing "
				  "quote (the line was cut short?)");
	      if (*p == '\\')
		{
		  p++;
		  if (*p != '\\' && *p != '"' && *p != 'n')
		    return bad_input (in, ln, "'\\%c' is no escape of the "
				      "exposition format", *p ? *p : '?');
		  *out++ = *p == 'n' ? '\n' : *p;
		  p++;
		}
	      else
		*out++ = *p++;
	    }
	  *out = 0;
	  p++;
	  if (ours && keep_label (&s, name, value) != 0)
	    return bad_input (in, ln, "the label %s is too long to be "
			      "fastcopy-fleet's: '%.40s'", name, value);
	  if (*p == ',')
	    p++;
	  else if (*p != '}')
	    return bad_input (in, ln, "expected ',' or '}' after a label, "
			      "found '%.20s'", p);
	}
      p++;
    }
  if (*p != ' ' && *p != '\t')
    return bad_input (in, ln, "expected a value after the metric, found "
		      "'%.20s' (the line was cut short?)", p);
  char *value = strtok (p, " \t"), *stamp = strtok (NULL, " \t");
  char *extra = strtok (NULL, " \t");
  double v;
  if (value == NULL || sample_value (value, &v) != 0)
    return bad_input (in, ln, "'%.40s' is not a sample's value",
		      value ? value : "");
  if (extra != NULL || (stamp != NULL && strspn (stamp, "-0123456789")
					  != strlen (stamp)))
    return bad_input (in, ln, "expected a value and at most a timestamp, "
		      "found more");
  if (ours)
    {
      s.v = v;
      *new_sample (in) = s;
    }
  return 0;
}

static int
read_exposition (struct input *in, char *text, size_t len)
{
  if (len > 0 && text[len - 1] != '\n')
    return bad_input (in, 0, "the last line has no newline: the file was "
		      "cut short");
  if (memchr (text, 0, len) != NULL)
    return bad_input (in, 0, "a null byte: not exposition text");
  unsigned int ln = 0;
  for (char *line = text, *next; line < text + len; line = next)
    {
      next = strchr (line, '\n');
      *next++ = 0;
      ln++;
      size_t n = strlen (line);
      if (n > 0 && line[n - 1] == '\r')
	line[--n] = 0;
      if (n == 0 || line[0] == '#')
	continue;
      if (exposition_sample (in, ln, line) != 0)
	return -1;
    }
  return 0;
}

/* OBJECT's member KEY, or NULL, also where OBJECT is no object.  */
static struct json_object *
member (struct json_object *object, const char *key)
{
  struct json_object *m;
  return json_object_is_type (object, json_type_object)
	 && json_object_object_get_ex (object, key, &m) ? m : NULL;
}

/* V's text where V is a string; NULL otherwise, and where it holds a null
   character (\u0000), which the C string would cut short.  */
static const char *
string_of (struct json_object *v)
{
  if (!json_object_is_type (v, json_type_string))
    return NULL;
  const char *s = json_object_get_string (v);
  return strlen (s) == (size_t) json_object_get_string_len (v) ? s : NULL;
}

/* TEXT, LEN bytes of it, as one JSON value, read strictly (no comments,
   no trailing commas, UTF-8 only); NULL after a message that says at
   which byte it went wrong.  */
static struct json_object *
parse_json (struct input *in, const char *text, size_t len)
{
  const char *nul = memchr (text, 0, len);
  if (nul != NULL)
    {
      /* json-c would take it for the end of the input.  */
      bad_input (in, 0, "not JSON: byte %zu: a null byte",
		 (size_t) (nul - text) + 1);
      return NULL;
    }
  if (len > INT_MAX)
    {
      bad_input (in, 0, "not JSON: %zu bytes, too many for a query result",
		 len);
      return NULL;
    }
  struct json_tokener *tok = json_tokener_new ();
  if (tok == NULL)
    {
      error_msg ("out of memory");
      return NULL;
    }
  json_tokener_set_flags (tok, JSON_TOKENER_STRICT
			       | JSON_TOKENER_VALIDATE_UTF8);
  struct json_object *root = json_tokener_parse_ex (tok, text, (int) len);
  enum json_tokener_error e = json_tokener_get_error (tok);
  if (e == json_tokener_continue)
    bad_input (in, 0, "not JSON: %s after byte %zu: the file was cut short",
	       json_tokener_error_desc (json_tokener_error_parse_eof), len);
  else if (root == NULL)
    bad_input (in, 0, "not JSON: byte %zu: %s",
	       json_tokener_get_parse_end (tok) + 1,
	       json_tokener_error_desc (e));
  json_tokener_free (tok);
  return root;
}

/* An instant query's result: {"status": "success", "data": {"resultType":
   "vector", "result": [{"metric": {...}, "value": [TIME, "VALUE"]}...]}}.  */
static int
read_query_result (struct input *in, const char *text, size_t len)
{
  struct json_object *root = parse_json (in, text, len);
  if (root == NULL)
    return -1;
  struct json_object *data = member (root, "data");
  const char *status = string_of (member (root, "status"));
  const char *type = string_of (member (data, "resultType"));
  struct json_object *result = member (data, "result");
  int st = -1;
  if (status == NULL)
    bad_input (in, 0, "not a Prometheus API response: no \"status\"");
  else if (strcmp (status, "success") != 0)
    {
      const char *e = string_of (member (root, "error"));
      bad_input (in, 0, "the query failed (status \"%.20s\"): %.200s",
		 status, e ? e : "no error message");
    }
  else if (type == NULL || !json_object_is_type (result, json_type_array))
    bad_input (in, 0, "no \"data\" with a \"resultType\" and a \"result\" "
	       "array");
  else if (strcmp (type, "vector") != 0)
    bad_input (in, 0, "the result is a %.20s, not an instant vector: use "
	       "/api/v1/query with no range", type);
  else
    st = 0;
  size_t n = st == 0 ? json_object_array_length (result) : 0;
  for (size_t i = 0; st == 0 && i < n; i++)
    {
      struct json_object *r = json_object_array_get_idx (result, i);
      struct json_object *metric = member (r, "metric");
      struct json_object *value = member (r, "value");
      struct json_object *stamp = json_object_array_get_idx (value, 0);
      const char *v = string_of (json_object_array_get_idx (value, 1));
      if (!json_object_is_type (metric, json_type_object)
	  || !json_object_is_type (value, json_type_array)
	  || json_object_array_length (value) != 2
	  || !(json_object_is_type (stamp, json_type_double)
	       || json_object_is_type (stamp, json_type_int))
	  || v == NULL)
	{
	  st = bad_input (in, 0, "result %zu is not {\"metric\": {...}, "
			  "\"value\": [TIME, \"VALUE\"]}", i + 1);
	  break;
	}
      struct sample *s = new_sample (in);
      json_object_object_foreach (metric, key, label)
	{
	  const char *l = string_of (label);
	  if (l == NULL)
	    st = bad_input (in, 0, "result %zu: the label %.40s is not a "
			    "string%s", i + 1, key,
			    json_object_is_type (label, json_type_string)
			    ? " without a null character" : "");
	  else if (keep_label (s, key, l) != 0)
	    st = bad_input (in, 0, "result %zu: the label %.40s is too long "
			    "to be fastcopy-fleet's", i + 1, key);
	  if (st != 0)
	    break;
	}
      if (st == 0 && sample_value (v, &s->v) != 0)
	st = bad_input (in, 0, "result %zu: '%.40s' is not a sample's value",
			i + 1, v);
      /* A named series of another metric is none of ours.  */
      if (st == 0 && s->name[0] && strncmp (s->name, "fastcopy_", 9) != 0)
	in->n--;
    }
  json_object_put (root);
  return st;
}

enum kind
{
  SIZE_BUCKET, SIZE_SUM, SIZE_COUNT, CALLS, BOUND, SHARE_BOUND, BOUND_CALLS,
  OTHER
};

static enum kind
kind_of (const struct sample *s)
{
  if (s->name[0] == 0)
    return s->le[0] ? SIZE_BUCKET : s->kind[0] ? CALLS : OTHER;
  if (strcmp (s->name, FLEET_SIZE_METRIC "_bucket") == 0)
    return SIZE_BUCKET;
  if (strcmp (s->name, FLEET_SIZE_METRIC "_sum") == 0)
    return SIZE_SUM;
  if (strcmp (s->name, FLEET_SIZE_METRIC "_count") == 0)
    return SIZE_COUNT;
  if (strcmp (s->name, FLEET_BOUND_METRIC) == 0)
    return BOUND;
  if (strcmp (s->name, FLEET_SHARE_BOUND_METRIC) == 0)
    return SHARE_BOUND;
  if (strcmp (s->name, FLEET_BOUND_CALLS_METRIC) == 0)
    return BOUND_CALLS;
  return strcmp (s->name, FLEET_CALLS_METRIC) == 0 ? CALLS : OTHER;
}

/* The class the policy and cpu labels give: none, "unknown" or "mixed",
   or a row and "VENDOR family N model N".  */
static int
class_of (const struct sample *s, struct fcw_machine_class *c)
{
  memset (c, 0, sizeof *c);
  if (strcmp (s->policy, "mixed") == 0 || strcmp (s->cpu, "mixed") == 0)
    c->kind = FCW_MACHINE_CLASS_MIXED;
  if (c->kind == FCW_MACHINE_CLASS_MIXED
      || (s->policy[0] == 0 && s->cpu[0] == 0)
      || (strcmp (s->policy, "unknown") == 0
	  && strcmp (s->cpu, "unknown") == 0))
    return 0;
  char text[160];
  int end = -1;
  snprintf (text, sizeof text, "%s", s->cpu);
  char *sp = strchr (text, ' ');
  if (sp == NULL)
    return -1;
  *sp = 0;
  unsigned int family, model;
  if (sscanf (sp + 1, "family %u model %u%n", &family, &model, &end) != 2
      || end < 0 || sp[1 + end] != 0)
    return -1;
  char line[200];
  snprintf (line, sizeof line, "vendor=%s family=%u model=%u policy=%s",
	    text, family, model, s->policy);
  return fcw_machine_class_parse (line, c);
}

/* The grid bucket whose upper bound LE is, FCW_GRID_BUCKETS for +Inf, or
   -1.  */
static long
bound_index (const char *le)
{
  double v;
  if (sample_value (le, &v) != 0 || isnan (v) || v < 0)
    return -1;
  if (isinf (v))
    return FCW_GRID_BUCKETS;
  if (v != floor (v) || v >= 0x1p47)
    return -1;
  size_t g = fcw_grid_bucket ((unsigned long long) v);
  return fcw_grid_hi (g) == (unsigned long long) v ? (long) g : -1;
}

struct family_sums
{
  double cum[FCW_GRID_BUCKETS + 1];
  unsigned char seen[FCW_GRID_BUCKETS + 1];
  double count;
  int any, has_count;
};

static int
family_index (const struct input *in, const struct sample *s)
{
  if (strcmp (s->family, FC_REC_COPY) == 0)
    return FASTCOPY_FAMILY_COPY;
  if (strcmp (s->family, FC_REC_CLEAR) == 0)
    return FASTCOPY_FAMILY_CLEAR;
  return bad_input (in, 0, "a series of %s with %s%s%s: expected "
		    "family=\"copy\" or \"clear\"",
		    s->name[0] ? s->name : "a query", s->family[0] ? "family=\""
		    : "no family label", s->family, s->family[0] ? "\"" : "");
}

/* Calls counters: one row of W's family FA.  */
static int
add_row (const struct input *in, struct fcw_family *fa, const struct sample *s)
{
  char *end;
  long a = strtol (s->value, &end, 10);
  int i;
  if (strcmp (s->kind, FC_REC_DST_ALIGN) == 0
      || strcmp (s->kind, FC_REC_SRC_ALIGN) == 0)
    {
      if (end == s->value || *end || a < 0 || a > 63)
	return bad_input (in, 0, "%s value=\"%s\" is not an address mod 64",
			  s->kind, s->value);
      (s->kind[0] == 'd' ? fa->dst_align : fa->src_align)[a].calls += s->v;
    }
  else if (strcmp (s->kind, FC_REC_DISTANCE) == 0
	   || strcmp (s->kind, FC_REC_OVERLAP) == 0)
    {
      int dist = s->kind[0] == 'd';
      const char *const *names = dist ? fcw_distance_names : fcw_overlap_names;
      int n = dist ? FC_REC_NDIST : FC_REC_NOVERLAP;
      for (i = 0; i < n && strcmp (names[i], s->value) != 0; i++)
	;
      if (i == n)
	return bad_input (in, 0, "%s value=\"%s\" is none of the recording's",
			  s->kind, s->value);
      (dist ? fa->distance : fa->overlap)[i].calls += s->v;
    }
  else if (strcmp (s->kind, FC_REC_FUNCTION) == 0)
    {
      for (i = 0; i < fa->nfunctions
		  && strcmp (fa->function[i].name, s->value) != 0; i++)
	;
      if (i == FCW_NFUNCTIONS || strlen (s->value) >= sizeof fa->function[0].name)
	return bad_input (in, 0, "more than %d functions, or a long name",
			  FCW_NFUNCTIONS);
      if (i == fa->nfunctions)
	snprintf (fa->function[fa->nfunctions++].name,
		  sizeof fa->function[0].name, "%s", s->value);
      fa->function[i].t.calls += s->v;
    }
  /* Other kinds are a later version's: skipped, as readers of
     recordings skip them.  */
  return 0;
}

/* FA's size buckets from the sums of its histogram.  */
static int
size_buckets (const struct input *in, const char *name,
	      const struct family_sums *fs, struct fcw_family *fa)
{
  for (size_t g = 0; g <= FCW_GRID_BUCKETS; g++)
    if (!fs->seen[g])
      {
	if (g == FCW_GRID_BUCKETS)
	  return bad_input (in, 0, "the %s histogram has no le=\"+Inf\" "
			    "bucket: cut short, or not fastcopy-fleet's", name);
	return bad_input (in, 0, "the %s histogram has no le=\"%llu\" bucket: "
			  "cut short, or not fastcopy-fleet's", name,
			  fcw_grid_hi (g));
      }
  double total = fs->cum[FCW_GRID_BUCKETS];
  if (fs->has_count && fabs (fs->count - total) > 1e-9 * total)
    return bad_input (in, 0, "the %s histogram counts %.17g calls in its "
		      "+Inf bucket but %.17g in _count", name, total, fs->count);
  fa->bucket = xrealloc (NULL, (FCW_GRID_BUCKETS + 1) * sizeof *fa->bucket);
  double prev = 0;
  for (size_t g = 0; g <= FCW_GRID_BUCKETS; g++)
    {
      double calls = fs->cum[g] - prev;
      if (!isfinite (fs->cum[g]) || calls < -1e-9 * fs->cum[g])
	return bad_input (in, 0, "the %s histogram is not cumulative at "
			  "le=\"%llu\" (%.17g after %.17g)", name,
			  g < FCW_GRID_BUCKETS ? fcw_grid_hi (g) : 0,
			  fs->cum[g], prev);
      prev = fs->cum[g];
      if (!(calls > 0))
	continue;
      unsigned long long lo = g < FCW_GRID_BUCKETS ? fcw_grid_lo (g)
						   : 1ull << FCW_GRID_TOP;
      unsigned long long hi = g < FCW_GRID_BUCKETS ? fcw_grid_hi (g) : lo;
      fa->bucket[fa->nbuckets++] = (struct fcw_bucket) {
	lo, hi, { calls, calls * (((double) lo + (double) hi) / 2) } };
      fa->calls += calls;
    }
  return 0;
}

/* The sums of the bound's series: (calls * bound)^2 of each family and,
   at FASTCOPY_FAMILY_COUNT, of the clears' share; the calls of hosts
   that state a bound.  */
struct bound_sums
{
  double squared[FASTCOPY_FAMILY_COUNT + 1];
  unsigned char has_squared[FASTCOPY_FAMILY_COUNT + 1];
  double calls[FASTCOPY_FAMILY_COUNT];
  int has_calls;
};

/* W's bound from B, the inverse of the export's: known where the hosts
   that state one hold every call of W's histograms.  */
static int
import_bound (const struct input *in, const struct bound_sums *b,
	      struct fcw_workload *w)
{
  if (!b->has_calls)
    return 0;
  for (int i = 0; i <= FASTCOPY_FAMILY_COUNT; i++)
    if (!b->has_squared[i])
      return bad_input (in, 0, FLEET_BOUND_CALLS_METRIC " without %s%s%s: "
			"add up every fastcopy_bound_ series",
			i < FASTCOPY_FAMILY_COUNT ? FLEET_BOUND_METRIC
			: FLEET_SHARE_BOUND_METRIC,
			i < FASTCOPY_FAMILY_COUNT ? " of the family " : "",
			i < FASTCOPY_FAMILY_COUNT ? fcw_family_names[i] : "");
  double all = 0;
  int known = 1;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      double calls = w->family[f].calls;
      if (b->calls[f] > calls + 1e-9 * calls)
	return bad_input (in, 0, FLEET_BOUND_CALLS_METRIC " counts %.17g %s "
			  "calls, more than the histogram's %.17g", b->calls[f],
			  fcw_family_names[f], calls);
      if (b->calls[f] < calls - 1e-9 * calls)
	known = 0;
      all += calls;
    }
  if (!known)
    return 0;
  /* Where the hosts' bounds were rounded, the sums may come to more than
     1, which bounds any distance.  */
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    w->bound.tvd[f] = w->family[f].calls > 0
		      ? fmin (1, sqrt (b->squared[f]) / w->family[f].calls)
		      : 0;
  w->bound.share = all > 0
		   ? fmin (1, sqrt (b->squared[FASTCOPY_FAMILY_COUNT]) / all)
		   : 0;
  w->bound.known = 1;
  return 0;
}

/* W from the samples of IN.  */
static int
build (const struct input *in, int mix, struct fcw_workload *w)
{
  static struct family_sums sums[FASTCOPY_FAMILY_COUNT];
  struct bound_sums bound;
  memset (sums, 0, sizeof sums);
  memset (&bound, 0, sizeof bound);
  memset (w, 0, sizeof *w);
  int have_class = 0, ours = 0, seen[FASTCOPY_FAMILY_COUNT] = { 0, 0 };
  for (size_t i = 0; i < in->n; i++)
    {
      const struct sample *s = &in->s[i];
      enum kind k = kind_of (s);
      if (k == OTHER)
	{
	  if (s->name[0] == 0)
	    return bad_input (in, 0, "result %zu has neither le nor kind and "
			      "no metric name: keep __name__ in the query's "
			      "'by' (fastcopy-fleet(1))", i + 1);
	  continue;
	}
      /* The clears' share is of no family.  */
      int f = k == SHARE_BOUND ? FASTCOPY_FAMILY_COUNT : family_index (in, s);
      if (f < 0)
	return -1;
      ours++;
      struct fcw_machine_class c;
      if (class_of (s, &c) != 0)
	return bad_input (in, 0, "policy=\"%s\" cpu=\"%s\" is not a class "
			  "(cpu=\"VENDOR family N model N\")", s->policy,
			  s->cpu);
      if (!have_class++)
	w->machine_class = c;
      else if (!fcw_machine_class_equal (&w->machine_class, &c))
	{
	  char a[FCW_MACHINE_CLASS_TEXT], b[FCW_MACHINE_CLASS_TEXT];
	  if (!mix)
	    return bad_input (in, 0, "series of class %s and of class %s: "
			      "import one class (filter by policy and cpu), "
			      "or give --mix",
			      fcw_machine_class_text (&w->machine_class, a,
						      sizeof a),
			      fcw_machine_class_text (&c, b, sizeof b));
	  w->machine_class
	    = (struct fcw_machine_class) { .kind = FCW_MACHINE_CLASS_MIXED };
	}
      if (k == SHARE_BOUND || k == BOUND || k == BOUND_CALLS)
	{
	  if (!isfinite (s->v) || s->v < 0)
	    return bad_input (in, 0, "%s of %g: expected a number from 0",
			      s->name, s->v);
	  if (k == BOUND_CALLS)
	    bound.calls[f] += s->v;
	  else
	    bound.squared[f] += s->v;
	  bound.has_calls |= k == BOUND_CALLS;
	  bound.has_squared[f] |= k != BOUND_CALLS;
	  if (k == SHARE_BOUND)
	    continue;
	}
      struct fcw_family *fa = &w->family[f];
      const char *impl = strcmp (s->impl, "unknown") == 0 ? "" : s->impl;
      if (!seen[f]++)
	snprintf (fa->impl, sizeof fa->impl, "%s", impl);
      else if (strcmp (fa->impl, impl) != 0)
	snprintf (fa->impl, sizeof fa->impl, "mixed");
      struct family_sums *fs = &sums[f];
      long g;
      switch (k)
	{
	case SIZE_BUCKET:
	  if ((g = bound_index (s->le)) < 0)
	    return bad_input (in, 0, "le=\"%s\" is no bound of "
			      "fastcopy-fleet's buckets", s->le);
	  fs->cum[g] += s->v;
	  fs->seen[g] = 1;
	  fs->any = 1;
	  break;
	case SIZE_COUNT:
	  fs->count += s->v;
	  fs->has_count = 1;
	  break;
	case CALLS:
	  if (!isfinite (s->v) || s->v < 0)
	    return bad_input (in, 0, "a count of %g calls", s->v);
	  if (add_row (in, fa, s) != 0)
	    return -1;
	  break;
	default:
	  break;
	}
    }
  if (ours == 0)
    return bad_input (in, 0, "no series of " FLEET_SIZE_METRIC " or "
		      FLEET_CALLS_METRIC);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    if (sums[f].any
	&& size_buckets (in, fcw_family_names[f],
			 &sums[f], &w->family[f]) != 0)
      return -1;
  if (!sums[0].any && !sums[1].any)
    return bad_input (in, 0, "no " FLEET_SIZE_METRIC " histogram");
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    w->family[f].recorded = 1;
  return import_bound (in, &bound, w);
}

/* All of PATH ("-": standard input) into *TEXT.  */
static int
read_all (const char *path, char **text, size_t *len)
{
  int in = strcmp (path, "-") == 0;
  int fd = in ? STDIN_FILENO : open (path, O_RDONLY | O_CLOEXEC);
  int rc = fd < 0 ? -1 : xfile_read_fd (fd, text, len);
  if (rc != 0)
    error_msg ("%s: %s", path, strerror (errno));
  if (fd >= 0 && !in)
    close (fd);
  return rc;
}

int
import_main (const char *out, int mix, const char *path)
{
  struct input in = { .path = strcmp (path, "-") == 0 ? "standard input"
						      : path };
  char *text;
  size_t len;
  if (read_all (path, &text, &len) != 0)
    return 1;
  size_t skip = strspn (text, " \t\r\n");
  static const char recording[] = FC_REC_VERSION_LINE;
  if (len - skip >= sizeof recording - 1
      && memcmp (text + skip, recording, sizeof recording - 1) == 0)
    {
      error_msg ("%s is a recording, not exposition text or a query "
		 "result: add it to others with fastcopy-fleet merge, or "
		 "give it to fastcopy-tune --workload as it is", in.path);
      free (text);
      return 1;
    }
  int st = skip < len && text[skip] == '{'
	   ? read_query_result (&in, text, len)
	   : read_exposition (&in, text, len);
  free (text);
  struct fcw_workload w;
  memset (&w, 0, sizeof w);
  if (st == 0)
    st = build (&in, mix, &w);
  if (st == 0 && w.family[FASTCOPY_FAMILY_COPY].calls == 0
      && w.family[FASTCOPY_FAMILY_CLEAR].calls == 0)
    {
      /* Nothing a tuner could measure on: an increase() over a window
	 in which the counters did not grow gives zeros.  */
      error_msg ("%s: the series count no call (an increase() over a "
		 "window in which the counters did not grow? widen it); "
		 "%s not written", in.path, out);
      st = -1;
    }
  free (in.s);
  char *comment = st == 0 ? xasprintf ("# imported by fastcopy-fleet from "
				       "%s\n", in.path) : NULL;
  /* The file's name on one comment line, whatever it holds.  */
  for (char *c = comment ? comment + 34 : NULL; c && c[1]; c++)
    if ((unsigned char) *c < 0x20)
      *c = '?';
  char *rec = st == 0 ? recording_text (&w, comment, &len) : NULL;
  st = rec != NULL && write_output (out, rec, len) == 0 ? 0 : 1;
  if (st == 0)
    report_bound (out, &w);
  free (rec);
  free (comment);
  fcw_free (&w);
  return st;
}
