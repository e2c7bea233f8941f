#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-profile's words when nothing was recorded (a command that left
# through _exit is not said to be killed, and the way out is given), and
# the workload reader's on a file that is no recording (a text file, a
# directory, an empty file), for fastcopy-profile --report and
# fastcopy-tune --workload alike; its usage errors and statuses, and what
# --report says of the functions it cannot tell apart, as text and JSON.
#
#   test-profile-args.sh [PROFILE [TUNE]]
#
# PROFILE and TUNE default to ./tools/fastcopy-profile and
# ./tools/fastcopy-tune (make check runs in the build directory).  Prints
# PASS/FAIL lines; exits 1 when something failed (77, "skipped", when one
# is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

profile=${1:-./tools/fastcopy-profile}
tune=${2:-./tools/fastcopy-tune}
for f in "$profile" "$tune"; do [ -x "$f" ] || { echo "SKIP: no $f"; exit 77; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-profile-args.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

# expect_clean NAME STATUS PATTERN COMMAND...: expect, for COMMAND run
# without a configuration file and without FASTCOPY.
expect_clean ()
{
    name=$1 want=$2 pat=$3
    shift 3
    expect "$name" "$want" "$pat" env FASTCOPY_CONFIG= FASTCOPY= "$@"
}

# A program that succeeds and leaves through _exit, as dash does at the
# end of 'sh -c' when its last command is a builtin.
if command -v perl >/dev/null; then
    printf '#!/bin/sh\nexec perl -e "use POSIX; POSIX::_exit (0)"\n' >"$work/quick-exit"
elif command -v python3 >/dev/null; then
    printf '#!/bin/sh\nexec python3 -c "import os; os._exit (0)"\n' >"$work/quick-exit"
fi
if [ -f "$work/quick-exit" ]; then
    chmod +x "$work/quick-exit"
    expect_clean "a command that succeeds and leaves through _exit: said so, not 'killed'; exit 1" 1 \
        "fastcopy-profile: $work/quick-exit exited with status 0, and no process of it wrote a recording: *_exit*; record the program itself*" \
        "$profile" -o "$work/quick-exit.csv" "$work/quick-exit"
    case $out in
        *killed*) fail "the message for a command that succeeded speaks of killing: $out" ;;
    esac
    if [ -e "$work/quick-exit.csv" ]; then
        fail "a recording file was left: $work/quick-exit.csv"
    else
        pass "no recording file is left"
    fi
else
    echo "SKIP: no perl or python3 to leave through _exit"
fi
# shellcheck disable=SC2016
expect_clean "a command killed by a signal: said so, with the signal's exit status" 137 \
    "fastcopy-profile: no process of sh wrote a recording: it was killed by signal 9 *" \
    "$profile" -o "$work/killed.csv" sh -c 'kill -9 $$'

# Files that are no recording, for both tools (one reader, common/workload.c).
mkdir "$work/dir"
: >"$work/empty.csv"
printf '# only a comment\n' >"$work/comment.csv"
printf 'root:x:0:0:root:/root:/bin/sh\n' >"$work/passwd"
for tool in profile tune; do
    if [ $tool = profile ]; then set -- "$profile" --report
    else set -- "$tune" --quick --quiet --no-compare --workload; fi
    expect_clean "$tool: a text file is no recording, and the message says why" 1 \
        "fastcopy-$tool: $work/passwd: not a fastcopy-profile recording or a size distribution: line 1, 'root:x:0:0:root:/root:/bin/sh', is neither the header 'family,what,value,calls,bytes' nor probabilities" \
        "$@" "$work/passwd"
    expect_clean "$tool: a directory is no recording" 1 \
        "fastcopy-$tool: $work/dir: is a directory, not a fastcopy-profile recording" \
        "$@" "$work/dir"
    expect_clean "$tool: an empty file is no recording" 1 \
        "fastcopy-$tool: $work/empty.csv: not a fastcopy-profile recording or a size distribution: it has no line but comments" \
        "$@" "$work/empty.csv"
    expect_clean "$tool: a file of comments is no recording" 1 \
        "fastcopy-$tool: $work/comment.csv: not a fastcopy-profile recording or a size distribution: it has no line but comments" \
        "$@" "$work/comment.csv"
