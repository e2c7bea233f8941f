/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: the library's file, and test processes that run with
   it preloaded.  Before an entry is added, /bin/true, /bin/sh and /bin/cat
   run with the library in LD_PRELOAD; if one fails or prints anything
   unexpected, nothing is written.  */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "preload.h"

/* Check that the file at host path P is a 64-bit x86-64 shared object.
   Returns NULL when it is, else what is wrong.  */
const char *
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
    error_msg ("test '%s' did not finish within %d seconds", what,
	       TEST_TIMEOUT_MS / 1000);
  else if (r->status == -1)
    error_msg ("test '%s' could not be started: %s", what,
	       strerror (errno));
  else if (WIFSIGNALED (r->status))
    error_msg ("test '%s' was killed by signal %d (%s)", what,
	       WTERMSIG (r->status), strsignal (WTERMSIG (r->status)));
  else if (WEXITSTATUS (r->status) != 0)
    error_msg ("test '%s' failed (exit status %d)", what,
	       WEXITSTATUS (r->status));
  else
    error_msg ("test '%s' printed something unexpected", what);
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

/* Run the test processes with LIB (a host path) preloaded; ORIG is the
   library's own name when LIB is a link to it.  When ENTRY is not NULL
   (root is /), also check that ld.so resolves ENTRY, as written, to LIB.
   Returns 0 when all is well, -1 after printing why not, 1 when only the
   ENTRY resolution check failed.  */
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
      error_msg ("cannot resolve %s: %s", orig, strerror (errno));
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
      error_msg ("with %s preloaded, /bin/cat did not map %s; the library was not loaded",
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

/* test_processes for LIB, reached through a link when its name cannot be
   written in LD_PRELOAD.  The same returns.  */
int
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
	  error_msg ("cannot create a directory in /tmp: %s", strerror (errno));
	  return -1;
	}
      snprintf (link, sizeof link, "%s/%s", linkdir, FASTCOPY_SONAME);
      if (symlink (lib, link) < 0)
	{
	  error_msg ("cannot create %s: %s", link, strerror (errno));
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
