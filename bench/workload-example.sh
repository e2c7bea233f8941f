#!/bin/bash
# SPDX-License-Identifier: MIT
# workload-example.sh: tuning for one program (the README's "Profile and
# tune"), end to end, for one of bench/programs.sh's workloads:
#   1. record it: programs.sh --record, which runs it under fastcopy-profile;
#   2. report the recording: fastcopy-profile --report, and an SVG chart;
#   3. choose for it: fastcopy-tune --workload;
#   4. time it with the choice against the library's defaults:
#      programs.sh --fastcopy CHOICE --versus ''.
#
#   bench/workload-example.sh [--quick] BUILD_DIR WORKLOAD [OUT_DIR]
#
# BUILD_DIR is a built tree (its .libs/libfastcopy.so.1 and tools/);
# WORKLOAD one of programs.sh's (python, sqlite, zstd, gzip, redis);
# OUT_DIR (default ./workload-WORKLOAD, which must not exist) receives
# every step's output: the recordings (*.csv), report.txt, the chart,
# tune.txt and before-after.txt.  --quick runs the quick form of every step:
# a few minutes, to test the script; its figures mean little.  The full
# run takes the tuner's few minutes and programs.sh's.  Run it on an
# otherwise idle machine.

set -eu
export LC_ALL=C

me=workload-example.sh
quick=()
if [ "${1-}" = --quick ]; then
    quick=(--quick)
    shift
fi
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $me [--quick] BUILD_DIR WORKLOAD [OUT_DIR]" >&2
    exit 2
fi
build=$(realpath "$1") workload=$2 out=${3:-workload-$2}
library=$build/.libs/libfastcopy.so.1
profile=$build/tools/fastcopy-profile
tune=$build/tools/fastcopy-tune
programs=$(dirname "$(realpath "$0")")/programs.sh
for f in "$library" "$profile" "$tune"; do
    [ -e "$f" ] || { echo "$me: $f: not found (build first)" >&2; exit 1; }
done
[ ! -e "$out" ] || { echo "$me: $out exists" >&2; exit 1; }
mkdir -p "$out"

step () {
    echo "== $me: $*" >&2
}

step "1. recording $workload"
"$programs" "${quick[@]}" --only "$workload" --record "$out" \
    --profile-tool "$profile" "$library"
recordings=("$out"/*.csv)

step "2. the recorded distribution"
for r in "${recordings[@]}"; do
    "$profile" --report "$r" --svg "${r%.csv}.svg"
done | tee "$out/report.txt"

step "3. fastcopy-tune --workload"
"$tune" "${quick[@]}" --quiet --workload "${recordings[@]}" | tee "$out/tune.txt"
choice=$(sed -n 's/^# for one program: FASTCOPY=//p' "$out/tune.txt")
[ -n "$choice" ] || { echo "$me: fastcopy-tune printed no FASTCOPY line" >&2; exit 1; }

step "4. FASTCOPY=$choice against the defaults"
"$programs" "${quick[@]}" --only "$workload" --fastcopy "$choice" --versus '' \
    "$library" | tee "$out/before-after.txt"
