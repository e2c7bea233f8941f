/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: enable, disable or show libfastcopy in /etc/ld.so.preload.

   The file applies to every dynamically linked program, setuid ones
   included, so every change is made the careful way:

   1. The new contents are computed from the old ones: only libfastcopy's own
      entries are added or removed, every other byte stays as it was
      (comments, blank lines, other libraries, a missing final newline).
   2. Before an entry is added, test processes run with the library
      preloaded; if one fails or prints anything unexpected, nothing is
      written.  status runs the same test on the library each entry
      loads.  The test is the package scripts' (packaging/preload-test.sh),
      which also decide with it whether the entry goes back after an
      upgrade.
   3. The new file is written to a temporary file in the same directory,
      given the old file's mode and owner, fsync'ed, renamed over the old
      one, and the directory is fsync'ed.  A file that would be empty is
      removed instead.  Readers see the old file or the new one, never a
      partial one.

   The program is linked statically on purpose: a static program has no
   dynamic loader, so /etc/ld.so.preload does not apply to it and
   'fastcopy-preload disable' keeps working when the preload is broken.

   The same entry-removal rules are implemented in POSIX sh for the package
   scripts (packaging/preload-remove.sh), which also states, for both, which
   entries are libfastcopy's; testsuite/packaging/test-preload-edit.sh checks that the
   two give the same bytes.

   The parts: root.c, paths under --root; lines.c, the file as lines and
   libfastcopy's entries in them; file.c, reading and replacing the file;
   library.c, the test processes; commands.c, the commands; buf.c, byte
   buffers; this file, the command line.  Shared with
   the other tools (common/): the entry rules (preload-entry.c), the
   file replacement and its lock (file-replace.c), the ELF check
   (shared-object.c), what 32-bit programs load (i386-abi.c), the
   messages.  */

#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "preload.h"

const char tool_name[] = "fastcopy-preload";

static void
usage (void)
{
  printf ("usage: %s [--root DIR] [--no-test] [--quiet] enable|disable|status\n"
	  "       %s [--root DIR] [--no-test] --json status\n"
	  "\n"
	  "Manage libfastcopy's entry in /etc/ld.so.preload, which makes every\n"
	  "program on the system (setuid ones included) use libfastcopy.\n"
	  "\n"
	  "  enable    test the library in new processes, then add the entry\n"
	  "  disable   remove libfastcopy's entries, keeping everything else\n"
	  "  status    say whether it is enabled, and test the library it loads\n"
	  "            (exit status 0 enabled and working, 3 not enabled, 4 an\n"
	  "            entry names no library, 5 the library fails the test or\n"
	  "            is not libfastcopy, 6 32-bit programs find no i386\n"
	  "            library)\n"
	  "\n"
	  "  --root DIR  work on DIR/etc/ld.so.preload and the library under DIR\n"
	  "  --no-test   do not run the test processes (enable, status)\n"
	  "  --quiet     print errors and warnings only\n"
	  "  --json      status: print the verdict as one JSON object\n"
	  "  -h, --help     print this help and exit\n"
	  "  -V, --version  print the version and exit\n"
	  "\n"
	  "library: %s/%s\n", tool_name, tool_name, FASTCOPY_LIBDIR,
	  FASTCOPY_SONAME);
}

int
main (int argc, char **argv)
{
  static const struct option longopts[] = {
    {"root", required_argument, NULL, 'r'},
    {"no-test", no_argument, NULL, 'n'},
    {"quiet", no_argument, NULL, 'q'},
    {"json", no_argument, NULL, 'j'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}
  };
  int opt;
  opterr = 0;
  while ((opt = getopt_long (argc, argv, ":r:nqhV", longopts, NULL)) != -1)
    switch (opt)
      {
      case 'r':
	root = optarg;
	break;
      case 'n':
	no_test = 1;
	break;
      case 'q':
	message_quiet = 1;
	break;
      case 'j':
	json_output = 1;
	break;
      case 'h':
	usage ();
	return EXIT_OK;
      case 'V':
	printf ("fastcopy-preload (libfastcopy) %s\n", PACKAGE_VERSION);
	return EXIT_OK;
      default:
	getopt_usage_msg (opt, argv);
	return EXIT_USAGE;
      }
  if (optind + 1 != argc)
    {
      usage_msg ("%s", optind == argc ? "no command given"
		 : "too many arguments");
      return EXIT_USAGE;
    }
  if (root[0] != '/')
    {
      usage_msg ("--root needs an absolute directory name, not '%s'", root);
      return EXIT_USAGE;
    }
  struct stat st;
  if (stat (root, &st) < 0 || !S_ISDIR (st.st_mode))
    {
      error_msg ("--root %s: not a directory", root);
      return EXIT_USAGE;
    }
  /* Make sure output written before a child's is not duplicated.  */
  setvbuf (stdout, NULL, _IOLBF, 0);

  const char *cmd = argv[optind];
  if (json_output && strcmp (cmd, "status") != 0)
    {
      usage_msg ("--json goes with status");
      return EXIT_USAGE;
    }
  /* Standard output is the JSON object's; the test's words go to
     standard error.  */
  if (json_output)
    message_quiet = 1;
  if (strcmp (cmd, "enable") == 0)
    return cmd_enable ();
  if (strcmp (cmd, "disable") == 0)
    return cmd_disable ();
  if (strcmp (cmd, "status") == 0)
    return cmd_status ();
  usage_msg ("unknown command '%s'", cmd);
  return EXIT_USAGE;
}
