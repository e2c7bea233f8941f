#!/bin/sh
# SPDX-License-Identifier: MIT
# Every tool behaves as one of a family, as GNU programs do: --help and -h
# print the same help on standard output, "usage: TOOL ..." first and a
# list of the options, --version and -V the same
# "TOOL (libfastcopy) VERSION" line, all with status 0 and nothing on
# standard error; an unknown option and an option without its argument
# are usage errors: exactly two lines on standard error, "TOOL: message"
# (the tool's name, not its path) and "Try 'TOOL --help' for more
# information.", nothing on standard output, status 2 -- fastcopy-run's
# is 125, as env(1)'s: its own statuses must not pass for the command's.
#
#   test-every-tool.sh [PROGRAM:OPTION]...
#
# Each argument is a tool, as a path from the build directory, and one of
# its options that needs an argument.  Without arguments, the list is
# $FC_TOOLS, which Makefile.am sets from its one list of the tools.
# Prints PASS/FAIL lines; exits 1 when something failed (77, "skipped",
# when there is nothing to run).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
[ $# -gt 0 ] || set -- ${FC_TOOLS:-}
[ $# -gt 0 ] || { echo "SKIP: no tools given, and FC_TOOLS is empty"; exit 77; }
. "$(dirname "$0")/../lib/test-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-every-tool.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# run TOOL ARG...: the status, standard output and standard error of TOOL
# into $st, $work/out and $work/err.
run ()
{
    st=0
    "$@" >"$work/out" 2>"$work/err" </dev/null || st=$?
}

for entry in "$@"; do
    tool=${entry%%:*} option=${entry#*:}
    name=$(basename "$tool")
    if [ ! -x "$tool" ]; then
        fail "$name: no program $tool"
        continue
    fi
    usage_status=2
    [ "$name" = fastcopy-run ] && usage_status=125

    run "$tool" --help
    cp "$work/out" "$work/help"
    if [ $st -eq 0 ] && [ -s "$work/help" ] && [ ! -s "$work/err" ]; then
        pass "$name --help: the help on standard output, status 0"
    else
        fail "$name --help: status $st, $(wc -c <"$work/help") bytes out, err: $(head -c 200 "$work/err")"
    fi
    grep -q -e '--help' "$work/help" && grep -q -e '--version' "$work/help" &&
        pass "$name --help names --help and --version" ||
        fail "$name --help does not name --help and --version"
    case $(head -n 1 "$work/help") in
        "usage: $name "*) pass "$name --help starts with 'usage: $name'" ;;
        *) fail "$name --help starts with: $(head -n 1 "$work/help")" ;;
    esac
    grep -q -E -e '^ +-h, --help  ' "$work/help" &&
        pass "$name --help lists its options ('  -h, --help  ...')" ||
        fail "$name --help has no option list ('  -h, --help  ...')"
    run "$tool" -h
    if [ $st -eq 0 ] && cmp -s "$work/out" "$work/help" && [ ! -s "$work/err" ]; then
        pass "$name -h: the same help, status 0"
    else
        fail "$name -h: status $st, not the help of --help: $(head -c 200 "$work/err")"
    fi

    run "$tool" --version
    cp "$work/out" "$work/version"
    case $(cat "$work/version") in
        "$name (libfastcopy) "[0-9]*)
            if [ $st -eq 0 ] && [ "$(wc -l <"$work/version")" -eq 1 ] && [ ! -s "$work/err" ]; then
                pass "$name --version: one line, status 0"
            else
                fail "$name --version: status $st, $(cat "$work/version" "$work/err")"
            fi ;;
        *) fail "$name --version: $(head -c 200 "$work/version")" ;;
    esac
    run "$tool" -V
    if [ $st -eq 0 ] && cmp -s "$work/out" "$work/version" && [ ! -s "$work/err" ]; then
        pass "$name -V: the same line, status 0"
    else
        fail "$name -V: status $st, $(head -c 200 "$work/out" "$work/err")"
    fi

    # usage_error CASE WORDS ARG...: a usage error whose first line is
    # "TOOL: " and WORDS.
    usage_error ()
    {
        what=$1 words=$2
        shift 2
        run "$tool" "$@"
        want="$name: $words
Try '$name --help' for more information."
        if [ $st -eq $usage_status ] && [ "$(cat "$work/err")" = "$want" ] && [ ! -s "$work/out" ]; then
            pass "$name $what: one line and the Try line, status $usage_status"
        else
            fail "$name $what: status $st (wanted $usage_status), said: $(head -c 300 "$work/err")"
        fi
    }
    usage_error "--no-such-option" "unrecognized option '--no-such-option'" \
        --no-such-option
    usage_error "$option without its argument" \
        "option '$option' needs an argument" "$option"
    # A short option that needs an argument, last in a cluster, is named
    # alone, as getopt names it.
    case $name in
        fastcopy-bench) usage_error "-qc" "option '-c' needs an argument" -qc ;;
        fastcopy-sample) usage_error "-aF" "option '-F' needs an argument" -aF ;;
    esac
done

finish
