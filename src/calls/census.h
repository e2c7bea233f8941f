/* SPDX-License-Identifier: MIT */
/* The census: counting every call for a short window, on request from
   outside the process (fastcopy-sample, fastcopy-sample(1) "HOW CALLS
   ARE COUNTED").  This header is the one description of the state that
   the sampler reads and writes in another process
   (src/tools-interface.h): fixed-width fields, laid out alike by both
   ABIs, so that a 64-bit sampler reads a 32-bit process.

   A window.  The sampler writes SAVED (the entry bytes as they are),
   DEADLINE, then FC_ENTRY_CENSUS to the entry bytes: the exported
   functions of both families then go through memmove_census and
   memset_census, which count each call (counts.h) into one of
   FC_CENSUS_LANES lanes, chosen by the calling thread's stack, and go on
   through the slot.  To close the window the sampler writes SAVED back
   to the entry bytes and reads the lanes.  A window the sampler does not
   close -- it was killed, or the process forked inside the window and
   the child has the parent's bytes -- closes itself: every 256th call of
   a lane reads the clock, and past DEADLINE puts SAVED back.

   Why the entry bytes live here, writable, rather than in RELRO with the
   slots: the sampler and a window's deadline must write them while the
   process runs, and what they choose between is only this library's own
   code (each byte names an implementation in entry-points.def, the slot,
   or the census).  The slots, which hold addresses, stay read-only.  */

#ifndef FASTCOPY_CENSUS_H
#define FASTCOPY_CENSUS_H 1

#include <stdint.h>
#include "counts.h"

#define FC_CENSUS_SECTION ".fastcopy_census"
/* Changes whenever a field below, or struct fc_counts, changes.  */
#define FC_CENSUS_VERSION 1
#define FC_CENSUS_LANES 8
/* How many of a lane's calls go between two looks at the clock.  */
#define FC_CENSUS_CHECK_EVERY 256

struct fc_census_lane
{
  uint64_t until_check;		/* calls left before the next look */
  uint64_t calls;		/* counted in this lane: a sampler reads the
				   counts of the lanes where it moved */
  struct fc_counts family[FASTCOPY_FAMILY_COUNT];
};

struct fc_census
{
  uint32_t version;		/* FC_CENSUS_VERSION */
  uint32_t size;		/* sizeof (struct fc_census) */
  /* The families' entry bytes, fc_copy_entry and fc_clear_entry
     (dispatch.h), at FC_CENSUS_ENTRY_OFFSET (traits.h).  */
  unsigned char entry[FASTCOPY_FAMILY_COUNT];
  unsigned char saved[FASTCOPY_FAMILY_COUNT];	/* restored at the end */
  uint32_t closing;		/* a thread is putting SAVED back */
  uint64_t deadline;		/* CLOCK_MONOTONIC, ns */
  uint64_t lanes;		/* the address of FC_CENSUS_LANES lanes,
				   mapped at the first counted call; 0
				   before */
};

#endif
