/* SPDX-License-Identifier: MIT */
/* Area: config
   Purpose: the settings this process got from the configuration file and
   FASTCOPY, checked against expectations given as arguments, and the
   exported functions still correct with them: sizes on both sides of every
   effective threshold, small sizes, overlaps.  Arguments:
     KEY=VALUE@ORIGIN  setting KEY has VALUE ("*": any) and ORIGIN:
		       default, file:LINE, env:ITEM, api or "*" (any)
     impl.copy=NAME    memmove and memcpy use implementation NAME
     impl.clear=NAME   memset and bzero use NAME
     reason.copy=TEXT  memmove's reason contains TEXT (also reason.clear)
     diags=N           N diagnostics were recorded at load
     diag=TEXT         one of them, as "ORIGIN[:LINE| item N]: MESSAGE",
		       contains TEXT
     file=STATE env=STATE   fastcopy_config_state: none, absent, used,
		       rejected / unset, used, rejected, ignored
     secure=0|1        secure execution
     path=PATH         the configuration file this process read or tried
     set=ITEMS         fastcopy_set (ITEMS) must succeed; later KEY=...
		       expectations and the copies see its effect
     refuse=ITEMS      fastcopy_set (ITEMS) must refuse every item
     nocopies          no copies: the implementations chosen may be ones
		       this machine cannot run (a described CPU,
		       lib/fc-classes.exp)
   Every argument is one check; the copies are checked last.  */

#include "fctest.h"

static const char *
diag_text (const struct fastcopy_diagnostic *d, char *buf, size_t size)
{
  if (d->line == 0)
    snprintf (buf, size, "%s: %s%s", d->origin,
	      d->severity == FASTCOPY_WARNING ? "warning: " : "", d->message);
  else
    snprintf (buf, size, d->source == FASTCOPY_SOURCE_FILE
		       ? "%s:%u: %s%s" : "%s item %u: %s%s",
	      d->origin, d->line,
	      d->severity == FASTCOPY_WARNING ? "warning: " : "", d->message);
  return buf;
}

static const char *const file_states[] = { "none", "absent", "used",
					   "rejected" };
static const char *const env_states[] = { "unset", "used", "rejected",
					  "ignored" };

/* KEY=VALUE@ORIGIN.  */
static void
check_setting (const char *arg)
{
  char key[64], value[64], origin[64];
  const char *eq = strchr (arg, '='), *at = strrchr (arg, '@');
  if (eq == NULL || at == NULL || at < eq
      || (size_t) (eq - arg) >= sizeof key)
    {
      fct_expect (0, "argument '%s' is KEY=VALUE@ORIGIN", arg);
      return;
    }
  snprintf (key, sizeof key, "%.*s", (int) (eq - arg), arg);
  snprintf (value, sizeof value, "%.*s", (int) (at - eq - 1), eq + 1);
  snprintf (origin, sizeof origin, "%s", at + 1);

  fct_begin ("setting %s is %s from %s", key, value, origin);
  const struct fastcopy_setting *s = fastcopy_setting_find (key);
  if (s == NULL)
    fct_fail ("fastcopy_setting_find (\"%s\") is NULL", key);
  else
    {
      if (strcmp (value, "*") != 0 && strcmp (s->value, value) != 0)
	fct_fail ("value is %s", s->value);
      char want[80];
      unsigned line = 0;
      enum fastcopy_source src = FASTCOPY_SOURCE_DEFAULT;
      if (sscanf (origin, "file:%u", &line) == 1)
	src = FASTCOPY_SOURCE_FILE;
      else if (sscanf (origin, "env:%u", &line) == 1)
	src = FASTCOPY_SOURCE_ENV;
      else if (strcmp (origin, "api") == 0)
	src = FASTCOPY_SOURCE_API;
      else if (strcmp (origin, "*") == 0)
	src = s->source, line = s->line;
      else if (strcmp (origin, "default") != 0)
	fct_fail ("unknown origin %s", origin);
      if (s->source != src || s->line != line)
	fct_fail ("origin is %s (source %d, line %u)", s->origin,
		  (int) s->source, s->line);
      snprintf (want, sizeof want, "FASTCOPY item %u", line);
      if (src == FASTCOPY_SOURCE_ENV && strcmp (s->origin, want) != 0)
	fct_fail ("origin text is %s", s->origin);
      if (src == FASTCOPY_SOURCE_DEFAULT && strcmp (s->value, s->default_value))
	fct_fail ("default setting %s differs from its default %s",
		  s->value, s->default_value);
    }
  fct_end ();
}

