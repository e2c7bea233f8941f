# SPDX-License-Identifier: MIT
# What the tests of fastcopy-sample on the built library share; sourced,
# not run, in the build directory, with $work_name set: the programs
# ($sample, $driver, $lib), test-lib.sh, and a scratch directory $work,
# removed at exit after $cleanup (a command, default none).  Skips (77)
# where the build's programs cannot run here or one is missing.
set -u
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
sample=$PWD/tools/fastcopy-sample
driver=$PWD/testsuite/tools/sample/sample-driver
lib=$PWD/.libs/libfastcopy.so.1
for f in "$sample" "$driver" "$lib"; do
    [ -e "$f" ] || { echo "SKIP: no $f"; exit 77; }
done
. "$(dirname "$0")/../../lib/test-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-$work_name.XXXXXX") || exit 1
trap 'eval "${cleanup:-:}"; rm -rf "$work"' EXIT
