#!/bin/sh
# SPDX-License-Identifier: MIT
# Which /etc/ld.so.preload entries are libfastcopy's is stated once, in
# packaging/preload-remove.sh, and carried out twice: by that file's shell
# functions, which the package scripts run, and by the tools' C code
# (preload-entry.c, whose tables are generated from the shell lists).  Each
# line below goes to both, on a scratch root with a library installed in
# it, and both must give the expected answer.
#
#   test-preload-rule.sh [PROBE]
#
# PROBE defaults to ./testsuite/common/preload-rule-probe (make check runs in
# the build directory).  Prints PASS/FAIL lines; exits 1 when something
# failed (77, "skipped", when the probe is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

probe=${1:-./testsuite/common/preload-rule-probe}
srcdir=${srcdir:-$(dirname "$0")/../..}
remove_sh=$srcdir/packaging/preload-remove.sh

[ -x "$probe" ] || { echo "SKIP: no $probe"; exit 77; }
[ -r "$remove_sh" ] || { echo "FAIL: no $remove_sh"; exit 1; }
# shellcheck source=../../packaging/preload-remove.sh
. "$remove_sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-rule-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

# The root: Debian's layout with a merged /usr (/lib a link to usr/lib),
# the library as its package installs it, other names for the same file
# (a link, a hard link, a linked directory), and files that are not it.
# Relative links only: the shell side resolves absolute ones on the host.
root=$(cd "$work" && pwd -P)/root
multi=$root/usr/lib/x86_64-linux-gnu
mkdir -p "$multi" "$root/usr/lib64" "$root/opt/hard" "$root/opt/other"
ln -s usr/lib "$root/lib"
echo library >"$multi/libfastcopy.so.1.0.0"
ln -s libfastcopy.so.1.0.0 "$multi/libfastcopy.so.1"
ln -s libfastcopy.so.1 "$multi/libfastcopy.so"
ln -s libfastcopy.so.1 "$multi/libalias.so"
ln -s ../lib/x86_64-linux-gnu/libfastcopy.so.1 "$root/usr/lib64/libfc64.so"
ln "$multi/libfastcopy.so.1.0.0" "$root/opt/hard/libfc.so"
ln -s ../usr/lib/x86_64-linux-gnu "$root/opt/dir-link"
echo other >"$multi/libother.so"
_fc_root=$root

# shell_says LINE: what the package scripts' filter does with LINE: removes
# it ("ours"), keeps it ("not ours"), or takes some names out ("mixed").
shell_says ()
{
    out=$(printf '%s\n' "$1" | _fastcopy_preload_filter yes; echo .)
    out=${out%.}
    if [ -z "$out" ]; then
        echo ours
    elif [ "$out" = "$1
" ]; then
        echo "not ours"
    else
        echo mixed
    fi
}

# check EXPECTED LINE
check ()
{
    c=$("$probe" "$root" "$2")
    s=$(shell_says "$2")
    if [ "$c" = "$1" ] && [ "$s" = "$1" ]; then
        echo "PASS: $1: '$2'"
    else
        echo "FAIL: '$2': expected $1; the C rule says $c, the shell rule $s"
        failures=$((failures + 1))
    fi
}

# Bare names: ld.so looks them up itself.
check ours 'libfastcopy.so.1'
check ours 'libfastcopy.so.1.0.0'
# Every directory of the rule, with $LIB in both spellings.
check ours '/usr/$LIB/libfastcopy.so.1'
check ours '/$LIB/libfastcopy.so.1'
check ours '/usr/${LIB}/libfastcopy.so.1'
check ours '/${LIB}/libfastcopy.so.1.0.0'
check ours '/usr/lib/x86_64-linux-gnu/libfastcopy.so.1'
check ours '/lib/x86_64-linux-gnu/libfastcopy.so.1.0.0'
check ours '/usr/lib64/libfastcopy.so.1'
check ours '/lib64/libfastcopy.so.1.0.0'
# The library's file, however the entry spells it.
check ours 'libfastcopy.so'
check ours '/usr/lib/x86_64-linux-gnu/libfastcopy.so'
check ours '/usr/lib/x86_64-linux-gnu//libfastcopy.so.1'
check ours '//usr/lib/x86_64-linux-gnu/./libfastcopy.so.1'
check ours '/usr/lib/x86_64-linux-gnu/../x86_64-linux-gnu/libfastcopy.so.1'
check ours '/usr/lib/../lib/x86_64-linux-gnu/../../lib/x86_64-linux-gnu/libfastcopy.so.1.0.0'
check ours '/lib/x86_64-linux-gnu/libfastcopy.so.1'
check ours '/usr/lib/x86_64-linux-gnu/libalias.so'
check ours 'libalias.so'
check ours '/opt/hard/libfc.so'
check ours '/opt/dir-link/libfastcopy.so.1'
check ours '/opt/dir-link/../x86_64-linux-gnu/libalias.so'
# $LIB for each ABI: only the lib64 expansion finds this one.
check ours '/usr/$LIB/libfc64.so'
check ours '/usr/${LIB}/libalias.so'
# Gone already (a stale entry), or never there: a library name in one of
# the library's directories.
check ours '/usr/lib/x86_64-linux-gnu/sub/../libfastcopy.so.1'
check ours '/usr/lib/i386-linux-gnu/../x86_64-linux-gnu/libfastcopy.so.1'
# Separators and comments around entries.
check ours '  /usr/lib64/libfastcopy.so.1:libfastcopy.so.1	'
check ours 'libfastcopy.so.1 # enabled by hand'
check ours 'libfastcopy.so.1#comment'

# Other libraries, and other files of libfastcopy.
check "not ours" 'libc.so.6'
check "not ours" '/usr/$LIB/libother.so'
check "not ours" '/usr/lib/x86_64-linux-gnu/libother.so'
check "not ours" '/opt/dir-link/libother.so'
check "not ours" 'libother.so'
check "not ours" '/opt/hard/libfastcopy.so.2'
check "not ours" 'libfastcopy.so.10'
check "not ours" 'libfastcopy.so.2'
check "not ours" 'libfastcopy.so.1x'
check "not ours" 'xlibfastcopy.so.1'
# Other directories.
check "not ours" '/opt/elsewhere/lib/libfastcopy.so.1'
check "not ours" '/usr/local/lib/libfastcopy.so.1'
check "not ours" '/usr/lib/libfastcopy.so.1'
check "not ours" '/usr/$LIB/sub/libfastcopy.so.1'
check "not ours" '/usr/LIB/libfastcopy.so.1'
check "not ours" 'usr/lib64/libfastcopy.so.1'
check "not ours" '/usr/lib6[4]/libfastcopy.so.1'
check "not ours" '/usr/lib64/libfastcopy.so.1/'
# Comments, and lines without entries.
check "not ours" '# libfastcopy.so.1'
check "not ours" '#/usr/$LIB/libfastcopy.so.1'
check "not ours" 'a.so # libfastcopy.so.1'
check "not ours" ''
check "not ours" ' 	:'

# Lines with other libraries too.
check mixed 'a.so libfastcopy.so.1 b.so'
check mixed '/lib64/libfastcopy.so.1:libother.so # x'

finish
