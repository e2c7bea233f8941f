/* SPDX-License-Identifier: MIT */
/* Recording a workload: the profile implementations of impl-list.def and
   the file they leave (its format: fastcopy-profile(1), FILE FORMAT).

   Nothing here runs in a process that does not ask for a recording.  The
   profile implementations are in no exported entry point's path and in no
   policy row; the plan selects them only under the profile setting, which
   only FASTCOPY may give and which secure-execution processes never read
   (settings.c).  Their state lives here, away from the load-time state
   (load-state.h), and is written only while recording.

   1. Each thread counts into a block of its own, found through a
      thread-local pointer: no atomic read-modify-write and no cache line
      shared with another thread.  A block is mapped on a thread's first
      call and linked into a list that never shrinks; when its thread
      exits, the next new thread takes it over, counts and all.  The
      process's counts are the sums over the list.
   2. A call counts as counts.h says.
   3. The file holds the sums, written at exit as PATH.PID and, when
      profile_signal names a signal, on each such signal as PATH.PID.N;
      created with O_EXCL | O_NOFOLLOW, so never over an existing file or
      through a link.  Writing uses system calls and this file's own
      formatting only, so that it may run in a signal handler, and fails
      silently: the program is not ours to disturb.
   4. A child made by fork starts from zero, so that its file counts its
      own calls; a program it executes records into its own file.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "counts.h"
#include "dispatch.h"
#include "load/load-state.h"
#include "profile.h"


struct block
{
  struct fc_counts family[FASTCOPY_FAMILY_COUNT];
  struct block *next;		/* the list, newest first */
  int in_use;			/* a live thread counts into it */
};

/* Non-NULL while recording: the implementations the calls go on to.  */
static FC_LAZY fastcopy_copy_fn copy_worker;
static FC_LAZY fastcopy_clear_fn clear_worker;

/* Each thread's block is its value of BLOCK_KEY, not a thread-local
   variable: static TLS would cost every process that loads the library,
   recording or not, and can make a later dlopen of it fail.  */
static FC_LAZY struct block *blocks;
static FC_LAZY pthread_key_t block_key;

/* What a recording needs besides the counts, made when one starts, on
   the heap (FC_LAZY would put 5 KiB of file in the library for it).  */
struct recorder
{
  char base_path[FC_PATH_MAX];	/* the profile setting's path */
  size_t base_len;
  struct timespec started;
  unsigned int snapshots;	/* files written on the signal */
  int writing;			/* write_file is at work */
  struct out *out;		/* its buffer */
  struct sigaction signal;
};
static FC_LAZY struct recorder *rec;

/* ------------------------------------------------------------------------ */
/* Counting.  */

/* At thread exit: the block goes to the next new thread.  */
static void
release (void *arg)
{
  struct block *b = arg;
  __atomic_store_n (&b->in_use, 0, __ATOMIC_RELEASE);
}

/* The calling thread's block: a free one from the list, or a new one.
   NULL if none can be mapped (the call then goes uncounted).  */
