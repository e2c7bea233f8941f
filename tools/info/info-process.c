/* SPDX-License-Identifier: MIT */
/* fastcopy-info --pid PID: what libfastcopy's state in another process
   says, read from that process's memory.

   1. /proc/PID/maps says whether the process maps a libfastcopy, from
      which file, and where it starts.  The kernel lets only the process's
      own user (or root) read it: for another user's process this is
      where the answer is "permission denied", and denied_why says why
      from what the kernel checks.
   2. The state is the library's load-time object, in a section of its
      own (src/tools-interface.h says which, how large, and what a tool
      may read of it): the section headers of the library file give its
      place from the start of the library, and process_vm_readv reads it
      from the process.  Its layout is the build's, so it is read only
      when the process maps the very library this program runs with (the
      same file, or the same bytes).
   3. What the state says is shown with this library's own names: the
      implementations and settings are numbered alike in both, and the
      policy row's name, the configuration file's name and a profile path
      are read from the process, where the state points to them.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <unistd.h>

#include "tools-interface.h"
#include "common/elf-read.h"
#include "common/json.h"
#include "common/message.h"
#include "info-process.h"

_Static_assert (FC_PROCESS_STATE_VERSION == 1,
		"struct fc_process_state changed: check what is shown of it");

/* The libfastcopy a process maps: the mapping of its file's start.  */
struct mapped
{
  unsigned long base;
  unsigned int dev_major, dev_minor;
  unsigned long ino;
  char path[PATH_MAX];
};

/* The libfastcopy in /proc/PID/maps into M: 1, or 0 when the process
   maps none, or -1 with errno set when the file cannot be read.  */
static int
find_mapping (const char *pid, struct mapped *m)
{
  char name[64], line[PATH_MAX + 128];
  snprintf (name, sizeof name, "/proc/%s/maps", pid);
  FILE *f = fopen (name, "re");
  if (f == NULL)
    return -1;
  int found = 0;
  while (!found && fgets (line, sizeof line, f) != NULL)
    {
      unsigned long start, offset, ino;
      unsigned int major, minor;
      int at = 0;
      if (sscanf (line, "%lx-%*x %*s %lx %x:%x %lu %n", &start, &offset,
		  &major, &minor, &ino, &at) < 5 || at == 0)
	continue;
      char *path = line + at;
      path[strcspn (path, "\n")] = '\0';
      const char *base = strrchr (path, '/');
      base = base != NULL ? base + 1 : path;
      if (offset != 0 || strncmp (base, "libfastcopy.so", 14) != 0)
	continue;
      *m = (struct mapped) { start, major, minor, ino, "" };
      snprintf (m->path, sizeof m->path, "%s", path);
      found = 1;
    }
  int failed = !found && ferror (f);
  fclose (f);
  return failed ? -1 : found;
}

/* A process's credentials, as its /proc/PID/status gives them.  */
struct creds
{
  unsigned long uid[4], gid[4];	/* real, effective, saved, file system */
  unsigned long long cap_permitted, cap_effective;
};

/* The credentials of process PID ("self": this one) into C: 0, or -1
   when its status cannot be read.  */
static int
read_creds (const char *pid, struct creds *c)
{
  char name[64], line[256];
  snprintf (name, sizeof name, "/proc/%s/status", pid);
  FILE *f = fopen (name, "re");
  if (f == NULL)
    return -1;
  int got = 0;
  while (fgets (line, sizeof line, f) != NULL)
    got += sscanf (line, "Uid: %lu %lu %lu %lu", &c->uid[0], &c->uid[1],
		   &c->uid[2], &c->uid[3]) == 4
	   || sscanf (line, "Gid: %lu %lu %lu %lu", &c->gid[0], &c->gid[1],
		      &c->gid[2], &c->gid[3]) == 4
	   || sscanf (line, "CapPrm: %llx", &c->cap_permitted) == 1
	   || sscanf (line, "CapEff: %llx", &c->cap_effective) == 1;
  fclose (f);
  return got == 4 ? 0 : -1;
}

