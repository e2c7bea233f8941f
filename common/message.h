/* SPDX-License-Identifier: MIT */
/* The tools' messages: progress on standard output, errors on standard
   error after the program's name.  */

#ifndef FC_TOOLS_MESSAGE_H
#define FC_TOOLS_MESSAGE_H

#include <stddef.h>

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

/* A usage error: "TOOL: MESSAGE", then "Try 'TOOL --help' for more
   information.", on standard error.  The caller exits with its usage
   status (2; fastcopy-run's is env(1)'s 125).  */
void usage_msg (const char *fmt, ...) __attribute__ ((format (printf, 1, 2)));

/* error_msg and usage_msg, then exit with STATUS: for a program whose
   helpers end it where they find the error, deep in its work or in the
   parsing of one argument, rather than return a failure to main.  */
void error_exit (int status, const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 2, 3)));
void usage_exit (int status, const char *fmt, ...)
  __attribute__ ((noreturn, format (printf, 2, 3)));

/* The same for the mistake getopt_long reported by returning C ('?' for
   an unknown option, ':' for a missing argument) while parsing ARGV.  The
   caller sets opterr to 0 and starts its short options with ':' (after
   any '+'), so that getopt says nothing itself: it would name the
   program by its full path.  */
void getopt_usage_msg (int c, char *const *argv);

/* NAME as a message shows a file name: '' for the empty name, which
   would otherwise leave nothing before the colon.  The tools show the
   empty name as '' and nothing else: a name bare ("NAME: reason") goes
   through shown_name; one the message quotes itself ("'%s'") is passed
   as it is, never through shown_name, which would make it ''''.  */
const char *shown_name (const char *name);

/* Whether NAME, the file name that OPTION (or a command's operand) was
   given, is empty; if so, after the usage message "OPTION needs a file
   name, not ''".  An empty name can name no file: the tools check it
   with their arguments, before any work, and exit with their usage
   status.  */
int empty_name_msg (const char *option, const char *name);

/* TEXT, the argument OPTION was given, as a decimal number from LO to HI;
   else, after the usage message "OPTION: 'TEXT' is not a number" or
   "OPTION: N is out of range (LO to HI)", the exit with status 2.  */
unsigned long long option_number (const char *option, const char *text,
				  unsigned long long lo,
				  unsigned long long hi);

/* The library's diagnostic MESSAGE without the words at its end that say
   the library goes on without the item (": ignored", "; file ignored"),
   for a tool that refuses it instead; in BUF, of SIZE bytes.  */
const char *refusal_text (const char *message, char *buf, size_t size);

#endif
