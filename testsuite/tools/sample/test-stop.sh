#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-sample ends when it is told to and when its time is up, in
# every phase: SIGTERM during the replay and SIGINT during the sampling
# end it within a second, with status 128 + the signal, the earlier
# recording intact and no replay process left; SIGKILL of the sampler
# takes its replay with it; a program copying 256 MiB a call does not
# make the replay run on.  Needs perf events, as test-real.sh.
work_name=sample-stop
# Whatever a failed check left running.
cleanup='pkill -KILL -f "$work/"'
. "$(dirname "$0")/test-setup.sh"

now () { date +%s.%N; }
# The processes whose command line names the file OUT: the sampler and
# its replay, a fork of it.
left () { pgrep -f -- "-o $1" | tr '\n' ' '; }

# start OUT SECONDS SIZE: the sampler on a program copying SIZE bytes a
# call for SECONDS, in the background; its PID in $pid.  --no-census:
# the replays convert the samples of processes the census did not count,
# and here none is.
start ()
{
    "$sample" --cache-dir "$work" -F 997 --no-census -o "$1" -- \
        env LD_PRELOAD="$lib" FASTCOPY_CONFIG= FASTCOPY= \
        "$driver" memcpy "$3" "$2" >"$1.report" 2>&1 &
    pid=$!
}

# Wait up to 60 s for the replay: a child of the sampler with its command
# line, once the command (1 s) is over; before its exec, the command's
# process has that command line too.
wait_replay ()
{
    sleep 1.2
    i=0
    while [ $i -lt 600 ]; do
        pgrep -P "$pid" -f -- "-o $1" >/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# stop SIGNAL OUT: send SIGNAL to the sampler, wait for it; its status
# in $st, the seconds it took in $took.
stop ()
{
    t0=$(now)
    kill -"$1" "$pid"
    st=0
    wait "$pid" || st=$?
    took=$(echo "$(now) $t0" | awk '{ printf "%.2f", $1 - $2 }')
}

# SIGTERM during the replay.
out=$work/term.csv
echo "an earlier recording" >"$out"
start "$out" 1 100
if ! wait_replay "$out"; then
    fail "SIGTERM: no replay came: $(cat "$out.report")"
else
    stop TERM "$out"
    [ "$st" = 143 ] && pass "SIGTERM during the replay: status 143" ||
        fail "SIGTERM during the replay: status $st: $(cat "$out.report")"
    awk -v t="$took" 'BEGIN { exit !(t <= 1.0) }' &&
        pass "SIGTERM during the replay: ended in $took s" ||
        fail "SIGTERM during the replay: ended in $took s, not within 1 s"
    [ "$(cat "$out")" = "an earlier recording" ] &&
        pass "SIGTERM during the replay: the earlier recording is intact" ||
        fail "SIGTERM during the replay: the earlier recording changed: $(head -3 "$out")"
    sleep 0.2
    [ -z "$(left "$out")" ] && pass "SIGTERM during the replay: no process left" ||
        fail "SIGTERM during the replay: left running: $(left "$out")"
fi

# SIGKILL of the sampler during the replay.
out=$work/kill.csv
start "$out" 1 100
if ! wait_replay "$out"; then
    fail "SIGKILL: no replay came: $(cat "$out.report")"
else
    stop KILL "$out"
    sleep 0.5
    [ -z "$(left "$out")" ] && pass "SIGKILL of the sampler: its replay died with it" ||
        fail "SIGKILL of the sampler: left running: $(left "$out")"
    [ ! -e "$out" ] && pass "SIGKILL of the sampler: nothing written" ||
        fail "SIGKILL of the sampler: $out was written"
fi

# SIGINT during the sampling: the command runs on, the sampler ends.
out=$work/int.csv
start "$out" 20 100
sleep 1.5
stop INT "$out"
[ "$st" = 130 ] && pass "SIGINT during the sampling: status 130" ||
    fail "SIGINT during the sampling: status $st: $(cat "$out.report")"
awk -v t="$took" 'BEGIN { exit !(t <= 1.0) }' &&
    pass "SIGINT during the sampling: ended in $took s" ||
    fail "SIGINT during the sampling: ended in $took s, not within 1 s"
[ ! -e "$out" ] && pass "SIGINT during the sampling: nothing written" ||
    fail "SIGINT during the sampling: $out was written"
pkill -KILL -f "$driver memcpy 100 20" 2>/dev/null

# Large copies: 256 MiB a call for 3 s, sampled 1 s; the replay's sizes
# stop at 16 MiB and its time at a second of CPU a round, so the run
# ends within 60 s whatever the sizes (it ran on for minutes at 9b88d74).
out=$work/large.csv
t0=$(now)
start "$out" 3 268435456
st=0
wait "$pid" || st=$?
took=$(echo "$(now) $t0" | awk '{ printf "%.1f", $1 - $2 }')
# (What the recording holds is not checked: in one run of this test of
# four in CI, no sample of these copies was attributed; an open question.)
if [ "$st" = 0 ] && grep -q '^# end: [0-9]* lines$' "$out"; then
    pass "256 MiB a call: a whole recording written"
else
    fail "256 MiB a call: status $st, recording: $(tail -n 2 "$out" 2>/dev/null) $(cat "$out.report")"
fi
awk -v t="$took" 'BEGIN { exit !(t <= 60) }' &&
    pass "256 MiB a call: the run took $took s" ||
    fail "256 MiB a call: the run took $took s, more than 60"
finish
