/* fastcopy-tune: measure this machine's break-even sizes for libfastcopy's
   thresholds and print (or install) the configuration lines.

   Strategy:
   1. Contenders come from the implementation table: "fsrm" is pure
      REP MOVSB / REP STOSB at every size; the vector implementation (avx2,
      else sse2) is the path the thresholds steer.  The vector variants
      read their thresholds at every call, so fastcopy_set switches them
      between samples: with both thresholds "never" the vector contender is
      the pure vector loop; with the streaming threshold 0 it streams.
   2. Samples are interleaved: every round visits every size, and at each
      size every contender, in an order that rotates from round to round;
      a sample is the mean time of a batch of calls long enough to dwarf
      the clock, taken again if the thread was switched out during it.
      The median over the rounds is what counts.  fastcopy-bench's engine
      (bench/measure.h) does the measuring.
   3. REP break-even: the size of the ladder above which REP gains most
      over the vector loop, summing log time ratios (break_even); aligned (source and destination 64-byte aligned) and misaligned
      (source +1, destination +35, 2 KiB apart modulo 4 KiB so the aliasing
      guard plays no part) separately; the setting is the larger of the
      two, "never" if either never wins.
   4. Streaming break-even: likewise, non-temporal stores against the better
      of the vector loop and REP, on sizes up to a few times the L3 cache.
   5. A comparison of the tuned thresholds against the defaults, interleaved
      the same way, at sizes on both sides of each threshold.
   --repeat N runs 1-4 N times and reports the spread; the settings printed
   are the medians.  --write installs them atomically.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fastcopy.h"
#include "measure.h"

#define NEVER FASTCOPY_NEVER
#define KiB 1024ull
#define MiB (1024ull * 1024ull)
#define MAX_SIZES 96
#define MAX_RUNS 9

/* The thresholds fastcopy-tune sets; their names come from the library's
   settings table (setting_name).  */
enum key
{
  K_REP_MOVSB, K_REP_STOSB, K_COPY_NT, K_CLEAR_NT, K_COUNT
};
static const char *key_names[K_COUNT];

static struct
{
  int quick, repeat, write, compare, quiet, verbose;
  const char *config;
  int nset;
  char *set[16];
} opt = { .repeat = 1, .compare = 1 };

static const char *progname = "fastcopy-tune";
static int progress_tty;

static void __attribute__ ((noreturn, format (printf, 1, 2)))
die (const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  fprintf (stderr, "%s: ", progname);
  vfprintf (stderr, fmt, ap);
  fputc ('\n', stderr);
  va_end (ap);
  exit (1);
}

static int
cmp_size (const void *a, const void *b)
{
  size_t x = *(const size_t *) a, y = *(const size_t *) b;
  return x < y ? -1 : x > y;
}

static int
cmp_ull (const void *a, const void *b)
{
  unsigned long long x = *(const unsigned long long *) a;
  unsigned long long y = *(const unsigned long long *) b;
  return x < y ? -1 : x > y;
}

/* "never", "4KiB", "3MiB" or bytes: what a configuration file says.  */
static const char *
size_text (unsigned long long v, char *buf, size_t size)
{
  if (v == NEVER)
    snprintf (buf, size, "never");
  else if (v >= MiB && v % MiB == 0)
    snprintf (buf, size, "%lluMiB", v / MiB);
  else if (v >= KiB && v % KiB == 0)
    snprintf (buf, size, "%lluKiB", v / KiB);
  else
    snprintf (buf, size, "%llu", v);
  return buf;
}

/* Human form for tables.  */
static const char *
size_human (unsigned long long v, char *buf, size_t size)
{
  if (v == NEVER)
    snprintf (buf, size, "never");
  else if (v >= MiB)
    snprintf (buf, size, "%.3g MiB", (double) v / MiB);
  else if (v >= KiB)
    snprintf (buf, size, "%.3g KiB", (double) v / KiB);
  else
    snprintf (buf, size, "%llu B", v);
  return buf;
}

static void
progress (const char *fmt, ...)
{
  if (opt.quiet)
    return;
  char line[160];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  if (progress_tty)
    fprintf (stderr, "\r\033[K%s", line);
  else
    fprintf (stderr, "%s\n", line);
}

static void
progress_done (void)
{
  if (!opt.quiet && progress_tty)
    fprintf (stderr, "\r\033[K");
}

/* Apply fastcopy_set ITEMS unless they are what was applied last.  */
static void
apply (const char *items)
{
  static char last[256];
  if (strcmp (last, items) == 0)
    return;
  if (fastcopy_set (items, NULL, NULL) != 0)
    die ("fastcopy_set (\"%s\") refused", items);
  snprintf (last, sizeof last, "%s", items);
}