/* Why the kernel refuses process SELF a look into process TARGET's
   memory map, by the rules of its ptrace access check for reading with
   the file system IDs, in their order: the caller's IDs must be all of
   the process's, the process dumpable, and on some kernels its permitted
   capabilities among the caller's effective ones, unless the caller has
   CAP_SYS_PTRACE; then the security modules have their say.  Whether a
   process is dumpable is not public: it is told by elimination.  */
static const char *
denied_why (const struct creds *self, const struct creds *target)
{
  int ptrace_capable = (self->cap_effective >> CAP_SYS_PTRACE) & 1;
  int same_uid = 1, same_gid = 1;
  for (int i = 0; i < 3; i++)
    {
      same_uid &= target->uid[i] == self->uid[3];
      same_gid &= target->gid[i] == self->gid[3];
    }
  if (ptrace_capable)
    return "its user and capabilities allow it, so a security module, a "
	   "sandbox that this program runs in or a user namespace refuses "
	   "it";
  if (!same_uid)
    return "a process of another user: only that user or root may look "
	   "into it";
  if (!same_gid)
    return "a process running with another group: only a process of that "
	   "group or root may look into it";
  if ((target->cap_permitted & ~self->cap_effective) != 0)
    return "it is not dumpable, or holds capabilities that this program "
	   "lacks: only a process with CAP_SYS_PTRACE may look into it";
  return "it is not dumpable (it changed its IDs, or made itself so): "
	 "only a process with CAP_SYS_PTRACE may look into it";
}

/* Whether files A and B hold the same bytes.  */
static int
same_contents (const char *a, const char *b)
{
  FILE *fa = fopen (a, "re"), *fb = fopen (b, "re");
  int same = fa != NULL && fb != NULL;
  while (same)
    {
      char x[4096], y[4096];
      size_t n = fread (x, 1, sizeof x, fa);
      same = fread (y, 1, sizeof y, fb) == n && memcmp (x, y, n) == 0;
      if (n < sizeof x)
	break;
    }
  if (fa != NULL)
    fclose (fa);
  if (fb != NULL)
    fclose (fb);
  return same;
}

/* Whether process PID maps M, the library this program runs with (at
   OURS): the same file, or a copy of it (seen through the process's
   root).  */
static int
same_library (const char *pid, const struct mapped *m, const char *ours)
{
  struct stat st;
  if (stat (ours, &st) == 0 && major (st.st_dev) == m->dev_major
      && minor (st.st_dev) == m->dev_minor && st.st_ino == m->ino)
    return 1;
  char *theirs = NULL;
  if (asprintf (&theirs, "/proc/%s/root%s", pid, m->path) < 0)
    return 0;
  int same = same_contents (theirs, ours);
  free (theirs);
  return same;
}

/* N bytes at ADDRESS in process PID into BUF; returns how many were
   read (fewer where the memory ends), -1 with errno set.  */
static ssize_t
peek (pid_t pid, unsigned long address, void *buf, size_t n)
{
  struct iovec local = { buf, n }, remote = { (void *) address, n };
  return process_vm_readv (pid, &local, 1, &remote, 1, 0);
}

/* The string at ADDRESS in process PID, at most SIZE - 1 bytes of it,
   into BUF; "?" when it cannot be read.  */
static const char *
peek_string (pid_t pid, unsigned long address, size_t len, char *buf,
	     size_t size)
{
  if (len >= size)
    len = size - 1;
  ssize_t n = address != 0 ? peek (pid, address, buf, len) : -1;
  if (n < 0)
    snprintf (buf, size, "?");
  else
    buf[n] = '\0';
  return buf;
}

/* What process PID's state says, in this library's words.  */
struct process_view
{
  pid_t pid;
  char command[64];
  const struct mapped *map;
  unsigned char bytes[FC_PROCESS_STATE_SIZE];	/* as read */
  struct fc_process_state state;
  char rows[FASTCOPY_FAMILY_COUNT][FC_PROCESS_ROW_NAME_MAX];
  char config[FC_PATH_MAX + 1];
};

