#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-fleet on hand-written recordings: what merge, accumulate, export
# and import write, byte for byte, and what they refuse (files cut short, altered, of
# another format version or class; malformed exposition text and JSON);
# the bound on a recording's error through all of them, worked out by hand,
# and whether it is enough to tune from;
# with the file named and a non-zero status; a full disk (a file size
# limit, and a full tmpfs where this runs as root) leaves the earlier file
# and no temporary one; usage errors.
#
#   test-fleet.sh [FLEET]
#
# FLEET defaults to ./tools/fastcopy-fleet (make check runs in the build
# directory).  Prints PASS/FAIL lines; exits 1 when something failed (77,
# "skipped", when the tool is missing).
set -u
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }
fleet=${1:-./tools/fastcopy-fleet}
[ -x "$fleet" ] || { echo "SKIP: no $fleet"; exit 77; }
fleet=$(cd "$(dirname "$fleet")" && pwd)/$(basename "$fleet")
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-fleet.XXXXXX") || exit 1
mounted=
trap '[ -z "$mounted" ] || umount "$mounted"; rm -rf "$work"' EXIT
. "$(dirname "$0")/../../lib/test-lib.sh"
cd "$work" || exit 1

# same NAME WANT GOT: the files are byte-identical.
same ()
{
    if cmp -s "$2" "$3"; then
        pass "$1"
    else
        fail "$1: $(diff "$2" "$3" | head -n 8 | tr '\n' '|')"
    fi
}

# The last line of merge, accumulate and import where a recording added up
# states no bound.
unknown () { printf '%s: bound unknown (a recording added up states none): whether it is enough to tune from cannot be told' "$1"; }

zen5='vendor=AuthenticAMD family=26 model=2 policy=amd-zen5'
cat >a.csv <<EOF
# libfastcopy workload 1
# class: $zen5
# impl: copy=avx512m clear=avx512m
family,what,value,calls,bytes
copy,size,16,100,1600
copy,size,576-639,10,6000
copy,function,memcpy,110,7600
copy,dst_align,0,110,7600
copy,src_align,8,110,7600
copy,distance,other,110,7600
copy,overlap,none,110,7600
clear,size,32,5,160
clear,function,memset,5,160
clear,dst_align,0,5,160
# end: 11 lines
EOF
cat >b.csv <<EOF
# libfastcopy workload 1
# class: $zen5
# impl: copy=avx512m clear=avx512m
family,what,value,calls,bytes
copy,size,16,50,800
copy,size,4096,2,8192
copy,function,memcpy,52,8992
copy,dst_align,0,52,8992
copy,src_align,8,2,8192
copy,src_align,16,50,800
copy,distance,other,52,8992
copy,overlap,none,52,8992
# end: 9 lines
EOF
# The sums, worked out by hand.
cat >merged.want <<EOF
# libfastcopy workload 1
# class: $zen5
# impl: copy=avx512m clear=avx512m
# merged by fastcopy-fleet from 2 recordings
family,what,value,calls,bytes
copy,size,16,150,2400
copy,size,576-639,10,6000
copy,size,4096,2,8192
copy,function,memcpy,162,16592
copy,dst_align,0,162,16592
copy,src_align,8,112,15792
copy,src_align,16,50,800
copy,distance,other,162,16592
copy,overlap,none,162,16592
clear,size,32,5,160
clear,function,memset,5,160
clear,dst_align,0,5,160
# end: 13 lines
EOF
expect "merge: two recordings of one class" 0 "$(unknown merged.csv)" \
    "$fleet" merge -o merged.csv a.csv b.csv
same "merge: the sums, the class and the end line" merged.want merged.csv

# A running total: the output may be an input.
cp a.csv total.csv
expect "merge: into one of its inputs" 0 "$(unknown total.csv)" \
    "$fleet" merge -o total.csv total.csv b.csv
sed 's/^# merged by.*/# merged by fastcopy-fleet from 2 recordings/' merged.want >total.want
same "merge: a running total" total.want total.csv

# --- accumulate -----------------------------------------------------------
# What fastcopy-fleet.service does with each run's sample: the sums are
# merge's, the comment line says who wrote the total.
acc () { sed 's/^# \(merged by\|accumulated by\|the total before\).*/# COMMENT/' "$1"; }
rm -f total.csv
expect "accumulate: the first sample makes the total" 0 "*a new total*" \
    "$fleet" accumulate -o total.csv a.csv
