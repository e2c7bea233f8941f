#!/bin/sh
# SPDX-License-Identifier: MIT
# The Debian mirror this machine's apt uses: the URI that serves its own
# release's main component (not -updates or -security), as apt itself
# reads the sources (one-line sources.list or deb822 .sources files).
# Another Debian release is fetched from there too (debootstrap, a scratch
# apt configuration), so that nothing names a host of its own.
#
#   debian-mirror.sh        prints the URI, e.g. http://deb.debian.org/debian
#
# Exits 1, saying why, when apt lists no such source.
set -u
codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] ||
    { echo "debian-mirror.sh: /etc/os-release names no release (VERSION_CODENAME)" >&2; exit 1; }
# apt-cache policy lists each source as "PRIO URI SUITE/COMPONENT ARCH Packages".
uri=$(apt-cache policy 2>/dev/null |
    awk -v want="$codename/main" '$3 == want && $5 == "Packages" { print $2; exit }')
[ -n "$uri" ] ||
    { echo "debian-mirror.sh: apt has no source for $codename main (apt-cache policy)" >&2; exit 1; }
echo "$uri"
