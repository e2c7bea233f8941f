/* SPDX-License-Identifier: MIT */
/* The words of a recording (fastcopy-profile(1), FILE FORMAT), written
   once: the library's profile writes them (calls/profile.c), the
   recording's reader and writer use them (common/workload.c), and
   fastcopy-fleet carries them through Prometheus (tools/fleet).  String
   literals, so that the library keeps its copies in arrays that loading
   it does not relocate.  */

#ifndef FASTCOPY_RECORDING_H
#define FASTCOPY_RECORDING_H 1

/* The first line is FC_REC_VERSION_LINE and the format's version.  */
#define FC_REC_VERSION_LINE "# libfastcopy workload "
#define FC_REC_VERSION 1
#define FC_REC_VERSION_TEXT "1"

/* The comment lines a reader knows, and the header of the rows.  */
#define FC_REC_COMMAND "# command: "
#define FC_REC_CLASS "# class: "
#define FC_REC_IMPL "# impl: "
#define FC_REC_END "# end: "
/* fastcopy-sample's bound on its estimate's error (fastcopy-sample(1)):
   "copy=TVD clear=TVD share=DIFF", or "unknown".  */
#define FC_REC_BOUND "# bound: "
#define FC_REC_HEADER "family,what,value,calls,bytes"

/* A row's family, and what it counts.  */
#define FC_REC_COPY "copy"
#define FC_REC_CLEAR "clear"
#define FC_REC_SIZE "size"
#define FC_REC_FUNCTION "function"
#define FC_REC_DST_ALIGN "dst_align"
#define FC_REC_SRC_ALIGN "src_align"
#define FC_REC_DISTANCE "distance"
#define FC_REC_OVERLAP "overlap"

/* The values of the named rows, in the order of their counts:
   (dst - src) mod 4096, overlap (forward: dst < src), and the functions
   the library's profile tells apart in a family's "function" rows: the
   second is the wrapper, the first every other function.  */
#define FC_REC_DISTANCES "0", "1-15", "16-63", "other"
#define FC_REC_NDIST 4
#define FC_REC_OVERLAPS "none", "forward", "backward"
#define FC_REC_NOVERLAP 3
#define FC_REC_COPY_FUNCTIONS "memcpy", "mempcpy"
#define FC_REC_CLEAR_FUNCTIONS "memset", "explicit_bzero"

#endif
