#!/bin/sh
# SPDX-License-Identifier: MIT
# debian/libfastcopy1.symbols lists exactly what the library exports, with
# its versions: dpkg-gensymbols fails the package build on any difference
# (debian/rules), and this test says so already in 'make check'.  Lines
# tagged (arch=amd64) or (arch=i386) count only for a library of that
# architecture (glibc's names carry other versions on i386).
#
#   test-symbols.sh [LIBRARY]
#
# LIBRARY defaults to ./.libs/libfastcopy.so.1 (make check runs in the
# build directory).  The symbols file is in the release tarball too, so
# that the RPM build runs this test as well.  Prints PASS/FAIL lines;
# exits 1 when something failed (77, "skipped", without the library or
# nm).
set -u

lib=${1:-./.libs/libfastcopy.so.1}
srcdir=${srcdir:-$(dirname "$0")/../..}
symbols=$srcdir/debian/libfastcopy1.symbols
[ -r "$lib" ] && [ -r "$symbols" ] && command -v nm >/dev/null ||
    { echo "SKIP: no $lib, $symbols or nm"; exit 77; }

# One name@VERSION a line, sorted; a version node's own symbol is
# VERSION@VERSION, as dpkg-gensymbols writes it.
exported=$(nm -D --defined-only "$lib" |
    awk '{ n = $3; sub(/@@/, "@", n); if (n !~ /@/) n = n "@" n; print n }' | sort)
# EI_CLASS, the ELF header's fifth byte: 1 for 32-bit, 2 for 64-bit.
case $(od -An -tu1 -j4 -N1 "$lib" | tr -d ' ') in
    1) arch=i386 ;;
    2) arch=amd64 ;;
    *) echo "FAIL: $lib is not an ELF file"; exit 1 ;;
esac
listed=$(sed -n -e "s/^ (arch=$arch)/ /" -e '/^ (arch=/d' \
              -e 's/^ \([^ ]*\) .*/\1/p' "$symbols" | sort)
if [ "$exported" = "$listed" ]; then
    echo "PASS: debian/libfastcopy1.symbols lists the $(echo "$exported" | wc -l) exported symbols of the $arch library"
    exit 0
fi
echo "FAIL: debian/libfastcopy1.symbols differs from the library's exports:"
tmp=$(mktemp) || exit 1
printf '%s\n' "$exported" >"$tmp"
printf '%s\n' "$listed" | diff - "$tmp" | sed -n 's/^>/  not listed:/p; s/^</  not exported:/p'
rm -f "$tmp"
exit 1
