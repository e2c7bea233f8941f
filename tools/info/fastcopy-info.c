/* SPDX-License-Identifier: MIT */
/* fastcopy-info: what libfastcopy sees on this machine, what it chose and
   why, where each setting came from, and whether it is preloaded.  With
   --check, validate configuration files (the library's own parser).  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fastcopy.h"
#include "common/i386-abi.h"
#include "common/json.h"
#include "common/message.h"
#include "common/preload-entry.h"
#include "info-process.h"
#include "tools-interface.h"

#define LD_SO_PRELOAD "/etc/ld.so.preload"

/* For the messages of the shared code (common/message.h).  */
const char tool_name[] = "fastcopy-info";
#ifndef FASTCOPY_LIBDIR
# error "FASTCOPY_LIBDIR must name the directory the library is installed in"
#endif

static const char *
family_name (enum fastcopy_family f)
{
  return f == FASTCOPY_FAMILY_COPY ? "copy"
	 : f == FASTCOPY_FAMILY_CLEAR ? "clear" : "all";
}

static const char *
source_name (enum fastcopy_source s)
{
  switch (s)
    {
    case FASTCOPY_SOURCE_FILE: return "file";
    case FASTCOPY_SOURCE_ENV: return "env";
    case FASTCOPY_SOURCE_API: return "api";
    case FASTCOPY_SOURCE_ENV_CONFIG: return "env_config";
    default: return "default";
    }
}

static const char *
type_name (enum fastcopy_setting_type t)
{
  return t == FASTCOPY_SETTING_IMPL ? "implementation"
	 : t == FASTCOPY_SETTING_SIZE ? "size"
	 : t == FASTCOPY_SETTING_POLICY ? "policy"
	 : t == FASTCOPY_SETTING_PATH ? "path"
	 : t == FASTCOPY_SETTING_SIGNAL ? "signal" : "bool";
}

static const char *
file_state_name (enum fastcopy_file_state s)
{
  switch (s)
    {
    case FASTCOPY_FILE_ABSENT: return "absent";
    case FASTCOPY_FILE_USED: return "used";
    case FASTCOPY_FILE_REJECTED: return "rejected";
    default: return "none";
    }
}

static const char *
env_state_name (enum fastcopy_env_state s)
{
  switch (s)
    {
    case FASTCOPY_ENV_USED: return "used";
    case FASTCOPY_ENV_REJECTED: return "rejected";
    case FASTCOPY_ENV_IGNORED: return "ignored";
    default: return "unset";
    }
}

/* Text from outside the program (FASTCOPY, file names, preload entries) as
   plain output shows it: control characters, backslashes and non-ASCII
   bytes escaped (\n, \t, \\, \xHH), so that nothing reaches the terminal
   as a command or breaks a line, and at most SHOWN_MAX bytes of it, with
   the full length after a longer one.  For a message that quotes it
   itself ('%s'); shown is for text that stands bare.  The result lives
   until the SHOWN_SLOTS-th later call of escaped or shown.  */
#define SHOWN_MAX 200
#define SHOWN_SLOTS 4

static const char *
escaped (const char *s)
{
  static char slots[SHOWN_SLOTS][4 * SHOWN_MAX + 48];
  static unsigned int next;
  char *out = slots[next++ % SHOWN_SLOTS], *o = out;
  size_t len = strlen (s);
  for (size_t i = 0; i < len && i < SHOWN_MAX; i++)
    {
      unsigned char c = (unsigned char) s[i];
      if (c == '\n')
	o += sprintf (o, "\\n");
      else if (c == '\t')
	o += sprintf (o, "\\t");
      else if (c == '\\')
	o += sprintf (o, "\\\\");
      else if (c < 0x20 || c >= 0x7f)
	o += sprintf (o, "\\x%02x", c);
      else
	*o++ = (char) c;
    }
  *o = '\0';
  if (len > SHOWN_MAX)
    sprintf (o, "... (%zu bytes)", len);
  return out;
}

/* S escaped, and '' for the empty string, which would show as
   nothing.  */
const char *
shown (const char *s)
{
  return shown_name (escaped (s));
}

/* What became of FASTCOPY's items: "used" only when some apply and none
   was refused.  */
static void
print_env_outcome (void)
{
  unsigned int applied = 0, refused = 0;
  for (size_t i = 0; i < fastcopy_setting_count (); i++)
    applied += fastcopy_setting_at (i)->source == FASTCOPY_SOURCE_ENV;
  for (size_t i = 0; i < fastcopy_diagnostic_count (); i++)
    {
      const struct fastcopy_diagnostic *d = fastcopy_diagnostic_at (i);
      refused += d->source == FASTCOPY_SOURCE_ENV
	&& d->severity == FASTCOPY_ERROR;
    }
  if (applied > 0 && refused == 0)
    printf ("used");
  else if (applied > 0)
    printf ("used; %u item%s rejected", refused, refused == 1 ? "" : "s");
  else if (refused > 0)
    printf ("not used: every item was rejected");
  else
    printf ("not used: no settings in it");
}

/* ------------------------------------------------------------------------ */
/* Preloading: is this process's libfastcopy preloaded, and is it listed in
   /etc/ld.so.preload?  Both questions follow the rule that fastcopy-preload
   and the package scripts follow (common/preload-entry.c): an entry
   lists this libfastcopy when it names the file loaded here, another one
   when it is libfastcopy's by that rule.  */

struct preload_list
{
  int present;			/* variable set / file exists */
  int lists_this;		/* an entry is the library loaded here */
  int lists_other;		/* an entry names another libfastcopy */
  char entry[1024];		/* the first such entry */
  char error[128];		/* why the file could not be read */
  /* Where the system runs 32-bit programs (i386-abi.h), what ENTRY
     gives them; lib32 NULL elsewhere, or when no entry is libfastcopy's.  */
  const char *lib32;
  struct i386_load load32;
};

/* The library loaded here; st_ino 0 when it cannot be told.  */
static struct stat self_file;

