#!/bin/sh
# SPDX-License-Identifier: MIT
# The license is stated the same way everywhere: LICENSE holds the MIT
# text, debian/copyright says Expat (Debian's name for it) for the
# project's files, the RPM spec says MIT, and every source file starts
# with an SPDX line.
#
#   test-license.sh          (make check runs it with $srcdir set)
#
# Prints PASS/FAIL lines; exits 1 when something failed.
set -u

srcdir=${srcdir:-$(dirname "$0")/..}
failures=0
pass () { echo "PASS: $*"; }
fail () { echo "FAIL: $*"; failures=$((failures + 1)); }

if head -n 3 "$srcdir/LICENSE" 2>/dev/null | grep -qx 'MIT License' &&
    grep -qx 'Copyright (c) 2025 the libfastcopy authors' "$srcdir/LICENSE"; then
    pass "LICENSE: MIT, copyright the libfastcopy authors"
else
    fail "LICENSE is missing or not the MIT license of the libfastcopy authors"
fi

# debian/ and .ci/ are not in the release tarball.
if [ -e "$srcdir/debian/copyright" ]; then
    if sed -n '/^Files: \*$/,/^$/p' "$srcdir/debian/copyright" | grep -qx 'License: Expat' &&
        grep -qx 'License: Expat' "$srcdir/debian/copyright" &&
        ! grep -qi 'undecided' "$srcdir/debian/copyright"; then
        pass "debian/copyright: Files: * under Expat, with its text"
    else
        fail "debian/copyright does not give Files: * the Expat (MIT) license"
    fi
fi
if grep -qx 'License:        MIT' "$srcdir/rpm/libfastcopy.spec" &&
    grep -q '^%license LICENSE$' "$srcdir/rpm/libfastcopy.spec"; then
    pass "rpm/libfastcopy.spec: License: MIT, %license LICENSE"
else
    fail "rpm/libfastcopy.spec does not say License: MIT with %license LICENSE"
fi

# The source files: code, scripts, build files, manual pages, tests; not
# the files a build generates among them (an RPM builds in the source
# tree, the Debian package under debian/build), nor the measured data
# (bench/data/, doc/bench/) and the fuzzing corpus.
missing=
for f in $(cd "$srcdir" && { find src sysdeps include bench tools testsuite \
                                 packaging rpm .ci doc -type f; \
                            find debian -maxdepth 1 -type f; \
                            ls Makefile.am configure.ac bootstrap quickstart.sh \
                               libfastcopy.pc.in; } 2>/dev/null |
        grep -v -E '^(bench/data|doc/bench|testsuite/libfastcopy\.config/fuzz/corpus|debian/build)/' |
        grep -E '\.([chS]|cc|def|map|sh|exp|am|ac|[1-8]|spec|toml|in)$|/rules$|/run$|^bootstrap$' |
        sort); do
    head -n 2 "$srcdir/$f" | grep -qi 'generated' && continue
    head -n 2 "$srcdir/$f" | grep -q 'SPDX-License-Identifier: MIT' || missing="$missing $f"
done
if [ -z "$missing" ]; then
    pass "every source file has an SPDX line"
else
    fail "no 'SPDX-License-Identifier: MIT' line near the top of:$missing"
fi

echo "$failures failure(s)"
[ $failures -eq 0 ]
