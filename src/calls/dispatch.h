/* SPDX-License-Identifier: MIT */
/* The dispatch: what the exported functions reach the chosen
   implementation through.  resolve.c defines and writes them (the IFUNC
   resolvers, and the initializer that applies FASTCOPY); entry.c, the
   profile implementations and the API read them.  Both slots are in
   .data.rel.ro: read-only once ld.so has relocated libfastcopy, except
   while resolve.c rewrites them.  The entry bytes are the census's
   (census.h), which a census window rewrites.  */

#ifndef FASTCOPY_DISPATCH_H
#define FASTCOPY_DISPATCH_H 1

#include "census.h"
#include "fastcopy-internal.h"

/* Each family's slot: the selected implementation's function (glibc's
   own under glibc=on).  */
extern FC_HIDDEN fastcopy_copy_fn fc_copy_slot;
extern FC_HIDDEN fastcopy_clear_fn fc_clear_slot;

/* Each family's entry byte, which the assembly entry points compare
   (sysdeps/x86/entry-common.h): the selected implementation's byte in
   entry-points.def, FC_ENTRY_SLOT to go through the slot, or
   FC_ENTRY_CENSUS during a census window.  */
extern FC_HIDDEN struct fc_census fc_census;
#define fc_copy_entry (fc_census.entry[FASTCOPY_FAMILY_COPY])
#define fc_clear_entry (fc_census.entry[FASTCOPY_FAMILY_CLEAR])

/* Where the exported functions go during a census window (census.c):
   they count the call, then call the slot.  */
FC_HIDDEN void *memmove_census (void *dst, const void *src, size_t n);
FC_HIDDEN void *memset_census (void *dst, int value, size_t n);

/* The function of copy (clear) implementation ID; scalar for an ID of
   the other family.  */
FC_HIDDEN FC_EARLY fastcopy_copy_fn fc_copy_function (enum fc_impl_id id);
FC_HIDDEN FC_EARLY fastcopy_clear_fn fc_clear_function (enum fc_impl_id id);

/* What the exported entry points compare when ID is selected: its byte in
   entry-points.def, or FC_ENTRY_SLOT.  */
FC_HIDDEN FC_EARLY unsigned char fc_entry_byte (enum fc_impl_id id);

#endif
