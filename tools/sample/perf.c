/* SPDX-License-Identifier: MIT */
/* fastcopy-sample: the kernel's samples.

   One cpu-clock event per CPU (for a process: per CPU and thread, the
   threads' events writing to their CPU's ring buffer), sampling user
   space only at a fixed period, with the user registers and a few words
   of the user stack: what the body map needs to tell a call's size, and
   nothing the tool keeps.  The events also report the executable
   mappings (mmap2), programs executed (comm) and processes made (task),
   so that a process that starts and exits while sampling is known
   without /proc.  */

#define _GNU_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/message.h"
#include "common/xalloc.h"
#include "sample/sample.h"

/* The registers kept with a sample: every general register a size
   expression may name, and IP and SP.  */
#define REGS_MASK (0xffull | 1ull << PERF_REG_X86_IP | 0xffull << PERF_REG_X86_R8)
#define STACK_BYTES (SAMPLE_NSTACK * 4)

struct ring
{
  int fd;
  struct perf_event_mmap_page *meta;
  unsigned char *data;
  size_t size;			/* of DATA, a power of two */
};

struct perf_session
{
  size_t nrings;
  struct ring *ring;
  size_t nfds;
  int *fd;			/* every event, the rings' included */
  uint64_t lost;
  unsigned char *record;	/* one record that wrapped around */
};

static int
perf_event_open (struct perf_event_attr *attr, pid_t pid, int cpu)
{
  return (int) syscall (SYS_perf_event_open, attr, pid, cpu, -1,
			PERF_FLAG_FD_CLOEXEC);
}

/* Why the kernel refused, ERR being its errno, and what to do.  */
static void
refused (int err, const struct sample_options *o)
{
  if (err == EACCES || err == EPERM)
    error_msg ("perf events: %s: %s needs root, or CAP_PERFMON (or "
	       "CAP_SYS_ADMIN), or kernel.perf_event_paranoid at %s or "
	       "lower (now %s)", strerror (err),
	       o->all ? "sampling every CPU" : "sampling user space",
	       o->all ? "0" : "2", "see /proc/sys/kernel/perf_event_paranoid");
  else if (err == ENOENT || err == ENOSYS || err == EOPNOTSUPP)
    error_msg ("perf events: %s: this kernel has no perf events or no "
	       "cpu-clock event (CONFIG_PERF_EVENTS)", strerror (err));
  else if (err == ESRCH)
    error_msg ("process %d: no such process", (int) o->pid);
  else if (err == EMFILE)
    error_msg ("perf events: %s: one event per CPU and thread; raise the "
	       "limit on open files (ulimit -n)", strerror (err));
  else
    error_msg ("perf events: %s", strerror (err));
}

static int
online_cpus (void)
{
  long n = sysconf (_SC_NPROCESSORS_CONF);
  return n > 0 ? (int) n : 1;
}

/* The threads of PID into *TIDS; their number (PID alone if its task
   directory cannot be read).  */
static size_t
threads_of (pid_t pid, pid_t **tids)
{
  char dir[64];
  snprintf (dir, sizeof dir, "/proc/%d/task", (int) pid);
  size_t n = 0, cap = 8;
  *tids = xrealloc (NULL, cap * sizeof **tids);
  DIR *d = opendir (dir);
  struct dirent *e;
  while (d != NULL && (e = readdir (d)) != NULL)
    {
      int tid = atoi (e->d_name);
      if (tid <= 0)
	continue;
      if (n == cap)
	*tids = xrealloc (*tids, (cap *= 2) * sizeof **tids);
      (*tids)[n++] = tid;
    }
  if (d != NULL)
    closedir (d);
  if (n == 0)
    (*tids)[n++] = pid;
  return n;
}

/* Data pages per ring: room for a second of samples at HZ (a sample
   with its registers and stack words is about 260 bytes), so that a
   busy machine does not fill a ring between two reads (every 100 ms).  */
static size_t
ring_pages (unsigned int hz)
{
  size_t want = (size_t) hz * 260 / 4096, pages = 16;
  while (pages < want && pages < 1024)
    pages *= 2;
  return pages;
}

/* Map the ring of event FD; a smaller one if the locked-memory limit of
   an unprivileged user (kernel.perf_event_mlock_kb) refuses.  */