static void
examine_entry (struct preload_list *l, const char *entry)
{
  size_t len = strlen (entry);
  if (self_file.st_ino != 0 && !l->lists_this
      && preload_entry_names ("/", FASTCOPY_LIBDIR, entry, len, &self_file))
    {
      l->lists_this = 1;
      snprintf (l->entry, sizeof l->entry, "%s", entry);
      return;
    }
  if (!l->lists_this && !l->lists_other
      && preload_entry_is_ours ("/", FASTCOPY_LIBDIR, entry, len))
    {
      l->lists_other = 1;
      snprintf (l->entry, sizeof l->entry, "%s", entry);
    }
}

/* LD_PRELOAD: entries are separated by white space or colons, as ld.so
   reads both.  */
static void
examine_list (struct preload_list *l, char *text)
{
  for (char *tok = strtok (text, " \t\n:"); tok != NULL;
       tok = strtok (NULL, " \t\n:"))
    examine_entry (l, tok);
}

/* /etc/ld.so.preload: the same, and a '#' starts a comment that runs to
   the end of its line.  */
static void
examine_file (struct preload_list *l, const char *text, size_t len)
{
  const char *end = text + len;
  for (const char *line = text; line < end;)
    {
      const char *nl = memchr (line, '\n', (size_t) (end - line));
      size_t n = nl != NULL ? (size_t) (nl - line) : (size_t) (end - line);
      struct preload_scan s;
      preload_scan_start (&s, line, n);
      while (preload_scan_next (&s))
	{
	  char *entry = strndup (s.entry, s.entry_len);
	  if (entry != NULL)
	    examine_entry (l, entry);
	  free (entry);
	}
      line += n + 1;
    }
}

static void
find_preloads (struct preload_list *env, struct preload_list *file)
{
  Dl_info info;
  memset (env, 0, sizeof *env);
  memset (file, 0, sizeof *file);
  if (dladdr ((void *) fastcopy_version, &info) == 0 || info.dli_fname == NULL
      || stat (info.dli_fname, &self_file) < 0)
    self_file.st_ino = 0;

  const char *v = getenv ("LD_PRELOAD");
  if (v != NULL)
    {
      char *copy = strdup (v);
      env->present = 1;
      if (copy != NULL)
	examine_list (env, copy);
      free (copy);
    }

  FILE *f = fopen (LD_SO_PRELOAD, "re");
  if (f == NULL && errno != ENOENT)
    {
      file->present = 1;
      snprintf (file->error, sizeof file->error, "%s", strerror (errno));
    }
  else if (f != NULL)
    {
      file->present = 1;
      char *text = malloc (65536);
      if (text != NULL)
	{
	  size_t n = fread (text, 1, 65536, f);
	  examine_file (file, text, n);
	  free (text);
	}
      fclose (f);
    }
  if (file->lists_this || file->lists_other)
    file->lib32 = i386_lib_value ("/");
  if (file->lib32 != NULL)
    i386_entry_load ("/", file->lib32, file->entry, strlen (file->entry),
		     &file->load32);
}

/* What the entry of /etc/ld.so.preload gives 32-bit programs, on a line
   of its own; nothing where the system runs none.  */
static void
print_i386 (const struct preload_list *file)
{
  if (file->lib32 == NULL)
    return;
  const struct i386_load *l = &file->load32;
  if (l->problem == NULL)
    printf ("  32-bit programs ($LIB is %s): load %s, an i386 shared object\n",
	    file->lib32, shown (l->file));
  else
    printf ("  32-bit programs ($LIB is %s): get no i386 libfastcopy (%s: %s);\n"
	    "    each prints an ld.so error when it starts; to fix this: %s\n",
	    file->lib32, l->file != NULL ? shown (l->file) : "nothing",
	    l->problem, i386_advice ("/", file->entry, strlen (file->entry)));
}

/* Where libfastcopy sits in the link map: index 0 is the program.  */
struct map_pos
{
  int index, self;
  const char *path;
};

static int
find_self (struct dl_phdr_info *info, size_t size, void *arg)
{
  struct map_pos *m = arg;
  (void) size;
  const char *base = strrchr (info->dlpi_name, '/');
  base = base != NULL ? base + 1 : info->dlpi_name;
  if (m->self < 0 && strncmp (base, "libfastcopy.so", 14) == 0)
    m->self = m->index;
  m->index++;
  return 0;
}

/* ------------------------------------------------------------------------ */

static void
print_size (const char *label, unsigned long bytes)
{
  if (bytes == 0)
    printf ("  %-4s unknown\n", label);
  else
    printf ("  %-4s %lu KiB\n", label, bytes >> 10);
}

static int
has (const struct fastcopy_cpu *cpu, const char *name)
{
  for (unsigned int b = 0; fastcopy_cpu_feature_name (b) != NULL; b++)
    if (strcmp (fastcopy_cpu_feature_name (b), name) == 0)
      return (cpu->features >> b) & 1;
  return 0;
}

static void
print_group (const struct fastcopy_cpu *cpu, const char *label,
	     const char *const *names)
{
  printf ("  %-14s", label);
  for (int i = 0; names[i] != NULL; i++)
    printf ("%s %s%s", names[i], has (cpu, names[i]) ? "yes" : "no",
	    names[i + 1] != NULL ? ", " : "\n");
}

static const char *const fast_strings[] = { "ERMS", "FSRM", "FZLRM", "FSRS",
					     "FSRCS", NULL };
static const char *const vectors[] = { "SSE2", "AVX2", "AVX512F", "AVX512BW",
					"AVX512VL", NULL };
static const char *const others[] = { "BMI2", "CLZERO", "AVX_VNNI", NULL };

static const char *
library_path (void)
{
  Dl_info info;
  if (dladdr ((void *) fastcopy_version, &info) != 0 && info.dli_fname)
    return info.dli_fname;
  return "unknown";
}

