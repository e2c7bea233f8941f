/* SPDX-License-Identifier: MIT */
/* libfastcopy: CPU-dispatched memcpy/memmove/memset family for x86-64 GNU/Linux.

   The library exports the standard names (memcpy, memmove, mempcpy, memset,
   bzero, explicit_bzero and the fortified __*_chk forms) with glibc's symbol
   versions, so that loading it (LD_PRELOAD, /etc/ld.so.preload or -lfastcopy)
   replaces glibc's.  This header declares the library's own API, version node
   FASTCOPY_1: the CPU features it detected, the table of implementations, and
   which implementation each exported function uses and why.  */

#ifndef FASTCOPY_H
#define FASTCOPY_H 1

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Function families: every exported function belongs to one.  */
enum fastcopy_family
{
  FASTCOPY_FAMILY_COPY = 0,	/* memmove, memcpy, mempcpy and their _chk forms */
  FASTCOPY_FAMILY_CLEAR = 1,	/* memset, bzero, explicit_bzero and _chk forms */
  FASTCOPY_FAMILY_ALL = 2	/* settings only: both families (policy) */
};
#define FASTCOPY_FAMILY_COUNT 2

/* Copy implementations have memmove's semantics (overlap-safe) and return
   DST; clear implementations have memset's and return DST.  */
typedef void *(*fastcopy_copy_fn) (void *dst, const void *src, size_t n);
typedef void *(*fastcopy_clear_fn) (void *dst, int c, size_t n);

/* CPU features that matter to the library, as bits of fastcopy_cpu.features.
   A vector feature is reported only when the OS also enables its register
   state (XGETBV), i.e. when code using it can run.  */