static int
map_ring (struct ring *r, int fd, size_t pages)
{
  long page = sysconf (_SC_PAGESIZE);
  for (; pages >= 2; pages /= 2)
    {
      void *p = mmap (NULL, (pages + 1) * (size_t) page,
		      PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
      if (p != MAP_FAILED)
	{
	  r->fd = fd;
	  r->meta = p;
	  r->data = (unsigned char *) p + page;
	  r->size = pages * (size_t) page;
	  return 0;
	}
      if (errno != EPERM && errno != ENOMEM)
	break;
    }
  error_msg ("perf events: cannot map a ring buffer: %s", strerror (errno));
  return -1;
}

struct perf_session *
perf_open (const struct sample_options *o, pid_t pid, int enable_on_exec)
{
  struct perf_event_attr attr;
  memset (&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = PERF_TYPE_SOFTWARE;
  attr.config = PERF_COUNT_SW_CPU_CLOCK;
  /* A fixed period, not a frequency: each sample stands for the same
     time, which is what turns samples into calls (cost.c).  */
  attr.sample_period = 1000000000ull / o->hz;
  attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER
		     | PERF_SAMPLE_STACK_USER;
  attr.sample_regs_user = REGS_MASK;
  attr.sample_stack_user = STACK_BYTES;
  attr.exclude_kernel = 1;
  attr.exclude_hv = 1;
  attr.disabled = 1;
  attr.mmap = 1;
  attr.mmap2 = 1;
  attr.comm = 1;
  attr.comm_exec = 1;
  attr.task = 1;
  attr.inherit = !o->all;
  attr.enable_on_exec = enable_on_exec;
  attr.watermark = 1;

  int ncpus = online_cpus ();
  pid_t *tids = NULL;
  size_t ntids = 1;
  if (!o->all)
    ntids = threads_of (pid, &tids);
  /* One descriptor per CPU and thread.  */
  struct rlimit rl;
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max)
    {
      rl.rlim_cur = rl.rlim_max;
      setrlimit (RLIMIT_NOFILE, &rl);
    }
  struct perf_session *s = zalloc (sizeof *s);
  s->ring = zalloc ((size_t) ncpus * sizeof *s->ring);
  s->fd = zalloc ((size_t) ncpus * ntids * sizeof *s->fd);
  size_t pages = ring_pages (o->hz);
  attr.wakeup_watermark = (uint32_t) (pages * 4096 / 4);
  int err = 0;
  for (int cpu = 0; cpu < ncpus && !err; cpu++)
    {
      int first = -1;
      for (size_t t = 0; t < ntids && !err; t++)
	{
	  int fd = perf_event_open (&attr, o->all ? -1 : tids[t], cpu);
	  if (fd < 0)
	    {
	      /* A CPU that is offline, or a thread that exited meanwhile.  */
	      if (errno == ENODEV || (errno == ESRCH && !o->all && t > 0))
		continue;
	      err = errno;
	      break;
	    }
	  s->fd[s->nfds++] = fd;
	  if (first < 0)
	    {
	      if (map_ring (&s->ring[s->nrings], fd, pages) != 0)
		{
		  free (tids);
		  perf_close (s);
		  return NULL;
		}
	      s->nrings++;
	      first = fd;
	    }
	  else if (ioctl (fd, PERF_EVENT_IOC_SET_OUTPUT, first) != 0)
	    err = errno;
	}
    }
  free (tids);
  if (err == 0 && s->nrings == 0)
    err = ENODEV;
  if (err != 0)
    {
      refused (err, o);
      perf_close (s);
      return NULL;
    }
  return s;
}

void
perf_enable (struct perf_session *s)
{
  for (size_t i = 0; i < s->nfds; i++)
    ioctl (s->fd[i], PERF_EVENT_IOC_ENABLE, 0);
}

void
perf_disable (struct perf_session *s)
{
  for (size_t i = 0; i < s->nfds; i++)
    ioctl (s->fd[i], PERF_EVENT_IOC_DISABLE, 0);
}

/* The fields of a PERF_RECORD_SAMPLE for the sample_type above.  */
static void
parse_sample (const unsigned char *p, const unsigned char *end,
	      const struct sample_sink *sink)
{
  struct sample s;
  memset (&s, 0, sizeof s);
  uint64_t abi;
  if (end - p < 24)
    return;
  memcpy (&s.ip, p, 8);
  uint32_t pt[2];
  memcpy (pt, p + 8, 8);
  s.pid = (pid_t) pt[0];
  s.tid = (pid_t) pt[1];
  memcpy (&abi, p + 16, 8);
  p += 24;
  if (abi != PERF_SAMPLE_REGS_ABI_NONE)
    {
      for (int r = 0; r < PERF_REG_X86_64_MAX; r++)
	if (REGS_MASK >> r & 1)
	  {
	    if (end - p < 8)
	      return;
	    memcpy (&s.regs[r], p, 8);
	    p += 8;
	  }
    }
  s.abi32 = abi == PERF_SAMPLE_REGS_ABI_32;
  uint64_t size, dyn = 0;
  if (end - p < 8)
    return;
  memcpy (&size, p, 8);
  p += 8;
  if (size > 0 && (uint64_t) (end - p) >= size + 8)
    memcpy (&dyn, p + size, 8);
  if (dyn > size)
    dyn = 0;
  size_t word = s.abi32 ? 4 : 8;
  s.nstack = dyn / word;
  for (size_t i = 0; i < s.nstack && i < SAMPLE_NSTACK; i++)
    {
      uint64_t v = 0;
      memcpy (&v, p + i * word, word);
      s.stack[i] = v;
    }
  if (s.nstack > SAMPLE_NSTACK)
    s.nstack = SAMPLE_NSTACK;
  if (abi != PERF_SAMPLE_REGS_ABI_NONE)
    sink->sample (&s);
}

static void
record (struct perf_session *s, const struct perf_event_header *h,
	const struct sample_sink *sink)
{
  const unsigned char *p = (const unsigned char *) (h + 1);
  const unsigned char *end = (const unsigned char *) h + h->size;
  uint32_t pt[2];
  switch (h->type)
    {
    case PERF_RECORD_SAMPLE:
      parse_sample (p, end, sink);
      break;
    case PERF_RECORD_MMAP2:
      {
	/* pid, tid, addr, len, pgoff, maj, min, ino, ino_generation,
	   prot, flags, filename.  */
	uint64_t a[3], ino;
	uint32_t dev[2], prot;
	if (end - p < 8 + 24 + 24 + 8)
	  break;
	memcpy (pt, p, 8);
	memcpy (a, p + 8, 24);
	memcpy (dev, p + 32, 8);
	memcpy (&ino, p + 40, 8);
	memcpy (&prot, p + 56, 4);
	const char *name = (const char *) p + 64;
	if (memchr (name, 0, (size_t) (end - (const unsigned char *) name)))
	  sink->mmap ((pid_t) pt[0], a[0], a[1], a[2],
		      (uint64_t) dev[0] << 32 | dev[1], ino, prot & PROT_EXEC,
		      name);
	break;
      }
    case PERF_RECORD_COMM:
      if (h->misc & PERF_RECORD_MISC_COMM_EXEC && end - p > 8)
	{
	  memcpy (pt, p, 8);
	  const char *name = (const char *) p + 8;
	  if (memchr (name, 0, (size_t) (end - (const unsigned char *) name)))
	    sink->exec ((pid_t) pt[0], name);
	}
      break;
    case PERF_RECORD_FORK:
      if (end - p >= 16)
	{
	  uint32_t f[4];	/* pid, ppid, tid, ptid */
	  memcpy (f, p, 16);
	  if (f[0] != f[1])
	    sink->fork ((pid_t) f[0], (pid_t) f[1]);
	}
      break;
    case PERF_RECORD_LOST:
      if (end - p >= 16)
	{
	  uint64_t lost;
	  memcpy (&lost, p + 8, 8);
	  s->lost += lost;
	}
      break;
    }
}

/* Every record in ring R.  */
static void
drain (struct perf_session *s, struct ring *r, const struct sample_sink *sink)
{
  uint64_t head = __atomic_load_n (&r->meta->data_head, __ATOMIC_ACQUIRE);
  uint64_t tail = r->meta->data_tail;
  while (tail + sizeof (struct perf_event_header) <= head)
    {
      size_t at = tail & (r->size - 1);
      struct perf_event_header h;
      memcpy (&h, r->data + at, sizeof h);	/* a header never wraps */
      if (h.size < sizeof h || tail + h.size > head)
	break;
      const struct perf_event_header *rec;
      if (at + h.size <= r->size)
	rec = (const void *) (r->data + at);
      else
	{
	  size_t first = r->size - at;
	  memcpy (s->record, r->data + at, first);
	  memcpy (s->record + first, r->data, h.size - first);
	  rec = (const void *) s->record;
	}
      record (s, rec, sink);
      tail += h.size;
    }
  __atomic_store_n (&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

void
perf_read (struct perf_session *s, int timeout_ms,
	   const struct sample_sink *sink)
{
  if (s->record == NULL)
    s->record = xrealloc (NULL, 65536);	/* a record's size is 16 bits */
  struct pollfd *p = zalloc (s->nrings * sizeof *p);
  for (size_t i = 0; i < s->nrings; i++)
    p[i] = (struct pollfd) { .fd = s->ring[i].fd, .events = POLLIN };
  if (timeout_ms > 0)
    poll (p, s->nrings, timeout_ms);
  free (p);
  for (size_t i = 0; i < s->nrings; i++)
    drain (s, &s->ring[i], sink);
}

uint64_t
perf_lost (const struct perf_session *s)
{
  return s->lost;
}

void
perf_close (struct perf_session *s)
{
  long page = sysconf (_SC_PAGESIZE);
  for (size_t i = 0; i < s->nrings; i++)
    munmap (s->ring[i].meta, s->ring[i].size + (size_t) page);
  for (size_t i = 0; i < s->nfds; i++)
    close (s->fd[i]);
  free (s->ring);
  free (s->fd);
  free (s->record);
  free (s);
}
