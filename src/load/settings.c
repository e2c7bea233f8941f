/* SPDX-License-Identifier: MIT */
/* Settings: the configuration file, the FASTCOPY environment variable and
   the parser both share (settings.h).

   The file and the parser run inside the IFUNC resolvers, while ld.so
   relocates libfastcopy: in every process of the machine, setuid ones
   included, before libc is ready.  Only fc_settings_load_environment runs
   later, from libfastcopy's initializer.  Hence:
   1. System calls by inline assembly (openat, read, fstat, close); nothing
      from libc, no errno.
   2. No relocated data: no tables of pointers; names are string literals
      compared by code; state is in hidden objects (reached PC-relative on
      x86-64, at a link-time offset from the GOT on i386).
   3. Bounded work and memory: the file is read up to FC_FILE_MAX bytes,
      lines up to FC_LINE_MAX, FASTCOPY up to FC_ENV_MAX; state
      and scratch are static (the resolvers run under ld.so's lock), the
      stack holds a 1 KiB read buffer and a few small frames.
   4. Never block, never print, never fail: the file is opened O_NONBLOCK
      and only a regular file is read; every bad item becomes a diagnostic
      (struct fc_diags) and is left out, so the lower layer's value stays.
   5. Secure-execution processes (AT_SECURE, which the kernel sets for
      setuid, setgid and capability gains; resolve.c asks getauxval) use
      neither FASTCOPY nor FASTCOPY_CONFIG, only the system file, so they
      never record and never take glibc's functions (glibc=on).  The system file is trusted, in every process, only when
      it is a regular file owned by root that group and others cannot write
      (fstat of the opened descriptor, so a root-owned symlink to such a
      file is fine and a swapped file is caught).  */

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include "load-state.h"
#include "raw-syscall.h"

/* The summary is in fc_state (load-state.h); the scratch is written only
   when there is something to parse or report.  */
FC_LAZY struct fc_settings_scratch fc_settings_scratch;

/* ------------------------------------------------------------------------ */
/* System calls: sys3, sys4, struct fc_kstat and FC_SYS_FSTAT come from the
   architecture's raw-syscall.h (sysdeps/).  */

#define FC_EINTR 4
#define FC_ENOENT 2

static FC_EARLY int
fc_open (const char *path)
{
  return (int) sys4 (SYS_openat, AT_FDCWD, (long) path,
		     O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0);
}

static FC_EARLY long
fc_read (int fd, char *buf, size_t n)
{
  long r;
  int tries = 0;
  do
    r = sys3 (SYS_read, fd, (long) buf, (long) n);
  while (r == -FC_EINTR && ++tries < 100);
  return r;
}

static FC_EARLY void
fc_close (int fd)
{
  sys3 (SYS_close, fd, 0, 0);
}

/* ------------------------------------------------------------------------ */
/* Small string helpers (no libc).  */

static FC_EARLY int
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static FC_EARLY char
to_lower (char c)
{
  return c >= 'A' && c <= 'Z' ? (char) (c + 'a' - 'A') : c;
}

/* S[0..N) equals the literal LIT.  */
static FC_EARLY int
equal (const char *s, size_t n, const char *lit)
{
  size_t i = 0;
  for (; i < n; i++)
    if (lit[i] == 0 || s[i] != lit[i])
      return 0;
  return lit[i] == 0;
}

/* The same, ignoring ASCII case.  */
static FC_EARLY int
equal_nocase (const char *s, size_t n, const char *lit)
{
  size_t i = 0;
  for (; i < n; i++)
    if (lit[i] == 0 || to_lower (s[i]) != lit[i])
      return 0;
  return lit[i] == 0;
}

static FC_EARLY void
zero (void *p, size_t n)
{
  volatile unsigned char *b = p;	/* stays a loop: never a memset call */
  for (size_t i = 0; i < n; i++)
    b[i] = 0;
}

