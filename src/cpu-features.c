/* SPDX-License-Identifier: MIT */
/* The one place that reads CPUID.

   fc_cpu_init runs first inside an IFUNC resolver, while the dynamic linker
   is still relocating libfastcopy, so it uses inline assembly only: no libc,
   no PLT calls, no data that needs a relocation.  Every access below is to a
   hidden object, i.e. RIP-relative.  */

#include "load-state.h"

struct regs
{
  unsigned int eax, ebx, ecx, edx;
};

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

static int
bit (unsigned int word, int n)
{
  return (word >> n) & 1;
}

/* XCR0 state components.  */
#define XCR0_SSE_YMM	0x06ull		/* XMM and upper YMM */
#define XCR0_AVX512	0xe0ull		/* opmask, upper ZMM0-15, ZMM16-31 */

/* One entry of a deterministic cache parameters leaf (Intel's 4, AMD's
   0x8000001D, the same layout) into the CPU: 0 when there are no more
   entries.  The L3's entry also gives how many logical processors share
   it (EAX bits 25-14, plus one): a guest is told the whole socket's L3
   even when it has two of its threads.  */
static FC_EARLY int
read_cache_entry (unsigned int leaf, unsigned int i)
{
  struct regs r = cpuid (leaf, i);
  unsigned int type = r.eax & 0x1f;	/* 0: no more; 1: data; 3: unified */
  if (type == 0)
    return 0;
  if (type == 2)
    return 1;
  unsigned long size = (unsigned long) ((r.ebx >> 22) + 1)
		       * (((r.ebx >> 12) & 0x3ff) + 1)
		       * ((r.ebx & 0xfff) + 1) * (r.ecx + 1);
  switch ((r.eax >> 5) & 7)
    {
    case 1: fc_load.cpu.l1d_size = size; break;
    case 2: fc_load.cpu.l2_size = size; break;
    case 3:
      fc_load.cpu.l3_size = size;
      fc_load.cpu.l3_threads = ((r.eax >> 14) & 0xfff) + 1;
      break;
    }
  return 1;
}

/* Every entry of LEAF; returns 0 if it listed nothing.  */
static FC_EARLY int
read_cache_leaf (unsigned int leaf)
{
  unsigned int i = 0;
  while (i < 16 && read_cache_entry (leaf, i))
    i++;
  return i > 0;
}

/* The cache leaf of this CPU, 0 when it has none.  */
static FC_EARLY unsigned int
cache_leaf (void)
{
  if (fc_cpu_vendor (&fc_load.cpu) != FC_VENDOR_AMD)
    return fc_load.max_leaf >= 4 ? 4 : 0;
  return fc_load.topoext ? 0x8000001d : 0;
}

/* Older AMD: the legacy leaves (the L3 figure there can be the whole
   package's rather than one CCX's).  */
static FC_EARLY void
read_legacy_amd_caches (void)
{
  fc_load.cpu.l1d_size = (unsigned long) (cpuid (0x80000005, 0).ecx >> 24) << 10;
  struct regs r = cpuid (0x80000006, 0);
  fc_load.cpu.l2_size = (unsigned long) (r.ecx >> 16) << 10;
  fc_load.cpu.l3_size = (unsigned long) (r.edx >> 18) << 19;
}

/* The CPUID leaves the features come from.  */
struct leaves
{
  struct regs l1, l7, l7_1;
  unsigned int ext1_ecx;	/* leaf 0x80000001 */
  unsigned int ext8_ebx;	/* leaf 0x80000008 */
  int os_checked;		/* vector bits already mean OS support too */
};

/* From glibc, where it offers them (<sys/platform/x86.h>, glibc 2.33 and
   later): ld.so has run CPUID already, so this costs no CPUID here (each
   one exits to the hypervisor in a VM, 1.4-4 us), and its "active" bits
   honour GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,... as glibc's own
   string functions do.  The call goes through the GOT: libfastcopy is
   linked -z now, and ld.so applies IRELATIVE relocations after the
   object's other ones, so the entry is bound before any resolver runs
   (with lazy binding it would not be, and every process would crash;
   build.exp checks the flag).  The reference is weak: a glibc without the
   function leaves it null and CPUID does the work.  Bits glibc does not
   manage (CLZERO) come from its copy of the raw leaf.  */
#if HAVE___X86_GET_CPUID_FEATURE_LEAF
# include <sys/platform/x86.h>
# pragma weak __x86_get_cpuid_feature_leaf

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
  l->l1.eax = f1->cpuid_array[0];	/* family, model, stepping */
  l->l1.ebx = f1->active_array[1];
  l->l1.ecx = f1->active_array[2];
  l->l1.edx = f1->active_array[3];
  l->l7.eax = f7->cpuid_array[0];
  l->l7.ebx = f7->active_array[1];
  l->l7.ecx = f7->active_array[2];
  l->l7.edx = f7->active_array[3];
  l->l7_1.eax = f71->active_array[0];
  l->ext1_ecx = f81->cpuid_array[2];
  l->ext8_ebx = f88->cpuid_array[1];
  l->os_checked = 1;
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

static FC_EARLY void
leaves_from_cpuid (struct leaves *l, unsigned int max_leaf)
{
  l->l1 = cpuid (1, 0);
  if (max_leaf >= 7)
    {
      l->l7 = cpuid (7, 0);
      if (l->l7.eax >= 1)
	l->l7_1 = cpuid (7, 1);
    }
  unsigned int max_ext = cpuid (0x80000000, 0).eax;
  if (max_ext >= 0x80000001)
    l->ext1_ecx = cpuid (0x80000001, 0).ecx;
  if (max_ext >= 0x80000008)
    l->ext8_ebx = cpuid (0x80000008, 0).ebx;
  l->os_checked = 0;
}

