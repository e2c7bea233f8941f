/* SPDX-License-Identifier: MIT */
/* The one place that learns the CPU.

   Everything comes from what glibc computed before the library was
   loaded: the CPUID leaves ld.so read (<sys/platform/x86.h>, glibc 2.33
   and later), with its GLIBC_TUNABLES=glibc.cpu.hwcaps masks applied, and
   the cache sizes sysconf reports from the same data (read when a row's
   threshold is a fraction of the L3, or a tool asks: the call touches a
   page of libc no other part of a process start does).  So loading the
   library runs no CPUID instruction: in a virtual machine each one exits
   to the hypervisor, and costs 1 to 10 us there (doc/performance.md,
   "Process start").  Only a glibc without the hwcaps call (older than
   2.33) makes the library run CPUID itself, for the same leaves.

   What glibc does not keep is derived from what it does:
   - the vendor: AMD when leaf 0x80000001's ECX has a bit that Intel's
     manual leaves reserved (every AMD and Hygon CPU since 2007 reports
     SSE4A there, and most of them more) or leaf 0x80000008 has CLZERO;
     any other CPU is Intel's class, which is what glibc's thresholds do
     on Zhaoxin and Centaur CPUs too (doc/design.md);
   - the logical processors that share the L3: the package's count of
     leaf 1 (EBX bits 23-16, when EDX says HTT).  On Intel the L3 is the
     package's; elsewhere the count can only be larger than the L3's
     sharers, and the policy's quarter-of-the-L3 floor (policy.c) keeps
     that from mattering from 4 sharers on.

   fc_cpu_init runs first inside an IFUNC resolver, while ld.so is still
   relocating libfastcopy: no libc but glibc's two calls below, no PLT,
   no data that needs a relocation.  Both calls go through GOT entries,
   which ld.so fills (GLOB_DAT) before it applies the IRELATIVE
   relocations that run the resolvers; libc, a dependency, is relocated
   before the library, and sysconf's cache figures are a read of ld.so's
   data there (glibc's sysdeps/x86/cacheinfo.c).  build.exp checks that
   these are the only two.  */

#include <unistd.h>
#include "load-state.h"

struct regs
{
  unsigned int eax, ebx, ecx, edx;
};

static int
bit (unsigned int word, int n)
{
  return (word >> n) & 1;
}

/* The CPUID facts the library uses.  RAW words are what CPUID says;
   the feature words are what may be used: glibc's "active" bits, or
   CPUID's checked against the register state the OS saves (XCR0).  */
struct leaves
{
  unsigned int l1_eax, l1_ebx, l1_ecx_raw, l1_edx_raw;	/* raw */
  unsigned int l1_ecx, l1_edx;		/* features */
  unsigned int l7_ebx, l7_edx, l7_1_eax;	/* features */
  unsigned int ext1_ecx, ext8_ebx;	/* raw: leaves 0x80000001, 0x80000008 */
};

/* FC_CPUID_ONLY: the reader of a glibc without the call, which the
   testsuite builds to check it (libfastcopy.startup/cpu-reader.c).  */
#if HAVE___X86_GET_CPUID_FEATURE_LEAF && !defined FC_CPUID_ONLY
# include <sys/platform/x86.h>
/* Weak: a glibc without the call leaves it null, and CPUID does the
   work.  */
# pragma weak __x86_get_cpuid_feature_leaf
extern __typeof (__x86_get_cpuid_feature_leaf) __x86_get_cpuid_feature_leaf
  __attribute__ ((noplt));

static FC_EARLY int
leaves_from_glibc (struct leaves *l)
{
  if (__x86_get_cpuid_feature_leaf == 0)
    return 0;
  const struct cpuid_feature *f1 = __x86_get_cpuid_feature_leaf (CPUID_INDEX_1);
  const struct cpuid_feature *f7 = __x86_get_cpuid_feature_leaf (CPUID_INDEX_7);
  const struct cpuid_feature *f71
    = __x86_get_cpuid_feature_leaf (CPUID_INDEX_7_ECX_1);
  const struct cpuid_feature *f81
    = __x86_get_cpuid_feature_leaf (CPUID_INDEX_80000001);
  const struct cpuid_feature *f88
    = __x86_get_cpuid_feature_leaf (CPUID_INDEX_80000008);
  l->l1_eax = f1->cpuid_array[0];
  l->l1_ebx = f1->cpuid_array[1];
  l->l1_ecx_raw = f1->cpuid_array[2];
  l->l1_edx_raw = f1->cpuid_array[3];
  l->l1_ecx = f1->active_array[2];
  l->l1_edx = f1->active_array[3];
  l->l7_ebx = f7->active_array[1];
  l->l7_edx = f7->active_array[3];
  l->l7_1_eax = f71->active_array[0];
  l->ext1_ecx = f81->cpuid_array[2];
  l->ext8_ebx = f88->cpuid_array[1];
  return 1;
}
#else
static FC_EARLY int
leaves_from_glibc (struct leaves *l)
{
  (void) l;
  return 0;
}
#endif

