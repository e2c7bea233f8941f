/* SPDX-License-Identifier: MIT */
/* The class of this machine, for a recording (workload.h).  Apart from
   workload.c because it asks libfastcopy, which not every program that
   reads recordings links.  */

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "common/workload.h"

void
fcw_machine_class_here (struct fcw_machine_class *c)
{
  const struct fastcopy_cpu *cpu = fastcopy_cpu ();
  memset (c, 0, sizeof *c);
  c->kind = FCW_MACHINE_CLASS_KNOWN;
  /* One word, as the class line has it: Zhaoxin's "  Shanghai  " reads
     "__Shanghai__".  */
  snprintf (c->cpu_vendor, sizeof c->cpu_vendor, "%s", cpu->vendor);
  for (char *v = c->cpu_vendor; *v; v++)
    if (!isalnum ((unsigned char) *v) && !strchr ("-_.", *v))
      *v = '_';
  c->cpu_family = cpu->family;
  c->cpu_model = cpu->model;
  snprintf (c->policy, sizeof c->policy, "%s",
	    fastcopy_policy_matched ("auto")->name);
}