const struct fastcopy_cpu *
fc_cpu_init (void)
{
  if (fc_load.cpu_ready)
    return &fc_load.cpu;

  /* The vendor is not among glibc's leaves: one CPUID.  */
  struct regs r0 = cpuid (0, 0);
  unsigned int max_leaf = r0.eax;
  for (int i = 0; i < 4; i++)
    {
      fc_load.cpu.vendor[i] = (char) (r0.ebx >> (8 * i));
      fc_load.cpu.vendor[i + 4] = (char) (r0.edx >> (8 * i));
      fc_load.cpu.vendor[i + 8] = (char) (r0.ecx >> (8 * i));
    }
  fc_load.cpu.vendor[12] = 0;

  struct leaves l = { { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, { 0, 0, 0, 0 }, 0, 0,
		      0 };
  if (!leaves_from_glibc (&l))
    leaves_from_cpuid (&l, max_leaf);
  fc_load.max_leaf = max_leaf;
  fc_load.topoext = bit (l.ext1_ecx, 22);

  unsigned int eax1 = l.l1.eax;
  unsigned int family = (eax1 >> 8) & 0xf, model = (eax1 >> 4) & 0xf;
  if (family == 0xf)
    family += (eax1 >> 20) & 0xff;
  if (family >= 6)
    model += ((eax1 >> 16) & 0xf) << 4;
  fc_load.cpu.family = family;
  fc_load.cpu.model = model;
  fc_load.cpu.stepping = eax1 & 0xf;

  /* Vector features count only if the OS saves their registers.  */
  int os_ymm = 1, os_zmm = 1;
  if (!l.os_checked)
    {
      unsigned long long xcr0 = bit (l.l1.ecx, 27) ? xgetbv0 () : 0;
      os_ymm = (xcr0 & XCR0_SSE_YMM) == XCR0_SSE_YMM;
      os_zmm = os_ymm && (xcr0 & XCR0_AVX512) == XCR0_AVX512;
    }

  unsigned long long f = 0;
  if (bit (l.l1.edx, 26))
    f |= FASTCOPY_CPU_SSE2;
  if (bit (l.l7.ebx, 9))
    f |= FASTCOPY_CPU_ERMS;
  if (bit (l.l7.edx, 4))
    f |= FASTCOPY_CPU_FSRM;
  if (bit (l.l7.ebx, 8))
    f |= FASTCOPY_CPU_BMI2;
  if (os_ymm && bit (l.l1.ecx, 28) && bit (l.l7.ebx, 5))
    f |= FASTCOPY_CPU_AVX2;
  if (os_zmm && bit (l.l7.ebx, 16))
    {
      f |= FASTCOPY_CPU_AVX512F;
      if (bit (l.l7.ebx, 30))
	f |= FASTCOPY_CPU_AVX512BW;
      if (bit (l.l7.ebx, 31))
	f |= FASTCOPY_CPU_AVX512VL;
    }
  if (bit (l.l7_1.eax, 4))
    f |= FASTCOPY_CPU_AVX_VNNI;
  if (bit (l.l7_1.eax, 10))
    f |= FASTCOPY_CPU_FZLRM;
  if (bit (l.l7_1.eax, 11))
    f |= FASTCOPY_CPU_FSRS;
  if (bit (l.l7_1.eax, 12))
    f |= FASTCOPY_CPU_FSRCS;
  if (bit (l.ext8_ebx, 0))
    f |= FASTCOPY_CPU_CLZERO;
  fc_load.cpu.features = f;
  fc_load.cpu_ready = 1;
  return &fc_load.cpu;
}

/* The L3 alone, for the thresholds made at load: its entry is the fourth
   (L1d, L1i, L2, L3) on the CPUs seen, so one CPUID finds it; the whole
   leaf only when it is not there.  Every other size waits for a tool to
   ask (fc_cpu_caches): each CPUID exits to the hypervisor in a VM (1.1 us
   on Emerald Rapids, 4-6.5 us in the AMD guests).  */
const struct fastcopy_cpu *
fc_cpu_l3 (void)
{
  const struct fastcopy_cpu *c = fc_cpu_init ();
  if (fc_load.l3_ready)
    return c;
  unsigned int leaf = cache_leaf ();
  if (leaf != 0)
    {
      read_cache_entry (leaf, 3);
      if (fc_load.cpu.l3_size == 0)
	read_cache_leaf (leaf);
    }
  else if (fc_cpu_vendor (&fc_load.cpu) == FC_VENDOR_AMD)
    read_legacy_amd_caches ();
  fc_load.l3_ready = 1;
  return c;
}

const struct fastcopy_cpu *
fc_cpu_caches (void)
{
  const struct fastcopy_cpu *c = fc_cpu_l3 ();
  if (fc_load.caches_ready)
    return c;
  unsigned int leaf = cache_leaf ();
  if (leaf == 0 || !read_cache_leaf (leaf))
    {
      if (fc_cpu_vendor (&fc_load.cpu) == FC_VENDOR_AMD)
	read_legacy_amd_caches ();
    }
  fc_load.caches_ready = 1;
  return c;
}

static FC_EARLY int
vendor_is (const char *vendor, const char *name)
{
  for (int i = 0; i < 12; i++)
    if (vendor[i] != name[i])
      return 0;
  return 1;
}

enum fc_vendor
fc_cpu_vendor (const struct fastcopy_cpu *c)
{
  /* Hygon's CPUs are AMD's Zen under licence.  */
  if (vendor_is (c->vendor, "AuthenticAMD")
      || vendor_is (c->vendor, "HygonGenuine"))
    return FC_VENDOR_AMD;
  if (vendor_is (c->vendor, "GenuineIntel"))
    return FC_VENDOR_INTEL;
  return FC_VENDOR_OTHER;
}