/* The fallback, for a glibc without the hwcaps call.  */
static FC_EARLY struct regs
cpuid (unsigned int leaf, unsigned int subleaf)
{
  struct regs r;
  __asm__ volatile ("cpuid"
		    : "=a" (r.eax), "=b" (r.ebx), "=c" (r.ecx), "=d" (r.edx)
		    : "a" (leaf), "c" (subleaf));
  return r;
}

static FC_EARLY unsigned long long
xgetbv0 (void)
{
  unsigned int lo, hi;
  __asm__ volatile ("xgetbv" : "=a" (lo), "=d" (hi) : "c" (0));
  return ((unsigned long long) hi << 32) | lo;
}

/* XCR0 state components.  */
#define XCR0_SSE_YMM	0x06ull		/* XMM and upper YMM */
#define XCR0_AVX512	0xe0ull		/* opmask, upper ZMM0-15, ZMM16-31 */

static FC_EARLY void
leaves_from_cpuid (struct leaves *l)
{
  unsigned int max_leaf = cpuid (0, 0).eax;
  struct regs r1 = cpuid (1, 0);
  l->l1_eax = r1.eax;
  l->l1_ebx = r1.ebx;
  l->l1_ecx_raw = r1.ecx;
  l->l1_edx_raw = r1.edx;
  l->l1_edx = r1.edx;
  struct regs r7 = { 0, 0, 0, 0 };
  if (max_leaf >= 7)
    {
      r7 = cpuid (7, 0);
      if (r7.eax >= 1)
	l->l7_1_eax = cpuid (7, 1).eax;
    }
  unsigned int max_ext = cpuid (0x80000000, 0).eax;
  if (max_ext >= 0x80000001)
    l->ext1_ecx = cpuid (0x80000001, 0).ecx;
  if (max_ext >= 0x80000008)
    l->ext8_ebx = cpuid (0x80000008, 0).ebx;

  /* Vector features count only if the OS saves their registers, as
     glibc's active bits already say.  */
  unsigned long long xcr0 = bit (r1.ecx, 27) ? xgetbv0 () : 0;
  int os_ymm = (xcr0 & XCR0_SSE_YMM) == XCR0_SSE_YMM;
  int os_zmm = os_ymm && (xcr0 & XCR0_AVX512) == XCR0_AVX512;
  l->l1_ecx = r1.ecx & ~(os_ymm ? 0u : 1u << 28);
  l->l7_ebx = r7.ebx & ~(os_ymm ? 0u : 1u << 5)
	      & ~(os_zmm ? 0u : (1u << 16) | (1u << 30) | (1u << 31));
  l->l7_edx = r7.edx;
}

/* Bits of leaf 0x80000001's ECX that Intel defines: LAHF/SAHF (0), LZCNT
   (5) and PREFETCHW (8).  Any other is AMD's: CMP_LEGACY, SVM, SSE4A,
   MISALIGNSSE, TOPOEXT...  */
#define EXT1_ECX_INTEL 0x121u

static FC_EARLY unsigned char
vendor_from_leaves (const struct leaves *l)
{
  return (l->ext1_ecx & ~EXT1_ECX_INTEL) != 0 || bit (l->ext8_ebx, 0)
	 ? FC_VENDOR_AMD : FC_VENDOR_INTEL;
}

