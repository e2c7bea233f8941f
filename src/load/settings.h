/* SPDX-License-Identifier: MIT */
/* Settings: what the configuration file and the FASTCOPY environment
   variable ask for, and the one parser that reads both.  This part only
   reads and parses; select.c turns the result into a plan and resolve.c
   commits the plan.

   The parser runs inside the IFUNC resolvers, while ld.so is still
   relocating libfastcopy, so everything declared FC_EARLY here uses
   neither libc nor relocated data: raw system calls, string literals
   reached RIP-relative from code, hidden objects only.  The same code
   serves the tools (fastcopy_check_config, fastcopy_set in api.c) and the
   fuzzer (testsuite/libfastcopy.config/fuzz), so what fastcopy-info --check
   reports is exactly what the library does.

   Layers, lowest precedence first: the policy row's values for the CPU,
   the configuration file, the FASTCOPY environment variable.  Each layer
   is parsed into a struct fc_layer; an item that fails to parse never
   reaches a layer, so a bad item leaves the lower layers' value in
   place.  */

#ifndef FASTCOPY_SETTINGS_H
#define FASTCOPY_SETTINGS_H 1

#include "policy.h"
#include "size.h"

/* The system configuration file.  Makefile.am passes $(sysconfdir).  */
#ifndef FC_SYSCONF_PATH
# define FC_SYSCONF_PATH "/etc/fastcopy.conf"
#endif

/* Limits: bounded work and bounded memory whatever the input (the
   largest size, FC_SIZE_LIMIT, is size.h's).  */
#define FC_FILE_MAX (64u * 1024)	/* bytes of configuration file */
#define FC_LINE_MAX 1024u		/* bytes of one line, newline excluded */
#define FC_ENV_MAX 1024u		/* bytes of FASTCOPY's value */
#define FC_PATH_MAX 1024u		/* bytes of FASTCOPY_CONFIG's value */
#define FC_MAX_DIAGS 32			/* diagnostics kept; more are counted */
#define FC_DIAG_TEXT 48			/* bytes of offending text kept */
/* The longest profile path: room is left for ".PID.N" (profile.c).  */
#define FC_PROFILE_PATH_MAX (FC_PATH_MAX - 32u)

/* Where a value or a diagnostic comes from.  The first four equal the
   public enum fastcopy_source.  */
enum fc_src
{
  FC_SRC_DEFAULT = 0,
  FC_SRC_FILE = 1,
  FC_SRC_ENV = 2,		/* FASTCOPY */
  FC_SRC_API = 3,		/* fastcopy_set */
  FC_SRC_ENV_CONFIG = 4		/* FASTCOPY_CONFIG (diagnostics only) */
};

/* What went wrong, or what is worth a warning: diagnostics.def.  */
enum fc_diag_code
{
  FC_E_NONE = 0,
#define FC_ERROR(id, format, a, b, c, d) FC_##id,
#define FC_WARNING(id, format, a, b, c, d)
#include "diagnostics.def"
#undef FC_ERROR
#undef FC_WARNING
  FC_W_BEFORE_FIRST = 63,
#define FC_ERROR(id, format, a, b, c, d)
#define FC_WARNING(id, format, a, b, c, d) FC_##id,
#include "diagnostics.def"
#undef FC_ERROR
#undef FC_WARNING
};
#define FC_W_FIRST (FC_W_BEFORE_FIRST + 1)	/* the codes of warnings */

struct fc_diag
{
  unsigned char code;		/* enum fc_diag_code */
  unsigned char src;		/* enum fc_src */
  unsigned char key;		/* enum fc_key, or FC_KEY_COUNT */
  unsigned int line;		/* file line or FASTCOPY item; 0: all of it */
  unsigned long long num;
  char text[FC_DIAG_TEXT];	/* offending text, non-printables as '?' */
};

struct fc_diags
{
  struct fc_diag d[FC_MAX_DIAGS];
  unsigned int count;		/* kept in d */
  unsigned int dropped;		/* past FC_MAX_DIAGS */
  unsigned int errors;		/* every error, kept or dropped */
};

/* An IMPL setting's value: auto, seed, or an implementation.  */
enum fc_impl_how
{
  FC_CHOOSE_AUTO = 0,
  FC_CHOOSE_SEED,
  FC_CHOOSE_IMPL
};
struct fc_impl_choice
{
  unsigned char how;		/* enum fc_impl_how */
  unsigned char impl;		/* FC_CHOOSE_IMPL: enum fc_impl_id */
};

/* The policy setting's value: auto, or a row.  */
struct fc_policy_choice
{
  unsigned char named;		/* 0: auto */
  struct fc_row_ref row;
};

/* One layer's values: set marks the keys the layer gives; the member of
   the union is the key's type's.  */
struct fc_item
{
  union
  {
    unsigned long long number;	/* SIZE: bytes or FC_NEVER; BOOL: 0 or 1;
				   SIGNAL: its number, 0 for off */
    struct fc_impl_choice impl;	/* IMPL */
    struct fc_policy_choice policy;	/* POLICY */
    const char *path;		/* PATH: in the text parsed (FASTCOPY's
				   copy in fc_settings_scratch), not
				   NUL-terminated; NULL for off */
  };
  unsigned int line;		/* file line or FASTCOPY item */
  unsigned char set;
  unsigned char src;
  unsigned short path_len;	/* PATH: the path's length */
};