/* Trim *S (length *N) of surrounding white space.  */
static FC_EARLY void
trim (const char **s, size_t *n)
{
  while (*n > 0 && is_space (**s))
    {
      (*s)++;
      (*n)--;
    }
  while (*n > 0 && is_space ((*s)[*n - 1]))
    (*n)--;
}

/* Append the literal or buffer S to DST (capacity CAP, *LEN used), always
   leaving it NUL-terminated.  */
static FC_EARLY void
append (char *dst, size_t cap, size_t *len, const char *s)
{
  while (*s && *len + 1 < cap)
    dst[(*len)++] = *s++;
  dst[*len] = 0;
}

/* ------------------------------------------------------------------------ */
/* Keys.  */

static FC_EARLY int
lookup_key (const char *s, size_t n)
{
  for (int k = 0; k < FC_KEY_COUNT; k++)
    if (equal (s, n, fc_key_name (k)))
      return k;
  return -1;
}

/* ------------------------------------------------------------------------ */
/* Diagnostics.  */

void
fc_diag_add (struct fc_diags *diags, int code, unsigned char src,
	     unsigned int line, int key, unsigned long long num,
	     const char *text, size_t textlen)
{
  if (code < FC_W_FIRST)
    diags->errors++;
  if (diags->count >= FC_MAX_DIAGS)
    {
      diags->dropped++;
      return;
    }
  struct fc_diag *d = &diags->d[diags->count++];
  d->code = (unsigned char) code;
  d->src = src;
  d->key = (unsigned char) (key >= 0 ? key : FC_KEY_COUNT);
  d->line = line;
  d->num = num;
  /* Keep the start of the text; mark a cut with "...".  */
  size_t keep = textlen, cut = 0;
  if (keep > FC_DIAG_TEXT - 1)
    {
      keep = FC_DIAG_TEXT - 4;
      cut = 1;
    }
  size_t i = 0;
  for (; i < keep; i++)
    {
      unsigned char c = (unsigned char) text[i];
      d->text[i] = c < 0x20 || c >= 0x7f ? '?' : (char) c;
    }
  if (cut)
    for (int j = 0; j < 3; j++)
      d->text[i++] = '.';
  d->text[i] = 0;
}

/* ------------------------------------------------------------------------ */
/* Values.  */

static FC_EARLY int
parse_bool (const char *s, size_t n, unsigned long long *out)
{
  if (equal_nocase (s, n, "on") || equal_nocase (s, n, "yes")
      || equal_nocase (s, n, "true") || equal (s, n, "1"))
    *out = 1;
  else if (equal_nocase (s, n, "off") || equal_nocase (s, n, "no")
	   || equal_nocase (s, n, "false") || equal (s, n, "0"))
    *out = 0;
  else
    return FC_E_NOT_BOOL;
  return 0;
}

/* An implementation of FAMILY by name, in any case like every value:
   "auto", "seed" or a name from impl-list.def.  *MISSING gets the
   features it needs that CPU lacks.  */
static FC_EARLY int
parse_impl (const struct fc_cpu *cpu, enum fastcopy_family family,
	    const char *s, size_t n, struct fc_impl_choice *out,
	    unsigned long long *missing)
{
  if (equal_nocase (s, n, "auto"))
    {
      out->how = FC_CHOOSE_AUTO;
      return 0;
    }
  if (equal_nocase (s, n, "seed"))
    {
      out->how = FC_CHOOSE_SEED;
      return 0;
    }
  for (int id = 0; id < FC_IMPL_COUNT; id++)
    {
      const struct fc_impl *impl = &fc_impl_table[id];
      if (impl->family == family && !(impl->traits & FC_TRAIT_PROFILE)
	  && equal_nocase (s, n, impl->name))
	{
	  out->how = FC_CHOOSE_IMPL;
	  out->impl = (unsigned char) id;
	  *missing = fc_cpu_lacks (cpu, impl->requires);
	  return *missing != 0 ? FC_E_IMPL_UNUSABLE : 0;
	}
    }
  return FC_E_UNKNOWN_IMPL;
}

/* A policy row by name, or "auto", in any case (row names are lower
   case).  *MISSING gets the features its implementations need that CPU
   lacks.  */
