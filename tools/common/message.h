/* SPDX-License-Identifier: MIT */
/* The tools' messages: progress on standard output, errors on standard
   error after the program's name.  */

#ifndef FC_TOOLS_MESSAGE_H
#define FC_TOOLS_MESSAGE_H

/* The program's name, which error messages start with; each tool that
   links this code defines it.  */
extern const char tool_name[];

/* Nonzero: msg prints nothing (the tools' --quiet).  */
extern int message_quiet;

/* Progress and results, on standard output.  */
void msg (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* "TOOL: MESSAGE" and a newline on standard error.  Standard output is
   flushed first so that the two streams stay in order on a terminal.  */
void error_msg (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

#endif
