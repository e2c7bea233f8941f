/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: the census windows (src/calls/census.h).

   Between reads of the samples the sampler opens a window of WINDOW_NS
   in every process it has seen map a libfastcopy with a census: it writes
   the window's deadline and the entry bytes it found there, then the
   census byte, with process_vm_writev; sleeps; writes the bytes back; and
   reads the lanes.  What the lanes gained is the window's count of the
   calls, every one of them, by size, alignment, distance and function.
   The gaps between windows are drawn at random, so that no periodic work
   of the program lines up with them.

   How often: a counted call costs 10-15 ns more, five times a 16-byte
   copy (doc/bench/intel-6-207-sampler-counting-c9c8867.txt), and a sample
   costs the sampled CPU about 25 us in a guest.  The windows take
   DUTY_PER_HZ of the time per Hz of the sampling rate, so that the
   census costs a program less than the samples cost it: at the default
   99 Hz, 0.4 ms a second (a little more, as a sleep wakes late), about
   0.2% for a program that does nothing but 16-byte copies against the
   samples' 0.25%; at 4999 Hz, 2% of the time, as the samples take
   12%.

   A process the sampler may not write (another user's, without
   CAP_SYS_PTRACE), or whose census is of another layout, is not counted:
   its samples are converted to calls by their cost instead (output.c).
   So is a process whose entry bytes already hold the census byte:
   another sampler is counting it.  */

#define _GNU_SOURCE 1
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/uio.h>
#include <time.h>

#include "common/measure.h"
#include "sample/sample.h"
#include "tools-interface.h"

#define WINDOW_NS 500000ull
#define DUTY_PER_HZ 4e-6
/* How long after its end a window the sampler could not close closes
   itself: long enough for a sampler descheduled for a while.  */
#define DEADLINE_SLACK_NS 200000000ull

/* A process the windows count, or tried to.  */
struct counted
{
  pid_t pid;
  uint64_t address;		/* its struct fc_census */
  int refused;			/* cannot be written, or of another layout */
  unsigned char saved[FASTCOPY_FAMILY_COUNT];
  int open;			/* a window is open in it */
  int counting;			/* LANE holds the lanes' counts */
  /* The lanes as last read; NULL for one that never counted a call.  */
  struct fc_census_lane *lane[FC_CENSUS_LANES];
};

static struct counted *counted;
static size_t ncounted;
static struct census_result result;
static double next_window;
static double mean_gap;		/* seconds from one window to the next */
static uint64_t rng_state = 0x853c49e6748fea9bull;

/* From 0 to 1, from RNG_STATE.  */
static double
uniform (void)
{
  return (double) (fcm_splitmix64 (&rng_state) >> 11) / (double) (1ull << 53);
}

/* N bytes at ADDRESS in C's process into BUF (peek), or N bytes of BUF
   to OFFSET in its census (poke): 0, or -1.  */
static int
peek (const struct counted *c, uint64_t address, void *buf, size_t n)
{
  struct iovec local = { buf, n }, remote = { (void *) address, n };
  return process_vm_readv (c->pid, &local, 1, &remote, 1, 0)
	 == (ssize_t) n ? 0 : -1;
}

static int
poke (const struct counted *c, size_t offset, const void *buf, size_t n)
{
  struct iovec local = { (void *) buf, n },
	       remote = { (void *) (c->address + offset), n };
  return process_vm_writev (c->pid, &local, 1, &remote, 1, 0)
	 == (ssize_t) n ? 0 : -1;
}

/* TO plus FROM, less LESS where it is not NULL, tally by tally.  */
static void
add_counts (struct fc_counts *to, const struct fc_counts *from,
	    const struct fc_counts *less)
{
  enum { NTALLY = sizeof (struct fc_counts) / sizeof (struct fc_tally) };
  struct fc_tally *t = (struct fc_tally *) to;
  const struct fc_tally *a = (const struct fc_tally *) from;
  const struct fc_tally *b = (const struct fc_tally *) less;
  for (size_t i = 0; i < NTALLY; i++)
    {
      t[i].calls += a[i].calls - (b != NULL ? b[i].calls : 0);
      t[i].bytes += a[i].bytes - (b != NULL ? b[i].bytes : 0);
    }
}

/* What C's lanes counted since they were last read, added to DELTA
   (NULL: only remember them): only the lanes whose count of calls moved
   are read whole.  0, or -1 when they cannot be read.  */
static int
read_lanes (struct counted *c, struct fc_counts *delta)
{
  struct fc_census s;
  if (peek (c, c->address, &s, sizeof s) != 0)
    return -1;
  if (s.lanes == 0)
    return 0;			/* no call counted yet */
  struct fc_census_lane head[FC_CENSUS_LANES];
  for (int l = 0; l < FC_CENSUS_LANES; l++)
    {
      uint64_t at = s.lanes + l * sizeof head[0];
      if (peek (c, at, &head[l], offsetof (struct fc_census_lane, family))
	  != 0)
	return -1;
      if (head[l].calls == (c->lane[l] != NULL ? c->lane[l]->calls : 0))
	continue;
      static struct fc_census_lane now;
      if (peek (c, at, &now, sizeof now) != 0)
	return -1;
      if (c->lane[l] == NULL)
	c->lane[l] = zalloc (sizeof now);
      for (int f = 0; f < FASTCOPY_FAMILY_COUNT && delta != NULL; f++)
	add_counts (&delta[f], &now.family[f], &c->lane[l]->family[f]);
      *c->lane[l] = now;
    }
  return 0;
}