static const char *
in_process (const struct preload_list *env, const struct preload_list *file)
{
  if (env->lists_this && !fastcopy_config_state ()->secure)
    return "ld_preload";
  if (file->lists_this)
    return "ld_so_preload";
  return "linked";
}

/* "AMD family 25 model 0-15", "any family", ... */
static void
print_range (const char *what, unsigned int lo, unsigned int hi)
{
  if (lo == 0 && hi == 0xffffffffu)
    printf ("any %s", what);
  else if (lo == hi)
    printf ("%s %u", what, lo);
  else if (hi == 0xffffffffu)
    printf ("%s %u and up", what, lo);
  else
    printf ("%s %u-%u", what, lo, hi);
}

static void
print_policy_row (const struct fastcopy_policy *p, const char *label)
{
  printf ("  %s: %s (%s table)\n", label, p->name, p->table);
  printf ("    matches: %s CPUs, ", p->vendor);
  print_range ("family", p->family_min, p->family_max);
  printf (", ");
  print_range ("model", p->model_min, p->model_max);
  printf (", with");
  if (p->requires == 0)
    printf (" any features");
  for (unsigned int b = 0; fastcopy_cpu_feature_name (b) != NULL; b++)
    if (p->requires & (1ull << b))
      printf (" %s", fastcopy_cpu_feature_name (b));
  printf ("\n    chooses: copy %s, clear %s; %s\n", p->copy->name,
	  p->clear->name, p->thresholds);
  printf ("    %s: %s\n", p->measured ? "measured" : "not measured here",
	  p->evidence);
  printf ("    why: %s\n", p->reason);
}

/* --policy: every row of every table, in the order they are tried.  */
static void
print_policies (void)
{
  const struct fastcopy_policy *mine = fastcopy_policy_matched ("auto");
  const struct fastcopy_policy *seed = fastcopy_policy_matched ("seed");
  /* The evidence files are the source's, not the packages': say where a
     reader finds them.  */
  printf ("The files of doc/bench/ named below are in the source "
	  "distribution of\nlibfastcopy %s (libfastcopy-%s.tar.*), under "
	  "doc/bench/.\n\n", fastcopy_version (), fastcopy_version ());
  for (size_t i = 0; i < fastcopy_policy_count (); i++)
    {
      const struct fastcopy_policy *p = fastcopy_policy_at (i);
      print_policy_row (p, p == mine || p == seed ? "row (matches this CPU)"
						  : "row");
    }
}

/* ------------------------------------------------------------------------ */
/* The report (no option, or --json): one walk of the sections below, in
   their order, writes both outputs.  In the text a section is a blank
   line, its heading and its lines; in JSON a member of the one object,
   an array for a list.  A section writes item I of itself in both, side
   by side: JSON is NULL for the text, else the flag json_key takes.  */

/* A diagnostic as a line of text (ORIGIN:LINE: or ORIGIN item N:, then
   the message), and as JSON members: for the report and for --check.
   ORIGIN is the diagnostic's own, or the name --check gives the file.  */
static void
print_diagnostic (const struct fastcopy_diagnostic *d, const char *origin,
		  const char *indent)
{
  printf ("%s%s", indent, shown (origin));
  if (d->line != 0)
    printf (d->source == FASTCOPY_SOURCE_FILE ? ":%u" : " item %u", d->line);
  printf (": %s%s\n", d->severity == FASTCOPY_WARNING ? "warning: " : "",
	  d->message);
}

static void
json_diagnostic (const struct fastcopy_diagnostic *d, const char *origin,
		 int *json)
{
  json_str_field ("severity", d->severity == FASTCOPY_WARNING ? "warning"
		  : "error", json);
  json_str_field ("source", source_name (d->source), json);
  json_str_field ("origin", origin, json);
  json_num_field ("line", d->line, json);
  json_str_field ("key", d->key, json);
  json_str_field ("message", d->message, json);
}

static void
header_section (size_t i, int *json)
{
  (void) i;
  if (json == NULL)
    printf ("libfastcopy %s (%s)\n", fastcopy_version (),
	    shown (library_path ()));
  else
    {
      json_str_field ("version", fastcopy_version (), json);
      json_str_field ("library", library_path (), json);
    }
}

static void
cpu_section (size_t i, int *json)
{
  (void) i;
  const struct fastcopy_cpu *cpu = fastcopy_cpu ();
  if (json == NULL)
    {
      printf ("CPU: %s family %u model %u stepping %u\n", cpu->vendor,
	      cpu->family, cpu->model, cpu->stepping);
      printf ("features:");
      for (unsigned int b = 0; fastcopy_cpu_feature_name (b) != NULL; b++)
	if (cpu->features & (1ull << b))
	  printf (" %s", fastcopy_cpu_feature_name (b));
      printf ("\n");
      print_group (cpu, "fast strings:", fast_strings);
      print_group (cpu, "vectors:", vectors);
      print_group (cpu, "other:", others);
      printf ("caches:\n");
      print_size ("L1d", cpu->l1d_size);
      print_size ("L2", cpu->l2_size);
      print_size ("L3", cpu->l3_size);
      if (cpu->l3_size != 0 && cpu->l3_threads != 0)
	printf ("  L3 share of a thread: %lu KiB (%u threads share the L3)\n",
		(cpu->l3_size / cpu->l3_threads) >> 10, cpu->l3_threads);
      return;
    }
  json_str_field ("vendor", cpu->vendor, json);
  json_num_field ("family", cpu->family, json);
  json_num_field ("model", cpu->model, json);
  json_num_field ("stepping", cpu->stepping, json);
  json_key ("features", json);
  putchar ('{');
  int ff = 1;
  for (unsigned int b = 0; fastcopy_cpu_feature_name (b) != NULL; b++)
    json_bool_field (fastcopy_cpu_feature_name (b),
		     (cpu->features >> b) & 1, &ff);
  putchar ('}');
  json_key ("caches", json);
  putchar ('{');
  ff = 1;
  json_num_field ("l1d", cpu->l1d_size, &ff);
  json_num_field ("l2", cpu->l2_size, &ff);
  json_num_field ("l3", cpu->l3_size, &ff);
  json_num_field ("l3_threads", cpu->l3_threads, &ff);
  putchar ('}');
}

