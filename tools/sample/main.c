/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: sample what a machine, a process or a command copies
   and clears, from the kernel's samples (fastcopy-sample(1)).

   1. OUT is checked first, so that an unusable path is an error before
      anything is sampled.
   2. The perf events are opened (perf.c); a command is started first,
      held until its events are open, and sampled from its exec on.
   3. Records are read every 100 ms into the process table (procs.c)
      until the time is up or the command or process has exited.
   4. Then, with the events closed, the cost of a call of each sampled
      implementation and size is measured (cost.c) and corrected by a
      replay (context.c), each bounded in time, and the recording
      written and the report printed (output.c).
   SIGINT or SIGTERM ends the run in any of them within a second, with
   nothing written and no replay left running (sample_stop).  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/message.h"
#include "fastcopy.h"
#include "common/measure.h"
#include "sample/sample.h"

const char tool_name[] = "fastcopy-sample";

#define DEFAULT_SECONDS 10
/* 99 Hz: off the round rates of periodic work (100 Hz ticks), and low
   enough that a production machine does not notice: a sample costs the
   sampled CPU about 25 us in a KVM guest (the cpu-clock timer's
   interrupt; perf record pays the same), 0.25% of its time at 99 Hz
   (doc/bench/amd-26-2-sampler-overhead-*.txt).  */
#define DEFAULT_HZ 99
#define MAX_HZ 10000

static void
usage (FILE *f)
{
  fprintf (f,
	   "usage: fastcopy-sample [OPTION]... -o OUT (-a | -p PID | [--] "
	   "COMMAND [ARG]...)\n"
	   "Sample the copies and clears of every process (-a, all CPUs), "
	   "of process PID\nand its threads, or of COMMAND and the "
	   "processes it starts, and write the\nsizes, alignments, "
	   "implementations and paths of the calls in libfastcopy that\n"
	   "the samples tell to OUT, a recording that fastcopy-profile "
	   "--report and\nfastcopy-tune --workload read; print the share "
	   "of all samples that copy and\nclear code takes, libfastcopy's "
	   "and glibc's.\n"
	   "  -o, --output=OUT       the recording (replaced atomically)\n"
	   "  -a, --all-cpus         every process on every CPU\n"
	   "  -p, --pid=PID          process PID and its threads\n"
	   "  -d, --duration=SECONDS sample for SECONDS (default %d; a "
	   "command: until it\n"
	   "                         exits)\n"
	   "  -F, --frequency=HZ     samples per second and CPU (default %d)\n"
	   "      --comm             keep process names in the report\n"
	   "      --no-census        count no call: estimate every call "
	   "from the samples\n"
	   "      --cache-dir=DIR    keep the cost table in DIR\n"
	   "  -h, --help             this text\n"
	   "  -V, --version          the version\n"
	   "See fastcopy-sample(1).\n", DEFAULT_SECONDS, DEFAULT_HZ);
}

volatile sig_atomic_t sample_stop;

static void
on_signal (int sig)
{
  sample_stop = sig;
}

static double
now (void)
{
  return (double) fcm_now_ns () / 1e9;
}

/* Nonzero while process PID runs: it exists and is not a zombie (which
   its parent has not waited for yet, and which runs nothing).  */
static int
running (pid_t pid)
{
  char path[64], stat[512];
  snprintf (path, sizeof path, "/proc/%d/stat", (int) pid);
  FILE *f = fopen (path, "re");
  if (f == NULL)
    return kill (pid, 0) == 0 || errno != ESRCH;
  size_t n = fread (stat, 1, sizeof stat - 1, f);
  fclose (f);
  stat[n] = 0;
  const char *end = strrchr (stat, ')');
  return end == NULL || end[1] != ' ' || end[2] != 'Z';
}

/* Start COMMAND held on a pipe: it executes when *RELEASE is closed.  */
static pid_t
start_command (char *const *command, int *release)
{
  int p[2];
  if (pipe2 (p, O_CLOEXEC) != 0)
    {
      error_msg ("pipe: %s", strerror (errno));
      return -1;
    }
  pid_t pid = fork ();
  if (pid < 0)
    error_msg ("fork: %s", strerror (errno));
  if (pid == 0)
    {
      char c;
      close (p[1]);
      if (read (p[0], &c, 1) != 0)
	_exit (127);		/* the sampler gave up */
      execvp (command[0], command);
      error_msg ("cannot run %s: %s", shown_name (command[0]),
		 strerror (errno));
      _exit (127);
    }
  close (p[0]);
  *release = p[1];
  return pid;
}