#define FASTCOPY_CPU_SSE2	(1ull << 0)
#define FASTCOPY_CPU_ERMS	(1ull << 1)	/* Enhanced REP MOVSB/STOSB */
#define FASTCOPY_CPU_FSRM	(1ull << 2)	/* Fast Short REP MOV */
#define FASTCOPY_CPU_FZLRM	(1ull << 3)	/* Fast Zero-Length REP MOVSB */
#define FASTCOPY_CPU_FSRS	(1ull << 4)	/* Fast Short REP STOSB */
#define FASTCOPY_CPU_FSRCS	(1ull << 5)	/* Fast Short REP CMPSB/SCASB */
#define FASTCOPY_CPU_AVX2	(1ull << 6)
#define FASTCOPY_CPU_AVX512F	(1ull << 7)
#define FASTCOPY_CPU_AVX512BW	(1ull << 8)
#define FASTCOPY_CPU_AVX512VL	(1ull << 9)
#define FASTCOPY_CPU_CLZERO	(1ull << 10)
#define FASTCOPY_CPU_BMI2	(1ull << 11)	/* BZHI builds the byte masks */
#define FASTCOPY_CPU_AVX_VNNI	(1ull << 12)	/* on Intel, the mark of the
						   AVX-512 cores whose clock
						   64-byte vectors do not
						   lower (glibc's rule) */
#define FASTCOPY_CPU_HYPERVISOR	(1ull << 13)	/* runs in a virtual machine
						   (CPUID leaf 1, ECX bit 31),
						   whose cache figures may be
						   the entry variant's */
#define FASTCOPY_CPU_FEATURE_COUNT 14

struct fastcopy_cpu
{
  char vendor[13];		/* "AuthenticAMD", "GenuineIntel", ...; the
				   policy knows only AMD's (AMD and Hygon)
				   and Intel's class (every other) */
  unsigned int family;		/* display family, model and stepping */
  unsigned int model;
  unsigned int stepping;
  unsigned long long features;	/* FASTCOPY_CPU_* bits */
  unsigned long l1d_size;	/* data cache sizes in bytes, as glibc's
				   sysconf reports them; 0 = unknown */
  unsigned long l2_size;
  unsigned long l3_size;
  unsigned int l3_threads;	/* logical processors that share the L3: the
				   package's, as CPUID leaf 1 counts them;
				   0 = unknown */
};

/* The CPU as libfastcopy saw it when it was loaded, from what glibc had
   read of it (the vendor string, which glibc does not keep, from CPUID
   on the first call).  Never NULL.  */
const struct fastcopy_cpu *fastcopy_cpu (void);

/* Name of feature bit number BIT ("ERMS"), or NULL past the last one.  */
const char *fastcopy_cpu_feature_name (unsigned int bit);

/* What an implementation reads and how calls reach it, as bits of
   fastcopy_impl.traits.  */
#define FASTCOPY_TRAIT_REP		0x1	/* its family's REP threshold */
#define FASTCOPY_TRAIT_NT		0x2	/* its family's streaming-store
						   threshold */
#define FASTCOPY_TRAIT_ALIAS_GUARD	0x4	/* alias_guard, alias_backward */
#define FASTCOPY_TRAIT_ENTRY		0x8	/* the exported memcpy, memmove,
						   memset and their _chk forms
						   reach it with no indirect
						   jump */
#define FASTCOPY_TRAIT_PROFILE		0x10	/* records every call, then
						   calls the implementation
						   chosen for its family;
						   chosen by the profile
						   setting only, never by
						   name or by the policy */

/* One implementation of one family.  */
struct fastcopy_impl
{
  const char *name;		/* unique within its family: "fsrm", "erms"... */
  enum fastcopy_family family;
  const char *summary;		/* one line: the strategy */
  unsigned long long requires;	/* FASTCOPY_CPU_* bits it needs to run */
  fastcopy_copy_fn copy;	/* set for FASTCOPY_FAMILY_COPY */
  fastcopy_clear_fn clear;	/* set for FASTCOPY_FAMILY_CLEAR */
  unsigned int traits;		/* FASTCOPY_TRAIT_* bits */
};

/* The implementation table: every implementation of every family, usable
   here or not.  fastcopy_impl_at returns NULL for I >= fastcopy_impl_count.  */
size_t fastcopy_impl_count (void);
const struct fastcopy_impl *fastcopy_impl_at (size_t i);
const struct fastcopy_impl *fastcopy_impl_find (enum fastcopy_family family,
						const char *name);

/* Nonzero when this CPU (and OS) can run IMPL.  */
int fastcopy_impl_usable (const struct fastcopy_impl *impl);

/* The policy: tables of rows, each for a class of CPUs, tried in order;
   the first row whose CPU conditions this CPU meets chooses an
   implementation for each family and the thresholds that go with it.  The
   "auto" table is the default, the "seed" table the rule of the kernel
   patch this project grew from (copy=seed, clear=seed).  */
struct fastcopy_policy
{
  const char *name;		/* "amd-avx2", unique over both tables */
  const char *table;		/* "auto" or "seed" */
  const char *vendor;		/* "AMD" (AMD and Hygon), "Intel" or "any" */
  unsigned int family_min, family_max;	/* display family, inclusive */
  unsigned int model_min, model_max;	/* display model, inclusive */
  unsigned long long requires;	/* FASTCOPY_CPU_* bits the CPU must have */
  const struct fastcopy_impl *copy;
  const struct fastcopy_impl *clear;
  const char *thresholds;	/* "rep_movsb_threshold=never copy_nt_
				   threshold=L3/2 ...", as the row gives them */
  const char *evidence;		/* where its figures come from */
  int measured;			/* measured by this project on such a CPU
				   (0: taken from published data) */
  const char *reason;		/* why, in one line */
};

/* Every row of both tables, auto first, each in its order of trial.  */
size_t fastcopy_policy_count (void);
const struct fastcopy_policy *fastcopy_policy_at (size_t i);

/* The row of TABLE ("auto" or "seed") that this CPU matches, or NULL for
   another table name.  Every table ends with a row that matches any CPU.  */
const struct fastcopy_policy *fastcopy_policy_matched (const char *table);

/* What the auto policy, with no settings, chooses on CPU: a description
   of any CPU, not only this one (fill in vendor, family, model, features
   and the caches; zero what is unknown), to see what libfastcopy would do
   on a machine of another kind.  VALUE holds every setting's value in
   fastcopy_setting_at's order: the SIZE ones in bytes (FASTCOPY_NEVER:
   never), with the row's fractions of a thread's L3 share worked out for
   CPU's caches, the BOOL ones 0 or 1, the others 0.  */
#define FASTCOPY_PLAN_VALUES 16
struct fastcopy_plan
{
  const struct fastcopy_policy *policy;	/* the row CPU matches */
  const struct fastcopy_impl *impl[FASTCOPY_FAMILY_COUNT];
  unsigned long long value[FASTCOPY_PLAN_VALUES];
};
void fastcopy_plan_for (const struct fastcopy_cpu *cpu,
			struct fastcopy_plan *plan);

/* What an exported function was bound to when the library was loaded.
   Under the glibc setting (glibc=on in FASTCOPY) every function's impl is
   named "glibc", is not in the implementation table, and its copy or
   clear function is glibc's own memmove or memset, which the exported
   functions then call.  */
struct fastcopy_choice
{
  const char *function;		/* "memcpy", "__memset_chk", ... */
  enum fastcopy_family family;
  const struct fastcopy_impl *impl;
  const char *reason;		/* why: the rule that chose it */
  const struct fastcopy_policy *policy;	/* the row that chose it; NULL
					   when a setting named the
					   implementation */
};

/* The choice for exported function FUNCTION, or NULL if the library exports
   no such function.  */
const struct fastcopy_choice *fastcopy_selected (const char *function);

/* The exported function names, in a fixed order, NULL-terminated.  */
const char *const *fastcopy_functions (void);

/* Settings.

   The implementation of each family and the thresholds the variants read
   can be set, lowest precedence first, by: the built-in defaults for this
   CPU and implementation; the configuration file (fastcopy.conf(5), by
   default /etc/fastcopy.conf); the FASTCOPY environment variable
   (comma-separated key=value items).  They are read once, when the library
   is loaded.  Secure-execution (setuid, setgid, file capabilities)
   processes ignore the environment and read the system file only when it
   is a regular file owned by root that group and others cannot write.  A
   bad item is ignored -- the lower layer's value stays -- and recorded as a
   diagnostic; nothing is ever printed.  */

/* Where a value, or a diagnostic, comes from.  */
enum fastcopy_source
{
  FASTCOPY_SOURCE_DEFAULT = 0,	/* built in for this CPU */
  FASTCOPY_SOURCE_FILE = 1,	/* the configuration file */
  FASTCOPY_SOURCE_ENV = 2,	/* the FASTCOPY environment variable */
  FASTCOPY_SOURCE_API = 3,	/* fastcopy_set in this process */
  FASTCOPY_SOURCE_ENV_CONFIG = 4	/* FASTCOPY_CONFIG (diagnostics only) */
};

enum fastcopy_setting_type
{
  FASTCOPY_SETTING_IMPL = 0,	/* "auto", "seed" or an implementation */
  FASTCOPY_SETTING_SIZE = 1,	/* bytes, or "never" */
  FASTCOPY_SETTING_BOOL = 2,	/* "on" or "off" */
  FASTCOPY_SETTING_POLICY = 3,	/* "auto" or the name of a policy row */
  FASTCOPY_SETTING_PATH = 4,	/* "off" or an absolute path */
  FASTCOPY_SETTING_SIGNAL = 5	/* "off", "usr1" or "usr2" */
};

/* The threshold value "never".  */
#define FASTCOPY_NEVER (~0ull)

struct fastcopy_setting
{
  const char *key;		/* "copy", "rep_movsb_threshold", ... */
  enum fastcopy_family family;
  enum fastcopy_setting_type type;
  const char *value;		/* effective, as a configuration spells it:
				   "auto", "erms", "4096", "never", "on" */
  unsigned long long number;	/* SIZE: bytes or FASTCOPY_NEVER; BOOL: 0 or
				   1; IMPL: 0 */
  const char *default_value;	/* what it would be with no setting */
  enum fastcopy_source source;
  const char *origin;		/* "default", "/etc/fastcopy.conf:12",
				   "FASTCOPY item 2", "fastcopy_set" */
  unsigned int line;		/* line of the file, item of FASTCOPY; 0 */
  int used;			/* the family's selected implementation
				   reads it (thresholds, alias_guard) */
  unsigned int trait;		/* the FASTCOPY_TRAIT_* of the
				   implementations that read it; 0: it
				   matters to all (copy, clear) */
};

/* The settings of this process, in a fixed order; NULL for I past the
   last.  fastcopy_setting_find looks one up by key.  The strings stay
   valid until fastcopy_set changes the setting.  */
size_t fastcopy_setting_count (void);
const struct fastcopy_setting *fastcopy_setting_at (size_t i);
const struct fastcopy_setting *fastcopy_setting_find (const char *key);

/* A problem with a setting.  An error means the item (line 0: the whole
   file or variable) was ignored; a warning, that it applies but is
   probably not what was meant.  */
enum fastcopy_severity
{
  FASTCOPY_ERROR = 0,
  FASTCOPY_WARNING = 1
};

struct fastcopy_diagnostic
{
  enum fastcopy_severity severity;
  enum fastcopy_source source;
  const char *origin;		/* the file's path, "FASTCOPY",
				   "FASTCOPY_CONFIG" or "fastcopy_set" */
  unsigned int line;		/* file line or FASTCOPY item; 0: all */
  const char *key;		/* the setting concerned (an unknown one as
				   written), or NULL */
  const char *message;		/* "unknown setting 'foo'", no origin */
};

/* The diagnostics of loading this process's settings.  */
size_t fastcopy_diagnostic_count (void);
const struct fastcopy_diagnostic *fastcopy_diagnostic_at (size_t i);

enum fastcopy_file_state
{
  FASTCOPY_FILE_NONE = 0,	/* not read: FASTCOPY_CONFIG is empty */
  FASTCOPY_FILE_ABSENT = 1,	/* does not exist */
  FASTCOPY_FILE_USED = 2,	/* read: its good lines apply */
  FASTCOPY_FILE_REJECTED = 3	/* refused as a whole (see diagnostics) */
};

enum fastcopy_env_state
{
  FASTCOPY_ENV_UNSET = 0,
  FASTCOPY_ENV_USED = 1,	/* its good items apply */
  FASTCOPY_ENV_REJECTED = 2,	/* refused as a whole (too long) */
  FASTCOPY_ENV_IGNORED = 3	/* not read: secure-execution process */
};

struct fastcopy_config_state
{
  const char *system_path;	/* this build's configuration file */
  const char *path;		/* the file this process read or tried;
				   "" when none */
  int path_from_env;		/* FASTCOPY_CONFIG named it (or none) */
  enum fastcopy_file_state file;
  enum fastcopy_env_state env;
  int secure;			/* secure-execution process */
  unsigned int errors;		/* diagnostics, including those past the
				   ones kept */
  unsigned int warnings;
  unsigned int dropped;		/* diagnostics not kept */
};

const struct fastcopy_config_state *fastcopy_config_state (void);

/* Called once per diagnostic by the functions below.  */
typedef void (*fastcopy_diagnostic_fn) (const struct fastcopy_diagnostic *d,
					void *arg);

/* Check configuration file PATH with the library's own reader and parser,
   against this CPU; FN (may be NULL) gets every diagnostic, in order.
   With FASTCOPY_CHECK_TRUSTED, also the rules of the system file: owned
   by root, not writable by group or others.  Returns the number of errors
   (0: the file is good), -1 if out of memory.  */
#define FASTCOPY_CHECK_TRUSTED 1u
int fastcopy_check_config (const char *path, unsigned int flags,
			   fastcopy_diagnostic_fn fn, void *arg);

/* Check a FASTCOPY value (comma-separated key=value items), as above.  */
int fastcopy_check_env (const char *value, fastcopy_diagnostic_fn fn,
			void *arg);

/* Change thresholds or alias_guard of this process now: ITEMS as in
   FASTCOPY ("rep_movsb_threshold=never,copy_nt_threshold=1M").  Meant for
   benchmarks and tuning; the implementations themselves are chosen at load
   time, so "copy" and "clear" are refused, and so are "profile" and
   "profile_signal", which set up a recording at load time.  Items are
   applied or refused one by one; FN (may be NULL) gets a diagnostic for
   each refused one.  Calls in progress in other threads see the old or the
   new value.  Not thread-safe with itself or with fastcopy_setting_at.
   Returns the number of refused items.  */
int fastcopy_set (const char *items, fastcopy_diagnostic_fn fn, void *arg);

/* The library's version, "MAJOR.MINOR.PATCH".  */
const char *fastcopy_version (void);

#ifdef __cplusplus
}
#endif

#endif /* fastcopy.h */
