#!/bin/sh
# SPDX-License-Identifier: MIT
# The periodic fleet service's systemd units: systemd-analyze verify finds
# nothing to say of them; the service samples with fastcopy-sample and
# exports with fastcopy-fleet into node_exporter's textfile directory, in
# bounded time, hardened, with its privileges stated, and has no [Install]
# section (only the timer starts it); the timer is the unit to enable, and
# the packages enable and start neither (packaging/e2e-test.sh checks the
# installed packages).
#
#   test-fleet-units.sh      (make check runs it in the build directory,
#                             with srcdir set)
#
# Prints PASS/FAIL lines; exits 1 when something failed.
set -u
srcdir=${srcdir:-$(dirname "$0")/../../..}
. "$(dirname "$0")/../../lib/test-lib.sh"
service=tools/fleet/fastcopy-fleet.service
timer=$srcdir/tools/fleet/fastcopy-fleet.timer
[ -r "$service" ] || { fail "no $service: the build makes it"; finish; exit; }
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-fleet-units.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cp "$service" "$timer" "$work/"

if command -v systemd-analyze >/dev/null; then
    st=0
    out=$(systemd-analyze verify --man=no "$work/fastcopy-fleet.service" \
        "$work/fastcopy-fleet.timer" 2>&1) || st=$?
    if [ $st -eq 0 ] && [ -z "$out" ]; then
        pass "systemd-analyze verify: nothing to say of the service and the timer"
    else
        fail "systemd-analyze verify (exit $st): $(printf '%s' "$out" | head -n 5 | tr '\n' '|')"
    fi
else
    echo "SKIP: systemd-analyze verify (no systemd-analyze; Debian's systemd has it)"
fi

# has FILE NAME LINE...: every LINE is a line of FILE.
has ()
{
    file=$1 name=$2
    shift 2
    for l in "$@"; do
        grep -q -x -F -e "$l" "$file" || { fail "$name: no line '$l'"; return; }
    done
    pass "$name"
}
has "$service" "the service samples for 60 seconds, accumulates and exports" \
    "            -o /var/lib/prometheus/node-exporter/fastcopy.prom total.csv; \\"
# What accumulate does with each kind of sample: test-fleet.sh.
for prog in "fastcopy-sample -a -d 60 -o last.csv; \\" \
    "fastcopy-fleet accumulate -o total.csv last.csv; \\" \
    "fastcopy-fleet export \\"; do
    if grep -q -F -e "/$prog" "$service"; then
        pass "the service runs $(printf '%s' "$prog" | sed 's/[; \\]*$//')"
    else
        fail "the service does not run $(printf '%s' "$prog" | sed 's/[; \\]*$//')"
    fi
done
if grep -q '@' "$service"; then
    fail "the service has an unreplaced @...@: $(grep '@' "$service")"
else
    pass "the build named the programs' directory"
fi
has "$service" "the service's time is bounded" "Type=exec" "RuntimeMaxSec=300"
has "$service" "the service states its privileges" "User=root" \
    "CapabilityBoundingSet=CAP_PERFMON CAP_SYS_ADMIN CAP_SYS_PTRACE"
has "$service" "the service is hardened" "NoNewPrivileges=yes" \
    "ProtectSystem=strict" "PrivateTmp=yes" "PrivateNetwork=yes" \
    "ProtectHome=read-only" "StateDirectory=fastcopy/samples" \
    "ReadWritePaths=-/var/lib/prometheus/node-exporter"
# Under ProtectSystem=strict the sampler's cost table is written only
# where CacheDirectory= opens /var/cache/fastcopy.
has "$service" "the service keeps the sampler's cost table" "CacheDirectory=fastcopy"
if grep -q '^\[Install\]' "$service"; then
    fail "the service has an [Install] section: only the timer is to be enabled"
else
    pass "the service has no [Install] section: only the timer starts it"
fi
has "$timer" "the timer runs it every hour and is the unit to enable" \
    "OnUnitActiveSec=1h" "[Install]" "WantedBy=timers.target"

# The packages: dh_installsystemd told not to enable or start; the RPM
# runs no systemctl and no preset (%systemd_post would apply the
# distribution's presets).  A release tarball has no debian/ and no rpm/
# (the packages are built from the checkout): there, these two are not
# checked.
if [ -r "$srcdir/debian/rules" ]; then
    if grep -q -x -F '	dh_installsystemd --no-enable --no-start' "$srcdir/debian/rules"; then
        pass "debian/rules: the units are neither enabled nor started on install"
    else
        fail "debian/rules does not run dh_installsystemd --no-enable --no-start"
    fi
fi
if [ -r "$srcdir/rpm/libfastcopy.spec" ]; then
    if grep -q -E 'systemctl|%systemd_post|%\{\?systemd_post' "$srcdir/rpm/libfastcopy.spec"; then
        fail "rpm/libfastcopy.spec enables or presets a unit: $(grep -E 'systemctl|systemd_post' "$srcdir/rpm/libfastcopy.spec")"
    else
        pass "rpm/libfastcopy.spec enables no unit on install"
    fi
fi
finish
