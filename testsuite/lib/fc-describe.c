/* SPDX-License-Identifier: MIT */
/* A CPU described to libfastcopy, for the testsuite: a library preloaded
   in front of libfastcopy (lib/fc-classes.exp builds one per class of CPU
   and says how to preload it) that answers in glibc's place the two
   questions libfastcopy asks about the CPU: the CPUID leaves ld.so read
   (__x86_get_cpuid_feature_leaf) and the cache sizes (sysconf).  So the
   library's own CPU reader, policy and plan run at load for a CPU this
   machine is not; nothing here executes a variant.

   The class comes in as macros, the way /proc/cpuinfo names a CPU:
     FCD_FAMILY FCD_MODEL FCD_STEPPING   display family, model, stepping
     FCD_AMD          1 for AuthenticAMD or HygonGenuine, 0 for any other
     FCD_FLAGS        FCD_sse2 | FCD_avx2 | ... (the names below)
     FCD_MASKED       the ones CPUID reports but a GLIBC_TUNABLES hwcaps
		      mask took away (optional)
     FCD_THREADS      logical processors in the package (leaf 1's count)
     FCD_L1D FCD_L2 FCD_L3   cache sizes in bytes, 0 unknown
   Bit positions are the vendors' manuals', written here independently of
   src/load/cpu-features.c, so that the library's decoding is tested too.

   libfastcopy calls both functions while ld.so relocates it, which may be
   before this library is relocated: they read only constants and this
   file's own data, by PC-relative addresses.  */

#include <sys/platform/x86.h>
#include <unistd.h>

/* The facts a description can list.  */
#define FCD_sse2		(1ull << 0)
#define FCD_avx2		(1ull << 1)	/* with AVX, OSXSAVE, OS support */
#define FCD_bmi2		(1ull << 2)
#define FCD_erms		(1ull << 3)
#define FCD_fsrm		(1ull << 4)
#define FCD_avx512f		(1ull << 5)
#define FCD_avx512bw		(1ull << 6)
#define FCD_avx512vl		(1ull << 7)
#define FCD_avx_vnni		(1ull << 8)
#define FCD_fzlrm		(1ull << 9)
#define FCD_fsrs		(1ull << 10)
#define FCD_fsrcs		(1ull << 11)
#define FCD_clzero		(1ull << 12)
#define FCD_hypervisor		(1ull << 13)

#ifndef FCD_MASKED
# define FCD_MASKED 0
#endif
/* What CPUID says has the masked features too; what glibc lets programs
   use (its "active" bits) has not.  */
#define RAW ((FCD_FLAGS) | (FCD_MASKED))
#define ACTIVE (FCD_FLAGS)
#define IF(set, f, bit) (((set) & FCD_##f) ? 1u << (bit) : 0u)

/* Leaf 1.  EAX: stepping 3-0, model 7-4, family 11-8, extended model
   19-16 (family 6 and 15 up), extended family 27-20 (family 15 up).
   EBX 23-16: the package's logical processors, EDX 28 (HTT) when there
   are several.  */
#define BASE_FAMILY (FCD_FAMILY >= 15 ? 15u : (unsigned) FCD_FAMILY)
#define EXT_FAMILY (FCD_FAMILY >= 15 ? (unsigned) FCD_FAMILY - 15 : 0u)
#define EXT_MODEL \
  (FCD_FAMILY == 6 || FCD_FAMILY >= 15 ? (unsigned) FCD_MODEL >> 4 : 0u)
#define L1_EAX ((EXT_FAMILY << 20) | (EXT_MODEL << 16) | (BASE_FAMILY << 8) \
		| (((unsigned) FCD_MODEL & 0xf) << 4) | (unsigned) FCD_STEPPING)
#define L1_EBX (((unsigned) FCD_THREADS & 0xff) << 16)
#define L1_ECX(set) \
  (IF (set, avx2, 27) | IF (set, avx2, 28) | IF (set, hypervisor, 31))
#define L1_EDX (IF (RAW, sse2, 26) | (FCD_THREADS > 1 ? 1u << 28 : 0u))
/* Leaf 7, subleaves 0 and 1.  */
#define L7_EBX(set) \
  (IF (set, avx2, 5) | IF (set, bmi2, 8) | IF (set, erms, 9)		\
   | IF (set, avx512f, 16) | IF (set, avx512bw, 30) | IF (set, avx512vl, 31))
#define L7_EDX(set) IF (set, fsrm, 4)
#define L7_1_EAX(set) \
  (IF (set, avx_vnni, 4) | IF (set, fzlrm, 10) | IF (set, fsrs, 11)	\
   | IF (set, fsrcs, 12))
/* Leaf 0x80000001's ECX: what every CPU of the vendor reports.  Intel's:
   LAHF (0), LZCNT (5), PREFETCHW (8); AMD's (and Hygon's) since 2007 add
   SSE4A (6) and misaligned SSE (7).  */
#define X1_ECX (FCD_AMD ? 0x1e1u : 0x121u)
#define X8_EBX(set) IF (set, clzero, 0)

/* glibc's active words hold only what it manages: not the hypervisor
   bit, nor HTT.  */
static const struct cpuid_feature leaves[CPUID_INDEX_14_ECX_0 + 1] = {
  [CPUID_INDEX_1] = { { L1_EAX, L1_EBX, L1_ECX (RAW), L1_EDX },
		      { 0, 0, L1_ECX (ACTIVE) & ~(1u << 31),
			IF (ACTIVE, sse2, 26) } },
  [CPUID_INDEX_7] = { { 0, L7_EBX (RAW), 0, L7_EDX (RAW) },
		      { 0, L7_EBX (ACTIVE), 0, L7_EDX (ACTIVE) } },
  [CPUID_INDEX_7_ECX_1] = { { L7_1_EAX (RAW), 0, 0, 0 },
			    { L7_1_EAX (ACTIVE), 0, 0, 0 } },
  [CPUID_INDEX_80000001] = { { 0, 0, X1_ECX, 0 }, { 0, 0, X1_ECX, 0 } },
  [CPUID_INDEX_80000008] = { { 0, X8_EBX (RAW), 0, 0 },
			     { 0, X8_EBX (ACTIVE), 0, 0 } },
};
static const struct cpuid_feature no_leaf;

const struct cpuid_feature *
__x86_get_cpuid_feature_leaf (unsigned int index)
{
  return index < sizeof leaves / sizeof leaves[0] ? &leaves[index] : &no_leaf;
}

/* The cache sizes; every other name is glibc's.  */
extern long int __sysconf (int);

long int
sysconf (int name)
{
  if (name == _SC_LEVEL1_DCACHE_SIZE)
    return FCD_L1D;
  if (name == _SC_LEVEL2_CACHE_SIZE)
    return FCD_L2;
  if (name == _SC_LEVEL3_CACHE_SIZE)
    return FCD_L3;
  return __sysconf (name);
}
