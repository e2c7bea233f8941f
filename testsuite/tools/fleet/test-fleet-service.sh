#!/bin/sh
# SPDX-License-Identifier: MIT
# The command fastcopy-fleet.service runs, as the built unit spells it,
# run here on each kind of sample its sampler can leave: what the running
# total and the exported file are after each.  The sampler is a stand-in
# that writes the sample of the case (or fails); the real one's runs,
# signals and large copies are test-stop.sh's.
#
#   test-fleet-service.sh        (in the build directory, as make check)
set -u
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
unit=$PWD/tools/fleet/fastcopy-fleet.service
fleet=$PWD/tools/fastcopy-fleet
for f in "$unit" "$fleet"; do
    [ -e "$f" ] || { echo "SKIP: no $f"; exit 77; }
done
. "$(dirname "$0")/../../lib/test-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-fleet-service.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/samples" "$work/prom"

# The unit's script: ExecStart's lines joined as systemd joins them, its
# programs' directory and the exported file's moved under $work.
script=$(sed -n "/^ExecStart=/,/'\$/p" "$unit" | sed 's/\\$//' | tr '\n' ' ' |
         sed "s/^ExecStart=\/bin\/sh -ec '//; s/' *\$//")
bindir=$(printf '%s\n' "$script" | sed -n 's|.* \(/[^ ]*\)/fastcopy-sample .*|\1|p')
if [ -z "$bindir" ]; then
    fail "the unit's ExecStart runs no fastcopy-sample: $script"
    finish
    exit 1
fi
script=$(printf '%s\n' "$script" | sed "s|$bindir/|$work/bin/|g;
    s|/var/lib/prometheus/node-exporter/|$work/prom/|g")
ln -s "$fleet" "$work/bin/fastcopy-fleet"
# The stand-in sampler: the case's sample to -o, or a failure.
cat >"$work/bin/fastcopy-sample" <<'EOF'
#!/bin/sh
while [ $# -gt 1 ] && [ "$1" != -o ]; do shift; done
[ -n "$SAMPLE" ] || { echo "fastcopy-sample: failed" >&2; exit 1; }
cp "$SAMPLE" "$2"
EOF
chmod +x "$work/bin/fastcopy-sample"

# run SAMPLE: one run of the service with SAMPLE as its sample ("": the
# sampler fails); its status in $st.
run ()
{
    st=0
    (cd "$work/samples" && SAMPLE=$1 sh -ec "$script") >"$work/out" 2>&1 || st=$?
}

class='vendor=AuthenticAMD family=26 model=2 policy=amd-zen5'
# recording FILE IMPL CALLS: a sample of CALLS copies of 16 bytes.
recording ()
{
    cat >"$1" <<EOF
# libfastcopy workload 1
# class: $class
# impl: copy=$2 clear=$2
family,what,value,calls,bytes
copy,size,16,$3,$(($3 * 16))
copy,function,memcpy,$3,$(($3 * 16))
copy,dst_align,0,$3,$(($3 * 16))
# end: 4 lines
EOF
}
# The exported count of 16-byte copies: the histogram's bound 16.
exported () { sed -n 's/^fastcopy_call_size_bytes_bucket{family="copy".*impl="'"$1"'".*le="16"} //p' "$work/prom/fastcopy.prom"; }
total16 () { sed -n 's/^copy,size,16,\([0-9.]*\),.*/\1/p' "$work/samples/$1"; }

recording "$work/s1.csv" avx512m 100
run "$work/s1.csv"
[ "$st" = 0 ] && [ "$(total16 total.csv)" = 100 ] && [ "$(exported avx512m)" = 100 ] &&
    pass "the first sample: a total of 100 calls, exported" ||
    fail "the first sample: status $st, total $(total16 total.csv), exported $(exported avx512m): $(cat "$work/out")"

recording "$work/s2.csv" avx512m 50
run "$work/s2.csv"
[ "$st" = 0 ] && [ "$(total16 total.csv)" = 150 ] && [ "$(exported avx512m)" = 150 ] &&
    pass "a sample of the same implementations: 150, exported" ||
    fail "a second sample: status $st, total $(total16 total.csv), exported $(exported avx512m): $(cat "$work/out")"

cp "$work/samples/total.csv" "$work/total.before"
cp "$work/prom/fastcopy.prom" "$work/prom.before"
cat >"$work/empty.csv" <<EOF
# libfastcopy workload 1
# class: $class
family,what,value,calls,bytes
# end: 1 lines
EOF
run "$work/empty.csv"
[ "$st" = 0 ] && cmp -s "$work/total.before" "$work/samples/total.csv" &&
    cmp -s "$work/prom.before" "$work/prom/fastcopy.prom" &&
    pass "a sample with no call: the total and the export as they were" ||
    fail "a sample with no call: status $st: $(cat "$work/out")"

run ""
[ "$st" != 0 ] && cmp -s "$work/total.before" "$work/samples/total.csv" &&
    cmp -s "$work/prom.before" "$work/prom/fastcopy.prom" &&
    pass "a failed sampler: the run fails, the total and the export as they were" ||
    fail "a failed sampler: status $st: $(cat "$work/out")"

head -n 4 "$work/s2.csv" >"$work/cut.csv"
run "$work/cut.csv"
[ "$st" != 0 ] && cmp -s "$work/total.before" "$work/samples/total.csv" &&
    cmp -s "$work/prom.before" "$work/prom/fastcopy.prom" &&
    pass "a sample cut short: the run fails, the total and the export as they were" ||
    fail "a sample cut short: status $st: $(cat "$work/out")"

recording "$work/s3.csv" avx512 7
run "$work/s3.csv"
[ "$st" = 0 ] && [ "$(total16 total.csv)" = 7 ] && [ "$(exported avx512)" = 7 ] &&
    [ -z "$(exported avx512m)" ] && [ "$(total16 total.previous.csv)" = 150 ] &&
    pass "other implementations: a new total of 7 exported, the old one kept" ||
    fail "other implementations: status $st, total $(total16 total.csv), exported $(exported avx512), previous $(total16 total.previous.csv): $(cat "$work/out")"
finish
