#!/bin/bash
# SPDX-License-Identifier: MIT
# compare-shapes.sh: the entry variant's shapes side by side, and what each
# policy row's variant pays for its place in the exported entry points, on this
# machine, in one command.
#
#   bench/compare-shapes.sh [OPTION]...
#
# It copies the checkout (the files git tracks, and those it would add)
# into a scratch directory and builds there, so the checkout is left as it
# is: one library per shape of sysdeps/x86_64/entry-shapes.h
# (CPPFLAGS=-DFC_ENTRY_SHAPE=NAME), and fastcopy-bench once.  Then, pinned
# to one CPU, for each round and each shape, that shape's library as --lib
# and the other shapes (and AOCL-LibMem, with --aocl) as --against, every
# library's exported functions in its entry variant (FASTCOPY=copy=avx512m,
# clear=avx512m):
#   fastcopy-bench -c distributions
#   fastcopy-bench --quick -c memcpy-hot,memset-hot,memmove-hot
# Then, on the library of the first shape, each row of the policy table
# that this CPU can run, as it would run (FASTCOPY=policy=ROW), one row
# for each variant: its exported functions against the same variant
# called directly, side by side.
#
# It prints a table of each (the shapes: ratios to glibc, the range over
# a shape's own --lib runs; the rows: exported over direct) and keeps the
# builds, the runs (.txt, .csv) and the tables in the scratch directory.
# The exit status is 0 when everything ran, 1 on an error, 2 on a usage
# error.  On 2 vCPUs a whole run takes about 10 minutes.

set -eu
export LC_ALL=C

me=compare-shapes.sh
top=$(cd "$(dirname "$0")/.." && pwd)
version=$(sed -n 's/^AC_INIT(\[[^]]*\], *\[\([^]]*\)\].*/\1/p' "$top/configure.ac")

usage () {
    cat <<EOF
usage: $me [OPTION]...
Build each shape of the entry variant's small classes
(sysdeps/x86_64/entry-shapes.h) out of tree, compare them side by side
with fastcopy-bench, then compare each policy row's exported functions
with its variant called directly.

      --shapes LIST  comma-separated shapes to build and compare, at most
                     four (default: every shape, the default first)
      --aocl LIB     add AOCL-LibMem's libaocl-libmem.so as a column
      --rounds N     rounds of the side-by-side runs (default 2)
      --cpu N        pin the runs to CPU N (default: the last allowed CPU)
      --out DIR      scratch directory, kept (default: a new one under
                     \$TMPDIR, kept)
      --no-rows      skip the rows' entry cost
      --build-only   build the shapes' libraries and stop
      --list         print the shapes' names, one a line, and exit
  -h, --help         this help
  -V, --version      version

The shapes are measured as the entry variant on any CPU with AVX512F,
AVX512BW and BMI2; elsewhere only the rows run.
EOF
}

. "$(dirname "$0")/script-lib.sh"

# The shapes as entry-shapes.h names them, its default first.
list_shapes () {
    local default
    default=$(sed -n 's/^# *define FC_ENTRY_SHAPE[[:space:]]\{1,\}\([a-z0-9]*\).*/\1/p' \
	"$top/sysdeps/x86_64/entry-shapes.h")
    echo "$default"
    sed -n 's/^#define FC_SHAPE_\([a-z0-9]*\)[[:space:]].*/\1/p' \
	"$top/sysdeps/x86_64/entry-shapes.h" | grep -vx "$default"
}

shapes="" aocl="" rounds=2 cpu="" out="" rows=yes build_only=no
while [ $# -gt 0 ]; do
    case $1 in
	--shapes) [ $# -ge 2 ] || usage_error "option '$1' requires an argument"
		  shapes=$(echo "$2" | tr , ' '); shift ;;
	--shapes=*) shapes=$(echo "${1#*=}" | tr , ' ') ;;
	--aocl) [ $# -ge 2 ] || usage_error "option '$1' requires an argument"
		aocl=$2; shift ;;
	--aocl=*) aocl=${1#*=} ;;
	--rounds) [ $# -ge 2 ] || usage_error "option '$1' requires an argument"
		  rounds=$2; shift ;;
	--rounds=*) rounds=${1#*=} ;;
	--cpu) [ $# -ge 2 ] || usage_error "option '$1' requires an argument"
	       cpu=$2; shift ;;
	--cpu=*) cpu=${1#*=} ;;
	--out) [ $# -ge 2 ] || usage_error "option '$1' requires an argument"
	       out=$2; shift ;;
	--out=*) out=${1#*=} ;;
	--no-rows) rows=no ;;
	--build-only) build_only=yes ;;
	--list) list_shapes; exit 0 ;;
	-h|--help) usage; exit 0 ;;
	-V|--version) echo "$me (libfastcopy) $version"; exit 0 ;;
	*) usage_error "unknown argument '$1'" ;;
    esac
    shift
