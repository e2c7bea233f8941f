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
usage (FILE *f)
{
  fprintf (f,
	   "usage: fastcopy-profile [-o FILE] COMMAND [ARG...]\n"
	   "       fastcopy-profile --report FILE [--svg SVG]\n"
	   "Run COMMAND with libfastcopy recording the size, alignment and "
	   "function\nof every copy and clear of every process it starts, "
	   "and write their\nsum to FILE (default %s, which must not exist).\n"
	   "--report prints a recording as tables, and with --svg charts its "
	   "sizes\nagainst calls and bytes.  fastcopy-bench --dist FILE and "
	   "fastcopy-tune\n--workload FILE measure on it.  See "
	   "fastcopy-profile(1).\n", DEFAULT_OUTPUT);
}

int
main (int argc, char **argv)
{
  enum { O_REPORT = 256, O_SVG };
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "report", required_argument, NULL, O_REPORT },
    { "svg", required_argument, NULL, O_SVG },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  const char *out = NULL, *report_file = NULL, *svg = NULL;
  int c;
  /* '+': the command's own options are not ours.  */
  while ((c = getopt_long (argc, argv, "+o:hV", longopts, NULL)) != -1)
    switch (c)
      {
      case 'o': out = optarg; break;
      case O_REPORT: report_file = optarg; break;
      case O_SVG: svg = optarg; break;
      case 'h': usage (stdout); return 0;
      case 'V':
	printf ("fastcopy-profile (libfastcopy) %s\n", fastcopy_version ());
	return 0;
      default:
	usage (stderr);
	return 2;
      }
  if (report_file != NULL)
    {
      if (optind < argc || out != NULL)
	{
	  usage (stderr);
	  return 2;
	}
      return report (report_file, svg);
    }
  if (optind == argc || svg != NULL)
    {
      usage (stderr);
      return 2;
    }
  return record (out ? out : DEFAULT_OUTPUT, argv + optind);
}
