/* SPDX-License-Identifier: MIT */
/* fastcopy-bench: libfastcopy against the system glibc, in one process:
   the options, the heading of the report, and the run of the chosen cases.

   Every point (function, size, alignment, distance, cache state) is
   measured with every contender interleaved, and the median kept
   (measure.h); ratios are contender time / glibc time: below 1 is faster
   than glibc.  A null contender, a function that returns at once, gives
   the floor, and net ratios take it from both times (net-ratio.h).  The
   cases are in cases.c, the contenders in contenders.c, the report and
   the summary in report.c, and the summary's targets come from a data
   file (targets.c).  */

#define _GNU_SOURCE 1
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

struct options opt = { .cpu = -1, .pin = 1, .seed = 1, .calls = 65536 };

/* The name that messages start with (common/message.h).  */
const char tool_name[] = "fastcopy-bench";

static void
help (void)
{
  printf ("usage: fastcopy-bench [OPTION]...\n"
	  "Compare libfastcopy's memcpy, memmove, memset and bzero, and every usable\n"
	  "implementation in its table, with the system glibc's (and those of other\n"
	  "libraries, with --against), in one process.\n\n"
	  "  -q, --quick        short run (48 s on a Zen 4 guest): fewer sizes,\n"
	  "                     rounds and distances, smaller cold pool, sizes up\n"
	  "                     to 64 MiB\n"
	  "  -c, --case LIST    comma-separated cases or groups to run (default: all)\n"
	  "  -r, --rounds N     interleaved rounds per point (default 7; quick 3)\n"
	  "  -t, --time MS      target length of one sample in ms (default 2; quick 1)\n"
	  "      --csv FILE     write every measurement as CSV ('-': stdout)\n"
	  "      --svg FILE     write charts as SVG\n"
	  "      --lib PATH     libfastcopy.so.1 to measure (default: the one linked)\n"
	  "      --against LIB  add a column for LIB's memcpy, memmove, memset (and\n"
	  "                     bzero, if it has one); up to %d times\n"
	  "      --glibc-root DIR\n"
	  "                     measure against the glibc unpacked in DIR (dpkg -x\n"
	  "                     of a libc6 package) instead of the system's\n"
	  "      --data DIR     directory of the size distributions (*.csv) and\n"
	  "                     of the targets (targets.conf)\n"
	  "      --dist FILE    replay FILE (a distribution, or a recording of\n"
	  "                     fastcopy-profile) in the distributions cases\n"
	  "                     instead of the shipped ones; up to %d times\n"
	  "      --calls N      calls per distribution sequence (default 65536)\n"
	  "      --seed N       seed of the sequences and the cold slot order (default 1)\n"
	  "      --pool MIB     cache-cold pool size in MiB (default 4x L3, quick 2x)\n"
	  "      --cpu N        pin to CPU N (default: the most idle CPU)\n"
	  "      --no-pin       do not pin to a CPU\n"
	  "      --strict       exit with status 3 if a target is missed\n"
	  "      --quiet        no progress on stderr\n"
	  "  -l, --list         list cases, groups and contenders, then exit\n"
	  "  -h, --help         this help\n"
	  "  -V, --version      version\n\n"
	  "Cases:\n", MAX_PEERS, MAX_DISTS);
  for (int i = 0; i < CASE_COUNT; i++)
    printf ("  %-16s %s\n", cases[i].name, cases[i].help);
  printf ("Groups:");
  for (size_t i = 0; i < ncase_groups; i++)
    printf (" %s", case_groups[i].name);
  printf ("\n\nRatios are contender time / glibc time: below 1.00 is faster.\n"
	  "Net ratios take the time of a null function, the floor, from both.\n"
	  "See fastcopy-bench(1).\n");
}

static double
milliseconds (const char *s)
{
  char *end;
  errno = 0;
  double v = strtod (s, &end);
  if (errno != 0 || *end != 0 || end == s || !(v >= 0.01 && v <= 10000))
    usage_exit (2, "--time: '%s' is not a number of milliseconds in 0.01..10000", s);
  return v;
}

static void
list (void)
{
  printf ("cases:\n");
  for (int i = 0; i < CASE_COUNT; i++)
    printf ("  %-16s %s\n", cases[i].name, cases[i].help);
  printf ("groups:\n");
  for (size_t i = 0; i < ncase_groups; i++)
    {
      printf ("  %-16s", case_groups[i].name);
      for (int c = 0; c < CASE_COUNT; c++)
	if (case_groups[i].mask & (1u << c))
	  printf (" %s", cases[c].name);
      putchar ('\n');
    }
  printf ("contenders:\n");
  for (int f = 0; f < F_COUNT; f++)
    {
      printf ("  %-8s", func_names[f]);
      for (int k = 0; k < csets_wide[f].n; k++)
	printf (" %s", csets_wide[f].c[k].label);
      putchar ('\n');
    }
}

