/* SPDX-License-Identifier: MIT */
/* The FASTCOPY_1 API: CPU features, the implementation table, the policy
   rows, what each exported function was bound to and why, and the settings
   behind it.  Runs after relocation, so libc is fine here.  Nothing here
   runs at load: the views are built on first use.  */

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include "calls/dispatch.h"
#include "load/load-state.h"
#include "explain.h"

const char *
fastcopy_version (void)
{
  return PACKAGE_VERSION;
}

const struct fastcopy_cpu *
fastcopy_cpu (void)
{
  fc_cpu_vendor_string ();
  return &fc_cpu_caches ()->id;
}

/* Indexed by bit number of the FASTCOPY_CPU_* flags; arrays, not
   pointers, so that loading the library relocates nothing here.  */
static const char feature_names[FASTCOPY_CPU_FEATURE_COUNT][11] = {
  "SSE2", "ERMS", "FSRM", "FZLRM", "FSRS", "FSRCS",
  "AVX2", "AVX512F", "AVX512BW", "AVX512VL", "CLZERO", "BMI2", "AVX_VNNI",
  "HYPERVISOR",
};

const char *
fastcopy_cpu_feature_name (unsigned int bit)
{
  return bit < FASTCOPY_CPU_FEATURE_COUNT ? feature_names[bit] : NULL;
}

/* Every exported standard function, in the order fastcopy_functions
   hands them out.  */
static const char function_names[][24] = {
  "memcpy", "memmove", "mempcpy", "__mempcpy", "__memcpy_chk",
  "__memmove_chk", "__mempcpy_chk",
  "memset", "bzero", "explicit_bzero", "__memset_chk",
  "__explicit_bzero_chk"
};
#define NCHOICES (sizeof function_names / sizeof function_names[0])
#define NCOPY 7			/* the first NCOPY are copy functions */

struct published_policy
{
  struct fastcopy_policy p;
  char thresholds[256];
};

struct published_setting
{
  struct fastcopy_setting s;
  char value[32], default_value[32], origin[FC_PATH_MAX + 32];
  char path[FC_PROFILE_PATH_MAX + 1];	/* a PATH setting's value */
};

/* Everything the API hands out, made on the first call that needs it (the
   settings again after fastcopy_set): on the heap, so that a process that
   never asks maps none of it (the library's .bss would be mapped in every
   process at load).  */
struct view
{
  struct fastcopy_impl impl[FC_IMPL_COUNT];	/* fc_impl_table with
						   pointers */
  struct fastcopy_impl glibc[FASTCOPY_FAMILY_COUNT];	/* glibc=on's */
  const char *function_list[NCHOICES + 1];
  struct fastcopy_choice choices[NCHOICES];
  char reasons[FASTCOPY_FAMILY_COUNT][FC_PATH_MAX + 256];
  struct published_policy policy[32];
  size_t policy_count;
  struct published_setting settings[FC_KEY_COUNT];
  struct fc_diags load_diags;	/* of loading the settings, and the
				   warnings about the plan they made */
  struct fastcopy_diagnostic diags[FC_MAX_DIAGS + 1];
  char diag_messages[FC_MAX_DIAGS + 1][512];
  size_t diags_count;
  struct fastcopy_config_state config;
};
static FC_LAZY struct view *view;
static FC_LAZY int view_state;		/* 0: not built, 1: building, 2: built,
				   3: out of memory */

/* Nonzero when the view is there; without memory for it, the API answers
   as for a library with no implementations and no settings.  */
static int ensure_view (void);

/* The public table: fc_impl_table with pointers.  */

static void
build_impl_view (void)
{
  for (int i = 0; i < FC_IMPL_COUNT; i++)
    {
      const struct fc_impl *t = &fc_impl_table[i];
      struct fastcopy_impl *v = &view->impl[i];
      v->name = t->name;
      v->family = (enum fastcopy_family) t->family;
      v->summary = t->summary;
      v->requires = t->requires;
      v->traits = t->traits | (fc_entry_byte ((enum fc_impl_id) i)
			       != FC_ENTRY_SLOT ? FC_TRAIT_ENTRY : 0);
      v->copy = t->family == FASTCOPY_FAMILY_COPY
		? fc_copy_function ((enum fc_impl_id) i) : NULL;
      v->clear = t->family == FASTCOPY_FAMILY_CLEAR
		 ? fc_clear_function ((enum fc_impl_id) i) : NULL;
    }
}

