/* SPDX-License-Identifier: MIT */
/* JSON on standard output, for the tools' --json: strings escaped, and
   the members of an object written one after the other.  FIRST is the
   object's flag, 1 before its first member: the writers put the comma
   before every later one.  */

#ifndef FC_TOOLS_JSON_H
#define FC_TOOLS_JSON_H

/* S as a JSON string: quotes, backslashes and control characters
   (DEL too) escaped, well-formed UTF-8 as it is, and every byte sequence
   that is not UTF-8 as U+FFFD (\ufffd), so the output is always valid
   JSON.  */
void json_string (const char *s);

/* "KEY": with the comma that separates it from an earlier member.  */
void json_key (const char *key, int *first);

/* A member whose value is a string (null for NULL), a number or a
   boolean.  */
void json_str_field (const char *key, const char *value, int *first);
void json_num_field (const char *key, unsigned long long v, int *first);
void json_double_field (const char *key, double v, int *first);
void json_bool_field (const char *key, int v, int *first);

#endif