done

known=$(list_shapes)
[ -n "$shapes" ] || shapes=$known
n=0
for s in $shapes; do
    echo "$known" | grep -qx "$s" ||
	usage_error "--shapes: '$s' is not a shape of entry-shapes.h ($(echo $known | tr ' ' ,))"
    n=$((n + 1))
done
[ $n -le 4 ] || usage_error "--shapes: at most four (fastcopy-bench takes four --against)"
case $rounds in
    ''|*[!0-9]*|0) usage_error "--rounds: '$rounds' is not a positive number" ;;
esac
if [ -n "$cpu" ]; then
    case $cpu in ''|*[!0-9]*) usage_error "--cpu: '$cpu' is not a CPU number" ;; esac
else
    cpu=$(taskset -cp $$ | sed 's/.*: //; s/.*[,-]//')
fi
if [ -n "$aocl" ]; then
    [ -f "$aocl" ] || usage_error "--aocl: no file '$aocl'"
    aocl=$(cd "$(dirname "$aocl")" && pwd)/$(basename "$aocl")
fi
[ "$(uname -m)" = x86_64 ] || die "the shapes are x86-64's; this machine is $(uname -m)"

if [ -z "$out" ]; then
    out=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-shapes.XXXXXX")
else
    mkdir -p "$out" || die "cannot create '$out'"
    out=$(cd "$out" && pwd)
fi
log=$out/build.log
: > "$log"
echo "$me: working in $out" >&2

# The source: the checkout's files, not its builds.
rm -rf "$out/src"
mkdir -p "$out/src" "$out/libs" "$out/runs"
if git -C "$top" rev-parse --git-dir > /dev/null 2>&1; then
    (cd "$top" && git ls-files -z --cached --others --exclude-standard |
	 tar --null -T - -cf -) | tar -xf - -C "$out/src"
    commit=$(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)
else
    (cd "$top" && tar --exclude='./_build*' -cf - .) | tar -xf - -C "$out/src"
    commit=$version
fi
[ -x "$out/src/configure" ] || (cd "$out/src" && ./bootstrap) >> "$log" 2>&1 ||
    die "bootstrap failed (autoconf, automake, libtool?): $log"

jobs=$(nproc 2>/dev/null || echo 2)
first=""
for s in $shapes; do
    b=$out/build-$s
    echo "$me: building shape $s" >&2
    mkdir -p "$b"
    (cd "$b" && "$out/src/configure" --quiet --disable-static \
	 CPPFLAGS="-DFC_ENTRY_SHAPE=$s" && make -j"$jobs" --quiet libfastcopy.la) \
	>> "$log" 2>&1 || die "the build of shape $s failed: $log"
    ln -sf "$b/.libs/libfastcopy.so.1" "$out/libs/lib$s.so"
    [ -n "$first" ] || first=$s
done
[ $build_only = no ] || { echo "$me: built: $shapes" >&2; exit 0; }
# The two programs, and the headers the build generates first.
(cd "$out/build-$first" &&
     generated=$(printf 'built:\n\t@echo $(BUILT_SOURCES)\n' | make -s -f Makefile -f - built) &&
     make -j"$jobs" --quiet $generated bench/fastcopy-bench tools/fastcopy-info) \
    >> "$log" 2>&1 || die "the build of fastcopy-bench failed: $log"
bench=$out/build-$first/bench/fastcopy-bench
info=$out/build-$first/tools/fastcopy-info
[ -z "$aocl" ] || ln -sf "$aocl" "$out/libs/libaocl.so"