/* Open a window in C, to end by DEADLINE.  */
static void
open_window (struct counted *c, uint64_t deadline)
{
  struct fc_census s;
  if (peek (c, c->address, &s, sizeof s) != 0)
    return;			/* gone */
  if (s.version != FC_CENSUS_VERSION || s.size != sizeof s)
    {
      c->refused = 1;
      return;
    }
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    if (s.entry[f] == FC_ENTRY_CENSUS)
      return;			/* another sampler's window */
  /* The first window starts from what the lanes hold already (an
     earlier sampler's).  */
  if (!c->counting && read_lanes (c, NULL) != 0)
    return;
  c->counting = 1;
  memcpy (c->saved, s.entry, sizeof c->saved);
  unsigned char census[FASTCOPY_FAMILY_COUNT];
  memset (census, FC_ENTRY_CENSUS, sizeof census);
  if (poke (c, offsetof (struct fc_census, saved), s.entry, sizeof s.entry)
      != 0
      || poke (c, offsetof (struct fc_census, deadline), &deadline,
	       sizeof deadline) != 0
      || poke (c, FC_CENSUS_ENTRY_OFFSET, census, sizeof census) != 0)
    {
      c->refused = errno == EPERM || errno == EFAULT;
      return;
    }
  c->open = 1;
}

/* PID's calls are counted: its samples are not converted.  */
static void
cover (pid_t pid)
{
  for (size_t i = 0; i < result.ncovered; i++)
    if (result.covered[i] == pid)
      return;
  result.covered = xrealloc (result.covered,
			     (result.ncovered + 1) * sizeof *result.covered);
  result.covered[result.ncovered++] = pid;
}

/* Close C's window, and add what it counted to the result's totals and
   to group G.  */
static void
close_window (struct counted *c, size_t g)
{
  c->open = 0;
  if (poke (c, FC_CENSUS_ENTRY_OFFSET, c->saved, sizeof c->saved) != 0)
    return;			/* gone, or closed by its deadline */
  static struct fc_counts delta[FASTCOPY_FAMILY_COUNT];
  memset (delta, 0, sizeof delta);
  if (read_lanes (c, delta) != 0)
    return;
  int counted_any = 0;
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      add_counts (&result.total[f], &delta[f], NULL);
      for (size_t k = 0; k < FC_BUCKETS; k++)
	{
	  result.group[g][f][k] += delta[f].size[k].calls;
	  counted_any |= delta[f].size[k].calls != 0;
	}
    }
  if (counted_any)
    cover (c->pid);
}

/* The record of the process at ADDRESS in PID, made if new.  */
static struct counted *
record (pid_t pid, uint64_t address)
{
  for (size_t i = 0; i < ncounted; i++)
    if (counted[i].pid == pid && counted[i].address == address)
      return &counted[i];
  counted = xrealloc (counted, (ncounted + 1) * sizeof *counted);
  struct counted *c = &counted[ncounted++];
  memset (c, 0, sizeof *c);
  c->pid = pid;
  c->address = address;
  return c;
}

static void
window (void)
{
  struct census_target *t;
  size_t n = procs_census_targets (&t);
  uint64_t deadline = fcm_now_ns () + WINDOW_NS + DEADLINE_SLACK_NS;
  int any = 0;
  for (size_t i = 0; i < n; i++)
    {
      struct counted *c = record (t[i].pid, t[i].address);
      if (!c->refused)
	{
	  open_window (c, deadline);
	  any |= c->open;
	}
    }
  free (t);
  if (!any)
    return;
  uint64_t opened = fcm_now_ns ();
  struct timespec w = { 0, (long) WINDOW_NS };
  while (nanosleep (&w, &w) != 0 && errno == EINTR && !sample_stop)
    ;
  result.open_ns += fcm_now_ns () - opened;
  size_t g = result.windows % CENSUS_GROUPS;
  for (size_t i = 0; i < ncounted; i++)
    if (counted[i].open)
      close_window (&counted[i], g);
  result.windows++;
}

void
census_init (unsigned int hz)
{
  mean_gap = (double) WINDOW_NS / 1e9 / (DUTY_PER_HZ * hz);
  /* A window is a sleep: without this, the kernel may let it run 50 us
     long, and each window costs the program that much more.  */
  prctl (PR_SET_TIMERSLACK, 1ul, 0ul, 0ul, 0ul);
}

double
census_step (double now)
{
  if (now >= next_window)
    {
      if (next_window > 0)
	window ();
      next_window = now + mean_gap * (0.5 + uniform ());
    }
  return next_window - now;
}

int
census_counted (pid_t pid)
{
  for (size_t i = 0; i < result.ncovered; i++)
    if (result.covered[i] == pid)
      return 1;
  return 0;
}

const struct census_result *
census_result (void)
{
  return &result;
}
