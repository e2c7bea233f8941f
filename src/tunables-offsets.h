/* Byte offsets of the fc_tunables fields that the assembly variants read.
   fastcopy-internal.h checks them against the struct at compile time.  */
#ifndef FASTCOPY_TUNABLES_OFFSETS_H
#define FASTCOPY_TUNABLES_OFFSETS_H 1
#define FC_TUNABLES_REP_MOVSB	0
#define FC_TUNABLES_COPY_NT	8
#define FC_TUNABLES_REP_STOSB	16
#define FC_TUNABLES_CLEAR_NT	24
#endif
