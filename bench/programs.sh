#!/bin/bash
# SPDX-License-Identifier: MIT
# programs.sh: real programs with and without libfastcopy preloaded.
#
#   bench/programs.sh [OPTION]... LIBRARY
#
# Each workload runs N times with LD_PRELOAD=LIBRARY and N times without,
# alternating (with-without, then without-with, ...) so that drift hits
# both alike, pinned to one CPU; the script prints per workload the median
# time (redis: requests per second), the min-max spread and the ratio
# with/without.  The workloads:
#   python   slicing and pickling of large bytes (python3)
#   sqlite   blob inserts into a scratch database (sqlite3)
#   zstd     compressing and decompressing a ~200 MiB tar of /usr files
#   gzip     the same with gzip
#   redis    redis-server preloaded, redis-benchmark SET and GET at -d 64,
#            1024 and 16384, server and client on different CPUs
# With --versus VAL the runs "without" preload the library too, with
# FASTCOPY=VAL: tuned settings against the defaults, say.  With --record DIR
# each workload runs once instead, under fastcopy-profile, which writes
# DIR/NAME.csv (for fastcopy-tune --workload); nothing is timed.
# It installs nothing: it says which Debian packages are missing.  The exit
# status is 0 when everything ran, whatever the ratios, 1 on an error and 2
# on a usage error.  The full run takes several minutes (gzip and redis
# the longest); --quick about one.

set -eu
export LC_ALL=C

me=programs.sh
usage () {
    cat <<EOF
usage: $me [OPTION]... LIBRARY
Run python3, sqlite3, zstd, gzip and redis-server alternately with and
without LD_PRELOAD=LIBRARY and compare the medians.

  --quick          small data and 3 runs each: to test this script
  --runs N         alternating runs per workload (default 10)
  --redis-runs N   alternating runs per redis data size (default 7)
  --fastcopy VAL   FASTCOPY=VAL for the runs with the library
  --versus VAL     the runs without the library preload it too, with
                   FASTCOPY=VAL (empty: its defaults)
  --record DIR     run each workload once under fastcopy-profile, writing
                   DIR/NAME.csv, instead of timing
  --profile-tool P the fastcopy-profile to record with (default: the one
                   on PATH)
  --only LIST      comma-separated workloads (python,sqlite,zstd,gzip,redis)
  --cpus A,B       CPU A for the programs and redis-server, B for
                   redis-benchmark (default: the last two allowed CPUs)
  --workdir DIR    scratch directory (default: a new one under \$TMPDIR)
  --keep           keep the scratch directory
  -h, --help       this help

Times are wall-clock; ratio = with / without (for redis: requests per
second with / without); with --versus, "without" means with FASTCOPY=VAL.
EOF
}

. "$(dirname "$0")/script-lib.sh"

positive () {
    case $2 in
	'' | *[!0-9]* | 0*) usage_error "$1: '$2' is not a number above 0" ;;
    esac
}

# --- options -----------------------------------------------------------------
quick=0 runs='' redis_runs='' fastcopy='' fastcopy_set=0 cpus='' workdir='' keep=0
versus='' versus_set=0 record_dir='' profile_tool=fastcopy-profile
only=python,sqlite,zstd,gzip,redis
library=''
while [ $# -gt 0 ]; do
    case $1 in
	--quick) quick=1 ;;
	--runs | --redis-runs | --fastcopy | --only | --cpus | --workdir | \
	--versus | --record | --profile-tool)
	    [ $# -ge 2 ] || usage_error "option '$1' needs an argument"
	    case $1 in
		--runs) positive "$1" "$2"; runs=$2 ;;
		--redis-runs) positive "$1" "$2"; redis_runs=$2 ;;
		--fastcopy) fastcopy=$2 fastcopy_set=1 ;;
		--versus) versus=$2 versus_set=1 ;;
		--record) record_dir=$2 ;;
		--profile-tool) profile_tool=$2 ;;
		--only) only=$2 ;;
		--cpus) cpus=$2 ;;
		--workdir) workdir=$2 ;;
	    esac
	    shift ;;
	--keep) keep=1 ;;
	-h | --help) usage; exit 0 ;;
	-*) usage_error "unknown option '$1'" ;;
	*) [ -z "$library" ] || usage_error "unexpected argument '$1'"
	   library=$1 ;;
    esac
    shift
done
[ -n "$library" ] || usage_error "no LIBRARY given"
if [ $quick = 1 ]; then
    : "${runs:=3}" "${redis_runs:=3}"
    tar_mib=8 python_mib=4 sqlite_rows=40 redis_requests=2000
