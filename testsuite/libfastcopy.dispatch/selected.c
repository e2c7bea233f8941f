/* SPDX-License-Identifier: MIT */
/* Area: dispatch
   Purpose: what every exported function was bound to.  Arguments, from
   the table of lib/fc-classes.exp: "FAMILY=IMPL" per family (copy=fsrm
   clear=fsrm) and optionally "row=NAME", the policy row that chose them;
   others are ignored.  For each name fastcopy_functions() lists, the
   choice must name that function, be of the right family, use the
   expected implementation, from the expected row, be usable on this CPU
   and give a reason; the list must hold exactly the exported standard
   functions, each of which dlsym finds in libfastcopy; unknown names have
   no choice.  */

#include "fctest.h"

static const char *const standard[] = {
  "memcpy", "memmove", "mempcpy", "__mempcpy", "memset", "bzero",
  "explicit_bzero", "__memcpy_chk", "__memmove_chk", "__mempcpy_chk",
  "__memset_chk", "__explicit_bzero_chk",
};

static const char *const family_names[FASTCOPY_FAMILY_COUNT] = {
  [FASTCOPY_FAMILY_COPY] = "copy",
  [FASTCOPY_FAMILY_CLEAR] = "clear",
};

int
main (int argc, char **argv)
{
  const char *expected[FASTCOPY_FAMILY_COUNT] = { 0 };
  const char *row = NULL;

  fct_init ();
  for (int i = 1; i < argc; i++)
    {
      if (strncmp (argv[i], "row=", 4) == 0)
	row = argv[i] + 4;
      const char *eq = strchr (argv[i], '=');
      if (eq == NULL)
	continue;
      size_t klen = (size_t) (eq - argv[i]);
      for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
	if (strlen (family_names[f]) == klen
	    && strncmp (argv[i], family_names[f], klen) == 0)
	  expected[f] = eq + 1;
    }
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    if (fct_expect (expected[f] != NULL,
		    "the dispatch table gives an expected %s implementation", family_names[f]))
      return fct_finish ();

  const char *const *names = fastcopy_functions ();
  size_t count = 0;
  for (; names != NULL && names[count] != NULL; count++)
    {
      const char *name = names[count];
      const struct fastcopy_choice *c = fastcopy_selected (name);

      fct_begin ("%s uses %s", name,
		 c != NULL && (unsigned) c->family < FASTCOPY_FAMILY_COUNT
		 ? expected[c->family] : "the expected implementation");
      if (c == NULL)
	fct_fail ("fastcopy_selected returned NULL");
      else if (c->function == NULL || strcmp (c->function, name) != 0)
	fct_fail ("choice is for \"%s\"", c->function ? c->function : "(null)");
      else if ((unsigned) c->family >= FASTCOPY_FAMILY_COUNT || c->impl == NULL)
	fct_fail ("bad family %d or no implementation", (int) c->family);
      else
	{
	  const char *want = expected[c->family];
	  if (c->impl->family != c->family)
	    fct_fail ("implementation %s is of another family", c->impl->name);
	  if (strcmp (c->impl->name, want) != 0)
	    fct_fail ("%s function uses \"%s\", expected \"%s\" (reason: %s)",
		      family_names[c->family], c->impl->name, want,
		      c->reason ? c->reason : "none");
	  if (!fastcopy_impl_usable (c->impl))
	    fct_fail ("chosen implementation %s is not usable here",
		      c->impl->name);
	  if (c->reason == NULL || c->reason[0] == 0)
	    fct_fail ("no reason given");
	  if (row != NULL
	      && (c->policy == NULL || strcmp (c->policy->name, row) != 0))
	    fct_fail ("chosen by row %s, expected %s",
		      c->policy ? c->policy->name : "(none)", row);
	}
      fct_end ();
    }

  fct_begin ("fastcopy_functions lists exactly the exported standard "
	     "functions");
  for (size_t s = 0; s < FCT_ARRAY_SIZE (standard); s++)
    {
      size_t k = 0;
      while (k < count && strcmp (names[k], standard[s]) != 0)
	k++;
      if (k == count)
	fct_fail ("%s is missing", standard[s]);
    }
  for (size_t k = 0; k < count; k++)
    {
      size_t s = 0;
      while (s < FCT_ARRAY_SIZE (standard) && strcmp (names[k], standard[s]) != 0)
	s++;
      if (s == FCT_ARRAY_SIZE (standard))
	fct_fail ("unexpected name %s", names[k]);
    }
  fct_end ();

  fct_begin ("every listed function is exported by libfastcopy");
  for (size_t k = 0; k < count; k++)
    {
      void *h = dlopen (FC_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
      void *p = h ? dlsym (h, names[k]) : NULL;
      if (p == NULL || !fct_in_library (p))
	fct_fail ("%s not found in libfastcopy by dlsym", names[k]);
    }
  fct_end ();

  fct_expect (fastcopy_selected ("strlen") == NULL
	      && fastcopy_selected ("") == NULL,
	      "fastcopy_selected of an unknown name is NULL");
  return fct_finish ();
}