acc a.csv >want; sed -i '3a # COMMENT' want; acc total.csv >got
same "accumulate: the first total is the sample" want got
expect "accumulate: a sample of the same class and implementations" 0 "*added*" \
    "$fleet" accumulate -o total.csv b.csv
acc merged.want >want; acc total.csv >got
same "accumulate: the total is the two merged" want got
cp total.csv total.before
cat >empty.csv <<EOF
# libfastcopy workload 1
# class: $zen5
# sampled by fastcopy-sample: 0 samples at 99 Hz over 60.0 s (every CPU), 0 records lost
family,what,value,calls,bytes
# end: 1 lines
EOF
expect "accumulate: a sample with no call" 0 "*no call of libfastcopy*left as it is*" \
    "$fleet" accumulate -o total.csv empty.csv
same "accumulate: a sample with no call leaves the total" total.before total.csv
head -n 6 b.csv >cut.csv
expect "accumulate: a sample cut short" 1 "*cut.csv: no end line*total.csv is left as it is*" \
    "$fleet" accumulate -o total.csv cut.csv
expect "accumulate: no sample (the run failed)" 1 "*missing.csv*total.csv is left as it is*" \
    "$fleet" accumulate -o total.csv missing.csv
same "accumulate: a failed sample leaves the total" total.before total.csv
sed 's/^# impl: .*/# impl: copy=avx512 clear=avx512/' b.csv >new-impl.csv
expect "accumulate: other implementations start a new total" 0 \
    "*a new total*differ; the old one is total.previous.csv*" \
    "$fleet" accumulate -o total.csv new-impl.csv
acc new-impl.csv >want; sed -i '3a # COMMENT' want; acc total.csv >got
same "accumulate: the new total is the new sample" want got
acc total.before >want; acc total.previous.csv >got
same "accumulate: the old total is kept beside it" want got

# --- export ---------------------------------------------------------------
expect "export" 0 "" "$fleet" export --host h1 -o h1.prom merged.csv
labels='policy="amd-zen5",cpu="AuthenticAMD family 26 model 2",impl="avx512m",host="h1"'
for line in \
    '# TYPE fastcopy_call_size_bytes histogram' \
    '# TYPE fastcopy_calls_total counter' \
    "fastcopy_call_size_bytes_bucket{family=\"copy\",$labels,le=\"15\"} 0" \
    "fastcopy_call_size_bytes_bucket{family=\"copy\",$labels,le=\"16\"} 150" \
    "fastcopy_call_size_bytes_bucket{family=\"copy\",$labels,le=\"575\"} 150" \
    "fastcopy_call_size_bytes_bucket{family=\"copy\",$labels,le=\"639\"} 160" \
    "fastcopy_call_size_bytes_bucket{family=\"copy\",$labels,le=\"4095\"} 160" \
    "fastcopy_call_size_bytes_bucket{family=\"copy\",$labels,le=\"4607\"} 162" \
    "fastcopy_call_size_bytes_bucket{family=\"copy\",$labels,le=\"140737488355327\"} 162" \
    "fastcopy_call_size_bytes_bucket{family=\"copy\",$labels,le=\"+Inf\"} 162" \
    "fastcopy_call_size_bytes_sum{family=\"copy\",$labels} 16592" \
    "fastcopy_call_size_bytes_count{family=\"copy\",$labels} 162" \
    "fastcopy_call_size_bytes_bucket{family=\"clear\",$labels,le=\"32\"} 5" \
    "fastcopy_calls_total{family=\"copy\",kind=\"src_align\",value=\"16\",$labels} 50" \
    "fastcopy_calls_total{family=\"copy\",kind=\"distance\",value=\"1-15\",$labels} 0" \
    "fastcopy_calls_total{family=\"clear\",kind=\"function\",value=\"memset\",$labels} 5"; do
    if grep -q -x -F "$line" h1.prom; then
        pass "export: $line"
    else
        fail "export: no line '$line'"
    fi
done
# 817 bounds and +Inf per family; 64 + 64 + 4 + 3 + 1 rows of copies, 64 +
# 1 of clears.
n=$(grep -c '^fastcopy_call_size_bytes_bucket{family="copy"' h1.prom)
[ "$n" = 818 ] && pass "export: 818 copy buckets" || fail "export: $n copy buckets, not 818"
n=$(grep -c '^fastcopy_calls_total{' h1.prom)
[ "$n" = 201 ] && pass "export: 201 calls rows" || fail "export: $n calls rows, not 201"
n=$(grep -c 'fastcopy_bound' h1.prom)
[ "$n" = 0 ] && pass "export: no bound's series for a recording without one" ||
    fail "export: $n lines of the bound's series for a recording without one"