static FC_EARLY unsigned long long
features_from_leaves (const struct leaves *l)
{
  unsigned long long f = 0;
  if (bit (l->l1_edx, 26))
    f |= FASTCOPY_CPU_SSE2;
  if (bit (l->l7_ebx, 9))
    f |= FASTCOPY_CPU_ERMS;
  if (bit (l->l7_edx, 4))
    f |= FASTCOPY_CPU_FSRM;
  if (bit (l->l7_ebx, 8))
    f |= FASTCOPY_CPU_BMI2;
  if (bit (l->l1_ecx, 28) && bit (l->l7_ebx, 5))
    f |= FASTCOPY_CPU_AVX2;
  if (bit (l->l7_ebx, 16))
    {
      f |= FASTCOPY_CPU_AVX512F;
      if (bit (l->l7_ebx, 30))
	f |= FASTCOPY_CPU_AVX512BW;
      if (bit (l->l7_ebx, 31))
	f |= FASTCOPY_CPU_AVX512VL;
    }
  if (bit (l->l7_1_eax, 4))
    f |= FASTCOPY_CPU_AVX_VNNI;
  if (bit (l->l7_1_eax, 10))
    f |= FASTCOPY_CPU_FZLRM;
  if (bit (l->l7_1_eax, 11))
    f |= FASTCOPY_CPU_FSRS;
  if (bit (l->l7_1_eax, 12))
    f |= FASTCOPY_CPU_FSRCS;
  if (bit (l->ext8_ebx, 0))
    f |= FASTCOPY_CPU_CLZERO;
  if (bit (l->l1_ecx_raw, 31))
    f |= FASTCOPY_CPU_HYPERVISOR;
  return f;
}

/* The logical processors of the package, from leaf 1 (see the top).  Its
   8 bits overflow from 256 on: then at least that many.  */
static FC_EARLY unsigned int
package_threads (const struct leaves *l)
{
  unsigned int n = (l->l1_ebx >> 16) & 0xff;
  if (!bit (l->l1_edx_raw, 28))
    return 1;
  return n == 0 ? 256 : n;
}

/* glibc's sysconf, through its GOT entry (see the top).  */
extern long int sysconf (int) __attribute__ ((noplt));

/* A cache size sysconf reports, 0 when it knows none (-1 or 0).  */
static FC_EARLY unsigned long
cache_size (int name)
{
  long int size = sysconf (name);
  return size > 0 ? (unsigned long) size : 0;
}

const struct fc_cpu *
fc_cpu_init (void)
{
  if (fc_state.cpu_ready)
    return &fc_state.cpu;
  struct leaves l = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  if (!leaves_from_glibc (&l))
    leaves_from_cpuid (&l);

  struct fastcopy_cpu *c = &fc_state.cpu.id;
  unsigned int family = (l.l1_eax >> 8) & 0xf, model = (l.l1_eax >> 4) & 0xf;
  if (family == 0xf)
    family += (l.l1_eax >> 20) & 0xff;
  if (family >= 6)
    model += ((l.l1_eax >> 16) & 0xf) << 4;
  c->family = family;
  c->model = model;
  c->stepping = l.l1_eax & 0xf;
  c->features = features_from_leaves (&l);
  c->l3_threads = package_threads (&l);
  fc_state.cpu.vendor = vendor_from_leaves (&l);
  fc_state.cpu_ready = 1;
  return &fc_state.cpu;
}

const struct fc_cpu *
fc_cpu_caches (void)
{
  const struct fc_cpu *cpu = fc_cpu_init ();
  if (!fc_state.caches_ready)
    {
      struct fastcopy_cpu *c = &fc_state.cpu.id;
      c->l1d_size = cache_size (_SC_LEVEL1_DCACHE_SIZE);
      c->l2_size = cache_size (_SC_LEVEL2_CACHE_SIZE);
      c->l3_size = cache_size (_SC_LEVEL3_CACHE_SIZE);
      fc_state.caches_ready = 1;
    }
  return cpu;
}

static int
vendor_is (const char *vendor, const char *name)
{
  for (int i = 0; i < 12; i++)
    if (vendor[i] != name[i])
      return 0;
  return 1;
}

void
fc_cpu_from_description (const struct fastcopy_cpu *d, struct fc_cpu *cpu)
{
  cpu->id = *d;
  /* Hygon's CPUs are AMD's Zen under licence; every other vendor is
     Intel's class, as at load (above).  */
  cpu->vendor = vendor_is (d->vendor, "AuthenticAMD")
		|| vendor_is (d->vendor, "HygonGenuine")
		? FC_VENDOR_AMD : FC_VENDOR_INTEL;
}

const char *
fc_cpu_vendor_string (void)
{
  struct fastcopy_cpu *c = &fc_state.cpu.id;
  fc_cpu_init ();
  if (c->vendor[0] == 0)
    {
      /* Only a tool asks: a CPUID here costs no process start.  */
      struct regs r0 = cpuid (0, 0);
      for (int i = 0; i < 4; i++)
	{
	  c->vendor[i] = (char) (r0.ebx >> (8 * i));
	  c->vendor[i + 4] = (char) (r0.edx >> (8 * i));
	  c->vendor[i + 8] = (char) (r0.ecx >> (8 * i));
	}
      c->vendor[12] = 0;
    }
  return c->vendor;
}