/* ------------------------------------------------------------------------ */
/* Buffers and contenders.  */

static char *src_buf, *dst_buf;

static void
buffers (size_t max)
{
  size_t size = max + 8192;
  src_buf = fcm_map (size);
  dst_buf = fcm_map (size);
  if (src_buf == NULL || dst_buf == NULL)
    die ("cannot map 2 x %zu bytes: %s", size, strerror (errno));
}

struct contender
{
  const char *name;
  const struct fastcopy_impl *impl;
  const char *items;		/* fastcopy_set before sampling it */
};

/* Source and destination offsets: aligned, or misaligned and 2 KiB apart
   modulo 4 KiB (clear of the aliasing guard's window).  */
static const size_t src_off[2] = { 0, 1 }, dst_off[2] = { 2048, 2048 + 35 };

/* Before every sample of a contender: its thresholds, then one untimed
   call, so that the sample starts from the caches its own path leaves.  */
static void
before_sample (const struct fcm_fn *fn, struct fcm_calls *calls)
{
  apply (fn->arg);
  fcm_time (fn, calls, 1);
}

/* Geometric sizes from LO to HI, STEPS per doubling, multiples of 64.  */
static int
ladder (size_t lo, size_t hi, int steps, size_t *out)
{
  int n = 0;
  for (int k = 0; n < MAX_SIZES; k++)
    {
      double v = (double) lo * pow (2.0, (double) k / steps);
      size_t s = ((size_t) (v + 32) / 64) * 64;
      if (s > hi)
	break;
      if (n == 0 || s != out[n - 1])
	out[n++] = s;
    }
  return n;
}

/* Medians of NC contenders at NS sizes, one alignment: med[c][s].  */
struct sweep
{
  int ns, nc;
  size_t size[MAX_SIZES];
  double med[3][MAX_SIZES];
};

/* Every size a point: the batches of each contender are calibrated to
   last about TARGET ns, then every round samples every size.  */
static void
measure (const char *label, const struct contender *cs, int nc,
	 const size_t *sizes, int ns, int misaligned, int rounds,
	 double target, struct sweep *out)
{
  struct fcm_fn fn[3];
  for (int c = 0; c < nc; c++)
    {
      int copy = cs[c].impl->family == FASTCOPY_FAMILY_COPY;
      fn[c] = (struct fcm_fn) { .call = copy ? FCM_COPY : FCM_SET,
				.copy = cs[c].impl->copy,
				.set = cs[c].impl->clear,
				.before = before_sample, .arg = cs[c].items };
    }
  struct fcm_point *pt = calloc ((size_t) ns, sizeof *pt);
  if (pt == NULL)
    die ("out of memory");
  for (int s = 0; s < ns; s++)
    {
      pt[s].calls = (struct fcm_calls) { .layout = FCM_SAME,
					 .dst = dst_buf + dst_off[misaligned],
					 .src = src_buf + src_off[misaligned],
					 .n = sizes[s], .fill = 0x5a };
      pt[s].nfn = nc;
      for (int c = 0; c < nc; c++)
	pt[s].fn[c] = &fn[c];
      pt[s].target_ns = (uint64_t) target;
      fcm_calibrate (&pt[s]);
    }
  for (int r = 0; r < rounds; r++)
    {
      progress ("%s: round %d/%d", label, r + 1, rounds);
      for (int s = 0; s < ns; s++)
	fcm_round (&pt[s], (unsigned int) (r + s));
    }
  out->ns = ns;
  out->nc = nc;
  for (int s = 0; s < ns; s++)
    {
      double med[FCM_MAX_FNS];
      fcm_medians (&pt[s], med);
      out->size[s] = sizes[s];
      for (int c = 0; c < nc; c++)
	out->med[c][s] = med[c];
    }
  free (pt);
}

/* The threshold for contender W against the reference REF: the ladder
   index I that minimises the sum over sizes from I up of log (W / REF),
   i.e. the split that gains most with every size weighing the same.  A
   noisy size cannot move it much, unlike "the first size from which W
   always wins".  NEVER unless W gains at least 1% on average above it.  */
static unsigned long long
break_even (const size_t *size, const double *w, const double *ref, int ns)
{
  double sum = 0, best = 0;
  int best_i = ns;
  for (int i = ns - 1; i >= 0; i--)
    {
      sum += log (w[i] / ref[i]);
      if (sum < best)
	{
	  best = sum;
	  best_i = i;
	}
    }
  if (best_i == ns || best / (ns - best_i) > log (0.99))
    return NEVER;
  return size[best_i];
}

