#!/bin/sh
# SPDX-License-Identifier: MIT
# One command from a fresh Debian 12 checkout:
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
# The builds live in _build/ and _build32/ (out of tree).  Root installs
# packages directly; other users get them through sudo.
set -eu
cd "$(dirname "$0")"
top=$(pwd)

deps="build-essential autoconf automake libtool pkg-config dejagnu qemu-user valgrind g++ python3
      gcc-multilib g++-multilib"
# The testsuite's round trip of fastcopy-fleet through a real Prometheus
# (tools/fleet/test-fleet-prometheus.sh), and the check of the systemd
# units.
case "${1:-run}" in
  check*) deps="$deps prometheus prometheus-node-exporter curl systemd" ;;
esac
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
[ -f Makefile ] || "$top/configure" --quiet
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
    make --no-print-directory check VERBOSE=yes
    # The i386 build: the same sources, gcc -m32 (gcc-multilib).
    mkdir -p "$top/_build32"
    cd "$top/_build32"
    [ -f Makefile ] || "$top/configure" --quiet --host=i686-linux-gnu \
        CC="gcc -m32" CXX="g++ -m32"
    make -j"$(nproc)" --quiet
    make --no-print-directory check VERBOSE=yes
    ;;
  *)
    echo "usage: $0 [run|check|check-x86-64]" >&2
    exit 2
    ;;
esac