static const struct fastcopy_choice *
choice_of (const char *family)
{
  return fastcopy_selected (strcmp (family, "copy") == 0 ? "memmove"
			    : "memset");
}

static void
check_arg (const char *arg)
{
  const struct fastcopy_config_state *cs = fastcopy_config_state ();
  char buf[1200];
  if (strncmp (arg, "impl.", 5) == 0)
    {
      char fam[16];
      const char *eq = strchr (arg, '=');
      snprintf (fam, sizeof fam, "%.*s", eq ? (int) (eq - arg - 5) : 0,
		arg + 5);
      const char *want = eq ? eq + 1 : "";
      const char *fns[2][3] = { { "memmove", "memcpy", "__memcpy_chk" },
				{ "memset", "bzero", "__memset_chk" } };
      int f = strcmp (fam, "copy") == 0 ? 0 : 1;
      fct_begin ("%s functions use %s", fam, want);
      for (int i = 0; i < 3; i++)
	{
	  const struct fastcopy_choice *c = fastcopy_selected (fns[f][i]);
	  if (c == NULL || strcmp (c->impl->name, want) != 0)
	    fct_fail ("%s uses %s (%s)", fns[f][i], c ? c->impl->name : "?",
		      c ? c->reason : "");
	  else if (!fastcopy_impl_usable (c->impl))
	    fct_fail ("%s is not usable here", c->impl->name);
	}
      fct_end ();
    }
  else if (strncmp (arg, "reason.", 7) == 0)
    {
      char fam[16];
      const char *eq = strchr (arg, '=');
      snprintf (fam, sizeof fam, "%.*s", eq ? (int) (eq - arg - 7) : 0,
		arg + 7);
      const struct fastcopy_choice *c = choice_of (fam);
      fct_expect (eq && c && strstr (c->reason, eq + 1) != NULL,
		  "%s reason contains \"%s\" (it is \"%s\")", fam,
		  eq ? eq + 1 : "", c ? c->reason : "");
    }
  else if (strncmp (arg, "diags=", 6) == 0)
    {
      size_t want = strtoul (arg + 6, NULL, 10);
      if (fct_expect (fastcopy_diagnostic_count () == want,
		      "%zu diagnostics (got %zu)", want,
		      fastcopy_diagnostic_count ()))
	for (size_t i = 0; i < fastcopy_diagnostic_count (); i++)
	  printf ("  detail: %s\n", diag_text (fastcopy_diagnostic_at (i),
					       buf, sizeof buf));
    }
  else if (strncmp (arg, "diag=", 5) == 0)
    {
      int found = 0;
      for (size_t i = 0; i < fastcopy_diagnostic_count (); i++)
	found |= strstr (diag_text (fastcopy_diagnostic_at (i), buf,
				    sizeof buf), arg + 5) != NULL;
      if (fct_expect (found, "a diagnostic says \"%s\"", arg + 5))
	for (size_t i = 0; i < fastcopy_diagnostic_count (); i++)
	  printf ("  detail: %s\n", diag_text (fastcopy_diagnostic_at (i),
					       buf, sizeof buf));
    }
  else if (strncmp (arg, "file=", 5) == 0)
    fct_expect (strcmp (file_states[cs->file], arg + 5) == 0,
		"configuration file state is %s (got %s)", arg + 5,
		file_states[cs->file]);
  else if (strncmp (arg, "env=", 4) == 0)
    fct_expect (strcmp (env_states[cs->env], arg + 4) == 0,
		"FASTCOPY state is %s (got %s)", arg + 4,
		env_states[cs->env]);
  else if (strncmp (arg, "secure=", 7) == 0)
    fct_expect (cs->secure == atoi (arg + 7), "secure execution is %s "
		"(got %d)", arg + 7, cs->secure);
  else if (strncmp (arg, "path=", 5) == 0)
    fct_expect (strcmp (cs->path, arg + 5) == 0,
		"configuration file is %s (got %s)", arg + 5, cs->path);
  else if (strncmp (arg, "set=", 4) == 0)
    fct_expect (fastcopy_set (arg + 4, NULL, NULL) == 0,
		"fastcopy_set (\"%s\") applies", arg + 4);
  else if (strncmp (arg, "refuse=", 7) == 0)
    {
      int items = 1;
      for (const char *p = arg + 7; *p; p++)
	items += *p == ',';
      fct_expect (fastcopy_set (arg + 7, NULL, NULL) == items,
		  "fastcopy_set (\"%s\") refuses %d item%s", arg + 7, items,
		  items == 1 ? "" : "s");
    }
  else if (strcmp (arg, "nocopies") == 0)
    ;
  else if (strchr (arg, '@') != NULL)
    check_setting (arg);
  else
    fct_expect (0, "argument '%s' is understood", arg);
}

