/* SPDX-License-Identifier: MIT */
/* fastcopy-profile: record what a program copies and clears, or report a
   recording (fastcopy-profile(1)).  */

#define _GNU_SOURCE 1
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "common/message.h"
#include "fastcopy.h"
#include "profile/profile.h"

const char tool_name[] = "fastcopy-profile";

#define DEFAULT_OUTPUT "fastcopy-profile.csv"

static void
usage (void)
{
  printf ("usage: fastcopy-profile [-o FILE] COMMAND [ARG...]\n"
	  "       fastcopy-profile --report FILE [--json] [--svg SVG]\n"
	  "       fastcopy-profile --help | --version\n"
	  "Run COMMAND with libfastcopy recording the size, alignment and "
	  "function\nof every copy and clear of every process it starts, "
	  "and write their\nsum to FILE (default %s, which must not exist).\n"
	  "--report prints a recording as tables (--json: as JSON), and with "
	  "--svg\ncharts its sizes against calls and bytes.  fastcopy-bench "
	  "--dist FILE and\nfastcopy-tune --workload FILE measure on it.\n"
	  "\n"
	  "  -o, --output FILE  where the recording goes\n"
	  "  -h, --help         print this help and exit\n"
	  "  -V, --version      print the version and exit\n"
	  "See fastcopy-profile(1).\n", DEFAULT_OUTPUT);
}

int
main (int argc, char **argv)
{
  enum { O_REPORT = 256, O_SVG, O_JSON };
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "report", required_argument, NULL, O_REPORT },
    { "svg", required_argument, NULL, O_SVG },
    { "json", no_argument, NULL, O_JSON },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  const char *out = NULL, *report_file = NULL, *svg = NULL;
  int c, json = 0;
  /* '+': the command's own options are not ours.  */
  opterr = 0;
  while ((c = getopt_long (argc, argv, "+:o:hV", longopts, NULL)) != -1)
    switch (c)
      {
      case 'o': out = optarg; break;
      case O_REPORT: report_file = optarg; break;
      case O_SVG: svg = optarg; break;
      case O_JSON: json = 1; break;
      case 'h': usage (); return 0;
      case 'V':
	printf ("fastcopy-profile (libfastcopy) %s\n", fastcopy_version ());
	return 0;
      default:
	getopt_usage_msg (c, argv);
	return 2;
      }
  if ((out != NULL && empty_name_msg ("--output", out))
      || (report_file != NULL && empty_name_msg ("--report", report_file))
      || (svg != NULL && empty_name_msg ("--svg", svg)))
    return 2;
  if (report_file != NULL)
    {
      if (optind < argc)
	usage_msg ("--report takes one FILE; unexpected argument '%s'",
		   argv[optind]);
      else if (out != NULL)
	usage_msg ("--report reads a recording: no --output with it");
      else
	return report (report_file, svg, json);
      return 2;
    }
  if (svg != NULL || json)
    {
      usage_msg ("%s goes with --report FILE", svg != NULL ? "--svg"
		 : "--json");
      return 2;
    }
  if (optind == argc)
    {
      usage_msg ("no command given");
      return 2;
    }
  return record (out ? out : DEFAULT_OUTPUT, argv + optind);
}