done

# The command line: a usage error is one line and the Try line.
try="Try 'fastcopy-profile --help' for more information."
expect_clean "--svg without --report: a usage error that says so" 2 \
    "fastcopy-profile: --svg goes with --report FILE
$try" "$profile" --svg "$work/x.svg" true
expect_clean "--report with a second file: a usage error that says so" 2 \
    "fastcopy-profile: --report takes one FILE; unexpected argument 'extra'
$try" "$profile" --report "$work/a.csv" extra
expect_clean "no arguments: a usage error that says so" 2 \
    "fastcopy-profile: no command given
$try" "$profile"
expect_clean "a command that is a directory cannot be executed: 126" 126 \
    "fastcopy-profile: cannot run $work/dir: Permission denied" \
    "$profile" -o "$work/d.csv" "$work/dir"
expect_clean "an empty command: named '', 127" 127 \
    "fastcopy-profile: cannot run '': No such file or directory" \
    "$profile" -o "$work/e.csv" ''
expect_clean "-o naming a directory: said so, a file error (1)" 1 \
    "fastcopy-profile: $work/dir: is a directory; -o names the file to write" \
    "$profile" -o "$work/dir" true
expect_clean "-o naming a file that exists: said so, a file error (1)" 1 \
    "fastcopy-profile: $work/empty.csv: exists (a recording never replaces a file; remove it or choose another with -o)" \
    "$profile" -o "$work/empty.csv" true
# An empty name: a usage error before anything runs.
for o in --output --report --svg; do
    case $o in
        --output) set -- --output '' touch "$work/ran" ;;
        --report) set -- --report '' ;;
        --svg) set -- --report "$work/a.csv" --svg '' ;;
    esac
    expect_clean "$o '': a usage error that names $o" 2 \
        "fastcopy-profile: $o needs a file name, not ''
$try" "$profile" "$@"
done
if [ -e "$work/ran" ]; then
    fail "--output '': the command ran"
else
    pass "--output '': the command did not run"
fi

# A recording of memmove alone: the library records memcpy and memmove
# under one row, and the report says that it cannot tell them apart.
cat >"$work/memmove.csv" <<'END'
# libfastcopy workload 1
# command: memmove-only
family,what,value,calls,bytes
copy,size,101,1000,101000
copy,function,memcpy,1000,101000
copy,dst_align,1,1000,101000
copy,src_align,0,1000,101000
copy,distance,1-15,1000,101000
copy,overlap,backward,1000,101000
END
expect_clean "memcpy and memmove are one row: the report names both" 0 \
    "*functions: memcpy/memmove (one entry, not told apart) 1000 calls (100.0%)*" \
    "$profile" --report "$work/memmove.csv"
want='{"file":"'"$work"'/memmove.csv","command":"memmove-only","families":[{"family":"copy","recorded":true,"calls":1000.000000,"bytes":101000.000000,"mean_bytes":101.000000,"sizes":[{"lo":64,"hi":127,"calls_percent":100.000000,"bytes_percent":100.000000}],"functions":[{"row":"memcpy","label":"memcpy/memmove (one entry, not told apart)","calls":1000.000000,"bytes":101000.000000}],"destination_aligned_percent":{"64":0.000000,"16":0.000000,"8":0.000000}}]}'
got=$(FASTCOPY_CONFIG= FASTCOPY= "$profile" --report "$work/memmove.csv" --json 2>&1)
if [ "$got" = "$want" ]; then
    pass "--report --json: the same, as JSON"
else
    fail "--report --json: got $got"
fi

finish