/* Under glibc=on the exported functions call glibc's own memmove and
   memset (resolve.c): no row of the table, so a view of its own, whose
   functions are what the slots hold.  */
static void
build_glibc_view (void)
{
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      int copy = f == FASTCOPY_FAMILY_COPY;
      struct fastcopy_impl *v = &view->glibc[f];
      v->name = "glibc";
      v->family = (enum fastcopy_family) f;
      v->summary = copy ? "glibc's own memmove, as glibc chose it for this "
			  "CPU (glibc=on)"
			: "glibc's own memset, as glibc chose it for this CPU "
			  "(glibc=on)";
      v->requires = 0;
      v->copy = copy ? fc_copy_slot : NULL;
      v->clear = copy ? NULL : fc_clear_slot;
      v->traits = 0;
    }
}

/* glibc=on is in force: resolve.c bound glibc's functions.  */
static int
glibc_bound (void)
{
  return fc_state.tunables.value[FC_KEY_GLIBC] != 0;
}

size_t
fastcopy_impl_count (void)
{
  return FC_IMPL_COUNT;
}

const struct fastcopy_impl *
fastcopy_impl_at (size_t i)
{
  if (i >= FC_IMPL_COUNT || !ensure_view ())
    return NULL;
  return &view->impl[i];
}

const struct fastcopy_impl *
fastcopy_impl_find (enum fastcopy_family family, const char *name)
{
  for (size_t i = 0; i < FC_IMPL_COUNT; i++)
    if (fc_impl_table[i].family == family
	&& strcmp (fc_impl_table[i].name, name) == 0)
      return ensure_view () ? &view->impl[i] : NULL;
  return NULL;
}

int
fastcopy_impl_usable (const struct fastcopy_impl *impl)
{
  return impl != NULL && fc_cpu_lacks (fc_cpu_init (), impl->requires) == 0;
}


const struct fastcopy_choice *
fastcopy_selected (const char *function)
{
  for (size_t i = 0; i < NCHOICES; i++)
    if (strcmp (function_names[i], function) == 0)
      return ensure_view () ? &view->choices[i] : NULL;
  return NULL;
}

const char *const *
fastcopy_functions (void)
{
  return ensure_view () ? view->function_list : NULL;
}

/* ------------------------------------------------------------------------ */
/* The policy rows.  */


static const char *
vendor_name (unsigned char vendor)
{
  switch (vendor)
    {
    case FC_VENDOR_AMD: return "AMD";
    case FC_VENDOR_INTEL: return "Intel";
    default: return "any";
    }
}

/* A row's threshold as the row gives it: bytes, never or a fraction of a
   thread's share of the L3 ("L3/thread", "L3/thread*3/4").  */
static void
format_row_size (const struct fc_threshold *t, char *buf, size_t size)
{
  if (t->kind == FC_THRESHOLD_UNSET)
    snprintf (buf, size, "unset");
  else if (t->kind == FC_THRESHOLD_L3)
    {
      int len;
      if (t->num == t->den)
	len = snprintf (buf, size, "L3/thread");
      else if (t->num == 1)
	len = snprintf (buf, size, "L3/thread/%u", t->den);
      else
	len = snprintf (buf, size, "L3/thread*%u/%u", t->num, t->den);
      if (t->vm_cap_mib != 0 && len > 0 && (size_t) len < size)
	snprintf (buf + len, size - (size_t) len, ",VM:%uMiB",
		  t->vm_cap_mib);
    }
  else
    fc_size_format (t->kind == FC_THRESHOLD_NEVER ? FC_NEVER : t->bytes,
		    FC_SIZE_BYTES, buf, size);
}

