#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-run: the command runs with the library preloaded and the
# settings given, in its own place (its arguments and exit status
# untouched); bad settings, a bad configuration file, a missing or wrong
# library, a missing command are refused with fastcopy-run's own exit
# statuses.
#
#   test-fastcopy-run.sh [RUN [LIBRARY [INFO]]]
#
# Defaults: ./tools/fastcopy-run, ./.libs/libfastcopy.so.1 and
# ./tools/fastcopy-info (make check runs in the build directory).  Prints
# PASS/FAIL lines; exits 1 when something failed (77, "skipped", when one
# is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

run=${1:-./tools/fastcopy-run}
lib=${2:-./.libs/libfastcopy.so.1}
info=${3:-./tools/fastcopy-info}
for f in "$run" "$info"; do [ -x "$f" ] || { echo "SKIP: no $f"; exit 77; }; done
[ -r "$lib" ] || { echo "SKIP: no $lib"; exit 77; }
real=$(realpath "$lib")
. "$(dirname "$0")/../lib/test-lib.sh"

expect "the command maps the library" 0 "*$real*" \
    "$run" --library "$lib" /bin/cat /proc/self/maps
expect "LD_PRELOAD names the library first, before what it held" 0 \
    "*LD_PRELOAD=$real:$real*" env LD_PRELOAD="$real" "$run" --library "$lib" env
expect "FASTCOPY holds the --set items, in order" 0 \
    "*FASTCOPY=copy=erms,rep_movsb_threshold=4K*" \
    "$run" --library "$lib" -s copy=erms --set rep_movsb_threshold=4K env
expect "without --set, FASTCOPY is left as it was" 0 "*FASTCOPY=clear=erms*" \
    env FASTCOPY=clear=erms "$run" --library "$lib" env
conf=$(mktemp "${TMPDIR:-/tmp}/fastcopy-run-test.XXXXXX") || exit 1
trap 'rm -f "$conf"' EXIT
printf 'clear = scalar\n' >"$conf"
expect "--config sets FASTCOPY_CONFIG to the file's absolute name" 0 \
    "*FASTCOPY_CONFIG=$conf*" "$run" --library "$lib" --config "$conf" env
expect "the command's process: preloaded, with the settings" 0 \
    "*memmove*scalar*FASTCOPY item 1: copy=scalar*this process: preloaded by LD_PRELOAD*" \
    "$run" --library "$lib" --set copy=scalar "$info"
expect "options after the command are the command's" 0 "--set x -l y" \
    "$run" --library "$lib" /bin/echo --set x -l y
expect "the command's exit status comes back" 7 "" \
    "$run" --library "$lib" /bin/sh -c 'exit 7'

expect "a bad implementation is refused, named by its --set" 125 \
    "fastcopy-run: --set 2: copy: unknown implementation 'nosuch'*" \
    "$run" --library "$lib" --set clear=erms --set copy=nosuch /bin/true
expect "a bad number is refused" 125 "fastcopy-run: --set 1: rep_movsb_threshold: *" \
    "$run" --library "$lib" --set rep_movsb_threshold=1x /bin/true
expect "two settings in one --set are refused" 125 "*--set 1: 'copy=erms,clear=erms' is not one KEY=VALUE*" \
    "$run" --library "$lib" --set copy=erms,clear=erms /bin/true
expect "a refused setting is not said to be ignored: the command does not run" 125 \
    "fastcopy-run: --set 1: copy: unknown implementation 'bogus' (known: *)" \
    "$run" --library "$lib" --set copy=bogus /bin/echo ran
expect "a missing library is refused" 125 "fastcopy-run: /nonexistent/libfastcopy.so.1: *" \
    "$run" --library /nonexistent/libfastcopy.so.1 /bin/true
expect "a library that is no shared object is refused" 125 \
    "fastcopy-run: --library /etc/passwd: not an ELF file" \
    "$run" --library /etc/passwd /bin/echo ran
