#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-tune --workload says what it chose by: the workloads given, not
# the distributions it would otherwise use, and counts the candidates in
# grammatical number; its streaming stage measures the fixed ladder of
# thresholds; --list with the same options names the candidates the run
# measured.  A quick measurement on a small recording (about 20 seconds
# on a 2-core guest).
#
#   test-tune-workload.sh [TUNE]
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
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-tune-workload.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

# Copies only: the clear family has no call, and is chosen by its fixed
# sizes.
cat >"$work/small.csv" <<'CSV'
# libfastcopy workload 1
family,what,value,calls,bytes
copy,size,64,100,6400
copy,size,3000-4000,10,35000
CSV
st=0
env FASTCOPY_CONFIG= FASTCOPY= "$tune" --quick --quiet --no-compare \
    --workload "$work/small.csv" >"$work/out" 2>&1 || st=$?
if [ $st -ne 0 ]; then
    fail "fastcopy-tune --workload exited $st: $(tail -n 5 "$work/out")"
elif grep -q -i distribution "$work/out"; then
    fail "fastcopy-tune --workload speaks of distributions: $(grep -i distribution "$work/out" | head -n 3)"
elif ! grep -q '^# copy: chose .*: the least workloads geomean' "$work/out" ||
    ! grep -q '^#     candidate  *workloads  *hot sizes' "$work/out"; then
    fail "fastcopy-tune --workload: no 'workloads' column or choice: $(grep '^# copy: chose' "$work/out")"
else
    pass "fastcopy-tune --workload: the choice and the table name the workloads"
fi
if grep -E 'of the (1 candidates|([02-9]|[1-9][0-9]+) candidate$)' "$work/out"; then
    fail "a count of candidates in the wrong number"
elif grep -q -E 'of the [0-9]+ candidates?$' "$work/out"; then
    pass "the candidates counted in grammatical number"
else
    fail "no count of candidates: $(grep '^# .*: chose' "$work/out")"
fi

# The streaming stage's thresholds: the one stage 1 chose, never, and a
# fixed ladder, whatever L3 size the C library reports, up to the largest
# cold size (64 MiB with --quick).
for fam in copy clear; do
    sed -n "/^# $fam streaming: [0-9]* candidates/,/^# $fam streaming: chose/p" "$work/out" >"$work/stream"
    got=$(sed -n 's/^#   [* ] .* nt=\([0-9A-Za-z]*\).*/\1/p' "$work/stream" | sort | tr '\n' ' ')
    first=$(sed -n 's/^#   [* ] .* nt=\([0-9A-Za-z]*\) (\(default\|stage 1\))  .*/\1/p' "$work/stream")
    want=$(printf '%s\n' "$first" never 4MiB 8MiB 16MiB 32MiB 64MiB | sort -u | tr '\n' ' ')
    if [ -z "$got" ]; then
        echo "SKIP: the $fam streaming ladder: the run had no streaming stage for $fam"
    elif [ "$got" = "$want" ]; then
        pass "the $fam streaming stage measures the fixed ladder: $got"
    else
        fail "the $fam streaming stage measures $got, not the fixed ladder $want"
    fi
done

# --list with the same options names the candidates the run measured:
# the first stage's, as its tables label them, and the streaming stage's
# where the run chose the default (--list follows the default).
env FASTCOPY_CONFIG= FASTCOPY= "$tune" --list --quick --workload "$work/small.csv" \
    >"$work/list" 2>&1
awk '/^# [a-z ]+: [0-9]+ candidates? against / { t = $2; sub(":", "", t); if ($3 == "streaming:") t = t " streaming"; next }
     /^#     candidate / { next }
     /^#   [* ] / && t != "" { l = substr($0, 7); sub(/  +[0-9][0-9.]*  +[0-9][0-9.]*  .*/, "", l); print t, l; next }
     { t = "" }' "$work/out" >"$work/measured"
for fam in copy clear; do
    grep "^$fam " "$work/measured" | grep -v "^$fam streaming " >"$work/m.$fam"
    grep "^$fam " "$work/list" | grep -v "^$fam streaming " >"$work/l.$fam"
    if [ -s "$work/m.$fam" ] && cmp -s "$work/m.$fam" "$work/l.$fam"; then
        pass "--list: the $fam candidates the run measured ($(wc -l <"$work/l.$fam"))"
    else
        fail "--list: the $fam candidates differ from the run's: $(diff "$work/m.$fam" "$work/l.$fam" | head -n 6)"
    fi
    grep "^$fam streaming " "$work/measured" >"$work/m.$fam"
    grep "^$fam streaming " "$work/list" >"$work/l.$fam"
    if grep -q ' (stage 1)$' "$work/m.$fam"; then
        echo "SKIP: --list: the $fam streaming candidates (the run chose another than the default)"
    elif cmp -s "$work/m.$fam" "$work/l.$fam"; then
        pass "--list: the $fam streaming candidates the run measured ($(wc -l <"$work/l.$fam"))"
    else
        fail "--list: the $fam streaming candidates differ from the run's: $(diff "$work/m.$fam" "$work/l.$fam" | head -n 6)"
    fi
done

finish