# --- import ---------------------------------------------------------------
# The calls come back exact; a bucket off the library's grid (4096) comes
# back as the grid's (4096-4607); bytes of a range at its middle size,
# of the other rows 0.
cat >imported.want <<EOF
# libfastcopy workload 1
# class: $zen5
# impl: copy=avx512m clear=avx512m
# imported by fastcopy-fleet from standard input
family,what,value,calls,bytes
copy,size,16,150,2400
copy,size,576-639,10,6075
copy,size,4096-4607,2,8703
copy,function,memcpy,162,0
copy,dst_align,0,162,0
copy,src_align,8,112,0
copy,src_align,16,50,0
copy,distance,other,162,0
copy,overlap,none,162,0
clear,size,32,5,160
clear,function,memset,5,0
clear,dst_align,0,5,0
# end: 13 lines
EOF
expect "import: exposition text on standard input" 0 "$(unknown imported.csv)" \
    sh -c "\"$fleet\" import -o imported.csv - <h1.prom"
same "import: what export wrote" imported.want imported.csv

# Two hosts' files add up.
"$fleet" export --host h1 -o a.prom a.csv && "$fleet" export --host h2 -o b.prom b.csv
cat a.prom b.prom >ab.prom
expect "import: two hosts" 0 "$(unknown ab.csv)" "$fleet" import -o ab.csv ab.prom
sed 's/^# imported by.*/# imported by fastcopy-fleet from ab.prom/' imported.want >ab.want
same "import: two hosts add up to the merge" ab.want ab.csv

# A query result, as Prometheus's HTTP API gives it; the class's labels
# only, as 'sum by' leaves them.
q='"policy":"amd-zen5","cpu":"AuthenticAMD family 26 model 2"'
{
    printf '{"status":"success","data":{"resultType":"vector","result":['
    sep=
    for le in $(sed -n 's/^fastcopy_call_size_bytes_bucket{family="copy".*,le="\([^"]*\)"} \(.*\)/\1=\2/p' h1.prom); do
        printf '%s{"metric":{"__name__":"fastcopy_call_size_bytes_bucket","family":"copy","le":"%s",%s},"value":[1.5,"%s"]}' \
            "$sep" "${le%%=*}" "$q" "${le#*=}"
        sep=,
    done
    printf ',{"metric":{"__name__":"fastcopy_calls_total","family":"copy","kind":"dst_align","value":"0",%s},"value":[1.5,"162"]}' "$q"
    printf ',{"metric":{"__name__":"node_load1"},"value":[1.5,"0.5"]}'
    printf ']}}\n'
} >query.json
cat >query.want <<EOF
# libfastcopy workload 1
# class: $zen5
# imported by fastcopy-fleet from query.json
family,what,value,calls,bytes
copy,size,16,150,2400
copy,size,576-639,10,6075
copy,size,4096-4607,2,8703
copy,dst_align,0,162,0
# end: 5 lines
EOF
expect "import: a query result" 0 "$(unknown query.csv)" \
    "$fleet" import -o query.csv query.json
same "import: a query result's buckets and rows" query.want query.csv

# The same counts ten thousand times over, in the exponent form Prometheus
# gives large values ("1.5e+06"), with the names and labels spelt with
# JSON's escapes; a series of another metric with every kind of escape is
# skipped.
q='"policy":"amd\u002dzen5","cpu":"\u0041uthenticAMD family 26 model\u00202"'
name='"__name\u005f_"'
{
    printf '{"status":"success","data":{"resultType":"vector","result":[\n'
    sed -n 's/^fastcopy_call_size_bytes_bucket{family="copy".*,le="\([^"]*\)"} \(.*\)/\1 \2/p' h1.prom |
    while read -r le n; do
        [ "$le" = +Inf ] && le='\u002bInf'
        printf '{"metric":{%s:"fastcopy_call_size_bytes_bucket","family":"c\\u006fpy","le":"%s",%s},"value":[1.7e+09,"%g"]},\n' \
            "$name" "$le" "$q" "$((n * 10000))"
    done
    printf '{"metric":{"__name__":"node_uname_info","release":"%s"},"value":[1.7e+09,"1"]},\n' \
        'tab\there \"quoted\" back\\slash\/slash caf\u00e9 \ud83d\ude00\nnew line'
    printf '{"metric":{%s:"fastcopy_calls_total","family":"copy","kind":"dst_align","value":"0",%s},"value":[1.7E9,"%g"]}\n' \
        "$name" "$q" 1620000
    printf ']}}\n'
} >escaped.json
cat >escaped.want <<EOF
# libfastcopy workload 1
# class: $zen5
# imported by fastcopy-fleet from escaped.json
family,what,value,calls,bytes
copy,size,16,1500000,24000000
copy,size,576-639,100000,60750000
copy,size,4096-4607,20000,87030000
copy,dst_align,0,1620000,0
# end: 5 lines
EOF
grep -q -F '"1.5e+06"' escaped.json && grep -q -F '"1.62e+06"' escaped.json &&
    pass "import: the query result has values in exponent form" ||
    fail "import: no value in exponent form in escaped.json"
