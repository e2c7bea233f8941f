/* SPDX-License-Identifier: MIT */
/* Putting a plan in force (plan.h): the plan in fc_state, and its
   thresholds as the words the variants read.  The resolvers commit the
   plan fc_select made at load, and the initializer the one FASTCOPY asks
   for; the API makes words the same way.  This is the only file that
   writes fc_state.tunables.  */

#include "load-state.h"

size_t
fc_threshold_bytes (const struct fc_threshold *t,
		    const struct fastcopy_cpu *cpu)
{
  if (t->kind == FC_THRESHOLD_BYTES)
    return t->bytes > (size_t) -1 ? (size_t) -1 : (size_t) t->bytes;
  if (t->kind != FC_THRESHOLD_L3)
    return (size_t) -1;
  unsigned long long num = t->num, den = t->den ? t->den : 1;
  unsigned long long size;
  if (cpu->l3_size == 0)
    size = FC_L3_UNKNOWN * num / den;
  else
    {
      unsigned long long l3 = cpu->l3_size;
      unsigned long long share = l3 / (cpu->l3_threads ? cpu->l3_threads : 1);
      size = share * num / den;
      /* Not below a quarter of the whole L3, glibc's floor since 2.38:
	 with dozens of threads on one L3 a thread's share is a few
	 hundred KiB, and a copy that size into cache would pay for
	 streaming.  */
      if (size < l3 / 4)
	size = l3 / 4;
    }
  unsigned long long cap = (unsigned long long) t->vm_cap_mib << 20;
  if (cap != 0 && (cpu->features & FASTCOPY_CPU_HYPERVISOR) && size > cap)
    size = cap;
  return size > (size_t) -1 ? (size_t) -1 : (size_t) size;
}

/* Whether a size of VALUES is a fraction of the L3.  */
static FC_EARLY int
values_read_l3 (const struct fc_values *values)
{
  for (int k = 0; k < FC_KEY_COUNT; k++)
    if (values->size[k].kind == FC_THRESHOLD_L3)
      return 1;
  return 0;
}

void
fc_values_words (const struct fc_values *values,
		 const struct fastcopy_cpu *cpu, struct fc_tunables *words)
{
  for (int k = 0; k < FC_KEY_COUNT; k++)
    words->value[k]
      = fc_key_type (k) == FASTCOPY_SETTING_SIZE
	? fc_threshold_bytes (&values->size[k], cpu)
	: fc_key_type (k) == FASTCOPY_SETTING_BOOL ? values->on[k] : 0;
}

/* Make PLAN the plan in force, and its values the words the variants
   read, for CPU.  Member by member: a structure assignment may become a
   call to memcpy, which is this library's own.  */
void
fc_commit (const struct fc_plan *plan, const struct fc_cpu *cpu)
{
  for (int f = 0; f < FASTCOPY_FAMILY_COUNT; f++)
    {
      fc_state.plan.impl[f] = plan->impl[f];
      fc_state.plan.worker[f] = plan->worker[f];
      fc_state.plan.row[f] = plan->row[f];
    }
  for (int k = 0; k < FC_KEY_COUNT; k++)
    {
      fc_state.plan.values.size[k] = plan->values.size[k];
      fc_state.plan.values.on[k] = plan->values.on[k];
      fc_state.plan.defaults.size[k] = plan->defaults.size[k];
      fc_state.plan.defaults.on[k] = plan->defaults.on[k];
    }
  /* The caches (sysconf) only for a fraction of the L3.  */
  if (values_read_l3 (&plan->values) || values_read_l3 (&plan->defaults))
    cpu = fc_cpu_caches ();
  fc_values_words (&plan->values, &cpu->id, &fc_state.tunables);
}

void
fc_set_tunable (int key, size_t value)
{
  __atomic_store_n (&fc_state.tunables.value[key], value, __ATOMIC_RELAXED);
}