static FC_EARLY int
parse_policy (const struct fc_cpu *cpu, const char *s, size_t n,
	      struct fc_policy_choice *out, unsigned long long *missing)
{
  if (equal_nocase (s, n, "auto"))
    {
      out->named = 0;
      return 0;
    }
  char name[sizeof ((struct fc_policy_row *) 0)->name];
  if (n >= sizeof name)
    return FC_E_UNKNOWN_POLICY;
  for (size_t i = 0; i < n; i++)
    name[i] = to_lower (s[i]);
  if (!fc_policy_find (name, n, &out->row))
    return FC_E_UNKNOWN_POLICY;
  out->named = 1;
  const struct fc_policy_row *row = fc_policy_row_at (out->row);
  *missing = fc_cpu_lacks (cpu, fc_impl_table[row->copy].requires
				| fc_impl_table[row->clear].requires);
  return *missing != 0 ? FC_E_POLICY_UNUSABLE : 0;
}

/* A profile path: "off", or an absolute path short enough for the file
   names made from it.  *OUT points into S.  */
static FC_EARLY int
parse_path (const char *s, size_t n, const char **out)
{
  if (equal_nocase (s, n, "off"))
    {
      *out = NULL;
      return 0;
    }
  if (s[0] != '/' || n > FC_PROFILE_PATH_MAX)
    return FC_E_NOT_PATH;
  *out = s;
  return 0;
}

/* The signal that writes a recording: off, usr1 or usr2 (SIG prefix
   allowed); the Linux x86-64 numbers.  */
static FC_EARLY int
parse_signal (const char *s, size_t n, unsigned long long *out)
{
  if (n > 3 && equal_nocase (s, 3, "sig"))
    s += 3, n -= 3;
  if (equal_nocase (s, n, "off"))
    *out = 0;
  else if (equal_nocase (s, n, "usr1"))
    *out = 10;
  else if (equal_nocase (s, n, "usr2"))
    *out = 12;
  else
    return FC_E_NOT_SIGNAL;
  return 0;
}

/* One "key = value" item, KEY and VALUE trimmed.  Errors leave LAYER as it
   was.  */
static FC_EARLY void
parse_item (const struct fc_cpu *cpu, struct fc_layer *layer,
	    struct fc_diags *diags, unsigned char src, unsigned int line,
	    const char *key, size_t klen,
	    const char *val, size_t vlen)
{
  if (klen == 0)
    {
      fc_diag_add (diags, FC_E_NO_KEY, src, line, -1, 0, val, vlen);
      return;
    }
  int k = lookup_key (key, klen);
  if (k < 0)
    {
      fc_diag_add (diags, FC_E_UNKNOWN_KEY, src, line, -1, 0, key, klen);
      return;
    }
  if (vlen == 0)
    {
      fc_diag_add (diags, FC_E_NO_VALUE, src, line, k, 0, key, klen);
      return;
    }
  struct fc_item parsed = { .number = 0 };
  unsigned long long missing = 0;
  int err;
  /* The keys after policy are for one process (keys.def).  */
  if (k > FC_KEY_POLICY && src == FC_SRC_FILE)
    {
      fc_diag_add (diags, FC_E_ENV_ONLY, src, line, k, 0, val, vlen);
      return;
    }
  switch (fc_key_type (k))
    {
    case FASTCOPY_SETTING_IMPL:
      err = parse_impl (cpu, fc_key_family (k), val, vlen, &parsed.impl,
			&missing);
      break;
    case FASTCOPY_SETTING_BOOL:
      err = parse_bool (val, vlen, &parsed.number);
      break;
    case FASTCOPY_SETTING_POLICY:
      err = parse_policy (cpu, val, vlen, &parsed.policy, &missing);
      break;
    case FASTCOPY_SETTING_PATH:
      err = parse_path (val, vlen, &parsed.path);
      break;
    case FASTCOPY_SETTING_SIGNAL:
      err = parse_signal (val, vlen, &parsed.number);
      break;
    default:
      /* A size (size.c), or "never".  */
      switch (fc_size_parse (val, vlen, &parsed.number))
	{
	case FC_SIZE_OK: err = 0; break;
	case FC_SIZE_NEGATIVE: err = FC_E_NEGATIVE; break;
	case FC_SIZE_TOO_BIG: err = FC_E_SIZE_RANGE; break;
	default: err = FC_E_NOT_SIZE; break;
	}
      break;
    }
  if (err != 0)
    {
      fc_diag_add (diags, err, src, line, k, missing, val, vlen);
      return;
    }
  struct fc_item *it = &layer->item[k];
  if (it->set)
    fc_diag_add (diags, FC_W_DUPLICATE, src, line, k, it->line, key, klen);
  /* Member by member: a structure assignment may become a call to
     memcpy, which is this library's own.  */
  it->number = parsed.number;
  it->line = line;
  it->src = src;
  it->set = 1;
  it->path_len = (unsigned short) (fc_key_type (k) == FASTCOPY_SETTING_PATH
				   ? vlen : 0);
}