static void
impl_section (size_t i, int *json)
{
  const struct fastcopy_impl *impl = fastcopy_impl_at (i);
  if (json == NULL)
    printf ("  %-5s %-8s %-10s %s\n", family_name (impl->family), impl->name,
	    fastcopy_impl_usable (impl) ? "usable" : "not-usable",
	    impl->summary);
  else
    {
      json_str_field ("family", family_name (impl->family), json);
      json_str_field ("name", impl->name, json);
      json_bool_field ("usable", fastcopy_impl_usable (impl), json);
      json_str_field ("summary", impl->summary, json);
    }
}

static void
policy_section (size_t i, int *json)
{
  (void) i;
  const struct fastcopy_policy *row = fastcopy_policy_matched ("auto");
  if (json == NULL)
    {
      print_policy_row (row, "this CPU's row");
      return;
    }
  json_str_field ("name", row->name, json);
  json_str_field ("table", row->table, json);
  json_str_field ("copy", row->copy->name, json);
  json_str_field ("clear", row->clear->name, json);
  json_str_field ("thresholds", row->thresholds, json);
  json_bool_field ("measured", row->measured, json);
  json_str_field ("evidence", row->evidence, json);
  json_str_field ("reason", row->reason, json);
}

static size_t
function_count (void)
{
  size_t n = 0;
  while (fastcopy_functions ()[n] != NULL)
    n++;
  return n;
}

/* Why function C has its implementation, in a line of the text report:
   what chose it -- the row, named rather than its reason, which speaks
   of both families; or the setting, with the row it named -- then the
   thresholds of C's family that the implementation reads, as they are in
   force.  */
static const char *
family_reason (const struct fastcopy_choice *c, char *buf, size_t size)
{
  size_t n = strlen (c->reason), r = 0;
  if (c->policy != NULL)
    r = strlen (c->policy->reason);
  if (r == 0 || r > n || strcmp (c->reason + n - r, c->policy->reason) != 0)
    snprintf (buf, size, "%s", c->reason);
  else if (r == n)
    snprintf (buf, size, "row %s", c->policy->name);
  else
    snprintf (buf, size, "%.*srow %s", (int) (n - r), c->reason,
	      c->policy->name);
  const char *sep = "; ";
  for (size_t i = 0; i < fastcopy_setting_count (); i++)
    {
      const struct fastcopy_setting *s = fastcopy_setting_at (i);
      if (s->family != c->family || !s->used
	  || (s->type != FASTCOPY_SETTING_SIZE
	      && s->type != FASTCOPY_SETTING_BOOL))
	continue;
      size_t len = strlen (buf);
      snprintf (buf + len, size - len, "%s%s %s", sep, s->key, s->value);
      sep = ", ";
    }
  return buf;
}

static void
selected_section (size_t i, int *json)
{
  const struct fastcopy_choice *c
    = fastcopy_selected (fastcopy_functions ()[i]);
  if (json == NULL)
    {
      char why[512];
      printf ("  %-21s %-8s %s\n", c->function, c->impl->name,
	      shown (family_reason (c, why, sizeof why)));
    }
  else
    {
      json_str_field ("function", c->function, json);
      json_str_field ("family", family_name (c->family), json);
      json_str_field ("implementation", c->impl->name, json);
      json_str_field ("reason", c->reason, json);
      json_str_field ("policy", c->policy ? c->policy->name : NULL, json);
    }
}

static void
setting_section (size_t i, int *json)
{
  const struct fastcopy_setting *s = fastcopy_setting_at (i);
  if (json == NULL)
    {
      char value[64], human[32];
      if (s->type == FASTCOPY_SETTING_SIZE && s->number != FASTCOPY_NEVER
	  && s->number >= 1024)
	snprintf (value, sizeof value, "%s (%s)", s->value,
		  fc_size_format (s->number, FC_SIZE_EXACT_SPACED, human,
				  sizeof human));
      else
	snprintf (value, sizeof value, "%s", s->value);
      printf ("  %-20s %-22s %s", s->key, value, shown (s->origin));
      if (s->source != FASTCOPY_SOURCE_DEFAULT
	  && strcmp (s->value, s->default_value) != 0)
	printf (" (default %s)", s->default_value);
      if (!s->used)
	printf (" (not read by %s)",
		fastcopy_selected (s->family == FASTCOPY_FAMILY_COPY
				   ? "memmove" : "memset")->impl->name);
      printf ("\n");
      return;
    }
  json_str_field ("key", s->key, json);
  json_str_field ("family", family_name (s->family), json);
  json_str_field ("type", type_name (s->type), json);
  json_str_field ("value", s->value, json);
  json_key ("number", json);
  if (s->type == FASTCOPY_SETTING_IMPL
      || (s->type == FASTCOPY_SETTING_SIZE && s->number == FASTCOPY_NEVER))
    fputs ("null", stdout);
  else
    printf ("%llu", s->number);
  json_str_field ("default", s->default_value, json);
  json_str_field ("source", source_name (s->source), json);
  json_str_field ("origin", s->origin, json);
  json_num_field ("line", s->line, json);
  json_bool_field ("used", s->used, json);
}

