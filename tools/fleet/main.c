/* SPDX-License-Identifier: MIT */
/* fastcopy-fleet: recordings of many machines, through Prometheus and back
   (fastcopy-fleet(1)).  */

#define _GNU_SOURCE 1
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/message.h"
#include "common/xalloc.h"
#include "fastcopy.h"
#include "fleet/fleet.h"

const char tool_name[] = "fastcopy-fleet";

static void
usage (FILE *f)
{
  fputs ("usage: fastcopy-fleet merge [--mix] -o OUT RECORDING...\n"
	 "       fastcopy-fleet accumulate -o TOTAL SAMPLE\n"
	 "       fastcopy-fleet export [--host NAME] -o FILE.prom RECORDING\n"
	 "       fastcopy-fleet import [--mix] -o OUT FILE|-\n"
	 "merge adds up recordings of machines of one class (CPU and policy "
	 "row) into\none; --mix allows several classes.  accumulate adds a "
	 "machine's sample to its\nrunning total, starts a new total when the "
	 "class or implementations changed\n(keeping the old one as "
	 "TOTAL.previous.csv), and leaves the total as it is\nwhen the sample "
	 "failed or has no call.  export writes a recording as\nPrometheus "
	 "exposition text for node_exporter's textfile collector, its\nseries "
	 "labelled with the class, the implementation and the host (--host,\n"
	 "default this machine's name).  import reads exposition text or a "
	 "Prometheus\nquery result (JSON) back into a recording for "
	 "fastcopy-tune --workload.\nFiles are replaced atomically.  merge, "
	 "accumulate and import say whether\nthe bound on the result's error "
	 "is within 0.05 on both families: enough to\ntune from.\n\n"
	 "  -o, --output FILE  the file to write\n"
	 "      --mix          allow recordings of several classes\n"
	 "      --host NAME    the host label of an export\n"
	 "  -h, --help         show this help and exit\n"
	 "  -V, --version      show the version and exit\n\n"
	 "See fastcopy-fleet(1).\n", f);
}

/* A usage error (message.h); the status is the usage status.  */
#define usage_error(...) (usage_msg (__VA_ARGS__), 2)

int
main (int argc, char **argv)
{
  enum { O_MIX = 256, O_HOST };
  static const struct option longopts[] = {
    { "output", required_argument, NULL, 'o' },
    { "mix", no_argument, NULL, O_MIX },
    { "host", required_argument, NULL, O_HOST },
    { "help", no_argument, NULL, 'h' },
    { "version", no_argument, NULL, 'V' },
    { NULL, 0, NULL, 0 }
  };
  const char *command = NULL, *out = NULL, *host = NULL;
  char **files = xrealloc (NULL, (size_t) argc * sizeof *files);
  int mix = 0, nfiles = 0, c;
  /* Options and operands in any order ('-'): the first operand is the
     command.  The messages are ours, on one line (opterr off, ':').  */
  opterr = 0;
  while ((c = getopt_long (argc, argv, "-:o:hV", longopts, NULL)) != -1)
    switch (c)
      {
      case 1:
	if (command == NULL)
	  command = optarg;
	else
	  files[nfiles++] = optarg;
	break;
      case 'o': out = optarg; break;
      case O_MIX: mix = 1; break;
      case O_HOST: host = optarg; break;
      case 'h': usage (stdout); return 0;
      case 'V':
	printf ("fastcopy-fleet (libfastcopy) %s\n", fastcopy_version ());
	return 0;
      default:
	getopt_usage_msg (c, argv);
	return 2;
      }
  if (command == NULL)
    return usage_error ("no command: merge, accumulate, export or import");
  int is_merge = strcmp (command, "merge") == 0;
  int is_export = strcmp (command, "export") == 0;
  int is_import = strcmp (command, "import") == 0;
  int is_accumulate = strcmp (command, "accumulate") == 0;
  if (!is_merge && !is_export && !is_import && !is_accumulate)
    return usage_error ("unknown command '%s': merge, accumulate, export "
			"or import", command);
  if (out == NULL)
    return usage_error ("%s needs -o FILE", command);
  if (mix && (is_export || is_accumulate))
    return usage_error ("--mix is for merge and import");
  if (host != NULL && !is_export)
    return usage_error ("--host is for export");
  if (empty_name_msg ("--output", out))
    return 2;
  for (int i = 0; i < nfiles; i++)
    if (empty_name_msg (command, files[i]))
      return 2;
  if (is_merge)
    return nfiles >= 1 ? merge_main (out, mix, files, nfiles)
		       : usage_error ("merge needs at least one recording");
  if (nfiles != 1)
    return usage_error ("%s takes one file, not %d", command, nfiles);
  if (is_import)
    return import_main (out, mix, files[0]);
  if (is_accumulate)
    return accumulate_main (out, files[0]);
  char name[HOST_NAME_MAX + 1];
  if (host == NULL)
    {
      if (gethostname (name, sizeof name) != 0)
	name[0] = 0;
      name[sizeof name - 1] = 0;
      host = name;
    }
  if (host[0] == 0)
    return usage_error ("no host name: give --host NAME");
  return export_main (out, host, files[0]);
}
