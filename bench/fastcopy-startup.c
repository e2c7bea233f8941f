/* SPDX-License-Identifier: MIT */
/* fastcopy-startup: what preloading a library adds to the start of a
   process (fastcopy-startup(1)).

   A run is one posix_spawn of the program (default /bin/true) and the
   wait4 that reaps it, timed with CLOCK_MONOTONIC; wait4's rusage gives
   the child's minor page faults.  A configuration is what LD_PRELOAD holds
   in the child.  Every round runs each configuration once, starting with
   a different one from round to round, so that drift hits all of them
   alike; the process is pinned to one CPU and its children inherit that.
   Per configuration the tool prints the 10th percentile, the median and
   the 90th percentile of the times, the minor faults per spawn, and the
   difference of the 10th percentile to a baseline configuration: noise
   only ever adds time, so the low percentile is the one to compare.  */

#define _GNU_SOURCE 1
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/measure.h"
#include "common/message.h"

#define MAX_CONFIGS 16
#define MAX_RUNS 1000000
/* Rounds run before the measured ones and not counted: they bring the
   program and the libraries into the page cache and the CPU's caches.  */
#define WARMUP_ROUNDS 10

/* The system-wide preload list, which applies to every configuration.  */
#define SYSTEM_PRELOAD "/etc/ld.so.preload"

extern char **environ;

struct config
{
  const char *name;
  const char *preload;		/* LD_PRELOAD's value; NULL: unset */
  char **envp;			/* the child's environment */
  double *us;			/* microseconds, one per run */
  long *minflt;			/* minor faults, one per run */
};

static struct config configs[MAX_CONFIGS];
static int nconfigs;

/* The name that messages start with (common/message.h).  */
const char tool_name[] = "fastcopy-startup";

/* CPU, which --cpu names, if this process may run on it.  */
static int
usable_cpu (int cpu)
{
  if (!fcm_cpu_allowed (cpu))
    usage_exit (2, "--cpu: CPU %d is not online, or not one this process may "
		"run on", cpu);
  return cpu;
}

static void *
xcalloc (size_t n, size_t size)
{
  void *p = calloc (n, size);
  if (p == NULL)
    error_exit (1, "out of memory");
  return p;
}

static void
help (void)
{
  printf ("usage: fastcopy-startup [OPTION]... [CONFIGURATION]...\n"
	  "Time posix_spawn of a program under several LD_PRELOAD configurations,\n"
	  "interleaved run by run, and compare their 10th percentiles.\n\n"
	  "A CONFIGURATION is 'none' (LD_PRELOAD unset) or NAME=LIBRARY[:LIBRARY]...\n"
	  "(LD_PRELOAD=LIBRARY...).  Default: none libfastcopy=%s\n\n"
	  "  -n, --runs N         measured runs per configuration (default 5000)\n"
	  "  -b, --baseline NAME  the configuration the others are compared with\n"
	  "                       (default: the first)\n"
	  "  -p, --program PATH   the program to spawn, without arguments\n"
	  "                       (default /bin/true; PATH is not searched)\n"
	  "      --csv FILE       write every run as CSV\n"
	  "      --cpu N          pin to CPU N (default: the most idle CPU)\n"
	  "      --no-pin         do not pin to a CPU\n"
	  "  -h, --help           this help\n"
	  "  -V, --version        version\n\n"
	  "Times are microseconds from posix_spawn to the child reaped by wait4.\n"
	  "See fastcopy-startup(1).\n", FCS_DEFAULT_LIBRARY);
}

/* Names go into the table and the CSV file unquoted.  */
static int
valid_name (const char *name)
{
  if (*name == 0)
    return 0;
  for (const char *p = name; *p; p++)
    if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z')
	&& !(*p >= '0' && *p <= '9') && *p != '.' && *p != '_' && *p != '-')
      return 0;
  return 1;
}