/* Sizes on both sides of each effective threshold, up to MAX.  */
static size_t
threshold_sizes (size_t *out, size_t cap, size_t max)
{
  static const char *const keys[] = { "rep_movsb_threshold",
				       "copy_nt_threshold",
				       "rep_stosb_threshold",
				       "clear_nt_threshold" };
  size_t n = 0;
  for (size_t k = 0; k < FCT_ARRAY_SIZE (keys); k++)
    {
      const struct fastcopy_setting *s = fastcopy_setting_find (keys[k]);
      if (s == NULL || s->number == FASTCOPY_NEVER || s->number > max)
	continue;
      for (long d = -65; d <= 65; d += 65)
	{
	  long long v = (long long) s->number + d;
	  if (v >= 0 && (size_t) v <= max && n < cap)
	    out[n++] = (size_t) v;
	}
    }
  return n;
}

int
main (int argc, char **argv)
{
  int copy_too = 1;
  fct_init ();
  for (int i = 1; i < argc; i++)
    {
      check_arg (argv[i]);
      copy_too &= strcmp (argv[i], "nocopies") != 0;
    }
  if (!copy_too)
    return fct_finish ();

  enum { MAX = 4u << 20 };
  struct fct_pair b;
  struct fct_region r;
  fct_pair_init (&b, MAX + 4096, 7);
  fct_region_init (&r, MAX + 4096);
  size_t sizes[64];
  size_t nsizes = threshold_sizes (sizes, FCT_ARRAY_SIZE (sizes), MAX);
  static const size_t fixed[] = { 0, 1, 7, 16, 31, 33, 64, 100, 255, 257,
				  511, 1000, 2047, 2048, 4097, 65537, 1048577 };

  const struct fct_copy copies[] = {
    { "memcpy", (fct_copy_fn) fct_symbol ("memcpy", NULL), FCT_RET_DST },
    { "memmove", (fct_copy_fn) fct_symbol ("memmove", NULL), FCT_RET_DST },
  };
  for (size_t i = 0; i < FCT_ARRAY_SIZE (copies); i++)
    {
      fct_begin ("%s: small, large and threshold sizes", copies[i].name);
      fct_copy_list (&copies[i], &b, fixed, FCT_ARRAY_SIZE (fixed));
      fct_copy_list (&copies[i], &b, sizes, nsizes);
      fct_end ();
    }
  const struct fct_copy mm = copies[1];
  unsigned char *scratch = malloc (FCT_OVERLAP_MAX);
  fct_begin ("memmove: overlaps in both directions");
  fct_overlap_sweep (&mm, &r, scratch, 20, 40, 1);
  fct_end ();
  free (scratch);

  const struct fct_clear clears[] = {
    { "memset", (fct_clear_fn) fct_symbol ("memset", NULL), FCT_RET_DST, 0 },
  };
  fct_begin ("memset: small, large and threshold sizes");
  for (size_t i = 0; i < FCT_ARRAY_SIZE (fixed); i++)
    fct_clear_size (&clears[0], &r, fixed[i], FCT_CLEAR_SAMPLE);
  for (size_t i = 0; i < nsizes; i++)
    fct_clear_size (&clears[0], &r, sizes[i], FCT_CLEAR_SAMPLE);
  fct_end ();
  return fct_finish ();
}