expect "import: a query result with escapes and exponents" 0 "$(unknown escaped.csv)" \
    "$fleet" import -o escaped.csv escaped.json
same "import: a query result with escapes and exponents, byte for byte" \
    escaped.want escaped.csv

# What cannot be tuned from is refused, with nothing written: counters
# that did not grow (an increase() over an idle window gives zeros), and a
# recording given for exposition text.
sed 's/\(fastcopy_[a-z_]*{[^}]*}\) .*/\1 0/' h1.prom >zero.prom
expect "import: series that count no call" 1 \
    "*zero.prom: the series count no call*zero.csv not written*" \
    "$fleet" import -o zero.csv zero.prom
[ ! -e zero.csv ] && pass "import: nothing written for no call" ||
    fail "import: zero.csv written for no call"
expect "import: a recording" 1 "*a.csv is a recording, not exposition text or a query result*" \
    "$fleet" import -o rec.csv a.csv

# --- the bound ------------------------------------------------------------
# bound A B...: the bound of the sum of the recordings A B..., worked out
# from their rows and bound lines: each family's bound times its calls
# (the clears' share's times all calls), added in quadrature, over the
# calls of all, to four decimals.
bound ()
{
    awk -F, '
        FNR == 1 { n++ }
        /^# bound: / {
            split(substr($0, 10), kv, /[ =]/)
            t[n, "copy"] = kv[2]; t[n, "clear"] = kv[4]; t[n, "share"] = kv[6]
        }
        $2 == "size" { c[n, $1] += $4 }
        function sum(f,  i, s, w) {
            for (i = 1; i <= n; i++) {
                w += c[i, f]; s += (c[i, f] * t[i, f]) ^ 2
            }
            return sqrt(s) / w
        }
        END {
            for (i = 1; i <= n; i++) c[i, "share"] = c[i, "copy"] + c[i, "clear"]
            printf "copy=%.4f clear=%.4f share=%.4f\n", sum("copy"), sum("clear"), sum("share")
        }' "$@"
}
enough='enough to tune from, both families within 0.05'
rough='not yet enough: keep sampling until both families are within 0.05'
# says FILE BOUND WORDS: the line that ends merge, accumulate and import.
says () { printf '%s: bound %s (95%%): %s' "$1" "$2" "$3"; }
# with_bound FILE BOUND: FILE with the bound line BOUND after its impl line.
with_bound () { sed "/^# impl: /a # bound: $2" "$1"; }

with_bound a.csv 'copy=0.0300 clear=0.0400 share=0.0100' >bound-a.csv
with_bound b.csv 'copy=0.0900 clear=0.0200 share=0.0300' >bound-b.csv
q=$(bound bound-a.csv bound-b.csv)
[ "$q" = "copy=0.0353 clear=0.0400 share=0.0116" ] &&
    pass "bound: the quadrature worked out by hand" ||
    fail "bound: the quadrature is $q, not copy=0.0353 clear=0.0400 share=0.0116"
expect "bound: merge of two recordings with one says it is enough" 0 \
    "$(says bmerged.csv "$q" "$enough")" \
    "$fleet" merge -o bmerged.csv bound-a.csv bound-b.csv
with_bound merged.want "$q" >want
same "bound: merge writes the quadrature, and the sums as without it" want bmerged.csv
expect "bound: merge with a recording without one" 0 "$(unknown nmerged.csv)" \
    "$fleet" merge -o nmerged.csv bound-a.csv b.csv
same "bound: merge with a recording without one writes none" merged.want nmerged.csv

