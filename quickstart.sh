#!/bin/sh
# SPDX-License-Identifier: MIT
# One command from a fresh Debian 12 or 13 checkout:
#   ./quickstart.sh         install build dependencies, build, show what libfastcopy
#                           detects and chooses on this machine, and a short
#                           benchmark against glibc
#   ./quickstart.sh check   the same build, then the whole testsuite (make check);
#                           then the i386 (32-bit) library's build and its
#                           testsuite, natively where the kernel runs 32-bit
#                           programs and under qemu-user where it does not
#   ./quickstart.sh check-x86-64
#                           only the x86-64 build's testsuite (CI runs it in
#                           a Debian 13 root too)
#   ./quickstart.sh deps [run|check]
#                           print the Debian packages that mode needs, one a
#                           line, and install nothing
# The builds live in _build/ and _build32/ (out of tree).  Root installs
# packages directly; other users get them through sudo: what the build
# needs, and for the checks only what the testsuite runs (qemu-user,
# valgrind, python3, the i386 compilers).
set -eu
cd "$(dirname "$0")"
top=$(pwd)

mode=${1:-run}
[ "$mode" = deps ] && mode=${2:-run}
# fastcopy-fleet reads Prometheus's query results with json-c.
deps="build-essential autoconf automake libtool pkg-config libjson-c-dev"
case $mode in
  check|check-x86-64)
    # The round trip of fastcopy-fleet through a real Prometheus
    # (testsuite/tools/fleet/test-fleet-prometheus.sh) and the check of the systemd
    # units need the last four.
    deps="$deps dejagnu qemu-user valgrind g++ python3 gcc-multilib g++-multilib
          prometheus prometheus-node-exporter curl systemd" ;;
esac
if [ "${1:-}" = deps ]; then
  printf '%s\n' $deps
  exit 0
fi
missing=""
for p in $deps; do
  dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "quickstart: installing:$missing" >&2
  if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi

[ -x configure ] && [ configure -nt configure.ac ] && [ Makefile.in -nt Makefile.am ] || ./bootstrap
mkdir -p _build
cd _build
# Again after installing packages: configure looks for qemu-user and
# valgrind, which a build for 'run' went without.
[ -f Makefile ] && [ -z "$missing" ] || "$top/configure" --quiet
make -j"$(nproc)" --quiet

case "${1:-run}" in
  run)
    ./tools/fastcopy-info
    echo
    ./bench/fastcopy-bench --quick
    ;;
  check-x86-64)
    make --no-print-directory check VERBOSE=yes
    ;;
  check)
    # The i386 build: the same sources, gcc -m32 (gcc-multilib).  Built
    # first: the x86-64 sampler's test samples a 32-bit process with it.
    mkdir -p "$top/_build32"
    cd "$top/_build32"
    [ -f Makefile ] || "$top/configure" --quiet --host=i686-linux-gnu \
        CC="gcc -m32" CXX="g++ -m32"
    make -j"$(nproc)" --quiet
    cd "$top/_build"
    make --no-print-directory check VERBOSE=yes \
        FC_I386_LIB="$top/_build32/.libs/libfastcopy.so.1"
    cd "$top/_build32"
    make --no-print-directory check VERBOSE=yes
    ;;
  *)
    echo "usage: $0 [run|check|check-x86-64|deps [MODE]]" >&2
    exit 2
    ;;
esac