static void
config_section (size_t i, int *json)
{
  (void) i;
  const struct fastcopy_config_state *cs = fastcopy_config_state ();
  if (json != NULL)
    {
      json_str_field ("system_path", cs->system_path, json);
      json_str_field ("path", cs->path, json);
      json_bool_field ("path_from_env", cs->path_from_env, json);
      json_str_field ("file", file_state_name (cs->file), json);
      json_str_field ("env", env_state_name (cs->env), json);
      json_bool_field ("secure", cs->secure, json);
      json_num_field ("errors", cs->errors, json);
      json_num_field ("warnings", cs->warnings, json);
      return;
    }
  if (cs->path[0] == 0)
    printf ("  file: none (%s)\n", cs->path_from_env
	    ? "FASTCOPY_CONFIG is empty or invalid" : "not read");
  else
    printf ("  file: %s (%s%s)\n", shown (cs->path),
	    file_state_name (cs->file),
	    cs->path_from_env ? ", from FASTCOPY_CONFIG" : "");
  if (cs->path_from_env || strcmp (cs->path, cs->system_path) != 0)
    printf ("  system file: %s (not read)\n", cs->system_path);
  const char *env = getenv ("FASTCOPY") ? getenv ("FASTCOPY") : "?";
  if (cs->env == FASTCOPY_ENV_IGNORED)
    printf ("  FASTCOPY: ignored (secure-execution process)\n");
  else if (cs->env == FASTCOPY_ENV_UNSET)
    printf ("  FASTCOPY: unset\n");
  else if (cs->env == FASTCOPY_ENV_REJECTED)
    printf ("  FASTCOPY: %s (rejected)\n", shown (env));
  else
    {
      printf ("  FASTCOPY: %s (", shown (env));
      print_env_outcome ();
      printf (")\n");
    }
  printf ("  secure execution: %s\n", cs->secure ? "yes" : "no");
}

static void
diagnostic_section (size_t i, int *json)
{
  if (json == NULL)
    print_diagnostic (fastcopy_diagnostic_at (i),
		      fastcopy_diagnostic_at (i)->origin, "  ");
  else
    json_diagnostic (fastcopy_diagnostic_at (i),
		     fastcopy_diagnostic_at (i)->origin, json);
}

static void
preload_section (size_t i, int *json)
{
  (void) i;
  struct preload_list env, file;
  find_preloads (&env, &file);
  struct map_pos m = { 0, -1, NULL };
  dl_iterate_phdr (find_self, &m);
  const char *how = in_process (&env, &file);
  if (json != NULL)
    {
      json_str_field ("this_process", how, json);
      json_num_field ("link_map_position", (unsigned long long) m.self,
		      json);
      struct preload_list *lists[2] = { &env, &file };
      const char *names[2] = { "ld_preload", "ld_so_preload" };
      for (int k = 0; k < 2; k++)
	{
	  const struct preload_list *l = lists[k];
	  int ff = 1;
	  json_key (names[k], json);
	  putchar ('{');
	  json_bool_field ("present", l->present, &ff);
	  json_bool_field ("lists_this", l->lists_this, &ff);
	  json_bool_field ("lists_other", l->lists_other, &ff);
	  json_str_field ("entry", l->lists_this || l->lists_other
			  ? l->entry : NULL, &ff);
	  if (l->error[0])
	    json_str_field ("error", l->error, &ff);
	  if (l->lib32 != NULL)
	    {
	      json_str_field ("i386_lib", l->lib32, &ff);
	      json_str_field ("i386_file", l->load32.file, &ff);
	      json_str_field ("i386_problem", l->load32.problem, &ff);
	    }
	  putchar ('}');
	}
      free (file.load32.file);
      return;
    }
  printf ("  this process: %s (link map position %d)\n",
	  strcmp (how, "ld_preload") == 0 ? "preloaded by LD_PRELOAD"
	  : strcmp (how, "ld_so_preload") == 0
	  ? "preloaded by " LD_SO_PRELOAD
	  : "linked (DT_NEEDED), not preloaded", m.self);
  if (!env.present)
    printf ("  LD_PRELOAD: unset\n");
  else if (env.lists_this)
    printf ("  LD_PRELOAD: lists this libfastcopy (%s)\n", shown (env.entry));
  else if (env.lists_other)
    printf ("  LD_PRELOAD: lists another libfastcopy (%s)\n",
	    shown (env.entry));
  else
    printf ("  LD_PRELOAD: does not list libfastcopy\n");
  if (!file.present)
    printf ("  " LD_SO_PRELOAD ": absent\n");
  else if (file.error[0])
    printf ("  " LD_SO_PRELOAD ": unreadable (%s)\n", file.error);
  else if (file.lists_this)
    printf ("  " LD_SO_PRELOAD ": lists this libfastcopy (%s)\n",
	    shown (file.entry));
  else if (file.lists_other)
    printf ("  " LD_SO_PRELOAD ": lists another libfastcopy (%s)\n",
	    shown (file.entry));
  else
    printf ("  " LD_SO_PRELOAD ": does not list libfastcopy\n");
  print_i386 (&file);
  free (file.load32.file);
}

static const struct section
{
  const char *heading;		/* text: "implementations"; NULL: none */
  const char *member;		/* JSON: "implementations"; NULL: the
				   members go into the top object */
  size_t (*count) (void);	/* a list's items; NULL: one object */
  const char *empty;		/* text: the line of an empty list */
  void (*write) (size_t i, int *json);
} report[] = {
  { NULL, NULL, NULL, NULL, header_section },
  { NULL, "cpu", NULL, NULL, cpu_section },
  { "implementations", "implementations", fastcopy_impl_count, NULL,
    impl_section },
  { "policy", "policy", NULL, NULL, policy_section },
  { "selected", "selected", function_count, NULL, selected_section },
  { "settings", "settings", fastcopy_setting_count, NULL,
    setting_section },
  { "configuration", "config", NULL, NULL, config_section },
  { "rejected settings", "diagnostics", fastcopy_diagnostic_count, "  none",
    diagnostic_section },
  { "preload", "preload", NULL, NULL, preload_section },
};

