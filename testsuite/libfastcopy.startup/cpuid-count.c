/* SPDX-License-Identifier: MIT */
/* Area: startup
   Purpose: which code of a process start executes CPUID.  Runs PROGRAM
   (the arguments; its environment, LD_PRELOAD included, is this one's)
   under ptrace, one instruction at a time, and at every CPUID
   instruction (0F A2) finds the mapping it sits in.  Prints one line
   "cpuid COUNT OBJECT" per object that executed any (the object's path
   as /proc/PID/maps names it), then "steps N" and "exit STATUS".
   Not a harness of fctest.h: startup.exp judges the counts.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_OBJECTS 32

static struct
{
  char path[256];
  unsigned long count;
} objects[MAX_OBJECTS];
static int nobjects;

/* The path of the mapping of process PID that holds ADDR.  */
static void
object_of (pid_t pid, unsigned long addr, char *path, size_t size)
{
  char name[64], line[512];
  snprintf (name, sizeof name, "/proc/%d/maps", (int) pid);
  snprintf (path, size, "(unknown)");
  FILE *f = fopen (name, "r");
  if (f == NULL)
    return;
  while (fgets (line, sizeof line, f) != NULL)
    {
      unsigned long lo, hi;
      int end = 0;
      if (sscanf (line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi, &end) < 2)
	continue;
      if (addr >= lo && addr < hi)
	{
	  line[strcspn (line, "\n")] = 0;
	  snprintf (path, size, "%s", end > 0 && line[end] ? line + end
					 : "(anonymous)");
	  break;
	}
    }
  fclose (f);
}

static void
count (const char *path)
{
  for (int i = 0; i < nobjects; i++)
    if (strcmp (objects[i].path, path) == 0)
      {
	objects[i].count++;
	return;
      }
  if (nobjects < MAX_OBJECTS)
    {
      snprintf (objects[nobjects].path, sizeof objects[0].path, "%s", path);
      objects[nobjects++].count = 1;
    }
}

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fprintf (stderr, "usage: cpuid-count PROGRAM [ARG...]\n");
      return 2;
    }
  pid_t pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      return 2;
    }
  if (pid == 0)
    {
      ptrace (PTRACE_TRACEME, 0, NULL, NULL);
      execv (argv[1], argv + 1);
      _exit (127);
    }
  int status;
  if (waitpid (pid, &status, 0) != pid || !WIFSTOPPED (status))
    {
      fprintf (stderr, "cpuid-count: %s did not stop at its exec\n", argv[1]);
      return 2;
    }
  /* At each stop the child is about to execute the instruction at its
     program counter: look at it, then let it run that one.  */
  unsigned long steps = 0;
  int sig = 0;
  for (;;)
    {
      if (sig == 0)
	{
	  struct user_regs_struct regs;
	  if (ptrace (PTRACE_GETREGS, pid, NULL, &regs) != 0)
	    return 2;
#ifdef __x86_64__
	  unsigned long pc = regs.rip;
#else
	  unsigned long pc = regs.eip;
#endif
	  errno = 0;
	  long word = ptrace (PTRACE_PEEKTEXT, pid, (void *) pc, NULL);
	  if (errno == 0 && (word & 0xffff) == 0xa20f)
	    {
	      char path[256];
	      object_of (pid, pc, path, sizeof path);
	      count (path);
	    }
	  steps++;
	}
      if (ptrace (PTRACE_SINGLESTEP, pid, NULL, (void *) (long) sig) != 0)
	{
	  fprintf (stderr, "cpuid-count: PTRACE_SINGLESTEP: %s\n",
		   strerror (errno));
	  return 2;
	}
      if (waitpid (pid, &status, 0) != pid)
	return 2;
      if (WIFEXITED (status) || WIFSIGNALED (status))
	break;
      sig = WSTOPSIG (status) == SIGTRAP ? 0 : WSTOPSIG (status);
    }
  for (int i = 0; i < nobjects; i++)
    printf ("cpuid %lu %s\n", objects[i].count, objects[i].path);
  printf ("steps %lu\n", steps);
  printf ("exit %d\n", WIFEXITED (status) ? WEXITSTATUS (status) : -1);
  return 0;
}