run_bench () {
    local name=$1; shift
    "$bench" --cpu "$cpu" --quiet --csv "$out/runs/$name.csv" "$@" \
	> "$out/runs/$name.txt" 2>&1 || die "fastcopy-bench failed: $out/runs/$name.txt"
}

# Can the entry variant run here?  The library's own answer.
host_usable=$("$info" --json | grep -o '"name":"avx512m","usable":true' | wc -l)
if [ "$host_usable" -gt 0 ]; then
    for r in $(seq 1 "$rounds"); do
	for s in $shapes; do
	    against=""
	    for o in $shapes; do
		[ "$o" = "$s" ] || against="$against --against $out/libs/lib$o.so"
	    done
	    [ -z "$aocl" ] || against="$against --against $out/libs/libaocl.so"
	    echo "$me: round $r, shape $s" >&2
	    FASTCOPY=copy=avx512m,clear=avx512m run_bench "dist-$s-$r" \
		-c distributions --lib "$out/libs/lib$s.so" $against
	    FASTCOPY=copy=avx512m,clear=avx512m run_bench "hot-$s-$r" \
		--quick -c memcpy-hot,memset-hot,memmove-hot --lib "$out/libs/lib$s.so" $against
	done
    done
else
    echo "$me: this CPU cannot run avx512m: no shapes compared" >&2
fi

# The rows: one for each variant, the first row of the table that chooses
# it and that this CPU can run.
row_list=""
if [ $rows = yes ]; then
    seen=" "
    for row in $("$info" --policy | sed -n 's/^  row[^:]*: \([^ ]*\) (auto table).*/\1/p'); do
	variant=$(FASTCOPY=policy=$row "$info" --json |
		      sed -n 's/.*"selected":\[{"function":"memcpy","family":"copy","implementation":"\([^"]*\)".*/\1/p')
	want=$("$info" --policy | sed -n "/^  row[^:]*: $row (auto table)/,/chooses:/s/.*chooses: copy \([^,]*\),.*/\1/p" | head -n 1)
	[ -n "$variant" ] && [ "$variant" = "$want" ] || continue
	case $seen in *" $variant "*) continue ;; esac
	seen="$seen$variant "
	row_list="$row_list $row:$variant"
	echo "$me: row $row ($variant)" >&2
	FASTCOPY=policy=$row run_bench "row-$row" \
	    -c distributions --lib "$out/libs/lib$first.so"
	FASTCOPY=policy=$row run_bench "row-$row-hot" \
	    --quick -c memcpy-hot,memset-hot,memmove-hot --lib "$out/libs/lib$first.so"
    done
fi