# Through Prometheus's sums: (calls * bound)^2 per family and for the
# share, and the calls of hosts that state one.
expect "bound: export" 0 "" "$fleet" export --host h1 -o bh1.prom bmerged.csv
for line in \
    '# TYPE fastcopy_bound_weighted_squared gauge' \
    '# TYPE fastcopy_bound_share_weighted_squared gauge' \
    '# TYPE fastcopy_bound_calls_total counter' \
    "fastcopy_bound_calls_total{family=\"copy\",$labels} 162" \
    "fastcopy_bound_calls_total{family=\"clear\",$labels} 5"; do
    if grep -q -x -F "$line" bh1.prom; then
        pass "bound: export: $line"
    else
        fail "bound: export: no line '$line'"
    fi
done
squares=$(sed -n 's/^fastcopy_bound_weighted_squared{family="\([a-z]*\)",'"$labels"'} /\1 /p
    s/^fastcopy_bound_share_weighted_squared{policy="amd-zen5",cpu="AuthenticAMD family 26 model 2",host="h1"} /share /p' bh1.prom |
    awk -v q="$q" -v copy=162 -v clear=5 '
        BEGIN { split(q, kv, /[ =]/); t["copy"] = kv[2]; t["clear"] = kv[4]; t["share"] = kv[6]
                c["copy"] = copy; c["clear"] = clear; c["share"] = copy + clear }
        { want = (c[$1] * t[$1]) ^ 2; d = $2 - want
          if (d < 0) d = -d
          printf "%s%s", (NR > 1 ? " " : ""), (d <= 1e-9 * want ? $1 : $1 "=" $2 "!=" want) }')
[ "$squares" = "copy clear share" ] &&
    pass "bound: export: (calls * bound)^2 of copy, clear and share" ||
    fail "bound: export: the squares are not (calls * bound)^2: $squares"
expect "bound: import of an export says it is enough" 0 \
    "$(says bimported.csv "$q" "$enough")" "$fleet" import -o bimported.csv bh1.prom
sed 's/^# imported by.*/# imported by fastcopy-fleet from bh1.prom/' imported.want >want
with_bound want "$q" >want2
same "bound: import of an export keeps the bound" want2 bimported.csv
"$fleet" export --host h1 -o ba.prom bound-a.csv && "$fleet" export --host h2 -o bb.prom bound-b.csv
cat ba.prom bb.prom >bab.prom
expect "bound: import of two hosts" 0 "$(says bab.csv "$q" "$enough")" \
    "$fleet" import -o bab.csv bab.prom
sed 's/^# imported by.*/# imported by fastcopy-fleet from bab.prom/' imported.want >want
with_bound want "$q" >want2
same "bound: two hosts add up to the merge's quadrature" want2 bab.csv
cat ba.prom b.prom >bn.prom
expect "bound: import of a host without one" 0 "$(unknown bn.csv)" \
    "$fleet" import -o bn.csv bn.prom
sed 's/^# imported by.*/# imported by fastcopy-fleet from bn.prom/' imported.want >want
same "bound: import of a host without one writes none" want bn.csv

# A machine's total: each hour's sample shrinks the bound, until it is
# enough.
with_bound a.csv 'copy=0.0900 clear=0.0400 share=0.0100' >hour.csv
rm -f total.csv total.previous.csv
expect "bound: accumulate, the first hour" 0 "total.csv: a new total, from hour.csv
$(says total.csv "copy=0.0900 clear=0.0400 share=0.0100" "$rough")" \
    "$fleet" accumulate -o total.csv hour.csv
for hour in 2 3 4; do
    q=$(bound total.csv hour.csv)
    [ $hour = 4 ] && words=$enough || words=$rough
    expect "bound: accumulate, hour $hour: $q" 0 "total.csv: hour.csv added
$(says total.csv "$q" "$words")" "$fleet" accumulate -o total.csv hour.csv
    grep -q -x -F "# bound: $q" total.csv && pass "bound: the total of hour $hour states it" ||
        fail "bound: the total of hour $hour: $(grep '^# bound' total.csv)"
done
[ "$q" = "copy=0.0450 clear=0.0200 share=0.0050" ] &&
    pass "bound: four hours, worked out by hand" ||
    fail "bound: four hours come to $q, not copy=0.0450 clear=0.0200 share=0.0050"
expect "bound: accumulate a sample without one" 0 "total.csv: b.csv added
$(unknown total.csv)" "$fleet" accumulate -o total.csv b.csv
grep -q '^# bound' total.csv && fail "bound: the total still states one" ||
    pass "bound: the total states none"

# --- what is refused --------------------------------------------------------
# Each refusal leaves the output as it was.
cp merged.csv keep.csv
refused ()
{
    name=$1 pat=$2
    shift 2
    expect "$name" 1 "$pat" "$@"
    same "$name: the output is untouched" merged.csv keep.csv
}
head -c 200 a.csv >cut.csv
refused "a recording cut short" "fastcopy-fleet: cut.csv:*" \
    "$fleet" merge -o keep.csv a.csv cut.csv
grep -v '^# end' a.csv >noend.csv
refused "a recording without its end line" \
    "fastcopy-fleet: noend.csv: no end line ('# end: N lines'): the file was cut short*" \
    "$fleet" merge -o keep.csv noend.csv
grep -v 'src_align' a.csv >altered.csv
refused "a recording with a line removed" \
    "fastcopy-fleet: altered.csv:*: the end line says '11 lines', but 10 lines of data came before it: the file was altered" \
    "$fleet" export -o keep.csv altered.csv
sed 's/^# libfastcopy workload 1$/# libfastcopy workload 2/' a.csv >v2.csv
refused "a recording of another format version" \
    "fastcopy-fleet: v2.csv:1: format version '2'; this reader knows version 1" \
    "$fleet" merge -o keep.csv a.csv v2.csv
sed 's/copy,size,16,100,1600/copy,size,16,1x0,1600/' a.csv >corrupt.csv
refused "a corrupt recording" \
    "fastcopy-fleet: corrupt.csv:5: calls and bytes must be numbers, not '1x0' and '1600'" \
    "$fleet" merge -o keep.csv corrupt.csv
sed 's/policy=amd-zen5/policy=amd-zen4/; s/model=2/model=17/; s/family=26/family=25/' a.csv >zen4.csv
refused "recordings of two classes" \
    "fastcopy-fleet: a.csv is of class $zen5, zen4.csv of class vendor=AuthenticAMD family=25 model=17 policy=amd-zen4: merge recordings of one class, or give --mix" \
    "$fleet" merge -o keep.csv a.csv zen4.csv
grep -v '^# class' b.csv >old.csv
refused "a recording of class unknown with one of a class" \
    "fastcopy-fleet: a.csv is of class $zen5, old.csv of class unknown: *" \
    "$fleet" merge -o keep.csv a.csv old.csv
expect "--mix: two classes" 0 "$(unknown mixed.csv)" \
    "$fleet" merge --mix -o mixed.csv a.csv zen4.csv
if grep -q -x '# class: mixed' mixed.csv; then
    pass "--mix: the class says mixed"
else
    fail "--mix: no '# class: mixed' line: $(head -n 3 mixed.csv | tr '\n' '|')"
fi
expect "export: a mixed recording" 0 "" "$fleet" export --host m -o mixed.prom mixed.csv
refused "exposition text of two classes" \
    "fastcopy-fleet: ab2.prom: series of class $zen5 and of class vendor=AuthenticAMD family=25 model=17 policy=amd-zen4: *" \
    sh -c "\"$fleet\" export --host z -o z.prom zen4.csv && cat a.prom z.prom >ab2.prom && \"$fleet\" import -o keep.csv ab2.prom"

head -c 5000 h1.prom >cut.prom
refused "exposition text cut in a line" \
    "fastcopy-fleet: cut.prom: the last line has no newline: the file was cut short" \
    "$fleet" import -o keep.csv cut.prom
head -n 700 h1.prom >cutline.prom
refused "exposition text cut between lines" \
    "fastcopy-fleet: cutline.prom: the copy histogram has no le=\"*\" bucket: cut short, or not fastcopy-fleet's" \
    "$fleet" import -o keep.csv cutline.prom
sed 's/le="639"} 160/le="639"} 140/' h1.prom >notcum.prom
refused "exposition text that is not cumulative" \
    "fastcopy-fleet: notcum.prom: the copy histogram is not cumulative at le=\"639\" (140 after 150)" \
    "$fleet" import -o keep.csv notcum.prom
sed 's/le="16"} 150/le="16" 150/' h1.prom >badlabel.prom
refused "exposition text with a broken line" \
    "fastcopy-fleet: badlabel.prom:19: expected ',' or '}' after a label, found ' 150'" \
    "$fleet" import -o keep.csv badlabel.prom
sed 's/le="16"}/le="16.5"}/' h1.prom >badle.prom
refused "exposition text with a bound of other buckets" \
    "fastcopy-fleet: badle.prom: le=\"16.5\" is no bound of fastcopy-fleet's buckets" \
    "$fleet" import -o keep.csv badle.prom
head -c 3000 query.json >cut.json
refused "a query result cut short" \
    "fastcopy-fleet: cut.json: not JSON: unexpected end of data after byte 3000: the file was cut short" \
    "$fleet" import -o keep.csv cut.json
printf '{"status":"success","data":{"resultType":"vector","result":[}]}}' >bad.json
refused "malformed JSON" \
    "fastcopy-fleet: bad.json: not JSON: byte 61: unexpected character" \
    "$fleet" import -o keep.csv bad.json
printf '{"status":"success","data":{"resultType":"vector","result":[]}} {}' >two.json
refused "JSON with more after the value" \
    "fastcopy-fleet: two.json: not JSON: byte 65: unexpected character" \
    "$fleet" import -o keep.csv two.json
printf '{"status":"success","data":{"resultType":"vector","result":[]}}\n\0' >nul.json
refused "JSON with a null byte" \
    "fastcopy-fleet: nul.json: not JSON: byte 65: a null byte" \
    "$fleet" import -o keep.csv nul.json
printf '{"status":"error","errorType":"bad_data","error":"parse error at char 5"}' >err.json
refused "a failed query" \
    "fastcopy-fleet: err.json: the query failed (status \"error\"): parse error at char 5" \
    "$fleet" import -o keep.csv err.json
printf '{"status":"success","data":{"resultType":"matrix","result":[]}}' >matrix.json
refused "a range query's result" \
    "fastcopy-fleet: matrix.json: the result is a matrix, not an instant vector*" \
    "$fleet" import -o keep.csv matrix.json
printf '{"status":"success","data":{"resultType":"vector","result":[{"metric":{"family":"copy"},"value":[1,"3"]}]}}' >noname.json
refused "a query result without __name__ where it is needed" \
    "fastcopy-fleet: noname.json: result 1 has neither le nor kind and no metric name: *" \
    "$fleet" import -o keep.csv noname.json
printf '{"status":"succ\377ss"}' >latin1.json
refused "JSON that is not UTF-8" \
    "fastcopy-fleet: latin1.json: not JSON: byte 16: invalid utf-8 string" \
    "$fleet" import -o keep.csv latin1.json
# A C string would end at \u0000: a kind of "size" would be read.
printf '{"status":"success","data":{"resultType":"vector","result":[{"metric":{"__name__":"fastcopy_calls_total","kind":"size\\u0000x"},"value":[1,"3"]}]}}' >nulchar.json
refused "a label with a null character" \
    "fastcopy-fleet: nulchar.json: result 1: the label kind is not a string without a null character" \
    "$fleet" import -o keep.csv nulchar.json

sed 's/^\(fastcopy_bound_weighted_squared{family="copy".*}\) .*/\1 -1/' bab.prom >badbound.prom
refused "a bound's square below 0" \
    "fastcopy-fleet: badbound.prom: fastcopy_bound_weighted_squared of -1: expected a number from 0" \
    "$fleet" import -o keep.csv badbound.prom
sed 's/^\(fastcopy_bound_share_weighted_squared{.*}\) .*/\1 NaN/' bab.prom >nanbound.prom
refused "a bound's square that is no number" \
    "fastcopy-fleet: nanbound.prom: fastcopy_bound_share_weighted_squared of nan: expected a number from 0" \
    "$fleet" import -o keep.csv nanbound.prom
sed 's/^\(fastcopy_bound_calls_total{family="copy".*host="h1"}\) .*/\1 1000/' bab.prom >morebound.prom
refused "a bound over more calls than the histogram's" \
    "fastcopy-fleet: morebound.prom: fastcopy_bound_calls_total counts 1052 copy calls, more than the histogram's 162" \
    "$fleet" import -o keep.csv morebound.prom
grep -v '^fastcopy_bound_share' bab.prom >noshare.prom
refused "the bound's calls without the share's square" \
    "fastcopy-fleet: noshare.prom: fastcopy_bound_calls_total without fastcopy_bound_share_weighted_squared: add up every fastcopy_bound_ series" \
    "$fleet" import -o keep.csv noshare.prom
grep -v '^fastcopy_bound_weighted_squared{family="clear"' bab.prom >noclear.prom
refused "the bound's calls without a family's square" \
    "fastcopy-fleet: noclear.prom: fastcopy_bound_calls_total without fastcopy_bound_weighted_squared of the family clear: add up every fastcopy_bound_ series" \
    "$fleet" import -o keep.csv noclear.prom

# --- a full disk ---------------------------------------------------------
# No temporary file may be left beside the output.
no_temp ()
{
    left=$(ls -A "$1" | grep '^\.fastcopy-fleet\.' || true)
    [ -z "$left" ] && pass "$2: no temporary file left" ||
        fail "$2: left $left"
}
mkdir limited
cp merged.csv limited/out.csv
cp h1.prom limited/h1.prom
for cmd in "merge -o limited/out.csv a.csv b.csv" \
    "export --host h1 -o limited/h1.prom a.csv" \
    "import -o limited/out.csv h1.prom"; do
    st=0
    # SIGXFSZ ignored: write fails with EFBIG instead of killing the tool.
    out=$(trap '' XFSZ; ulimit -f 0; "$fleet" $cmd 2>&1) || st=$?
    case $st:$out in
        "1:fastcopy-fleet: cannot write limited/.fastcopy-fleet."*": File too large")
            pass "file size limit: $cmd fails and says why" ;;
        *) fail "file size limit: $cmd: exit $st: $out" ;;
    esac
