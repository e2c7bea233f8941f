#!/bin/sh
# SPDX-License-Identifier: MIT
# The manual pages keep up with the programs: every long option a tool's
# --help names is in its page; every implementation and every setting
# that fastcopy-info --json reports is in fastcopy.conf(5), the settings
# as entries of their own; fastcopy-info(1)'s example of a refused
# implementation lists the implementations fastcopy-info lists.  The
# names come from the programs' own output, not from the sources.
#
#   test-man-pages.sh      (make check runs it in the build directory,
#                           with srcdir set)
#
# Prints PASS/FAIL lines; exits 1 when something failed (77, "skipped",
# when the programs cannot run here).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
srcdir=${srcdir:-$(dirname "$0")/..}
. "$(dirname "$0")/common/test-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-man-pages.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# page FILE: the manual page as plain words, roff's \- as -; the pages
# made from a .in file are the build's.
page ()
{
    if [ -r "$1" ]; then f=$1; else f=$srcdir/$1; fi
    [ -r "$f" ] || { echo "FAIL: no manual page $1" >&2; return 1; }
    sed -e 's/\\-/-/g' "$f"
}

# Every long option of TOOL's --help in PAGE.
for pair in tools/fastcopy-info:tools/fastcopy-info.1 \
    tools/fastcopy-run:tools/fastcopy-run.1 \
    tools/fastcopy-profile:tools/fastcopy-profile.1 \
    tools/fastcopy-sample:tools/fastcopy-sample.1 \
    tools/fastcopy-tune:tools/fastcopy-tune.1 \
    tools/fastcopy-preload:tools/fastcopy-preload.8 \
    bench/fastcopy-bench:bench/fastcopy-bench.1 \
    bench/fastcopy-startup:bench/fastcopy-startup.1; do
    tool=${pair%%:*} man=${pair#*:}
    if [ ! -x "$tool" ]; then
        echo "SKIP: no $tool"
        continue
    fi
    page "$man" >"$work/page" || { fail "$man: no such page"; continue; }
    opts=$("$tool" --help | grep -o -E -- '--[a-z][a-z0-9-]*' | sort -u)
    [ -n "$opts" ] || { fail "$tool --help names no option"; continue; }
    missing=
    for o in $opts; do
        grep -q -E -- "$o([^a-z0-9-]|\$)" "$work/page" || missing="$missing $o"
    done
    if [ -z "$missing" ]; then
        pass "$man names every option of $tool --help ($(echo $opts | wc -w))"
    else
        fail "$man lacks options that $tool --help names:$missing"
    fi
done

# fastcopy.conf(5): every implementation in bold, every setting as the tag
# of its entry (.BI key= ...).
info=tools/fastcopy-info
if [ -x "$info" ] && page doc/fastcopy.conf.5 >"$work/conf"; then
    FASTCOPY_CONFIG= FASTCOPY= "$info" --json >"$work/json"
    impls=$(sed -e 's/.*"implementations":\[\([^]]*\)\].*/\1/' "$work/json" |
        grep -o '"name":"[^"]*"' | cut -d'"' -f4 | sort -u)
    keys=$(sed -e 's/.*"settings":\[\([^]]*\)\].*/\1/' "$work/json" |
        grep -o '"key":"[^"]*"' | cut -d'"' -f4)
    missing=
    for i in $impls; do
        grep -q -E "^\.(B|BR|RB|BI|IB) (.*[ \"(])?$i([ \",)]|\$)" "$work/conf" ||
            missing="$missing $i"
    done
    if [ -n "$impls" ] && [ -z "$missing" ]; then
        pass "fastcopy.conf(5) names every implementation: $(echo $impls)"
    else
        fail "fastcopy.conf(5) lacks implementations:${missing:- (fastcopy-info --json lists none)}"
    fi
    missing=
    for k in $keys; do
        grep -q -E "^\.BI $k= " "$work/conf" || missing="$missing $k"
    done
    if [ -n "$keys" ] && [ -z "$missing" ]; then
        pass "fastcopy.conf(5) has an entry for every setting: $(echo $keys)"
    else
        fail "fastcopy.conf(5) has no entry for the settings:${missing:- (fastcopy-info --json lists none)}"
    fi
    # The implementations the page's example of a refused one lists.
    said=$(FASTCOPY_CONFIG= "$info" --check-env copy=avx1024 2>&1 | sed -n 's/.*(known: \([^)]*\)).*/\1/p')
    shown=$(page tools/fastcopy-info.1 | sed -n '/^\.SH EXAMPLES/,/^\.SH/p' | tr '\n' ' ' |
        sed -n "s/.*unknown implementation 'avx1024' (known: \([^)]*\)).*/\1/p" | tr -s ' ')
    if [ -n "$said" ] && [ "$said" = "$shown" ]; then
        pass "fastcopy-info(1)'s example lists the implementations fastcopy-info lists"
    else
        fail "fastcopy-info(1)'s example lists '$shown', fastcopy-info '$said'"
    fi
else
    fail "no $info or fastcopy.conf(5)"
fi

finish
