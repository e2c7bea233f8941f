/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: the test that runs new processes with the library
   preloaded.  The test is packaging/preload-test.sh, built into the
   program, so that the package scripts, which run the same file after an
   upgrade, and this program decide alike.  */

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "preload.h"
/* Generated from packaging/preload-test.sh: preload_test_script.  */
#include "tools/preload/preload-test.h"

/* Run the test (packaging/preload-test.sh) on LIB, a host path; with ENTRY
   (root is /), also check that ld.so resolves ENTRY, as written, to LIB.
   The test's messages go to standard error.  Returns 0 when all is well,
   -1 after printing why not, 1 when only the ENTRY check failed.  */
int
test_library (const char *lib, const char *entry)
{
  msg ("testing %s in new processes...\n", lib);
  fflush (stdout);
  char *script = xasprintf ("%s\nfastcopy_preload_test \"$@\"\n",
			    preload_test_script);
  char *argv[] = { "/bin/sh", "-c", script, "fastcopy-preload-test",
		   (char *) lib, (char *) entry, NULL };
  char *envp[] = {
    "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "LC_ALL=C", NULL
  };
  pid_t pid = fork ();
  if (pid == 0)
    {
      int devnull = open ("/dev/null", O_RDONLY);
      if (devnull >= 0)
	dup2 (devnull, 0);
      sigset_t none;
      sigemptyset (&none);
      sigprocmask (SIG_SETMASK, &none, NULL);
      execve (argv[0], argv, envp);
      _exit (127);
    }
  free (script);
  int st;
  if (pid < 0)
    {
      error_msg ("cannot start the test: %s", strerror (errno));
      return -1;
    }
  while (waitpid (pid, &st, 0) < 0)
    if (errno != EINTR)
      {
	error_msg ("cannot wait for the test: %s", strerror (errno));
	return -1;
      }
  if (WIFEXITED (st) && WEXITSTATUS (st) == 0)
    return 0;
  if (WIFEXITED (st) && WEXITSTATUS (st) == 2)
    return 1;
  /* The shell that runs the test is itself a dynamically linked program:
     a broken /etc/ld.so.preload can kill it before the test starts.  */
  if (WIFSIGNALED (st))
    error_msg ("the test's shell, /bin/sh, was killed by signal %d (%s)",
	       WTERMSIG (st), strsignal (WTERMSIG (st)));
  else if (WEXITSTATUS (st) == 127)
    error_msg ("cannot run /bin/sh for the test");
  else if (WEXITSTATUS (st) != 1)
    error_msg ("the test's shell failed (exit status %d)", WEXITSTATUS (st));
  return -1;
}
