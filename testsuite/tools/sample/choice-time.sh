#!/bin/sh
# SPDX-License-Identifier: MIT
# choice-time.sh: two settings of one family timed on one recording
# through the exported functions, to tell whether two choices of
# fastcopy-tune differ by more than noise (issue 43's agreement: the
# same choice, or choices within 1% of each other on the mix).
#
#   testsuite/tools/sample/choice-time.sh [-r ROUNDS] FAMILY RECORDING SETTINGS-A SETTINGS-B
#
# Run in a build tree.  FAMILY is copy or clear; SETTINGS are FASTCOPY
# values ("" for the defaults), as fastcopy-tune's "for one program" line
# gives them.  fastcopy-bench replays RECORDING (--dist) through the
# library's exported memcpy or memset loaded with each setting in turn,
# ROUNDS times (default 11) alternately, each a ratio to glibc's time in
# the same process; prints each setting's median ratio and B's median
# over A's.  Exit status 0, 1 on an error, 2 on a usage error.

set -eu
me=choice-time.sh
rounds=11
usage () { echo "usage: $me [-r ROUNDS] FAMILY RECORDING SETTINGS-A SETTINGS-B" >&2; exit 2; }
while getopts r: o; do
    case $o in
	r) rounds=$OPTARG ;;
	*) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -eq 4 ] || usage
# The summary line of the recording's replay: memcpy's names it, memset's
# has its geomean only (one recording: its ratio).
case $1 in
    copy) fn=memcpy line="memcpy distribution $(basename "$2" .csv)" ;;
    clear) fn=memset line="memset distributions: geomean" ;;
    *) usage ;;
esac
recording=$2 a=$3 b=$4
bench=$PWD/bench/fastcopy-bench
[ -x "$bench" ] || { echo "$me: no $bench: run it in a build tree" >&2; exit 1; }

# ratio SETTINGS: one replay's time over glibc's.
ratio ()
{
    FASTCOPY=$1 FASTCOPY_CONFIG= "$bench" -c $fn-dist --dist "$recording" --quiet |
	awk -v line="$line" 'index($0, line) == 1 { print $4 }' |
	head -1
}

i=0 ra= rb=
while [ $i -lt "$rounds" ]; do
    ra="$ra $(ratio "$a")" rb="$rb $(ratio "$b")"
    i=$((i + 1))
done
median () { printf '%s\n' $1 | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ma=$(median "$ra") mb=$(median "$rb")
awk -v a="$ma" -v b="$mb" -v sa="${a:-defaults}" -v sb="${b:-defaults}" 'BEGIN {
    printf "A %s: %.4f of glibc\nB %s: %.4f of glibc\nB over A: %.4f\n", sa, a, sb, b, b / a }'