static struct block *
acquire (void)
{
  struct block *b;
  for (b = __atomic_load_n (&blocks, __ATOMIC_ACQUIRE); b != NULL; b = b->next)
    {
      int free_ = 0;
      if (__atomic_compare_exchange_n (&b->in_use, &free_, 1, 0,
				       __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
	break;
    }
  if (b == NULL)
    {
      void *p = mmap (NULL, sizeof *b, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED)
	return NULL;
      b = p;
      b->in_use = 1;
      b->next = __atomic_load_n (&blocks, __ATOMIC_RELAXED);
      while (!__atomic_compare_exchange_n (&blocks, &b->next, b, 1,
					   __ATOMIC_RELEASE, __ATOMIC_RELAXED))
	;
    }
  pthread_setspecific (block_key, b);
  return b;
}

static inline struct fc_counts *
counts_of (enum fastcopy_family family)
{
  struct block *b = pthread_getspecific (block_key);
  if (b == NULL)
    b = acquire ();
  return b != NULL ? &b->family[family] : NULL;
}

void *
memmove_profile (void *dst, const void *src, size_t n)
{
  fastcopy_copy_fn worker = __atomic_load_n (&copy_worker, __ATOMIC_ACQUIRE);
  if (worker == NULL)
    return fc_copy_slot (dst, src, n);	/* not recording: called directly */
  struct fc_counts *c = counts_of (FASTCOPY_FAMILY_COPY);
  if (c != NULL)
    fc_count_copy (c, dst, src, n, FC_FROM_MEMPCPY ());
  return worker (dst, src, n);
}

void *
memset_profile (void *dst, int value, size_t n)
{
  fastcopy_clear_fn worker = __atomic_load_n (&clear_worker,
					      __ATOMIC_ACQUIRE);
  if (worker == NULL)
    return fc_clear_slot (dst, value, n);
  struct fc_counts *c = counts_of (FASTCOPY_FAMILY_CLEAR);
  if (c != NULL)
    fc_count_clear (c, dst, n, FC_FROM_EXPLICIT_BZERO ());
  return worker (dst, value, n);
}

/* ------------------------------------------------------------------------ */
/* Writing, with system calls and this file's formatting only.  */

struct out
{
  int fd;
  int failed;
  size_t len;
  char buf[4096];
};

static void
flush (struct out *o)
{
  size_t done = 0;
  while (done < o->len && !o->failed)
    {
      ssize_t w = write (o->fd, o->buf + done, o->len - done);
      if (w > 0)
	done += (size_t) w;
      else if (w < 0 && errno != EINTR)
	o->failed = 1;
    }
  o->len = 0;
}

static void
put (struct out *o, const char *s, size_t n)
{
  for (size_t i = 0; i < n; i++)
    {
      if (o->len == sizeof o->buf)
	flush (o);
      o->buf[o->len++] = s[i];
    }
}

static void
put_str (struct out *o, const char *s)
{
  size_t n = 0;
  while (s[n] != 0)
    n++;
  put (o, s, n);
}

/* V in decimal into BUF (at least 21 bytes); returns its length.  */
static size_t
decimal (unsigned long long v, char *buf)
{
  char tmp[20];
  size_t n = 0;
  do
    tmp[n++] = (char) ('0' + v % 10);
  while ((v /= 10) != 0);
  for (size_t i = 0; i < n; i++)
    buf[i] = tmp[n - 1 - i];
  return n;
}

static void
put_num (struct out *o, unsigned long long v)
{
  char b[21];
  put (o, b, decimal (v, b));
}

/* The process's tally at offset OFF of family F's counts.  */
static struct fc_tally
sum (int f, size_t off)
{
  struct fc_tally t = { 0, 0 };
  for (struct block *b = __atomic_load_n (&blocks, __ATOMIC_ACQUIRE);
       b != NULL; b = b->next)
    {
      const struct fc_tally *x
	= (const struct fc_tally *) ((const char *) &b->family[f] + off);
      t.calls += __atomic_load_n (&x->calls, __ATOMIC_RELAXED);
      t.bytes += __atomic_load_n (&x->bytes, __ATOMIC_RELAXED);
    }
  return t;
}

/* One line per tally with calls: "FAMILY,WHAT,VALUE,CALLS,BYTES".  VALUE
   is NAMES[i] if NAMES is given, else the bucket's sizes for size, else
   i.  */
static void
put_rows (struct out *o, int f, const char *what, size_t off, size_t n,
	  const char (*names)[16])
{
  for (size_t i = 0; i < n; i++)
    {
      struct fc_tally t = sum (f, off + i * sizeof t);
      if (t.calls == 0)
	continue;
      put_str (o, f == FASTCOPY_FAMILY_COPY ? FC_REC_COPY "," : FC_REC_CLEAR ",");
      put_str (o, what);
      put_str (o, ",");
      if (names != NULL)
	put_str (o, names[i]);
      else if (off == __builtin_offsetof (struct fc_counts, size))
	{
	  unsigned long long lo, hi;
	  fc_size_bucket_range (i, &lo, &hi);
	  put_num (o, lo);
	  if (hi != lo)
	    {
	      put_str (o, "-");
	      put_num (o, hi);
	    }
	}
      else
	put_num (o, i);
      put_str (o, ",");
      put_num (o, t.calls);
      put_str (o, ",");
      put_num (o, t.bytes);
      put_str (o, "\n");
    }
}

/* "# command: ..." from /proc/self/cmdline, arguments separated by
   spaces, anything unprintable as '?', at most 200 bytes.  */
static void
put_command (struct out *o)
{
  char b[200];
  int fd = open ("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  ssize_t n = read (fd, b, sizeof b);
  close (fd);
  if (n <= 0)
    return;
  while (n > 0 && b[n - 1] == 0)
    n--;
  for (ssize_t i = 0; i < n; i++)
    b[i] = b[i] == 0 ? ' ' : b[i] < 0x20 || b[i] >= 0x7f ? '?' : b[i];
  put_str (o, FC_REC_COMMAND);
  put (o, b, (size_t) n);
  put_str (o, "\n");
}

/* Arrays, not pointers: loading the library relocates nothing here.  */
static const char copy_functions[2][16] = { FC_REC_COPY_FUNCTIONS };
static const char clear_functions[2][16] = { FC_REC_CLEAR_FUNCTIONS };
static const char distances[FC_REC_NDIST][16] = { FC_REC_DISTANCES };
static const char overlaps[FC_REC_NOVERLAP][16] = { FC_REC_OVERLAPS };

static void
put_counts (struct out *o)
{
#define AT(member) __builtin_offsetof (struct fc_counts, member)
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      int copy = f == FASTCOPY_FAMILY_COPY;
      put_rows (o, f, FC_REC_SIZE, AT (size), FC_BUCKETS, NULL);
      put_rows (o, f, FC_REC_FUNCTION, AT (function), 2,
		copy ? copy_functions : clear_functions);
      put_rows (o, f, FC_REC_DST_ALIGN, AT (dst_align), 64, NULL);
      if (!copy)
	continue;
      put_rows (o, f, FC_REC_SRC_ALIGN, AT (src_align), 64, NULL);
      put_rows (o, f, FC_REC_DISTANCE, AT (distance), FC_REC_NDIST, distances);
      put_rows (o, f, FC_REC_OVERLAP, AT (overlap), FC_REC_NOVERLAP, overlaps);
    }
#undef AT
}

/* Write the sums to base_path.PID, or base_path.PID.N for the Nth
   signal (SNAPSHOT N, 0 at exit).  */
static void
write_file (unsigned int snapshot)
{
  if (__atomic_exchange_n (&rec->writing, 1, __ATOMIC_ACQUIRE))
    return;			/* a signal during the exit's write */
  struct out *o = rec->out;
  char path[FC_PATH_MAX];
  size_t len = rec->base_len;
  for (size_t i = 0; i < len; i++)
    path[i] = rec->base_path[i];
  path[len++] = '.';
  len += decimal ((unsigned long long) getpid (), path + len);
  if (snapshot != 0)
    {
      path[len++] = '.';
      len += decimal (snapshot, path + len);
    }
  path[len] = 0;
  o->fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	       0644);
  if (o->fd >= 0)
    {
      struct timespec now;
      clock_gettime (CLOCK_MONOTONIC, &now);
      long long ms = (now.tv_sec - rec->started.tv_sec) * 1000
		     + (now.tv_nsec - rec->started.tv_nsec) / 1000000;
      char frac[4] = { '.', (char) ('0' + ms / 100 % 10),
		       (char) ('0' + ms / 10 % 10), (char) ('0' + ms % 10) };
      o->failed = 0;
      o->len = 0;
      put_str (o, FC_REC_VERSION_LINE FC_REC_VERSION_TEXT "\n# pid ");
      put_num (o, (unsigned long long) getpid ());
      put_str (o, ", recorded for ");
      put_num (o, (unsigned long long) (ms / 1000));
      put (o, frac, sizeof frac);
      put_str (o, snapshot ? " s, on a signal\n" : " s, at exit\n");
      put_command (o);
      /* Every call counted: the histograms are exact.  */
      put_str (o, FC_REC_BOUND "copy=0 clear=0 share=0\n");
      put_str (o, FC_REC_HEADER "\n");
      put_counts (o);
      flush (o);
      close (o->fd);
    }
  __atomic_store_n (&rec->writing, 0, __ATOMIC_RELEASE);
}

static void
write_at_exit (void)
{
  write_file (0);
}

static void
on_signal (int sig)
{
  (void) sig;
  int saved = errno;
  write_file (++rec->snapshots);
  errno = saved;
}

/* In a child made by fork: only this thread is left, and the counts so
   far are the parent's.  */
static void
forked (void)
{
  struct block *mine = pthread_getspecific (block_key);
  for (struct block *b = blocks; b != NULL; b = b->next)
    {
      volatile unsigned char *p = (volatile unsigned char *) b->family;
      for (size_t i = 0; i < sizeof b->family; i++)
	p[i] = 0;
      b->in_use = b == mine;
    }
  rec->snapshots = 0;
  clock_gettime (CLOCK_MONOTONIC, &rec->started);
}

int
fc_profile_start (fastcopy_copy_fn copy, fastcopy_clear_fn clear)
{
  const struct fc_item *p = &fc_state.settings.merged.item[FC_KEY_PROFILE];
  const struct fc_item *sig
    = &fc_state.settings.merged.item[FC_KEY_PROFILE_SIGNAL];
  const char *text = p->path;
  if (p->path_len > FC_PROFILE_PATH_MAX)
    return -1;			/* the parser allows none */
  rec = calloc (1, sizeof *rec + sizeof *rec->out);
  if (rec == NULL)
    return -1;
  rec->out = (struct out *) (rec + 1);
  rec->base_len = p->path_len;
  for (size_t i = 0; i < rec->base_len; i++)
    rec->base_path[i] = text[i];
  clock_gettime (CLOCK_MONOTONIC, &rec->started);
  if (pthread_key_create (&block_key, release) != 0
      || pthread_atfork (NULL, NULL, forked) != 0
      || atexit (write_at_exit) != 0)
    return -1;
  if (sig->set && sig->number != 0)
    {
      /* calloc's zeros: no memset call to clear it.  */
      rec->signal.sa_handler = on_signal;
      rec->signal.sa_flags = SA_RESTART;
      sigemptyset (&rec->signal.sa_mask);
      sigaction ((int) sig->number, &rec->signal, NULL);
    }
  __atomic_store_n (&clear_worker, clear, __ATOMIC_RELEASE);
  __atomic_store_n (&copy_worker, copy, __ATOMIC_RELEASE);
  return 0;
}
