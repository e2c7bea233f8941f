/* SPDX-License-Identifier: MIT */
/* fastcopy-profile: recording a command.

   1. OUT is created first (O_EXCL | O_NOFOLLOW), so that a path that
      cannot be written, or a file that is there already, is an error
      before anything runs.
   2. The command runs with the libfastcopy this tool is linked with in
      LD_PRELOAD and profile=DIR/p added to FASTCOPY, DIR being a fresh
      directory beside OUT: every process it starts (children made by fork,
      programs they execute) writes DIR/p.PID when it exits (src/calls/profile.c).
      The tool ignores SIGINT and SIGQUIT meanwhile, as time(1) does, so
      that interrupting the command still leaves a recording.
   3. The files are added up into OUT (common/workload.c), and DIR is
      removed.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/message.h"
#include "common/xalloc.h"
#include "fastcopy.h"
#include "profile/profile.h"
#include "common/workload.h"

/* The library's limits on the profile path and on FASTCOPY
   (src/load/settings.h).  */
#define PROFILE_PATH_MAX 992
#define ENV_MAX 1024

/* The libfastcopy this program runs with: the one to preload.  */
static const char *
library_path (void)
{
  Dl_info info;
  if (dladdr ((void *) fastcopy_version, &info) == 0 || info.dli_fname == NULL)
    return NULL;
  return info.dli_fname;
}

static void
run (char *const *argv, const char *prefix, const char *library)
{
  const char *old = getenv ("FASTCOPY");
  char *fastcopy = old && *old ? xasprintf ("%s,profile=%s", old, prefix)
			       : xasprintf ("profile=%s", prefix);
  const char *preload = getenv ("LD_PRELOAD");
  char *ld_preload = preload && *preload
		     ? xasprintf ("%s %s", library, preload)
		     : xasprintf ("%s", library);
  if (strlen (fastcopy) > ENV_MAX)
    {
      error_msg ("FASTCOPY would be longer than %d bytes with the profile "
		 "setting", ENV_MAX);
      _exit (127);
    }
  setenv ("FASTCOPY", fastcopy, 1);
  setenv ("LD_PRELOAD", ld_preload, 1);
  execvp (argv[0], argv);
  int e = errno;
  error_msg ("cannot run %s: %s", shown_name (argv[0]), strerror (e));
  /* The shell's statuses: not found, found but cannot be executed.  */
  _exit (e == ENOENT ? 127 : 126);
}

