#!/bin/bash
# SPDX-License-Identifier: MIT
# The AVX-512 variants through the testsuite's harnesses on a machine
# without AVX-512: the harnesses that iterate over the implementation
# table (copy, clear, overlap, page-end, the table itself) and
# fastcopy-info, built against a build tree's library and run inside
# Bochs with one of its AVX-512 CPU models (README.md here).  Not the CPU
# features harness: the guest kernel hides ERMS from /proc/cpuinfo (a
# workaround of Bochs's, README.md), which it compares with.
# A developer's check, not part of make check: 13-17 minutes for the
# corei7_skylake_x model on a 2-core guest.
#
#   run-testsuite.sh BUILDDIR OUTFILE [MODEL]
#
# BUILDDIR is an x86-64 build tree (make done); MODEL defaults to
# corei7_skylake_x (Skylake-SP's CPUID: the evex row).  Exits 0 when every
# harness passed, 1 otherwise (the output says which).
set -eu
[ $# -ge 2 ] || { echo "usage: $0 BUILDDIR OUTFILE [MODEL]" >&2; exit 2; }
build=$(cd "$1" && pwd)
out=$2
model=${3:-corei7_skylake_x}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-bochs.XXXXXX")
trap 'rm -rf "$work"' EXIT

harnesses="copy/impl-copy copy/impl-overlap copy/impl-page-end clear/impl-clear
	   dispatch/api-table"
runs=(--run 'LD_LIBRARY_PATH=/opt/lib FASTCOPY_CONFIG= /opt/bin/fastcopy-info')
files=("$build/tools/.libs/fastcopy-info" "$build/.libs/libfastcopy.so.1")
for h in $harnesses; do
    name=${h#*/}
    # The testsuite's harness flags (testsuite/lib/libfastcopy.exp).
    gcc -O2 -g -Wall -Wextra -fno-builtin -fno-tree-loop-distribute-patterns \
        -I"$top/include" -I"$top/testsuite/lib" \
        -DFC_LIBRARY='"/opt/lib/libfastcopy.so.1"' \
        -DFC_PACKAGE_VERSION='"'"$(sed -n 's/^AC_INIT(\[libfastcopy\], \[\([^]]*\)\].*/\1/p' "$top/configure.ac")"'"' \
        "$top/testsuite/libfastcopy.$h.c" -o "$work/$name" \
        -L"$build/.libs" -lfastcopy -ldl
    files+=("$work/$name")
    runs+=(--run "LD_LIBRARY_PATH=/opt/lib /opt/bin/$name")
done
"$here/run-under-bochs.sh" --cpu "$model" --timeout 2400 --status --out "$out" \
    "${runs[@]}" -- "${files[@]}" || true
grep -E '^(FAIL|EXIT|NOTE)' "$out" || :
! grep -q -E '^EXIT [1-9]' "$out" && grep -q '^@@BOCHS-RUN-DONE@@' "$out"
