/* SPDX-License-Identifier: MIT */
/* Area: dispatch
   Purpose: the implementation table and the rest of the FASTCOPY_1 API are
   consistent: fastcopy_impl_at is NULL exactly from fastcopy_impl_count
   on; every entry has a name unique within its family, a summary, and the
   function pointer of its family only; fastcopy_impl_find returns the
   same entry and NULL for unknown names; each family has a usable entry
   that needs no CPU feature (the fallback); feature names are defined up
   to the last bit; fastcopy_version is the package version.  The policy
   rows: unique names, implementations of the right family that every CPU
   the row matches can run, each table ending with a row that matches any
   CPU, and fastcopy_policy_matched giving the first row this CPU meets,
   by a matcher of this test's own.  */

#include "fctest.h"

/* Does the CPU meet row P?  The test's own reading of the conditions.  */
static int
row_matches (const struct fastcopy_policy *p, const struct fastcopy_cpu *c)
{
  const char *v = strcmp (c->vendor, "AuthenticAMD") == 0
		  || strcmp (c->vendor, "HygonGenuine") == 0 ? "AMD"
		  : strcmp (c->vendor, "GenuineIntel") == 0 ? "Intel" : "other";
  return (strcmp (p->vendor, "any") == 0 || strcmp (p->vendor, v) == 0)
	 && c->family >= p->family_min && c->family <= p->family_max
	 && c->model >= p->model_min && c->model <= p->model_max
	 && (p->requires & ~c->features) == 0;
}

static void
check_policy (void)
{
  size_t n = fastcopy_policy_count ();
  const struct fastcopy_cpu *cpu = fastcopy_cpu ();
  fct_expect (n > 0 && fastcopy_policy_at (n) == NULL,
	      "fastcopy_policy_at is NULL exactly past the count");

  fct_begin ("every policy row is well formed");
  for (size_t i = 0; i < n; i++)
    {
      const struct fastcopy_policy *p = fastcopy_policy_at (i);
      if (p->copy == NULL || p->copy->family != FASTCOPY_FAMILY_COPY
	  || p->clear == NULL || p->clear->family != FASTCOPY_FAMILY_CLEAR)
	fct_fail ("%s: implementations of the wrong family", p->name);
      else if ((p->copy->requires | p->clear->requires) & ~p->requires)
	fct_fail ("%s: matches CPUs that cannot run %s or %s", p->name,
		  p->copy->name, p->clear->name);
      if (p->reason[0] == 0 || p->evidence[0] == 0 || p->thresholds[0] == 0)
	fct_fail ("%s: no reason, evidence or thresholds", p->name);
      for (size_t j = 0; j < i; j++)
	if (strcmp (fastcopy_policy_at (j)->name, p->name) == 0)
	  fct_fail ("row name %s appears twice", p->name);
      const struct fastcopy_policy *next = fastcopy_policy_at (i + 1);
      int last = next == NULL || strcmp (next->table, p->table) != 0;
      if (last && (strcmp (p->vendor, "any") != 0 || p->requires != 0
		   || p->family_min != 0 || p->family_max != 0xffffffffu
		   || p->model_min != 0 || p->model_max != 0xffffffffu))
	fct_fail ("table %s ends with %s, which does not match every CPU",
		  p->table, p->name);
    }
  fct_end ();

  static const char *const tables[] = { "auto", "seed" };
  for (size_t t = 0; t < FCT_ARRAY_SIZE (tables); t++)
    {
      const struct fastcopy_policy *want = NULL;
      for (size_t i = 0; i < n && want == NULL; i++)
	if (strcmp (fastcopy_policy_at (i)->table, tables[t]) == 0
	    && row_matches (fastcopy_policy_at (i), cpu))
	  want = fastcopy_policy_at (i);
      const struct fastcopy_policy *got = fastcopy_policy_matched (tables[t]);
      fct_expect (got != NULL && got == want,
		  "the %s row of this CPU is the first it meets (%s, got %s)",
		  tables[t], want ? want->name : "none",
		  got ? got->name : "none");
    }
  fct_expect (fastcopy_policy_matched ("no-such-table") == NULL,
	      "fastcopy_policy_matched of an unknown table is NULL");
}

int
main (void)
{
  size_t n = fastcopy_impl_count ();

  fct_init ();

  fct_expect (n > 0 && fastcopy_impl_at (n) == NULL
	      && fastcopy_impl_at ((size_t) -1) == NULL,
	      "fastcopy_impl_at is NULL exactly past the count");

  fct_begin ("every table entry is well formed and findable");
  for (size_t i = 0; i < n; i++)
    {
      const struct fastcopy_impl *e = fastcopy_impl_at (i);
      if (e == NULL || e->name == NULL || e->name[0] == 0)
	{
	  fct_fail ("entry %zu has no name", i);
	  continue;
	}
      if (e->summary == NULL || e->summary[0] == 0)
	fct_fail ("%s has no summary", e->name);
      if (e->family == FASTCOPY_FAMILY_COPY
	  ? (e->copy == NULL || e->clear != NULL)
	  : e->family == FASTCOPY_FAMILY_CLEAR
	  ? (e->clear == NULL || e->copy != NULL) : 1)
	fct_fail ("%s: family %d does not match its function pointers",
		  e->name, (int) e->family);
      if (fastcopy_impl_find (e->family, e->name) != e)
	fct_fail ("fastcopy_impl_find (%d, \"%s\") is another entry",
		  (int) e->family, e->name);
      for (size_t j = 0; j < i; j++)
	{
	  const struct fastcopy_impl *o = fastcopy_impl_at (j);
	  if (o->family == e->family && strcmp (o->name, e->name) == 0)
	    fct_fail ("name %s appears twice in family %d", e->name,
		      (int) e->family);
	}
      if (e->requires >> FASTCOPY_CPU_FEATURE_COUNT)
	fct_fail ("%s requires an undefined feature bit", e->name);
    }
  fct_end ();

  fct_expect (fastcopy_impl_find (FASTCOPY_FAMILY_COPY, "no-such-impl") == NULL,
	      "fastcopy_impl_find of an unknown name is NULL");

  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      int fallback = 0;
      for (size_t i = 0; i < n; i++)
	{
	  const struct fastcopy_impl *e = fastcopy_impl_at (i);
	  fallback |= e->family == (enum fastcopy_family) f && e->requires == 0
		      && fastcopy_impl_usable (e);
	}
      fct_expect (fallback, "family %d has a usable fallback needing no "
		  "CPU feature", f);
    }

  fct_begin ("CPU feature names");
  for (unsigned b = 0; b < FASTCOPY_CPU_FEATURE_COUNT; b++)
    if (fastcopy_cpu_feature_name (b) == NULL
	|| fastcopy_cpu_feature_name (b)[0] == 0)
      fct_fail ("feature bit %u has no name", b);
  if (fastcopy_cpu_feature_name (FASTCOPY_CPU_FEATURE_COUNT) != NULL)
    fct_fail ("a name past the last feature bit");
  fct_end ();

  check_policy ();

  fct_expect (fastcopy_version () != NULL
	      && strcmp (fastcopy_version (), FC_PACKAGE_VERSION) == 0,
	      "fastcopy_version is \"%s\"", FC_PACKAGE_VERSION);
  return fct_finish ();
}