/* ------------------------------------------------------------------------ */
/* The configuration file syntax: one "key = value" per line; '#' starts a
   comment that runs to the end of the line; blank lines are ignored.  */

static FC_EARLY void
parse_line (struct fc_parser *p)
{
  const char *s = p->buf;
  size_t n = p->len;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '#')
      {
	n = i;
	break;
      }
  trim (&s, &n);
  if (n == 0)
    return;
  size_t eq = 0;
  while (eq < n && s[eq] != '=')
    eq++;
  if (eq == n)
    {
      fc_diag_add (p->diags, FC_E_SYNTAX, p->src, p->line, -1, 0, s, n);
      return;
    }
  const char *key = s, *val = s + eq + 1;
  size_t klen = eq, vlen = n - eq - 1;
  trim (&key, &klen);
  trim (&val, &vlen);
  parse_item (p->cpu, p->layer, p->diags, p->src, p->line, key, klen, val,
	      vlen);
}

static FC_EARLY void
end_line (struct fc_parser *p)
{
  if (p->overlong)
    fc_diag_add (p->diags, FC_E_LINE_TOO_LONG, p->src, p->line, -1,
		 FC_LINE_MAX, p->buf, 24);
  else if (p->nul)
    fc_diag_add (p->diags, FC_E_NUL, p->src, p->line, -1, 0, p->buf, p->len);
  else
    parse_line (p);
  p->line++;
  p->len = 0;
  p->overlong = 0;
  p->nul = 0;
}

void
fc_parser_init (struct fc_parser *p, const struct fc_cpu *cpu,
		struct fc_layer *layer, struct fc_diags *diags,
		unsigned char src)
{
  p->cpu = cpu;
  p->layer = layer;
  p->diags = diags;
  p->src = src;
  p->overlong = 0;
  p->nul = 0;
  p->line = 1;
  p->len = 0;
}

void
fc_parser_feed (struct fc_parser *p, const char *data, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      char c = data[i];
      if (c == '\n')
	end_line (p);
      else if (p->len < FC_LINE_MAX)
	{
	  if (c == 0)
	    p->nul = 1;
	  p->buf[p->len++] = c;
	}
      else
	p->overlong = 1;
    }
}

void
fc_parser_end (struct fc_parser *p)
{
  if (p->len > 0 || p->overlong)
    end_line (p);
}

/* FASTCOPY: items separated by commas, each "key=value"; spaces around
   items, keys and values are ignored, and so are empty items.  Items are
   numbered from 1, empty ones included.  */
