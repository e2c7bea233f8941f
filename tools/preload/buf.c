/* SPDX-License-Identifier: MIT */
/* fastcopy-preload: growing byte buffers.  */

#include <string.h>

#include "preload.h"

void
buf_add (struct buf *b, const char *p, size_t n)
{
  if (b->len + n + 1 > b->cap)
    {
      b->cap = (b->len + n + 1) * 2;
      b->data = xrealloc (b->data, b->cap);
    }
  memcpy (b->data + b->len, p, n);
  b->len += n;
  b->data[b->len] = '\0';
}

void
buf_adds (struct buf *b, const char *s)
{
  buf_add (b, s, strlen (s));
}
