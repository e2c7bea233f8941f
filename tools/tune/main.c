/* SPDX-License-Identifier: MIT */
/* fastcopy-tune: measure which implementation and which thresholds make
   libfastcopy fastest on this machine, and print (or install) them as
   configuration lines (fastcopy-tune(1)).

   1. For each family (copy, clear), the candidates: every usable
      implementation with the thresholds it reads (candidates.c).
   2. Every candidate against glibc on the workloads, fixed sizes hot and
      cold and the aliasing sweep (points.c), and the objective chooses
      (choose.c, objective.c).
   3. For the chosen candidate, if it streams: its streaming threshold
      (candidates.c, stage 2), on large copies hot and cold.
   4. Unless --no-compare, the decision timed as deployed: the default,
      the choice and the best candidate of another implementation, each
      through the exported function of a copy of the library loaded with
      its settings (compare.c, deployed.c).
   5. The settings of each family whose decision is not the default on
      standard output; --write installs them (config-write.c).  Where the
      default stays for both, no settings: one line says so, exit 3.
   --list stops after 1: it prints the candidates of both stages (those of
   stage 2 for the default candidate) without measuring anything.  */

#define _GNU_SOURCE 1
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/message.h"
#include "tune.h"

/* The name that messages from common/ start with.  */
const char tool_name[] = "fastcopy-tune";

struct options opt = { .compare = 1 };
static int progress_tty;

/* Progress lines go to a terminal only: redirected, a run would write
   thousands of them into a log.  */
void
progress (const char *fmt, ...)
{
  if (opt.quiet || !progress_tty)
    return;
  char line[160];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (line, sizeof line, fmt, ap);
  va_end (ap);
  fprintf (stderr, "\r\033[K%s", line);
}

void
progress_done (void)
{
  if (!opt.quiet && progress_tty)
    fprintf (stderr, "\r\033[K");
}

const char *
workloads_name (void)
{
  return opt.nworkload > 0 ? "workloads" : "distributions";
}

static void
usage (void)
{
  printf (	  "usage: fastcopy-tune [--quick] [--no-compare] [--verbose] "
	  "[--quiet]\n"
	  "                     [--write] [--config FILE]\n"
	  "       fastcopy-tune --workload FILE [FILE...] [OPTION...]\n"
	  "       fastcopy-tune --list [--quick] [--workload FILE...]\n"
	  "       fastcopy-tune --set KEY=VALUE... [--write] [--config FILE]\n"
	  "       fastcopy-tune --help | --version\n"
	  "Measure every implementation libfastcopy can use here, with the "
	  "thresholds\nit reads, against glibc, and print the fastest "
	  "settings; --write installs\nthem into the configuration file "
	  "(%s, or --config FILE),\nkeeping its other lines.  --workload "
	  "chooses by recordings of fastcopy-profile\ninstead of the "
	  "distributions fastcopy-bench ships.  --list prints the\n"
	  "candidates such a run would measure, and measures nothing.  --set "
	  "skips\nmeasuring and installs the given settings.\n"
	  "\n"
	  "      --quick          fewer sizes, distances and rounds, cold "
	  "sizes up to\n"
	  "                       64 MiB\n"
	  "      --list           print the candidates a run would measure, "
	  "and measure\n"
	  "                       nothing\n"
	  "      --workload FILE  choose by FILE, a recording or a "
	  "distribution; up to 32\n"
	  "      --no-compare     skip the decision as deployed\n"
	  "      --verbose        also print every point\n"
	  "      --quiet          no progress display\n"
	  "      --write          install the settings into the configuration "
	  "file\n"
	  "      --config FILE    with --write, the file to write\n"
	  "      --set KEY=VALUE  do not measure: use this setting; up to 16\n"
	  "  -h, --help           print this help and exit\n"
	  "  -V, --version        print the version and exit\n"
	  "See fastcopy-tune(1).\n",
	  fastcopy_config_state ()->system_path);
}

/* ARG: the number of the --set being checked, from 1.  An error refuses
   every setting: not "ignored", as the library would have it.  */
static void
print_diag (const struct fastcopy_diagnostic *d, void *arg)
{
  char why[512];
  fprintf (stderr, "%s: --set %d: %s%s\n", tool_name, *(int *) arg,
	   d->severity == FASTCOPY_WARNING ? "warning: " : "",
	   d->severity == FASTCOPY_WARNING
	   ? d->message : refusal_text (d->message, why, sizeof why));
}

/* --set: every item checked with the library's parser, then taken as it
   is.  Returns the number of settings, or -1 after an error message: the
   arguments of --set are wrong, a usage error.  */
