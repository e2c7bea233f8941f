#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-tune's objective on made-up figures: the table of cases in
# test-objective.c, run by the program built from it.
#
#   test-objective.sh [PROGRAM]
#
# PROGRAM defaults to ./testsuite/tools/tune/test-objective (make check runs in the
# build directory and builds it).  Prints its PASS/FAIL lines; exits 1
# when one failed (77, "skipped", when the program is missing).
set -u
prog=${1:-./testsuite/tools/tune/test-objective}
[ -x "$prog" ] || { echo "SKIP: no $prog"; exit 77; }
exec "$prog"
