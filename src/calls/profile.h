/* SPDX-License-Identifier: MIT */
/* Recording a workload (profile.c): what resolve.c and entry.c need.  */

#ifndef FASTCOPY_PROFILE_H
#define FASTCOPY_PROFILE_H 1

#include "fastcopy-internal.h"

/* Start recording, the profile setting being set: the profile
   implementations count from now on and call COPY and CLEAR, the
   implementations chosen for the families.  Called from libfastcopy's
   initializer before the slots point at the profile implementations.
   Returns 0, or -1 if recording cannot start (the slots must then not
   point at the profile implementations).  */
FC_HIDDEN int fc_profile_start (fastcopy_copy_fn copy,
				fastcopy_clear_fn clear);

#endif
