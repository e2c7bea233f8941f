#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-sample's command line and its errors: --help and --version,
# each usage error (one line, the "Try" line, exit 2), a process that does
# not exist, a command that cannot run, an output that is a symbolic link
# or in no directory, no permission for perf events (as an ordinary
# user), a kernel without them (no-perf.la), and a full file system
# (a 64 KiB tmpfs in a mount namespace of its own): the earlier OUT
# survives and no temporary file is left.
#
#   test-sample-args.sh      (make check runs it in the build directory)
#
# Prints PASS/FAIL lines; exits 1 when something failed (77, "skipped",
# when the programs cannot run here).  The cases that need root (another
# user, a mount) are skipped with a SKIP line when it is not root.
set -u
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
sample=$PWD/tools/fastcopy-sample
driver=$PWD/testsuite/tools/sample/sample-driver
fake=$PWD/testsuite/tools/sample/.libs/libfakebody.so
noperf=$PWD/testsuite/tools/sample/.libs/no-perf.so
for f in "$sample" "$driver" "$fake" "$noperf"; do
    [ -e "$f" ] || { echo "SKIP: no $f"; exit 77; }
done
. "$(dirname "$0")/../lib/test-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-sample-args.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
try="Try 'fastcopy-sample --help' for more information."
nl='
'

expect "--help: the usage, exit 0" 0 "usage: fastcopy-sample ?OPTION?... -o OUT (-a | -p PID | ?--? COMMAND ?ARG?...)*" \
    "$sample" --help
expect "-h is --help" 0 "usage: fastcopy-sample *" "$sample" -h
expect "--version" 0 "fastcopy-sample (libfastcopy) [0-9]*" "$sample" --version
expect "-V is --version" 0 "fastcopy-sample (libfastcopy) [0-9]*" "$sample" -V
expect "nothing to sample" 2 "fastcopy-sample: nothing to sample: give -a, -p PID or a command$nl$try" \
    "$sample" -o "$work/out.csv"
expect "-a and -p" 2 "fastcopy-sample: give one of -a, -p PID and a command$nl$try" \
    "$sample" -a -p 1 -o "$work/out.csv"
expect "-a and a command" 2 "fastcopy-sample: give one of -a, -p PID and a command$nl$try" \
    "$sample" -a -o "$work/out.csv" true
expect "no -o" 2 "fastcopy-sample: no output file: give -o OUT$nl$try" \
    "$sample" -a
expect "-F 0" 2 "fastcopy-sample: '0' is not a rate in Hz (1 to 10000)$nl$try" \
    "$sample" -F 0 -a -o "$work/out.csv"
expect "-F 99.5" 2 "fastcopy-sample: '99.5' is not a rate in Hz (1 to 10000)$nl$try" \
    "$sample" -F 99.5 -a -o "$work/out.csv"
expect "-d -1" 2 "fastcopy-sample: '-1' is not a duration in seconds (0.01 to 86400)$nl$try" \
    "$sample" -d -1 -a -o "$work/out.csv"
expect "-F without its argument" 2 "fastcopy-sample: option '-F' needs an argument$nl$try" \
    "$sample" -a -o "$work/out.csv" -F
expect "-p abc" 2 "fastcopy-sample: 'abc' is not a process ID$nl$try" \
    "$sample" -p abc -o "$work/out.csv"
expect "an unknown option" 2 "fastcopy-sample: unrecognized option '--bogus'$nl$try" \
    "$sample" --bogus -a -o "$work/out.csv"
# An empty name: a usage error before anything is sampled or run.
expect "-o ''" 2 "fastcopy-sample: --output needs a file name, not ''$nl$try" \
    "$sample" -o '' -- touch "$work/ran"
expect "--cache-dir ''" 2 "fastcopy-sample: --cache-dir needs a file name, not ''$nl$try" \
    "$sample" --cache-dir '' -o "$work/out.csv" -- touch "$work/ran"
if [ -e "$work/ran" ] || [ -e "$work/out.csv" ]; then
    fail "an empty name: the command ran"
else
    pass "an empty name: nothing ran, nothing was written"
fi

gone=$(sh -c 'echo $$')
expect "-p of a process that is gone" 1 "fastcopy-sample: process $gone: no such process" \
    "$sample" -p "$gone" -o "$work/out.csv"
