#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-sample on the real library: sample-driver copies 100 bytes at
# a time through memcpy with the built libfastcopy preloaded, under
# cpu-clock sampling.
# - A library whose file has the body map (section fastcopy_body_map):
#   the recording's copies are at 100 bytes, at least 95% of them, and
#   the samples in the exported memcpy, which every implementation
#   shares, count as calls of the implementation the process ran: none
#   is left in "code no implementation owns".
# - A library without one (built before the bodies emit it): the sampler
#   says so, counts the samples in the library without attributing them,
#   and writes a recording with the copy share and no size.
# Either way the samples land in the library.
# - A 32-bit process, with the i386 library FC_I386_LIB names preloaded
#   (quickstart.sh check names _build32's): its copies are at 100 bytes,
#   at least 95% of them, attributed by the i386 body map and its stack
#   words, and none is left unowned.  Where the kernel runs no 32-bit
#   program, or no i386 library or 32-bit compiler is at hand, the test
#   says that this was not checked.
#
#   test-real.sh      (make check runs it in the build directory)
#
# Needs perf events: where the kernel refuses them the test fails, with
# the sampler's reason.
work_name=sample-real
. "$(dirname "$0")/test-setup.sh"

if ! "$sample" --cache-dir "$work" -F 997 -o "$work/out.csv" -- \
        env LD_PRELOAD="$lib" FASTCOPY_CONFIG= FASTCOPY= \
        "$driver" memcpy 100 2 >"$work/report" 2>&1; then
    fail "fastcopy-sample failed: $(cat "$work/report")"
    finish
    exit 1
fi
out=$work/out.csv
comment () { sed -n "s/^# samples in libfastcopy bodies: .*; $1: \([0-9]*\).*/\1/p" "$out"; }

# attributed WHAT: $out, a run of copies of 100 bytes, holds at least 95%
# of its estimated copies at 100 bytes, and no sample in code no
# implementation owns.
attributed ()
{
    at100=$(awk -F, '$1 == "copy" && $2 == "size" { all += $4; if ($3 == 100) at += $4 }
                     END { if (all > 0) printf "%d %d", at * 100 / all, all; else print "0 0" }' "$out")
    if [ "${at100% *}" -ge 95 ]; then
        pass "$1: ${at100% *}% of ${at100#* } estimated copies at 100 bytes"
    else
        fail "$1: ${at100% *}% of ${at100#* } estimated copies at 100 bytes: $(grep ',size,' "$out")"
    fi
    owns=$(comment "in code no implementation owns")
    if [ "$owns" = 0 ]; then
        pass "$1: every sample in the exported entry counted as a call"
    else
        fail "$1: ${owns:-no count of} samples in code no implementation owns: $(grep '^# samples' "$out")"
    fi
}

if LC_ALL=C readelf -S -W "$lib" | grep -q ' fastcopy_body_map '; then
    attributed "body map"
else
    case $(cat "$work/report") in
        *"fastcopy-sample: "*"/libfastcopy.so.1"*" has no body map (section fastcopy_body_map): its samples cannot be attributed"*"fastcopy-sample: no call of libfastcopy to count: the libfastcopy mapped has no body map; $out has the copy share only"*)
            pass "no body map: said so" ;;
        *) fail "no body map: not said so: $(cat "$work/report")" ;;
    esac
    n=$(comment "in a libfastcopy without a body map")
    if [ "${n:-0}" -gt 0 ]; then
        pass "no body map: $n samples counted in the library"
    else
        fail "no body map: no sample counted in the library: $(head -5 "$out")"
    fi
    [ "$(grep -c ',size,' "$out")" = 0 ] && pass "no body map: no size in the recording" ||
        fail "no body map: sizes in the recording: $(grep ',size,' "$out")"
fi
grep -q '^# copy share of the processes sampled: ' "$out" && pass "the copy share is in the recording" ||
    fail "no copy share in the recording"

