/* SPDX-License-Identifier: MIT */
/* Area: chk
   Purpose: when the length exceeds the destination size, each fortified
   form (__memcpy_chk, __memmove_chk, __mempcpy_chk, __memset_chk,
   __explicit_bzero_chk) behaves like glibc's: the process dies of SIGABRT
   after printing "buffer overflow detected" on stderr, and not one byte
   of the destination was written.  Each case runs in a forked child whose
   stderr is a pipe and whose destination is shared memory the parent
   inspects afterwards.  */

#include "fctest.h"
#include <sys/resource.h>
#include <sys/wait.h>

typedef void *(*copy_chk_fn) (void *, const void *, size_t, size_t);
typedef void *(*set_chk_fn) (void *, int, size_t, size_t);
typedef void (*bzero_chk_fn) (void *, size_t, size_t);

#define AREA (1u << 20)
#define FILL 0xc3

static unsigned char *dst, *src;

static void
call (const char *name, void *fn, size_t n, size_t destlen)
{
  if (strcmp (name, "__memcpy_chk") == 0 || strcmp (name, "__memmove_chk") == 0
      || strcmp (name, "__mempcpy_chk") == 0)
    ((copy_chk_fn) fn) (dst, src, n, destlen);
  else if (strcmp (name, "__memset_chk") == 0)
    ((set_chk_fn) fn) (dst, 0x5a, n, destlen);
  else
    ((bzero_chk_fn) fn) (dst, n, destlen);
}

static void
overflow_case (const char *name, void *fn, size_t n, size_t destlen)
{
  int fds[2];
  char err[4096];
  size_t got = 0;
  int status;

  fct_begin ("%s n=%zu destlen=%zu: SIGABRT, \"buffer overflow detected\", "
	     "nothing written", name, n, destlen);
  for (size_t i = 0; i < AREA; i++)
    dst[i] = FILL;
  fflush (stdout);
  if (pipe (fds) != 0)
    {
      fct_fail ("pipe failed");
      fct_end ();
      return;
    }
  pid_t pid = fork ();
  if (pid == 0)
    {
      struct rlimit no_core = { 0, 0 };
      setrlimit (RLIMIT_CORE, &no_core);
      /* glibc may write fatal messages to /dev/tty instead.  */
      setenv ("LIBC_FATAL_STDERR_", "1", 1);
      close (fds[0]);
      dup2 (fds[1], STDERR_FILENO);
      call (name, fn, n, destlen);
      _exit (0);
    }
  close (fds[1]);
  for (;;)
    {
      ssize_t r = read (fds[0], err + got, sizeof err - 1 - got);
      if (r <= 0)
	break;
      got += (size_t) r;
    }
  err[got] = 0;
  close (fds[0]);
  waitpid (pid, &status, 0);

  if (!WIFSIGNALED (status))
    fct_fail ("child exited with status %d instead of being killed",
	      WIFEXITED (status) ? WEXITSTATUS (status) : -1);
  else if (WTERMSIG (status) != SIGABRT)
    fct_fail ("child killed by signal %d, not SIGABRT", WTERMSIG (status));
  if (strstr (err, "buffer overflow detected") == NULL)
    fct_fail ("stderr lacks \"buffer overflow detected\": \"%s\"", err);
  for (size_t i = 0; i < AREA; i++)
    if (dst[i] != FILL)
      {
	fct_fail ("destination byte %zu was written before the abort", i);
	break;
      }
  fct_end ();
}

int
main (void)
{
  static const char *const names[] = {
    "__memcpy_chk", "__memmove_chk", "__mempcpy_chk", "__memset_chk",
    "__explicit_bzero_chk",
  };
  /* (n, destlen) with n > destlen; with a missing check each would copy
     within the buffers and exit normally, except the last, which would
     fault.  */
  static const size_t cases[][2] = {
    { 1, 0 }, { 2, 1 }, { 65, 64 }, { 4097, 4096 }, { AREA, AREA - 1 },
    { 100, 16 }, { (size_t) -1, 4096 },
  };

  fct_init ();
  dst = mmap (NULL, AREA, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
	      -1, 0);
  src = malloc (AREA);
  if (dst == MAP_FAILED || src == NULL)
    return 1;
  fct_fill_random (src, AREA, 5);

  for (size_t i = 0; i < FCT_ARRAY_SIZE (names); i++)
    {
      void *fn = fct_symbol (names[i], NULL);
      for (size_t k = 0; k < FCT_ARRAY_SIZE (cases); k++)
	overflow_case (names[i], fn, cases[k][0], cases[k][1]);
    }
  return fct_finish ();
}
