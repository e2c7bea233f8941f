#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-sample attributes samples by the body map: sample-driver calls
# fake_copy of the synthetic libfastcopy (fake-body.S) on 100, 512 and
# 3000 bytes, destinations at 5, 0 and 17 mod 64, (dst - src) mod 4096 3,
# 40 and 200, in turn.  The recording must hold those sizes (3000 in the
# bucket 2816-3071), alignments and distance classes and no other, each
# size with a fair part of the samples (each call spends the same time),
# the implementation "fake", the paths entry and loop, and no sample
# without a size.  The expectations are the driver's, written here by
# hand; the loop's size is only right if the body map's expression (a
# constant, two registers, a scale of 2) is evaluated.  Then the same
# with -p on a driver already running, whose copy of the library was
# deleted; for two drivers a shell starts, which exit while sampled;
# --comm on a process whose name has a comma and a newline; and the cost
# table, kept and measured again for another library.
#
#   test-attribution.sh      (make check runs it in the build directory)
#
# Needs perf events: where the kernel refuses them the test fails, with
# the sampler's reason.
set -u
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
sample=$PWD/tools/fastcopy-sample
driver=$PWD/testsuite/tools/sample/sample-driver
fake=$PWD/testsuite/tools/sample/.libs/libfakebody.so
for f in "$sample" "$driver" "$fake"; do
    [ -e "$f" ] || { echo "SKIP: no $f"; exit 77; }
done
. "$(dirname "$0")/../../lib/test-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-sample-attr.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

if ! "$sample" --cache-dir "$work" -F 997 -o "$work/out.csv" -- \
        "$driver" fake "$fake" 3 >"$work/report" 2>&1; then
    fail "fastcopy-sample failed: $(cat "$work/report")"
    finish
    exit 1
fi
out=$work/out.csv

# rows KIND FAMILY [FILE]: the values of FAMILY's rows of KIND in FILE
# (default $out), one line.
rows () { grep "^$2,$1," "${3:-$out}" | cut -d, -f3 | tr '\n' ' '; }
same () {
    if [ "$2" = "$3" ]; then pass "$1: $2"; else fail "$1: '$2', wanted '$3'"; fi
}
same "sizes" "$(rows size copy)" "100 512 2816-3071 "
same "destinations mod 64" "$(rows dst_align copy)" "0 5 17 "
same "sources mod 64" "$(rows src_align copy)" "2 9 24 "
same "(dst - src) mod 4096 classes" "$(rows distance copy)" "1-15 16-63 other "
same "overlap: dst above src, within the size" "$(rows overlap copy)" "backward "
same "implementation" "$(rows impl copy)" "fake "
same "paths" "$(rows path copy)" "entry loop "
same "no clear" "$(grep -c '^clear,' "$out")" "0"
same "no sample in a body without a size" \
    "$(sed -n 's/^# samples in libfastcopy bodies: [0-9]*; without a size: \([0-9]*\);.*/\1/p' "$out")" "0"

# Each size has a fair part: at least a sixth of the samples (a third is
# expected), out of at least 60.
total=$(awk -F, '$1 == "copy" && $2 == "size" { n += $4 } END { print n + 0 }' "$out")
if [ "${total:-0}" -lt 60 ]; then
    fail "only ${total:-0} samples in the body (60 needed): $(cat "$work/report")"
else
    for size in 100 512 2816-3071; do
        n=$(grep "^copy,size,$size," "$out" | cut -d, -f4)
        if [ "$((n * 6))" -ge "$total" ]; then
            pass "size $size: $n of $total samples"
        else
            fail "size $size: $n of $total samples, under a sixth"
        fi
    done
fi

# -p on a running process whose library file was deleted since (as an
# upgrade replaces one): its maps are read from /proc, the file through
# /proc/PID/map_files.
cp "$fake" "$work/deleted.so"
"$driver" fake "$work/deleted.so" 3 >/dev/null &
pid=$!
sleep 1
rm "$work/deleted.so"
if "$sample" --cache-dir "$work" -F 997 -d 600 -p "$pid" -o "$work/pid.csv" \
        >"$work/report-pid" 2>&1; then
    same "-p, a deleted library: sizes" "$(rows size copy "$work/pid.csv")" \
        "100 512 2816-3071 "
