#!/bin/sh
# SPDX-License-Identifier: MIT
# make check passes again in the same build: nothing a first run leaves
# behind (testsuite outputs, measured files, the site configuration) may
# make a second one fail.  On a copy of the distributed tree (make
# distdir), built once in its source tree, as an RPM builds, and once out
# of it, as quickstart.sh and the Debian package build; each build runs
# make check twice, and every run must pass.  The two builds run side by
# side: each testsuite is one process.
#
#   test-check-twice.sh      (make check runs it in the build directory)
#
# Prints PASS/FAIL lines; exits 1 when something failed, 77 ("skipped")
# inside the copies' own make check (FC_CHECK_TWICE_INNER is set there)
# and where FC_CHECK_TWICE=no: the package builds and the Debian 13 root
# of CI, which would only repeat what the plain make check's copies show
# (packaging/build-packages.sh, packaging/check-debian-release.sh).
# The logs are kept in FC_CHECK_TWICE_LOGS when that names a directory.
set -u
[ -z "${FC_CHECK_TWICE_INNER:-}" ] ||
    { echo "SKIP: this is a copy's make check, run by test-check-twice.sh itself"; exit 77; }
[ "${FC_CHECK_TWICE:-}" != no ] ||
    { echo "SKIP: FC_CHECK_TWICE=no: the plain make check of this checkout runs it"; exit 77; }

. "$(dirname "$0")/../lib/test-lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-check-twice.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
# The testsuite runs its setuid and unreadable-file checks as user nobody,
# who must reach the build tree.
chmod 0755 "$work"
make=${MAKE:-make}
jobs=$(nproc 2>/dev/null || echo 1)

# automake's distdir must be relative to the build directory.
$make -s --no-print-directory distdir \
    distdir="$(realpath --relative-to=. "$work/in-tree")" >"$work/distdir.log" 2>&1 ||
    { cat "$work/distdir.log"; echo "FAIL: make distdir"; exit 1; }
cp -pR "$work/in-tree" "$work/src"
mkdir "$work/out-of-tree"

# build NAME SRCDIR: configure in the current directory, make, then make
# check twice; one line "NAME RUN STATUS" per step into NAME.status.
build ()
{
    # The copies' runs are plain ones: not the outer run's RUNTESTFLAGS or
    # FC_HOST_RUNS, which make hands down in MAKEFLAGS.
    unset MAKEFLAGS MFLAGS MAKELEVEL
    {
        "$2/configure" --quiet >make.out 2>&1 &&
            $make -j"$jobs" >>make.out 2>&1
        status=$?
        echo "$1 build $status"
        for run in 1 2; do
            [ $status -eq 0 ] || break
            FC_CHECK_TWICE_INNER=1 $make --no-print-directory check VERBOSE=yes \
                >check-$run.out 2>&1
            status=$?
            echo "$1 check-$run $status"
        done
    } >"$work/$1.status"
}
(cd "$work/in-tree" && build in-tree .) &
(cd "$work/out-of-tree" && build out-of-tree ../src) &
wait

for name in in-tree out-of-tree; do
    dir=$work/$name
    while read -r _ step status; do
        log=$dir/$step.out
        [ "$step" != build ] || log=$dir/make.out
        if [ "$status" = 0 ] && [ "$step" = build ]; then
            pass "$name build: configure and make"
        elif [ "$status" = 0 ]; then
            pass "$name build: make check run ${step#check-} ($(grep -E '^[0-9]+ passed' "$log" | tail -n 1))"
        else
            # What failed first, then how the log ends: CI shows only the
            # end of the outer log.
            fail "$name build: $step exited $status; its failures, then the end of its log:"
            grep -E '^(FAIL|ERROR|UNRESOLVED|XPASS)[: ]' "$log" | head -n 20 | sed 's/^/    /'
            echo "    ..."
            tail -n 12 "$log" | sed 's/^/    /'
        fi
    done <"$dir.status"
    [ "$(wc -l <"$dir.status")" -eq 3 ] || grep -qv ' 0$' "$dir.status" ||
        fail "$name build: stopped early"
    if [ -n "${FC_CHECK_TWICE_LOGS:-}" ] && [ -d "$FC_CHECK_TWICE_LOGS" ]; then
        for f in "$dir"/*.out; do cp "$f" "$FC_CHECK_TWICE_LOGS/$name-${f##*/}"; done
    fi
done

finish
