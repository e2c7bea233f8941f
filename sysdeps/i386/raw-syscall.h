/* SPDX-License-Identifier: MIT */
/* System calls for the code that runs before libc is ready
   (src/load/settings.c): INT 0x80, the i386 system call gate (the vDSO's faster
   entry would need the auxiliary vector, and these few calls run once per
   process), and the kernel's struct stat64, whose uid and size are wide
   where the old struct stat's are 16 and 32 bits.  They return the
   kernel's value: -errno on failure.  EBX carries the first argument even
   in position-independent code: GCC saves and restores it around the asm
   when it holds the GOT address.  */

#ifndef FASTCOPY_RAW_SYSCALL_H
#define FASTCOPY_RAW_SYSCALL_H 1

#include <sys/syscall.h>

static FC_EARLY long
sys3 (long nr, long a, long b, long c)
{
  long ret;
  __asm__ volatile ("int $0x80"
		    : "=a" (ret)
		    : "0" (nr), "b" (a), "c" (b), "d" (c)
		    : "memory");
  return ret;
}

static FC_EARLY long
sys4 (long nr, long a, long b, long c, long d)
{
  long ret;
  __asm__ volatile ("int $0x80"
		    : "=a" (ret)
		    : "0" (nr), "b" (a), "c" (b), "d" (c), "S" (d)
		    : "memory");
  return ret;
}

#define FC_SYS_FSTAT SYS_fstat64

/* The kernel's struct stat64 for i386: 96 bytes, 64-bit members 4-byte
   aligned as the i386 ABI lays them out.  */
struct fc_kstat
{
  unsigned long long dev;
  unsigned int pad0, short_ino;
  unsigned int mode, nlink, uid, gid;
  unsigned long long rdev;
  unsigned int pad3;
  long long size;
  unsigned int blksize;
  unsigned long long blocks;
  unsigned int times[6];
  unsigned long long ino;
};
_Static_assert (sizeof (struct fc_kstat) == 96, "struct stat64 of i386");

#endif
