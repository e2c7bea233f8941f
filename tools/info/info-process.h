/* SPDX-License-Identifier: MIT */
/* fastcopy-info --pid: the parts of fastcopy-info that info-process.c
   shares with fastcopy-info.c.  */

#ifndef FC_TOOLS_INFO_PROCESS_H
#define FC_TOOLS_INFO_PROCESS_H

/* Text from outside the program, escaped for plain output
   (fastcopy-info.c).  */
const char *shown (const char *s);

/* Print what libfastcopy's state in process PID says: whether the
   library is mapped there, the implementations and settings in force and
   where each came from.  Returns the exit status: 0, 1 when the process
   cannot be looked at (the message says why), 3 when it does not map
   libfastcopy.  */
int show_process (const char *pid, int json);

#endif
