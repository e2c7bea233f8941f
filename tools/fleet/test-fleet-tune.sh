#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-tune --workload chooses from an export and import of two
# recordings as it does from their merge.
#
# 1. What the tuner reads of a recording is the same in both: every size
#    bucket's ends and calls, and the calls of every alignment, distance
#    and overlap row (the bytes columns it does not read), and so the
#    candidates it measures (--list, which follows the bucket ends).
#    These are exact, and fail on any loss.
# 2. A quick tuning of each prints the same choices and configuration
#    text.  Measurements have noise: when the two differ, both run once
#    more, and the test fails only where each file gives the same answer
#    twice and the answers differ; where the tuner does not repeat its
#    own answer on this machine, it says so and skips this part.
# About 45 seconds on a 2-core guest (90 when the first runs differ).
#
#   test-fleet-tune.sh [FLEET [TUNE]]
#
# FLEET and TUNE default to ./tools/fastcopy-fleet and ./tools/fastcopy-tune
# (make check runs in the build directory).  Prints PASS/FAIL lines;
# exits 1 when something failed (77, "skipped", when one is missing).
set -u
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
fleet=${1:-./tools/fastcopy-fleet}
tune=${2:-./tools/fastcopy-tune}
for f in "$fleet" "$tune"; do [ -x "$f" ] || { echo "SKIP: no $f"; exit 77; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-fleet-tune.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../common/test-lib.sh"

# Two hosts of one class with different mixes: small copies and clears on
# one, page-sized and larger ones on the other.
class='# class: vendor=AuthenticAMD family=26 model=2 policy=amd-zen5'
cat >"$work/a.csv" <<EOF
# libfastcopy workload 1
$class
family,what,value,calls,bytes
copy,size,16,1000,16000
copy,size,100,300,30000
copy,size,576-639,100,60000
copy,dst_align,0,900,56000
copy,dst_align,8,500,50000
copy,src_align,0,1400,106000
copy,distance,0,200,20000
copy,distance,other,1200,86000
copy,overlap,none,1400,106000
clear,size,64,500,32000
clear,dst_align,0,500,32000
# end: 12 lines
EOF
cat >"$work/b.csv" <<EOF
# libfastcopy workload 1
$class
family,what,value,calls,bytes
copy,size,4096-4607,50,210000
copy,size,32768-36863,20,680000
copy,size,16,10,160
copy,dst_align,0,80,890160
copy,src_align,16,80,890160
copy,distance,16-63,80,890160
copy,overlap,none,80,890160
clear,size,8192-9215,40,340000
clear,dst_align,0,40,340000
# end: 10 lines
EOF
# The same file name for both: the tuner seeds its draw of calls with it.
mkdir "$work/merged" "$work/imported"
"$fleet" merge -o "$work/merged/fleet.csv" "$work/a.csv" "$work/b.csv" &&
    "$fleet" export --host a -o "$work/a.prom" "$work/a.csv" &&
    "$fleet" export --host b -o "$work/b.prom" "$work/b.csv" &&
    cat "$work/a.prom" "$work/b.prom" |
    "$fleet" import -o "$work/imported/fleet.csv" - ||
    { fail "merge, export or import failed"; finish; exit; }

# The rows without comments and without bytes.
calls () { grep -v '^#' "$1" | cut -d, -f1-4; }
calls "$work/merged/fleet.csv" >"$work/m.calls"
calls "$work/imported/fleet.csv" >"$work/i.calls"
if [ -s "$work/m.calls" ] && cmp -s "$work/m.calls" "$work/i.calls"; then
    pass "the import's buckets, rows and calls are the merge's ($(wc -l <"$work/m.calls") lines)"
else
    fail "the import differs from the merge: $(diff "$work/m.calls" "$work/i.calls" | head -n 6 | tr '\n' '|')"
fi

tune_env () { env FASTCOPY_CONFIG= FASTCOPY= "$tune" "$@"; }
tune_env --list --quick --workload "$work/merged/fleet.csv" >"$work/m.list" 2>&1
tune_env --list --quick --workload "$work/imported/fleet.csv" >"$work/i.list" 2>&1
if [ -s "$work/m.list" ] && cmp -s "$work/m.list" "$work/i.list"; then
    pass "fastcopy-tune --list: the same $(grep -c . "$work/m.list") lines of candidates"
else
    fail "fastcopy-tune --list differs: $(diff "$work/m.list" "$work/i.list" | head -n 6 | tr '\n' '|')"
fi

# tuned WHICH N: tune from WHICH (merged, imported), keeping the choices
# (without their figures) and the configuration text in WHICH.N.
tuned ()
{
    tune_env --quick --quiet --no-compare --workload "$work/$1/fleet.csv" \
        >"$work/out" 2>&1 || { fail "fastcopy-tune --workload $1 failed: $(tail -n 3 "$work/out")"; return 1; }
    { sed -n 's/^\(# [a-z ]*: chose [^:]*\):.*/\1/p' "$work/out"; grep -v '^#' "$work/out"; } >"$work/$1.$2"
    grep -q '^copy = ' "$work/$1.$2" || { fail "fastcopy-tune --workload $1 chose nothing: $(tail -n 3 "$work/out")"; return 1; }
}
same () { cmp -s "$work/$1" "$work/$2"; }
shown () { tr '\n' ';' <"$work/$1"; }
if tuned merged 1 && tuned imported 1; then
    if same merged.1 imported.1; then
        pass "fastcopy-tune --workload: the same choice and configuration: $(shown merged.1)"
    elif tuned merged 2 && tuned imported 2; then
        if same merged.2 imported.2 || same merged.1 imported.2 || same merged.2 imported.1; then
            pass "fastcopy-tune --workload: the same choice and configuration on a second run: $(shown merged.2)"
        elif same merged.1 merged.2 && same imported.1 imported.2; then
            fail "fastcopy-tune --workload chooses twice $(shown merged.1) from the merge, twice $(shown imported.1) from the import"
        else
            echo "SKIP: fastcopy-tune --workload does not repeat its own choice on this machine (merge: $(shown merged.1) then $(shown merged.2)); part 1 stands"
        fi
    fi
fi
finish