struct fc_layer
{
  struct fc_item item[FC_KEY_COUNT];
};

/* A configuration file being parsed, fed in pieces of any size.  */
struct fc_parser
{
  const struct fc_cpu *cpu;	/* the implementations named must run on it */
  struct fc_layer *layer;
  struct fc_diags *diags;
  unsigned char src;
  unsigned char overlong;	/* the current line passed FC_LINE_MAX */
  unsigned char nul;		/* the current line holds a NUL byte */
  unsigned int line;		/* number of the current line */
  unsigned int len;		/* bytes of it in buf */
  char buf[FC_LINE_MAX];
};

/* Flags of fc_read_config.  */
#define FC_READ_TRUSTED 1u	/* only a root-owned file that group and
				   others cannot write */

/* How a configuration file read went.  */
enum fc_file_state
{
  FC_FILE_NONE = 0,		/* no file to read (FASTCOPY_CONFIG empty) */
  FC_FILE_ABSENT,		/* it does not exist */
  FC_FILE_USED,			/* read; its good items apply */
  FC_FILE_REJECTED		/* not read, or discarded as a whole */
};

enum fc_env_state
{
  FC_ENV_UNSET = 0,
  FC_ENV_USED,
  FC_ENV_REJECTED,		/* present but too long */
  FC_ENV_SECURE			/* not looked at: secure-execution process */
};

/* What this process loaded.  The summary is written in every process, in
   the load-time section; the layers, the parser, the copies of the path
   and of FASTCOPY and the diagnostics are scratch, written only when there
   is a file or a variable to parse or a problem to report.  */
struct fc_settings
{
  unsigned char loaded;		/* the first phase ran */
  unsigned char secure;		/* AT_SECURE */
  unsigned char secure_known;	/* secure is read: FASTCOPY or
				   FASTCOPY_CONFIG was set */
  unsigned char file_state;	/* enum fc_file_state */
  unsigned char env_state;	/* enum fc_env_state */
  unsigned char config_overridden;	/* FASTCOPY_CONFIG chose the file */
  const char *path;		/* the configuration file; "" for none */
  struct fc_layer merged;	/* file, then FASTCOPY over it */
};

struct fc_settings_scratch
{
  struct fc_layer file_layer, env_layer;
  struct fc_parser file_parser;
  char path[FC_PATH_MAX + 1];	/* FASTCOPY_CONFIG's value */
  char env_value[FC_ENV_MAX + 1];	/* FASTCOPY's value */
  struct fc_diags diags;
};
extern FC_HIDDEN struct fc_settings_scratch fc_settings_scratch;

/* The parser.  An implementation or a policy row a setting names must
   run on CPU (fc_cpu_lacks), else the item is an error.  */
FC_HIDDEN FC_EARLY void fc_parser_init (struct fc_parser *p,
					const struct fc_cpu *cpu,
					struct fc_layer *layer,
					struct fc_diags *diags,
					unsigned char src);
FC_HIDDEN FC_EARLY void fc_parser_feed (struct fc_parser *p,
					const char *data, size_t n);
FC_HIDDEN FC_EARLY void fc_parser_end (struct fc_parser *p);

/* Parse a FASTCOPY value: comma-separated key=value items.  */
FC_HIDDEN FC_EARLY void fc_parse_env (const struct fc_cpu *cpu,
				      const char *value, size_t n,
				      struct fc_layer *layer,
				      struct fc_diags *diags, unsigned char src);

/* Read configuration file PATH into LAYER with the library's own rules
   (O_NONBLOCK, regular files only, FC_FILE_MAX), problems into DIAGS as
   coming from SRC.  P is the parser, set up here once the file is open, so
   that a missing file costs no write; BUF of BUFLEN bytes is scratch for
   read(2).  Returns an enum fc_file_state.  */
FC_HIDDEN FC_EARLY int fc_read_config (const struct fc_cpu *cpu,
				       const char *path, unsigned int flags,
				       struct fc_layer *layer,
				       struct fc_diags *diags,
				       unsigned char src, struct fc_parser *p,
				       char *buf, size_t buflen);

/* Load the settings of this process, for CPU, into
   fc_state.settings.merged, in two phases.  The first, inside the first resolver, reads the system
   configuration file (once; later calls return at once).  The second,
   from libfastcopy's initializer, takes FASTCOPY and FASTCOPY_CONFIG (ENV
   and CONFIG, NULL when unset), ignored when SECURE; it returns nonzero
   when they may change the plan, which the caller then makes again
   (resolve.c).  */
FC_HIDDEN FC_EARLY void fc_settings_load (const struct fc_cpu *cpu);
FC_HIDDEN int fc_settings_load_environment (const struct fc_cpu *cpu,
					    const char *env,
					    const char *config, int secure);

/* fastcopy_set: IT, from the API, replaces key K's merged value.  */
FC_HIDDEN void fc_settings_override (int key, const struct fc_item *it);

/* Record diagnostic CODE.  */
FC_HIDDEN FC_EARLY void fc_diag_add (struct fc_diags *diags, int code,
				     unsigned char src, unsigned int line,
				     int key, unsigned long long num,
				     const char *text, size_t textlen);

#endif