static void
build_policy_view (void)
{
  view->policy_count = 0;
  for (int t = 0; t < FC_TABLE_COUNT; t++)
    {
      size_t n;
      const struct fc_policy_row *rows = fc_policy_rows ((enum fc_table) t, &n);
      for (size_t i = 0; i < n && view->policy_count < 32; i++)
	{
	  const struct fc_policy_row *r = &rows[i];
	  struct published_policy *v = &view->policy[view->policy_count++];
	  struct fastcopy_policy *p = &v->p;
	  p->name = r->name;
	  p->table = t == FC_TABLE_SEED ? "seed" : "auto";
	  p->vendor = vendor_name (r->vendor);
	  p->family_min = r->family_min;
	  p->family_max = r->family_max;
	  p->model_min = r->model_min;
	  p->model_max = r->model_max;
	  p->requires = r->requires;
	  p->copy = &view->impl[r->copy];
	  p->clear = &view->impl[r->clear];
	  p->evidence = r->evidence;
	  p->measured = r->measured;
	  p->reason = r->reason;
	  size_t len = 0;
	  v->thresholds[0] = 0;
	  for (int k = 0; k < FC_KEY_POLICY; k++)
	    {
	      char a[32];
	      if (fc_key_type (k) != FASTCOPY_SETTING_SIZE
		  && fc_key_type (k) != FASTCOPY_SETTING_BOOL)
		continue;
	      if (fc_key_type (k) == FASTCOPY_SETTING_BOOL)
		snprintf (a, sizeof a, "%s",
			  fc_row_on (r, k) == FC_BOOL_UNSET ? "unset"
			  : fc_row_on (r, k) ? "on" : "off");
	      else
		{
		  struct fc_threshold t = fc_row_threshold (r, k);
		  format_row_size (&t, a, sizeof a);
		}
	      len += (size_t) snprintf (v->thresholds + len,
					len < sizeof v->thresholds
					? sizeof v->thresholds - len : 0,
					"%s%s=%s", len ? " " : "",
					fc_key_name (k), a);
	    }
	  p->thresholds = v->thresholds;
	}
    }
}

/* The published row for ROW.  */
static const struct fastcopy_policy *
published (const struct fc_policy_row *row)
{
  for (size_t i = 0; row != NULL && view != NULL && i < view->policy_count;
       i++)
    if (strcmp (view->policy[i].p.name, row->name) == 0)
      return &view->policy[i].p;
  return NULL;
}

size_t
fastcopy_policy_count (void)
{
  return ensure_view () ? view->policy_count : 0;
}

const struct fastcopy_policy *
fastcopy_policy_at (size_t i)
{
  return ensure_view () && i < view->policy_count ? &view->policy[i].p : NULL;
}

const struct fastcopy_policy *
fastcopy_policy_matched (const char *table)
{
  /* The row the selection gives this CPU without settings, or with
     copy=seed.  */
  static const struct fc_layer auto_settings;
  static const struct fc_layer seed_settings = {
    .item[FC_KEY_COPY] = { .impl = { .how = FC_CHOOSE_SEED }, .set = 1 }
  };
  const struct fc_layer *settings;
  if (strcmp (table, "auto") == 0)
    settings = &auto_settings;
  else if (strcmp (table, "seed") == 0)
    settings = &seed_settings;
  else
    return NULL;
  struct fc_plan plan;
  fc_select (fc_cpu_init (), settings, NULL, 0, &plan);
  /* The published rows are built on first use, by whichever call of the
     API comes first.  */
  return ensure_view () ? published (plan.row[FASTCOPY_FAMILY_COPY]) : NULL;
}

_Static_assert (FC_KEY_COUNT <= FASTCOPY_PLAN_VALUES,
		"struct fastcopy_plan holds a value for every key");

void
fastcopy_plan_for (const struct fastcopy_cpu *cpu, struct fastcopy_plan *plan)
{
  static const struct fc_layer no_settings;
  struct fc_cpu described;
  fc_cpu_from_description (cpu, &described);
  struct fc_plan made;
  fc_select (&described, &no_settings, NULL, 0, &made);
  struct fc_tunables words;
  fc_values_words (&made.values, &described.id, &words);
  int ok = ensure_view ();
  plan->policy = published (made.row[FASTCOPY_FAMILY_COPY]);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    plan->impl[f] = ok ? &view->impl[made.impl[f]] : NULL;
  for (int k = 0; k < FASTCOPY_PLAN_VALUES; k++)
    {
      enum fastcopy_setting_type type
	= k < FC_KEY_COUNT ? fc_key_type (k) : FASTCOPY_SETTING_IMPL;
      plan->value[k] = type == FASTCOPY_SETTING_SIZE
		       ? fc_threshold_value (words.value[k])
		       : type == FASTCOPY_SETTING_BOOL ? words.value[k] : 0;
    }
}

/* ------------------------------------------------------------------------ */
/* Settings and their diagnostics (settings.c reads them while the library
   is relocated; what follows only reports them, with libc).  */