expect "a command that cannot run: exit 127, no recording" 127 \
    "fastcopy-sample: cannot run $work/none: No such file or directory" \
    "$sample" --cache-dir "$work" -o "$work/out.csv" -- "$work/none"
expect "an empty command: named '', exit 127" 127 \
    "fastcopy-sample: cannot run '': No such file or directory" \
    "$sample" --cache-dir "$work" -o "$work/out.csv" -- ''
[ ! -e "$work/out.csv" ] && pass "no recording after a command that cannot run" ||
    fail "a recording was written after a command that cannot run"
printf 'earlier\n' >"$work/target"
ln -s "$work/target" "$work/link.csv"
expect "OUT is a symbolic link: refused before sampling" 1 \
    "fastcopy-sample: $work/link.csv: is a symbolic link; not replaced" \
    "$sample" -o "$work/link.csv" -- true
[ "$(cat "$work/target")" = earlier ] && pass "the link's target is untouched" ||
    fail "the link's target changed"
expect "OUT in no directory" 1 \
    "fastcopy-sample: $work/no/out.csv: cannot write in its directory: No such file or directory" \
    "$sample" -o "$work/no/out.csv" -- true
expect "a kernel without perf events" 1 \
    "fastcopy-sample: perf events: Function not implemented: this kernel has no perf events or no cpu-clock event (CONFIG_PERF_EVENTS)" \
    env LD_PRELOAD="$noperf" "$sample" -o "$work/out.csv" -- true
[ ! -e "$work/out.csv" ] && pass "no recording without perf events" ||
    fail "a recording was written without perf events"

if [ "$(id -u)" -ne 0 ]; then
    echo "SKIP: not root: no test as another user, nor on a full file system"
    echo "$failures failure(s)"
    [ $failures -eq 0 ]
    exit
fi

# An ordinary user, every CPU: refused unless kernel.perf_event_paranoid
# is 0 or lower.
chmod 755 "$work"
mkdir "$work/nobody" && chmod 777 "$work/nobody"
if [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -gt 0 ]; then
    expect "an ordinary user, every CPU: what it needs, exit 1" 1 \
        "fastcopy-sample: perf events: Permission denied: sampling every CPU needs root, or CAP_PERFMON (or CAP_SYS_ADMIN), or kernel.perf_event_paranoid at 0 or lower*" \
        setpriv --reuid=65534 --regid=65534 --clear-groups \
        "$sample" --cache-dir "$work/nobody" -a -d 1 -o "$work/nobody/out.csv"
else
    echo "SKIP: kernel.perf_event_paranoid is 0 or lower: every user may sample every CPU"
fi

# A full file system: the earlier recording stays, no temporary file.
mkdir "$work/full"
unshare -m sh -c '
    mount -t tmpfs -o size=64k tmpfs "$1/full" || exit 3
    printf "earlier\n" >"$1/full/out.csv"
    dd if=/dev/zero of="$1/full/filler" bs=4k 2>/dev/null
    "$2" --cache-dir "$1" -o "$1/full/out.csv" -- "$3" fake "$4" 0.5 \
        >"$1/full.out" 2>&1
    echo "exit $?" >>"$1/full.out"
    cat "$1/full/out.csv" >"$1/full.kept"
    ls -a "$1/full" >"$1/full.ls"
' sh "$work" "$sample" "$driver" "$fake"
case $(cat "$work/full.out" 2>/dev/null) in
    *"fastcopy-sample: cannot write $work/full/.fastcopy-sample."*": No space left on device"*"exit 1")
        pass "a full file system: said so, exit 1" ;;
    *) fail "a full file system: $(cat "$work/full.out" 2>/dev/null)" ;;
esac
[ "$(cat "$work/full.kept" 2>/dev/null)" = earlier ] &&
    pass "a full file system: the earlier recording survives" ||
    fail "a full file system: the earlier recording is lost"
[ "$(tr '\n' ' ' <"$work/full.ls")" = ". .. filler out.csv " ] &&
    pass "a full file system: no temporary file is left" ||
    fail "a full file system: left $(tr '\n' ' ' <"$work/full.ls")"
finish
