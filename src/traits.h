/* SPDX-License-Identifier: MIT */
/* Implementation traits, the columns of impl-list.def and keys.def that say
   which thresholds a variant reads, and ENTRY, which entry-points.def
   gives.  Plain numbers, so that the assembly variants can test them too;
   fastcopy-internal.h checks that they equal the public FASTCOPY_TRAIT_*
   bits.  */

#ifndef FASTCOPY_TRAITS_H
#define FASTCOPY_TRAITS_H 1

#define FC_TRAIT_REP		0x1
#define FC_TRAIT_NT		0x2
#define FC_TRAIT_ALIAS_GUARD	0x4
#define FC_TRAIT_ENTRY		0x8
#define FC_TRAIT_PROFILE	0x10

/* The entry byte (entry-points.def) of an implementation the exported
   entry points reach through the dispatch slot.  */
#define FC_ENTRY_SLOT		0xff
/* The entry byte of a census window (src/calls/census.h): the exported
   functions count each call, then go through the slot.  */
#define FC_ENTRY_CENSUS		0xfe
/* Where the entry bytes lie in struct fc_census: the copy family's, then
   the clear family's.  */
#define FC_CENSUS_ENTRY_OFFSET	8

/* The threshold value "never".  */
#define FC_NEVER		(~0ull)
/* An implementation's rep_when_named (impl-list.def) when it brings no
   REP threshold of its own: the policy row's applies.  */
#define FC_FROM_ROW		0

#endif
