#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-sample's census windows (fastcopy-sample(1), "How calls are
# counted"), on programs whose mixes of copies and clears are drawn at
# random (sample-driver mix), three a run, under seeds drawn anew and
# printed, so that no mix is one the sampler was tuned to:
# - each mix: the windows counted calls in its process; the clears' share
#   of all calls is within 0.02 of the exact count; each family's size
#   histogram is within a total variation distance of 0.05 of the exact
#   one, or within the bound the recording states where that is wider
#   (the sampler then says the histogram is rough); and the program ends
#   with no window open;
# - --no-census: no call counted, the bound unknown;
# - the sampler killed (SIGKILL) while it samples a program at 4999 Hz,
#   a window every 20 ms: the program runs to its end, and its windows
#   are closed (one nobody closes closes itself).
#
#   test-census.sh      (make check runs it in the build directory)
#
# Needs perf events: where the kernel refuses them the test fails, with
# the sampler's reason.
work_name=sample-census
. "$(dirname "$0")/test-setup.sh"
data=$(cd "$(dirname "$0")/../../.." && pwd)/bench/data

# mix SEED [OPTION...]: sample mix SEED for 1.5 s of its CPU time into
# $work/est-SEED.csv, its exact count in $work/exact-SEED.csv.
mix ()
{
    seed=$1
    shift
    "$sample" --cache-dir "$work" -F 999 "$@" -o "$work/est-$seed.csv" -- \
        env FASTCOPY= FASTCOPY_CONFIG= \
        "$driver" mix "$lib" "$data" "$seed" 1.5 "$work/exact-$seed.csv" \
        > "$work/mix-$seed.txt" 2>&1
}

# is NAME WANT GOT
is () { if [ "$3" = "$2" ]; then pass "$1"; else fail "$1: '$3', wanted '$2'"; fi; }

# within VALUE LIMIT: VALUE <= LIMIT.
within () { awk -v v="$1" -v l="$2" 'BEGIN { exit !(v <= l) }'; }

seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
for k in 1 2 3; do
    seed=$((seed + 1))
    if ! mix $seed; then
        fail "mix $seed: fastcopy-sample failed: $(tail -3 "$work/mix-$seed.txt")"
        continue
    fi
    est=$work/est-$seed.csv
    "$driver" compare "$work/exact-$seed.csv" "$est" > "$work/cmp-$seed.txt"
    is "mix $seed: counted in its process" "1" \
        "$(sed -n 's/^# census: .* calls counted in \([0-9]*\) process.*/\1/p' "$est")"
    is "mix $seed: no window left open at its end" "census: closed" \
        "$(grep '^census:' "$work/mix-$seed.txt")"
    set -- $(awk '$1 == "exact" { e = $3 } $1 == "estimate" { s = $3 }
                  END { d = e - s; print e, s, (d < 0 ? -d : d) }' "$work/cmp-$seed.txt")
    if within "$3" 0.02; then
        pass "mix $seed: clears' share $2, exactly $1"
    else
        fail "mix $seed: clears' share $2, exactly $1: off by more than 0.02"
    fi
    for family in copy clear; do
        tvd=$(awk -v f=$family '$1 == f && $2 == "tvd" { print $3 }' "$work/cmp-$seed.txt")
        bound=$(sed -n "s/^# bound: .*$family=\([0-9.]*\).*/\1/p" "$est")
        [ "$tvd" = "-1.0000" ] && continue    # no call of the family
        limit=0.05
        [ -n "$bound" ] && within 0.05 "$bound" && limit=$bound
        if within "$tvd" "$limit"; then
            pass "mix $seed: $family histogram within $tvd of the exact one (bound ${bound:-none})"
        else
            fail "mix $seed: $family histogram $tvd from the exact one, above $limit (bound ${bound:-none}): $(sed -n 2,9p "$work/mix-$seed.txt" | tr '\n' ' ')"
        fi
    done
done

seed=$((seed + 1))
if mix $seed --no-census; then
    is "--no-census: no call counted" "no call counted (0 windows)" \
        "$(sed -n 's/^# census: \(no call counted ([0-9]* windows)\).*/\1/p' "$work/est-$seed.csv")"
    is "--no-census: the bound unknown" "unknown" \
        "$(sed -n 's/^# bound: \(unknown\).*/\1/p' "$work/est-$seed.csv")"
else
    fail "--no-census: fastcopy-sample failed: $(tail -3 "$work/mix-$seed.txt")"
fi

# The sampler killed: sample the program by its PID, so that it is not
# the sampler's child.
seed=$((seed + 1))
env FASTCOPY= FASTCOPY_CONFIG= "$driver" mix "$lib" "$data" "$seed" 2 \
    "$work/exact-$seed.csv" > "$work/killed.txt" 2>&1 &
program=$!
"$sample" --cache-dir "$work" -F 4999 -d 10 -p $program -o "$work/killed.csv" \
    > "$work/killed-sampler.txt" 2>&1 &
sampler=$!
sleep 1
kill -KILL $sampler
wait $sampler
if wait $program; then
    pass "sampler killed: the program ran to its end"
else
    fail "sampler killed: the program failed: $(tail -3 "$work/killed.txt")"
fi
is "sampler killed: no window left open" "census: closed" \
    "$(grep '^census:' "$work/killed.txt")"
finish