/* Implementation ID's name; "?" for a number out of range (the state
   read while the process was changing it).  */
static const char *
impl_name (unsigned long long id)
{
  return id < fastcopy_impl_count () ? fastcopy_impl_at ((size_t) id)->name
	 : "?";
}

/* NAMES[I], "?" out of its N.  */
#define NAME_OF(names, i) \
  ((size_t) (i) < sizeof (names) / sizeof (names)[0] && (names)[i] != NULL \
   ? (names)[i] : "?")

static const char *const source_names[] = {
  [FC_SRC_DEFAULT] = "default", [FC_SRC_FILE] = "file",
  [FC_SRC_ENV] = "env", [FC_SRC_API] = "api",
};

/* Setting K's value in force, into BUF.  */
static const char *
setting_value (const struct process_view *v, int k, char *buf, size_t size)
{
  const struct fc_process_setting *it = &v->state.setting[k];
  unsigned long long x = it->set ? it->number : it->word;
  switch (fastcopy_setting_at ((size_t) k)->type)
    {
    case FASTCOPY_SETTING_IMPL:
      if (!it->set || it->impl_how == FC_CHOOSE_AUTO)
	return "auto";
      if (it->impl_how == FC_CHOOSE_SEED)
	return "seed";
      return impl_name (it->impl);
    case FASTCOPY_SETTING_SIZE:
      if (x == FC_NEVER || x == (size_t) -1)
	return "never";
      snprintf (buf, size, "%llu", x);
      return buf;
    case FASTCOPY_SETTING_BOOL:
      return x ? "on" : "off";
    case FASTCOPY_SETTING_POLICY:
      /* A family whose implementation a setting named has no row.  */
      return !it->set ? "auto" : v->rows[FASTCOPY_FAMILY_COPY][0]
	     ? v->rows[FASTCOPY_FAMILY_COPY] : v->rows[FASTCOPY_FAMILY_CLEAR];
    case FASTCOPY_SETTING_PATH:
      return it->set && it->path != 0
	     ? peek_string (v->pid, it->path, it->path_len, buf, size)
	     : "off";
    default:
      if (!it->set || x == 0)
	return "off";
      snprintf (buf, size, "signal %llu", x);
      return buf;
    }
}

/* Where setting K came from, into BUF: "default", FILE:LINE,
   "FASTCOPY item N", "fastcopy_set".  */
static const char *
setting_origin (const struct process_view *v, int k, char *buf, size_t size)
{
  const struct fc_process_setting *it = &v->state.setting[k];
  if (!it->set || it->src == FC_SRC_DEFAULT)
    return "default";
  if (it->src == FC_SRC_FILE)
    snprintf (buf, size, "%s:%u", v->config, it->line);
  else if (it->src == FC_SRC_ENV)
    snprintf (buf, size, "FASTCOPY item %u", it->line);
  else
    snprintf (buf, size, "fastcopy_set");
  return buf;
}

/* What runs for family F: "glibc" under glibc=on, whose exported
   functions call glibc's own (fastcopy-info says so of its own process,
   fastcopy_selected), else the implementation, or with WORKER the one
   doing its work.  */
static const char *
family_impl (const struct process_view *v, int f, int worker)
{
  if (v->state.glibc)
    return "glibc";
  return impl_name (worker ? v->state.worker[f] : v->state.impl[f]);
}

/* Why family F has its implementation: glibc=on, the setting that named
   it, or the policy row.  */
static const char *
impl_origin (const struct process_view *v, int f, char *buf, size_t size)
{
  if (v->state.glibc)
    {
      const char *origin = setting_origin (v, FC_KEY_GLIBC, buf, size);
      if (origin != buf)
	snprintf (buf, size, "%s", origin);
      size_t n = strlen (buf);
      snprintf (buf + n, size - n, ": glibc=on");
      return buf;
    }
  int key = f == FASTCOPY_FAMILY_COPY ? FC_KEY_COPY : FC_KEY_CLEAR;
  const struct fc_process_setting *it = &v->state.setting[key];
  if (it->set && it->impl_how == FC_CHOOSE_IMPL)
    return setting_origin (v, key, buf, size);
  snprintf (buf, size, "row %s", v->rows[f]);
  return buf;
}

