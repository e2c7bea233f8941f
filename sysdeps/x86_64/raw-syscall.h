/* SPDX-License-Identifier: MIT */
/* System calls for the code that runs before libc is ready
   (src/load/settings.c): the SYSCALL instruction, and the kernel's struct stat
   of x86-64.  They return the kernel's value: -errno on failure.  */

#ifndef FASTCOPY_RAW_SYSCALL_H
#define FASTCOPY_RAW_SYSCALL_H 1

#include <sys/syscall.h>

static FC_EARLY long
sys3 (long nr, long a, long b, long c)
{
  long ret;
  __asm__ volatile ("syscall"
		    : "=a" (ret)
		    : "0" (nr), "D" (a), "S" (b), "d" (c)
		    : "rcx", "r11", "memory");
  return ret;
}

static FC_EARLY long
sys4 (long nr, long a, long b, long c, long d)
{
  long ret;
  register long r10 __asm__ ("r10") = d;
  __asm__ volatile ("syscall"
		    : "=a" (ret)
		    : "0" (nr), "D" (a), "S" (b), "d" (c), "r" (r10)
		    : "rcx", "r11", "memory");
  return ret;
}

#define FC_SYS_FSTAT SYS_fstat

struct fc_kstat
{
  unsigned long dev, ino, nlink;
  unsigned int mode, uid, gid, pad0;
  unsigned long rdev;
  long size, blksize, blocks;
  unsigned long times[6];
  long unused[3];
};

#endif