static void
print_report (int json)
{
  int top = 1;
  if (json)
    putchar ('{');
  for (size_t k = 0; k < sizeof report / sizeof report[0]; k++)
    {
      const struct section *s = &report[k];
      size_t n = s->count != NULL ? s->count () : 1;
      if (!json)
	{
	  if (k > 0)
	    putchar ('\n');
	  if (s->heading != NULL)
	    printf ("%s:\n", s->heading);
	  if (n == 0 && s->empty != NULL)
	    printf ("%s\n", s->empty);
	  for (size_t i = 0; i < n; i++)
	    s->write (i, NULL);
	}
      else if (s->member == NULL)
	s->write (0, &top);
      else
	{
	  json_key (s->member, &top);
	  if (s->count != NULL)
	    putchar ('[');
	  for (size_t i = 0; i < n; i++)
	    {
	      int first = 1;
	      printf ("%s{", i ? "," : "");
	      s->write (i, &first);
	      putchar ('}');
	    }
	  if (s->count != NULL)
	    putchar (']');
	}
    }
  if (json)
    printf ("}\n");
}

/* ------------------------------------------------------------------------ */
/* --check and --check-env.  */

struct check_out
{
  int json;
  int count;
  int warnings;
  const char *name;		/* the file's name in messages; NULL: the
				   diagnostic's */
};

static void
check_print (const struct fastcopy_diagnostic *d, void *arg)
{
  struct check_out *o = arg;
  if (d->severity == FASTCOPY_WARNING)
    o->warnings++;
  if (o->json)
    {
      int first = 1;
      printf ("%s{", o->count++ ? "," : "");
      json_diagnostic (d, o->name ? o->name : d->origin, &first);
      putchar ('}');
      return;
    }
  o->count++;
  print_diagnostic (d, o->name ? o->name : d->origin, "");
}

/* Standard input, copied into an unnamed file, as a name the library
   can open (it reads regular files only; a pipe is none); NULL after a
   message.  */
static const char *
standard_input_file (void)
{
  static char name[64];
  const char *dir = getenv ("TMPDIR") ? getenv ("TMPDIR") : "/tmp";
  int fd = open (dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      error_msg ("cannot make a file in %s for standard input: %s", dir,
		 strerror (errno));
      return NULL;
    }
  char buf[8192];
  ssize_t n;
  while ((n = read (0, buf, sizeof buf)) > 0)
    if (write (fd, buf, (size_t) n) != n)
      {
	n = -1;
	break;
      }
  if (n < 0)
    {
      error_msg ("standard input: %s", strerror (errno));
      close (fd);
      return NULL;
    }
  snprintf (name, sizeof name, "/proc/self/fd/%d", fd);
  return name;
}

/* Check PATH, - for standard input (or, ENV set, a FASTCOPY value);
   nonzero on any error.  */
static int
check (const char *what, int env, int trusted, int json)
{
  struct check_out o = { json, 0, 0, NULL };
  const char *path = what;
  if (!env && strcmp (what, "-") == 0)
    {
      o.name = "(standard input)";
      path = standard_input_file ();
      if (path == NULL)
	return 1;
    }
  if (json)
    {
      int first = 1;
      putchar ('{');
      json_str_field (env ? "env" : "file", what, &first);
      json_key ("diagnostics", &first);
      putchar ('[');
    }
  int errors = env ? fastcopy_check_env (what, check_print, &o)
		   : fastcopy_check_config (path, trusted
					    ? FASTCOPY_CHECK_TRUSTED : 0,
					    check_print, &o);
  if (json)
    printf ("],\"errors\":%d,\"warnings\":%d}\n", errors, o.warnings);
  else if (errors == 0)
    printf ("%s: OK%s\n", env ? "FASTCOPY" : o.name ? o.name : shown (what),
	    o.warnings ? " (with warnings)" : "");
  return errors != 0;
}

/* ------------------------------------------------------------------------ */
/* --cpu DESCRIPTION: what the policy chooses on a CPU described by words
   KEY=VALUE (fastcopy-info(1)), as fastcopy_plan_for gives it.  */

/* A number: decimal or 0x hexadecimal.  Returns 0 unless all of TEXT is
   one that fits.  */
static int
parse_number (const char *text, unsigned long long *out)
{
  const char *p = text;
  int base = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    base = 16, p += 2;
  unsigned long long v = 0;
  const char *digits = p;
  for (;; p++)
    {
      int d;
      if (*p >= '0' && *p <= '9')
	d = *p - '0';
      else if (base == 16 && *p >= 'a' && *p <= 'f')
	d = *p - 'a' + 10;
      else if (base == 16 && *p >= 'A' && *p <= 'F')
	d = *p - 'A' + 10;
      else
	break;
      if (v > (~0ull - (unsigned) d) / (unsigned) base)
	return 0;
      v = v * (unsigned) base + (unsigned) d;
    }
  if (p == digits || *p)
    return 0;
  *out = v;
  return 1;
}

/* DESC into CPU, and the features it names that the library does not
   know into IGNORED (of SIZE bytes), separated by spaces: a flags line of
   another machine's /proc/cpuinfo names many.  On a bad word, a usage
   error naming it and 0.  */
