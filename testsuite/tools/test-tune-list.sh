#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-tune --list: the candidates of both stages, at once and without
# measuring: every implementation usable here and no other (as
# fastcopy-info reports them), one default per family, and the streaming
# stage's fixed ladder for the default; in a process too small for the
# buffers a measurement maps, and on a CPU emulated by qemu-user, where
# the library chooses otherwise.
#
#   test-tune-list.sh [TUNE [INFO [LIBDIR]]]
#
# Defaults: ./tools/fastcopy-tune, ./tools/fastcopy-info and ./.libs
# (make check runs in the build directory).  Prints PASS/FAIL lines; exits
# 1 when something failed (77, "skipped", when one is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

tune=${1:-./tools/fastcopy-tune}
info=${2:-./tools/fastcopy-info}
libdir=${3:-./.libs}
for f in "$tune" "$info"; do [ -x "$f" ] || { echo "SKIP: no $f"; exit 77; }; done
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-tune-list.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

# check NAME LIST INFO-OUTPUT: the listed candidates against the
# implementations fastcopy-info calls usable (the profile ones only
# record: no candidates).
check ()
{
    name=$1 list=$2 out=$3
    bad=$(grep -v -E '^(copy|clear)( streaming)? [a-z0-9]+( rep=[0-9A-Za-z]+)?( nt=[0-9A-Za-z]+)?( \(default\))?$' "$list")
    [ -z "$bad" ] || { fail "$name: lines not in the tables' form: $bad"; return; }
    for fam in copy clear; do
        want=$(sed -n "s/^  $fam  *\([a-z0-9]*\)  *usable .*/\1/p" "$out" | grep -v '^profile$' | sort | tr '\n' ' ')
        got=$(grep -v "^$fam streaming " "$list" | sed -n "s/^$fam \([a-z0-9]*\).*/\1/p" |
            sort -u | tr '\n' ' ')
        [ "$got" = "$want" ] ||
            { fail "$name: $fam: lists {$got}, the usable implementations are {$want}"; return; }
        n=$(grep "^$fam " "$list" | grep -v "^$fam streaming " | grep -c ' (default)$')
        [ "$n" = 1 ] || { fail "$name: $fam: $n default candidates"; return; }
        # The streaming stage follows the default, if it streams.
        dflt=$(grep -v "^$fam streaming " "$list" |
            sed -n "s/^$fam \([a-z0-9]*\)\( rep=[^ ]*\)\{0,1\} nt=.*(default)\$/\1\2/p")
        if [ -n "$dflt" ]; then
            other=$(grep "^$fam streaming " "$list" | grep -v -F "$fam streaming $dflt nt=")
            [ -z "$other" ] || { fail "$name: $fam streaming: not the default's: $other"; return; }
            for nt in never 4MiB 8MiB 16MiB 32MiB 64MiB; do
                grep -q "^$fam streaming $dflt nt=$nt\( (default)\)\{0,1\}\$" "$list" ||
                    { fail "$name: $fam streaming: no nt=$nt"; return; }
            done
        fi
    done
    pass "$name: every usable implementation, one default per family, the streaming ladder"
}

st=0
env FASTCOPY_CONFIG= FASTCOPY= "$tune" --list >"$work/list" 2>"$work/err" || st=$?
env FASTCOPY_CONFIG= FASTCOPY= "$info" >"$work/info" 2>&1
if [ $st -ne 0 ] || [ -s "$work/err" ]; then
    fail "fastcopy-tune --list exited $st: $(cat "$work/err")"
else
    check "fastcopy-tune --list" "$work/list" "$work/info"
    # A full run measures large copies up to 256 MiB; --quick up to 64 MiB.
    if grep -q ' streaming .* nt=256MiB$' "$work/list" ||
        ! grep -q ' streaming ' "$work/list"; then
        pass "fastcopy-tune --list: the streaming ladder goes to 256 MiB"
    else
        fail "fastcopy-tune --list: the streaming ladder stops short of 256 MiB: $(grep ' streaming ' "$work/list" | tail -n 2)"
    fi
fi

# In a process with 192 MiB of address space at most: a measurement maps
# two buffers of 128 MiB or more and fails there; the list maps none.
st=0
(ulimit -v 196608 && exec env FASTCOPY_CONFIG= FASTCOPY= "$tune" --list --quick) \
    >"$work/small" 2>&1 || st=$?
if [ $st -eq 0 ] && grep -q '^copy .* (default)$' "$work/small"; then
    pass "fastcopy-tune --list in 192 MiB of address space"
else
    fail "fastcopy-tune --list in 192 MiB of address space: exit $st, $(head -c 300 "$work/small")"
fi
st=0
(ulimit -v 196608 && exec env FASTCOPY_CONFIG= FASTCOPY= "$tune" --quick --quiet) \
    >"$work/small-run" 2>&1 || st=$?
if [ $st -ne 0 ] && grep -q 'cannot map' "$work/small-run"; then
    pass "a measurement cannot run there (the limit is below its buffers)"
else
    fail "a measurement ran in 192 MiB of address space: exit $st, $(tail -c 300 "$work/small-run")"
fi

# On an emulated CPU with fewer features (qemu-user cannot run libtool's
# wrapper scripts: the programs themselves, with the build's library).
qemu=$(command -v qemu-x86_64 || true)
real_tune=$(dirname "$tune")/.libs/$(basename "$tune")
real_info=$(dirname "$info")/.libs/$(basename "$info")
if [ -z "$qemu" ]; then
    echo "SKIP: fastcopy-tune --list under qemu-x86_64: not installed"
elif [ ! -x "$real_tune" ] || [ ! -x "$real_info" ]; then
    echo "SKIP: fastcopy-tune --list under qemu-x86_64: no $real_tune or $real_info"
else
    for model in Nehalem Skylake-Client; do
        st=0
        env FASTCOPY_CONFIG= FASTCOPY= LD_LIBRARY_PATH="$libdir" \
            "$qemu" -cpu $model "$real_tune" --list >"$work/list-$model" 2>"$work/err" || st=$?
        env FASTCOPY_CONFIG= FASTCOPY= LD_LIBRARY_PATH="$libdir" \
            "$qemu" -cpu $model "$real_info" >"$work/info-$model" 2>&1
        if [ $st -ne 0 ]; then
            fail "fastcopy-tune --list under qemu -cpu $model exited $st: $(cat "$work/err")"
        else
            check "fastcopy-tune --list under qemu -cpu $model" "$work/list-$model" "$work/info-$model"
        fi
    done
fi

finish
