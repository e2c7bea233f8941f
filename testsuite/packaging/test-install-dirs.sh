#!/bin/sh
# SPDX-License-Identifier: MIT
# make install makes the directory of the configuration file, which
# fastcopy-tune --write creates the file in: into a scratch DESTDIR,
# then fastcopy-tune --set ... --write writes the file there.
#
#   test-install-dirs.sh      (make check runs it in the build directory)
#
# Prints PASS/FAIL lines; exits 1 when something failed, 77 ("skipped")
# when the build's programs cannot run here.
set -u
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
info=./tools/fastcopy-info tune=./tools/fastcopy-tune
for f in "$info" "$tune"; do [ -x "$f" ] || { echo "SKIP: no $f"; exit 77; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-install.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

# The configuration file this build's library reads: "... --trusted
# (implied for PATH) also requires ...".
conf=$("$info" --help | tr '\n' ' ' | sed -n 's/.*(implied for \([^)]*\)).*/\1/p')
[ -n "$conf" ] || { echo "FAIL: fastcopy-info --help names no system file"; exit 1; }

# A plain install, not the outer make's jobs or flags.
unset MAKEFLAGS MFLAGS MAKELEVEL
if ${MAKE:-make} -s --no-print-directory install DESTDIR="$work/root" >"$work/install.log" 2>&1; then
    pass "make install DESTDIR=..."
else
    fail "make install DESTDIR=...: $(tail -n 12 "$work/install.log")"
fi
if [ -d "$work/root$(dirname "$conf")" ]; then
    pass "make install makes $(dirname "$conf")"
else
    fail "make install makes no $(dirname "$conf"): $(cd "$work/root" && find . -maxdepth 3 -type d | sort | tr '\n' ' ')"
fi
if "$tune" --set copy=scalar --write --config "$work/root$conf" >"$work/tune.log" 2>&1 &&
    grep -qx 'copy = scalar' "$work/root$conf"; then
    pass "fastcopy-tune --write creates the configuration file there"
else
    fail "fastcopy-tune --write creates no configuration file: $(cat "$work/tune.log")"
fi

finish
