#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-info's command line: --check takes several files, and - for
# standard input; bad usage says why, in one line and the Try line; the
# system file's rules apply to it however it is named; --cpu takes the
# CPU features in any case and each key once, and ignores and lists the
# features the library does not know; empty names are quoted; setting
# values are taken in any case; a recording signal without a recording
# gets a warning; --json names an unknown key as written, and writes a
# file name's UTF-8 as it is, what is not UTF-8 as U+FFFD.
#
#   test-info-args.sh [INFO]
#
# INFO defaults to ./tools/fastcopy-info (make check runs in the build
# directory).  Prints PASS/FAIL lines; exits 1 when something failed (77,
# "skipped", when the tool is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

info=${1:-./tools/fastcopy-info}
[ -x "$info" ] || { echo "SKIP: no $info"; exit 77; }
info=$(cd "$(dirname "$info")" && pwd)/$(basename "$info")
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-info-args.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

# expect_info NAME STATUS PATTERN ARG...: expect, for fastcopy-info ARG...
# run without a configuration file and without FASTCOPY.
expect_info ()
{
    name=$1 want=$2 pat=$3
    shift 3
    expect "$name" "$want" "$pat" env FASTCOPY_CONFIG= FASTCOPY= "$info" "$@"
}

printf 'copy = scalar\n' >"$work/a.conf"
printf 'clear = scalar\n' >"$work/b.conf"
printf 'copy = nosuch\n' >"$work/bad.conf"
expect_info "--check FILE FILE checks both" 0 "$work/a.conf: OK
$work/b.conf: OK" --check "$work/a.conf" "$work/b.conf"
expect_info "--check FILE FILE: an error in the second one is found" 1 \
    "$work/a.conf: OK
$work/bad.conf:1: copy: unknown implementation 'nosuch'*" \
    --check "$work/a.conf" "$work/bad.conf"
expect_info "--json --check FILE FILE: one array" 0 '\[{"file":*,{"file":*\]' \
    --json --check "$work/a.conf" "$work/b.conf"

# --json: a file name's UTF-8 as it is (é, 中文, an emoji), control
# characters escaped, and each start of a sequence that is not UTF-8 one
# U+FFFD: a stray continuation byte, an overlong '/', a surrogate, a code
# point above U+10FFFF, a sequence cut short.  Python's decoder, which
# replaces the same way, reads the output back to the name.
name=$(printf 'caf\303\251 \344\270\255\346\226\207 \360\237\230\200 \200 \300\257 \355\240\200 \364\220\200\200 \342\202 \001\177.conf')
printf 'copy = scalar\n' >"$work/$name"
want=$(printf '{"file":"%s/caf\303\251 \344\270\255\346\226\207 \360\237\230\200 \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd \\ufffd\\ufffd\\ufffd\\ufffd \\ufffd \\u0001\\u007f.conf","diagnostics":[],"errors":0,"warnings":0}' "$work")
st=0
out=$(env FASTCOPY_CONFIG= FASTCOPY= "$info" --json --check "$work/$name" 2>&1) || st=$?
if [ "$out" = "$want" ] && [ $st -eq 0 ]; then
    pass "--json --check: a file name in UTF-8, and bytes that are not, as U+FFFD"
else
    fail "--json --check: a file name in UTF-8: exit $st, $out"
fi
if ! command -v python3 >/dev/null; then
    echo "SKIP: the JSON of a name that is not all UTF-8, read back: no python3"
elif printf '%s' "$out" | python3 -c 'import json, os, sys
sys.exit(json.load(sys.stdin)["file"]
         != os.fsencode(sys.argv[1]).decode("utf-8", "replace"))' "$work/$name"
then
    pass "--json --check: the name read back as Python decodes it"
else
    fail "--json --check: the name read back as Python decodes it: $out"
fi

try="Try 'fastcopy-info --help' for more information."
expect_info "an unknown option is named" 2 "fastcopy-info: unrecognized option '--bogus'
$try" --bogus
expect_info "--policy --json says why it is refused, in a sentence" 2 \
    "fastcopy-info: --policy lists the rows as text only: no --json, --check, --check-env or --trusted with it
$try" --policy --json
expect_info "--check without a file says so" 2 \
    "fastcopy-info: option '--check' needs an argument
$try" --check
expect_info "--check followed by an option says a file is missing" 2 \
    "fastcopy-info: option '--check' needs an argument*" --check --json
expect_info "--cpu without a description says so" 2 \
    "fastcopy-info: option '--cpu' needs an argument*" --cpu
expect_info "an argument that belongs to no option is named" 2 \
    "fastcopy-info: unexpected argument 'stray'*" --json stray

# Letter case: every value, as alias_guard=ON always was.
expect_info "values in any case: implementations, rows, booleans, units, never" 0 \
    "FASTCOPY: OK" --check-env \
    'copy=SCALAR,clear=Scalar,policy=BASELINE,alias_guard=ON,rep_movsb_threshold=4kib,copy_nt_threshold=NEVER'

# --cpu: the features in any case (/proc/cpuinfo spells them in lower
# case), and a key at most once.
expect_info "--cpu: features in /proc/cpuinfo's lower case" 0 \
    "described CPU: AuthenticAMD family 25 model 1
row: *" --cpu 'vendor=AuthenticAMD family=25 model=1 features=sse2,avx2,erms l3=32m'
expect_info "--cpu: a key given twice is an error naming it" 2 \
    "fastcopy-info: --cpu: vendor given twice
$try" \
    --cpu 'vendor=GenuineIntel family=6 vendor=AuthenticAMD'

# A flags line of another machine's /proc/cpuinfo: the features the
# library does not know are ignored and listed, the ones it knows count.
expect_info "--cpu: unknown features (a real flags line) are ignored and listed" 0 \
    "described CPU: AuthenticAMD family 25 model 17
