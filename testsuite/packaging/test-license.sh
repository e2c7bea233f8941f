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

srcdir=${srcdir:-$(dirname "$0")/../..}
. "$(dirname "$0")/../lib/test-lib.sh"

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

# The project's files, never what a build or a testsuite run left in the
# tree (an RPM builds in the source tree, and make check may run again
# there): in a git checkout, what git tracks or would track (untracked
# files that no .gitignore pattern covers); elsewhere, as in an unpacked
# release tarball or a package build's copy, what the build distributes
# (make fc-dist-files, in the build directory make check runs in).
top=$(cd "$srcdir" && pwd -P)
if [ "$(git -C "$top" rev-parse --show-toplevel 2>/dev/null)" = "$top" ]; then
    project_files=$(git -C "$top" ls-files --cached --others --exclude-standard)
else
    project_files=$(${MAKE:-make} -s --no-print-directory fc-dist-files) ||
        { fail "no list of the project's files: not a git checkout, and make fc-dist-files failed"; exit 1; }
fi

# The source files among them: code, scripts, build files, manual pages,
# tests; not the files generated from them, nor the measured data
# (bench/data/, doc/bench/) and the fuzzing corpus.
missing=
for f in $(printf '%s\n' "$project_files" |
        grep -v -E '^(bench/data|doc/bench|testsuite/libfastcopy\.config/fuzz/corpus)/' |
        grep -E '\.([chS]|cc|def|map|sh|exp|am|ac|[1-8]|spec|toml|in)$|/rules$|/run$|^bootstrap$' |
        sort -u); do
    [ -f "$srcdir/$f" ] || continue
    head -n 2 "$srcdir/$f" | grep -qi 'generated' && continue
    head -n 2 "$srcdir/$f" | grep -q 'SPDX-License-Identifier: MIT' || missing="$missing $f"
done
if [ -z "$missing" ]; then
    pass "every source file has an SPDX line"
else
    fail "no 'SPDX-License-Identifier: MIT' line near the top of:$missing"
fi

finish
