/* SPDX-License-Identifier: MIT */
/* startup-cost: one of the things loading libfastcopy does, alone in an
   otherwise empty library, so that fastcopy-startup can show what each
   costs a process start against the empty library (make
   bench-startup-breakdown; doc/performance.md, "Process start").  bench.am builds
   it once per cost, with -DCOST_<name>, linked as libfastcopy is (-z relro
   -z now):
     bss      a 64 KiB zero-initialised object: the dynamic loader maps
              anonymous memory for the part past the file
     imports  the 27 libc functions libfastcopy imports, bound at load
              (-z now)
     ifunc    two IRELATIVE slots whose resolvers return at once
     cpuid    one CPUID instruction (leaf 0, the vendor) in a resolver
     openat   an openat of a file that does not exist, in a resolver
     tls      an initial-exec thread-local word (STATIC_TLS)
     written  a page written at load (by a resolver)
     ctor     two initializers that return at once
     relocs   a table of 100 pointers (100 RELATIVE relocations)  */

#define _GNU_SOURCE 1
#include <stddef.h>

typedef void fn (void);
static void __attribute__ ((unused)) nothing (void) { }

#if defined COST_bss
char cost_bss[64 << 10];
char *cost_use (void) { return cost_bss; }
#endif

#if defined COST_imports
# include <pthread.h>
# include <sched.h>
# include <signal.h>
# include <stdio.h>
# include <stdlib.h>
# include <string.h>
# include <sys/auxv.h>
# include <sys/mman.h>
# include <sys/platform/x86.h>
# include <time.h>
# include <unistd.h>
# include <errno.h>
# include <fcntl.h>
/* glibc's, exported but not declared in its headers.  */
extern void __chk_fail (void);
extern int __cxa_atexit (void (*) (void *), void *, void *);
extern int __register_atfork (void (*) (void), void (*) (void),
			      void (*) (void), void *);
void *cost_imports[] = {
  (void *) getenv, (void *) free, (void *) __errno_location,
  (void *) sigaction, (void *) clock_gettime, (void *) write,
  (void *) getpid, (void *) strlen, (void *) mmap, (void *) snprintf,
  (void *) pthread_key_create, (void *) close, (void *) __chk_fail,
  (void *) __register_atfork, (void *) sched_yield, (void *) read,
  (void *) calloc, (void *) strcmp, (void *) sigemptyset,
  (void *) getauxval, (void *) mprotect, (void *) open, (void *) sysconf,
  (void *) __cxa_atexit, (void *) strerror, (void *) pthread_setspecific,
  (void *) __x86_get_cpuid_feature_leaf
};
#endif

#if defined COST_ifunc || defined COST_cpuid || defined COST_openat \
    || defined COST_written
# if defined COST_written
static char page[4096] __attribute__ ((aligned (4096)));
# endif
static fn *
resolve (void)
{
# if defined COST_cpuid
  unsigned int a = 0, b, c = 0, d;
  __asm__ volatile ("cpuid" : "+a" (a), "=b" (b), "+c" (c), "=d" (d));
# elif defined COST_openat && defined __x86_64__
  long r;
  __asm__ volatile ("syscall" : "=a" (r)
		    : "0" (257L), "D" (-100L),
		      "S" ("/nonexistent/fastcopy.conf"), "d" (0L)
		    : "rcx", "r11", "memory");
# elif defined COST_openat
  long r;
  __asm__ volatile ("int $0x80" : "=a" (r)
		    : "0" (295L), "b" (-100L),
		      "c" ("/nonexistent/fastcopy.conf"), "d" (0L)
		    : "memory");
# elif defined COST_written
  page[0] = 1;
# endif
  return nothing;
}
/* Slots initialised with local IFUNC symbols: IRELATIVE relocations, as
   libfastcopy's dispatch slots.  */
static void local_a (void) __attribute__ ((ifunc ("resolve")));
static void local_b (void) __attribute__ ((ifunc ("resolve")));
fn *const cost_slots[2] = { local_a, local_b };
#endif

#if defined COST_tls
__thread long cost_tls_word __attribute__ ((tls_model ("initial-exec")));
long cost_tls (void) { return cost_tls_word++; }
#endif

#if defined COST_ctor
__attribute__ ((constructor)) static void first (void) { }
__attribute__ ((constructor)) static void second (void) { }
#endif

#if defined COST_relocs
# define P4 (fn *) nothing, (fn *) nothing, (fn *) nothing, (fn *) nothing
# define P20 P4, P4, P4, P4, P4
fn *const cost_relocs[100] = { P20, P20, P20, P20, P20 };
#endif
