#!/bin/sh
# SPDX-License-Identifier: MIT
# A package build must run every check that a plain 'make check' runs.
#
#   packaging/compare-checks.sh BUILDDIR CHECKS...
#
# BUILDDIR is a build tree where 'make check' ran (the DejaGnu summary
# testsuite/libfastcopy.sum and the automake tests' .trs files); each
# CHECKS file holds the result lines a package build printed ("PASS: ...",
# "UNSUPPORTED: ..."; packaging/build-packages.sh keeps them in
# logs/checks-deb.txt and logs/checks-rpm.txt).  Every check that passed
# in BUILDDIR must have passed in each package build.  Check names carry
# paths that differ from build to build (the build directory, mktemp
# names, the configuration directory), measured counts, and the value
# found in parentheses; they are compared without them.  The one check
# the package builds skip by design, testsuite/packaging/test-check-twice.sh
# (build-packages.sh says why), is left out.
#
# Prints the counts and every check a package build did not pass; exits 1
# when there is one.
set -u

[ $# -ge 2 ] || { echo "usage: $0 BUILDDIR CHECKS..." >&2; exit 2; }
build=$1
shift
[ -r "$build/testsuite/libfastcopy.sum" ] ||
    { echo "compare-checks: no $build/testsuite/libfastcopy.sum; run make check there first" >&2; exit 2; }

# normalize: result lines, with the paths that vary made alike.
normalize ()
{
    grep -E '^(PASS|FAIL|UNSUPPORTED|UNTESTED|UNRESOLVED|XPASS|XFAIL|KFAIL|ERROR|SKIP): ' |
        sed -e 's# (\(it is\|got\) .*$##' \
            -e 's#[0-9][0-9]* runs in [0-9][0-9]* s#N runs in N s#' \
            -e 's#[^ ":()]*/testsuite/tmp/#TESTSUITE-TMP/#g' \
            -e 's#/tmp/\([A-Za-z0-9_-]*\)\.[A-Za-z0-9]\{6\}#/tmp/\1.XXXXXX#g' \
            -e 's#[^ ":()]*/etc/fastcopy\.conf#SYSCONFDIR/fastcopy.conf#g' |
        sort -u
}

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-checks.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
{
    cat "$build/testsuite/libfastcopy.sum"
    find "$build" -name '*.trs' | while IFS= read -r trs; do
        name=${trs#"$build"/}
        sed -n "s|^:test-result: \(.*\)|\1: ${name%.trs}|p" "$trs"
    done
} | normalize >"$work/plain"
grep '^PASS: ' "$work/plain" | grep -v '^PASS: testsuite/packaging/test-check-twice\.sh$' >"$work/plain-pass"
echo "plain make check in $build: $(wc -l <"$work/plain-pass") checks passed"

status=0
for checks in "$@"; do
    normalize <"$checks" >"$work/pkg"
    grep '^PASS: ' "$work/pkg" >"$work/pkg-pass"
    comm -23 "$work/plain-pass" "$work/pkg-pass" >"$work/missing"
    echo "$checks: $(wc -l <"$work/pkg-pass") passed," \
        "$(grep -vc '^PASS: ' "$work/pkg") not passed"
    if [ -s "$work/missing" ]; then
        echo "  $(wc -l <"$work/missing") checks that plain make check passes did not pass here:"
        sed 's/^/    /' "$work/missing" | head -n 50
        status=1
    fi
done
exit $status