static int
parse_cpu (const char *desc, struct fastcopy_cpu *cpu, char *ignored,
	   size_t size)
{
  memset (cpu, 0, sizeof *cpu);
  ignored[0] = '\0';
  char buf[4096];
  if (strlen (desc) >= sizeof buf)
    {
      usage_msg ("--cpu: the description is longer than %zu bytes",
		 sizeof buf - 1);
      return 0;
    }
  strcpy (buf, desc);
  /* Every key at most once: a second value would silently win.  */
  static const char *const keys[] = { "vendor", "family", "model",
				      "stepping", "features", "l1d", "l2",
				      "l3", "l3_threads", NULL };
  unsigned int seen = 0;
  int have_vendor = 0;
  for (char *save = NULL, *w = strtok_r (buf, " \t\n", &save); w != NULL;
       w = strtok_r (NULL, " \t\n", &save))
    {
      char *eq = strchr (w, '=');
      if (eq == NULL)
	{
	  usage_msg ("--cpu: '%s' is not KEY=VALUE", escaped (w));
	  return 0;
	}
      *eq = 0;
      const char *key = w, *value = eq + 1;
      int k = 0;
      while (keys[k] != NULL && strcmp (keys[k], key) != 0)
	k++;
      if (keys[k] == NULL)
	{
	  char known[128] = "";
	  for (k = 0; keys[k] != NULL; k++)
	    snprintf (known + strlen (known), sizeof known - strlen (known),
		      "%s%s", k ? ", " : "", keys[k]);
	  usage_msg ("--cpu: unknown key '%s' (%s)", escaped (key), known);
	  return 0;
	}
      if (seen & (1u << k))
	{
	  usage_msg ("--cpu: %s given twice", key);
	  return 0;
	}
      seen |= 1u << k;
      unsigned long long n = 0;
      int ok = 1;
      if (strcmp (key, "vendor") == 0)
	{
	  ok = strlen (value) == 12;
	  if (ok)
	    memcpy (cpu->vendor, value, 13);
	  have_vendor = ok;
	}
      else if (strcmp (key, "features") == 0)
	{
	  char list[sizeof buf];
	  snprintf (list, sizeof list, "%s", value);
	  for (char *s2 = NULL, *f = strtok_r (list, ",", &s2); f != NULL && ok;
	       f = strtok_r (NULL, ",", &s2))
	    {
	      unsigned int b = 0;
	      /* Any case: /proc/cpuinfo spells them in lower case.  */
	      while (fastcopy_cpu_feature_name (b) != NULL
		     && strcasecmp (fastcopy_cpu_feature_name (b), f) != 0)
		b++;
	      if (fastcopy_cpu_feature_name (b) != NULL)
		cpu->features |= 1ull << b;
	      else if (strlen (ignored) + strlen (f) + 2 < size)
		snprintf (ignored + strlen (ignored), size - strlen (ignored),
			  "%s%s", ignored[0] ? " " : "", f);
	    }
	}
      else if (strcmp (key, "family") == 0 || strcmp (key, "model") == 0
	       || strcmp (key, "stepping") == 0
	       || strcmp (key, "l3_threads") == 0)
	{
	  ok = parse_number (value, &n) && n <= 0xffffffffu;
	  unsigned int *field = key[0] == 'f' ? &cpu->family
				: key[0] == 'm' ? &cpu->model
				: key[0] == 's' ? &cpu->stepping
				: &cpu->l3_threads;
	  *field = (unsigned int) n;
	}
      else
	{
	  /* A cache size, as the settings write sizes; never is none.  */
	  ok = fc_size_parse (value, strlen (value), &n) == FC_SIZE_OK
	       && n != FASTCOPY_NEVER && n <= (unsigned long) -1;
	  unsigned long *field = key[1] == '1' ? &cpu->l1d_size
				 : key[1] == '2' ? &cpu->l2_size
				 : &cpu->l3_size;
	  *field = (unsigned long) n;
	}
      if (!ok)
	{
	  usage_msg ("--cpu: bad value for %s: '%s'", key, escaped (value));
	  return 0;
	}
    }
  if (!have_vendor)
    {
      usage_msg ("--cpu: the description needs vendor=, a 12-character "
		 "vendor string (GenuineIntel, AuthenticAMD...)");
      return 0;
    }
  return 1;
}

/* A plan value as plain output and JSON give it.  */
static void
plan_value_text (const struct fastcopy_setting *s, unsigned long long v,
		 char *buf, size_t size)
{
  if (s->type == FASTCOPY_SETTING_BOOL)
    snprintf (buf, size, "%s", v ? "on" : "off");
  else
    fc_size_format (v, FC_SIZE_BYTES, buf, size);
}

static int
print_described (const char *desc, int json)
{
  struct fastcopy_cpu cpu;
  char ignored[4096];
  if (!parse_cpu (desc, &cpu, ignored, sizeof ignored))
    return 2;
  struct fastcopy_plan plan;
  fastcopy_plan_for (&cpu, &plan);
  int first = 1;
  if (json)
    {
      putchar ('{');
      json_str_field ("policy", plan.policy ? plan.policy->name : NULL,
		      &first);
      json_str_field ("copy", plan.impl[FASTCOPY_FAMILY_COPY]->name, &first);
      json_str_field ("clear", plan.impl[FASTCOPY_FAMILY_CLEAR]->name,
		      &first);
      json_key ("ignored_features", &first);
      putchar ('[');
      char *save = NULL;
      int n = 0;
      for (char *w = strtok_r (ignored, " ", &save); w != NULL;
	   w = strtok_r (NULL, " ", &save))
	{
	  if (n++)
	    putchar (',');
	  json_string (w);
	}
      putchar (']');
      json_key ("settings", &first);
      putchar ('{');
    }
  else
    {
      printf ("described CPU: %s family %u model %u\n", cpu.vendor,
	      cpu.family, cpu.model);
      if (ignored[0])
	printf ("ignored features (unknown to libfastcopy): %s\n",
		shown (ignored));
      printf ("row: %s\ncopy: %s\nclear: %s\n",
	      plan.policy ? plan.policy->name : "none",
	      plan.impl[FASTCOPY_FAMILY_COPY]->name,
	      plan.impl[FASTCOPY_FAMILY_CLEAR]->name);
    }
  int ff = 1;
  for (size_t i = 0; i < fastcopy_setting_count (); i++)
    {
      const struct fastcopy_setting *s = fastcopy_setting_at (i);
      if (s->type != FASTCOPY_SETTING_SIZE && s->type != FASTCOPY_SETTING_BOOL)
	continue;
      char text[32];
      plan_value_text (s, plan.value[i], text, sizeof text);
      if (json)
	json_str_field (s->key, text, &ff);
      else
	printf ("%s: %s\n", s->key, text);
    }
  if (json)
    printf ("}}\n");
  return ferror (stdout) ? 1 : 0;
}

