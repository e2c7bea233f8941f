/* fastcopy-preload: enable, disable or show libfastcopy in /etc/ld.so.preload.

   The file applies to every dynamically linked program, setuid ones
   included, so every change is made the careful way:

   1. The new contents are computed from the old ones: only libfastcopy's own
      entries are added or removed, every other byte stays as it was
      (comments, blank lines, other libraries, a missing final newline).
   2. Before an entry is added, test processes run with the library
      preloaded; if one fails or prints anything unexpected, nothing is
      written.
   3. The new file is written to a temporary file in the same directory,
      given the old file's mode and owner, fsync'ed, renamed over the old
      one, and the directory is fsync'ed.  A file that would be empty is
      removed instead.  Readers see the old file or the new one, never a
      partial one.

   The program is linked statically on purpose: a static program has no
   dynamic loader, so /etc/ld.so.preload does not apply to it and
   'fastcopy-preload disable' keeps working when the preload is broken.

   The same entry-removal rules are implemented in POSIX sh for the package
   scripts (packaging/preload-remove.sh); packaging/test-preload-edit.sh
   checks that the two agree.  */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FASTCOPY_LIBDIR
# error "FASTCOPY_LIBDIR must name the directory the library is installed in"
#endif
#ifndef FASTCOPY_SONAME
# define FASTCOPY_SONAME "libfastcopy.so.1"
#endif

#define PRELOAD_FILE "/etc/ld.so.preload"
#define MULTIARCH "x86_64-linux-gnu"

/* Exit statuses.  */
enum
{
  EXIT_OK = 0,
  EXIT_ERROR = 1,
  EXIT_USAGE = 2,
  EXIT_NOT_ENABLED = 3,		/* status: no entry */
  EXIT_BROKEN = 4		/* status: an entry names a missing library */
};

static const char *progname = "fastcopy-preload";
static int quiet;

static void
msg (const char *fmt, ...)
{
  va_list ap;
  if (quiet)
    return;
  va_start (ap, fmt);
  vprintf (fmt, ap);
  va_end (ap);
}

static void
err (const char *fmt, ...)
{
  va_list ap;
  fflush (stdout);
  fprintf (stderr, "%s: ", progname);
  va_start (ap, fmt);
  vfprintf (stderr, fmt, ap);
  va_end (ap);
  fputc ('\n', stderr);
}

static void *
xrealloc (void *p, size_t n)
{
  p = realloc (p, n ? n : 1);
  if (p == NULL)
    {
      err ("out of memory");
      exit (EXIT_ERROR);
    }
  return p;
}

static char *
xasprintf (const char *fmt, ...)
{
  va_list ap;
  char *s;
  va_start (ap, fmt);
  if (vasprintf (&s, fmt, ap) < 0)
    {
      err ("out of memory");
      exit (EXIT_ERROR);
    }
  va_end (ap);
  return s;
}

/* --- growing byte buffers -------------------------------------------------- */

struct buf
{
  char *data;
  size_t len, cap;
};