# The tables.
{
    echo "# $me at $commit: $(sed -n 's/^CPU *//p' "$(ls "$out"/runs/*.txt | head -n 1)")"
    echo "# $(sed -n 's/^glibc *//p' "$(ls "$out"/runs/*.txt | head -n 1)" | sed 's/^/glibc /')"
    if [ "$host_usable" -gt 0 ]; then
	echo
	echo "Shapes as the entry variant, ratio to glibc (the range over each shape's $rounds --lib runs;"
	echo "AOCL-LibMem over every run)"
	echo
	awk -F, -v shapes="$shapes" -v aocl="${aocl:+aocl}" -f - "$out"/runs/dist-*.csv "$out"/runs/hot-*.csv <<'AWK'
function lo(k) { return (k in mn) ? sprintf("%.2f", mn[k]) : "-" }
function cell(k) { return (k in mn) ? (sprintf("%.2f", mn[k]) == sprintf("%.2f", mx[k]) ? sprintf("%.2f", mn[k]) : sprintf("%.2f-%.2f", mn[k], mx[k])) : "-" }
function add(k, v) { if (!(k in mn) || v < mn[k]) mn[k] = v; if (!(k in mx) || v > mx[k]) mx[k] = v }
function who(file, c,   s) {
    # the shape a contender is: libfastcopy is the file's --lib shape
    if (c == "libfastcopy") { s = file; sub(/.*\/(dist|hot)-/, "", s); sub(/-[0-9]+\.csv$/, "", s); return s }
    if (c == "aocl") return "aocl"
    return ""
}
FNR == 1 { next }
{
    c = who(FILENAME, $7); if (c == "") next
    if ($1 ~ /^mem(cpy|set)-dist:/) { f = substr($1, 1, 6); lg[FILENAME, c, f] += log($10); nd[FILENAME, c, f]++; next }
    if ($6 != "hot") next
    n = $3 + 0; a = $4; fn = $2; r = $10
    if (fn == "memmove") { if (n == 128) add(c SUBSEP "memmove 128 B overlapping", r) }
    else {
	if (n <= 56) add(c SUBSEP fn " 0-56 B", r)
	else if (n == 64) add(c SUBSEP fn " 64 B", r)
	else if (n <= 128) add(c SUBSEP fn " 96-128 B " a, r)
	else if (n <= 256) add(c SUBSEP fn " 192-256 B", r)
    }
    # the worst point: the mean of its runs
    sum[c, fn, n, a] += r; cnt[c, fn, n, a]++
}
END {
    for (k in lg) { split(k, p, SUBSEP); add(p[2] SUBSEP p[3] " distributions", exp(lg[k] / nd[k])) }
    for (k in sum) {
	split(k, p, SUBSEP); v = sum[k] / cnt[k]; w = p[1] SUBSEP p[2]
	if (!(w in worst) || v > worst[w]) { worst[w] = v; at[w] = p[3] " B " p[4] }
    }
    ns = split(shapes, col, " "); if (aocl != "") col[++ns] = "aocl"
    split("memcpy distributions,memset distributions,memcpy 0-56 B,memcpy 64 B,memcpy 96-128 B aligned,memcpy 96-128 B misaligned,memcpy 192-256 B,memset 0-56 B,memset 64 B,memset 96-128 B aligned,memset 96-128 B misaligned,memset 192-256 B,memmove 128 B overlapping", line, ",")
    printf "| ratio to glibc |"; for (i = 1; i <= ns; i++) printf " %s |", (col[i] == "aocl" ? "AOCL-LibMem" : col[i]); printf "\n|---|"
    for (i = 1; i <= ns; i++) printf "---|"; printf "\n"
    for (j = 1; j in line; j++) {
	printf "| %s |", line[j]
	for (i = 1; i <= ns; i++) printf " %s |", cell(col[i] SUBSEP line[j])
	printf "\n"
    }
    split("memcpy memset memmove", fns, " ")
    for (f = 1; f <= 3; f++) {
	printf "| %s, worst fixed size |", fns[f]
	for (i = 1; i <= ns; i++) { w = col[i] SUBSEP fns[f]; printf " %s |", (w in worst) ? sprintf("%.2f at %s", worst[w], at[w]) : "-" }
	printf "\n"
    }
}
AWK
    fi
    if [ -n "$row_list" ]; then
	echo
	echo "Each row as it runs: its exported functions over its variant called directly (fc:VARIANT),"
	echo "the geometric mean over the points of each case; above 1.00 the exported functions are slower"
	echo
	echo "| row | variant | memcpy distributions | memset distributions | memcpy hot | memset hot | memmove hot |"
	echo "|---|---|---|---|---|---|---|"
	for rv in $row_list; do
	    row=${rv%%:*} variant=${rv#*:}
	    awk -F, -v v="fc:$variant" -v row="$row" -v variant="$variant" -f - \
		"$out/runs/row-$row.csv" "$out/runs/row-$row-hot.csv" <<'AWK'
FNR == 1 { next }
{
    k = $1; if (k ~ /-dist:/) k = substr(k, 1, 6) "-dist"
    p = k SUBSEP $2 SUBSEP $3 SUBSEP $4 SUBSEP $5
    if ($7 == "libfastcopy") e[p] = $8; else if ($7 == v) d[p] = $8
}
END {
    for (p in e) if (p in d && d[p] > 0 && e[p] > 0) { split(p, q, SUBSEP); lg[q[1]] += log(e[p] / d[p]); n[q[1]]++ }
    printf "| %s | %s |", row, variant
    split("memcpy-dist memset-dist memcpy-hot memset-hot memmove-hot", c, " ")
    for (i = 1; i <= 5; i++) printf " %s |", (c[i] in n) ? sprintf("%.3f", exp(lg[c[i]] / n[c[i]])) : "-"
    printf "\n"
}
AWK
	done
    fi
} | tee "$out/summary.md"