/* Pin as the options say; the CPU, or -1 if not pinned.  */
static int
pin (void)
{
  if (!opt.pin)
    return -1;
  int cpu = fcm_pin (opt.cpu);
  if (cpu < 0 && opt.cpu >= 0)
    error_msg ("cannot pin to CPU %d: %s; running unpinned", opt.cpu,
	       strerror (errno));
  return cpu;
}

int
main (int argc, char **argv)
{
  /* The options that name a file come first, O_CSV to O_DIST.  */
  enum { O_CSV = 256, O_SVG, O_LIB, O_AGAINST, O_GLIBC_ROOT, O_DATA, O_DIST,
	 O_CALLS,
	 O_SEED, O_POOL, O_CPU, O_NOPIN, O_STRICT, O_QUIET };
  static const struct option longopts[] = {
    { "quick", no_argument, NULL, 'q' },
    { "case", required_argument, NULL, 'c' },
    { "rounds", required_argument, NULL, 'r' },
    { "time", required_argument, NULL, 't' },
    { "csv", required_argument, NULL, O_CSV },
    { "svg", required_argument, NULL, O_SVG },
    { "lib", required_argument, NULL, O_LIB },
    { "against", required_argument, NULL, O_AGAINST },
    { "glibc-root", required_argument, NULL, O_GLIBC_ROOT },
    { "data", required_argument, NULL, O_DATA },
    { "dist", required_argument, NULL, O_DIST },
    { "calls", required_argument, NULL, O_CALLS },
    { "seed", required_argument, NULL, O_SEED },
    { "pool", required_argument, NULL, O_POOL },
    { "cpu", required_argument, NULL, O_CPU },
    { "no-pin", no_argument, NULL, O_NOPIN },
    { "strict", no_argument, NULL, O_STRICT },
    { "quiet", no_argument, NULL, O_QUIET },
    { "list", no_argument, NULL, 'l' },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  int do_list = 0;
  opterr = 0;
  for (;;)
    {
      int longindex;
      int o = getopt_long (argc, argv, ":qc:r:t:lhV", longopts, &longindex);
      if (o == -1)
	break;
      switch (o)
	{
	case 'q': opt.quick = 1; break;
	case 'c': opt.cases |= fcb_parse_cases (optarg); break;
	case 'r':
	  opt.rounds = (unsigned int) option_number ("--rounds", optarg, 1,
						     MAX_ROUNDS);
	  break;
	case 't': opt.time_ms = milliseconds (optarg); break;
	case O_CSV: opt.csv = optarg; break;
	case O_SVG: opt.svg = optarg; break;
	case O_LIB: opt.lib = optarg; break;
	case O_AGAINST:
	  if (opt.nagainst == MAX_PEERS)
	    usage_exit (2, "--against: at most %d libraries", MAX_PEERS);
	  opt.against[opt.nagainst++] = optarg;
	  break;
	case O_GLIBC_ROOT: opt.glibc_root = optarg; break;
	case O_DATA: opt.data = optarg; break;
	case O_DIST:
	  if (opt.ndists == MAX_DISTS)
	    usage_exit (2, "--dist: at most %d files", MAX_DISTS);
	  opt.dists[opt.ndists++] = optarg;
	  break;
	case O_CALLS:
	  opt.calls = (unsigned int) option_number ("--calls", optarg, 1,
						    1u << 24);
	  break;
	case O_SEED:
	  opt.seed = option_number ("--seed", optarg, 0, ULLONG_MAX);
	  break;
	case O_POOL:
	  opt.pool = option_number ("--pool", optarg, 1, 1u << 20) * MiB;
	  break;
	case O_CPU:
	  opt.cpu = (int) option_number ("--cpu", optarg, 0, CPU_SETSIZE - 1);
	  if (!fcm_cpu_allowed (opt.cpu))
	    usage_exit (2, "--cpu: CPU %d is not online, or not one this "
			"process may run on", opt.cpu);
	  break;
	case O_NOPIN: opt.pin = 0; break;
	case O_STRICT: opt.strict = 1; break;
	case O_QUIET: opt.quiet = 1; break;
	case 'l': do_list = 1; break;
	case 'h': help (); return 0;
	case 'V':
	  printf ("fastcopy-bench (libfastcopy) %s\n", fastcopy_version ());
	  return 0;
	default:
	  getopt_usage_msg (o, argv);
	  return 2;
	}
      /* An empty name names no file: a usage error found with the
	 arguments, before anything is measured.  These options are long
	 ones only, so LONGINDEX names the one given.  */
      if (o >= O_CSV && o <= O_DIST)
	{
	  char option[32];
	  snprintf (option, sizeof option, "--%s", longopts[longindex].name);
	  if (empty_name_msg (option, optarg))
	    return 2;
	}
    }
  if (optind < argc)
    usage_exit (2, "unexpected argument '%s'", argv[optind]);
  int all = opt.cases == 0;
  if (all)
    opt.cases = (1u << CASE_COUNT) - 1;
  unsigned int rounds = opt.rounds ? opt.rounds : opt.quick ? 3 : 7;
  double time_ms = opt.time_ms ? opt.time_ms : opt.quick ? 1 : 2;
  opt.progress = !opt.quiet && isatty (2);

  if (opt.glibc_root)
    fcb_enter_glibc_root (argv);
  fcb_open_libraries ();
  fcb_build_contenders ();
  if (do_list)
    {
      list ();
      return 0;
    }
  fcb_verify_contenders ();
  const unsigned int dist_cases = (1u << CASE_MEMCPY_DIST) | (1u << CASE_MEMSET_DIST);
  if ((opt.cases & dist_cases) && !fcb_load_dists (!all))
    {
      error_msg ("no distribution data found (looked in %s); skipping the "
		 "distributions (use --data DIR)", fcb_data_places_text ());
      opt.cases &= ~dist_cases;
    }
  fcb_load_targets (lib.cpu (), lib.libc_version ());
  int cpu = pin ();
  fcb_plan ();

  const struct fastcopy_cpu *c = lib.cpu ();
  char l1[16], l2[16], l3[16], subtitle[512];
  printf ("fastcopy-bench %s, %s mode: %u rounds, %.2g ms per sample\n",
	  fastcopy_version (), opt.quick ? "quick" : "full", rounds, time_ms);
  printf ("glibc       %s  %s\n", lib.libc_version (), lib.libc_path);
  if (lib.loader_path[0])
    printf ("loader      %s (--glibc-root)\n", lib.loader_path);
  printf ("libfastcopy %s  %s\n", lib.version (), lib.fc_path);
  for (int i = 0; i < lib.npeers; i++)
    printf ("%-11s %s (--against; RTLD_LOCAL | RTLD_DEEPBIND)\n",
	    lib.peers[i].label, lib.peers[i].path);
  printf ("CPU         %s family %u model %u; L1d %s, L2 %s, L3 %s; ",
	  c->vendor, c->family, c->model,
	  fc_size_format (c->l1d_size, FC_SIZE_1_DECIMAL, l1, sizeof l1),
	  fc_size_format (c->l2_size, FC_SIZE_1_DECIMAL, l2, sizeof l2),
	  fc_size_format (c->l3_size, FC_SIZE_1_DECIMAL, l3, sizeof l3));
  if (cpu >= 0)
    printf ("pinned to CPU %d\n", cpu);
  else
    printf ("not pinned\n");
  for (int f = 0; f < F_COUNT; f++)
    {
      const struct fastcopy_choice *ch = lib.selected (func_names[f]);
      printf ("%-11s libfastcopy uses %s: %s\n", func_names[f],
	      ch && ch->impl ? ch->impl->name : "?", ch && ch->reason ? ch->reason : "?");
    }
  printf ("contenders  glibc = libc.so.6's own function (dlsym), libfastcopy ="
	  " the exported\n            function (dlsym), null = a function that "
	  "returns at once (the floor),\n            %sfc:NAME = table entry "
	  "called directly%s\n", lib.npeers ? "a peer = that library's function"
	  " (dlsym),\n            " : "", fcb_stream_usable ()
	  ? ",\n            ref:stream = AVX2 streaming-store loop (cold, >= 256 KiB)"
	  : "");
  printf ("ratio       contender time / glibc time (below 1 is faster)\n"
	  "net         (contender - null) / (glibc - null): the ratio of the "
	  "work above\n            the floor (- where glibc is not slower "
	  "than null)\n");
  fflush (stdout);
  snprintf (subtitle, sizeof subtitle, "%s family %u model %u, L3 %s; %s mode, "
	    "median of %u interleaved rounds; libfastcopy = exported function,"
	    " fc:NAME = table entry", c->vendor, c->family, c->model, l3,
	    opt.quick ? "quick" : "full", rounds);

  uint64_t t0 = fcm_now_ns ();
  for (int cid = 0; cid < CASE_COUNT; cid++)
    {
      if (!(opt.cases & (1u << cid)))
	continue;
      /* The distance sweep has thousands of points: at most 5 rounds of
	 short samples there (a short sample is also less likely to be hit
	 by preemption), enough for a cliff of 10x and more.  */
      if (cid == CASE_MEMCPY_DISTANCE)
	fcb_run_case (cid, rounds > 5 ? 5 : rounds, time_ms / 8);
      else
	fcb_run_case (cid, rounds, time_ms);
    }
  int missed = fcb_summary ();
  printf ("\n(measured in %.1f s; %lu samples, %lu retaken after a context "
	  "switch%s)\n", (double) (fcm_now_ns () - t0) / 1e9, fcm_samples_taken,
	  fcm_samples_retaken, fcm_samples_retaken > fcm_samples_taken / 20
	  ? ": the machine is busy, expect noise" : "");

  if (opt.csv)
    fcb_write_csv (opt.csv);
  if (opt.svg)
    fcb_write_svg (opt.svg, subtitle);
  if (opt.strict && missed > 0)
    return 3;
  return 0;
}