static const char *
source_origin (unsigned char src)
{
  switch (src)
    {
    case FC_SRC_FILE: return fc_state.settings.path ? fc_state.settings.path : "";
    case FC_SRC_ENV: return "FASTCOPY";
    case FC_SRC_ENV_CONFIG: return "FASTCOPY_CONFIG";
    case FC_SRC_API: return "fastcopy_set";
    default: return "default";
    }
}

static const char *
file_type (unsigned long long mode)
{
  switch (mode & S_IFMT)
    {
    case S_IFDIR: return "a directory";
    case S_IFIFO: return "a FIFO";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    case S_IFLNK: return "a symbolic link";
    default: return "not a regular file";
    }
}

/* "avx2, sse2, fsrm, erms or scalar": the implementations of FAMILY.  */
static void
impl_names (enum fastcopy_family family, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  len += (size_t) snprintf (buf, size, "auto, seed");
  for (size_t i = 0; i < FC_IMPL_COUNT && len < size; i++)
    if (fc_impl_table[i].family == family
	&& !(fc_impl_table[i].traits & FC_TRAIT_PROFILE))
      len += (size_t) snprintf (buf + len, size - len, ", %s",
				fc_impl_table[i].name);
}

static void
feature_names_of (unsigned long long bits, char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  for (unsigned int b = 0; b < FASTCOPY_CPU_FEATURE_COUNT && len < size; b++)
    if (bits & (1ull << b))
      len += (size_t) snprintf (buf + len, size - len, "%s%s",
				len ? ", " : "", feature_names[b]);
}

/* "copy, clear, rep_movsb_threshold, ...": every key, from keys.def.  */
static void
key_names (char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  for (int k = 0; k < FC_KEY_COUNT && len < size; k++)
    len += (size_t) snprintf (buf + len, size - len, "%s%s", k ? ", " : "",
			      fc_key_name (k));
}

/* "amd-zen5, amd-zen4, ...": every policy row's name.  */
static void
policy_names (char *buf, size_t size)
{
  size_t len = 0;
  buf[0] = 0;
  for (int t = 0; t < FC_TABLE_COUNT; t++)
    {
      size_t n;
      const struct fc_policy_row *rows = fc_policy_rows ((enum fc_table) t, &n);
      for (size_t i = 0; i < n && len < size; i++)
	len += (size_t) snprintf (buf + len, size - len, "%s%s",
				  len ? ", " : "", rows[i].name);
    }
}

/* What fills a %s of a message (diagnostics.def).  */
enum message_arg
{
  ARG_NONE, ARG_KEY, ARG_TEXT, ARG_ERRNO, ARG_NUM, ARG_MODE, ARG_FILE_TYPE,
  ARG_AT_LEAST, ARG_KEYS, ARG_IMPLS, ARG_POLICIES, ARG_FEATURES, ARG_UNIT,
  ARG_NT_KEY, ARG_SIZE, ARG_REP_OP, ARG_LOAD_TIME, ARG_ONE_PROCESS,
  ARG_FILE_MAX, ARG_LINE_MAX, ARG_ENV_MAX, ARG_PATH_MAX, ARG_PROFILE_PATH_MAX
};

/* Arrays, not pointers, so that loading the library relocates nothing
   here.  */
