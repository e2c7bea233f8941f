#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-tune's command line: --repeat takes digits only, and a --set
# that the library's parser refuses is named by its place on the command
# line.  Every case here is refused before anything is measured (the
# --repeat cases carry a --set, which skips measuring, in case a number
# were taken after all).
#
#   test-tune-args.sh [TUNE]
#
# TUNE defaults to ./tools/fastcopy-tune (make check runs in the build
# directory).  Prints PASS/FAIL lines; exits 1 when something failed (77,
# "skipped", when the tool is missing).
set -u

tune=${1:-./tools/fastcopy-tune}
[ -x "$tune" ] || { echo "SKIP: no $tune"; exit 77; }
failures=0

# refused WANT-STATUS WANT-TEXT ARG...: the tool exits WANT-STATUS and its
# error output contains WANT-TEXT.
refused ()
{
    want_st=$1 want_text=$2
    shift 2
    st=0
    err=$("$tune" "$@" 2>&1 >/dev/null) || st=$?
    case $err in
        *"$want_text"*) ok=$st ;;
        *) ok=wrong-text ;;
    esac
    if [ "$ok" = "$want_st" ]; then
        echo "PASS: fastcopy-tune $(echo "$*" | cut -c1-60): exit $st, '$want_text'"
    else
        echo "FAIL: fastcopy-tune $(echo "$*" | cut -c1-60): exit $st (wanted $want_st), said: $err"
        failures=$((failures + 1))
    fi
}

for bad in 1x 0 10 '' ' 3' +3 -1 3.0 0x3 99999999999999999999; do
    refused 2 "--repeat takes 1 to 9" --repeat "$bad" --set copy=erms
done

long=$(i=0; while [ $i -lt 1100 ]; do printf x; i=$((i + 1)); done)
refused 1 "--set 2: longer than 1024 bytes" --set copy=erms --set "copy_nt_threshold=$long"
refused 1 "--set 3: copy_nt_threshold: " --set copy=erms --set clear=erms --set copy_nt_threshold=1x

echo "$failures failure(s)"
[ $failures -eq 0 ]
