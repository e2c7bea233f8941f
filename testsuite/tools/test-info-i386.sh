#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-info on a system that runs 32-bit programs says what its
# /etc/ld.so.preload entry gives them.  fastcopy-info reads the real /etc,
# so the test runs it in a private mount namespace (unshare -m; for a user
# other than root also a user namespace, unshare -rm, which a chroot does
# not allow)
# with a scratch /etc and a scratch /var/lib/dpkg, whose arch file lists
# i386, mounted over the real ones; nothing outside the namespace changes.
#
#   test-info-i386.sh [INFO [LIBRARY]]
#
# INFO defaults to ./tools/fastcopy-info (make check runs in the build
# directory), LIBRARY to ./.libs/libfastcopy.so.1.  Prints PASS/FAIL
# lines; exits 1 when something failed, 77 ("skipped") when the tool is
# missing or the namespace cannot be made.
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

info=${1:-./tools/fastcopy-info}
lib=${2:-./.libs/libfastcopy.so.1}
[ -x "$info" ] || { echo "SKIP: no $info"; exit 77; }
[ -r "$lib" ] || { echo "SKIP: no $lib"; exit 77; }
[ -d /var/lib/dpkg ] || { echo "SKIP: no /var/lib/dpkg to mount over"; exit 77; }
if [ "$(id -u)" = 0 ]; then ns=-m; else ns=-rm; fi
unshare $ns true 2>/dev/null || { echo "SKIP: unshare $ns is not allowed here"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-info-i386.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

mkdir -p "$work/etc" "$work/dpkg"
[ ! -r /etc/ld.so.cache ] || cp /etc/ld.so.cache "$work/etc/"
printf 'i386\n' >"$work/dpkg/arch"
# The entry names this build's library by its full path: 32-bit programs
# would load that same 64-bit file.
entry=$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")
printf '%s\n' "$entry" >"$work/etc/ld.so.preload"

# shellcheck disable=SC2016
unshare $ns sh -c 'mount --make-rprivate / && mount --bind "$1/etc" /etc && mount --bind "$1/dpkg" /var/lib/dpkg &&
    FASTCOPY_CONFIG= "$2" >"$1/plain" && FASTCOPY_CONFIG= "$2" --json >"$1/json"' \
    sh "$work" "$info" 2>"$work/err" ||
    { echo "SKIP: cannot run fastcopy-info in the namespace: $(cat "$work/err")"; exit 77; }

if grep -q -F '32-bit programs ($LIB is lib/i386-linux-gnu): get no i386 libfastcopy' "$work/plain" &&
    grep -q -F 'not a 32-bit little-endian ELF file' "$work/plain" &&
    grep -q -F 'write the entry with $LIB' "$work/plain"; then
    pass "plain output: the entry gives 32-bit programs no i386 library"
else
    fail "plain output: $(sed -n '/^preload/,$p' "$work/plain")"
fi
if grep -q -F '"i386_lib":"lib/i386-linux-gnu"' "$work/json" &&
    grep -q -F '"i386_problem":"not a 32-bit little-endian ELF file"' "$work/json"; then
    pass "JSON output: i386_lib and i386_problem"
else
    fail "JSON output: $(cat "$work/json")"
fi

finish
