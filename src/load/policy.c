/* SPDX-License-Identifier: MIT */
/* The policy tables (policy.h): the rows of policy.def and
   policy-seed.def, a row by name, and the readers of a row's values.
   Which row a CPU gets is select.c's.  */

#include "policy.h"

/* A row of policy.def: its name, where its figures come from and why,
   then named fields.  A model or family range not given is any; a value
   not given stays unset, which libfastcopy.classes catches (a designated
   initializer after a default one replaces it: -Woverride-init is what
   these tables do on purpose).  */
#define FC_POLICY(row_name, row_evidence, row_reason, ...)		\
  { .name = row_name, .evidence = row_evidence, .reason = row_reason,	\
    .family_max = FC_ANY, .model_max = FC_ANY,				\
    .alias_guard = FC_BOOL_UNSET, .alias_backward = FC_BOOL_UNSET,	\
    __VA_ARGS__ },

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
static const struct fc_policy_row auto_rows[] = {
#include "policy.def"
};

static const struct fc_policy_row seed_rows[] = {
#include "policy-seed.def"
};
#pragma GCC diagnostic pop
#undef FC_POLICY

/* The texts are arrays: each must fit with its NUL.  */
#define FC_ROW_TEXT_FITS(field, text) \
  (sizeof (text) <= sizeof ((struct fc_policy_row *) 0)->field)
#define FC_POLICY(row_name, row_evidence, row_reason, ...)		\
  _Static_assert (FC_ROW_TEXT_FITS (name, row_name)			\
		  && FC_ROW_TEXT_FITS (evidence, row_evidence)		\
		  && FC_ROW_TEXT_FITS (reason, row_reason),		\
		  "policy row " row_name ": a text longer than its field");
#include "policy.def"
#include "policy-seed.def"
#undef FC_POLICY

const struct fc_policy_row *
fc_policy_rows (enum fc_table table, size_t *count)
{
  if (table == FC_TABLE_SEED)
    {
      *count = sizeof seed_rows / sizeof seed_rows[0];
      return seed_rows;
    }
  *count = sizeof auto_rows / sizeof auto_rows[0];
  return auto_rows;
}

const struct fc_policy_row *
fc_policy_row_at (struct fc_row_ref ref)
{
  size_t n;
  const struct fc_policy_row *rows
    = fc_policy_rows ((enum fc_table) ref.table, &n);
  return ref.index < n ? &rows[ref.index] : NULL;
}

int
fc_policy_find (const char *name, size_t len, struct fc_row_ref *ref)
{
  for (int t = 0; t < FC_TABLE_COUNT; t++)
    {
      size_t n;
      const struct fc_policy_row *rows
	= fc_policy_rows ((enum fc_table) t, &n);
      for (size_t i = 0; i < n; i++)
	{
	  size_t k = 0;
	  while (k < len && k < sizeof rows[i].name && rows[i].name[k] == name[k])
	    k++;
	  if (k == len && k < sizeof rows[i].name && rows[i].name[k] == 0)
	    {
	      ref->table = (unsigned char) t;
	      ref->index = (unsigned char) i;
	      return 1;
	    }
	}
    }
  return 0;
}

/* struct fc_row_ref's index holds every row.  */
#define FC_POLICY(...) +1
_Static_assert (0
#include "policy.def"
		< 256 && 0
#include "policy-seed.def"
		< 256, "a policy table has more rows than fc_row_ref counts");
#undef FC_POLICY

enum fc_impl_id
fc_row_impl (const struct fc_policy_row *row, enum fastcopy_family family)
{
  return (enum fc_impl_id) (family == FASTCOPY_FAMILY_COPY ? row->copy
			    : row->clear);
}

struct fc_threshold
fc_row_threshold (const struct fc_policy_row *row, int key)
{
  switch (key)
    {
#define FC_ROW_READ_IMPL(id, name)
#define FC_ROW_READ_SIZE(id, name) case FC_KEY_##id: return row->name;
#define FC_ROW_READ_BOOL(id, name)
#define FC_ROW_READ_POLICY(id, name)
#define FC_ROW_READ_PATH(id, name)
#define FC_ROW_READ_SIGNAL(id, name)
#define FC_KEY(id, name, family, type, trait) FC_ROW_READ_##type (id, name)
#include "keys.def"
#undef FC_KEY
    default:
      {
	struct fc_threshold unset = { 0, FC_THRESHOLD_UNSET, 0, 0, 0 };
	return unset;
      }
    }
}

unsigned char
fc_row_on (const struct fc_policy_row *row, int key)
{
  switch (key)
    {
    case FC_KEY_ALIAS_GUARD:
      return row->alias_guard;
    case FC_KEY_ALIAS_BACKWARD:
      return row->alias_backward;
    default:
      return FC_BOOL_UNSET;
    }
}