else
    : "${runs:=10}" "${redis_runs:=7}"
    tar_mib=200 python_mib=64 sqlite_rows=1000 redis_requests=100000
fi
for w in ${only//,/ }; do
    case $w in
	python | sqlite | zstd | gzip | redis) ;;
	*) usage_error "--only: unknown workload '$w' (python, sqlite, zstd, gzip, redis)" ;;
    esac
done
wants () {
    case ,$only, in *,$1,*) return 0 ;; esac
    return 1
}

# --- what must be installed -------------------------------------------------
# Pairs of a command and the Debian package that provides it.
needed=(taskset util-linux tar tar python3 python3)
wants sqlite && needed+=(sqlite3 sqlite3)
wants zstd && needed+=(zstd zstd)
wants gzip && needed+=(gzip gzip)
wants redis && needed+=(redis-server redis-server redis-benchmark redis-tools
			redis-cli redis-tools)
missing='' packages=''
for (( i = 0; i < ${#needed[@]}; i += 2 )); do
    if ! command -v "${needed[i]}" >/dev/null 2>&1; then
	missing="$missing ${needed[i]}"
	case " $packages " in
	    *" ${needed[i + 1]} "*) ;;
	    *) packages="$packages ${needed[i + 1]}" ;;
	esac
    fi
done
[ -z "$missing" ] ||
    die "missing:$missing (Debian: apt-get install$packages)"
if [ -n "$record_dir" ]; then
    command -v "$profile_tool" >/dev/null 2>&1 ||
	die "$profile_tool: not found (--profile-tool names another)"
    mkdir -p "$record_dir"
    record_dir=$(realpath "$record_dir")
fi

# The interpreter itself, not a wrapper such as pyenv's shim, which would
# run a shell under LD_PRELOAD too.
python=$(python3 -c 'import sys; print(sys.executable)')
[ -x "$python" ] || die "python3 does not name its executable ($python)"

# CPUs: the last two this process may use, unless --cpus names them.
if [ -z "$cpus" ]; then
    cpus=$("$python" -c 'import os; c = sorted(os.sched_getaffinity(0)); print("%d,%d" % (c[-1], c[-2] if len(c) > 1 else c[-1]))')
fi
[[ $cpus =~ ^[0-9]+,[0-9]+$ ]] ||
    usage_error "--cpus: '$cpus' is not two CPU numbers A,B"
cpu=${cpus%,*} client_cpu=${cpus#*,}
[ -f "$library" ] || die "$library: no such file"
library=$(realpath "$library")
if [ "$cpu" = "$client_cpu" ] && wants redis; then
    echo "$me: note: redis-server and redis-benchmark share CPU $cpu" >&2
fi

# --- scratch directory and cleanup -------------------------------------------
redis_pid=
if [ -z "$workdir" ]; then
    workdir=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-programs.XXXXXX")
    made_workdir=1
else
    mkdir -p "$workdir"
    made_workdir=0
fi
workdir=$(realpath "$workdir")
cleanup () {
    if [ -n "$redis_pid" ]; then
	kill "$redis_pid" 2>/dev/null || :
	wait "$redis_pid" 2>/dev/null || :
    fi
    if [ $keep = 0 ] && [ $made_workdir = 1 ]; then
	rm -rf "$workdir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- running with and without the library -------------------------------------
# prefix MODE CPU: set the array PRE to the command that runs a program
# pinned to CPU with LD_PRELOAD=LIBRARY (MODE with), without any
# LD_PRELOAD (MODE without), or with LD_PRELOAD=LIBRARY and FASTCOPY=VAL
# (MODE without, --versus VAL); MODE record runs it under fastcopy-profile,
# which preloads the library it runs with.  Only the program gets the
# variables, not taskset and env.
preload_env=("LD_PRELOAD=$library")
[ $fastcopy_set = 0 ] || preload_env+=("FASTCOPY=$fastcopy")
versus_env=(-u FASTCOPY "LD_PRELOAD=$library")
[ -z "$versus" ] || versus_env=("LD_PRELOAD=$library" "FASTCOPY=$versus")
record_env=(-u LD_PRELOAD)
[ $fastcopy_set = 0 ] || record_env+=("FASTCOPY=$fastcopy")
prefix () {
    if [ "$1" = with ]; then
	pre=(taskset -c "$2" env "${preload_env[@]}")
    elif [ "$1" = record ]; then
	pre=(taskset -c "$2" env "${record_env[@]}" "$profile_tool" -o "$3")
    elif [ $versus_set = 1 ]; then
	pre=(taskset -c "$2" env "${versus_env[@]}")
    else
	pre=(taskset -c "$2" env -u LD_PRELOAD)
    fi
}

# run MODE CPU COMMAND...
run () {
    prefix "$1" "$2"
    shift 2
    "${pre[@]}" "$@"
}

# The dynamic loader only warns about a library it cannot preload: check
# that it is really in the process's map, and that nothing complained.
check=$(run with "$cpu" cat /proc/self/maps 2>"$workdir/check.err") ||
    die "cannot run with LD_PRELOAD=$library: $(cat "$workdir/check.err")"
[ ! -s "$workdir/check.err" ] ||
    die "LD_PRELOAD=$library: $(cat "$workdir/check.err")"
case $check in
    *"$library"*) ;;
    *) die "LD_PRELOAD=$library: the library is not in the process's map" ;;
esac

now_us () {
    local t=$EPOCHREALTIME
    echo "${t/./}"
}

# timed MODE FILE COMMAND...: run COMMAND with its standard input from
# STDIN_FILE and its output discarded, and append its wall-clock
# milliseconds to FILE.
stdin_file=/dev/null
timed () {
    local mode=$1 file=$2 t0 t1
    shift 2
    t0=$(now_us)
    run "$mode" "$cpu" "$@" <"$stdin_file" >/dev/null ||
	die "failed ($mode the library): $*"
    t1=$(now_us)
    echo $(( (t1 - t0) / 1000 )).$(( (t1 - t0) % 1000 / 100 )) >>"$file"
}

# The order of round I (1-based): with first in odd rounds.
order () {
    if [ $(( $1 % 2 )) = 1 ]; then echo "with without"; else echo "without with"; fi
}

results=$workdir/results
rm -rf "$results"
mkdir "$results"
# result NAME MODE: the file of a workload's numbers (one per run).
result () {
    local file=${1//[^A-Za-z0-9.-]/_}
    echo "$results/$file.$2"
}
# Workload names in the order they ran, with their unit and direction.
ran=()

# The file a workload's recording goes to: DIR/NAME.csv, NAME made of
# its letters and digits.
recording () {
    local slug=${1//[^A-Za-z0-9]/-}
    echo "$record_dir/$slug.csv"
}

# measure NAME COMMAND...: the alternating runs of one timed workload;
# the function named by BEFORE_RUN runs, untimed, before each run.  With
# --record, one recorded run instead.
before_run=:
measure () {
    local name=$1 i mode
    shift
    if [ -n "$record_dir" ]; then
	echo "$me: $name: recording into $(recording "$name")" >&2
	$before_run
	prefix record "$cpu" "$(recording "$name")"
	"${pre[@]}" "$@" <"$stdin_file" >/dev/null ||
	    die "failed (recording): $*"
	ran+=("$name|recorded")
	return
    fi
    echo "$me: $name ($runs alternating runs)" >&2
    for i in $(seq "$runs"); do
	for mode in $(order "$i"); do
	    $before_run
	    timed "$mode" "$(result "$name" "$mode")" "$@"
	done
    done
    ran+=("$name|ms")
}

# --- the workloads --------------------------------------------------------------
data_notes=()

if wants python; then
    cat >"$workdir/slice-pickle.py" <<'EOF'
# Slicing and pickling of large bytes: copies of every size, checked.
import pickle
import sys

mib = int(sys.argv[1])
data = bytes(range(256)) * 4096 * mib
n = len(data)

# Large slices, shifted so that every alignment occurs.
for shift in range(8):
    part = data[shift:n - shift]
    assert len(part) == n - 2 * shift and part[0] == shift and part[-1] == 255 - shift

# A bytearray: a copy, then slice assignment within it (memmove).
buf = bytearray(data)
for shift in range(1, 9):
    buf[shift:n // 2] = buf[0:n // 2 - shift]
assert len(buf) == n and buf[n // 2:] == data[n // 2:]

# Pickling large chunks: dumps copies each into the pickle, loads out of it.
chunks = [data[i:i + size] for size in (4096, 65536, 1 << 20, 1 << 24)
          for i in range(0, n // 4, size)]
assert pickle.loads(pickle.dumps(chunks, protocol=5)) == chunks

# Pickling many short strings, the sizes of everyday records.
words = [data[i:i + i % 200] for i in range(0, mib * 16384 * 61, 61)]
assert pickle.loads(pickle.dumps(words, protocol=5)) == words
EOF
    data_notes+=("python $python_mib MiB of bytes")
    measure "python slicing/pickling" "$python" "$workdir/slice-pickle.py" "$python_mib"
fi

if wants zstd || wants gzip || wants sqlite; then
    # A tar of regular files under /usr/share and /usr/lib (each under
    # 16 MiB, taken by path while the total stays within TAR_MIB MiB): on a
    # given system a reproducible mix of text, binaries and compressed data.
    find /usr/share /usr/lib -xdev -type f -readable -size -16M \
	 -printf '%s\t%p\n' 2>/dev/null | sort -t "$(printf '\t')" -k2 |
	awk -F '\t' -v limit=$(( tar_mib * 1048576 )) \
	    'total + $1 <= limit { total += $1; print $2 }' >"$workdir/files"
    tar -cf "$workdir/data.tar" --ignore-failed-read --verbatim-files-from \
	-T "$workdir/files" 2>/dev/null || [ -s "$workdir/data.tar" ] ||
	die "could not make $workdir/data.tar"
    tar_bytes=$(stat -c %s "$workdir/data.tar")
    data_notes+=("tar $(( tar_bytes / 1048576 )) MiB of $(wc -l <"$workdir/files") files from /usr/share and /usr/lib")
fi

if wants sqlite; then
    # Blob sizes cycle through 1 KiB to 256 KiB, cut from the tar's start.
    head -c $(( 256 * 1024 + 64 )) "$workdir/data.tar" >"$workdir/blob.bin"
    cat >"$workdir/insert.sql" <<EOF
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE blobs (id INTEGER PRIMARY KEY, b BLOB);
CREATE TEMP TABLE source AS SELECT readfile('$workdir/blob.bin') AS b;
WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $sqlite_rows)
INSERT INTO blobs (b) SELECT substr (source.b, 1 + i % 64, 1024 << (i % 9)) FROM n, source;
SELECT count(*) FROM blobs;
EOF
    # The inserts must all have happened, with the library too.
    for mode in with without; do
	rm -f "$workdir/blobs.db"
	rows=$(run "$mode" "$cpu" sqlite3 "$workdir/blobs.db" <"$workdir/insert.sql" | tail -n 1)
	[ "$rows" = "$sqlite_rows" ] ||
	    die "sqlite3 $mode the library inserted '$rows' rows, not $sqlite_rows"
    done
    data_notes+=("sqlite $sqlite_rows blobs of 1-256 KiB")
    remove_db () { rm -f "$workdir/blobs.db"; }
    before_run=remove_db stdin_file=$workdir/insert.sql
    measure "sqlite blob inserts" sqlite3 "$workdir/blobs.db"
    before_run=: stdin_file=/dev/null
fi

# compressor NAME SUFFIX LEVEL [OPTION]...: compress and decompress the
# tar, after checking that a round trip with the library gives it back.
compressor () {
    local name=$1 suffix=$2 level=$3
    shift 2
    run without "$cpu" "$name" "$@" -c "$workdir/data.tar" >"$workdir/data.tar.$suffix"
    run with "$cpu" "$name" "$@" -c "$workdir/data.tar" |
	run with "$cpu" "$name" -d -c | cmp -s - "$workdir/data.tar" ||
	die "$name: a round trip with the library differs"
    measure "$name $level compress" "$name" "$@" -c "$workdir/data.tar"
    measure "$name decompress" "$name" -d -c "$workdir/data.tar.$suffix"
}
if wants zstd; then
    compressor zstd zst -3 -q -T1
fi
if wants gzip; then
    compressor gzip gz -6
fi

if wants redis; then
    # A free TCP port on 127.0.0.1 (the kernel's choice).
    port=$("$python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # start_redis MODE: redis-server in the background, no persistence.
    # (A simple command in the background: its pid is redis-server's.)
    start_redis () {
	prefix "$1" "$cpu" "${2-}"
	"${pre[@]}" redis-server --bind 127.0.0.1 --port "$port" \
	    --save '' --appendonly no --dir "$workdir" \
	    --logfile "$workdir/redis.log" &
	redis_pid=$!
	local tries=0
	until redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; do
	    kill -0 "$redis_pid" 2>/dev/null ||
		die "redis-server ($1 the library) stopped: see $workdir/redis.log (--keep keeps it)"
	    tries=$(( tries + 1 ))
	    [ $tries -lt 100 ] || die "redis-server did not answer on port $port"
	    sleep 0.05
	done
    }
    stop_redis () {
	kill "$redis_pid"
	wait "$redis_pid" || :
	redis_pid=
    }
    if [ -n "$record_dir" ]; then
	# One server for every data size, recorded; it must exit by itself
	# (SHUTDOWN) for its file to be written and merged.
	file=$(recording redis)
	echo "$me: redis: recording into $file" >&2
	start_redis record "$file"
	for size in 64 1024 16384; do
	    taskset -c "$client_cpu" redis-benchmark -h 127.0.0.1 -p "$port" \
		-d "$size" -n "$redis_requests" -t set,get -q >/dev/null ||
		die "redis-benchmark failed (recording)"
	done
	redis-cli -h 127.0.0.1 -p "$port" shutdown nosave >/dev/null 2>&1 || :
	wait "$redis_pid" || die "recording redis-server failed"
	redis_pid=
	ran+=("redis|recorded")
    else
    for size in 64 1024 16384; do
	echo "$me: redis -d $size ($redis_runs alternating runs)" >&2
	for i in $(seq "$redis_runs"); do
	    for mode in $(order "$i"); do
		start_redis "$mode"
		taskset -c "$client_cpu" redis-benchmark -h 127.0.0.1 -p "$port" \
		    -d "$size" -n "$redis_requests" -t set,get --csv \
		    >"$workdir/benchmark.csv" ||
		    die "redis-benchmark failed ($mode the library)"
		stop_redis
		for test in SET GET; do
		    awk -F '"' -v t=$test '$2 == t { print $4 }' "$workdir/benchmark.csv" \
			>>"$(result "redis $test -d $size" "$mode")"
		done
	    done
	done
	ran+=("redis SET -d $size|req/s" "redis GET -d $size|req/s")
    done
    fi
fi

# --- the report -------------------------------------------------------------------
if [ -n "$record_dir" ]; then
    for entry in "${ran[@]}"; do
	echo "recorded  $(recording "${entry%|*}")"
    done
    exit 0
fi

# stats FILE: "median min max" of the numbers in FILE.
stats () {
    sort -g "$1" | awk '{ v[NR] = $1 }
	END { if (NR == 0) exit 1
	      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	      print m, v[1], v[NR] }'
}

echo "library   $library${fastcopy:+ (FASTCOPY=$fastcopy)}"
if [ $versus_set = 1 ]; then
    echo "versus    the same library, ${versus:+FASTCOPY=$versus}${versus:-its defaults}, in the runs \"without\""
fi
echo "runs      $runs alternating per workload, $redis_runs per redis data size$([ $quick = 1 ] && echo ', quick mode')"
echo "CPUs      $cpu for the programs and redis-server, $client_cpu for redis-benchmark"
if grep -q '[^[:space:]]' /etc/ld.so.preload 2>/dev/null; then
    echo "note      /etc/ld.so.preload is not empty: the runs without the library preload what it lists"
fi
for note in "${data_notes[@]}"; do
    echo "data      $note"
done
echo
printf '%-26s %-30s %-30s %7s  %s\n' workload "without: median (min-max)" \
    "with: median (min-max)" ratio slower
for entry in "${ran[@]}"; do
    name=${entry%|*} unit=${entry#*|}
    with=$(result "$name" with) without=$(result "$name" without)
    if [ ! -s "$with" ] || [ ! -s "$without" ]; then
	die "no results for $name"
    fi
    read -r wo wo_min wo_max <<<"$(stats "$without")"
    read -r wi wi_min wi_max <<<"$(stats "$with")"
    awk -v name="$name" -v unit="$unit" -v wo="$wo" -v wo_min="$wo_min" \
	-v wo_max="$wo_max" -v wi="$wi" -v wi_min="$wi_min" -v wi_max="$wi_max" \
	'function cell(m, lo, hi) {
	     return unit == "ms" ? sprintf("%.1f ms (%.1f-%.1f)", m, lo, hi) \
				 : sprintf("%.0f req/s (%.0f-%.0f)", m, lo, hi)
	 }
	 BEGIN {
	     # Times: slower when higher; rates: slower when lower.
	     slower = unit == "ms" ? wi > wo : wi < wo
	     printf "%-26s %-30s %-30s %7.3f  %s\n", name, cell(wo, wo_min, wo_max),
		 cell(wi, wi_min, wi_max), wi / wo, slower ? "yes" : "no"
	 }'
done
echo
echo "ratio = with / without: for times below 1 is faster, for req/s above 1 is faster"
