#!/bin/bash
# SPDX-License-Identifier: MIT
# Build this checkout and run its x86-64 testsuite on another Debian
# release: a root made with debootstrap from this machine's own Debian
# mirror (packaging/debian-mirror.sh), where quickstart.sh installs the
# build dependencies and runs 'check-x86-64'.  CI runs it for Debian 13
# (trixie: glibc 2.41, gcc 14) next to the machine's Debian 12.
#
#   packaging/check-debian-release.sh SUITE [ROOT]
#
# ROOT (default /var/tmp/fastcopy-SUITE) is made anew and removed at the
# end; the checkout's tracked and untracked-but-not-ignored files are
# copied into ROOT/src.  /proc, /sys and /dev are mounted in a private
# mount namespace (unshare -m), so nothing stays mounted on the machine.
# Needs root, debootstrap and git.  The testsuite's log is kept in
# ROOT.log/ (libfastcopy.sum, the automake tests' logs, the output).
# testsuite/packaging/test-check-twice.sh is skipped there (FC_CHECK_TWICE=no): the
# plain make check of the machine's own release runs it.
# Exits with the testsuite's status.
set -euo pipefail

[ $# -ge 1 ] || { echo "usage: $0 SUITE [ROOT]" >&2; exit 2; }
suite=$1
root=${2:-/var/tmp/fastcopy-$suite}
here=$(cd "$(dirname "$0")/.." && pwd)
[ "$(id -u)" = 0 ] || { echo "check-debian-release.sh: needs root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null ||
    { echo "check-debian-release.sh: debootstrap is not installed" >&2; exit 1; }
mirror=$(sh "$here/packaging/debian-mirror.sh")
start=$(date +%s)
step () { printf '\n=== %s: %s (%ds)\n' "$suite" "$*" $(($(date +%s) - start)); }

rm -rf "$root" "$root.log"
trap 'rm -rf "$root"' EXIT
step "debootstrap from $mirror"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$root.debootstrap.log" 2>&1 || {
    tail -n 30 "$root.debootstrap.log"
    echo "check-debian-release.sh: debootstrap $suite failed; log: $root.debootstrap.log" >&2
    exit 1
}
rm -f "$root.debootstrap.log"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# No service that a package installs starts in the root, as in any chroot:
# the testsuite starts the servers it needs (node_exporter, Prometheus)
# itself, on free loopback ports, and stops them.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"

step "copy the checkout"
mkdir -p "$root/src"
(cd "$here" &&
    git -c safe.directory="$here" ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -C "$root/src" -xf -
# The testsuite runs some checks as user nobody, who must reach the tree.
chmod 0755 "$root/src"

step "quickstart.sh check-x86-64 in the $suite root"
rc=0
# shellcheck disable=SC2016
# The root is bound onto itself to be a mount point: the testsuite's own
# mount namespaces (unshare -m) need one at their /.
unshare -m sh -c '
    mount --make-rprivate /
    mount --bind "$1" "$1"
    mount -t proc proc "$1/proc"
    mount -t sysfs sysfs "$1/sys"
    mount --rbind /dev "$1/dev"
    exec chroot "$1" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
        LANG=C.UTF-8 FC_CHECK_TWICE=no sh -c "cd /src && ./quickstart.sh check-x86-64"' sh "$root" || rc=$?

chroot "$root" sh -c 'echo "$(ldd --version | head -n 1); $(gcc --version | head -n 1)"' || :
mkdir -p "$root.log"
cp "$root/src/_build/testsuite/libfastcopy.sum" "$root/src/_build/testsuite/libfastcopy.log" \
    "$root.log/" 2>/dev/null || :
find "$root/src/_build" -name '*.log' ! -name libfastcopy.log \
    -exec cp {} "$root.log/" \; 2>/dev/null || :
step "done: exit status $rc; logs in $root.log/"
exit $rc
