/* libfastcopy: CPU-dispatched memcpy/memmove/memset family for x86-64 GNU/Linux.

   The library exports the standard names (memcpy, memmove, mempcpy, memset,
   bzero, explicit_bzero and the fortified __*_chk forms) with glibc's symbol
   versions, so that loading it (LD_PRELOAD, /etc/ld.so.preload or -lfastcopy)
   replaces glibc's.  This header declares the library's own API, version node
   FASTCOPY_1: the CPU features it detected, the table of implementations, and
   which implementation each exported function uses and why.  */

#ifndef FASTCOPY_H
#define FASTCOPY_H 1

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Function families: every exported function belongs to one.  */
enum fastcopy_family
{
  FASTCOPY_FAMILY_COPY = 0,	/* memmove, memcpy, mempcpy and their _chk forms */
  FASTCOPY_FAMILY_CLEAR = 1	/* memset, bzero, explicit_bzero and _chk forms */
};
#define FASTCOPY_FAMILY_COUNT 2

/* Copy implementations have memmove's semantics (overlap-safe) and return
   DST; clear implementations have memset's and return DST.  */
typedef void *(*fastcopy_copy_fn) (void *dst, const void *src, size_t n);
typedef void *(*fastcopy_clear_fn) (void *dst, int c, size_t n);

/* CPU features that matter to the library, as bits of fastcopy_cpu.features.
   A vector feature is reported only when the OS also enables its register
   state (XGETBV), i.e. when code using it can run.  */
#define FASTCOPY_CPU_SSE2	(1ull << 0)
#define FASTCOPY_CPU_ERMS	(1ull << 1)	/* Enhanced REP MOVSB/STOSB */
#define FASTCOPY_CPU_FSRM	(1ull << 2)	/* Fast Short REP MOV */
#define FASTCOPY_CPU_FZLRM	(1ull << 3)	/* Fast Zero-Length REP MOVSB */
#define FASTCOPY_CPU_FSRS	(1ull << 4)	/* Fast Short REP STOSB */
#define FASTCOPY_CPU_FSRCS	(1ull << 5)	/* Fast Short REP CMPSB/SCASB */
#define FASTCOPY_CPU_AVX2	(1ull << 6)
#define FASTCOPY_CPU_AVX512F	(1ull << 7)
#define FASTCOPY_CPU_AVX512BW	(1ull << 8)
#define FASTCOPY_CPU_AVX512VL	(1ull << 9)
#define FASTCOPY_CPU_CLZERO	(1ull << 10)
#define FASTCOPY_CPU_FEATURE_COUNT 11

struct fastcopy_cpu
{
  char vendor[13];		/* "AuthenticAMD", "GenuineIntel", ... */
  unsigned int family;		/* display family, model and stepping */
  unsigned int model;
  unsigned int stepping;
  unsigned long long features;	/* FASTCOPY_CPU_* bits */
  unsigned long l1d_size;	/* data cache sizes in bytes; 0 = unknown */
  unsigned long l2_size;
  unsigned long l3_size;
};

/* The CPU as libfastcopy saw it when it was loaded.  Never NULL.  */
const struct fastcopy_cpu *fastcopy_cpu (void);

/* Name of feature bit number BIT ("ERMS"), or NULL past the last one.  */
const char *fastcopy_cpu_feature_name (unsigned int bit);

/* One implementation of one family.  */
struct fastcopy_impl
{
  const char *name;		/* unique within its family: "fsrm", "erms"... */
  enum fastcopy_family family;
  const char *summary;		/* one line: the strategy */
  unsigned long long requires;	/* FASTCOPY_CPU_* bits it needs to run */
  fastcopy_copy_fn copy;	/* set for FASTCOPY_FAMILY_COPY */
  fastcopy_clear_fn clear;	/* set for FASTCOPY_FAMILY_CLEAR */
};

/* The implementation table: every implementation of every family, usable
   here or not.  fastcopy_impl_at returns NULL for I >= fastcopy_impl_count.  */
size_t fastcopy_impl_count (void);
const struct fastcopy_impl *fastcopy_impl_at (size_t i);
const struct fastcopy_impl *fastcopy_impl_find (enum fastcopy_family family,
						const char *name);

/* Nonzero when this CPU (and OS) can run IMPL.  */
int fastcopy_impl_usable (const struct fastcopy_impl *impl);

/* What an exported function was bound to when the library was loaded.  */
struct fastcopy_choice
{
  const char *function;		/* "memcpy", "__memset_chk", ... */
  enum fastcopy_family family;
  const struct fastcopy_impl *impl;
  const char *reason;		/* why: the rule that chose it */
};

/* The choice for exported function FUNCTION, or NULL if the library exports
   no such function.  */
const struct fastcopy_choice *fastcopy_selected (const char *function);

/* The exported function names, in a fixed order, NULL-terminated.  */
const char *const *fastcopy_functions (void);

/* The library's version, "MAJOR.MINOR.PATCH".  */
const char *fastcopy_version (void);

#ifdef __cplusplus
}
#endif

#endif /* fastcopy.h */