static const char *const file_states[] = {
  [FC_FILE_NONE] = "none", [FC_FILE_ABSENT] = "absent",
  [FC_FILE_USED] = "used", [FC_FILE_REJECTED] = "rejected",
};
static const char *const env_states[] = {
  [FC_ENV_UNSET] = "unset", [FC_ENV_USED] = "used",
  [FC_ENV_REJECTED] = "rejected",
  [FC_ENV_SECURE] = "ignored (secure-execution process)",
};

static void
print_text (const struct process_view *v)
{
  const struct fc_process_state *s = &v->state;
  char a[FC_PATH_MAX + 32], b[FC_PATH_MAX + 32];
  printf ("process %d (%s): libfastcopy %s, %s\n", (int) v->pid,
	  shown (v->command), fastcopy_version (), shown (v->map->path));
  printf ("\nimplementations:\n");
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      printf ("  %-5s %-8s %s", f == FASTCOPY_FAMILY_COPY ? "copy" : "clear",
	      family_impl (v, f, 0), shown (impl_origin (v, f, a, sizeof a)));
      if (!s->glibc && s->worker[f] != s->impl[f])
	printf (", recording, then %s", impl_name (s->worker[f]));
      putchar ('\n');
    }
  printf ("\nsettings:\n");
  for (int k = 0; k < FC_KEY_COUNT; k++)
    printf ("  %-20s %-22s %s\n", fastcopy_setting_at ((size_t) k)->key,
	    shown (setting_value (v, k, a, sizeof a)),
	    shown (setting_origin (v, k, b, sizeof b)));
  printf ("\nconfiguration:\n");
  if (v->config[0] == '\0')
    printf ("  file: none\n");
  else
    printf ("  file: %s (%s%s)\n", shown (v->config),
	    NAME_OF (file_states, s->file_state),
	    s->config_from_env ? ", from FASTCOPY_CONFIG" : "");
  printf ("  FASTCOPY: %s\n", NAME_OF (env_states, s->env_state));
  printf ("  secure execution: %s\n", s->secure ? "yes" : "no");
}

static void
print_json (const struct process_view *v)
{
  const struct fc_process_state *s = &v->state;
  char a[FC_PATH_MAX + 32], b[FC_PATH_MAX + 32];
  int top = 1;
  putchar ('{');
  json_num_field ("pid", (unsigned long long) v->pid, &top);
  json_str_field ("command", v->command, &top);
  json_str_field ("library", v->map->path, &top);
  json_str_field ("version", fastcopy_version (), &top);
  json_key ("implementations", &top);
  putchar ('[');
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      int first = 1;
      printf ("%s{", f ? "," : "");
      json_str_field ("family", f == FASTCOPY_FAMILY_COPY ? "copy" : "clear",
		      &first);
      json_str_field ("implementation", family_impl (v, f, 0), &first);
      json_str_field ("worker", family_impl (v, f, 1), &first);
      json_str_field ("row", v->rows[f][0] && !s->glibc ? v->rows[f] : NULL,
		      &first);
      json_str_field ("origin", impl_origin (v, f, a, sizeof a), &first);
      putchar ('}');
    }
  printf ("]");
  json_key ("settings", &top);
  putchar ('[');
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      const struct fc_process_setting *it = &s->setting[k];
      int first = 1;
      printf ("%s{", k ? "," : "");
      json_str_field ("key", fastcopy_setting_at ((size_t) k)->key, &first);
      json_str_field ("value", setting_value (v, k, a, sizeof a), &first);
      json_str_field ("source", NAME_OF (source_names, it->set ? it->src : 0),
		      &first);
      json_str_field ("origin", setting_origin (v, k, b, sizeof b), &first);
      json_num_field ("line", it->set ? it->line : 0, &first);
      putchar ('}');
    }
  putchar (']');
  json_key ("config", &top);
  int first = 1;
  putchar ('{');
  json_str_field ("path", v->config, &first);
  json_bool_field ("path_from_env", s->config_from_env, &first);
  json_str_field ("file", NAME_OF (file_states, s->file_state), &first);
  json_str_field ("env", s->env_state == FC_ENV_SECURE ? "ignored"
		  : NAME_OF (env_states, s->env_state), &first);
  json_bool_field ("secure", s->secure, &first);
  printf ("}}\n");
}

