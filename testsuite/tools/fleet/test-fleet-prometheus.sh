#!/bin/sh
# SPDX-License-Identifier: MIT
# The round trip through a real Prometheus: two programs with different
# mixes of sizes recorded by fastcopy-profile as two hosts, exported into
# a directory that node_exporter's textfile collector (and nothing else)
# serves, scraped every second by Prometheus, added up by one query of
# its HTTP API and imported: what fastcopy-tune --workload reads of the
# import (every bucket's ends and calls, every alignment, distance and
# overlap row) and the candidates it would measure are those of
# fastcopy-fleet merge of the two recordings, and so is the bound on its
# error, through the query of fastcopy-fleet(1) too.  test-fleet-tune.sh
# shows that the tuner reads them alike.
#
# Debian's prometheus, prometheus-node-exporter and curl must be
# installed: without them the test fails, saying which are missing.  Both
# servers listen on 127.0.0.1 only, on free ports, keep their data in a
# temporary directory and are stopped however the test ends.  About 10
# seconds; at most 60.
#
#   test-fleet-prometheus.sh [FLEET [PROFILE [TUNE]]]
#
# The programs default to the build's (make check runs in the build
# directory).  Prints PASS/FAIL lines; exits 1 when something failed (77,
# "skipped", when a program of the build is missing).
set -u
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
fleet=${1:-./tools/fastcopy-fleet}
profile=${2:-./tools/fastcopy-profile}
tune=${3:-./tools/fastcopy-tune}
for f in "$fleet" "$profile" "$tune"; do
    [ -x "$f" ] || { echo "SKIP: no $f"; exit 77; }
done
. "$(dirname "$0")/../../lib/test-lib.sh"

missing=
command -v prometheus >/dev/null || missing="$missing prometheus"
command -v prometheus-node-exporter >/dev/null ||
    missing="$missing prometheus-node-exporter"
command -v curl >/dev/null || missing="$missing curl"
if [ -n "$missing" ]; then
    fail "the Prometheus round trip needs Debian's packages:$missing (apt-get install$missing)"
    finish
    exit
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-fleet-prometheus.XXXXXX") || exit 1
pids=
stop ()
{
    for p in $pids; do kill "$p" 2>/dev/null; done
    for p in $pids; do wait "$p" 2>/dev/null; done
    pids=
}
trap 'stop; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
deadline=$(($(date +%s) + 55))

# --- two hosts ---------------------------------------------------------------
# bash -c: a shell that exits, so that its recording is written.
rec ()
{
    env FASTCOPY_CONFIG= FASTCOPY= "$profile" -o "$work/$1.csv" bash -c "$2" \
        >"$work/$1.log" 2>&1 || fail "fastcopy-profile of $1: $(cat "$work/$1.log")"
}
seq 1 20000 >"$work/numbers"
rec h1 "sort -r '$work/numbers' >/dev/null"
rec h2 "gzip -c '$work/numbers' | gzip -d >/dev/null"
# Bounds as fastcopy-sample states them, where fastcopy-profile's are 0:
# the sum's is a quadrature of both.
sed -i 's/^# bound: .*/# bound: copy=0.0300 clear=0.0400 share=0.0100/' "$work/h1.csv"
sed -i 's/^# bound: .*/# bound: copy=0.0900 clear=0.0200 share=0.0300/' "$work/h2.csv"
mkdir "$work/textfile" "$work/merged" "$work/imported" "$work/tsdb"
"$fleet" merge -o "$work/merged/fleet.csv" "$work/h1.csv" "$work/h2.csv" >"$work/merge.out" &&
    "$fleet" export --host h1 -o "$work/textfile/h1.prom" "$work/h1.csv" &&
    "$fleet" export --host h2 -o "$work/textfile/h2.prom" "$work/h2.csv" ||
    { fail "merge or export failed"; finish; exit; }
series=$(cat "$work/textfile/h1.prom" "$work/textfile/h2.prom" | grep -c '^fastcopy_')

# --- the servers -------------------------------------------------------------
# listens PID PORT: process PID has a socket listening on 127.0.0.1:PORT
# (/proc/net/tcp's LISTEN rows, whose inode is one of PID's descriptors).
# Another test's server may already hold a port this one picked, and
# answer in its place until this one fails to bind.
listens ()
{
    for inode in $(awk -v at="0100007F:$(printf '%04X' "$2")" \
                       '$2 == at && $4 == "0A" { print $10 }' /proc/net/tcp); do
        ls -l "/proc/$1/fd" 2>/dev/null | grep -q "socket:\[$inode\]" && return 0
    done
    return 1
}
# started NAME PORT: NAME (started last) answers on PORT, or has died.
started ()
{
    while [ "$(date +%s)" -lt "$deadline" ]; do
        curl -s -o /dev/null "http://127.0.0.1:$2/" && listens "$last" "$2" &&
            return 0
        kill -0 "$last" 2>/dev/null || return 1
        sleep 0.2
    done
    return 1
}
# serve NAME COMMAND...: COMMAND with PORT in its words replaced by a free
# port (tried up to five times: another program may take one meanwhile).
serve ()
{
    name=$1
    shift
    for try in 1 2 3 4 5; do
        port=$((20000 + $(od -An -N2 -tu2 /dev/urandom) % 40000))
        args=
        for a in "$@"; do args="$args '$(printf '%s' "$a" | sed "s/PORT/$port/g")'"; done
        eval "exec $args" >"$work/$name.log" 2>&1 &
        last=$!
        pids="$pids $last"
        if started "$name" "$port"; then
            eval "${name}_port=$port"
            return 0
        fi
        grep -q 'address already in use' "$work/$name.log" || break
    done
    fail "$name did not start: $(tail -n 3 "$work/$name.log")"
    return 1
}
serve node_exporter prometheus-node-exporter --collector.disable-defaults \
    --collector.textfile --collector.textfile.directory="$work/textfile" \
    --web.listen-address=127.0.0.1:PORT || { finish; exit; }
cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: fastcopy
    static_configs:
      - targets: ['127.0.0.1:$node_exporter_port']
EOF
serve prometheus prometheus --config.file="$work/prometheus.yml" \
    --storage.tsdb.path="$work/tsdb" --web.listen-address=127.0.0.1:PORT ||
    { finish; exit; }

# query PROMQL: its result (JSON) into $work/query.json.
query ()
{
    curl -s -G -o "$work/query.json" \
        "http://127.0.0.1:$prometheus_port/api/v1/query" --data-urlencode "query=$1"
}
# Wait for a scrape that has both hosts' series.
got=
while [ "$(date +%s)" -lt "$deadline" ]; do
    query 'count({__name__=~"fastcopy_.+"})'
    got=$(sed -n 's/.*"value":\[[0-9.]*,"\([0-9]*\)"\].*/\1/p' "$work/query.json")
    [ "$got" = "$series" ] && break
    sleep 0.5
done
if [ "$got" = "$series" ]; then
    pass "Prometheus scraped the $series series of both hosts from node_exporter"
else
    fail "Prometheus has ${got:-no} series of fastcopy, not $series: $(head -c 300 "$work/query.json")"
    finish
    exit
fi

# --- the class's sum, back --------------------------------------------------
policy=$(sed -n 's/^# class: .*policy=//p' "$work/h1.csv")
query 'sum by (__name__, le, family, kind, value, policy, cpu) ({__name__=~"fastcopy_.+",policy="'"$policy"'"})'
# What merge said of the bound, of the import's file.
says () { sed "s|^$work/merged/fleet.csv:|$work/imported/$1:|" "$work/merge.out"; }
grep -q '^# bound: copy=0\.0[0-9]* clear=0\.0[0-9]* share=0\.0[0-9]*$' "$work/merged/fleet.csv" &&
    pass "the merge states a bound: $(grep '^# bound' "$work/merged/fleet.csv")" ||
    fail "the merge states no bound of the two: $(grep '^# bound' "$work/merged/fleet.csv")"
expect "import of the query's result" 0 "$(says fleet.csv)" \
    "$fleet" import -o "$work/imported/fleet.csv" "$work/query.json"
# The query of fastcopy-fleet(1) and doc/fleet.md.
query 'sum by (__name__, le, family, kind, value, policy, cpu)
  ({__name__=~"fastcopy_call_size_bytes_bucket|fastcopy_calls_total|fastcopy_bound_.+",
    policy="'"$policy"'"})'
expect "import of the documented query's result" 0 "$(says documented.csv)" \
    "$fleet" import -o "$work/imported/documented.csv" "$work/query.json"
stop

calls () { grep -v '^#' "$1" | cut -d, -f1-4; }
calls "$work/merged/fleet.csv" >"$work/m.calls"
calls "$work/imported/fleet.csv" >"$work/i.calls"
if [ -s "$work/m.calls" ] && cmp -s "$work/m.calls" "$work/i.calls"; then
    pass "the import's buckets, rows and calls are the merge's ($(wc -l <"$work/m.calls") lines)"
else
    fail "the import differs from the merge: $(diff "$work/m.calls" "$work/i.calls" | head -n 6 | tr '\n' '|')"
fi
for line in class bound; do
    for f in fleet documented; do
        if grep -q -x "$(grep "^# $line: " "$work/merged/fleet.csv")" "$work/imported/$f.csv"; then
            pass "the $f import's $line is the merge's"
        else
            fail "the $f import's $line differs: $(grep "^# $line" "$work/merged/fleet.csv" "$work/imported/$f.csv" | tr '\n' '|')"
        fi
    done
done
calls "$work/imported/documented.csv" >"$work/d.calls"
cmp -s "$work/m.calls" "$work/d.calls" &&
    pass "the documented query's import has the merge's buckets, rows and calls" ||
    fail "the documented query's import differs from the merge: $(diff "$work/m.calls" "$work/d.calls" | head -n 6 | tr '\n' '|')"
env FASTCOPY_CONFIG= FASTCOPY= "$tune" --list --quick --workload "$work/merged/fleet.csv" >"$work/m.list" 2>&1
env FASTCOPY_CONFIG= FASTCOPY= "$tune" --list --quick --workload "$work/imported/fleet.csv" >"$work/i.list" 2>&1
if [ -s "$work/m.list" ] && cmp -s "$work/m.list" "$work/i.list"; then
    pass "fastcopy-tune --list: the same $(grep -c . "$work/m.list") lines of candidates"
else
    fail "fastcopy-tune --list differs: $(diff "$work/m.list" "$work/i.list" | head -n 6 | tr '\n' '|')"
fi
finish
