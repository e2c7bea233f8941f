#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy.conf(5) and fastcopy-tune(1) name the configuration file this
# build's library reads (fastcopy-info --help prints it): /etc/fastcopy.conf
# in the packages, /usr/local/etc/fastcopy.conf in a default build from
# source.
#
#   test-conf-path.sh [INFO [PAGE [TUNE-PAGE]]]
#
# INFO, PAGE and TUNE-PAGE default to ./tools/fastcopy-info,
# ./doc/fastcopy.conf.5 and ./tools/tune/fastcopy-tune.1 (make check runs in
# the build directory).  Prints PASS/FAIL lines; exits 1 when something
# failed (77, "skipped", when one is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

info=${1:-./tools/fastcopy-info}
page=${2:-./doc/fastcopy.conf.5}
tune_page=${3:-./tools/tune/fastcopy-tune.1}
[ -x "$info" ] && [ -r "$page" ] && [ -r "$tune_page" ] ||
    { echo "SKIP: no $info, $page or $tune_page"; exit 77; }
failures=0

# "... --trusted (implied for PATH) also requires ..."
path=$("$info" --help | tr '\n' ' ' | sed -n 's/.*(implied for \([^)]*\)).*/\1/p')
[ -n "$path" ] || { echo "FAIL: fastcopy-info --help names no system file"; exit 1; }
synopsis=$(sed -n '/^\.SH SYNOPSIS/{n;p;}' "$page")
files=$(sed -n '/^\.SH FILES/{n;n;p;}' "$page")
if [ "$synopsis" = ".I $path" ] && [ "$files" = ".I $path" ]; then
    echo "PASS: fastcopy.conf(5) names $path in SYNOPSIS and FILES"
else
    echo "FAIL: the library reads $path; fastcopy.conf(5) says '$synopsis' and '$files'"
    failures=$((failures + 1))
fi
# fastcopy-tune --write's file, in its description and in FILES.
write=$(sed -n '/^\.B \\-\\-write$/,/^\.TP$/p' "$tune_page" | grep -c -F "$path")
files=$(sed -n '/^\.SH FILES/{n;n;p;}' "$tune_page")
if [ "$write" -ge 1 ] && [ "$files" = ".I $path" ]; then
    echo "PASS: fastcopy-tune(1) names $path for --write and in FILES"
else
    echo "FAIL: the library reads $path; fastcopy-tune(1)'s --write names it $write times, its FILES says '$files'"
    failures=$((failures + 1))
fi
[ $failures -eq 0 ]