static void
add_config (const char *arg)
{
  if (nconfigs == MAX_CONFIGS)
    usage_exit (2, "more than %d configurations", MAX_CONFIGS);
  struct config *c = &configs[nconfigs];
  const char *eq = strchr (arg, '=');
  if (eq == NULL)
    {
      if (strcmp (arg, "none") != 0)
	usage_exit (2, "'%s': a configuration is 'none' or NAME=LIBRARY[:LIBRARY]...",
		    arg);
      c->name = "none";
      c->preload = NULL;
    }
  else
    {
      c->name = strndup (arg, (size_t) (eq - arg));
      c->preload = eq + 1;
      if (c->name == NULL)
	error_exit (1, "out of memory");
      if (!valid_name (c->name))
	usage_exit (2, "'%s': a configuration's name is letters, digits, '.', "
		    "'_' and '-'", arg);
      if (*c->preload == 0)
	usage_exit (2, "'%s': nothing to preload (the configuration 'none' "
		    "preloads nothing)", arg);
    }
  for (int k = 0; k < nconfigs; k++)
    if (strcmp (configs[k].name, c->name) == 0)
      usage_exit (2, "two configurations are named '%s'", c->name);
  nconfigs++;
}

/* This process's environment without LD_PRELOAD, and with
   LD_PRELOAD=PRELOAD unless PRELOAD is NULL.  */
static char **
environment (const char *preload)
{
  size_t n = 0;
  while (environ[n] != NULL)
    n++;
  char **env = xcalloc (n + 2, sizeof *env);
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp (environ[i], "LD_PRELOAD=", 11) != 0)
      env[k++] = environ[i];
  if (preload != NULL && asprintf (&env[k++], "LD_PRELOAD=%s", preload) < 0)
    error_exit (1, "out of memory");
  return env;
}

/* File actions that point the child's standard input and output at
   /dev/null and its standard error at ERR_FD.  */
static void
streams (posix_spawn_file_actions_t *fa, int null_fd, int err_fd)
{
  if (posix_spawn_file_actions_init (fa) != 0
      || posix_spawn_file_actions_adddup2 (fa, null_fd, 0) != 0
      || posix_spawn_file_actions_adddup2 (fa, null_fd, 1) != 0
      || posix_spawn_file_actions_adddup2 (fa, err_fd, 2) != 0)
    error_exit (1, "posix_spawn_file_actions: out of memory");
}

struct run
{
  double us;
  long minflt;
  int status;			/* wait4's */
};

static struct run
spawn_and_reap (const char *program, char **envp,
		const posix_spawn_file_actions_t *fa)
{
  char *argv[] = { (char *) program, NULL };
  struct run r;
  struct rusage ru;
  pid_t pid;
  uint64_t t0 = fcm_now_ns ();
  int err = posix_spawn (&pid, program, fa, NULL, argv, envp);
  if (err != 0)
    error_exit (1, "cannot spawn '%s': %s", program, strerror (err));
  while (wait4 (pid, &r.status, 0, &ru) < 0)
    if (errno != EINTR)
      error_exit (1, "wait4: %s", strerror (errno));
  uint64_t t1 = fcm_now_ns ();
  r.us = (double) (t1 - t0) / 1e3;
  r.minflt = ru.ru_minflt;
  return r;
}

/* How a child that did not exit with status 0 ended.  */
static const char *
describe_end (int status)
{
  static char text[64];
  if (WIFSIGNALED (status))
    snprintf (text, sizeof text, "was killed by signal %d", WTERMSIG (status));
  else
    snprintf (text, sizeof text, "exited with status %d", WEXITSTATUS (status));
  return text;
}

/* Run PROGRAM once under configuration C with its standard error in a
   file: a configuration whose library the dynamic loader cannot preload
   gets only a warning on standard error and runs without it, so any
   output there, like a failure, stops the tool before it measures.  */
static void
check_config (const char *program, const struct config *c, int null_fd)
{
  FILE *err = tmpfile ();
  if (err == NULL)
    error_exit (1, "tmpfile: %s", strerror (errno));
  posix_spawn_file_actions_t fa;
  streams (&fa, null_fd, fileno (err));
  struct run r = spawn_and_reap (program, c->envp, &fa);
  posix_spawn_file_actions_destroy (&fa);
  char text[1024];
  rewind (err);
  size_t len = fread (text, 1, sizeof text - 1, err);
  int wrote = len > 0;
  while (len > 0 && text[len - 1] == '\n')
    len--;
  text[len] = 0;
  fclose (err);
  if (r.status != 0 || wrote)
    error_exit (1, "configuration '%s': %s %s%s%s", c->name, program,
		r.status != 0 ? describe_end (r.status)
		: "wrote to standard error", wrote ? ":\n" : "", text);
}

/* The P-th quantile (0 to 1) of sorted V[0..N-1], between the two nearest
   ranks as fcm_median takes the median.  */