static void
usage (void)
{
  printf ("usage: fastcopy-info [--json]\n"
	  "       fastcopy-info [--json] --pid PID\n"
	  "       fastcopy-info --policy\n"
	  "       fastcopy-info [--json] --cpu 'vendor=V family=N model=N "
	  "features=F,... l3=SIZE l3_threads=N'\n"
	  "       fastcopy-info [--json] [--trusted] --check FILE...\n"
	  "       fastcopy-info [--json] --check-env VALUE\n"
	  "       fastcopy-info --help | --version\n"
	  "Show what libfastcopy detects and chooses in this process, where "
	  "each setting\ncame from, and whether the library is preloaded.  "
	  "--pid shows what the\nlibrary chose in a running process of the "
	  "same user.  --policy lists\nevery policy row; --cpu shows what the "
	  "policy would choose on the CPU\ndescribed (features it does not "
	  "know are listed and ignored).  --check\nvalidates configuration "
	  "files, - for standard input (FILE:LINE: reason;\nexit status 1 on "
	  "any error); --trusted (implied for %s)\nalso requires the system "
	  "file's ownership and mode.\n"
	  "  -h, --help     print this help and exit\n"
	  "  -V, --version  print the version and exit\n"
	  "See fastcopy-info(1), fastcopy.conf(5).\n",
	  fastcopy_config_state ()->system_path);
}

/* Bad usage: the reason and a pointer to --help; exit status 2.  */
static int __attribute__ ((format (printf, 1, 2)))
usage_error (const char *fmt, ...)
{
  char reason[1024];		/* the longest: a shown () argument */
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (reason, sizeof reason, fmt, ap);
  va_end (ap);
  usage_msg ("%s", reason);
  return 2;
}

/* Whether PATH names the system configuration file, however it is
   spelled (relative, through a link): the file the library reads, whose
   ownership and mode it requires.  */
static int
is_system_file (const char *path)
{
  struct stat a, b;
  return stat (path, &a) == 0
	 && stat (fastcopy_config_state ()->system_path, &b) == 0
	 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* One --check FILE or --check-env VALUE.  */
struct check_item
{
  int env;
  const char *what;
};

int
main (int argc, char **argv)
{
  int json = 0, policy = 0, trusted = 0, nchecks = 0, failed = 0;
  const char *described = NULL, *pid = NULL;
  struct check_item *checks = calloc ((size_t) argc, sizeof *checks);
  if (checks == NULL)
    {
      perror (tool_name);
      return 1;
    }
  for (int i = 1; i < argc; i++)
    {
      const char *a = argv[i];
      if (strcmp (a, "--version") == 0 || strcmp (a, "-V") == 0)
	{
	  printf ("fastcopy-info (libfastcopy) %s\n", fastcopy_version ());
	  return 0;
	}
      else if (strcmp (a, "--help") == 0 || strcmp (a, "-h") == 0)
	{
	  usage ();
	  return 0;
	}
      else if (strcmp (a, "--json") == 0)
	json = 1;
      else if (strcmp (a, "--policy") == 0)
	policy = 1;
      else if (strcmp (a, "--trusted") == 0)
	trusted = 1;
      else if (strcmp (a, "--pid") == 0)
	{
	  if (pid != NULL)
	    return usage_error ("--pid given twice");
	  if (i + 1 == argc)
	    return usage_error ("option '--pid' needs an argument");
	  pid = argv[++i];
	  if (pid[0] == '\0')
	    return usage_error ("--pid: '' is not a process ID");
	}
      else if (strcmp (a, "--cpu") == 0)
	{
	  if (described != NULL)
	    return usage_error ("--cpu given twice");
	  if (i + 1 == argc)
	    return usage_error ("option '--cpu' needs an argument");
	  described = argv[++i];
	}
      else if (strcmp (a, "--check-env") == 0)
	{
	  if (i + 1 == argc)
	    return usage_error ("option '--check-env' needs an argument");
	  checks[nchecks++] = (struct check_item) { 1, argv[++i] };
	}
      else if (strcmp (a, "--check") == 0)
	{
	  /* FILE...: every argument up to the next option.  */
	  if (i + 1 == argc || strncmp (argv[i + 1], "--", 2) == 0)
	    return usage_error ("option '--check' needs an argument");
	  while (i + 1 < argc && strncmp (argv[i + 1], "--", 2) != 0)
	    {
	      if (empty_name_msg ("--check", argv[i + 1]))
		return 2;
	      checks[nchecks++] = (struct check_item) { 0, argv[++i] };
	    }
	}
      else if (a[0] == '-')
	return usage_error ("unrecognized option '%s'", escaped (a));
      else
	return usage_error ("unexpected argument '%s'", escaped (a));
    }
  if (pid != NULL)
    {
      if (described || policy || nchecks || trusted)
	return usage_error ("--pid takes no --cpu, --policy, --check, "
			    "--check-env or --trusted");
      return show_process (pid, json);
    }
  if (described)
    {
      if (policy || nchecks || trusted)
	return usage_error ("--cpu takes no --policy, --check, --check-env "
			    "or --trusted");
      return print_described (described, json);
    }
  if (policy)
    {
      if (json || nchecks || trusted)
	return usage_error ("--policy lists the rows as text only: no --json, "
			    "--check, --check-env or --trusted with it");
      print_policies ();
      return ferror (stdout) ? 1 : 0;
    }
  if (trusted && nchecks == 0)
    return usage_error ("--trusted goes with --check");
  if (nchecks == 0)
    {
      print_report (json);
      return ferror (stdout) ? 1 : 0;
    }

  /* Several checks: a JSON array.  */
  if (json && nchecks > 1)
    putchar ('[');
  for (int i = 0; i < nchecks; i++)
    {
      const struct check_item *c = &checks[i];
      if (json && i > 0)
	putchar (',');
      int t = trusted || (!c->env && is_system_file (c->what));
      failed |= check (c->what, c->env, t, json);
    }
  if (json && nchecks > 1)
    printf ("]\n");
  free (checks);
  return failed || ferror (stdout) ? 1 : 0;
}
