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
# The tuner's choice is a function of that input and of its measurements,
# whose noise a test cannot control: equal input is what decides that it
# chooses alike, and it is checked exactly.  About 10 seconds.
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
. "$(dirname "$0")/../../lib/test-lib.sh"

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

finish