/* ------------------------------------------------------------------------ */
/* One tuning run.  */

struct result
{
  unsigned long long value[K_COUNT];
  unsigned long long rep_aligned[2], rep_misaligned[2];	/* copy, clear */
};

/* The implementation whose thresholds are tuned: the family's selected
   one when it reads both the REP and the streaming threshold, otherwise
   the first usable one in the table that does.  */
#define WINDOW_TRAITS (FASTCOPY_TRAIT_REP | FASTCOPY_TRAIT_NT)
static const struct fastcopy_impl *
vector_impl (enum fastcopy_family f)
{
  const struct fastcopy_impl *v
    = fastcopy_selected (f == FASTCOPY_FAMILY_COPY ? "memmove" : "memset")
      ->impl;
  if ((v->traits & WINDOW_TRAITS) == WINDOW_TRAITS)
    return v;
  for (size_t i = 0; (v = fastcopy_impl_at (i)) != NULL; i++)
    if (v->family == f && fastcopy_impl_usable (v)
	&& (v->traits & WINDOW_TRAITS) == WINDOW_TRAITS)
      return v;
  die ("no usable implementation of the %s family reads the REP and "
       "streaming thresholds", f == FASTCOPY_FAMILY_COPY ? "copy" : "clear");
}

/* The name of FAMILY's setting read by implementations with TRAIT.  */
static const char *
setting_name (enum fastcopy_family family, unsigned int trait)
{
  for (size_t i = 0; i < fastcopy_setting_count (); i++)
    {
      const struct fastcopy_setting *s = fastcopy_setting_at (i);
      if (s->family == family && s->trait == trait)
	return s->key;
    }
  die ("the library has no %s setting for trait %u",
       family == FASTCOPY_FAMILY_COPY ? "copy" : "clear", trait);
}

static void
print_sweep (const char *title, const struct sweep *sw, const char *const *names)
{
  if (!opt.verbose)
    return;
  char b[32];
  printf ("# %s (median ns per call)\n#   %10s", title, "size");
  for (int c = 0; c < sw->nc; c++)
    printf (" %10s", names[c]);
  printf ("\n");
  for (int s = 0; s < sw->ns; s++)
    {
      printf ("#   %10s", size_human (sw->size[s], b, sizeof b));
      for (int c = 0; c < sw->nc; c++)
	printf (" %10.1f", sw->med[c][s]);
      printf ("\n");
    }
}

/* The largest size measured: a few times the L3 cache, so that the
   largest copies run from and to memory.  */
static size_t
nt_max (void)
{
  size_t l3 = fastcopy_cpu ()->l3_size ? fastcopy_cpu ()->l3_size : 8 * MiB;
  size_t max = (opt.quick ? 2 : 4) * l3;
  if (max < 16 * MiB)
    max = 16 * MiB;
  if (max > (opt.quick ? 128 : 256) * MiB)
    max = (opt.quick ? 128 : 256) * MiB;
  return max;
}

