#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-tune's command line: a --set that the library's parser refuses
# is named by its place on the command line, with the status of any other
# usage error, and options that are not the tool's are refused; a --set
# that the file cannot hold is refused by its line.  Every case here is refused before anything is
# measured (each carries a --set, which skips measuring, in case it were
# taken after all).
#
#   test-tune-args.sh [TUNE]
#
# TUNE defaults to ./tools/fastcopy-tune (make check runs in the build
# directory).  Prints PASS/FAIL lines; exits 1 when something failed (77,
# "skipped", when the tool is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

tune=${1:-./tools/fastcopy-tune}
[ -x "$tune" ] || { echo "SKIP: no $tune"; exit 77; }
failures=0

# refused WANT-STATUS WANT-TEXT ARG...: the tool exits WANT-STATUS and its
# error output contains WANT-TEXT.
refused ()
{
    want_st=$1 want_text=$2
    shift 2
    st=0
    err=$("$tune" "$@" 2>&1 >/dev/null) || st=$?
    case $err in
        *"$want_text"*) ok=$st ;;
        *) ok=wrong-text ;;
    esac
    if [ "$ok" = "$want_st" ]; then
        echo "PASS: fastcopy-tune $(echo "$*" | cut -c1-60): exit $st, '$want_text'"
    else
        echo "FAIL: fastcopy-tune $(echo "$*" | cut -c1-60): exit $st (wanted $want_st), said: $err"
        failures=$((failures + 1))
    fi
}

refused 2 "unrecognized option '--repeat=3'" --repeat=3 --set copy=erms
refused 2 "unexpected argument 'extra-argument'" --set copy=erms extra-argument
# Measured settings are written only after the check against the default
# (refused before measuring; with a --set it would be allowed).
refused 2 "no --no-compare with it" --write --no-compare --config /nonexistent/fastcopy.conf

long=$(i=0; while [ $i -lt 1100 ]; do printf x; i=$((i + 1)); done)
refused 2 "--set 2: longer than 1024 bytes" --set copy=erms --set "copy_nt_threshold=$long"
refused 2 "--set 3: copy_nt_threshold: " --set copy=erms --set clear=erms --set copy_nt_threshold=1x
# Refused, not "ignored" as the library says of what it goes on without.
refused 2 "--set 1: copy: unknown implementation 'bogus'" --set copy=bogus
err=$("$tune" --set copy=bogus 2>&1 >/dev/null)
case $err in
    *ignored*)
        echo "FAIL: fastcopy-tune --set copy=bogus says the setting is ignored: $err"
        failures=$((failures + 1)) ;;
    *) echo "PASS: fastcopy-tune --set copy=bogus: refused, not said to be ignored" ;;
esac
# The same mistake, the same status: a --set of two items is as wrong as
# one the parser refuses.
refused 2 "--set 1: 'copy=erms,clear=erms' is not one KEY=VALUE" --set copy=erms,clear=erms
refused 2 "--config needs a file name, not ''" --set copy=erms --write --config ''
refused 2 "fastcopy-tune: --workload needs a file name, not ''" --quick --workload ''
refused 2 "fastcopy-tune: --workload needs a file name, not ''" --list --workload /dev/null ''

# A --set the file cannot hold (a recording is FASTCOPY's only): the
# refusal names the line of the file that would have been written, and
# why, and the file is not written.
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-tune-args.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
refused 1 "fastcopy-tune: $work/p.conf:2: profile: only the FASTCOPY environment variable may set it" \
    --set profile=/tmp/p --write --config "$work/p.conf"
refused 1 "fastcopy-tune: the new file would have 1 error (the old one had 0); nothing written" \
    --set profile=/tmp/p --write --config "$work/p.conf"
if [ -e "$work/p.conf" ]; then
    echo "FAIL: the refused file was written"
    failures=$((failures + 1))
else
    echo "PASS: the refused file was not written"
fi

echo "$failures failure(s)"
[ $failures -eq 0 ]
