/* SPDX-License-Identifier: MIT */
/* Area: profile
   Purpose: a known pattern of copies and clears, whose recording
   profile.exp checks count by count (its comments list the calls).
   Usage: calls MODE [ARG...]; prints "pid N" first.
     pattern          only the pattern
     thread           the pattern, and 1000 copies of 7 bytes in a thread
     fork             the pattern; then a child (printing "child N") makes
                      11 copies of 9 bytes and exits, and is waited for
     signal           100 copies of 100 bytes, SIGUSR2, the rest
     occupy LINK TO   first makes LINK.PID a symbolic link to TO
   The calls go to whatever defines memcpy first: libfastcopy when it is
   preloaded.  Sizes come from volatile variables so that the compiler
   cannot turn a call into inline code.  */

#define _GNU_SOURCE 1
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

void *__memcpy_chk (void *, const void *, size_t, size_t);
void __explicit_bzero_chk (void *, size_t, size_t);

static char *a, *b;		/* page-aligned, separate mappings */
static volatile size_t n0 = 0, n7 = 7, n8 = 8, n9 = 9, n16 = 16, n17 = 17,
  n33 = 33, n100 = 100, n300 = 300, n1000 = 1000, n4096 = 4096,
  n600000 = 600000;

static void *
map (size_t n)
{
  void *p = mmap (NULL, n, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    {
      perror ("mmap");
      exit (1);
    }
  return p;
}

static void
first_copies (void)
{
  for (int i = 0; i < 100; i++)
    memcpy (b + 3, a + 5, n100);
}

static void
the_rest (void)
{
  for (int i = 0; i < 7; i++)
    memmove (a, a + 8, n1000);		/* overlapping, forward */
  for (int i = 0; i < 5; i++)
    memmove (a + 4, a, n300);		/* overlapping, backward */
  for (int i = 0; i < 2; i++)
    mempcpy (b, a, n600000);
  __memcpy_chk (b + 64, a + 64, n16, 4096);
  memcpy (b, a, n0);
  for (int i = 0; i < 3; i++)
    memset (b + 64, 0, n17);
  for (int i = 0; i < 4; i++)
    bzero (b, n4096);
  for (int i = 0; i < 6; i++)
    explicit_bzero (b + 1, n33);
  __explicit_bzero_chk (b + 2, n8, 100);
  memset (b, 0x5a, n0);
}

static void *
thread_copies (void *arg)
{
  (void) arg;
  for (int i = 0; i < 1000; i++)
    memcpy (b + 128, a + 192, n7);
  return NULL;
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "pattern";
  a = map (1 << 20);
  b = map (1 << 20);
  printf ("pid %d\n", (int) getpid ());
  fflush (stdout);
  if (strcmp (mode, "occupy") == 0 && argc == 4)
    {
      char link[4096];
      snprintf (link, sizeof link, "%s.%d", argv[2], (int) getpid ());
      if (symlink (argv[3], link) != 0)
	{
	  perror (link);
	  return 1;
	}
    }
  first_copies ();
  if (strcmp (mode, "signal") == 0)
    raise (SIGUSR2);
  the_rest ();
  if (strcmp (mode, "thread") == 0)
    {
      pthread_t t;
      if (pthread_create (&t, NULL, thread_copies, NULL) != 0
	  || pthread_join (t, NULL) != 0)
	return 1;
    }
  if (strcmp (mode, "fork") == 0)
    {
      pid_t pid = fork ();
      if (pid == 0)
	{
	  printf ("child %d\n", (int) getpid ());
	  for (int i = 0; i < 11; i++)
	    memcpy (b + 9, a, n9);
	  exit (0);
	}
      int status;
      if (pid < 0 || waitpid (pid, &status, 0) != pid || status != 0)
	return 1;
    }
  return 0;
}
