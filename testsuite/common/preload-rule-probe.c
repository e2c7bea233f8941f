/* SPDX-License-Identifier: MIT */
/* preload-rule-probe ROOT LINE...: for each LINE of /etc/ld.so.preload,
   says on a line of its own what the tools' C rule (preload-entry.c) makes
   of its entries on the system whose root is ROOT: "ours" when every one
   is libfastcopy's, "not ours" when none is (or the line has none),
   "mixed" otherwise.  test-preload-rule.sh asks the package scripts' shell
   rule the same.  */

#include <stdio.h>
#include <string.h>

#include "common/preload-entry.h"

const char tool_name[] = "preload-rule-probe";

int
main (int argc, char **argv)
{
  if (argc < 2)
    {
      fputs ("usage: preload-rule-probe ROOT LINE...\n", stderr);
      return 2;
    }
  for (int i = 2; i < argc; i++)
    {
      struct preload_scan s;
      size_t entries = 0, ours = 0;
      preload_scan_start (&s, argv[i], strlen (argv[i]));
      while (preload_scan_next (&s))
	{
	  entries++;
	  /* No installation directory: the rule as the shell knows it.  */
	  ours += preload_entry_is_ours (argv[1], NULL, s.entry,
					 s.entry_len) != 0;
	}
      puts (ours == 0 ? "not ours" : ours == entries ? "ours" : "mixed");
    }
  return ferror (stdout) != 0;
}