static double
quantile (const double *v, size_t n, double p)
{
  double pos = p * (double) (n - 1);
  size_t i = (size_t) pos;
  if (i + 1 >= n)
    return v[n - 1];
  return v[i] + (pos - (double) i) * (v[i + 1] - v[i]);
}

/* Whether the system preload list names anything: if it does, every
   configuration preloads that too, 'none' included.  */
static int
system_preload_in_use (void)
{
  FILE *f = fopen (SYSTEM_PRELOAD, "r");
  if (f == NULL)
    return 0;
  int c, used = 0;
  while (!used && (c = getc (f)) != EOF)
    used = c != ' ' && c != '\t' && c != '\n';
  fclose (f);
  return used;
}

/* WARMUP_ROUNDS rounds, then RUNS measured ones; each round runs every
   configuration once, beginning with the next one each time.  */
static void
run_rounds (const char *program, unsigned long runs, int null_fd)
{
  posix_spawn_file_actions_t quiet;
  streams (&quiet, null_fd, null_fd);
  for (unsigned long i = 0; i < WARMUP_ROUNDS + runs; i++)
    for (int j = 0; j < nconfigs; j++)
      {
	struct config *c = &configs[(i + (unsigned long) j) % (unsigned long) nconfigs];
	struct run r = spawn_and_reap (program, c->envp, &quiet);
	if (r.status != 0)
	  error_exit (1, "configuration '%s': %s %s", c->name, program,
		      describe_end (r.status));
	if (i >= WARMUP_ROUNDS)
	  {
	    c->us[i - WARMUP_ROUNDS] = r.us;
	    c->minflt[i - WARMUP_ROUNDS] = r.minflt;
	  }
      }
  posix_spawn_file_actions_destroy (&quiet);
}

static void
write_csv (FILE *csv, const char *path, unsigned long runs)
{
  fputs ("configuration,run,microseconds,minor_faults\n", csv);
  for (int k = 0; k < nconfigs; k++)
    for (unsigned long i = 0; i < runs; i++)
      fprintf (csv, "%s,%lu,%.3f,%ld\n", configs[k].name, i + 1,
	       configs[k].us[i], configs[k].minflt[i]);
  if (fclose (csv) != 0)
    error_exit (1, "%s: %s", path, strerror (errno));
}

/* The heading and the table (sorts every configuration's times).  */
static void
report (const char *program, unsigned long runs, int pinned,
	const struct config *baseline)
{
  int width = 13;
  for (int k = 0; k < nconfigs; k++)
    if ((int) strlen (configs[k].name) + 2 > width)
      width = (int) strlen (configs[k].name) + 2;
  printf ("fastcopy-startup %s: posix_spawn of %s until reaped\n",
	  PACKAGE_VERSION, program);
  printf ("%lu runs per configuration, interleaved, after %d unmeasured "
	  "rounds; ", runs, WARMUP_ROUNDS);
  if (pinned >= 0)
    printf ("pinned to CPU %d\n", pinned);
  else
    printf ("not pinned\n");
  if (system_preload_in_use ())
    printf ("note: %s is not empty: every configuration also preloads what "
	    "it lists\n", SYSTEM_PRELOAD);
  for (int k = 0; k < nconfigs; k++)
    if (configs[k].preload != NULL)
      printf ("%-*sLD_PRELOAD=%s\n", width, configs[k].name, configs[k].preload);
    else
      printf ("%-*sLD_PRELOAD unset\n", width, configs[k].name);

  double base_p10 = 0;
  double p10[MAX_CONFIGS], med[MAX_CONFIGS], p90[MAX_CONFIGS], faults[MAX_CONFIGS];
  for (int k = 0; k < nconfigs; k++)
    {
      struct config *c = &configs[k];
      med[k] = fcm_median (c->us, runs);	/* sorts c->us */
      p10[k] = quantile (c->us, runs, 0.10);
      p90[k] = quantile (c->us, runs, 0.90);
      long total = 0;
      for (unsigned long i = 0; i < runs; i++)
	total += c->minflt[i];
      faults[k] = (double) total / (double) runs;
      if (c == baseline)
	base_p10 = p10[k];
    }
  printf ("\n%-*s%9s %10s %9s %13s  p10 - %s\n", width, "configuration",
	  "p10 us", "median us", "p90 us", "faults/spawn", baseline->name);
  for (int k = 0; k < nconfigs; k++)
    {
      printf ("%-*s%9.1f %10.1f %9.1f %13.1f  ", width, configs[k].name,
	      p10[k], med[k], p90[k], faults[k]);
      if (&configs[k] == baseline)
	printf ("baseline\n");
      else
	printf ("%+.1f us\n", p10[k] - base_p10);
    }
}

