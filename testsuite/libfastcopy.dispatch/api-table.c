/* Area: dispatch
   Purpose: the implementation table and the rest of the FASTCOPY_1 API are
   consistent: fastcopy_impl_at is NULL exactly from fastcopy_impl_count
   on; every entry has a name unique within its family, a summary, and the
   function pointer of its family only; fastcopy_impl_find returns the
   same entry and NULL for unknown names; each family has a usable entry
   that needs no CPU feature (the fallback); feature names are defined up
   to the last bit; fastcopy_version is the package version.  */

#include "fctest.h"

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

  fct_expect (fastcopy_version () != NULL
	      && strcmp (fastcopy_version (), FC_PACKAGE_VERSION) == 0,
	      "fastcopy_version is \"%s\"", FC_PACKAGE_VERSION);
  return fct_finish ();
}