static void
tune_once (int run, struct result *res)
{
  static const char *const fam_name[2] = { "copy", "clear" };
  const char *const rep_key[2] = { key_names[K_REP_MOVSB],
				   key_names[K_REP_STOSB] };
  const char *const nt_key[2] = { key_names[K_COPY_NT], key_names[K_CLEAR_NT] };
  int rounds_rep = opt.quick ? 15 : 31;
  int rounds_nt = opt.quick ? 7 : 15;
  size_t rep_sizes[MAX_SIZES], nt_sizes[MAX_SIZES];
  int nrep = ladder (512, opt.quick ? 256 * KiB : 1 * MiB,
		     opt.quick ? 3 : 4, rep_sizes);
  int nnt = ladder (opt.quick ? 1 * MiB : 256 * KiB, nt_max (),
		    opt.quick ? 2 : 3, nt_sizes);

  for (int f = 0; f < 2; f++)
    {
      enum fastcopy_family fam = f ? FASTCOPY_FAMILY_CLEAR
				   : FASTCOPY_FAMILY_COPY;
      char vec_items[128], nt_items[128];
      snprintf (vec_items, sizeof vec_items, "%s=never,%s=never",
		rep_key[f], nt_key[f]);
      snprintf (nt_items, sizeof nt_items, "%s=never,%s=0", rep_key[f],
		nt_key[f]);
      const struct fastcopy_impl *vec = vector_impl (fam);
      const struct fastcopy_impl *rep = fastcopy_impl_find (fam, "fsrm");
      if (rep == NULL)
	die ("the implementation table has no fsrm %s", fam_name[f]);
      struct contender cs[3] = {
	{ vec->name, vec, vec_items },
	{ "rep", rep, vec_items },
	{ "nt", vec, nt_items },
      };
      const char *names[3] = { vec->name, f ? "REP STOSB" : "REP MOVSB",
			       "stream" };

      /* REP against the vector loop, aligned and misaligned.  */
      unsigned long long be[2];
      for (int mis = 0; mis < 2; mis++)
	{
	  char label[96], title[96];
	  snprintf (label, sizeof label, "run %d: %s, REP vs %s, %s", run,
		    fam_name[f], vec->name, mis ? "misaligned" : "aligned");
	  struct sweep sw;
	  measure (label, cs, 2, rep_sizes, nrep, mis, rounds_rep,
		   opt.quick ? 30000 : 60000, &sw);
	  snprintf (title, sizeof title, "run %d: %s %s", run, fam_name[f],
		    mis ? "misaligned" : "aligned");
	  print_sweep (title, &sw, names);
	  be[mis] = break_even (sw.size, sw.med[1], sw.med[0], sw.ns);
	}
      res->rep_aligned[f] = be[0];
      res->rep_misaligned[f] = be[1];
      unsigned long long rep_t = be[0] == NEVER || be[1] == NEVER ? NEVER
				 : be[0] > be[1] ? be[0] : be[1];

      /* Streaming against the better of the vector loop and REP.  */
      char label[96], title[96];
      snprintf (label, sizeof label, "run %d: %s, streaming stores", run,
		fam_name[f]);
      struct sweep sw;
      measure (label, cs, 3, nt_sizes, nnt, 0, rounds_nt,
	       opt.quick ? 3e6 : 6e6, &sw);
      snprintf (title, sizeof title, "run %d: %s streaming", run,
		fam_name[f]);
      print_sweep (title, &sw, names);
      double regular[MAX_SIZES];
      for (int s = 0; s < sw.ns; s++)
	regular[s] = rep_t != NEVER && sw.size[s] >= rep_t
		     && sw.med[1][s] < sw.med[0][s] ? sw.med[1][s]
						    : sw.med[0][s];
      unsigned long long nt_t = break_even (sw.size, sw.med[2], regular,
					    sw.ns);
      /* A REP window that streaming closes is no window.  */
      if (rep_t != NEVER && nt_t != NEVER && rep_t >= nt_t)
	rep_t = NEVER;
      res->value[f ? K_REP_STOSB : K_REP_MOVSB] = rep_t;
      res->value[f ? K_CLEAR_NT : K_COPY_NT] = nt_t;
    }
  progress_done ();
}

/* ------------------------------------------------------------------------ */
/* Tuned against default.  */

static void
describe_thresholds (char *buf, size_t size, int f,
		     unsigned long long rep, unsigned long long nt)
{
  char a[32], b[32];
  snprintf (buf, size, "%s=%s,%s=%s",
	    f ? "rep_stosb_threshold" : "rep_movsb_threshold",
	    size_text (rep, a, sizeof a),
	    f ? "clear_nt_threshold" : "copy_nt_threshold",
	    size_text (nt, b, sizeof b));
}

static unsigned long long
default_of (const char *key)
{
  const struct fastcopy_setting *s = fastcopy_setting_find (key);
  if (s == NULL || strcmp (s->default_value, "never") == 0)
    return NEVER;
  return strtoull (s->default_value, NULL, 10);
}

/* The path the vector variants take at size N (above 8 vectors).  */
static char
path_at (size_t n, unsigned long long rep, unsigned long long nt)
{
  return n >= nt ? 'S' : n >= rep ? 'R' : 'V';
}

/* Tuned against default thresholds, interleaved, at sizes on both sides of
   every threshold either has.  Where both take the same path the ratio is
   noise, which sets the allowance for the sizes where they differ.
   Returns nonzero if the tuned settings are slower somewhere beyond
   it.  */