void
fc_parse_env (const struct fc_cpu *cpu, const char *value, size_t n,
	      struct fc_layer *layer, struct fc_diags *diags, unsigned char src)
{
  unsigned int item = 1;
  size_t start = 0;
  for (size_t i = 0; i <= n; i++)
    {
      if (i < n && value[i] != ',')
	continue;
      const char *s = value + start;
      size_t len = i - start;
      start = i + 1;
      trim (&s, &len);
      if (len > 0)
	{
	  size_t eq = 0;
	  while (eq < len && s[eq] != '=')
	    eq++;
	  if (eq == len)
	    fc_diag_add (diags, FC_E_SYNTAX, src, item, -1, 0, s, len);
	  else
	    {
	      const char *key = s, *val = s + eq + 1;
	      size_t klen = eq, vlen = len - eq - 1;
	      trim (&key, &klen);
	      trim (&val, &vlen);
	      parse_item (cpu, layer, diags, src, item, key, klen, val, vlen);
	    }
	}
      item++;
    }
}

/* ------------------------------------------------------------------------ */
/* Reading the file.  */

int
fc_read_config (const struct fc_cpu *cpu, const char *path,
		unsigned int flags, struct fc_layer *layer,
		struct fc_diags *diags, unsigned char src, struct fc_parser *p,
		char *buf, size_t buflen)
{
  int fd = fc_open (path);
  if (fd < 0)
    {
      if (fd == -FC_ENOENT)
	return FC_FILE_ABSENT;
      fc_diag_add (diags, FC_E_OPEN, src, 0, -1, (unsigned long long) -fd,
		   "", 0);
      return FC_FILE_REJECTED;
    }
  fc_parser_init (p, cpu, layer, diags, src);

  struct fc_kstat st;
  long r = sys3 (FC_SYS_FSTAT, fd, (long) &st, 0);
  int code = 0;
  unsigned long long num = 0;
  if (r < 0)
    code = FC_E_STAT, num = (unsigned long long) -r;
  else if (!S_ISREG (st.mode))
    code = FC_E_NOT_REGULAR, num = st.mode;
  else if ((flags & FC_READ_TRUSTED) && st.uid != 0)
    code = FC_E_OWNER, num = st.uid;
  else if ((flags & FC_READ_TRUSTED) && (st.mode & (S_IWGRP | S_IWOTH)))
    code = FC_E_MODE, num = st.mode;
  else if (st.size > (long) FC_FILE_MAX)
    code = FC_E_FILE_TOO_BIG, num = (unsigned long long) st.size;
  if (code != 0)
    {
      fc_close (fd);
      fc_diag_add (p->diags, code, p->src, 0, -1, num, "", 0);
      return FC_FILE_REJECTED;
    }

  /* Read at most FC_FILE_MAX + 1 bytes: one more than the limit means the
     file grew past it after fstat.  */
  size_t total = 0;
  for (;;)
    {
      size_t want = buflen;
      if (want > FC_FILE_MAX + 1 - total)
	want = FC_FILE_MAX + 1 - total;
      r = want > 0 ? fc_read (fd, buf, want) : 0;
      if (r < 0)
	{
	  code = FC_E_READ, num = (unsigned long long) -r;
	  break;
	}
      if (r == 0)
	break;
      total += (size_t) r;
      if (total > FC_FILE_MAX)
	{
	  code = FC_E_FILE_TOO_BIG, num = total;
	  break;
	}
      fc_parser_feed (p, buf, (size_t) r);
    }
  fc_close (fd);
  if (code != 0)
    {
      /* Half a file is not what its author meant: none of it applies.  */
      zero (p->layer, sizeof *p->layer);
      fc_diag_add (p->diags, code, p->src, 0, -1, num, "", 0);
      return FC_FILE_REJECTED;
    }
  fc_parser_end (p);
  return FC_FILE_USED;
}

/* ------------------------------------------------------------------------ */
/* The process: its configuration file and its environment.  */

/* Read the configuration file at PATH into the file layer.  A missing file
   writes no scratch at all.  Reads go to a buffer on the stack.  */
static FC_EARLY void
load_file (const struct fc_cpu *cpu, const char *path, unsigned int flags)
{
  struct fc_settings *st = &fc_state.settings;
  struct fc_settings_scratch *sc = &fc_settings_scratch;
  char io_buf[1024];
  st->path = path;
  st->file_state = (unsigned char)
    fc_read_config (cpu, path, flags, &sc->file_layer, &sc->diags,
		    FC_SRC_FILE, &sc->file_parser, io_buf, sizeof io_buf);
  if (st->file_state == FC_FILE_ABSENT && st->config_overridden)
    fc_diag_add (&sc->diags, FC_E_OPEN, FC_SRC_FILE, 0, -1, FC_ENOENT, "",
		 0);
}