int
main (int argc, char **argv)
{
  enum { O_CSV = 256, O_CPU, O_NOPIN };
  static const struct option longopts[] = {
    { "runs", required_argument, NULL, 'n' },
    { "baseline", required_argument, NULL, 'b' },
    { "program", required_argument, NULL, 'p' },
    { "csv", required_argument, NULL, O_CSV },
    { "cpu", required_argument, NULL, O_CPU },
    { "no-pin", no_argument, NULL, O_NOPIN },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  unsigned long runs = 5000;
  const char *baseline_name = NULL, *program = "/bin/true", *csv_path = NULL;
  int cpu = -1, pin = 1;
  opterr = 0;
  for (;;)
    {
      int o = getopt_long (argc, argv, ":n:b:p:hV", longopts, NULL);
      if (o == -1)
	break;
      switch (o)
	{
	case 'n': runs = option_number ("--runs", optarg, 1, MAX_RUNS); break;
	case 'b': baseline_name = optarg; break;
	case 'p': program = optarg; break;
	case O_CSV: csv_path = optarg; break;
	case O_CPU:
	  cpu = usable_cpu ((int) option_number ("--cpu", optarg, 0,
						 CPU_SETSIZE - 1));
	  break;
	case O_NOPIN: pin = 0; break;
	case 'h': help (); return 0;
	case 'V': printf ("fastcopy-startup (libfastcopy) %s\n", PACKAGE_VERSION); return 0;
	default:
	  getopt_usage_msg (o, argv);
	  return 2;
	}
      /* An empty name names no file: a usage error found with the
	 arguments, before anything runs.  */
      if ((o == 'p' && empty_name_msg ("--program", optarg))
	  || (o == O_CSV && empty_name_msg ("--csv", optarg)))
	return 2;
    }
  for (int i = optind; i < argc; i++)
    add_config (argv[i]);
  if (nconfigs == 0)
    {
      /* The installed library, missing where the tool runs from a build
	 tree: say how to name another, as fastcopy-run does, rather than
	 leave it to the dynamic loader's warning.  */
      if (access (FCS_DEFAULT_LIBRARY, R_OK) != 0)
	error_exit (1, "%s: %s (is libfastcopy installed?  a configuration "
		    "NAME=LIBRARY names another, such as a build's "
		    "libfastcopy=.libs/libfastcopy.so.1)", FCS_DEFAULT_LIBRARY,
		    strerror (errno));
      add_config ("none");
      add_config ("libfastcopy=" FCS_DEFAULT_LIBRARY);
    }
  const struct config *baseline = &configs[0];
  if (baseline_name != NULL)
    {
      baseline = NULL;
      for (int k = 0; k < nconfigs; k++)
	if (strcmp (configs[k].name, baseline_name) == 0)
	  baseline = &configs[k];
      if (baseline == NULL)
	usage_exit (2, "--baseline: no configuration is named '%s'",
		    baseline_name);
    }
  FILE *csv = NULL;
  if (csv_path != NULL && (csv = fopen (csv_path, "we")) == NULL)
    error_exit (1, "%s: %s", csv_path, strerror (errno));

  int null_fd = open ("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0)
    error_exit (1, "/dev/null: %s", strerror (errno));
  for (int k = 0; k < nconfigs; k++)
    {
      configs[k].envp = environment (configs[k].preload);
      configs[k].us = xcalloc (runs, sizeof *configs[k].us);
      configs[k].minflt = xcalloc (runs, sizeof *configs[k].minflt);
      check_config (program, &configs[k], null_fd);
    }
  int pinned = pin ? fcm_pin (cpu) : -1;
  if (pin && pinned < 0 && cpu >= 0)
    error_msg ("cannot pin to CPU %d: %s; running unpinned", cpu,
	       strerror (errno));

  run_rounds (program, runs, null_fd);
  if (csv != NULL)
    write_csv (csv, csv_path, runs);
  report (program, runs, pinned, baseline);
  return 0;
}
