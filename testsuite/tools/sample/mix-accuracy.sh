#!/bin/sh
# SPDX-License-Identifier: MIT
# mix-accuracy.sh: fastcopy-sample's estimate against the exact count, on
# mixes of copies and clears drawn at random (sample-driver mix), one line
# a mix.
#
#   testsuite/tools/sample/mix-accuracy.sh [-F HZ] [-d SECONDS] [-t] SEED COUNT
#
# Run in a build tree (FC_SAMPLE names another fastcopy-sample): mixes
# SEED to SEED + COUNT - 1, each sampled at HZ (default 4999) for SECONDS
# (default 10) of its CPU time while it counts its own calls; then
# sample-driver compare.  Prints per mix its seed, the share of clears
# among the calls (exact, estimated), the total variation distance of
# each family's size histogram (copy, clear; -1: none), the bound the
# recording states for each (copy, clear, share; "-" where unknown), the
# calls the census counted, and the samples in libfastcopy; and the mix
# itself to MIXES.txt in the scratch directory, which it keeps.  With -t,
# fastcopy-tune --workload --quick on the exact recording and on the
# estimate, and each family's choice from both ("=" where they agree).
# Exit status 0, 1 on an error, 2 on a usage error.

set -eu
me=mix-accuracy.sh
hz=4999 seconds=10
tune=
usage () { echo "usage: $me [-F HZ] [-d SECONDS] [-t] SEED COUNT" >&2; exit 2; }
while getopts F:d:t o; do
    case $o in
	F) hz=$OPTARG ;;
	d) seconds=$OPTARG ;;
	t) tune=$PWD/tools/fastcopy-tune ;;
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
# choice FILE FAMILY: the settings fastcopy-tune chose for FAMILY in its
# output FILE, as deployed, its last word ("default" where it kept them).
choice ()
{
    sed -n "s/^# $2: keeping the default, .*/default/p; s/^# $2: chose \([^:]*\):.*/\1/p" "$1" | tail -1
}

printf '%-6s %-13s %-13s %-8s %-8s %-8s %-8s %-8s %-8s %s\n' seed clears_exact clears_est \
    copy_tvd clear_tvd copy_bnd clear_bnd shr_bnd counted samples
seed=$first
while [ "$seed" -lt $((first + count)) ]; do
    "$sample" --cache-dir "$work" -F "$hz" -o "$work/est-$seed.csv" -- \
	env FASTCOPY= FASTCOPY_CONFIG= \
	"$driver" mix "$lib" "$top/bench/data" "$seed" "$seconds" "$work/exact-$seed.csv" \
	>> "$work/MIXES.txt" 2>&1 || { echo "$me: mix $seed failed: $work/MIXES.txt" >&2; exit 1; }
    "$driver" compare "$work/exact-$seed.csv" "$work/est-$seed.csv" > "$work/cmp-$seed.txt" || exit 1
    samples=$(sed -n 's/^# samples in libfastcopy bodies: \([0-9]*\).*/\1/p' "$work/est-$seed.csv")
    counted=$(sed -n 's/^# census: .*; \([0-9]*\) calls counted.*/\1/p' "$work/est-$seed.csv")
    bound=$(sed -n 's/^# bound: copy=\([0-9.]*\) clear=\([0-9.]*\) share=\([0-9.]*\)$/\1 \2 \3/p' "$work/est-$seed.csv")
    awk -v seed="$seed" -v samples="$samples" -v counted="${counted:-0}" -v bound="${bound:--- - -}" '
	$1 == "copy" { copy = $3 } $1 == "clear" { clear = $3 }
	$1 == "exact" { ex = $3 } $1 == "estimate" { es = $3 }
	END { split(bound, b, " ")
	      printf "%-6s %-13s %-13s %-8s %-8s %-8s %-8s %-8s %-8s %s", seed, ex, es, copy, clear,
		     b[1], b[2], b[3], counted, samples }' "$work/cmp-$seed.txt"
    if [ -n "$tune" ]; then
	for kind in exact est; do
	    # Status 3: it keeps the defaults.
	    st=0
	    "$tune" --workload "$work/$kind-$seed.csv" --quick --quiet > "$work/tune-$kind-$seed.txt" 2>&1 || st=$?
	    [ $st -eq 0 ] || [ $st -eq 3 ] ||
		{ echo; echo "$me: fastcopy-tune failed: $work/tune-$kind-$seed.txt" >&2; exit 1; }
	done
	for family in copy clear; do
	    a=$(choice "$work/tune-exact-$seed.txt" $family) b=$(choice "$work/tune-est-$seed.txt" $family)
	    [ "$a" = "$b" ] && printf '  %s %s =' "$family" "$a" || printf '  %s %s / %s' "$family" "$a" "$b"
	done
    fi
    echo
    seed=$((seed + 1))
done