/* The file, then FASTCOPY over it.  */
static FC_EARLY void
merge_layers (void)
{
  const struct fc_settings_scratch *sc = &fc_settings_scratch;
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      struct fc_item none = { .number = 0 };
      fc_state.settings.merged.item[k]
	= sc->env_layer.item[k].set ? sc->env_layer.item[k]
	  : sc->file_layer.item[k].set ? sc->file_layer.item[k] : none;
    }
}

/* Phase 1, inside the first resolver: the system configuration file, which
   applies from the first copy the process makes.  */
void
fc_settings_load (const struct fc_cpu *cpu)
{
  struct fc_settings *st = &fc_state.settings;
  if (st->loaded)
    return;
  st->loaded = 1;
  load_file (cpu, FC_SYSCONF_PATH, FC_READ_TRUSTED);
  if (st->file_state == FC_FILE_USED)
    merge_layers ();
}

/* Phase 2, from libfastcopy's initializer: FASTCOPY and FASTCOPY_CONFIG.
   Reading the environment inside the resolver would take
   /proc/self/environ (libc's environ is not set yet while ld.so
   relocates), and that cost about 57 us per exec of /bin/true on the
   development VM (+10%).  */
int
fc_settings_load_environment (const struct fc_cpu *cpu, const char *env,
			      const char *config, int secure)
{
  struct fc_settings *st = &fc_state.settings;
  struct fc_settings_scratch *sc = &fc_settings_scratch;
  fc_settings_load (cpu);
  if (env == NULL && config == NULL)
    return 0;
  st->secure = (unsigned char) (secure != 0);
  st->secure_known = 1;
  if (secure)
    {
      st->env_state = FC_ENV_SECURE;
      return 0;
    }

  if (config != NULL)
    {
      /* The override replaces the system file and what it said.  */
      size_t config_len = 0;
      while (config[config_len] != 0 && config_len <= FC_PATH_MAX)
	config_len++;
      st->config_overridden = 1;
      zero (&sc->diags, sizeof sc->diags);
      zero (&sc->file_layer, sizeof sc->file_layer);
      st->path = "";
      st->file_state = FC_FILE_NONE;
      if (config_len > FC_PATH_MAX || (config_len > 0 && config[0] != '/'))
	fc_diag_add (&sc->diags, config_len > FC_PATH_MAX ? FC_E_PATH_TOO_LONG
		     : FC_E_PATH_RELATIVE, FC_SRC_ENV_CONFIG, 0, -1,
		     FC_PATH_MAX, config, config_len);
      else if (config_len > 0)
	{
	  size_t len = 0;
	  append (sc->path, sizeof sc->path, &len, config);
	  load_file (cpu, sc->path, 0);
	}
    }

  if (env != NULL)
    {
      size_t env_len = 0;
      while (env[env_len] != 0 && env_len <= FC_ENV_MAX)
	env_len++;
      if (env_len > FC_ENV_MAX)
	{
	  st->env_state = FC_ENV_REJECTED;
	  fc_diag_add (&sc->diags, FC_E_ENV_TOO_LONG, FC_SRC_ENV, 0, -1,
		       FC_ENV_MAX, env, env_len);
	}
      else
	{
	  st->env_state = FC_ENV_USED;
	  for (size_t i = 0; i <= env_len; i++)
	    sc->env_value[i] = env[i];
	  fc_parse_env (cpu, sc->env_value, env_len, &sc->env_layer,
			&sc->diags, FC_SRC_ENV);
	}
    }
  merge_layers ();
  return 1;
}

void
fc_settings_override (int key, const struct fc_item *it)
{
  fc_state.settings.merged.item[key] = *it;
}
