#!/bin/sh
# SPDX-License-Identifier: MIT
# The directory lock of common/file-replace.c.  A writer holding it
# (here flock(1), as the package scripts take it: packaging/preload-remove.sh)
# reads a file, changes it and renames the new version over it a second
# later.  fastcopy-tune --write and fastcopy-preload disable, started while
# it holds the lock, must wait and then edit the file as the holder left
# it: the result has both changes.  Without the lock each tool would
# finish first and the holder's rename would undo its change.
#
#   test-dir-lock.sh [TUNE [PRELOAD]]
#
# TUNE and PRELOAD default to ./tools/fastcopy-tune and
# ./tools/fastcopy-preload (make check runs in the build directory).
# Prints PASS/FAIL lines; exits 1 when something failed (77, "skipped",
# without flock(1) or the tools).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

tune=${1:-./tools/fastcopy-tune}
preload=${2:-./tools/fastcopy-preload}
command -v flock >/dev/null 2>&1 || { echo "SKIP: no flock(1)"; exit 77; }
for tool in "$tune" "$preload"; do
    [ -x "$tool" ] || { echo "SKIP: no $tool"; exit 77; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-lock-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

# hold DIR FILE LINE: in the background, lock DIR, copy FILE, wait a
# second, add LINE to the copy and rename it over FILE.  Returns once the
# lock is held; $holder is the background process.
hold ()
{
    rm -f "$work/held"
    flock "$1" sh -c 'cp -p "$1" "$1.new" && : >"$3" && sleep 1 &&
        printf "%s\n" "$2" >>"$1.new" && mv "$1.new" "$1"' \
        sh "$2" "$3" "$work/held" &
    holder=$!
    i=0
    while [ ! -e "$work/held" ] && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}

# verdict NAME FILE EXPECTED-BYTES (printf format)
verdict ()
{
    printf "$3" >"$work/want"
    if cmp -s "$work/want" "$2"; then
        echo "PASS: $1"
    else
        echo "FAIL: $1; the file is:"
        cat "$2"
        failures=$((failures + 1))
    fi
}

# fastcopy-tune --write.
d=$work/tune
mkdir "$d"
printf 'copy = auto\n' >"$d/fastcopy.conf"
hold "$d" "$d/fastcopy.conf" 'alias_guard = off'
"$tune" --set clear=scalar --write --config "$d/fastcopy.conf" >/dev/null ||
    echo "fastcopy-tune failed"
wait "$holder"
sed -i 's/^\(# set by fastcopy-tune --set\), .*/\1/' "$d/fastcopy.conf"   # the date
verdict "fastcopy-tune --write waits for the directory lock" \
    "$d/fastcopy.conf" \
    'copy = auto\nalias_guard = off\n\n# set by fastcopy-tune --set\nclear = scalar\n'

# fastcopy-preload disable.
d=$work/root
mkdir -p "$d/etc"
printf 'a.so\nlibfastcopy.so.1\n' >"$d/etc/ld.so.preload"
hold "$d/etc" "$d/etc/ld.so.preload" 'b.so'
"$preload" --quiet --root "$d" disable || echo "fastcopy-preload failed"
wait "$holder"
verdict "fastcopy-preload disable waits for the directory lock" \
    "$d/etc/ld.so.preload" 'a.so\nb.so\n'

finish