static const struct
{
  char format[112];
  unsigned char arg[4];		/* enum message_arg */
} messages[] = {
#define FC_ERROR(id, format, a, b, c, d) \
  [FC_##id] = { format, { ARG_##a, ARG_##b, ARG_##c, ARG_##d } },
#define FC_WARNING FC_ERROR
#include "diagnostics.def"
#undef FC_ERROR
#undef FC_WARNING
};
#define FC_ERROR(id, text, a, b, c, d)				\
  _Static_assert (sizeof (text) <= sizeof messages[0].format,		\
		  "diagnostics.def: the message of " #id " is too long");
#define FC_WARNING FC_ERROR
#include "diagnostics.def"
#undef FC_ERROR
#undef FC_WARNING

/* What ARG of diagnostic D is, into BUF.  */
static const char *
message_arg (const struct fc_diag *d, enum message_arg arg, char *buf,
	     size_t size)
{
  const char *key = d->key < FC_KEY_COUNT ? fc_key_name (d->key) : "";
  switch (arg)
    {
    case ARG_KEY: return key;
    case ARG_TEXT: return d->text;
    case ARG_ERRNO: return strerror ((int) d->num);
    case ARG_FILE_TYPE: return file_type (d->num);
    case ARG_AT_LEAST: return d->num > FC_FILE_MAX ? "" : "at least ";
    case ARG_KEYS: key_names (buf, size); return buf;
    case ARG_IMPLS:
      impl_names (fc_key_family (d->key), buf, size);
      return buf;
    case ARG_POLICIES: policy_names (buf, size); return buf;
    case ARG_FEATURES: feature_names_of (d->num, buf, size); return buf;
    case ARG_UNIT: return d->src == FC_SRC_FILE ? "line" : "item";
    case ARG_NT_KEY:
      return fc_key_name (fc_family_key (fc_key_family (d->key), FC_TRAIT_NT));
    case ARG_SIZE:
      fc_size_format (d->num, FC_SIZE_BYTES, buf, size);
      return buf;
    case ARG_REP_OP:
      return fc_key_family (d->key) == FASTCOPY_FAMILY_COPY ? "MOVSB"
							    : "STOSB";
    case ARG_LOAD_TIME:
      if (d->key == FC_KEY_GLIBC)
	return "glibc's functions are bound when the library is loaded (set "
	       "it in FASTCOPY)";
      if (fc_key_type (d->key) == FASTCOPY_SETTING_PATH
	  || fc_key_type (d->key) == FASTCOPY_SETTING_SIGNAL)
	return "recording is set up when the library is loaded (set it in "
	       "FASTCOPY)";
      return "implementations are chosen when the library is loaded (set it "
	     "in FASTCOPY or the configuration file)";
    case ARG_ONE_PROCESS:
      return d->key == FC_KEY_GLIBC ? "going back to glibc" : "a recording";
    case ARG_NUM: snprintf (buf, size, "%llu", d->num); return buf;
    case ARG_MODE: snprintf (buf, size, "%04llo", d->num & 07777); return buf;
    case ARG_FILE_MAX: snprintf (buf, size, "%u", FC_FILE_MAX); return buf;
    case ARG_LINE_MAX: snprintf (buf, size, "%u", FC_LINE_MAX); return buf;
    case ARG_ENV_MAX: snprintf (buf, size, "%u", FC_ENV_MAX); return buf;
    case ARG_PATH_MAX: snprintf (buf, size, "%u", FC_PATH_MAX); return buf;
    case ARG_PROFILE_PATH_MAX:
      snprintf (buf, size, "%u", FC_PROFILE_PATH_MAX);
      return buf;
    default: return "";
    }
}

/* The message of diagnostic D, without its origin.  */
static void
format_message (const struct fc_diag *d, char *buf, size_t size)
{
  if (d->code >= sizeof messages / sizeof messages[0]
      || messages[d->code].format[0] == 0)
    {
      snprintf (buf, size, "unknown problem %d", d->code);
      return;
    }
  char args[4][400];
  const char *a[4];
  for (int i = 0; i < 4; i++)
    a[i] = message_arg (d, (enum message_arg) messages[d->code].arg[i],
			args[i], sizeof args[i]);
  /* The formats are diagnostics.def's, each %s an argument it names.  */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  snprintf (buf, size, messages[d->code].format, a[0], a[1], a[2], a[3]);
#pragma GCC diagnostic pop
}

/* A public diagnostic for D; MESSAGE is its buffer.  */
static void
make_diagnostic (const struct fc_diag *d, const char *path,
		 struct fastcopy_diagnostic *out, char *message, size_t size)
{
  format_message (d, message, size);
  out->severity = d->code >= FC_W_FIRST ? FASTCOPY_WARNING : FASTCOPY_ERROR;
  out->source = (enum fastcopy_source) d->src;
  out->origin = d->src == FC_SRC_FILE ? path : source_origin (d->src);
  out->line = d->line;
  /* An unknown key, as written.  */
  out->key = d->key < FC_KEY_COUNT ? fc_key_name (d->key)
	     : d->code == FC_E_UNKNOWN_KEY ? d->text : NULL;
  out->message = message;
}

/* Deliver the diagnostics of DIAGS to FN, and one for those not kept.  */
static void
deliver (const struct fc_diags *diags, const char *path,
	 fastcopy_diagnostic_fn fn, void *arg)
{
  if (fn == NULL)
    return;
  char message[512];
  struct fastcopy_diagnostic out;
  for (unsigned int i = 0; i < diags->count; i++)
    {
      make_diagnostic (&diags->d[i], path, &out, message, sizeof message);
      fn (&out, arg);
    }
  if (diags->dropped > 0)
    {
      snprintf (message, sizeof message, "%u more problems not listed",
		diags->dropped);
      out.severity = FASTCOPY_ERROR;
      out.source = diags->d[FC_MAX_DIAGS - 1].src;
      out.origin = diags->d[FC_MAX_DIAGS - 1].src == FC_SRC_FILE
		   ? path : source_origin (diags->d[FC_MAX_DIAGS - 1].src);
      out.line = 0;
      out.key = NULL;
      out.message = message;
      fn (&out, arg);
    }
}

struct check_state
{
  struct fc_parser parser;
  struct fc_layer layer;
  struct fc_diags diags;
  char buf[4096];
};

int
fastcopy_check_config (const char *path, unsigned int flags,
		       fastcopy_diagnostic_fn fn, void *arg)
{
  struct check_state *c = calloc (1, sizeof *c);
  if (c == NULL)
    return -1;
  int state = fc_read_config (fc_cpu_init (), path,
			      flags & FASTCOPY_CHECK_TRUSTED
				    ? FC_READ_TRUSTED : 0, &c->layer, &c->diags,
			      FC_SRC_FILE, &c->parser, c->buf, sizeof c->buf);
  if (state == FC_FILE_ABSENT)
    fc_diag_add (&c->diags, FC_E_OPEN, FC_SRC_FILE, 0, -1, ENOENT, "", 0);
  if (state == FC_FILE_USED)
    fc_layer_warnings (&c->layer, &c->diags);
  deliver (&c->diags, path, fn, arg);
  int errors = (int) c->diags.errors;
  free (c);
  return errors;
}

int
fastcopy_check_env (const char *value, fastcopy_diagnostic_fn fn, void *arg)
{
  struct check_state *c = calloc (1, sizeof *c);
  if (c == NULL)
    return -1;
  size_t n = strlen (value);
  if (n > FC_ENV_MAX)
    fc_diag_add (&c->diags, FC_E_ENV_TOO_LONG, FC_SRC_ENV, 0, -1, FC_ENV_MAX,
		 value, n);
  else
    {
      fc_parse_env (fc_cpu_init (), value, n, &c->layer, &c->diags,
		    FC_SRC_ENV);
      fc_layer_warnings (&c->layer, &c->diags);
    }
  deliver (&c->diags, "FASTCOPY", fn, arg);
  int errors = (int) c->diags.errors;
  free (c);
  return errors;
}


/* A setting matters when the family's implementation has the trait that
   reads it (keys.def, impl-list.def); the implementation keys and those of
   both families always do.  */
static int
setting_used (int key)
{
  unsigned int trait = fc_key_trait (key);
  enum fastcopy_family family = fc_key_family (key);
  if (trait == 0 || family == FASTCOPY_FAMILY_ALL)
    return 1;
  if (glibc_bound ())
    return 0;			/* glibc's functions read no threshold */
  unsigned int traits = fc_impl_table[fc_state.plan.worker[family]].traits;
  return (traits & trait) != 0;
}

/* The name of an IMPL setting's value, given or not (IT).  */
static const char *
choice_name (const struct fc_item *it)
{
  if (!it->set || it->impl.how == FC_CHOOSE_AUTO)
    return "auto";
  return it->impl.how == FC_CHOOSE_SEED ? "seed"
	 : fc_impl_table[it->impl.impl].name;
}

static void
build_settings_view (void)
{
  struct fc_tunables defaults;
  fc_values_words (&fc_state.plan.defaults, &fc_cpu_caches ()->id, &defaults);
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      struct published_setting *p = &view->settings[k];
      const struct fc_item *it = &fc_state.settings.merged.item[k];
      struct fastcopy_setting *s = &p->s;
      s->key = fc_key_name (k);
      s->family = fc_key_family (k);
      s->used = setting_used (k);
      s->trait = fc_key_trait (k);
      s->type = fc_key_type (k);
      unsigned long long now = fc_threshold_value (fc_state.tunables.value[k]);
      unsigned long long dflt = fc_threshold_value (defaults.value[k]);
      switch (s->type)
	{
	case FASTCOPY_SETTING_IMPL:
	  s->number = 0;
	  snprintf (p->value, sizeof p->value, "%s",
		    choice_name (it));
	  snprintf (p->default_value, sizeof p->default_value, "auto");
	  break;
	case FASTCOPY_SETTING_POLICY:
	  s->number = 0;
	  snprintf (p->value, sizeof p->value, "%s",
		    it->set && it->policy.named
		    ? fc_policy_row_at (it->policy.row)->name : "auto");
	  snprintf (p->default_value, sizeof p->default_value, "auto");
	  break;
	case FASTCOPY_SETTING_BOOL:
	  s->number = now;
	  snprintf (p->value, sizeof p->value, "%s", now ? "on" : "off");
	  snprintf (p->default_value, sizeof p->default_value, "%s",
		    dflt ? "on" : "off");
	  break;
	case FASTCOPY_SETTING_PATH:
	  s->number = 0;
	  snprintf (p->path, sizeof p->path, "%.*s",
		    it->set && it->path ? (int) it->path_len : 3,
		    it->set && it->path ? it->path : "off");
	  snprintf (p->default_value, sizeof p->default_value, "off");
	  break;
	case FASTCOPY_SETTING_SIGNAL:
	  s->number = it->set ? it->number : 0;
	  snprintf (p->value, sizeof p->value, "%s", s->number == 10 ? "usr1"
		    : s->number == 12 ? "usr2" : "off");
	  snprintf (p->default_value, sizeof p->default_value, "off");
	  break;
	default:
	  s->number = now;
	  fc_size_format (now, FC_SIZE_BYTES, p->value, sizeof p->value);
	  fc_size_format (dflt, FC_SIZE_BYTES, p->default_value,
			  sizeof p->default_value);
	  break;
	}
      s->value = s->type == FASTCOPY_SETTING_PATH ? p->path : p->value;
      s->default_value = p->default_value;
      s->source = it->set ? (enum fastcopy_source) it->src
			  : FASTCOPY_SOURCE_DEFAULT;
      s->line = it->set ? it->line : 0;
      switch (s->source)
	{
	case FASTCOPY_SOURCE_FILE:
	  snprintf (p->origin, sizeof p->origin, "%s:%u", fc_state.settings.path,
		    it->line);
	  break;
	case FASTCOPY_SOURCE_ENV:
	  snprintf (p->origin, sizeof p->origin, "FASTCOPY item %u", it->line);
	  break;
	case FASTCOPY_SOURCE_API:
	  snprintf (p->origin, sizeof p->origin, "fastcopy_set");
	  break;
	default:
	  snprintf (p->origin, sizeof p->origin, "default");
	  break;
	}
      s->origin = p->origin;
    }
}

static void
diag_collect (const struct fastcopy_diagnostic *d, void *arg)
{
  (void) arg;
  if (view->diags_count > FC_MAX_DIAGS)
    return;
  size_t i = view->diags_count++;
  view->diags[i] = *d;
  snprintf (view->diag_messages[i], sizeof view->diag_messages[i], "%s", d->message);
  view->diags[i].message = view->diag_messages[i];
}


static void
build_view (void)
{
  build_impl_view ();
  for (size_t i = 0; i < NCHOICES; i++)
    view->function_list[i] = function_names[i];
  build_policy_view ();
  build_glibc_view ();
  int glibc = glibc_bound ();
  for (size_t i = 0; i < NCHOICES; i++)
    {
      enum fastcopy_family f = i < NCOPY ? FASTCOPY_FAMILY_COPY
					 : FASTCOPY_FAMILY_CLEAR;
      if (glibc)
	snprintf (view->reasons[f], sizeof view->reasons[f],
		  "FASTCOPY item %u: glibc=on",
		  fc_state.settings.merged.item[FC_KEY_GLIBC].line);
      else
	fc_plan_reason (&fc_state.plan, &fc_state.settings.merged,
			fc_state.settings.path, f, view->reasons[f],
			sizeof view->reasons[f]);
      view->choices[i].function = function_names[i];
      view->choices[i].family = f;
      view->choices[i].impl = glibc ? &view->glibc[f]
			      : &view->impl[fc_state.plan.impl[f]];
      view->choices[i].reason = view->reasons[f];
      view->choices[i].policy = glibc ? NULL
				: published (fc_state.plan.row[f]);
    }
  build_settings_view ();

  view->load_diags = fc_settings_scratch.diags;
  fc_plan_warnings (&fc_state.plan, &fc_state.tunables,
		    &fc_state.settings.merged, &view->load_diags);
  view->diags_count = 0;
  deliver (&view->load_diags, fc_state.settings.path, diag_collect, NULL);

  struct fastcopy_config_state *c = &view->config;
  c->system_path = FC_SYSCONF_PATH;
  c->path = fc_state.settings.path ? fc_state.settings.path : "";
  c->path_from_env = fc_state.settings.config_overridden;
  c->file = (enum fastcopy_file_state) fc_state.settings.file_state;
  switch (fc_state.settings.env_state)
    {
    case FC_ENV_USED: c->env = FASTCOPY_ENV_USED; break;
    case FC_ENV_REJECTED: c->env = FASTCOPY_ENV_REJECTED; break;
    case FC_ENV_SECURE: c->env = FASTCOPY_ENV_IGNORED; break;
    default: c->env = FASTCOPY_ENV_UNSET; break;
    }
  /* The library looked only when it had to; the report always says.  */
  c->secure = fc_state.settings.secure_known ? fc_state.settings.secure
				       : getauxval (AT_SECURE) != 0;
  c->errors = view->load_diags.errors;
  c->warnings = 0;
  for (unsigned int i = 0; i < view->load_diags.count; i++)
    if (view->load_diags.d[i].code >= FC_W_FIRST)
      c->warnings++;
  c->dropped = view->load_diags.dropped;
}

static int
ensure_view (void)
{
  int state = __atomic_load_n (&view_state, __ATOMIC_ACQUIRE);
  if (state == 2 || state == 3)
    return state == 2;
  int expected = 0;
  if (__atomic_compare_exchange_n (&view_state, &expected, 1, 0,
				   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
      view = calloc (1, sizeof *view);
      if (view != NULL)
	build_view ();
      __atomic_store_n (&view_state, view != NULL ? 2 : 3, __ATOMIC_RELEASE);
      return view != NULL;
    }
  while ((state = __atomic_load_n (&view_state, __ATOMIC_ACQUIRE)) == 1)
    sched_yield ();
  return state == 2;
}

size_t
fastcopy_setting_count (void)
{
  return FC_KEY_COUNT;
}

const struct fastcopy_setting *
fastcopy_setting_at (size_t i)
{
  if (i >= FC_KEY_COUNT || !ensure_view ())
    return NULL;
  return &view->settings[i].s;
}

const struct fastcopy_setting *
fastcopy_setting_find (const char *key)
{
  for (int k = 0; k < FC_KEY_COUNT; k++)
    if (strcmp (fc_key_name (k), key) == 0)
      return ensure_view () ? &view->settings[k].s : NULL;
  return NULL;
}

size_t
fastcopy_diagnostic_count (void)
{
  return ensure_view () ? view->diags_count : 0;
}

const struct fastcopy_diagnostic *
fastcopy_diagnostic_at (size_t i)
{
  return ensure_view () && i < view->diags_count ? &view->diags[i] : NULL;
}

const struct fastcopy_config_state *
fastcopy_config_state (void)
{
  return ensure_view () ? &view->config : NULL;
}

int
fastcopy_set (const char *items, fastcopy_diagnostic_fn fn, void *arg)
{
  struct check_state *c = calloc (1, sizeof *c);
  if (c == NULL)
    return -1;
  size_t n = strlen (items);
  fc_parse_env (fc_cpu_init (), items, n, &c->layer, &c->diags, FC_SRC_API);
  if (!ensure_view ())
    {
      free (c);
      return -1;
    }
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      struct fc_item *it = &c->layer.item[k];
      if (!it->set)
	continue;
      enum fastcopy_setting_type type = fc_key_type (k);
      if (type == FASTCOPY_SETTING_IMPL || k >= FC_KEY_POLICY)
	{
	  fc_diag_add (&c->diags, FC_E_LOAD_TIME, FC_SRC_API, it->line, k, 0,
		       "", 0);
	  continue;
	}
      struct fc_threshold t = fc_size_threshold (it->number);
      fc_set_tunable (k, type == FASTCOPY_SETTING_SIZE
			 ? fc_threshold_bytes (&t, &fc_cpu_init ()->id)
			 : (size_t) it->number);
      it->line = 0;
      fc_settings_override (k, it);
    }
  build_settings_view ();
  deliver (&c->diags, "fastcopy_set", fn, arg);
  int errors = (int) c->diags.errors;
  free (c);
  return errors;
}