# glibc=on: the library is mapped and its entry points run, but every
# call goes on to glibc's functions; said so, not "not mapped".
if "$sample" --cache-dir "$work" -F 997 -o "$work/bypass.csv" -- \
        env LD_PRELOAD="$lib" FASTCOPY_CONFIG= FASTCOPY=glibc=on \
        "$driver" memcpy 100 0.5 >"$work/bypass.report" 2>&1; then
    case $(cat "$work/bypass.report") in
        *"no call of libfastcopy to count: bypassed: 1 process sampled maps it, and its calls went on to glibc's own functions (the setting glibc=on: "*" samples in its entry points, "*" in glibc's copy and clear functions)"*)
            pass "glibc=on: reported as bypassed" ;;
        *) fail "glibc=on: not reported as bypassed: $(cat "$work/bypass.report")" ;;
    esac
    grep -q '; processes sampled that map libfastcopy: 1$' "$work/bypass.csv" &&
        grep -q '^# end: 1 lines$' "$work/bypass.csv" &&
        pass "glibc=on: the recording says the library was mapped, and ends whole" ||
        fail "glibc=on: the recording: $(grep '^#' "$work/bypass.csv" | tr '\n' '|')"
else
    fail "glibc=on: fastcopy-sample failed: $(cat "$work/bypass.report")"
fi

# A build tree's sampler keeps its cost table with the user's, even run by
# root: never in the installed system's /var/cache/fastcopy.
mkdir "$work/home"
if env -u XDG_CACHE_HOME HOME="$work/home" "$sample" -F 997 -o "$work/home.csv" -- \
        env LD_PRELOAD="$lib" FASTCOPY_CONFIG= FASTCOPY= \
        "$driver" memcpy 100 0.3 >"$work/home.report" 2>&1 &&
   grep -q "(cost table: $work/home/.cache/fastcopy/cost-" "$work/home.csv"; then
    pass "a build tree's cost table is the user's ($(id -un))"
else
    fail "a build tree's cost table: $(grep -o '(cost table: [^)]*' "$work/home.csv" 2>/dev/null) $(cat "$work/home.report")"
fi

# A 32-bit process: memcpy of 100 bytes through the i386 library, for
# two seconds.
cat >"$work/copy32.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <time.h>
int
main (int argc, char **argv)
{
  void *(*volatile copy) (void *, const void *, size_t) = memcpy;
  static char src[128], dst[128];
  double seconds = atof (argv[argc - 1]), spent;
  struct timespec t0, t;
  clock_gettime (CLOCK_MONOTONIC, &t0);
  do
    {
      for (int i = 0; i < 100000; i++)
        copy (dst, src, 100);
      clock_gettime (CLOCK_MONOTONIC, &t);
      spent = (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
    }
  while (spent < seconds);
  return 0;
}
EOF
lib32=${FC_I386_LIB:-}
if [ -z "$lib32" ]; then
    echo "NOT CHECKED: a 32-bit process (no i386 library: FC_I386_LIB is not set)"
elif [ ! -r "$lib32" ]; then
    fail "a 32-bit process: FC_I386_LIB names no readable file: $lib32"
elif ! cc -m32 -O2 -fno-builtin -o "$work/copy32" "$work/copy32.c" 2>"$work/cc32"; then
    echo "NOT CHECKED: a 32-bit process (cc -m32 cannot build one: $(head -n 1 "$work/cc32"))"
elif ! "$work/copy32" 0 2>/dev/null; then
    echo "NOT CHECKED: a 32-bit process (this kernel runs no 32-bit program)"
elif ! "$sample" --cache-dir "$work" -F 997 -o "$work/out32.csv" -- \
        env LD_PRELOAD="$lib32" FASTCOPY_CONFIG= FASTCOPY= \
        "$work/copy32" 2 >"$work/report32" 2>&1; then
    fail "a 32-bit process: fastcopy-sample failed: $(cat "$work/report32")"
else
    out=$work/out32.csv
    attributed "a 32-bit process"
fi
finish
