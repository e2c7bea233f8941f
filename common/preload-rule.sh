#!/bin/sh
# SPDX-License-Identifier: MIT
# preload-rule.sh PRELOAD-REMOVE-SH
#
# Writes on standard output the C tables of the rule that says which
# /etc/ld.so.preload entries are libfastcopy's, for preload-entry.c.  The
# rule is stated once, with its lists, in packaging/preload-remove.sh,
# because the package scripts must carry it without the tools installed;
# this script sources that file and copies the lists.
set -eu

case $1 in
    */*) . "$1" ;;
    *) . "./$1" ;;
esac

# table NAME LINES: a NULL-terminated array of C strings, one a line.
table ()
{
    printf 'static const char *const %s[] = {\n' "$1"
    printf '%s\n' "$2" | sed -e 's/[\\"]/\\&/g' -e 's/^.*$/  "&",/'
    printf '  NULL\n};\n'
}

printf '/* Generated from packaging/preload-remove.sh by %s;\n   do not edit.  */\n\n' \
    common/preload-rule.sh
printf 'static const char preload_library[] = "%s";\n' "$_fastcopy_preload_library"
table preload_name_patterns "$_fastcopy_preload_names"
table preload_dirs "$_fastcopy_preload_dirs"
table preload_lib_values "$_fastcopy_preload_lib_values"
