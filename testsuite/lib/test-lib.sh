# SPDX-License-Identifier: MIT
# What the shell tests share; sourced, not run.  pass and fail print the
# PASS: and FAIL: lines and count the failures (printf, not echo: dash's
# echo would turn the backslashes of a shown value into control
# characters); expect checks a command's exit status and output; finish
# prints the count and is the script's exit status.

failures=0
pass () { printf 'PASS: %s\n' "$*"; }
fail () { printf 'FAIL: %s\n' "$*"; failures=$((failures + 1)); }

# expect NAME STATUS PATTERN COMMAND...: COMMAND exits STATUS and its
# output (both streams) matches the shell PATTERN.
expect ()
{
    name=$1 want=$2 pat=$3
    shift 3
    st=0
    out=$("$@" 2>&1) || st=$?
    case $out in
        $pat) [ $st -eq "$want" ] && { pass "$name"; return; } ;;
    esac
    fail "$name: exit $st (wanted $want), output: $(printf '%s' "$out" | head -c 600)"
}

finish ()
{
    echo "$failures failure(s)"
    [ $failures -eq 0 ]
}