static void
buf_add (struct buf *b, const char *p, size_t n)
{
  if (b->len + n + 1 > b->cap)
    {
      b->cap = (b->len + n + 1) * 2;
      b->data = xrealloc (b->data, b->cap);
    }
  memcpy (b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void
buf_adds (struct buf *b, const char *s)
{
  buf_add (b, s, strlen (s));
}

/* --- paths under the root -------------------------------------------------- */

static const char *root = "/";

/* ROOT joined with the absolute path PATH.  */
static char *
rooted (const char *path)
{
  if (strcmp (root, "/") == 0)
    return xasprintf ("%s", path);
  size_t n = strlen (root);
  while (n > 1 && root[n - 1] == '/')
    n--;
  return xasprintf ("%.*s%s", (int) n, root, path);
}

/* Follow symbolic links of the last component of PATH (an absolute path
   inside the root) the way the system inside the root would: absolute link
   targets are relative to the root.  Returns the path inside the root, or
   NULL with errno set.  */
static char *
follow_in_root (const char *path)
{
  char *cur = xasprintf ("%s", path);
  for (int hops = 0; hops < 40; hops++)
    {
      char *host = rooted (cur);
      char target[PATH_MAX];
      ssize_t n = readlink (host, target, sizeof target - 1);
      int saved = errno;
      free (host);
      if (n < 0)
	{
	  if (saved == EINVAL)	/* not a link: done */
	    return cur;
	  if (saved == ENOENT)
	    {
	      errno = ENOENT;
	      free (cur);
	      return NULL;
	    }
	  free (cur);
	  errno = saved;
	  return NULL;
	}
      target[n] = '\0';
      char *next;
      if (target[0] == '/')
	next = xasprintf ("%s", target);
      else
	{
	  char *slash = strrchr (cur, '/');
	  next = xasprintf ("%.*s/%s", (int) (slash - cur), cur, target);
	}
      free (cur);
      cur = next;
    }
  free (cur);
  errno = ELOOP;
  return NULL;
}

/* What glibc's $LIB expands to for 64-bit programs inside the root, judged
   by where libc.so.6 lives; NULL when that cannot be told.  Debian and its
   derivatives: lib/x86_64-linux-gnu; Fedora, RHEL, SUSE: lib64.  */
static const char *
dst_lib (void)
{
  static const struct
  {
    const char *libc, *value;
  } layouts[] = {
    {"/usr/lib/" MULTIARCH "/libc.so.6", "lib/" MULTIARCH},
    {"/lib/" MULTIARCH "/libc.so.6", "lib/" MULTIARCH},
    {"/usr/lib64/libc.so.6", "lib64"},
    {"/lib64/libc.so.6", "lib64"},
  };
  for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
    {
      char *p = rooted (layouts[i].libc);
      int found = access (p, F_OK) == 0;
      free (p);
      if (found)
	return layouts[i].value;
    }
  return NULL;
}

/* --- which entries are libfastcopy's ----------------------------------------- */

/* Directories (with the trailing slash) in which a file named
   libfastcopy.so.1[.*] is taken to be this library.  The list matches
   packaging/preload-remove.sh, plus the configured libdir.  */
static const char *const entry_dirs[] = {
  "/usr/$LIB/", "/$LIB/", "/usr/${LIB}/", "/${LIB}/",
  "/usr/lib/" MULTIARCH "/", "/lib/" MULTIARCH "/", "/usr/lib64/", "/lib64/",
  NULL
};

static int
is_ours (const char *tok, size_t len)
{
  const char *base = tok + len;
  while (base > tok && base[-1] != '/')
    base--;
  size_t blen = len - (size_t) (base - tok);
  size_t slen = strlen (FASTCOPY_SONAME);
  if (!(blen == slen && memcmp (base, FASTCOPY_SONAME, slen) == 0)
      && !(blen > slen && memcmp (base, FASTCOPY_SONAME, slen) == 0
	   && base[slen] == '.'))
    return 0;
  size_t dlen = (size_t) (base - tok);
  if (dlen == 0)
    return 1;			/* the bare soname */
  for (size_t i = 0; entry_dirs[i] != NULL; i++)
    if (strlen (entry_dirs[i]) == dlen && memcmp (entry_dirs[i], tok, dlen) == 0)
      return 1;
  size_t ldlen = strlen (FASTCOPY_LIBDIR);
  return dlen == ldlen + 1 && memcmp (tok, FASTCOPY_LIBDIR, ldlen) == 0;
}

static int
is_sep (char c)
{
  /* ld.so separates names by these (and newlines).  */
  return c == ' ' || c == '\t' || c == ':';
}

/* --- the preload file, as lines ----------------------------------------------- */

struct line
{
  char *p;
  size_t len;			/* without the newline */
};

struct content
{
  struct line *lines;
  size_t n, cap;
  int final_newline;		/* the last line ends with '\n' */
};

static void
content_push (struct content *c, char *p, size_t len)
{
  if (c->n == c->cap)
    {
      c->cap = c->cap ? c->cap * 2 : 16;
      c->lines = xrealloc (c->lines, c->cap * sizeof c->lines[0]);
    }
  c->lines[c->n].p = p;
  c->lines[c->n].len = len;
  c->n++;
}

/* Split DATA (LEN bytes, NUL-terminated) into lines.  */
static void
content_parse (struct content *c, char *data, size_t len)
{
  memset (c, 0, sizeof *c);
  c->final_newline = len == 0 || data[len - 1] == '\n';
  size_t start = 0;
  for (size_t i = 0; i < len; i++)
    if (data[i] == '\n')
      {
	content_push (c, data + start, i - start);
	start = i + 1;
      }
  if (start < len)
    content_push (c, data + start, len - start);
}

static void
content_join (const struct content *c, struct buf *out)
{
  for (size_t i = 0; i < c->n; i++)
    {
      buf_add (out, c->lines[i].p, c->lines[i].len);
      if (i + 1 < c->n || c->final_newline)
	buf_add (out, "\n", 1);
    }
}

/* A line's active part (before any '#') as separators and names:
   sep[0] tok[0] sep[1] tok[1] ... tok[n-1] sep[n], then the comment.  */
struct split
{
  size_t n, cap;
  const char **sep, **tok;	/* sep has n + 1 elements, tok n */
  size_t *seplen, *toklen;
  const char *comment;
  size_t comment_len;
};

static void
split_line (const struct line *l, struct split *s)
{
  const char *p = l->p, *end = l->p + l->len;
  const char *hash = memchr (p, '#', l->len);
  const char *act_end = hash ? hash : end;
  s->comment = hash;
  s->comment_len = hash ? (size_t) (end - hash) : 0;
  s->n = 0;
  for (;;)
    {
      if (s->n + 1 >= s->cap)
	{
	  s->cap = s->cap ? s->cap * 2 : 8;
	  s->sep = xrealloc (s->sep, s->cap * sizeof s->sep[0]);
	  s->tok = xrealloc (s->tok, s->cap * sizeof s->tok[0]);
	  s->seplen = xrealloc (s->seplen, s->cap * sizeof s->seplen[0]);
	  s->toklen = xrealloc (s->toklen, s->cap * sizeof s->toklen[0]);
	}
      const char *q = p;
      while (q < act_end && is_sep (*q))
	q++;
      s->sep[s->n] = p;
      s->seplen[s->n] = (size_t) (q - p);
      if (q == act_end)
	return;
      p = q;
      while (q < act_end && !is_sep (*q))
	q++;
      s->tok[s->n] = p;
      s->toklen[s->n] = (size_t) (q - p);
      s->n++;
      p = q;
    }
}

/* Index of the first line that has one of our entries, or -1.  */
static long
find_entry (const struct content *c, long from, const char **tok, size_t *toklen)
{
  static struct split s;
  for (size_t i = (size_t) from; i < c->n; i++)
    {
      split_line (&c->lines[i], &s);
      for (size_t t = 0; t < s.n; t++)
	if (is_ours (s.tok[t], s.toklen[t]))
	  {
	    if (tok != NULL)
	      {
		*tok = s.tok[t];
		*toklen = s.toklen[t];
	      }
	    return (long) i;
	  }
    }
  return -1;
}

/* Remove our entries from C.  A line that holds only our entries (and
   separators, and perhaps a comment) goes away entirely; in a line that
   also names other libraries only our names go, each with the separators
   in front of it (or, for a line's first name, the ones after it).
   Returns the number of names removed.  Rewritten lines are allocated and
   live until the program exits.  */
static size_t
remove_entries (struct content *c)
{
  size_t removed = 0, w = 0;
  for (size_t i = 0; i < c->n; i++)
    {
      static struct split s;
      struct line l = c->lines[i];
      split_line (&l, &s);
      size_t ours = 0;
      for (size_t t = 0; t < s.n; t++)
	ours += is_ours (s.tok[t], s.toklen[t]);
      if (ours == 0)
	{
	  c->lines[w++] = l;
	  continue;
	}
      removed += ours;
      if (ours == s.n)
	continue;		/* the whole line was ours */
      struct buf b = { 0 };
      buf_add (&b, s.sep[0], s.seplen[0]);
      int first = 1;
      for (size_t t = 0; t < s.n; t++)
	{
	  if (is_ours (s.tok[t], s.toklen[t]))
	    continue;
	  if (!first)
	    buf_add (&b, s.sep[t], s.seplen[t]);
	  buf_add (&b, s.tok[t], s.toklen[t]);
	  first = 0;
	}
      buf_add (&b, s.sep[s.n], s.seplen[s.n]);
      if (s.comment != NULL)
	buf_add (&b, s.comment, s.comment_len);
      l.p = b.data ? b.data : xrealloc (NULL, 1);
      l.len = b.len;
      c->lines[w++] = l;
    }
  c->n = w;
  return removed;
}

/* --- reading and writing the file -------------------------------------------- */

struct pfile
{
  char *path;			/* host path of the file itself (links followed) */
  char *dir;			/* its directory */
  char *shown;			/* how to name it in messages */
  int exists;
  struct stat st;
  char *data;
  size_t len;
};

static int
read_all (int fd, char **data, size_t *len)
{
  struct buf b = { 0 };
  char chunk[8192];
  for (;;)
    {
      ssize_t n = read (fd, chunk, sizeof chunk);
      if (n < 0)
	{
	  if (errno == EINTR)
	    continue;
	  free (b.data);
	  return -1;
	}
      if (n == 0)
	break;
      buf_add (&b, chunk, (size_t) n);
    }
  if (b.data == NULL)
    b.data = xrealloc (NULL, 1), b.data[0] = '\0';
  *data = b.data;
  *len = b.len;
  return 0;
}

/* Locate the preload file (following symbolic links inside the root) and
   read it.  Returns 0, or -1 after printing an error.  */
static int
pfile_load (struct pfile *f)
{
  memset (f, 0, sizeof *f);
  f->shown = rooted (PRELOAD_FILE);
  char *inroot = follow_in_root (PRELOAD_FILE);
  if (inroot == NULL && errno == ENOENT)
    {
      /* Absent, or a dangling link: write where the file is named.  */
      inroot = xasprintf ("%s", PRELOAD_FILE);
    }
  else if (inroot == NULL)
    {
      err ("cannot resolve %s: %s", f->shown, strerror (errno));
      return -1;
    }
  f->path = rooted (inroot);
  char *slash = strrchr (f->path, '/');
  f->dir = slash == f->path ? xasprintf ("/")
    : xasprintf ("%.*s", (int) (slash - f->path), f->path);
  free (inroot);

  int fd = open (f->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    {
      if (errno == ENOENT)
	{
	  f->data = xrealloc (NULL, 1);
	  f->data[0] = '\0';
	  return 0;
	}
      err ("cannot open %s: %s", f->path, strerror (errno));
      return -1;
    }
  if (fstat (fd, &f->st) < 0 || read_all (fd, &f->data, &f->len) < 0)
    {
      err ("cannot read %s: %s", f->path, strerror (errno));
      close (fd);
      return -1;
    }
  close (fd);
  if (!S_ISREG (f->st.st_mode))
    {
      err ("%s is not a regular file; not touching it", f->path);
      return -1;
    }
  f->exists = 1;
  return 0;
}

/* Nonzero when the file on disk still has the contents F was read with.  */
static int
pfile_unchanged (const struct pfile *f)
{
  int fd = open (f->path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0)
    return errno == ENOENT && !f->exists;
  char *data;
  size_t len;
  int ok = 0;
  if (read_all (fd, &data, &len) == 0)
    {
      ok = f->exists && len == f->len && memcmp (data, f->data, len) == 0;
      free (data);
    }
  close (fd);
  return ok;
}

/* glibc's ld.so (2.36, and the same rtld.c code before and since) blanks
   out only the first '#' comment of the file reliably: its loop never
   advances the start of its search, so the words of later comments are
   taken for library names and every program prints an error for each.
   Warn about files with more than one '#'.  */
static void
warn_comments (const struct pfile *f)
{
  size_t n = 0;
  for (size_t i = 0; i < f->len; i++)
    n += f->data[i] == '#';
  if (n > 1)
    fprintf (stderr,
	     "%s: warning: %s has %zu '#' comments; the dynamic loader reads only the\n"
	     "first one as a comment reliably, and programs may print \"cannot be preloaded\"\n"
	     "errors for words of the others: keep at most one comment in this file\n",
	     progname, f->shown, n);
}

static int
fsync_dir (const char *dir)
{
  int dfd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0)
    return -1;
  int r = fsync (dfd);
  int saved = errno;
  close (dfd);
  errno = saved;
  return r;
}

static int
write_full (int fd, const char *p, size_t n)
{
  while (n > 0)
    {
      ssize_t w = write (fd, p, n);
      if (w < 0)
	{
	  if (errno == EINTR)
	    continue;
	  return -1;
	}
      p += w;
      n -= (size_t) w;
    }
  return 0;
}

/* Hold the directory lock so that two fastcopy-preload runs (or a run and
   the package scripts, which take the same lock) do not interleave.  */
static int lock_fd = -1;

static int
lock_dir (const char *dir)
{
  lock_fd = open (dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock_fd < 0)
    return 0;			/* best effort */
  for (int i = 0; i < 100; i++)
    {
      if (flock (lock_fd, LOCK_EX | LOCK_NB) == 0)
	return 0;
      if (errno != EWOULDBLOCK && errno != EINTR)
	return 0;
      struct timespec ts = { 0, 100 * 1000 * 1000 };
      nanosleep (&ts, NULL);
    }
  err ("%s is locked by another process (a package manager?); try again later",
       dir);
  return -1;
}

/* Replace the file with NEW_DATA (or remove it when NEW_LEN is 0), unless it
   changed since it was read.  Returns 0, 1 when the file changed under us
   (nothing written), or -1 after printing an error.  */
static int
pfile_replace (const struct pfile *f, const char *new_data, size_t new_len)
{
  sigset_t block, old;
  sigemptyset (&block);
  sigaddset (&block, SIGINT);
  sigaddset (&block, SIGTERM);
  sigaddset (&block, SIGHUP);
  sigaddset (&block, SIGQUIT);
  sigprocmask (SIG_BLOCK, &block, &old);

  int ret = -1;
  char *tmp = NULL;
  if (new_len == 0)
    {
      if (!pfile_unchanged (f))
	{
	  ret = 1;
	  goto out;
	}
      if (f->exists && unlink (f->path) < 0)
	{
	  err ("cannot remove %s: %s", f->path, strerror (errno));
	  goto out;
	}
      if (fsync_dir (f->dir) < 0)
	{
	  err ("cannot sync directory %s: %s", f->dir, strerror (errno));
	  goto out;
	}
      ret = 0;
      goto out;
    }

  tmp = xasprintf ("%s/.ld.so.preload.fastcopy-XXXXXX", f->dir);
  int fd = mkostemp (tmp, O_CLOEXEC);
  if (fd < 0)
    {
      int e = errno;
      err ("cannot create a temporary file in %s: %s%s", f->dir, strerror (e),
	   e == EACCES || e == EPERM ? " (run it as root)" : "");
      free (tmp);
      tmp = NULL;
      goto out;
    }
  mode_t mode = f->exists ? f->st.st_mode & 07777 : 0644;
  if (fchmod (fd, mode) < 0
      || (f->exists && geteuid () == 0
	  && fchown (fd, f->st.st_uid, f->st.st_gid) < 0)
      || write_full (fd, new_data, new_len) < 0 || fsync (fd) < 0)
    {
      err ("cannot write %s: %s", tmp, strerror (errno));
      close (fd);
      goto out_unlink;
    }
  if (close (fd) < 0)
    {
      err ("cannot write %s: %s", tmp, strerror (errno));
      goto out_unlink;
    }
  if (!pfile_unchanged (f))
    {
      ret = 1;
      goto out_unlink;
    }
  if (rename (tmp, f->path) < 0)
    {
      err ("cannot rename %s to %s: %s", tmp, f->path, strerror (errno));
      goto out_unlink;
    }
  free (tmp);
  tmp = NULL;
  if (fsync_dir (f->dir) < 0)
    {
      err ("%s was replaced, but syncing %s failed: %s", f->path, f->dir,
	   strerror (errno));
      goto out;
    }
  ret = 0;
  goto out;

out_unlink:
  unlink (tmp);
out:
  free (tmp);
  sigprocmask (SIG_SETMASK, &old, NULL);
  return ret;
}

/* On an SELinux system give a newly created file its proper label.  */
static void
restore_label (const char *path)
{
  static const char *const tools[] = { "/usr/sbin/restorecon", "/sbin/restorecon", NULL };
  if (strcmp (root, "/") != 0 || access ("/sys/fs/selinux/enforce", F_OK) != 0)
    return;
  for (size_t i = 0; tools[i] != NULL; i++)
    if (access (tools[i], X_OK) == 0)
      {
	pid_t pid = fork ();
	if (pid == 0)
	  {
	    execl (tools[i], tools[i], path, (char *) NULL);
	    _exit (127);
	  }
	if (pid > 0)
	  waitpid (pid, NULL, 0);
	return;
      }
}

/* --- test processes --------------------------------------------------------- */

struct run
{
  int status;			/* as from waitpid; -1 when it could not start */
  int timed_out;
  struct buf out, err;
};

#define TEST_TIMEOUT_MS 20000

/* Run ARGV with a minimal environment plus LD_PRELOAD=PRELOAD; collect its
   output.  */
static void
run_test (char *const argv[], const char *preload, struct run *r)
{
  memset (r, 0, sizeof *r);
  r->status = -1;
  int po[2], pe[2];
  if (pipe2 (po, O_CLOEXEC) < 0)
    return;
  if (pipe2 (pe, O_CLOEXEC) < 0)
    {
      close (po[0]);
      close (po[1]);
      return;
    }
  char *ld = xasprintf ("LD_PRELOAD=%s", preload);
  char *envp[] = {
    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "LC_ALL=C", ld, NULL
  };
  pid_t pid = fork ();
  if (pid == 0)
    {
      int devnull = open ("/dev/null", O_RDONLY);
      if (devnull >= 0)
	dup2 (devnull, 0);
      dup2 (po[1], 1);
      dup2 (pe[1], 2);
      sigset_t none;
      sigemptyset (&none);
      sigprocmask (SIG_SETMASK, &none, NULL);
      execve (argv[0], argv, envp);
      dprintf (2, "cannot run %s: %s\n", argv[0], strerror (errno));
      _exit (127);
    }
  free (ld);
  close (po[1]);
  close (pe[1]);
  if (pid < 0)
    {
      close (po[0]);
      close (pe[0]);
      return;
    }
  struct pollfd pfd[2] = { {po[0], POLLIN, 0}, {pe[0], POLLIN, 0} };
  struct buf *bufs[2] = { &r->out, &r->err };
  int open_fds = 2;
  struct timespec start, now;
  clock_gettime (CLOCK_MONOTONIC, &start);
  while (open_fds > 0)
    {
      clock_gettime (CLOCK_MONOTONIC, &now);
      long elapsed = (now.tv_sec - start.tv_sec) * 1000
	+ (now.tv_nsec - start.tv_nsec) / 1000000;
      if (elapsed >= TEST_TIMEOUT_MS)
	{
	  r->timed_out = 1;
	  kill (pid, SIGKILL);
	  break;
	}
      int n = poll (pfd, 2, (int) (TEST_TIMEOUT_MS - elapsed));
      if (n < 0 && errno != EINTR)
	break;
      for (int i = 0; i < 2; i++)
	if (pfd[i].fd >= 0 && (pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
	  {
	    char chunk[4096];
	    ssize_t k = read (pfd[i].fd, chunk, sizeof chunk);
	    if (k > 0)
	      {
		if (bufs[i]->len < (1 << 20))
		  buf_add (bufs[i], chunk, (size_t) k);
	      }
	    else if (k == 0 || errno != EINTR)
	      {
		close (pfd[i].fd);
		pfd[i].fd = -1;
		open_fds--;
	      }
	  }
    }
  for (int i = 0; i < 2; i++)
    if (pfd[i].fd >= 0)
      close (pfd[i].fd);
  int st;
  while (waitpid (pid, &st, 0) < 0)
    if (errno != EINTR)
      return;
  r->status = st;
}

static void
describe_failure (const char *what, const struct run *r)
{
  if (r->timed_out)
    err ("test '%s' did not finish within %d seconds", what,
	 TEST_TIMEOUT_MS / 1000);
  else if (r->status == -1)
    err ("test '%s' could not be started: %s", what, strerror (errno));
  else if (WIFSIGNALED (r->status))
    err ("test '%s' was killed by signal %d (%s)", what,
	 WTERMSIG (r->status), strsignal (WTERMSIG (r->status)));
  else if (WEXITSTATUS (r->status) != 0)
    err ("test '%s' failed (exit status %d)", what, WEXITSTATUS (r->status));
  else
    err ("test '%s' printed something unexpected", what);
  if (r->err.len > 0)
    fprintf (stderr, "  its error output was:\n%.*s%s", (int) (r->err.len > 4000 ? 4000 : r->err.len),
	     r->err.data, r->err.data[r->err.len - 1] == '\n' ? "" : "\n");
  if (r->out.len > 0 && r->out.len < 4000)
    fprintf (stderr, "  its output was:\n%.*s%s", (int) r->out.len,
	     r->out.data, r->out.data[r->out.len - 1] == '\n' ? "" : "\n");
}

static int
exited_zero (const struct run *r)
{
  return !r->timed_out && r->status != -1 && WIFEXITED (r->status)
    && WEXITSTATUS (r->status) == 0;
}

/* Nonzero when the /proc/self/maps text MAPS maps the file REAL.  */
static int
maps_has (const struct buf *maps, const char *real)
{
  size_t rl = strlen (real);
  const char *p = maps->data, *end = maps->data + maps->len;
  while (p != NULL && p < end)
    {
      const char *nl = memchr (p, '\n', (size_t) (end - p));
      const char *le = nl ? nl : end;
      if ((size_t) (le - p) >= rl + 1 && memcmp (le - rl, real, rl) == 0
	  && le[-(long) rl - 1] == ' ')
	return 1;
      p = nl ? nl + 1 : NULL;
    }
  return 0;
}

/* Run the test processes with LIB (a host path) preloaded.  When ENTRY is
   not NULL (root is /), also check that ld.so resolves ENTRY, as written, to
   LIB.  Returns 0 when all is well, -1 after printing why not, 1 when only
   the ENTRY resolution check failed.  */
static int test_processes (const char *orig, const char *lib,
			   const char *entry);

static int
test_library (const char *lib, const char *entry)
{
  msg ("testing %s in new processes...\n", lib);
  /* LD_PRELOAD splits at spaces and colons: reach such a name through a
     symbolic link in a fresh directory.  */
  char linkdir[] = "/tmp/fastcopy-preload.XXXXXX", link[sizeof linkdir + 32];
  const char *orig = lib;
  int linked = 0;
  if (strpbrk (lib, " \t:") != NULL)
    {
      if (mkdtemp (linkdir) == NULL)
	{
	  err ("cannot create a directory in /tmp: %s", strerror (errno));
	  return -1;
	}
      snprintf (link, sizeof link, "%s/%s", linkdir, FASTCOPY_SONAME);
      if (symlink (lib, link) < 0)
	{
	  err ("cannot create %s: %s", link, strerror (errno));
	  rmdir (linkdir);
	  return -1;
	}
      lib = link;
      linked = 1;
    }
  int ret = test_processes (orig, lib, entry);
  if (linked)
    {
      unlink (link);
      rmdir (linkdir);
    }
  return ret;
}

static int
test_processes (const char *orig, const char *lib, const char *entry)
{
  static char *const t_true[] = { "/bin/true", NULL };
  static char *const t_sh[] = { "/bin/sh", "-c", "echo ok", NULL };
  static char *const t_maps[] = { "/bin/cat", "/proc/self/maps", NULL };
  struct run r;

  run_test (t_true, lib, &r);
  if (!exited_zero (&r) || r.out.len || r.err.len)
    {
      describe_failure ("/bin/true", &r);
      return -1;
    }
  run_test (t_sh, lib, &r);
  if (!exited_zero (&r) || r.err.len || r.out.len != 3
      || memcmp (r.out.data, "ok\n", 3) != 0)
    {
      describe_failure ("/bin/sh -c 'echo ok'", &r);
      return -1;
    }
  if (access ("/proc/self/maps", R_OK) != 0)
    {
      msg ("note: /proc is not mounted; cannot check that the library is mapped\n");
      return 0;
    }
  char real[PATH_MAX];
  if (realpath (orig, real) == NULL)
    {
      err ("cannot resolve %s: %s", orig, strerror (errno));
      return -1;
    }
  run_test (t_maps, lib, &r);
  if (!exited_zero (&r) || r.err.len)
    {
      describe_failure ("/bin/cat /proc/self/maps", &r);
      return -1;
    }
  if (!maps_has (&r.out, real))
    {
      err ("with %s preloaded, /bin/cat did not map %s; the library was not loaded",
	   orig, real);
      return -1;
    }
  if (entry != NULL && strcmp (entry, lib) != 0)
    {
      run_test (t_maps, entry, &r);
      if (!exited_zero (&r) || r.err.len || !maps_has (&r.out, real))
	return 1;
    }
  return 0;
}

/* --- commands ---------------------------------------------------------------- */

static int no_test;

/* The entry to write for the library in FASTCOPY_LIBDIR.  */
static char *
preferred_entry (void)
{
  const char *lib = dst_lib ();
  if (lib != NULL)
    {
      char *usr = xasprintf ("/usr/%s", lib);
      char *top = xasprintf ("/%s", lib);
      char *e = NULL;
      if (strcmp (FASTCOPY_LIBDIR, usr) == 0)
	e = xasprintf ("/usr/$LIB/%s", FASTCOPY_SONAME);
      else if (strcmp (FASTCOPY_LIBDIR, top) == 0)
	e = xasprintf ("/$LIB/%s", FASTCOPY_SONAME);
      free (usr);
      free (top);
      if (e != NULL)
	return e;
    }
  return xasprintf ("%s/%s", FASTCOPY_LIBDIR, FASTCOPY_SONAME);
}

/* Check that the file at host path P is a 64-bit x86-64 shared object.
   Returns NULL when it is, else what is wrong.  */
static const char *
check_elf (const char *p)
{
  static char why[256];
  unsigned char h[64];
  int fd = open (p, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      snprintf (why, sizeof why, "%s", strerror (errno));
      return why;
    }
  ssize_t n = read (fd, h, sizeof h);
  close (fd);
  if (n < 64 || memcmp (h, "\177ELF", 4) != 0)
    return "not an ELF file";
  if (h[4] != 2 || h[5] != 1)
    return "not a 64-bit little-endian ELF file";
  unsigned type = h[16] | h[17] << 8, machine = h[18] | h[19] << 8;
  if (type != 3)
    return "not a shared object";
  if (machine != 62)
    return "not an x86-64 object";
  return NULL;
}

static int
cmd_enable (void)
{
  char *libpath = xasprintf ("%s/%s", FASTCOPY_LIBDIR, FASTCOPY_SONAME);
  char *libhost = rooted (libpath);
  char *libin = follow_in_root (libpath);
  if (libin == NULL)
    {
      err ("%s: %s; is libfastcopy installed?", libhost, strerror (errno));
      return EXIT_ERROR;
    }
  char *libreal = rooted (libin);
  const char *bad = check_elf (libreal);
  if (bad != NULL)
    {
      err ("%s: %s; refusing to enable it", libhost, bad);
      return EXIT_ERROR;
    }

  struct pfile f;
  if (pfile_load (&f) < 0)
    return EXIT_ERROR;
  struct content c;
  content_parse (&c, f.data, f.len);
  const char *tok;
  size_t toklen;
  long at = find_entry (&c, 0, &tok, &toklen);
  if (at >= 0)
    {
      msg ("libfastcopy is already enabled in %s (line %ld: %.*s); nothing to do\n",
	   f.shown, at + 1, (int) toklen, tok);
      return EXIT_OK;
    }

  warn_comments (&f);
  char *entry = preferred_entry ();
  if (!no_test)
    {
      int is_root = strcmp (root, "/") == 0;
      int t = test_library (libreal, is_root ? entry : NULL);
      if (t < 0)
	{
	  err ("not enabling: the test process failed with %s preloaded; %s is unchanged",
	       libhost, f.shown);
	  return EXIT_ERROR;
	}
      if (t > 0)
	{
	  /* The dynamic loader does not resolve ENTRY to our file here
	     (say, an RPM built for /usr/lib64 installed on Debian): fall back
	     to the plain path, which always names the tested file.  */
	  msg ("note: ld.so does not resolve %s to %s here; writing the full path instead\n",
	       entry, libhost);
	  free (entry);
	  entry = xasprintf ("%s", libpath);
	}
    }
  else
    msg ("not testing the library (--no-test)\n");

  if (lock_dir (f.dir) < 0)
    return EXIT_ERROR;
  for (int attempt = 0;; attempt++)
    {
      if (attempt > 0)
	{
	  if (pfile_load (&f) < 0)
	    return EXIT_ERROR;
	  content_parse (&c, f.data, f.len);
	  if (find_entry (&c, 0, NULL, NULL) >= 0)
	    {
	      msg ("libfastcopy was enabled meanwhile; nothing to do\n");
	      return EXIT_OK;
	    }
	}
      if (c.n == 0)
	c.final_newline = 1;
      content_push (&c, entry, strlen (entry));
      struct buf out = { 0 };
      content_join (&c, &out);
      int r = pfile_replace (&f, out.data, out.len);
      free (out.data);
      if (r < 0)
	return EXIT_ERROR;
      if (r == 0)
	break;
      if (attempt == 4)
	{
	  err ("%s keeps changing while it is being edited; giving up", f.shown);
	  return EXIT_ERROR;
	}
    }
  if (!f.exists)
    restore_label (f.path);
  msg ("enabled: added '%s' to %s\n", entry, f.shown);
  msg ("every program started from now on loads %s\n", libpath);
  return EXIT_OK;
}

static int
cmd_disable (void)
{
  struct pfile f;
  if (pfile_load (&f) < 0)
    return EXIT_ERROR;
  if (lock_dir (f.dir) < 0)
    return EXIT_ERROR;
  for (int attempt = 0;; attempt++)
    {
      if (attempt > 0 && pfile_load (&f) < 0)
	return EXIT_ERROR;
      struct content c;
      content_parse (&c, f.data, f.len);
      size_t removed = remove_entries (&c);
      if (removed == 0)
	{
	  msg ("libfastcopy is not enabled in %s; nothing to do\n", f.shown);
	  return EXIT_OK;
	}
      struct buf out = { 0 };
      content_join (&c, &out);
      int r = pfile_replace (&f, out.data ? out.data : "", out.len);
      free (out.data);
      if (r < 0)
	return EXIT_ERROR;
      if (r == 0)
	{
	  if (out.len == 0)
	    msg ("disabled: removed %s (libfastcopy was its only entry)\n",
		 f.shown);
	  else
	    msg ("disabled: removed %zu libfastcopy entr%s from %s\n", removed,
		 removed == 1 ? "y" : "ies", f.shown);
	  msg ("programs started from now on use glibc's functions again\n");
	  return EXIT_OK;
	}
      if (attempt == 4)
	{
	  err ("%s keeps changing while it is being edited; giving up", f.shown);
	  return EXIT_ERROR;
	}
    }
}

/* Resolve entry TOK inside the root to a host path of an existing file, or
   NULL; *HOW says where it was looked for.  */
static char *
resolve_entry (const char *tok, struct buf *how)
{
  struct buf e = { 0 };
  const char *lib = dst_lib ();
  for (const char *p = tok; *p;)
    {
      size_t n = 0;
      if (strncmp (p, "$LIB", 4) == 0)
	n = 4;
      else if (strncmp (p, "${LIB}", 6) == 0)
	n = 6;
      if (n)
	{
	  if (lib == NULL)
	    {
	      buf_adds (how, "cannot tell what $LIB expands to in this root");
	      free (e.data);
	      return NULL;
	    }
	  buf_adds (&e, lib);
	  p += n;
	}
      else
	buf_add (&e, p++, 1);
    }
  if (strchr (e.data, '/') != NULL)
    {
      buf_adds (how, e.data);
      char *in = follow_in_root (e.data);
      free (e.data);
      if (in == NULL)
	return NULL;
      char *host = rooted (in);
      free (in);
      return host;
    }
  /* A bare name: ld.so searches its cache and default directories; look
     where those lead on the systems libfastcopy is packaged for.  */
  static const char *const dirs[] = {
    FASTCOPY_LIBDIR, "/lib/" MULTIARCH, "/usr/lib/" MULTIARCH, "/lib64",
    "/usr/lib64", "/usr/local/lib", NULL
  };
  for (size_t i = 0; dirs[i] != NULL; i++)
    {
      int seen = 0;
      for (size_t j = 0; j < i; j++)
	seen |= strcmp (dirs[i], dirs[j]) == 0;
      if (seen)
	continue;
      char *cand = xasprintf ("%s/%s", dirs[i], e.data);
      char *in = follow_in_root (cand);
      if (in != NULL)
	{
	  char *host = rooted (in);
	  free (in);
	  if (check_elf (host) == NULL)
	    {
	      buf_adds (how, cand);
	      free (cand);
	      free (e.data);
	      return host;
	    }
	  free (host);
	}
      free (cand);
    }
  buf_adds (how, "not found in the library directories");
  free (e.data);
  return NULL;
}

static int
cmd_status (void)
{
  struct pfile f;
  if (pfile_load (&f) < 0)
    return EXIT_ERROR;
  struct content c;
  content_parse (&c, f.data, f.len);
  char *libpath = xasprintf ("%s/%s", FASTCOPY_LIBDIR, FASTCOPY_SONAME);
  char *libhost = rooted (libpath);
  char *libin = follow_in_root (libpath);
  int lib_ok = libin != NULL && check_elf (rooted (libin)) == NULL;

  warn_comments (&f);
  long at = find_entry (&c, 0, NULL, NULL);
  if (at < 0)
    {
      printf ("libfastcopy is not enabled (%s %s)\n", f.shown,
	      f.exists ? "has no libfastcopy entry" : "does not exist");
      printf ("library %s: %s\n", libhost,
	      lib_ok ? "installed" : "not installed");
      return EXIT_NOT_ENABLED;
    }
  int broken = 0;
  struct buf report = { 0 };
  for (; at >= 0; at = find_entry (&c, at + 1, NULL, NULL))
    {
      static struct split s;
      split_line (&c.lines[at], &s);
      for (size_t t = 0; t < s.n; t++)
	{
	  if (!is_ours (s.tok[t], s.toklen[t]))
	    continue;
	  char *tok = xasprintf ("%.*s", (int) s.toklen[t], s.tok[t]);
	  struct buf how = { 0 };
	  char *host = resolve_entry (tok, &how);
	  const char *bad = host ? check_elf (host)
	    : strchr (tok, '/') ? "no such file" : "missing";
	  char *line = xasprintf ("  line %ld: %s -> %s: %s\n", at + 1, tok,
				  how.data ? how.data : "", bad ? bad : "ok");
	  buf_adds (&report, line);
	  broken |= bad != NULL;
	  free (line);
	  free (tok);
	  free (how.data);
	  free (host);
	}
    }
  if (broken)
    {
      printf ("libfastcopy is enabled in %s, but an entry is BROKEN:\n%s",
	      f.shown, report.data);
      printf ("every dynamically linked program reports an error for it; "
	      "run 'fastcopy-preload%s%s disable' to remove it\n",
	      strcmp (root, "/") ? " --root " : "",
	      strcmp (root, "/") ? root : "");
      return EXIT_BROKEN;
    }
  printf ("libfastcopy is enabled in %s:\n%s", f.shown, report.data);
  return EXIT_OK;
}

static void
usage (FILE *to)
{
  fprintf (to,
	   "usage: %s [--root DIR] [--no-test] [--quiet] enable|disable|status\n"
	   "\n"
	   "Manage libfastcopy's entry in /etc/ld.so.preload, which makes every\n"
	   "program on the system (setuid ones included) use libfastcopy.\n"
	   "\n"
	   "  enable    test the library in new processes, then add the entry\n"
	   "  disable   remove libfastcopy's entries, keeping everything else\n"
	   "  status    say whether it is enabled and whether the library exists\n"
	   "            (exit status 0 enabled, 3 not enabled, 4 broken entry)\n"
	   "\n"
	   "  --root DIR  work on DIR/etc/ld.so.preload and the library under DIR\n"
	   "  --no-test   enable without running the test processes\n"
	   "  --quiet     print errors and warnings only\n"
	   "\n"
	   "library: %s/%s\n", progname, FASTCOPY_LIBDIR, FASTCOPY_SONAME);
}

int
main (int argc, char **argv)
{
  static const struct option longopts[] = {
    {"root", required_argument, NULL, 'r'},
    {"no-test", no_argument, NULL, 'n'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}
  };
  int opt;
  while ((opt = getopt_long (argc, argv, "r:nqhV", longopts, NULL)) != -1)
    switch (opt)
      {
      case 'r':
	root = optarg;
	break;
      case 'n':
	no_test = 1;
	break;
      case 'q':
	quiet = 1;
	break;
      case 'h':
	usage (stdout);
	return EXIT_OK;
      case 'V':
	printf ("fastcopy-preload (libfastcopy) %s\n", PACKAGE_VERSION);
	return EXIT_OK;
      default:
	usage (stderr);
	return EXIT_USAGE;
      }
  if (optind + 1 != argc)
    {
      err (optind == argc ? "no command given" : "too many arguments");
      usage (stderr);
      return EXIT_USAGE;
    }
  if (root[0] != '/')
    {
      err ("--root needs an absolute directory name, not '%s'", root);
      return EXIT_USAGE;
    }
  struct stat st;
  if (stat (root, &st) < 0 || !S_ISDIR (st.st_mode))
    {
      err ("--root %s: not a directory", root);
      return EXIT_USAGE;
    }
  /* Make sure output written before a child's is not duplicated.  */
  setvbuf (stdout, NULL, _IOLBF, 0);

  const char *cmd = argv[optind];
  if (strcmp (cmd, "enable") == 0)
    return cmd_enable ();
  if (strcmp (cmd, "disable") == 0)
    return cmd_disable ();
  if (strcmp (cmd, "status") == 0)
    return cmd_status ();
  err ("unknown command '%s'", cmd);
  usage (stderr);
  return EXIT_USAGE;
}