static int
given_settings (char **keys, char **values)
{
  int bad = 0, n = 0;
  for (int i = 0; i < opt.nset; i++)
    {
      int number = i + 1;
      if (strchr (opt.set[i], '=') == NULL || strchr (opt.set[i], ',') != NULL)
	{
	  error_msg ("--set %d: '%s' is not one KEY=VALUE", number,
		     opt.set[i]);
	  bad = 1;
	}
      else
	bad |= fastcopy_check_env (opt.set[i], print_diag, &number) != 0;
    }
  if (bad)
    return -1;
  for (int i = 0; i < opt.nset; i++)
    {
      char *eq = strchr (opt.set[i], '=');
      *eq = 0;
      keys[n] = opt.set[i];
      values[n++] = eq + 1;
      printf ("%s = %s\n", keys[n - 1], values[n - 1]);
    }
  return n;
}

/* Measure, choose and print; the settings of each family whose decision
   is not its default (of both, with --no-compare) into KEYS and VALUES.
   Returns how many.  */
static int
measured_settings (char **keys, char **values, const char *date)
{
  static struct family fam[FASTCOPY_FAMILY_COUNT];
  static struct family stream[FASTCOPY_FAMILY_COUNT];
  int streamed[FASTCOPY_FAMILY_COUNT];
  const struct fastcopy_cpu *cpu = fastcopy_cpu ();
  fcm_pin (-1);
  points_load (opt.workload, opt.nworkload);
  points_setup ();
  printf ("# fastcopy-tune %s%s, %s: %s family %u model %u, glibc %s\n",
	  fastcopy_version (), opt.quick ? " --quick" : "", date, cpu->vendor,
	  cpu->family, cpu->model, glibc_version ());
  printf ("# alias_guard %s, alias_backward %s; workloads:",
	  fastcopy_setting_find ("alias_guard")->value,
	  fastcopy_setting_find ("alias_backward")->value);
  for (int w = 0; w < nworkloads; w++)
    if (workloads[w].command[0])
      printf ("\n#   %s: %s", workloads[w].name, workloads[w].command);
    else
      printf (" %s", workloads[w].name);
  putchar ('\n');
  uint64_t t0 = fcm_now_ns ();
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    {
      fam[i].id = (enum fastcopy_family) i;
      candidates_make (&fam[i]);
      choose (&fam[i]);
      streamed[i] = stream_candidates_make (&stream[i], &fam[i]);
      if (streamed[i])
	{
	  choose (&stream[i]);
	  candidate_take_nt (&fam[i], &stream[i]);
	}
    }
  for (int i = 0; opt.compare && i < FASTCOPY_FAMILY_COUNT; i++)
    compare (&fam[i], streamed[i] ? &stream[i] : NULL);
  printf ("#\n# measured in %.0f s; %lu samples, %lu retaken after a context "
	  "switch%s\n", (double) (fcm_now_ns () - t0) / 1e9, fcm_samples_taken,
	  fcm_samples_retaken, fcm_samples_retaken > fcm_samples_taken / 20
	  ? ": the machine is busy, expect noise" : "");

  static char text[FASTCOPY_FAMILY_COUNT][2][32];
  int n = 0;
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    {
      const struct candidate *c = &fam[i].c[fam[i].chosen];
      if (opt.compare && fam[i].chosen == fam[i].dflt)
	continue;
      keys[n] = (char *) fam[i].name;
      values[n++] = (char *) c->impl->name;
      if (c->impl->traits & FASTCOPY_TRAIT_REP)
	{
	  keys[n] = (char *) fam[i].rep_key;
	  values[n++] = (char *) fc_size_format (c->rep, FC_SIZE_EXACT,
						 text[i][0],
						 sizeof text[i][0]);
	}
      if (c->impl->traits & FASTCOPY_TRAIT_NT)
	{
	  keys[n] = (char *) fam[i].nt_key;
	  values[n++] = (char *) fc_size_format (c->nt, FC_SIZE_EXACT,
						 text[i][1],
						 sizeof text[i][1]);
	}
    }
  if (n == 0)
    {
      printf ("# keeping the default settings: as deployed, no candidate "
	      "was faster than the library's default\n");
      return 0;
    }
  if (!opt.compare)
    printf ("# not timed as deployed (--no-compare): the table entries' "
	    "figures alone\n");
  for (int i = 0; i < n; i++)
    printf ("%s = %s\n", keys[i], values[i]);
  printf ("# for one program: FASTCOPY=");
  for (int i = 0; i < n; i++)
    printf ("%s%s=%s", i ? "," : "", keys[i], values[i]);
  putchar ('\n');
  return n;
}

/* --list: the candidates a run with these options would measure, as its
   tables label them, and those of the streaming stage that would follow
   the default's choice.  Nothing is measured: no implementation of the
   table is called, no threshold set, no buffer mapped.  */
