/* SPDX-License-Identifier: MIT */
/* fastcopy-preload's parts and what they share; main.c describes the
   program as a whole.  */

#ifndef FC_PRELOAD_H
#define FC_PRELOAD_H

#include <stddef.h>
#include <sys/stat.h>

#include "common/message.h"
#include "common/xalloc.h"

#ifndef FASTCOPY_LIBDIR
# error "FASTCOPY_LIBDIR must name the directory the library is installed in"
#endif
#ifndef FASTCOPY_SONAME
# define FASTCOPY_SONAME "libfastcopy.so.1"
#endif

#define PRELOAD_FILE "/etc/ld.so.preload"
#define MULTIARCH "x86_64-linux-gnu"

/* Exit statuses.  */
enum
{
  EXIT_OK = 0,
  EXIT_ERROR = 1,
  EXIT_USAGE = 2,
  EXIT_NOT_ENABLED = 3,		/* status: no entry */
  EXIT_BROKEN = 4,		/* status: an entry names a missing library */
  EXIT_FAILS_TEST = 5,		/* status: its library fails the test */
  EXIT_NO_I386 = 6		/* status: 32-bit programs find no i386 library */
};

/* --- buf.c: growing byte buffers ----------------------------------------- */

struct buf
{
  char *data;			/* NUL-terminated once anything was added */
  size_t len, cap;
};

void buf_add (struct buf *b, const char *p, size_t n);
void buf_adds (struct buf *b, const char *s);

/* --- root.c: paths under --root ------------------------------------------ */

/* The --root directory, "/" by default.  */
extern const char *root;

char *rooted (const char *path);
char *follow_in_root (const char *path);
const char *dst_lib (void);

/* --- lines.c: the file as lines, and libfastcopy's entries in it --------- */

struct line
{
  char *p;
  size_t len;			/* without the newline */
};

struct content
{
  struct line *lines;
  size_t n, cap;
  int final_newline;		/* the last line ends with '\n' */
};

int is_ours (const char *entry, size_t len);
void content_push (struct content *c, char *p, size_t len);
void content_parse (struct content *c, char *data, size_t len);
void content_join (const struct content *c, struct buf *out);
long find_entry (const struct content *c, long from, const char **entry,
		 size_t *len);
size_t remove_entries (struct content *c);

/* --- file.c: reading and replacing the file ------------------------------ */

struct pfile
{
  char *path;			/* host path of the file itself (links followed) */
  char *dir;			/* its directory */
  char *shown;			/* how to name it in messages */
  int via_link;			/* /etc/ld.so.preload is a symbolic link */
  int exists;
  struct stat st;
  char *data;
  size_t len;
};

int pfile_load (struct pfile *f);
int pfile_replace (const struct pfile *f, const char *data, size_t len);
void warn_comments (const struct pfile *f);
int warn_unreadable (const struct pfile *f);
void restore_label (const char *path);

/* --- library.c: test processes that preload the library ----------------- */

int test_library (const char *lib, const char *entry);

/* --- commands.c: enable, disable, status --------------------------------- */

/* --no-test: enable, or report the status, without running the test.  */
extern int no_test;
/* status --json: the verdict as one JSON object.  */
extern int json_output;

int cmd_enable (void);
int cmd_disable (void);
int cmd_status (void);

#endif