static int
compare (const struct result *res)
{
  double worst = 0, noise = 1;
  size_t worst_size = 0;
  int worst_f = 0;
  printf ("#\n# tuned against default thresholds: the vector path, median "
	  "ns per call, aligned;\n# path V vector loop, R REP, S streaming "
	  "(default/tuned)\n");
  printf ("#   %-6s %10s %12s %12s %7s %5s\n", "family", "size", "default",
	  "tuned", "ratio", "path");
  for (int f = 0; f < 2; f++)
    {
      enum fastcopy_family fam = f ? FASTCOPY_FAMILY_CLEAR
				   : FASTCOPY_FAMILY_COPY;
      unsigned long long d_rep = default_of (f ? "rep_stosb_threshold"
					     : "rep_movsb_threshold");
      unsigned long long d_nt = default_of (f ? "clear_nt_threshold"
					    : "copy_nt_threshold");
      unsigned long long t_rep = res->value[f ? K_REP_STOSB : K_REP_MOVSB];
      unsigned long long t_nt = res->value[f ? K_CLEAR_NT : K_COPY_NT];
      char d_items[128], t_items[128];
      describe_thresholds (d_items, sizeof d_items, f, d_rep, d_nt);
      describe_thresholds (t_items, sizeof t_items, f, t_rep, t_nt);
      const struct fastcopy_impl *vec = vector_impl (fam);
      struct contender cs[2] = { { "default", vec, d_items },
				 { "tuned", vec, t_items } };

      size_t sizes[MAX_SIZES], max = nt_max ();
      int ns = 0;
      unsigned long long marks[7] = { d_rep, d_nt, t_rep, t_nt,
				      4 * KiB, 64 * KiB, 1 * MiB };
      for (int m = 0; m < 7; m++)
	{
	  if (marks[m] == NEVER || marks[m] > max)
	    continue;
	  size_t cand[3] = { marks[m] / 2, marks[m], marks[m] * 2 };
	  for (int c = m < 4 ? 0 : 1; c < (m < 4 ? 3 : 2); c++)
	    {
	      int dup = 0;
	      for (int i = 0; i < ns; i++)
		dup |= sizes[i] == cand[c];
	      if (!dup && cand[c] >= 512 && cand[c] <= max && ns < MAX_SIZES)
		sizes[ns++] = cand[c];
	    }
	}
      qsort (sizes, (size_t) ns, sizeof *sizes, cmp_size);
      struct sweep sw;
      char label[64];
      snprintf (label, sizeof label, "comparing %s thresholds",
		f ? "clear" : "copy");
      measure (label, cs, 2, sizes, ns, 0, opt.quick ? 15 : 25,
	       opt.quick ? 1e6 : 3e6, &sw);
      for (int s = 0; s < sw.ns; s++)
	{
	  char b[32];
	  double ratio = sw.med[1][s] / sw.med[0][s];
	  char dp = path_at (sw.size[s], d_rep, d_nt);
	  char tp = path_at (sw.size[s], t_rep, t_nt);
	  if (dp == tp)
	    {
	      if (ratio > noise)
		noise = ratio;
	      if (1 / ratio > noise)
		noise = 1 / ratio;
	    }
	  else if (ratio > worst)
	    {
	      worst = ratio;
	      worst_size = sw.size[s];
	      worst_f = f;
	    }
	  printf ("#   %-6s %10s %12.1f %12.1f %7.3f   %c/%c\n",
		  f ? "clear" : "copy", size_human (sw.size[s], b, sizeof b),
		  sw.med[0][s], sw.med[1][s], ratio, dp, tp);
	}
    }
  progress_done ();
  double allowance = noise > 1.03 ? noise : 1.03;
  char b[32];
  if (worst == 0)
    printf ("# the tuned settings take the default path at every size "
	    "compared (noise %.1f%%)\n", (noise - 1) * 100);
  else if (worst <= allowance)
    printf ("# the tuned settings are never slower: worst ratio %.3f (%s "
	    "%s) where the paths differ,\n# within the allowance %.3f (the "
	    "noise where they are the same, at least 3%%)\n", worst,
	    worst_f ? "clear" : "copy",
	    size_human (worst_size, b, sizeof b), allowance);
  else
    printf ("# SLOWER: ratio %.3f at %s %s beyond the allowance %.3f; "
	    "check the table\n", worst, worst_f ? "clear" : "copy",
	    size_human (worst_size, b, sizeof b), allowance);
  return worst > allowance;
}

/* ------------------------------------------------------------------------ */
/* Installing the settings: the user's lines and comments stay; the first
   line of each key set is replaced, later ones are commented out (the last
   one would win); keys not yet there are appended.  The file is read and
   replaced under its directory's lock, the one fastcopy-preload and the
   package scripts take too, so that no writer loses another's change; the
   new contents go to a temporary file in the same directory, are checked
   with the library's parser, fsync'd and renamed over the file, and the
   directory is fsync'd (tools/common/file-replace.c).  */

#include "common/file-replace.h"

/* The name that messages from tools/common/ start with.  */
const char tool_name[] = "fastcopy-tune";