done
same "file size limit: the earlier recording survives" merged.csv limited/out.csv
same "file size limit: the earlier export survives" h1.prom limited/h1.prom
no_temp limited "file size limit"

if [ "$(id -u)" = 0 ] && mkdir full && mount -t tmpfs -o size=512k tmpfs full 2>/dev/null; then
    mounted=$work/full
    cp a.prom full/h.prom
    while dd if=/dev/zero of=full/filler bs=4k count=1 oflag=append conv=notrunc 2>/dev/null; do :; done
    expect "a full file system: export fails and says why" 1 \
        "fastcopy-fleet: cannot write full/.fastcopy-fleet.*: No space left on device" \
        "$fleet" export --host h1 -o full/h.prom merged.csv
    same "a full file system: the earlier export survives" a.prom full/h.prom
    no_temp full "a full file system"
    umount full && mounted=
else
    echo "SKIP: a full tmpfs (needs root and mount)"
fi

# --- usage --------------------------------------------------------------
try="Try 'fastcopy-fleet --help' for more information."
expect "no command" 2 "fastcopy-fleet: no command: merge, accumulate, export or import
$try" "$fleet"
expect "an unknown command" 2 "fastcopy-fleet: unknown command 'split': merge, accumulate, export or import
$try" "$fleet" split
expect "no -o" 2 "fastcopy-fleet: merge needs -o FILE
$try" "$fleet" merge a.csv
expect "an unknown option" 2 "fastcopy-fleet: unrecognized option '--frob'
$try" "$fleet" merge --frob -o x a.csv
expect "-o without its file" 2 "fastcopy-fleet: option '-o' needs an argument
$try" "$fleet" merge a.csv -o
expect "export of two files" 2 "fastcopy-fleet: export takes one file, not 2
$try" "$fleet" export -o x.prom a.csv b.csv
expect "--mix with export" 2 "fastcopy-fleet: --mix is for merge and import
$try" "$fleet" export --mix -o x.prom a.csv
# An empty name: a usage error that names the option or the command,
# before anything is read or written.
expect "export to -o ''" 2 "fastcopy-fleet: --output needs a file name, not ''
$try" "$fleet" export -o '' a.csv
expect "export of ''" 2 "fastcopy-fleet: export needs a file name, not ''
$try" "$fleet" export -o t.prom ''
expect "merge of ''" 2 "fastcopy-fleet: merge needs a file name, not ''
$try" "$fleet" merge -o t.csv a.csv ''
expect "accumulate of ''" 2 "fastcopy-fleet: accumulate needs a file name, not ''
$try" "$fleet" accumulate -o t.csv ''
if [ -e t.prom ] || [ -e t.csv ]; then
    fail "an empty name: a file was written"
else
    pass "an empty name: no file was written"
fi
expect "--help" 0 "usage: fastcopy-fleet merge*" "$fleet" --help
expect "-h" 0 "usage: fastcopy-fleet merge*" "$fleet" -h
expect "--version" 0 "fastcopy-fleet (libfastcopy) [0-9]*" "$fleet" --version
expect "-V" 0 "fastcopy-fleet (libfastcopy) [0-9]*" "$fleet" -V
finish
