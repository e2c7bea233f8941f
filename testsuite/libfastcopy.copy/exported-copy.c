/* SPDX-License-Identifier: MIT */
/* Area: copy
   Purpose: the exported copy functions of the built libfastcopy.so.1,
   found by dlsym/dlvsym (memcpy@@GLIBC_2.14, memcpy@GLIBC_2.2.5, memmove,
   mempcpy, __mempcpy): sizes 0..64 at all 64x64 alignments, 65..1024 and
   2040..2056 at sampled alignments, larger sizes to 4 MiB+7; guard pages
   and canaries as for the implementations; memcpy and memmove return dst,
   mempcpy and __mempcpy return dst + n.  */

#include "fctest.h"

int
main (void)
{
  struct fct_pair b;

  fct_init ();
  fct_pair_init (&b, FCT_LARGE_MAX, 2);

  const struct fct_copy targets[] = {
    { "memcpy", (fct_copy_fn) fct_symbol ("memcpy", NULL), FCT_RET_DST },
#ifdef __x86_64__	/* i386 has one memcpy, GLIBC_2.0 */
    { "memcpy@GLIBC_2.2.5", (fct_copy_fn) fct_symbol ("memcpy", "GLIBC_2.2.5"),
      FCT_RET_DST },
#endif
    { "memmove", (fct_copy_fn) fct_symbol ("memmove", NULL), FCT_RET_DST },
    { "mempcpy", (fct_copy_fn) fct_symbol ("mempcpy", NULL), FCT_RET_END },
    { "__mempcpy", (fct_copy_fn) fct_symbol ("__mempcpy", NULL), FCT_RET_END },
  };

  for (size_t i = 0; i < FCT_ARRAY_SIZE (targets); i++)
    {
      const struct fct_copy *t = &targets[i];
      fct_begin ("%s: sizes 0..64, all 64x64 alignments", t->name);
      fct_copy_range (t, &b, 0, 64, 1);
      fct_end ();
      fct_begin ("%s: sizes 65..1024, sampled alignments", t->name);
      fct_copy_range (t, &b, 65, 1024, 0);
      fct_end ();
      fct_begin ("%s: sizes 2040..2056, sampled alignments", t->name);
      fct_copy_range (t, &b, 2040, 2056, 0);
      fct_end ();
      fct_begin ("%s: sizes 1535..4 MiB+7, sampled alignments", t->name);
      fct_copy_list (t, &b, fct_large_sizes, FCT_ARRAY_SIZE (fct_large_sizes));
      fct_end ();
    }
  return fct_finish ();
}
