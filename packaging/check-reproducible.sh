#!/bin/sh
# SPDX-License-Identifier: MIT
# Two package builds of the same sources must give the same bytes.
#
#   packaging/check-reproducible.sh DIR1 DIR2
#
# DIR1 and DIR2 are output directories of packaging/build-packages.sh,
# built from the same commit in different build directories.  Every .deb
# in deb/ and deb-i386/ and every .rpm in rpm/ must be in both and be
# byte-identical;
# for one that differs, the files inside it that differ are named.
# Exits 1 when a package differs or is missing.
set -u

[ $# -eq 2 ] || { echo "usage: $0 DIR1 DIR2" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-repro.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

# unpack PACKAGE DIR: its files into DIR.
unpack ()
{
    mkdir -p "$2"
    case $1 in
        *.deb) dpkg-deb -x "$1" "$2" && dpkg-deb -e "$1" "$2/DEBIAN" ;;
        *.rpm) (cd "$2" && rpm2cpio "$1" | cpio -idm --quiet) ;;
    esac
}

status=0 n=0
for pkg in "$1"/deb/*.deb "$1"/deb-i386/*.deb "$1"/rpm/*.rpm; do
    [ -e "$pkg" ] || continue
    rel=${pkg#"$1"/}
    n=$((n + 1))
    if [ ! -e "$2/$rel" ]; then
        echo "FAIL: $rel is missing from $2"
        status=1
    elif cmp -s "$pkg" "$2/$rel"; then
        echo "PASS: $rel is byte-identical"
    else
        echo "FAIL: $rel differs between the two builds"
        rm -rf "$work/a" "$work/b"
        unpack "$pkg" "$work/a" && unpack "$2/$rel" "$work/b" &&
            diff -rq "$work/a" "$work/b" | sed "s|$work/[ab]/||g; s/^/  /" >"$work/diff"
        if [ -s "$work/diff" ]; then
            cat "$work/diff"
        else
            echo "  the files in it are the same: the package's own header or metadata differ"
        fi
        status=1
    fi
done
[ $n -gt 0 ] || { echo "FAIL: no packages in $1"; status=1; }
exit $status
