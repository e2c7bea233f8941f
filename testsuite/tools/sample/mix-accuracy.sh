#!/bin/sh
# SPDX-License-Identifier: MIT
# mix-accuracy.sh: fastcopy-sample's estimate against the exact count, on
# mixes of copies and clears drawn at random (sample-driver mix), one line
# a mix.
#
#   testsuite/tools/sample/mix-accuracy.sh [-F HZ] [-d SECONDS] SEED COUNT
#
# Run in a build tree (FC_SAMPLE names another fastcopy-sample): mixes SEED to SEED + COUNT - 1, each sampled at HZ
# (default 4999) for SECONDS (default 10) of its CPU time while it counts
# its own calls; then sample-driver compare.  Prints per mix its seed, the
# share of clears among the calls (exact, estimated), the total variation
# distance of each family's size histogram (copy, clear; -1: none), and
# the samples the estimate rests on; and the mix itself to MIXES.txt in
# the scratch directory, which it keeps.  Exit status 0, 1 on an error,
# 2 on a usage error.

set -eu
me=mix-accuracy.sh
hz=4999 seconds=10
usage () { echo "usage: $me [-F HZ] [-d SECONDS] SEED COUNT" >&2; exit 2; }
while getopts F:d: o; do
    case $o in
	F) hz=$OPTARG ;;
	d) seconds=$OPTARG ;;
	*) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || usage
first=$1 count=$2
top=$(cd "$(dirname "$0")/../../.." && pwd)
sample=${FC_SAMPLE:-$PWD/tools/fastcopy-sample} driver=$PWD/testsuite/tools/sample/sample-driver
lib=$PWD/.libs/libfastcopy.so.1
for f in "$sample" "$driver" "$lib"; do
    [ -e "$f" ] || { echo "$me: no $f: run it in a build tree after make check" >&2; exit 1; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-mixes.XXXXXX")
echo "$me: working in $work" >&2
printf '%-6s %-13s %-13s %-8s %-8s %s\n' seed clears_exact clears_est copy_tvd clear_tvd samples
seed=$first
while [ "$seed" -lt $((first + count)) ]; do
    "$sample" --cache-dir "$work" -F "$hz" -o "$work/est-$seed.csv" -- \
	env FASTCOPY= FASTCOPY_CONFIG= \
	"$driver" mix "$lib" "$top/bench/data" "$seed" "$seconds" "$work/exact-$seed.csv" \
	>> "$work/MIXES.txt" 2>&1 || { echo "$me: mix $seed failed: $work/MIXES.txt" >&2; exit 1; }
    "$driver" compare "$work/exact-$seed.csv" "$work/est-$seed.csv" > "$work/cmp-$seed.txt" || exit 1
    samples=$(sed -n 's/^# samples in libfastcopy bodies: \([0-9]*\).*/\1/p' "$work/est-$seed.csv")
    awk -v seed="$seed" -v samples="$samples" '
	$1 == "copy" { copy = $3 } $1 == "clear" { clear = $3 }
	$1 == "exact" { ex = $3 } $1 == "estimate" { es = $3 }
	END { printf "%-6s %-13s %-13s %-8s %-8s %s\n", seed, ex, es, copy, clear, samples }' "$work/cmp-$seed.txt"
    seed=$((seed + 1))
done