# A shared object that is not libfastcopy: the command would run without it.
other=$(ldd /bin/true | sed -n 's/^.*libc\.so\.6 => \(\/[^ ]*\) .*/\1/p')
if [ -n "$other" ]; then
    expect "a shared object that is not libfastcopy is refused" 125 \
        "fastcopy-run: --library $other: not libfastcopy (it defines no fastcopy_version)" \
        "$run" --library "$other" /bin/echo ran
else
    echo "SKIP: no libc.so.6 of /bin/true's to give as the library"
fi

# --config: the file is checked as the library would read it, and the
# command runs only when it has no error (warnings are shown).
head -c 70000 /dev/zero | tr '\0' '#' >"$conf"
expect "a configuration file over the library's limit is refused" 125 \
    "fastcopy-run: --config $conf: larger than 65536 bytes (70000)" \
    "$run" --library "$lib" --config "$conf" /bin/echo ran
printf 'copy = nosuch\nno equals sign\nclear = scalar\n' >"$conf"
expect "a configuration file's bad lines are named, and refused" 125 \
    "fastcopy-run: --config $conf:1: copy: unknown implementation 'nosuch' (known: *)
fastcopy-run: --config $conf:2: expected 'key = value', got 'no equals sign'" \
    "$run" --library "$lib" --config "$conf" /bin/echo ran
printf 'clear = scalar\nclear = erms\n' >"$conf"
expect "a configuration file with a warning: shown, and the command runs" 0 \
    "fastcopy-run: --config $conf:2: warning: clear set again: overrides line 1
ran" "$run" --library "$lib" --config "$conf" /bin/echo ran
expect "no command: a usage error" 125 "fastcopy-run: no command given
Try 'fastcopy-run --help' for more information." "$run" --library "$lib"

# Without --set and --config, what the command inherits is checked the
# same way: FASTCOPY, FASTCOPY_CONFIG.
expect "a bad FASTCOPY in the environment is refused, item by item" 125 \
    "fastcopy-run: FASTCOPY item 1: unknown setting 'bogus'*
fastcopy-run: FASTCOPY item 2: copy: unknown implementation 'avx9000'*" \
    env FASTCOPY=bogus=1,copy=avx9000 "$run" --library "$lib" /bin/echo ran
printf 'copy = nosuch\n' >"$conf"
expect "a bad FASTCOPY_CONFIG file is refused" 125 \
    "fastcopy-run: FASTCOPY_CONFIG $conf:1: copy: unknown implementation 'nosuch'*" \
    env FASTCOPY_CONFIG="$conf" "$run" --library "$lib" /bin/echo ran
expect "a relative FASTCOPY_CONFIG, which the library ignores, is refused" 125 \
    "fastcopy-run: FASTCOPY_CONFIG bad.conf: not an absolute file name, which the library would ignore" \
    env FASTCOPY_CONFIG=bad.conf "$run" --library "$lib" /bin/echo ran
expect "an empty FASTCOPY_CONFIG (no file) is fine" 0 "ran" \
    env FASTCOPY_CONFIG= "$run" --library "$lib" /bin/echo ran
default=$("$run" --help | sed -n 's/^ *\(\/.*libfastcopy\.so\.1\)$/\1/p')
if [ -n "$default" ] && [ ! -e "$default" ]; then
    expect "a missing default library: a word on --library" 125 \
        "fastcopy-run: $default: No such file or directory (is libfastcopy installed?  --library FILE names another, *)" \
        "$run" /bin/echo ran
fi
try="Try 'fastcopy-run --help' for more information."
expect "an empty --library: a usage error that names it" 125 \
    "fastcopy-run: --library needs a file name, not ''
$try" "$run" --library '' /bin/echo ran
expect "an empty --config: a usage error that names it" 125 \
    "fastcopy-run: --config needs a file name, not ''
$try" "$run" --library "$lib" --config '' /bin/echo ran
expect "a command that does not exist: 127" 127 "fastcopy-run: no-such-command-here: *" \
    "$run" --library "$lib" no-such-command-here
expect "an empty command: named '', 127" 127 "fastcopy-run: '': No such file or directory" \
    "$run" --library "$lib" ''
expect "a command that cannot run: 126" 126 "fastcopy-run: /etc/passwd: *" \
    "$run" --library "$lib" /etc/passwd

finish
