/* SPDX-License-Identifier: MIT */
/* Area: config
   Purpose: libFuzzer target for the settings parser (src/load/settings.c), the
   code the library runs inside its IFUNC resolvers in every process.  The
   first byte of an input chooses how the rest is read:
     bit 0 set     as a FASTCOPY value (fc_parse_env);
     bit 0 clear   as a configuration file, three ways that must agree:
		   fed in one piece, fed in pieces of 1 to 8 bytes (bits
		   1-3), and read from a memfd through fc_read_config with a
		   read buffer of 97 times that many bytes.
   Checked after every input: the parser's own invariants (bounded
   diagnostics, NUL-terminated texts, line numbers within the input, every
   value stored within its key's limits, implementations of the right
   family and usable here) and, with AddressSanitizer and UBSan, memory
   and arithmetic safety.  A violated invariant aborts.  */

#define _GNU_SOURCE 1
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "load/settings.h"

#define CHECK(x) \
  do { if (!(x)) { fprintf (stderr, "invariant failed: %s (line %d)\n", \
			    #x, __LINE__); abort (); } } while (0)

/* The family of implementation ID, and whether this CPU can run it.  */
static int
impl_family (int id, int *usable)
{
  if (id < 0 || id >= FC_IMPL_COUNT)
    return -1;
  *usable = fc_cpu_lacks (fc_cpu_init (), fc_impl_table[id].requires) == 0;
  return fc_impl_table[id].family;
}

static void
check_layer (const struct fc_layer *l, unsigned int max_line)
{
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      const struct fc_item *it = &l->item[k];
      if (!it->set)
	continue;
      CHECK (it->line >= 1 && it->line <= max_line);
      if (fc_key_type (k) == FASTCOPY_SETTING_POLICY)
	CHECK (!it->policy.named || fc_policy_row_at (it->policy.row) != NULL);
      else if (k == FC_KEY_COPY || k == FC_KEY_CLEAR)
	{
	  CHECK (it->impl.how <= FC_CHOOSE_IMPL);
	  if (it->impl.how == FC_CHOOSE_IMPL)
	    {
	      CHECK (it->impl.impl < FC_IMPL_COUNT);
	      int usable = 0;
	      int family = impl_family (it->impl.impl, &usable);
	      CHECK (family == (int) fc_key_family (k));
	      CHECK (usable);
	    }
	}
      else if (fc_key_type (k) == FASTCOPY_SETTING_BOOL)
	CHECK (it->number <= 1);
      else if (fc_key_type (k) == FASTCOPY_SETTING_PATH)
	CHECK (it->src != FC_SRC_FILE
	       && (it->path == NULL
		   || (it->path_len > 0 && it->path_len <= FC_PROFILE_PATH_MAX
		       && *it->path == '/')));
      else if (fc_key_type (k) == FASTCOPY_SETTING_SIGNAL)
	CHECK (it->src != FC_SRC_FILE
	       && (it->number == 0 || it->number == 10 || it->number == 12));
      else
	CHECK (it->number == FC_NEVER || it->number <= FC_SIZE_LIMIT);
    }
}

static void
check_diags (const struct fc_diags *d, unsigned int max_line)
{
  CHECK (d->count <= FC_MAX_DIAGS);
  CHECK (d->dropped == 0 || d->count == FC_MAX_DIAGS);
  for (unsigned int i = 0; i < d->count; i++)
    {
      CHECK (memchr (d->d[i].text, 0, FC_DIAG_TEXT) != NULL);
      CHECK (d->d[i].line <= max_line);
      CHECK (d->d[i].key <= FC_KEY_COUNT);
      CHECK (d->d[i].code >= FC_E_OPEN);
      for (const char *p = d->d[i].text; *p; p++)
	CHECK (*p >= 0x20 && *p < 0x7f);
    }
}

static int
same (const struct fc_layer *a, const struct fc_diags *da,
      const struct fc_layer *b, const struct fc_diags *db)
{
  for (int k = 0; k < FC_KEY_COUNT; k++)
    if (a->item[k].set != b->item[k].set
	|| (a->item[k].set && (a->item[k].number != b->item[k].number
			       || a->item[k].line != b->item[k].line)))
      return 0;
  if (da->count != db->count || da->errors != db->errors
      || da->dropped != db->dropped)
    return 0;
  for (unsigned int i = 0; i < da->count; i++)
    if (da->d[i].code != db->d[i].code || da->d[i].line != db->d[i].line
	|| da->d[i].key != db->d[i].key
	|| strcmp (da->d[i].text, db->d[i].text) != 0)
      return 0;
  return 1;
}

static struct fc_layer la, lb, lc;
static struct fc_diags da, db, dc;
static struct fc_parser pa, pb, pc;
static int memfd = -1;

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0)
    return 0;
  unsigned int mode = data[0];
  const char *text = (const char *) data + 1;
  size_t n = size - 1;
  memset (&la, 0, sizeof la);
  memset (&lb, 0, sizeof lb);
  memset (&lc, 0, sizeof lc);
  memset (&da, 0, sizeof da);
  memset (&db, 0, sizeof db);
  memset (&dc, 0, sizeof dc);

  unsigned int lines = 1;
  for (size_t i = 0; i < n; i++)
    lines += text[i] == '\n' || ((mode & 1) && text[i] == ',');

  if (mode & 1)
    {
      fc_parse_env (fc_cpu_init (), text, n, &la, &da, FC_SRC_ENV);
      check_layer (&la, lines);
      check_diags (&da, lines);
      return 0;
    }

  fc_parser_init (&pa, fc_cpu_init (), &la, &da, FC_SRC_FILE);
  fc_parser_feed (&pa, text, n);
  fc_parser_end (&pa);
  check_layer (&la, lines);
  check_diags (&da, lines);

  size_t piece = ((mode >> 1) & 7) + 1;
  fc_parser_init (&pb, fc_cpu_init (), &lb, &db, FC_SRC_FILE);
  for (size_t i = 0; i < n; i += piece)
    fc_parser_feed (&pb, text + i, n - i < piece ? n - i : piece);
  fc_parser_end (&pb);
  CHECK (same (&la, &da, &lb, &db));

  /* The reader: a memfd is a regular file; reads of PIECE bytes.  */
  if (memfd < 0)
    memfd = memfd_create ("fuzz-config", 0);
  if (memfd >= 0 && ftruncate (memfd, 0) == 0
      && pwrite (memfd, text, n, 0) == (ssize_t) n)
    {
      char path[64], buf[8 * 97];
      snprintf (path, sizeof path, "/proc/self/fd/%d", memfd);
      int state = fc_read_config (fc_cpu_init (), path, 0, &lc, &dc,
				  FC_SRC_FILE, &pc, buf, piece * 97);
      if (n > FC_FILE_MAX)
	{
	  CHECK (state == FC_FILE_REJECTED);
	  for (int k = 0; k < FC_KEY_COUNT; k++)
	    CHECK (!lc.item[k].set);
	}
      else
	{
	  CHECK (state == FC_FILE_USED);
	  CHECK (same (&la, &da, &lc, &dc));
	}
    }
  return 0;
}