/* "p.PID": a file a process wrote at exit (not a snapshot, p.PID.N).  */
static int
exit_file (const struct dirent *e)
{
  const char *s = e->d_name;
  if (strncmp (s, "p.", 2) != 0 || s[2] == 0)
    return 0;
  for (s += 2; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

/* The files in DIR summed into W; their number, or -1 after an error
   message.  Removes DIR and everything in it.  */
static int
collect (const char *dir, struct fcw_workload *w, char *pids, size_t size)
{
  struct dirent **list;
  int n = scandir (dir, &list, exit_file, alphasort), used = 0, bad = 0;
  size_t len = 0;
  pids[0] = 0;
  for (int i = 0; i < n; i++)
    {
      char *path = xasprintf ("%s/%s", dir, list[i]->d_name);
      struct fcw_workload one;
      char err[PATH_MAX + 256];
      if (!bad && fcw_load (&one, path, err, sizeof err) != 0)
	{
	  error_msg ("%s", err);
	  bad = 1;
	}
      else if (!bad)
	{
	  if (used++ == 0)
	    *w = one;
	  else
	    {
	      if (fcw_merge (w, &one) != 0)
		bad = 1;
	      fcw_free (&one);
	    }
	  if (len < size)
	    len += (size_t) snprintf (pids + len, size - len, "%s%s",
				      len ? " " : "", list[i]->d_name + 2);
	}
      free (path);
      free (list[i]);
    }
  if (n >= 0)
    free (list);
  /* Snapshots too, if a process got the signal.  */
  DIR *d = opendir (dir);
  struct dirent *e;
  while (d != NULL && (e = readdir (d)) != NULL)
    if (strcmp (e->d_name, ".") != 0 && strcmp (e->d_name, "..") != 0)
      unlinkat (dirfd (d), e->d_name, 0);
  if (d != NULL)
    closedir (d);
  rmdir (dir);
  return bad ? -1 : used;
}

static void
summary (const struct fcw_workload *w, int processes, const char *out)
{
  const struct fcw_family *c = &w->family[FASTCOPY_FAMILY_COPY];
  const struct fcw_family *z = &w->family[FASTCOPY_FAMILY_CLEAR];
  fprintf (stderr, "%s: %d process%s recorded: %.0f copies (mean %.0f "
	   "bytes), %.0f clears (mean %.0f bytes); wrote %s\n", tool_name,
	   processes, processes == 1 ? "" : "es", c->calls,
	   c->calls > 0 ? c->bytes / c->calls : 0, z->calls,
	   z->calls > 0 ? z->bytes / z->calls : 0, out);
}

/* Why no process of COMMAND, which ended with wait STATUS, wrote a
   recording, and what to do.  A process writes one when it exits; one
   that leaves through _exit, as dash does at the end of 'sh -c', writes
   none, however it went.  */
static void
no_recording (const char *command, int status)
{
  if (WIFSIGNALED (status))
    error_msg ("no process of %s wrote a recording: it was killed by "
	       "signal %d (%s), and a process writes its recording when it "
	       "exits", command, WTERMSIG (status),
	       strsignal (WTERMSIG (status)));
  else
    error_msg ("%s exited with status %d, and no process of it wrote a "
	       "recording: a process writes one when it calls exit or returns "
	       "from main, not when it leaves through _exit (as dash's "
	       "'sh -c' does) or is setuid or statically linked; record the "
	       "program itself, or run it from a shell that exits (bash -c)",
	       command, WEXITSTATUS (status));
}

int
record (const char *out, char *const *argv)
{
  const char *library = library_path ();
  if (library == NULL)
    {
      error_msg ("cannot tell which libfastcopy this program runs with");
      return 1;
    }
  int fd = open (out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		 0644);
  if (fd < 0)
    {
      struct stat st;
      if (errno == EEXIST && lstat (out, &st) == 0 && S_ISDIR (st.st_mode))
	error_msg ("%s: is a directory; -o names the file to write", out);
      else
	error_msg ("%s: %s", shown_name (out), errno == EEXIST
		   ? "exists (a recording never replaces a file; remove it "
		     "or choose another with -o)" : strerror (errno));
      return 1;
    }
  char *copy = xasprintf ("%s", out);
  char resolved[PATH_MAX];
  char *dir = NULL;
  if (realpath (dirname (copy), resolved) != NULL)
    dir = xasprintf ("%s/.fastcopy-profile.XXXXXX", resolved);
  free (copy);
  if (dir == NULL || mkdtemp (dir) == NULL)
    {
      error_msg ("cannot make a directory beside %s: %s", out,
		 strerror (errno));
      unlink (out);
      return 1;
    }
  char *prefix = xasprintf ("%s/p", dir);
  if (strlen (prefix) > PROFILE_PATH_MAX)
    {
      error_msg ("%s: the path is too long for the profile setting", out);
      rmdir (dir);
      unlink (out);
      return 1;
    }

  pid_t pid = fork ();
  if (pid == 0)
    run (argv, prefix, library);
  int status = 0;
  if (pid > 0)
    {
      signal (SIGINT, SIG_IGN);
      signal (SIGQUIT, SIG_IGN);
      while (waitpid (pid, &status, 0) < 0 && errno == EINTR)
	;
    }
  else
    error_msg ("fork: %s", strerror (errno));
  int code = pid < 0 ? 1 : WIFEXITED (status) ? WEXITSTATUS (status)
	     : 128 + WTERMSIG (status);

  struct fcw_workload w;
  char pids[256];
  int n = collect (dir, &w, pids, sizeof pids);
  if (n <= 0)
    {
      if (n == 0 && pid > 0 && code != 127 && code != 126)
	no_recording (argv[0], status);
      close (fd);
      unlink (out);
      return code ? code : 1;
    }
  /* The command, on one line of at most 200 bytes.  */
  char command[201];
  size_t len = 0;
  for (int i = 0; argv[i] != NULL; i++)
    {
      if (i > 0 && len < sizeof command - 1)
	command[len++] = ' ';
      for (const char *a = argv[i]; *a && len < sizeof command - 1; a++)
	command[len++] = (unsigned char) *a < 0x20 ? '?' : *a;
    }
  command[len] = 0;
  /* The class and the implementations of this machine, which the
     command's processes share with this one.  */
  fcw_machine_class_here (&w.machine_class);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    snprintf (w.family[f].impl, sizeof w.family[f].impl, "%s",
	      fastcopy_selected (f == FASTCOPY_FAMILY_COPY ? "memcpy"
						      : "memset")->impl->name);
  char *comment = xasprintf ("# recorded by fastcopy-profile from %d "
			     "process%s: %s\n# command: %s\n", n,
			     n == 1 ? "" : "es", pids, command);
  FILE *f = fdopen (fd, "w");
  if (f == NULL || fcw_write (f, &w, comment) != 0 || fclose (f) != 0)
    {
      error_msg ("%s: %s", out, strerror (errno));
      return 1;
    }
  summary (&w, n, out);
  fcw_free (&w);
  free (comment);
  return code;
}
