/* SPDX-License-Identifier: MIT */
/* A preload for fastcopy-sample's tests: a kernel without perf events.
   perf_event_open fails with ENOSYS; every other system call goes
   through.  */

#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <sys/syscall.h>

long
syscall (long number, ...)
{
  if (number == SYS_perf_event_open)
    {
      errno = ENOSYS;
      return -1;
    }
  long (*real) (long, ...) = (long (*) (long, ...)) dlsym (RTLD_NEXT,
							   "syscall");
  va_list ap;
  va_start (ap, number);
  long a[6];
  for (int i = 0; i < 6; i++)
    a[i] = va_arg (ap, long);
  va_end (ap);
  return real (number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