static void
list_candidates (void)
{
  static struct family fam, stream;
  points_load (opt.workload, opt.nworkload);
  for (int i = 0; i < FASTCOPY_FAMILY_COUNT; i++)
    {
      fam.id = (enum fastcopy_family) i;
      candidates_make (&fam);
      for (int k = 0; k < fam.n; k++)
	printf ("%s %s\n", fam.name, fam.c[k].label);
      fam.chosen = fam.dflt;
      if (stream_candidates_make (&stream, &fam))
	for (int k = 0; k < stream.n; k++)
	  printf ("%s %s\n", stream.name, stream.c[k].label);
    }
}

int
main (int argc, char **argv)
{
  static const struct option longopts[] = {
    { "quick", no_argument, NULL, 'q' },
    { "list", no_argument, NULL, 'l' },
    { "write", no_argument, NULL, 'w' },
    { "config", required_argument, NULL, 'c' },
    { "set", required_argument, NULL, 's' },
    { "workload", required_argument, NULL, 'W' },
    { "no-compare", no_argument, NULL, 'n' },
    { "verbose", no_argument, NULL, 'v' },
    { "quiet", no_argument, NULL, 'Q' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  int c;
  opterr = 0;
  while ((c = getopt_long (argc, argv, ":hV", longopts, NULL)) != -1)
    switch (c)
      {
      case 'q': opt.quick = 1; break;
      case 'l': opt.list = 1; break;
      case 'w': opt.write = 1; break;
      case 'c': opt.config = optarg; break;
      case 's':
	if (opt.nset == 16)
	  {
	    usage_msg ("at most 16 --set");
	    return 2;
	  }
	opt.set[opt.nset++] = optarg;
	break;
      case 'W':
	if (opt.nworkload == MAX_WORKLOADS)
	  {
	    usage_msg ("at most %d workloads", MAX_WORKLOADS);
	    return 2;
	  }
	opt.workload[opt.nworkload++] = optarg;
	break;
      case 'n': opt.compare = 0; break;
      case 'v': opt.verbose = 1; break;
      case 'Q': opt.quiet = 1; break;
      case 'h': usage (); return 0;
      case 'V':
	printf ("fastcopy-tune (libfastcopy) %s\n", fastcopy_version ());
	return 0;
      default:
	getopt_usage_msg (c, argv);
	return 2;
      }
  /* Files after the options are more workloads.  */
  for (; optind < argc && opt.nworkload > 0 && opt.nworkload < MAX_WORKLOADS;
       optind++)
    opt.workload[opt.nworkload++] = argv[optind];
  if (optind < argc)
    {
      if (opt.nworkload == MAX_WORKLOADS)
	usage_msg ("at most %d workloads", MAX_WORKLOADS);
      else
	usage_msg ("unexpected argument '%s'", argv[optind]);
      return 2;
    }
  for (int i = 0; i < opt.nworkload; i++)
    if (empty_name_msg ("--workload", opt.workload[i]))
      return 2;
  if (opt.nworkload > 0 && opt.nset > 0)
    {
      usage_msg ("--set installs the settings given: no --workload with it");
      return 2;
    }
  if (opt.list && (opt.write || opt.nset > 0))
    {
      usage_msg ("--list measures nothing: no --write or --set with it");
      return 2;
    }
  if (opt.list)
    {
      list_candidates ();
      return ferror (stdout) || fflush (stdout) != 0 ? 1 : 0;
    }
  if (opt.config != NULL && !opt.write)
    {
      usage_msg ("--config needs --write");
      return 2;
    }
  if (opt.config != NULL && empty_name_msg ("--config", opt.config))
    return 2;
  if (opt.write && !opt.compare && opt.nset == 0)
    {
      usage_msg ("--write checks the choice against the default first: no "
		 "--no-compare with it");
      return 2;
    }
  progress_tty = isatty (2);
  const char *path = opt.config ? opt.config
				: fastcopy_config_state ()->system_path;
  const struct fastcopy_cpu *cpu = fastcopy_cpu ();
  char header[256], date[32];
  time_t t = time (NULL);
  strftime (date, sizeof date, "%Y-%m-%d", localtime (&t));

  char *keys[16], *values[16];
  int n;
  if (opt.nset > 0)
    {
      n = given_settings (keys, values);
      if (n < 0)
	return 2;
      snprintf (header, sizeof header, "set by fastcopy-tune --set, %s",
		date);
    }
  else
    {
      n = measured_settings (keys, values, date);
      snprintf (header, sizeof header, "measured by fastcopy-tune%s, %s, "
		"on %s family %u model %u", opt.quick ? " --quick" : "", date,
		cpu->vendor, cpu->family, cpu->model);
    }
  fflush (stdout);
  if (n == 0)
    {
      if (opt.write)
	fprintf (stderr, "%s: not written: the default settings stay; %s is "
		 "unchanged\n", tool_name, path);
      return 3;
    }
  if (opt.write)
    write_config (path, n, keys, values, header);
  return 0;
}