static char *
read_file (const char *path, size_t *len, struct stat *st, int *exists)
{
  int fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  *exists = 0;
  *len = 0;
  if (fd < 0)
    {
      if (errno == ENOENT)
	return NULL;
      die ("%s: %s", path, strerror (errno));
    }
  if (fstat (fd, st) != 0)
    die ("%s: %s", path, strerror (errno));
  if (!S_ISREG (st->st_mode))
    die ("%s: not a regular file", path);
  *exists = 1;
  size_t cap = (size_t) st->st_size + 1, n = 0;
  char *buf = malloc (cap + 1);
  for (;;)
    {
      if (buf == NULL)
	die ("out of memory");
      if (n == cap)
	buf = realloc (buf, (cap *= 2) + 1);
      if (buf == NULL)
	die ("out of memory");
      ssize_t r = read (fd, buf + n, cap - n);
      if (r < 0 && errno == EINTR)
	continue;
      if (r < 0)
	die ("%s: %s", path, strerror (errno));
      if (r == 0)
	break;
      n += (size_t) r;
    }
  close (fd);
  buf[n] = 0;
  *len = n;
  return buf;
}

/* The key a line sets, if it sets one: [LEN bytes at *KEY].  */
static int
line_key (const char *line, size_t n, const char **key, size_t *klen)
{
  size_t i = 0;
  while (i < n && (line[i] == ' ' || line[i] == '\t'))
    i++;
  size_t start = i;
  while (i < n && (line[i] == '_' || (line[i] >= 'a' && line[i] <= 'z')
		   || (line[i] >= 'A' && line[i] <= 'Z')
		   || (line[i] >= '0' && line[i] <= '9')))
    i++;
  size_t end = i;
  while (i < n && (line[i] == ' ' || line[i] == '\t'))
    i++;
  if (end == start || i == n || line[i] != '=')
    return 0;
  *key = line + start;
  *klen = end - start;
  return 1;
}

static int
count_errors (const char *path)
{
  return fastcopy_check_config (path, 0, NULL, NULL);
}

/* file_replace's last check: the new file TMP must not have more errors
   than the old one, whose count is at ARG.  */
static int
no_more_errors (const char *tmp, void *arg)
{
  int old_errors = *(const int *) arg;
  int new_errors = count_errors (tmp);
  if (new_errors <= old_errors)
    return 0;
  fprintf (stderr, "%s: the new file would have %d errors (the old one had "
	   "%d); nothing written\n", progname, new_errors, old_errors);
  return 1;
}

static void
write_config (const char *path, int n, char *const *keys,
	      char *const *values, const char *header)
{
  char resolved[PATH_MAX];
  if (realpath (path, resolved) != NULL)
    path = resolved;		/* write through a symlink to its target */
  char *dir_copy = strdup (path);
  if (dir_copy == NULL)
    die ("out of memory");
  const char *dir = dirname (dir_copy);
  if (dir_lock (dir) != 0)
    exit (1);
  struct stat st;
  int exists;
  size_t len;
  char *old = read_file (path, &len, &st, &exists);
  int old_errors = exists ? count_errors (path) : 0;

  char *text;
  size_t text_len;
  FILE *f = open_memstream (&text, &text_len);
  if (f == NULL)
    die ("out of memory");
  int *done = calloc ((size_t) n, sizeof *done);
  if (done == NULL)
    die ("out of memory");
  for (size_t pos = 0; pos < len;)
    {
      const char *line = old + pos;
      const char *nl = memchr (line, '\n', len - pos);
      size_t ll = nl ? (size_t) (nl - line) : len - pos;
      pos += ll + (nl != NULL);
      const char *key;
      size_t klen;
      int k = -1;
      if (line_key (line, ll, &key, &klen))
	for (int i = 0; i < n; i++)
	  if (strlen (keys[i]) == klen && memcmp (keys[i], key, klen) == 0)
	    k = i;
      if (k < 0)
	fprintf (f, "%.*s\n", (int) ll, line);
      else if (!done[k])
	{
	  fprintf (f, "%s = %s\n", keys[k], values[k]);
	  done[k] = 1;
	}
      else
	fprintf (f, "# (replaced by fastcopy-tune) %.*s\n", (int) ll, line);
    }
  /* Appended keys come after a blank line and a comment saying why.  */
  int header_done = 0;
  int blank = len == 0 || (len >= 2 && old[len - 1] == '\n'
			   && old[len - 2] == '\n');
  for (int i = 0; i < n; i++)
    if (!done[i])
      {
	if (!header_done++)
	  fprintf (f, "%s# %s\n", blank ? "" : "\n", header);
	fprintf (f, "%s = %s\n", keys[i], values[i]);
      }
  if (fclose (f) != 0)
    die ("out of memory");

  const struct file_replacement r = {
    .path = path,
    .dir = dir,
    .tmp_template = ".fastcopy.conf.XXXXXX",
    .old = exists ? &st : NULL,
    .check = no_more_errors,
    .check_arg = &old_errors,
  };
  if (file_replace (&r, text, text_len) != 0)
    exit (1);
  fprintf (stderr, "%s: wrote %s\n", progname, path);
  free (text);
  free (done);
  free (dir_copy);
  free (old);
}

