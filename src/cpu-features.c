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

/* Cache sizes from a deterministic cache parameters leaf: Intel's 4, or
   AMD's 0x8000001D (same layout).  Returns 0 if the leaf listed nothing.  */
static FC_EARLY int
read_cache_leaf (unsigned int leaf)
{
  int found = 0;
  for (unsigned int i = 0; i < 16; i++)
    {
      struct regs r = cpuid (leaf, i);
      unsigned int type = r.eax & 0x1f;	/* 0: no more; 1: data; 3: unified */
      if (type == 0)
	break;
      if (type == 2)
	continue;
      unsigned long size = (unsigned long) ((r.ebx >> 22) + 1)
			   * (((r.ebx >> 12) & 0x3ff) + 1)
			   * ((r.ebx & 0xfff) + 1) * (r.ecx + 1);
      switch ((r.eax >> 5) & 7)
	{
	case 1: fc_load.cpu.l1d_size = size; break;
	case 2: fc_load.cpu.l2_size = size; break;
	case 3: fc_load.cpu.l3_size = size; break;
	}
      found = 1;
    }
  return found;
}

static FC_EARLY void
read_caches (unsigned int max_leaf, unsigned int max_ext)
{
  if (fc_cpu_vendor (&fc_load.cpu) != FC_VENDOR_AMD)
    {
      if (max_leaf >= 4)
	read_cache_leaf (4);
      return;
    }
  int topoext = max_ext >= 0x8000001d && bit (cpuid (0x80000001, 0).ecx, 22);
  if (topoext && read_cache_leaf (0x8000001d))
    return;
  /* Older AMD: the legacy leaves (the L3 figure there can be the whole
     package's rather than one CCX's).  */
  if (max_ext >= 0x80000005)
    fc_load.cpu.l1d_size = (unsigned long) (cpuid (0x80000005, 0).ecx >> 24) << 10;
  if (max_ext >= 0x80000006)
    {
      struct regs r = cpuid (0x80000006, 0);
      fc_load.cpu.l2_size = (unsigned long) (r.ecx >> 16) << 10;
      fc_load.cpu.l3_size = (unsigned long) (r.edx >> 18) << 19;
    }
}

const struct fastcopy_cpu *
fc_cpu_init (void)
{
  if (fc_load.cpu_ready)
    return &fc_load.cpu;

  struct regs r0 = cpuid (0, 0);
  unsigned int max_leaf = r0.eax;
  for (int i = 0; i < 4; i++)
    {
      fc_load.cpu.vendor[i] = (char) (r0.ebx >> (8 * i));
      fc_load.cpu.vendor[i + 4] = (char) (r0.edx >> (8 * i));
      fc_load.cpu.vendor[i + 8] = (char) (r0.ecx >> (8 * i));
    }
  fc_load.cpu.vendor[12] = 0;

  unsigned long long f = 0;
  struct regs r1 = cpuid (1, 0);
  unsigned int family = (r1.eax >> 8) & 0xf, model = (r1.eax >> 4) & 0xf;
  if (family == 0xf)
    family += (r1.eax >> 20) & 0xff;
  if (family >= 6)
    model += ((r1.eax >> 16) & 0xf) << 4;
  fc_load.cpu.family = family;
  fc_load.cpu.model = model;
  fc_load.cpu.stepping = r1.eax & 0xf;

  if (bit (r1.edx, 26))
    f |= FASTCOPY_CPU_SSE2;

  /* Vector features count only if the OS saves their registers.  */
  unsigned long long xcr0 = bit (r1.ecx, 27) ? xgetbv0 () : 0;	/* OSXSAVE */
  int os_ymm = (xcr0 & XCR0_SSE_YMM) == XCR0_SSE_YMM;
  int os_zmm = os_ymm && (xcr0 & XCR0_AVX512) == XCR0_AVX512;

  if (max_leaf >= 7)
    {
      struct regs r7 = cpuid (7, 0);
      if (bit (r7.ebx, 9))
	f |= FASTCOPY_CPU_ERMS;
      if (bit (r7.edx, 4))
	f |= FASTCOPY_CPU_FSRM;
      if (bit (r7.ebx, 8))
	f |= FASTCOPY_CPU_BMI2;
      if (os_ymm && bit (r1.ecx, 28) && bit (r7.ebx, 5))
	f |= FASTCOPY_CPU_AVX2;
      if (os_zmm && bit (r7.ebx, 16))
	{
	  f |= FASTCOPY_CPU_AVX512F;
	  if (bit (r7.ebx, 30))
	    f |= FASTCOPY_CPU_AVX512BW;
	  if (bit (r7.ebx, 31))
	    f |= FASTCOPY_CPU_AVX512VL;
	}
      if (r7.eax >= 1)
	{
	  struct regs r71 = cpuid (7, 1);
	  if (bit (r71.eax, 10))
	    f |= FASTCOPY_CPU_FZLRM;
	  if (bit (r71.eax, 11))
	    f |= FASTCOPY_CPU_FSRS;
	  if (bit (r71.eax, 12))
	    f |= FASTCOPY_CPU_FSRCS;
	}
    }

  unsigned int max_ext = cpuid (0x80000000, 0).eax;
  if (max_ext >= 0x80000008 && bit (cpuid (0x80000008, 0).ebx, 0))
    f |= FASTCOPY_CPU_CLZERO;

  fc_load.cpu.features = f;
  read_caches (max_leaf, max_ext);
  fc_load.cpu_ready = 1;
  return &fc_load.cpu;
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