else
    fail "-p: fastcopy-sample failed: $(cat "$work/report-pid")"
fi
wait "$pid"

# Processes that start and exit while sampled, children of a shell: known
# from the kernel's records (fork, exec, mmap2) alone.
# shellcheck disable=SC2016
if "$sample" --cache-dir "$work" -F 997 -o "$work/children.csv" -- sh -c \
        '"$1" fake "$2" 0.7 >/dev/null & "$1" fake "$2" 0.7 >/dev/null & wait' \
        sh "$driver" "$fake" >"$work/report-children" 2>&1; then
    same "processes started and exited while sampled: sizes" \
        "$(rows size copy "$work/children.csv")" "100 512 2816-3071 "
    same "processes started and exited while sampled: none unknown" \
        "$(sed -n 's/.*of processes gone before their maps were read: \([0-9]*\).*/\1/p' "$work/children.csv")" "0"
else
    fail "children: fastcopy-sample failed: $(cat "$work/report-children")"
fi

# --comm keeps process names, which processes choose: one with a comma
# and a newline in its name makes no row of the recording.
name=$(printf 'evil,row\nclear')
ln -s "$driver" "$work/$name"
if "$sample" --cache-dir "$work" --comm -F 997 -o "$work/comm.csv" -- \
        "$work/$name" fake "$fake" 0.5 >"$work/report-comm" 2>&1; then
    same "--comm: the name, its comma and newline replaced" \
        "$(sed -n 's/^#   pid [0-9]* (\(.*\)): .*/\1/p' "$work/comm.csv")" "evil?row?clear"
    same "--comm: no row made by a process's name" "$(grep -c '^clear' "$work/comm.csv")" "0"
else
    fail "--comm: fastcopy-sample failed: $(cat "$work/report-comm")"
fi

# The cost table: fake_fsrm's samples are turned into calls by the cost
# of libfastcopy's fsrm, measured and kept in the cache directory, for
# this CPU and library; a table for another library is measured again.
mkdir "$work/cache"
printf 'family,what,value,calls,bytes\ncopy,size,100,1,100\n' >"$work/only100.csv"
cost_run ()
{
    "$sample" --cache-dir "$work/cache" -F 997 -o "$work/cost.csv" -- \
        "$driver" dist "$fake" "$work/only100.csv" 0.5 "$work/exact.csv" \
        >"$work/report-cost" 2>&1 ||
        fail "cost: fastcopy-sample failed: $(cat "$work/report-cost")"
}
cost_run
table=$(ls "$work"/cache/cost-*.csv 2>/dev/null)
case $(cat "$table" 2>/dev/null) in
    "# fastcopy-sample cost table: ns per call
# cpu: "*"
# library: "*"
0,fsrm,100,"[0-9]*) pass "cost: the table has fsrm at 100 bytes" ;;
    *) fail "cost: the table is not as expected: $(cat "$table" 2>/dev/null)" ;;
esac
same "cost: the recording's implementation" "$(rows impl copy "$work/cost.csv")" "fsrm "
sed -i 's/^# library: .*/# library: 0.0.0/; s/^0,fsrm,100,.*/0,fsrm,100,123456.000/' "$table"
cost_run
case $(cat "$table") in
    *"# library: 0.0.0"*|*123456*) fail "cost: a table for another library was used: $(cat "$table")" ;;
    *"0,fsrm,100,"*) pass "cost: a table for another library is measured again" ;;
    *) fail "cost: no table after the second run" ;;
esac

# The recording is one that fastcopy-profile --report reads.
if ./tools/fastcopy-profile --report "$out" >"$work/report2" 2>&1; then
    pass "fastcopy-profile --report reads it"
else
    fail "fastcopy-profile --report: $(cat "$work/report2")"
fi
finish