ignored features (unknown to libfastcopy): fpu vme de pse sse4_2 avx512_vnni
row: amd-zen4
copy: avx512m
clear: avx512m*" \
    --cpu 'vendor=AuthenticAMD family=25 model=17 features=fpu,vme,de,pse,sse2,sse4_2,avx2,bmi2,erms,fsrm,avx512f,avx512bw,avx512vl,avx512_vnni'
st=0
out=$(env FASTCOPY_CONFIG= FASTCOPY= "$info" --json --cpu 'vendor=AuthenticAMD family=25 model=17 features=fpu,avx2,vme' 2>&1) || st=$?
case $out in
    *'"ignored_features":["fpu","vme"],'*) [ $st -eq 0 ] && pass "--json --cpu: the ignored features, as a list" ;;
    *) fail "--json --cpu: the ignored features: exit $st, $out" ;;
esac

# The empty name: '' in every message, never '''' nor nothing; as a file
# name, a usage error that names the option.
expect_info "--check '': a usage error that names --check" 2 \
    "fastcopy-info: --check needs a file name, not ''
$try" --check "$work/a.conf" ''
expect_info "--pid '': shown as '', once quoted" 2 \
    "fastcopy-info: --pid: '' is not a process ID
$try" --pid ''
expect_info "an empty argument: shown as '', once quoted" 2 \
    "fastcopy-info: unexpected argument ''
$try" ''
expect_info "--cpu: an empty key, shown as '', once quoted" 2 \
    "fastcopy-info: --cpu: unknown key '' (*)
$try" --cpu '=x'
expect_info "--cpu: an empty value, shown as '', once quoted" 2 \
    "fastcopy-info: --cpu: bad value for vendor: ''
$try" --cpu 'vendor='

# --check -: standard input, even through a pipe (the library reads only
# regular files).
st=0
out=$(printf 'copy = nosuch\n' | env FASTCOPY_CONFIG= FASTCOPY= "$info" --check - 2>&1) || st=$?
case $out in
    "(standard input):1: copy: unknown implementation 'nosuch'"*) [ $st -eq 1 ] && pass "--check -: a pipe is read, its errors named by line" ;;
    *) fail "--check -: exit $st, $out" ;;
esac
expect "--check -: a file on standard input" 0 "(standard input): OK" \
    sh -c 'env FASTCOPY_CONFIG= FASTCOPY= "$1" --check - <"$2"' sh "$info" "$work/a.conf"

# --policy cites files of doc/bench/, which no package ships: it says
# where they are.
expect_info "--policy says where its doc/bench/ files are" 0 \
    "The files of doc/bench/ named below are in the source distribution of
libfastcopy * (libfastcopy-*.tar.*), under doc/bench/.
*measured: doc/bench/*" --policy

# A recording signal without a recording applies, with a warning.
expect_info "profile_signal without profile: a warning" 0 \
    "FASTCOPY item 1: warning: profile_signal set without profile: *
FASTCOPY: OK (with warnings)" --check-env profile_signal=usr1
expect_info "profile_signal with profile: no warning" 0 "FASTCOPY: OK" \
    --check-env profile=/nonexistent/p,profile_signal=usr1

st=0
out=$(env FASTCOPY_CONFIG= FASTCOPY=frob=1 "$info" --json 2>&1) || st=$?
case $out in
    *'{"severity":"error","source":"env","origin":"FASTCOPY","line":1,"key":"frob",'*)
        [ $st -eq 0 ] && pass "--json: an unknown setting's key as written" ;;
    *) fail "--json: an unknown setting's key as written: exit $st, $(printf '%s' "$out" | grep -o '"diagnostics":.*' | head -c 300)" ;;
esac

# The system file's ownership and mode rules apply to it by whatever name
# it is checked: relative, through another directory.  The system file is
# a scratch one mounted over the real directory in a private mount
# namespace (unshare -m; for a user other than root also a user
# namespace, unshare -rm), so nothing outside it changes.
sys=$("$info" --help | tr '\n' ' ' | sed -n 's/.*(implied for \([^)]*\)).*/\1/p')
sysdir=$(dirname "$sys")
if [ "$(id -u)" = 0 ]; then ns=-m; else ns=-rm; fi
if [ -z "$sys" ]; then
    fail "fastcopy-info --help names no system file"
elif [ ! -d "$sysdir" ]; then
    echo "SKIP: the system file's rules by another name: no $sysdir to mount over"
elif ! unshare $ns true 2>/dev/null; then
    echo "SKIP: the system file's rules by another name: unshare $ns is not allowed here"
else
    mkdir "$work/etc"
    printf 'copy = scalar\n' >"$work/etc/$(basename "$sys")"
    chmod 666 "$work/etc/$(basename "$sys")"
    # shellcheck disable=SC2016
    unshare $ns sh -c 'mount --make-rprivate / && mount --bind "$1" "$2" || exit 99
        cd "$2" && for f in "$3" "./$3" "../$(basename "$2")/$3" "$2/$3"; do
            "$4" --check "$f"; echo "exit $?"; done' \
        sh "$work/etc" "$sysdir" "$(basename "$sys")" "$info" >"$work/out" 2>&1
    if [ $? -eq 99 ]; then
        echo "SKIP: the system file's rules by another name: $(cat "$work/out")"
    else
        n=$(grep -c 'writable by group or others (mode 0666): ignored$' "$work/out")
        m=$(grep -c '^exit 1$' "$work/out")
        if [ "$n" = 4 ] && [ "$m" = 4 ]; then
            pass "the system file is checked as the system file by four names"
        else
            fail "the system file is checked as the system file by four names: $(cat "$work/out")"
        fi
    fi
fi

finish
