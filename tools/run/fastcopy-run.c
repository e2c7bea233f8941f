/* SPDX-License-Identifier: MIT */
/* fastcopy-run: run one command with libfastcopy, the way eatmydata runs
   one with libeatmydata.  It puts the library first in LD_PRELOAD, sets
   FASTCOPY from its --set options and FASTCOPY_CONFIG from --config, and
   executes the command in its own place (same process, same exit
   status).  Every --set and the --config file are checked with the
   library's own parser first, and the library's ELF header, so that a
   mistake is reported here and the command does not run, instead of
   being silently ignored in it.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fastcopy.h"
#include "common/message.h"
#include "common/shared-object.h"
#include "common/xalloc.h"

#ifndef FASTCOPY_LIBDIR
# error "FASTCOPY_LIBDIR must name the directory the library is installed in"
#endif

const char tool_name[] = "fastcopy-run";

/* Exit statuses of its own, as env(1) and timeout(1) have them, so that
   they do not pass for the command's.  */
enum
{
  EXIT_FAILED = 125,		/* bad usage, a bad setting or file, no
				   library */
  EXIT_CANNOT_RUN = 126,	/* the command exists but cannot run */
  EXIT_NOT_FOUND = 127		/* no such command */
};

#define MAX_SETS 32
#define DEFAULT_LIBRARY FASTCOPY_LIBDIR "/libfastcopy.so.1"

static void
usage (void)
{
  printf ("usage: %s [--set KEY=VALUE]... [--config FILE] [--library FILE]\n"
	  "                    [--] COMMAND [ARG]...\n"
	  "\n"
	  "Run COMMAND with libfastcopy preloaded (LD_PRELOAD), and with the\n"
	  "settings given (FASTCOPY, fastcopy.conf(5)).  The settings and the\n"
	  "configuration file COMMAND would read are checked first.\n"
	  "\n"
	  "  -s, --set KEY=VALUE  a setting for COMMAND; may be repeated, and\n"
	  "                       replaces FASTCOPY as a whole\n"
	  "  -c, --config FILE    COMMAND reads FILE instead of the system\n"
	  "                       configuration file (FASTCOPY_CONFIG)\n"
	  "  -l, --library FILE   preload FILE, an x86-64 shared object, instead of\n"
	  "                       %s\n"
	  "  -h, --help           print this help and exit\n"
	  "  -V, --version        print the version and exit\n"
	  "\n"
	  "Exit status: COMMAND's; 125 when fastcopy-run itself fails, 126 when\n"
	  "COMMAND cannot run, 127 when it is not found.\n",
	  tool_name, DEFAULT_LIBRARY);
}

/* Called by the library's parser for each problem of what ARG names:
   "--set 2", "FASTCOPY", "--config FILE" and the like.  The line of a
   file, or the item of FASTCOPY, follows the name; a --set is one item.
   An error refuses the command: not "ignored", as the library would have
   it.  */
static void
report (const struct fastcopy_diagnostic *d, void *arg)
{
  const char *what = arg;
  char why[512], where[32] = "";
  if (d->line != 0 && d->source == FASTCOPY_SOURCE_FILE)
    snprintf (where, sizeof where, ":%u", d->line);
  else if (d->line != 0 && strncmp (what, "--set", 5) != 0)
    snprintf (where, sizeof where, " item %u", d->line);
  if (d->severity == FASTCOPY_WARNING)
    error_msg ("%s%s: warning: %s", what, where, d->message);
  else
    error_msg ("%s%s: %s", what, where,
	       refusal_text (d->message, why, sizeof why));
}

/* Check configuration file PATH as WHAT names it ("--config FILE");
   nonzero after an error message.  */
static int
check_file (const char *path, unsigned int flags, const char *what)
{
  return fastcopy_check_config (path, flags, report, (void *) what) != 0;
}

/* FASTCOPY from the N settings: each one checked, joined with commas.
   NULL after an error message.  */
static char *
settings (char *const *sets, int n)
{
  int bad = 0;
  char *joined = xasprintf ("%s", "");
  for (int i = 0; i < n; i++)
    {
      int number = i + 1;
      if (strchr (sets[i], '=') == NULL || strchr (sets[i], ',') != NULL)
	{
	  error_msg ("--set %d: '%s' is not one KEY=VALUE", number,
		     sets[i]);
	  bad = 1;
	  continue;
	}
      char what[32];
      snprintf (what, sizeof what, "--set %d", number);
      if (fastcopy_check_env (sets[i], report, what) != 0)
	bad = 1;
      char *next = xasprintf ("%s%s%s", joined, i ? "," : "", sets[i]);
      free (joined);
      joined = next;
    }
  if (bad)
    {
      free (joined);
      return NULL;
    }
  return joined;
}

/* Without --config, the file COMMAND will read: FASTCOPY_CONFIG's, which
   the library takes only as an absolute name (empty: no file), or the
   system file, where there is one.  Nonzero after an error message.  */
