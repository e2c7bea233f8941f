/* The FASTCOPY_1 API: CPU features, the implementation table, and what each
   exported function was bound to.  Runs after relocation, so libc is fine
   here.  */

#include <string.h>
#include "fastcopy-internal.h"

const char *
fastcopy_version (void)
{
  return PACKAGE_VERSION;
}

const struct fastcopy_cpu *
fastcopy_cpu (void)
{
  return fc_cpu_init ();
}

/* Indexed by bit number of the FASTCOPY_CPU_* flags.  */
static const char *const feature_names[FASTCOPY_CPU_FEATURE_COUNT] = {
  "SSE2", "ERMS", "FSRM", "FZLRM", "FSRS", "FSRCS",
  "AVX2", "AVX512F", "AVX512BW", "AVX512VL", "CLZERO",
};

const char *
fastcopy_cpu_feature_name (unsigned int bit)
{
  return bit < FASTCOPY_CPU_FEATURE_COUNT ? feature_names[bit] : NULL;
}

size_t
fastcopy_impl_count (void)
{
  return FC_IMPL_COUNT;
}

const struct fastcopy_impl *
fastcopy_impl_at (size_t i)
{
  return i < FC_IMPL_COUNT ? &fc_impl_table[i] : NULL;
}

const struct fastcopy_impl *
fastcopy_impl_find (enum fastcopy_family family, const char *name)
{
  for (size_t i = 0; i < FC_IMPL_COUNT; i++)
    if (fc_impl_table[i].family == family
	&& strcmp (fc_impl_table[i].name, name) == 0)
      return &fc_impl_table[i];
  return NULL;
}

int
fastcopy_impl_usable (const struct fastcopy_impl *impl)
{
  unsigned long long have = fc_cpu_init ()->features;
  return impl != NULL && (impl->requires & ~have) == 0;
}

/* Every exported standard function and its family; fastcopy_functions
   hands out the names in this order.  */
static struct fastcopy_choice choices[] = {
  { "memcpy", FASTCOPY_FAMILY_COPY, NULL, NULL },
  { "memmove", FASTCOPY_FAMILY_COPY, NULL, NULL },
  { "mempcpy", FASTCOPY_FAMILY_COPY, NULL, NULL },
  { "__mempcpy", FASTCOPY_FAMILY_COPY, NULL, NULL },
  { "__memcpy_chk", FASTCOPY_FAMILY_COPY, NULL, NULL },
  { "__memmove_chk", FASTCOPY_FAMILY_COPY, NULL, NULL },
  { "__mempcpy_chk", FASTCOPY_FAMILY_COPY, NULL, NULL },
  { "memset", FASTCOPY_FAMILY_CLEAR, NULL, NULL },
  { "bzero", FASTCOPY_FAMILY_CLEAR, NULL, NULL },
  { "explicit_bzero", FASTCOPY_FAMILY_CLEAR, NULL, NULL },
  { "__memset_chk", FASTCOPY_FAMILY_CLEAR, NULL, NULL },
  { "__explicit_bzero_chk", FASTCOPY_FAMILY_CLEAR, NULL, NULL },
};
#define NCHOICES (sizeof choices / sizeof choices[0])
static const char *function_names[NCHOICES + 1];

/* The resolvers ran during relocation; publish what they chose.  */
__attribute__ ((constructor)) static void
publish_choices (void)
{
  for (size_t i = 0; i < NCHOICES; i++)
    {
      const struct fc_selection *s = &fc_selected[choices[i].family];
      choices[i].impl = &fc_impl_table[s->impl];
      choices[i].reason = s->reason;
      function_names[i] = choices[i].function;
    }
}

const struct fastcopy_choice *
fastcopy_selected (const char *function)
{
  for (size_t i = 0; i < NCHOICES; i++)
    if (strcmp (choices[i].function, function) == 0)
      return &choices[i];
  return NULL;
}

const char *const *
fastcopy_functions (void)
{
  return function_names;
}
