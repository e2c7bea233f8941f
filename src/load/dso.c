/* SPDX-License-Identifier: MIT */
/* What gcc's crtbeginS.o gives a shared object, for the library links
   without it (Makefile.am, -nostartfiles): __dso_handle, by which glibc
   ties the atexit and pthread_atfork handlers a recording registers to
   this object, and the destructor that drops them when the object is
   unloaded.  crtbeginS would bind __cxa_finalize and look up three weak
   symbols that are never there (_ITM_registerTMCloneTable,
   _ITM_deregisterTMCloneTable, __gmon_start__) in every process start,
   and add a .bss byte whose page the dynamic loader then zeroes; here
   __cxa_finalize is a lazily bound call, made at exit or dlclose only.  */

#include "fastcopy-internal.h"

FC_HIDDEN void *__dso_handle = &__dso_handle;

extern void __cxa_finalize (void *dso);

__attribute__ ((destructor)) static void
finalize (void)
{
  __cxa_finalize (__dso_handle);
}