int
show_process (const char *pid_text, int json)
{
  char *end;
  long pid = strtol (pid_text, &end, 10);
  if (pid <= 0 || *end != '\0' || end == pid_text)
    {
      usage_msg ("--pid: '%s' is not a process ID", shown (pid_text));
      return 2;
    }
  struct process_view *v = calloc (1, sizeof *v);
  struct mapped map;
  Dl_info self;
  if (v == NULL)
    {
      error_msg ("out of memory");
      return 1;
    }
  v->pid = (pid_t) pid;
  v->map = &map;
  char name[64];
  snprintf (name, sizeof name, "/proc/%ld/comm", pid);
  FILE *comm = fopen (name, "re");
  if (comm == NULL || fgets (v->command, sizeof v->command, comm) == NULL)
    {
      error_msg ("--pid %ld: no such process", pid);
      if (comm != NULL)
	fclose (comm);
      free (v);
      return 1;
    }
  fclose (comm);
  v->command[strcspn (v->command, "\n")] = '\0';

  int status = 1;
  int found = find_mapping (pid_text, &map);
  int e = errno;
  struct creds mine, theirs;
  if (found < 0 && (e == EACCES || e == EPERM)
      && read_creds ("self", &mine) == 0
      && read_creds (pid_text, &theirs) == 0)
    error_msg ("--pid %ld: cannot read /proc/%ld/maps: %s (%s)", pid, pid,
	       strerror (e), denied_why (&mine, &theirs));
  else if (found < 0)
    error_msg ("--pid %ld: cannot read /proc/%ld/maps: %s", pid, pid,
	       strerror (e));
  else if (found == 0)
    {
      status = 3;
      if (json)
	printf ("{\"pid\":%ld,\"library\":null}\n", pid);
      else
	printf ("process %ld (%s): libfastcopy is not mapped\n", pid,
		shown (v->command));
    }
  else if (dladdr ((void *) fastcopy_version, &self) == 0
	   || self.dli_fname == NULL
	   || !same_library (pid_text, &map, self.dli_fname))
    error_msg ("--pid %ld: maps %s, another libfastcopy than this program's "
	       "(%s): its state is laid out by its own build; ask that "
	       "build's fastcopy-info", pid, shown (map.path),
	       self.dli_fname != NULL ? shown (self.dli_fname) : "unknown");
  else
    {
      unsigned long at = elf_section_address (self.dli_fname,
					  FC_PROCESS_STATE_SECTION);
      if (at == 0 || peek (v->pid, map.base + at, v->bytes, sizeof v->bytes)
		     != (ssize_t) sizeof v->bytes)
	error_msg ("--pid %ld: cannot read libfastcopy's state: %s", pid,
		   at == 0 ? "the library has no " FC_PROCESS_STATE_SECTION
			     " section"
		   : strerror (errno));
      else
	{
	  struct fc_process_state *s = &v->state;
	  fc_process_state_decode (v->bytes, s);
	  /* The addresses are the process's: what they point to is read
	     from it.  */
	  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
	    if (s->row_name[f] != 0)
	      peek_string (v->pid, s->row_name[f], sizeof v->rows[f] - 1,
			   v->rows[f], sizeof v->rows[f]);
	  peek_string (v->pid, s->config_path, FC_PATH_MAX, v->config,
		       sizeof v->config);
	  if (json)
	    print_json (v);
	  else
	    print_text (v);
	  status = 0;
	}
    }
  free (v);
  return status;
}