/* Sample as O says.  Returns the exit status.  */
static int
sample (const struct sample_options *o)
{
  pid_t child = 0, target = o->pid;
  int release = -1, status = 0;
  if (o->command != NULL)
    {
      target = child = start_command (o->command, &release);
      if (child < 0)
	return 1;
    }
  else if (o->pid > 0 && kill (o->pid, 0) != 0 && errno == ESRCH)
    {
      error_msg ("process %d: no such process", (int) o->pid);
      return 1;
    }
  struct perf_session *s = perf_open (o, target, child > 0);
  if (s == NULL)
    {
      if (child > 0)
	{
	  write (release, "x", 1);
	  close (release);
	  waitpid (child, NULL, 0);
	}
      return 1;
    }
  struct sigaction sa = { .sa_handler = on_signal };
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
  procs_init (o->comm);
  double start = now (), end = start + o->seconds;
  if (child > 0)
    close (release);		/* the command runs, its events enabled at
				   its exec */
  else
    perf_enable (s);
  int more = 1, wait_ms = 100;
  if (!o->no_census)
    census_init (o->hz);
  while (!sample_stop && more && (o->seconds == 0 || now () < end))
    {
      perf_read (s, wait_ms, &procs_sink);
      if (!o->no_census)
	{
	  double next = census_step (now ());
	  wait_ms = next < 0.1 ? (int) (next * 1000) : 100;
	}
      if (child > 0)
	more = waitpid (child, &status, WNOHANG) == 0;
      else if (o->pid > 0)
	more = running (o->pid);
    }
  double seconds = now () - start;
  perf_disable (s);
  perf_read (s, 0, &procs_sink);
  uint64_t lost = perf_lost (s);
  perf_close (s);
  if (child > 0 && more)
    /* The time is up; the command runs on, unsampled.  */
    while (!sample_stop && waitpid (child, &status, WNOHANG) == 0)
      usleep (100 * 1000);
  if (sample_stop)
    return 128 + sample_stop;
  int code = child == 0 ? 0 : WIFEXITED (status) ? WEXITSTATUS (status)
	     : 128 + WTERMSIG (status);
  if (child > 0 && code == 127)
    return code;		/* it could not run; said so */

  struct tallies t;
  procs_tallies (&t);
  /* Costs are measured for the samples the census did not count only.  */
  struct tallies estimated = t;
  estimated.calls = xrealloc (NULL, (t.ncalls + 1) * sizeof *t.calls);
  estimated.ncalls = 0;
  for (size_t i = 0; i < t.ncalls; i++)
    if (!census_counted (t.calls[i].pid))
      {
	estimated.calls[estimated.ncalls++] = t.calls[i];
	cost_want (t.calls[i].family, t.calls[i].impl, t.calls[i].size);
      }
  cost_measure ();
  cost_context (&estimated);
  free (estimated.calls);
  int ret = sample_stop ? 128 + sample_stop
	    : output (o, &t, seconds, lost) ? 1 : code;
  free (t.calls);
  free (t.procs);
  return ret;
}

/* A number in [MIN, MAX] from S; 0 if it is none.  */
static int
number (const char *s, double min, double max, double *v)
{
  char *end;
  errno = 0;
  *v = strtod (s, &end);
  return end != s && *end == 0 && errno == 0 && *v >= min && *v <= max;
}

int
main (int argc, char **argv)
{
  enum { O_COMM = 256, O_CACHE_DIR, O_NO_CENSUS };
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "all-cpus", no_argument, NULL, 'a' },
    { "pid", required_argument, NULL, 'p' },
    { "duration", required_argument, NULL, 'd' },
    { "frequency", required_argument, NULL, 'F' },
    { "comm", no_argument, NULL, O_COMM },
    { "no-census", no_argument, NULL, O_NO_CENSUS },
    { "cache-dir", required_argument, NULL, O_CACHE_DIR },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  struct sample_options o = { .hz = DEFAULT_HZ };
  int c, duration_given = 0;
  double v;
  /* '+': the command's own options are not ours; ':' and opterr 0: the
     messages are ours, under the tool's name.  */
  opterr = 0;
  while ((c = getopt_long (argc, argv, "+:o:ap:d:F:hV", longopts, NULL))
	 != -1)
    switch (c)
      {
      case 'o': o.out = optarg; break;
      case 'a': o.all = 1; break;
      case 'p':
	if (!number (optarg, 1, 4194304, &v) || v != (double) (pid_t) v)
	  usage_exit (2, "'%s' is not a process ID", optarg);
	o.pid = (pid_t) v;
	break;
      case 'd':
	if (!number (optarg, 0.01, 86400, &v))
	  usage_exit (2, "'%s' is not a duration in seconds (0.01 to "
		      "86400)", optarg);
	o.seconds = v;
	duration_given = 1;
	break;
      case 'F':
	if (!number (optarg, 1, MAX_HZ, &v) || v != (double) (unsigned) v)
	  usage_exit (2, "'%s' is not a rate in Hz (1 to 10000)", optarg);
	o.hz = (unsigned int) v;
	break;
      case O_COMM: o.comm = 1; break;
      case O_NO_CENSUS: o.no_census = 1; break;
      case O_CACHE_DIR: cost_cache_dir = optarg; break;
      case 'h': usage (stdout); return 0;
      case 'V':
	printf ("fastcopy-sample (libfastcopy) %s\n", fastcopy_version ());
	return 0;
      default:
	getopt_usage_msg (c, argv);
	return 2;
      }
  if (optind < argc)
    o.command = argv + optind;
  if (o.all + (o.pid > 0) + (o.command != NULL) != 1)
    usage_exit (2, "%s", o.all + (o.pid > 0) + (o.command != NULL)
		    ? "give one of -a, -p PID and a command"
		    : "nothing to sample: give -a, -p PID or a command");
  if (o.out == NULL)
    usage_exit (2, "no output file: give -o OUT");
  if (empty_name_msg ("--output", o.out)
      || (cost_cache_dir != NULL && empty_name_msg ("--cache-dir",
						    cost_cache_dir)))
    return 2;
  if (!duration_given && o.command == NULL)
    o.seconds = DEFAULT_SECONDS;
  if (output_check (o.out) != 0)
    return 1;
  fflush (stdout);
  return sample (&o);
}
