/* fastcopy-info: what libfastcopy sees on this machine and what it chose.  */

#include <stdio.h>
#include <string.h>
#include "fastcopy.h"

static const char *
family_name (enum fastcopy_family f)
{
  return f == FASTCOPY_FAMILY_COPY ? "copy" : "clear";
}

static void
print_size (const char *label, unsigned long bytes)
{
  if (bytes == 0)
    printf ("  %-4s unknown\n", label);
  else
    printf ("  %-4s %lu KiB\n", label, bytes >> 10);
}

int
main (int argc, char **argv)
{
  if (argc > 1 && strcmp (argv[1], "--version") == 0)
    {
      printf ("fastcopy-info (libfastcopy) %s\n", fastcopy_version ());
      return 0;
    }
  if (argc > 1)
    {
      fprintf (stderr, "usage: fastcopy-info [--version]\n");
      return 2;
    }

  const struct fastcopy_cpu *cpu = fastcopy_cpu ();
  printf ("libfastcopy %s\n\n", fastcopy_version ());
  printf ("CPU: %s family %u model %u stepping %u\n", cpu->vendor,
	  cpu->family, cpu->model, cpu->stepping);
  printf ("features:");
  for (unsigned int b = 0; fastcopy_cpu_feature_name (b) != NULL; b++)
    if (cpu->features & (1ull << b))
      printf (" %s", fastcopy_cpu_feature_name (b));
  printf ("\ncaches:\n");
  print_size ("L1d", cpu->l1d_size);
  print_size ("L2", cpu->l2_size);
  print_size ("L3", cpu->l3_size);

  printf ("\nimplementations:\n");
  for (size_t i = 0; i < fastcopy_impl_count (); i++)
    {
      const struct fastcopy_impl *impl = fastcopy_impl_at (i);
      printf ("  %-5s %-8s %-10s %s\n", family_name (impl->family), impl->name,
	      fastcopy_impl_usable (impl) ? "usable" : "not-usable",
	      impl->summary);
    }

  printf ("\nselected:\n");
  for (const char *const *f = fastcopy_functions (); *f != NULL; f++)
    {
      const struct fastcopy_choice *c = fastcopy_selected (*f);
      printf ("  %-21s %-8s %s\n", c->function, c->impl->name, c->reason);
    }
  return 0;
}