static int
check_inherited_file (void)
{
  const char *env = getenv ("FASTCOPY_CONFIG");
  if (env == NULL)
    {
      const char *system = fastcopy_config_state ()->system_path;
      return access (system, F_OK) == 0
	     && check_file (system, FASTCOPY_CHECK_TRUSTED, system);
    }
  if (env[0] == '\0')
    return 0;
  char *what = xasprintf ("FASTCOPY_CONFIG %s", env);
  int bad = env[0] != '/';
  if (bad)
    error_msg ("%s: not an absolute file name, which the library would "
	       "ignore", what);
  else
    bad = check_file (env, 0, what);
  free (what);
  return bad;
}

int
main (int argc, char **argv)
{
  static const struct option longopts[] = {
    {"set", required_argument, NULL, 's'},
    {"config", required_argument, NULL, 'c'},
    {"library", required_argument, NULL, 'l'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}
  };
  char *sets[MAX_SETS];
  int nsets = 0, opt;
  const char *config = NULL, *library = NULL;
  /* '+': the first operand is the command; what follows it is its own.  */
  opterr = 0;
  while ((opt = getopt_long (argc, argv, "+:s:c:l:hV", longopts, NULL)) != -1)
    switch (opt)
      {
      case 's':
	if (nsets == MAX_SETS)
	  {
	    usage_msg ("at most %d --set", MAX_SETS);
	    return EXIT_FAILED;
	  }
	sets[nsets++] = optarg;
	break;
      case 'c':
	config = optarg;
	break;
      case 'l':
	library = optarg;
	break;
      case 'h':
	usage ();
	return 0;
      case 'V':
	printf ("fastcopy-run (libfastcopy) %s\n", fastcopy_version ());
	return 0;
      default:
	getopt_usage_msg (opt, argv);
	return EXIT_FAILED;
      }
  if (optind == argc)
    {
      usage_msg ("no command given");
      return EXIT_FAILED;
    }
  if ((config != NULL && empty_name_msg ("--config", config))
      || (library != NULL && empty_name_msg ("--library", library)))
    return EXIT_FAILED;

  /* LD_PRELOAD and FASTCOPY_CONFIG want absolute names; LD_PRELOAD splits
     at spaces and colons.  */
  char lib[PATH_MAX];
  if (realpath (library ? library : DEFAULT_LIBRARY, lib) == NULL
      || access (lib, R_OK) != 0)
    {
      if (library == NULL)
	error_msg ("%s: %s (is libfastcopy installed?  --library FILE names "
		   "another, such as a build's .libs/libfastcopy.so.1)",
		   DEFAULT_LIBRARY, strerror (errno));
      else
	error_msg ("%s: %s", shown_name (library), strerror (errno));
      return EXIT_FAILED;
    }
  if (strpbrk (lib, " \t:") != NULL)
    {
      error_msg ("%s: LD_PRELOAD cannot name a file whose name has a space or colon",
		 lib);
      return EXIT_FAILED;
    }
  /* What ld.so would refuse with an error of its own, and run the command
     without it (fastcopy-run is built for x86-64 only,
     fastcopy-run.am), and any other library, which would run it without
     libfastcopy.  */
  const char *wrong = libfastcopy_problem (lib, &elf_abi_x86_64);
  if (wrong != NULL)
    {
      error_msg ("--library %s: %s", library ? library : DEFAULT_LIBRARY,
		 wrong);
      return EXIT_FAILED;
    }
  if (nsets > 0)
    {
      char *value = settings (sets, nsets);
      if (value == NULL)
	return EXIT_FAILED;
      setenv ("FASTCOPY", value, 1);
    }
  else if (getenv ("FASTCOPY") != NULL
	   && fastcopy_check_env (getenv ("FASTCOPY"), report,
				  (void *) "FASTCOPY")
	      != 0)
    return EXIT_FAILED;
  if (config != NULL)
    {
      char path[PATH_MAX];
      if (realpath (config, path) == NULL)
	{
	  error_msg ("--config %s: %s", shown_name (config), strerror (errno));
	  return EXIT_FAILED;
	}
      char *what = xasprintf ("--config %s", config);
      int bad = check_file (path, 0, what);
      free (what);
      if (bad)
	return EXIT_FAILED;
      setenv ("FASTCOPY_CONFIG", path, 1);
    }
  else if (check_inherited_file ())
    return EXIT_FAILED;
  /* First, so that its functions come before any other preloaded
     library's.  */
  const char *old = getenv ("LD_PRELOAD");
  char *preload = old != NULL && old[0] != '\0'
    ? xasprintf ("%s:%s", lib, old) : xasprintf ("%s", lib);
  setenv ("LD_PRELOAD", preload, 1);

  execvp (argv[optind], argv + optind);
  int e = errno;
  error_msg ("%s: %s", shown_name (argv[optind]), strerror (e));
  return e == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
