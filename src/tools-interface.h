/* SPDX-License-Identifier: MIT */
/* The tools' interface: all that the programs under tools/ and bench/ may
   use of libfastcopy's internals beyond include/fastcopy.h and the formats
   the library shares with them (recording.h, size-buckets.h, body-map.h):
   no program includes a header of src/load/ but through this one.  Two
   parts.

   1. The size parser and formatter (src/load/size.h), linked from
      src/libfcsize.a: a size reads the same on a tool's command line as
      in a configuration file.

   2. What a tool may read of the library's load-time state in another
      process (fastcopy-info --pid).  The state is FC_PROCESS_STATE_SIZE
      bytes at the start of section FC_PROCESS_STATE_SECTION of the
      library; fc_process_state_decode turns those bytes into struct
      fc_process_state, the fields a tool may show, so that no tool
      depends on how the library lays them out.  The bytes are laid out
      by the build: decode them only from a process that maps the very
      library the tool runs with.  Addresses in the struct are the
      process's, to be read from it.  The values are in the library's own
      words: FC_KEY_* (keys.def, which fastcopy_setting_at numbers alike),
      FC_SRC_*, FC_CHOOSE_*, FC_FILE_*, FC_ENV_*, FC_NEVER, FC_PATH_MAX.

   3. The census of another process (calls/census.h): struct fc_census
      at the start of section FC_CENSUS_SECTION of the library, its lanes
      and their counts, laid out alike by both ABIs and checked by
      FC_CENSUS_VERSION and the size the process gives.  fastcopy-sample
      opens and closes the windows through them.

   FC_PROCESS_STATE_VERSION changes whenever a field of struct
   fc_process_state is added, removed or changes its meaning; a tool
   checks it at build time, so that such a change cannot pass it by.  */

#ifndef FASTCOPY_TOOLS_INTERFACE_H
#define FASTCOPY_TOOLS_INTERFACE_H 1

#include <string.h>

#include "load/size.h"
#include "load/load-state.h"
#include "calls/census.h"

#define FC_PROCESS_STATE_VERSION 1
#define FC_PROCESS_STATE_SECTION ".fastcopy_load"
#define FC_PROCESS_STATE_SIZE (sizeof (struct fc_load_state))
/* Bytes of a policy row's name, its NUL included.  */
#define FC_PROCESS_ROW_NAME_MAX (sizeof ((struct fc_policy_row *) 0)->name)

/* One setting as the process merged it (the file, then FASTCOPY, then
   fastcopy_set).  */
struct fc_process_setting
{
  int set;			/* a layer gave it; else its default */
  int src;			/* where from: enum fc_src */
  unsigned int line;		/* file line or FASTCOPY item */
  int impl_how;			/* IMPL keys: enum fc_impl_how */
  unsigned int impl;		/* IMPL keys, FC_CHOOSE_IMPL: its ID */
  unsigned long long number;	/* SIZE, BOOL and SIGNAL keys */
  unsigned long path;		/* PATH keys: the path's address, 0: off */
  size_t path_len;		/* its length (no NUL follows it) */
  unsigned long long word;	/* the value the variants read, the
				   default's where the key is not set */
};

struct fc_process_state
{
  unsigned int impl[FASTCOPY_FAMILY_COUNT];	/* implementation IDs
						   (fastcopy_impl_at) */
  unsigned int worker[FASTCOPY_FAMILY_COUNT];	/* the one doing the work:
						   impl, or the one the
						   profile implementation
						   calls */
  unsigned long row_name[FASTCOPY_FAMILY_COUNT];	/* the address of the
							   name of the row
							   that chose impl;
							   0: a setting
							   named it */
  struct fc_process_setting setting[FC_KEY_COUNT];
  unsigned long config_path;	/* the configuration file's name ("" for
				   none); 0: not known */
  int file_state;		/* enum fc_file_state */
  int env_state;		/* enum fc_env_state */
  int config_from_env;		/* FASTCOPY_CONFIG chose the file */
  int secure;			/* a secure-execution process */
  int glibc;			/* glibc=on is in force: the exported
				   functions call glibc's own memmove and
				   memset, not impl */
};

/* The FC_PROCESS_STATE_SIZE bytes of BYTES, read from a process, into
   *OUT.  */
static inline void
fc_process_state_decode (const void *bytes, struct fc_process_state *out)
{
  struct fc_load_state s;
  memcpy (&s, bytes, sizeof s);
  memset (out, 0, sizeof *out);
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      out->impl[f] = s.plan.impl[f];
      out->worker[f] = s.plan.worker[f];
      out->row_name[f] = s.plan.row[f] == NULL ? 0
			 : (unsigned long) s.plan.row[f]
			   + offsetof (struct fc_policy_row, name);
    }
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      const struct fc_item *it = &s.settings.merged.item[k];
      struct fc_process_setting *p = &out->setting[k];
      p->set = it->set;
      p->src = it->src;
      p->line = it->line;
      p->impl_how = it->impl.how;
      p->impl = it->impl.impl;
      p->number = it->number;
      p->path = (unsigned long) it->path;
      p->path_len = it->path_len;
      p->word = s.tunables.value[k];
    }
  out->config_path = (unsigned long) s.settings.path;
  out->file_state = s.settings.file_state;
  out->env_state = s.settings.env_state;
  out->config_from_env = s.settings.config_overridden;
  out->secure = s.settings.secure;
  out->glibc = s.tunables.value[FC_KEY_GLIBC] != 0;
}

#endif