/* ------------------------------------------------------------------------ */

static void
usage (FILE *f)
{
  fprintf (f,
	   "usage: fastcopy-tune [--quick] [--repeat N] [--no-compare] "
	   "[--verbose] [--quiet]\n"
	   "                     [--write] [--config FILE]\n"
	   "       fastcopy-tune --set KEY=VALUE... [--write] [--config FILE]\n"
	   "Measure where REP MOVSB/STOSB and streaming stores start to pay "
	   "on this\nmachine and print the settings; --write installs them "
	   "into the\nconfiguration file (%s, or --config FILE),\nkeeping its "
	   "other lines.  --set skips measuring and installs the given "
	   "settings.\nSee fastcopy-tune(1).\n",
	   fastcopy_config_state ()->system_path);
}

/* ARG: the number of the --set being checked, from 1.  */
static void
print_diag (const struct fastcopy_diagnostic *d, void *arg)
{
  fprintf (stderr, "%s: --set %d: %s\n", progname, *(int *) arg, d->message);
}

int
main (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "quick", no_argument, NULL, 'q' },
    { "repeat", required_argument, NULL, 'r' },
    { "write", no_argument, NULL, 'w' },
    { "config", required_argument, NULL, 'c' },
    { "set", required_argument, NULL, 's' },
    { "no-compare", no_argument, NULL, 'n' },
    { "verbose", no_argument, NULL, 'v' },
    { "quiet", no_argument, NULL, 'Q' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  key_names[K_REP_MOVSB] = setting_name (FASTCOPY_FAMILY_COPY, FASTCOPY_TRAIT_REP);
  key_names[K_REP_STOSB] = setting_name (FASTCOPY_FAMILY_CLEAR, FASTCOPY_TRAIT_REP);
  key_names[K_COPY_NT] = setting_name (FASTCOPY_FAMILY_COPY, FASTCOPY_TRAIT_NT);
  key_names[K_CLEAR_NT] = setting_name (FASTCOPY_FAMILY_CLEAR, FASTCOPY_TRAIT_NT);
  int c;
  while ((c = getopt_long (argc, argv, "", longopts, NULL)) != -1)
    switch (c)
      {
      case 'q': opt.quick = 1; break;
      case 'r':
	{
	  char *end;
	  errno = 0;
	  long r = strtol (optarg, &end, 10);
	  /* Digits only: no sign, no spaces, nothing after them.  */
	  opt.repeat = *optarg < '0' || *optarg > '9' || *end || errno
	    || r < 1 || r > MAX_RUNS ? 0 : (int) r;
	}
	if (opt.repeat == 0)
	  {
	    fprintf (stderr, "%s: --repeat takes 1 to %d\n", progname,
		     MAX_RUNS);
	    return 2;
	  }
	break;
      case 'w': opt.write = 1; break;
      case 'c': opt.config = optarg; break;
      case 's':
	if (opt.nset == 16)
	  {
	    fprintf (stderr, "%s: at most 16 --set\n", progname);
	    return 2;
	  }
	opt.set[opt.nset++] = optarg;
	break;
      case 'n': opt.compare = 0; break;
      case 'v': opt.verbose = 1; break;
      case 'Q': opt.quiet = 1; break;
      case 'h': usage (stdout); return 0;
      case 'V':
	printf ("fastcopy-tune (libfastcopy) %s\n", fastcopy_version ());
	return 0;
      default:
	usage (stderr);
	return 2;
      }
  if (optind < argc)
    {
      usage (stderr);
      return 2;
    }
  if (opt.config != NULL && !opt.write)
    {
      fprintf (stderr, "%s: --config needs --write\n", progname);
      return 2;
    }
  progress_tty = isatty (2);
  const char *path = opt.config ? opt.config
			       : fastcopy_config_state ()->system_path;
  const struct fastcopy_cpu *cpu = fastcopy_cpu ();
  char header[256], date[32];
  time_t t = time (NULL);
  strftime (date, sizeof date, "%Y-%m-%d", localtime (&t));

  char *keys[16], *values[16];
  int n = 0;
  if (opt.nset > 0)
    {
      /* Check every item with the library's parser first.  */
      int bad = 0;
      for (int i = 0; i < opt.nset; i++)
	{
	  int number = i + 1;
	  bad |= fastcopy_check_env (opt.set[i], print_diag, &number) != 0;
	}
      if (bad)
	return 1;
      for (int i = 0; i < opt.nset; i++)
	{
	  char *eq = strchr (opt.set[i], '=');
	  if (eq == NULL || strchr (opt.set[i], ',') != NULL)
	    {
	      fprintf (stderr, "%s: --set takes one KEY=VALUE\n", progname);
	      return 2;
	    }
	  *eq = 0;
	  keys[n] = opt.set[i];
	  values[n++] = eq + 1;
	}
      snprintf (header, sizeof header, "set by fastcopy-tune --set, %s",
		date);
      for (int i = 0; i < n; i++)
	printf ("%s = %s\n", keys[i], values[i]);
    }
  else
    {
      fcm_pin (-1);
      buffers (nt_max ());

      /* Save what this process had, to restore it at the end.  */
      char saved[256] = "";
      for (int k = 0; k < K_COUNT; k++)
	{
	  const struct fastcopy_setting *s = fastcopy_setting_find (key_names[k]);
	  size_t l = strlen (saved);
	  snprintf (saved + l, sizeof saved - l, "%s%s=%s", l ? "," : "",
		    key_names[k], s->value);
	}

      struct result runs[MAX_RUNS];
      for (int r = 0; r < opt.repeat; r++)
	tune_once (r + 1, &runs[r]);

      struct result res;
      printf ("# fastcopy-tune %s%s, %s: %s family %u model %u, %d run%s\n",
	      fastcopy_version (), opt.quick ? " --quick" : "", date,
	      cpu->vendor, cpu->family, cpu->model, opt.repeat,
	      opt.repeat > 1 ? "s" : "");
      printf ("# break-even sizes (REP: aligned / misaligned)\n");
      for (int r = 0; r < opt.repeat; r++)
	{
	  char a[32], b[32], c2[32], d[32], e[32], g[32];
	  printf ("#   run %d: REP MOVSB %s / %s, REP STOSB %s / %s, "
		  "streaming copy %s, clear %s\n", r + 1,
		  size_human (runs[r].rep_aligned[0], a, sizeof a),
		  size_human (runs[r].rep_misaligned[0], b, sizeof b),
		  size_human (runs[r].rep_aligned[1], c2, sizeof c2),
		  size_human (runs[r].rep_misaligned[1], d, sizeof d),
		  size_human (runs[r].value[K_COPY_NT], e, sizeof e),
		  size_human (runs[r].value[K_CLEAR_NT], g, sizeof g));
	}
      for (int k = 0; k < K_COUNT; k++)
	{
	  unsigned long long v[MAX_RUNS];
	  for (int r = 0; r < opt.repeat; r++)
	    v[r] = runs[r].value[k];
	  qsort (v, (size_t) opt.repeat, sizeof *v, cmp_ull);
	  res.value[k] = v[opt.repeat / 2];
	  if (opt.repeat > 1)
	    {
	      char a[32], b[32], m[32];
	      printf ("#   %-20s median %s, spread %s .. %s%s\n", key_names[k],
		      size_human (res.value[k], m, sizeof m),
		      size_human (v[0], a, sizeof a),
		      size_human (v[opt.repeat - 1], b, sizeof b),
		      v[0] == v[opt.repeat - 1] ? " (all runs agree)" : "");
	    }
	}
      if (res.value[K_REP_MOVSB] != NEVER && res.value[K_COPY_NT] != NEVER
	  && res.value[K_REP_MOVSB] >= res.value[K_COPY_NT])
	res.value[K_REP_MOVSB] = NEVER;
      if (res.value[K_REP_STOSB] != NEVER && res.value[K_CLEAR_NT] != NEVER
	  && res.value[K_REP_STOSB] >= res.value[K_CLEAR_NT])
	res.value[K_REP_STOSB] = NEVER;

      if (opt.compare)
	compare (&res);
      fastcopy_set (saved, NULL, NULL);

      static char vbuf[K_COUNT][32];
      for (int k = 0; k < K_COUNT; k++)
	{
	  keys[n] = (char *) key_names[k];
	  values[n++] = (char *) size_text (res.value[k], vbuf[k],
					    sizeof vbuf[k]);
	  printf ("%s = %s\n", keys[k], vbuf[k]);
	}
      snprintf (header, sizeof header, "measured by fastcopy-tune%s, %s, "
		"on %s family %u model %u", opt.quick ? " --quick" : "", date,
		cpu->vendor, cpu->family, cpu->model);
    }
  fflush (stdout);
  if (opt.write)
    write_config (path, n, keys, values, header);
  return 0;
}
