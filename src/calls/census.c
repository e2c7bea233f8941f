/* SPDX-License-Identifier: MIT */
/* The census (census.h): the state fastcopy-sample finds in section
   FC_CENSUS_SECTION, and the functions the exported ones go through
   while a window is open.

   Nothing here runs unless a sampler opens a window: the state is a few
   bytes of file-backed data, and the lanes are mapped at the first
   counted call.  Counting uses no lock, no allocator and no thread-local
   storage, so that it may run wherever memcpy may: in a signal handler,
   inside malloc, in a child after fork.  Two threads that share a lane
   may lose a count each to the other: lanes go by stack address, so
   that is rare, and the census gives the mix of sizes, not an exact
   total.  Under glibc=on the calls are glibc's, not counted: a sampler
   finds them in glibc's functions.  */

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <time.h>
#include "census.h"
#include "dispatch.h"
#include "load/load-state.h"

__attribute__ ((section (FC_CENSUS_SECTION), aligned (64)))
struct fc_census fc_census = {
  .version = FC_CENSUS_VERSION,
  .size = sizeof (struct fc_census),
  .entry = { FC_ENTRY_SLOT, FC_ENTRY_SLOT },
};

_Static_assert (offsetof (struct fc_census, entry) == FC_CENSUS_ENTRY_OFFSET,
		"the assembly entry points find the entry bytes there");
_Static_assert (offsetof (struct fc_census, deadline) == 16
		&& offsetof (struct fc_census, lanes) == 24
		&& sizeof (struct fc_census) == 32,
		"the census is laid out alike by both ABIs");

/* Close the window: one thread puts the saved bytes back.  */
static void
close_window (void)
{
  uint32_t idle = 0;
  if (!__atomic_compare_exchange_n (&fc_census.closing, &idle, 1, 0,
				    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    return;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    if (__atomic_load_n (&fc_census.entry[f], __ATOMIC_RELAXED)
	== FC_ENTRY_CENSUS)
      __atomic_store_n (&fc_census.entry[f],
			__atomic_load_n (&fc_census.saved[f], __ATOMIC_RELAXED),
			__ATOMIC_RELAXED);
  __atomic_store_n (&fc_census.closing, 0, __ATOMIC_RELEASE);
}

/* Past the deadline, no sampler closed the window: close it.  */
static void
close_if_late (void)
{
  struct timespec now;
  if (clock_gettime (CLOCK_MONOTONIC, &now) != 0)
    return;
  uint64_t ns = (uint64_t) now.tv_sec * 1000000000u + (uint64_t) now.tv_nsec;
  if (ns > __atomic_load_n (&fc_census.deadline, __ATOMIC_RELAXED))
    close_window ();
}

/* The calling thread's lane, mapped at the first call; NULL if the lanes
   cannot be mapped, and the window closes then.  */
static struct fc_census_lane *
lane (void)
{
  uintptr_t at = (uintptr_t) __atomic_load_n (&fc_census.lanes,
					      __ATOMIC_ACQUIRE);
  if (at == 0)
    {
      void *p = mmap (NULL, FC_CENSUS_LANES * sizeof (struct fc_census_lane),
		      PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
      if (p == MAP_FAILED)
	{
	  close_window ();	/* nothing to count into, nor to look at
				   the clock from */
	  return NULL;
	}
      uint64_t none = 0;
      if (__atomic_compare_exchange_n (&fc_census.lanes, &none,
				       (uint64_t) (uintptr_t) p, 0,
				       __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
	at = (uintptr_t) p;
      else
	{
	  munmap (p, FC_CENSUS_LANES * sizeof (struct fc_census_lane));
	  at = (uintptr_t) none;
	}
    }
  /* Threads' stacks lie megabytes apart, one thread's frames within a
     few kilobytes: the stack's 64 KiB block, hashed.  */
  uintptr_t stack = (uintptr_t) __builtin_frame_address (0) >> 16;
  unsigned int i = (unsigned int) ((stack * 0x9e3779b9u) >> 16)
		   % FC_CENSUS_LANES;
  struct fc_census_lane *l = (struct fc_census_lane *) at + i;
  if (l->until_check == 0)
    {
      l->until_check = FC_CENSUS_CHECK_EVERY;
      close_if_late ();
    }
  l->until_check--;
  __atomic_store_n (&l->calls, l->calls + 1, __ATOMIC_RELAXED);
  return l;
}

/* The calling thread's lane, or NULL where the call goes uncounted: the
   lanes could not be mapped, or the calls go on to glibc's own functions
   (glibc=on), which are not libfastcopy's to count (a sampler sees them
   in glibc) -- then the window closes at once.  */
static struct fc_census_lane *
counting_lane (void)
{
  if (fc_state.tunables.value[FC_KEY_GLIBC] == 0)
    return lane ();
  close_window ();
  return NULL;
}

void *
memmove_census (void *dst, const void *src, size_t n)
{
  struct fc_census_lane *l = counting_lane ();
  if (l != NULL)
    fc_count_copy (&l->family[FASTCOPY_FAMILY_COPY], dst, src, n,
		   FC_FROM_MEMPCPY ());
  return fc_copy_slot (dst, src, n);
}

void *
memset_census (void *dst, int value, size_t n)
{
  struct fc_census_lane *l = counting_lane ();
  if (l != NULL)
    fc_count_clear (&l->family[FASTCOPY_FAMILY_CLEAR], dst, n,
		    FC_FROM_EXPLICIT_BZERO ());
  return fc_clear_slot (dst, value, n);
}
