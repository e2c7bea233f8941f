/* SPDX-License-Identifier: MIT */
/* The load-time state (load-state.h).  */

#include <stdint.h>
#include "load-state.h"

_Static_assert (offsetof (struct fc_load_state, tunables) == 0,
		"the assembly variants read the thresholds at fc_state");
_Static_assert (sizeof (struct fc_load_state) <= FC_LOAD_STATE_ALIGN,
		"the load-time state outgrew its alignment: one page no more");

/* Until a resolver runs, the variants behave as the seed patch: REP MOVSB
   from 2048 bytes, no streaming stores.  */
__attribute__ ((section (".fastcopy_load"), aligned (FC_LOAD_STATE_ALIGN)))
struct fc_load_state fc_state = {
  .tunables.value = {
    [FC_KEY_REP_MOVSB] = 2048, [FC_KEY_COPY_NT] = SIZE_MAX,
    [FC_KEY_REP_STOSB] = 2048, [FC_KEY_CLEAR_NT] = SIZE_MAX,
    [FC_KEY_ALIAS_GUARD] = 1,
  }
};
