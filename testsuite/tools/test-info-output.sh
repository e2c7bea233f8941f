#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-info's plain output shows text from outside (FASTCOPY, the
# configuration file's name) escaped and shortened, so that escape
# sequences never reach the terminal and a line stays a line; and it says
# "used" of FASTCOPY only when some of its items apply.
#
#   test-info-output.sh [INFO]
#
# INFO defaults to ./tools/fastcopy-info (make check runs in the build
# directory).  Prints PASS/FAIL lines; exits 1 when something failed (77,
# "skipped", when the tool is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

info=${1:-./tools/fastcopy-info}
[ -x "$info" ] || { echo "SKIP: no $info"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-info-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

esc=$(printf '\033')
nl='
'
# run NAME VAR=VALUE...: fastcopy-info's plain output with those variables,
# in $work/NAME.  The system file is kept out of it.
run ()
{
    name=$1
    shift
    env FASTCOPY_CONFIG= "$@" "$info" >"$work/$name" 2>&1 ||
        fail "$name: fastcopy-info exited $?"
}
# line NAME PREFIX: the first line of NAME's output that starts with PREFIX.
line () { grep -a -m 1 "^$2" "$work/$1"; }

run escapes "FASTCOPY=copy=${esc}[2J${esc}]0;title${nl},clear=erms"
if grep -q "$esc" "$work/escapes"; then
    fail "an escape character in FASTCOPY reached the output"
else
    pass "no escape character in the output"
fi
got=$(line escapes '  FASTCOPY: ')
if [ "$got" = '  FASTCOPY: copy=\x1b[2J\x1b]0;title\n,clear=erms (used; 1 item rejected)' ]; then
    pass "FASTCOPY's line: $got"
else
    fail "FASTCOPY's line is not the escaped value on one line: $got"
fi

big=$(head -c 100000 /dev/zero | tr '\0' x)
run long "FASTCOPY=$big"
got=$(line long '  FASTCOPY: ')
if [ ${#got} -lt 400 ] && case $got in *'... (100000 bytes) (rejected)') true ;; *) false ;; esac; then
    pass "a 100000-byte FASTCOPY is cut short (${#got} bytes) and its length said"
else
    fail "a 100000-byte FASTCOPY gives a line of ${#got} bytes: $(printf '%s' "$got" | tail -c 80)"
fi

run rejected "FASTCOPY=foo=1,copy=nosuch"
got=$(line rejected '  FASTCOPY: ')
if [ "$got" = '  FASTCOPY: foo=1,copy=nosuch (not used: every item was rejected)' ]; then
    pass "every item rejected: $got"
else
    fail "every item rejected, yet: $got"
fi
run used "FASTCOPY=clear=erms"
got=$(line used '  FASTCOPY: ')
if [ "$got" = '  FASTCOPY: clear=erms (used)' ]; then
    pass "a good item: $got"
else
    fail "a good item: $got"
fi

# A configuration file whose name holds an escape sequence and a newline.
odd="$work/odd${esc}[31m${nl}name.conf"
printf 'copy = erms\n' >"$odd"
run file "FASTCOPY_CONFIG=$odd"
got=$(line file '  file: ')
want="  file: $work/odd\\x1b[31m\\nname.conf (used, from FASTCOPY_CONFIG)"
if ! grep -q "$esc" "$work/file" && [ "$got" = "$want" ]; then
    pass "the configuration file's name is escaped: $got"
else
    fail "the configuration file's name: $got"
fi

finish
