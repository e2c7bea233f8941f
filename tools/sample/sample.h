/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: declarations shared by its source files.

   main.c     options, and the order of the work
   perf.c     the kernel's samples: perf events and their ring buffers
   procs.c    the processes seen, what each maps, and a sample's meaning
   glibc.c    where glibc's own copy and clear functions lie
   cost.c     what one call costs alone, per implementation and size
              (cached)
   census.c   the census windows: every call counted, for moments
   context.c  how much more it costs among the calls around it
   output.c   the recording (common/workload.c's format) and the report
   buckets.c  the recording's size buckets, and classes of sizes
   The body map of libfastcopy is read through
   common/body-map-read.h.

   Why this design: the kernel takes the samples (perf_event_open, a
   cpu-clock software event, so it works in virtual machines without a
   PMU) and the library's code is not touched: no hook on its hot path, no
   eBPF program and no dependency beyond the kernel's perf events.  The
   size of the call a sample lands in is computed from the sample's user
   registers by the body map, which the library carries in its file.
   Samples tell where time goes; converting them to calls needs each
   call's cost in its program, which for the smallest calls is not known
   well enough (a TVD of 0.1-0.3 on clears).  So the calls themselves are
   counted too, in short windows in which the library counts every call
   (census.c), and the samples of a process are converted only where no
   window could count it.  */

#ifndef FASTCOPY_SAMPLE_TOOL_H
#define FASTCOPY_SAMPLE_TOOL_H 1

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <asm/perf_regs.h>

#include "common/body-map-read.h"
#include "common/xalloc.h"
#include "size-buckets.h"
#include "tools-interface.h"

#define SAMPLE_NSTACK 16	/* words of user stack kept with a sample:
				   64 bytes, 16 i386 words, 8 x86-64 ones */

/* N zeroed bytes, never NULL.  */
static inline void *
zalloc (size_t n)
{
  return memset (xrealloc (NULL, n), 0, n);
}

/* main.c: the number of the signal, SIGINT or SIGTERM, that ends the run;
   0 while none came.  Each phase looks at it at least every 100 ms and
   stops: nothing is written then, and the exit status is 128 + the
   signal's number.  */
extern volatile sig_atomic_t sample_stop;

/* What was asked on the command line.  */
struct sample_options
{
  const char *out;
  int all;			/* -a */
  pid_t pid;			/* -p; 0: none */
  char *const *command;		/* NULL: none */
  double seconds;		/* -d; 0: until the command exits */
  unsigned int hz;		/* -F */
  int comm;			/* --comm: keep process names */
  int no_census;		/* --no-census */
};

/* One sample as the kernel gave it.  */
struct sample
{
  pid_t pid, tid;
  uint64_t ip;
  int abi32;			/* the thread ran 32-bit code */
  uint64_t regs[PERF_REG_X86_64_MAX];
  size_t nstack;		/* words of STACK, pointer-sized for the ABI */
  uint64_t stack[SAMPLE_NSTACK];
};

/* What the kernel tells besides samples.  */
struct sample_sink
{
  void (*sample) (const struct sample *s);
  /* DEV (major << 32 | minor) and INO name the file: a path may name
     another in another mount namespace.  */
  void (*mmap) (pid_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		uint64_t dev, uint64_t ino, int exec, const char *path);
  void (*exec) (pid_t pid, const char *comm);
  void (*fork) (pid_t pid, pid_t parent);
};

/* perf.c */
struct perf_session;
/* Open the events for O: every CPU for O->all, else PID (its threads,
   inherited by the children they make); ENABLE_ON_EXEC for a command
   that has not executed yet.  NULL after an error message that says what
   to do (the privileges it needs, or that the kernel has no perf
   events).  */
struct perf_session *perf_open (const struct sample_options *o, pid_t pid,
				int enable_on_exec);
void perf_enable (struct perf_session *s);
void perf_disable (struct perf_session *s);
/* Wait up to TIMEOUT_MS for records and hand all there are to SINK.  */
void perf_read (struct perf_session *s, int timeout_ms,
		const struct sample_sink *sink);
/* Records the kernel could not store (PERF_RECORD_LOST), so far.  */
uint64_t perf_lost (const struct perf_session *s);
void perf_close (struct perf_session *s);

/* procs.c */
/* One attributed sample: a call in a libfastcopy body.  No address is
   kept: the destination's address mod 64 and (dst - src) mod 4096 are
   all that tuning needs.  */
struct call_sample
{
  pid_t pid;			/* while the samples are read only */
  uint64_t size;
  char impl[9];
  uint8_t family, path;
  int8_t dst_align, src_align;	/* -1: not recoverable here */
  int8_t overlap;		/* FC_REC_NOVERLAP class, -1: unknown */
  int16_t distance;		/* (dst - src) mod 4096, -1: unknown */
};

/* A process and where its samples landed.  */
struct proc_tally
{
  pid_t pid;
  char comm[16];		/* with --comm only */
  uint64_t samples, fastcopy, glibc;
};

struct tallies
{
  uint64_t samples;		/* every user-space sample */
  uint64_t in_fastcopy;		/* in a libfastcopy's code */
  uint64_t fastcopy;		/* in a libfastcopy body */
  uint64_t glibc;		/* in glibc's copy and clear functions */
  uint64_t unattributed;	/* in a body, with no size (see procs.c) */
  uint64_t shared;		/* in code no implementation owns (the
				   exported entry before its dispatch) */
  uint64_t no_maps;		/* process gone before its maps were read */
  uint64_t no_body_map;		/* in a libfastcopy without a body map */
  uint64_t mapped_fastcopy;	/* processes sampled that map libfastcopy */
  int glibc_symbols;		/* some libc had symbols: 1; none had: 0 */
  size_t ncalls;
  struct call_sample *calls;
  size_t nprocs;
  struct proc_tally *procs;	/* by samples, most first */
};

void procs_init (int keep_comm);
extern const struct sample_sink procs_sink;
/* The tallies so far (the caller frees T->calls and T->procs).  */
void procs_tallies (struct tallies *t);
/* Forget the tallies, to count another session's samples.  */
void procs_reset (void);

/* Where the census of a process lies: the processes the samples showed
   mapping a libfastcopy that has one (census.c opens windows in them).
   Returns how many, in *OUT, which the caller frees.  */
struct census_target
{
  pid_t pid;
  uint64_t address;		/* its struct fc_census */
};
size_t procs_census_targets (struct census_target **out);

/* census.c */
/* Windows are added up in CENSUS_GROUPS groups, window I in group
   I % CENSUS_GROUPS, for the bootstrap of the bound (output.c).  */
#define CENSUS_GROUPS 64
struct census_result
{
  uint64_t windows;
  uint64_t open_ns;		/* the windows' time, all together */
  struct fc_counts total[FASTCOPY_FAMILY_COUNT];
  uint64_t group[CENSUS_GROUPS][FASTCOPY_FAMILY_COUNT][FC_BUCKETS];
  size_t ncovered;
  pid_t *covered;		/* the processes with calls counted */
};
/* Windows in proportion to HZ, the sampling rate.  */
void census_init (unsigned int hz);
/* Open and close a window, if one is due at NOW (seconds, monotonic);
   called between reads of the samples.  Returns the seconds until the
   next one.  */
double census_step (double now);
const struct census_result *census_result (void);
/* Whether the windows counted calls of process PID: its samples are not
   converted to calls then.  */
int census_counted (pid_t pid);

/* glibc.c */
struct glibc_funcs;
/* The link-time ranges of the copy and clear functions of the libc at
   PATH, from its .symtab or its debug file; NULL if it has neither.  */
struct glibc_funcs *glibc_funcs_load (const char *path);
/* Nonzero when FILE_OFFSET in PATH lies in one of them.  */
int glibc_funcs_has (const struct glibc_funcs *g, uint64_t file_offset);
void glibc_funcs_free (struct glibc_funcs *g);

/* cost.c */
/* Nanoseconds of one call of implementation IMPL of FAMILY on SIZE bytes
   alone in a loop, measured here (or read from the cache); 0 when this
   library has no such implementation or the CPU cannot run it.
   Measures the whole table at once: cost_want each, then cost_measure,
   then cost_alone.  */
void cost_want (int family, const char *impl, uint64_t size);
void cost_measure (void);
double cost_alone (int family, const char *impl, uint64_t size);
/* Where the cost table was read from or written to ("" if nowhere),
   and whether it was measured now.  */
extern char cost_cache_path[];
extern int cost_measured_now;
/* The cache's directory (--cache-dir); NULL: the default.  */
extern const char *cost_cache_dir;

/* context.c */
/* After cost_measure: how much longer each class of sizes of T's calls
   takes among the calls around it than alone, measured on a sampled
   replay of them.  */
void cost_context (const struct tallies *t);
/* ns per call of IMPL of FAMILY on SIZE bytes in its program: the
   table's, times the context's factor once cost_context measured it.  */
double cost_of (int family, const char *impl, uint64_t size);

/* buckets.c */
/* Classes of sizes: 0 and 1, then (2^(k-1), 2^k].  The class of the
   bucket that holds size N: a bucket above 512 bytes crosses a power of
   two only at its first size, and goes by its last.  */
#define CLASSES 65
unsigned int size_class (uint64_t n);
/* The largest size the bodies copy without a loop (8 vectors of 64
   bytes): up to it, the sizes of one class run the same instructions, or
   nearly; above it, a call's time grows with its bytes.  */
#define LOOPLESS_UPTO 512

/* output.c */
/* 0 if OUT can be replaced: a regular file or none, in a directory
   that can be written; else -1 after an error message.  */
int output_check (const char *out);
/* Write the recording of T to O->out and print the report.  Returns 0,
   or 1 after an error message.  */
int output (const struct sample_options *o, const struct tallies *t,
	    double seconds, uint64_t lost);

#endif
