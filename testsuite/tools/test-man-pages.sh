#!/bin/sh
# SPDX-License-Identifier: MIT
# The manual pages keep up with the programs and with each other: no page
# holds a control character (a font escape typed as one), every page has
# one footer, the same date and the programs' version; every long option
# a tool's --help names is in its page; every implementation and every
# setting that fastcopy-info --json reports is in fastcopy.conf(5), the
# settings as entries of their own; fastcopy-info(1)'s example of a
# refused implementation lists the implementations fastcopy-info lists.
# The names come from the programs' own output, not from the sources.
#
#   test-man-pages.sh [PROGRAM:OPTION]...
#                          (make check runs it in the build directory,
#                           with srcdir and FC_TOOLS set)
#
# Prints PASS/FAIL lines; exits 1 when something failed (77, "skipped",
# when the programs cannot run here).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
srcdir=${srcdir:-$(dirname "$0")/../..}
. "$(dirname "$0")/../lib/test-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-man-pages.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# page_file FILE: where the manual page FILE is: the build's for the pages
# made from a .in file, else the source's.
page_file ()
{
    if [ -r "$1" ]; then echo "$1"; else echo "$srcdir/$1"; fi
}

# page FILE: the manual page as plain words, roff's \- as -.
page ()
{
    f=$(page_file "$1")
    [ -r "$f" ] || { echo "FAIL: no manual page $1" >&2; return 1; }
    sed -e 's/\\-/-/g' "$f"
}

# Every page, as its source or the build's, and each page's source as
# roff text: no control character but the tab (a \fR typed as a form
# feed and R, as an editor's escapes make it, is no font change but a
# character of the text, and glues R to the argument before it:
# ".IB FILE : LINE^LR," renders "FILE:LINER,"); and one footer, the same
# date on every page and "libfastcopy VERSION", the version the programs
# print (configure.ac's).
pages=$(cd "$srcdir" && ls tools/*/*.1 tools/*/*.8 bench/*.1 \
    tools/*/*.1.in doc/*.5.in 2>/dev/null | sed -e 's/\.in$//')
[ -n "$pages" ] || fail "no manual page in $srcdir"
version=$(tools/fastcopy-info --version | sed -n 's/^fastcopy-info (libfastcopy) //p')
[ -n "$version" ] || fail "tools/fastcopy-info --version prints no version"
cntrl=$(printf '[\001-\010\013-\037\177]')
date=
for p in $pages; do
    f=$(page_file "$p")
    [ -r "$f" ] || { fail "no manual page $p"; continue; }
    bad=$(LC_ALL=C grep -n -e "$cntrl" "$f" | cut -d: -f1 | tr '\n' ' ')
    if [ -z "$bad" ]; then
        pass "$p: no control character in its source"
    else
        fail "$p: a control character on line(s) $bad(a font escape typed as one?)"
    fi
    th=$(sed -n 's/^\.TH  *[^ ]*  *[^ ]*  *//p' "$f")
    this=${th%% *}
    [ -n "$date" ] || date=$this
    case $th in
        "$date \"libfastcopy $version\" "*)
            pass "$p: footer $date, libfastcopy $version" ;;
        *) fail "$p: footer '$th', not '$date \"libfastcopy $version\" ...' as the others" ;;
    esac
done

# Every long option of each tool's --help in its page: NAME.1 or NAME.8
# in the tool's folder (bench/, or tools/<tool>/ for tools/NAME).  The tools are Makefile.am's list (FC_TOOLS,
# PROGRAM:OPTION words), or the arguments.
[ $# -gt 0 ] || set -- ${FC_TOOLS:-}
[ $# -gt 0 ] || fail "no tools: FC_TOOLS is empty"
for entry in "$@"; do
    tool=${entry%%:*}
    man=
    name=${tool##*/} dir=${tool%/*}
    for m in $(cd "$srcdir" && ls "$dir/$name".[18] "$dir"/*/"$name".[18] \
                   "$dir"/*/"$name".1.in 2>/dev/null | sed -e 's/\.in$//'); do
        [ -r "$m" ] || [ -r "$srcdir/$m" ] || [ -r "$srcdir/$m.in" ] || continue
        man=$m
    done
    if [ ! -x "$tool" ]; then
        echo "SKIP: no $tool"
        continue
    fi
    [ -n "$man" ] || { fail "$tool: no manual page $name.1 or $name.8"; continue; }
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
    shown=$(page tools/info/fastcopy-info.1 | sed -n '/^\.SH EXAMPLES/,/^\.SH/p' | tr '\n' ' ' |
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
