#!/bin/bash
# SPDX-License-Identifier: MIT
# End-to-end test of the libfastcopy packages: install, enable, use, upgrade,
# remove and purge them on a throwaway copy of this machine.
#
#   packaging/e2e-test.sh [PKGDIR]    (default /tmp/fastcopy-packages, as
#                                      made by packaging/build-packages.sh)
#
# Upgrades are tried with versions the test makes from the built packages:
# the same files with a higher version (a good upgrade), and a version whose
# library aborts every process that loads it (a broken one).  A good
# upgrade must bring the preload back exactly as it was, a broken one must
# leave the system working with the preload disabled and say so.  Changes
# of the C library are tried too: libc6 reinstalled (its file trigger), and
# stand-in glibc RPMs (the spec's triggers on glibc).
#
# Runs as root.  The machine's own /etc/ld.so.preload, dpkg and rpm
# databases are never touched: the script re-runs itself in a private mount
# namespace (unshare -m), mounts an overlay whose lower layer is the host's
# root file system and whose upper layer is a tmpfs, and chroots into it.
# Everything written (packages, /etc/ld.so.preload, databases) lands in the
# tmpfs and disappears with the namespace.  It checks at the end that the
# host's /etc/ld.so.preload is unchanged.
#
# Prints PASS/FAIL lines (INFO for documented limitations) and exits 1 when
# anything failed.
set -u

# --- inside the namespace ----------------------------------------------------------
if [ "${1:-}" = --inside ]; then
W=$2 PKG=$3
R=$W/root
results=$W/results
pass () { echo "PASS: $*"; echo pass >>"$results"; }
fail () { echo "FAIL: $*"; echo fail >>"$results"; }
info () { echo "INFO: $*"; }
section () { printf '\n--- %s\n' "$*"; }
check () { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
# enabled_64 STATUS OUTPUT: fastcopy-preload status found the 64-bit
# library enabled and passing: exit 0, or 6 with the line saying that the
# root's 32-bit programs (gcc-multilib's loader, say) get no i386 library.
# fleet_units_disabled DIR: fastcopy-fleet.service and .timer are in DIR
# of the root, and nothing enables them (the timer is the one with an
# [Install] section).
fleet_units_disabled ()
{
    [ -f "$R$1/fastcopy-fleet.service" ] && [ -f "$R$1/fastcopy-fleet.timer" ] &&
        [ "$(systemctl --root="$R" is-enabled fastcopy-fleet.timer 2>&1)" = disabled ] &&
        ! ls "$R"/etc/systemd/system/*.wants/fastcopy-fleet.* >/dev/null 2>&1
}
enabled_64 () { [ "$1" -eq 0 ] || { [ "$1" -eq 6 ] && grep -q "for 32-bit programs" "$2"; }; }

# The throwaway root: the host's root file system under a tmpfs overlay.
mkdir -p "$W/upper" "$R"
mount -t tmpfs -o mode=0755 e2e-upper "$W/upper" || { fail "cannot mount a tmpfs"; exit 1; }
mkdir "$W/upper/data" "$W/upper/work"
if ! mount -t overlay e2e-root -o "lowerdir=/,upperdir=$W/upper/data,workdir=$W/upper/work" "$R"; then
    fail "cannot mount an overlay of / (needs overlayfs and CAP_SYS_ADMIN)"
    exit 1
fi
mount -t proc proc "$R/proc"
mount --rbind /dev "$R/dev"
mount -t tmpfs -o mode=1777 e2e-tmp "$R/tmp"
mkdir -p "$R/tmp/e2e"
cp -r "$W/debs/." "$R/tmp/e2e/"
[ -d "$W/rpms" ] && cp -r "$W/rpms/." "$R/tmp/e2e/"
[ -d "$W/libc6" ] && cp -r "$W/libc6" "$R/tmp/e2e/"
install -m 0755 "$W/helpers/fc-e2e-probe" "$W/helpers/fc-e2e-lands" "$R/usr/local/bin/"
install -m 0644 "$W/helpers/libe2e-other.so" "$W/helpers/libe2e-crash.so" \
    "$W/helpers/libe2e-picky.so" "$R/usr/local/lib/"
[ -d "$W/i386" ] && cp -r "$W/i386" "$R/tmp/e2e/"
# A setuid-root copy of the probe and of sleep (whose /proc/PID/maps we read).
install -m 4755 "$W/helpers/fc-e2e-probe" "$R/usr/local/bin/fc-e2e-probe-suid"
install -m 4755 "$W/helpers/fc-e2e-lands" "$R/usr/local/bin/fc-e2e-lands-suid"
install -m 4755 "$R/bin/sleep" "$R/usr/local/bin/fc-e2e-sleep-suid"

inroot ()
{
    env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LC_ALL=C HOME=/root DEBIAN_FRONTEND=noninteractive chroot "$R" "$@"
}
as_nobody () { inroot setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
P=$R/etc/ld.so.preload
LIBDIR=/usr/lib/x86_64-linux-gnu

# bytes FILE: its contents as od sees them, or ABSENT.
bytes () { if [ -e "$1" ]; then od -An -c "$1"; else echo ABSENT; fi; }
same_bytes () { [ "$(bytes "$1")" = "$(bytes "$2")" ]; }

# Programs that must behave exactly as without libfastcopy: name, command.
programs=(
    "true"              "/bin/true"
    "sh"                "echo ok"
    "bash"              "bash -c 'echo \$((6 * 7))'"
    "coreutils"         "printf 'b\\na\\n' | sort | tr a-z A-Z; ls -d /etc /usr; seq 3 | paste -sd+"
    "gzip"              "head -c 100000 /usr/bin/bash | gzip -c | gunzip -c | cmp - /usr/bin/bash 2>&1 | head -c 0; echo gz"
    "perl"              "perl -e 'print \"x\" x 3, \"\\n\"'"
    "python3"           "python3 -c 'print(sum(range(10)), bytes(3))'"
    "C++ (apt-cache)"   "apt-cache policy libc6 | head -n 3"
    "dpkg-query"        "dpkg-query -W -f='\${Package}\\n' libc6:amd64"
    "setuid passwd"     "setpriv --reuid=65534 --regid=65534 --clear-groups passwd --help"
    "setuid su"         "setpriv --reuid=65534 --regid=65534 --clear-groups su --help"
    "setuid mount"      "setpriv --reuid=65534 --regid=65534 --clear-groups mount --version"
)

# run_programs DIR: run each program in the root, keep stdout/stderr/status.
run_programs ()
{
    mkdir -p "$1"
    local i name
    for ((i = 0; i < ${#programs[@]}; i += 2)); do
        name=${programs[i]}
        inroot /bin/sh -c "${programs[i + 1]}" >"$1/$name.out" 2>"$1/$name.err" </dev/null
        echo $? >"$1/$name.rc"
    done
}

# compare_programs DIR [LABEL]: each program as in the baseline, with no
# error output.  One PASS/FAIL line per program, or one line for all of
# them under LABEL.
compare_programs ()
{
    local i name bad failures=
    for ((i = 0; i < ${#programs[@]}; i += 2)); do
        name=${programs[i]} bad=
        cmp -s "$W/base/$name.out" "$1/$name.out" || bad="its output differs"
        cmp -s "$W/base/$name.rc" "$1/$name.rc" || bad="exit status $(cat "$1/$name.rc") instead of $(cat "$W/base/$name.rc")"
        [ -s "$1/$name.err" ] && ! cmp -s "$W/base/$name.err" "$1/$name.err" && bad="it printed: $(head -c 300 "$1/$name.err")"
        if [ -n "${2:-}" ]; then
            [ -z "$bad" ] || failures="$failures; $name: $bad"
        elif [ -z "$bad" ]; then
            pass "$name: same output and exit status as without libfastcopy, nothing extra on stderr"
        else
            fail "$name: $bad"
        fi
    done
    if [ -n "${2:-}" ]; then
        if [ -z "$failures" ]; then
            pass "$2: all $((${#programs[@]} / 2)) programs behave exactly as without libfastcopy"
        else
            fail "$2:${failures#;}"
        fi
    fi
}

# Background sampler: starts /bin/true in the root again and again while a
# package operation runs; any ld.so error or failure is recorded.
sampler_start ()
{
    rm -f "$W/stop"; : >"$W/sampler.err"
    (
        n=0
        while [ ! -e "$W/stop" ]; do
            inroot /bin/true 2>>"$W/sampler.err" || echo "/bin/true failed: $?" >>"$W/sampler.err"
            n=$((n + 1))
        done
        echo $n >"$W/sampler.n"
    ) &
    sampler=$!
}
sampler_stop ()
{
    touch "$W/stop"; wait "$sampler"
    if [ -s "$W/sampler.err" ]; then
        fail "$1: programs started meanwhile ($(cat "$W/sampler.n") of them) reported: $(sort -u "$W/sampler.err" | head -c 400)"
    else
        pass "$1: $(cat "$W/sampler.n") programs started meanwhile, none reported anything"
    fi
}

# no_ldso_errors NAME LOG: the package manager's output (its maintainer
# scripts run many programs) has no ld.so error in it.
no_ldso_errors ()
{
    local errors='ERROR: ld\.so|error while loading shared libraries'
    if grep -Eq "$errors" "$2"; then
        fail "$1: ld.so complained: $(grep -E "$errors" "$2" | head -n 3)"
    else
        pass "$1: no ld.so error in the package manager's output"
    fi
}

# watched LABEL LOG COMMAND...: run the package manager's COMMAND in the
# root, its output in LOG, while the sampler starts programs; then check
# that they and the output are free of ld.so errors.  $st is COMMAND's
# exit status.
watched ()
{
    local label=$1 log=$2
    shift 2
    sampler_start
    inroot "$@" >"$log" 2>&1
    st=$?
    sampler_stop "$label"
    no_ldso_errors "$label" "$log"
}

# mapped_in PID: libfastcopy is mapped into process PID.
mapped_in () { grep -q 'libfastcopy\.so' "/proc/$1/maps" 2>/dev/null; }
# setuid_mapped PID: within 10 s, PID runs with real uid 65534 and effective
# uid 0 (the setuid program has been exec'd) and has libfastcopy mapped.
setuid_mapped ()
{
    local i
    for ((i = 0; i < 100; i++)); do
        uids=$(awk '/^Uid:/ { print $2, $3 }' "/proc/$1/status" 2>/dev/null)
        [ "$uids" = "65534 0" ] && mapped_in "$1" && return 0
        sleep 0.1
    done
    return 1
}

# The preload file an administrator already had: a comment that mentions
# libfastcopy, a blank line, another package's library twice (space, tab and
# colon separated) and no newline at the end.  Only one comment: glibc 2.36's
# ld.so does not blank out later comments reliably (rtld.c's comment loop
# never advances its start pointer), so a file with several comments makes
# every program print "cannot be preloaded" errors for the words in them.
before_content='# local preload list; libfastcopy.so.1 is not enabled here yet

/usr/local/lib/libe2e-other.so	/usr/local/lib/libe2e-other.so:/usr/local/lib/libe2e-other.so'
printf '%s' "$before_content" >"$W/before"

for p in libfastcopy1 libfastcopy-dev fastcopy-tools; do
    if inroot dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q installed; then
        inroot dpkg --purge --force-all "$p" >/dev/null 2>&1
    fi
done

section "Debian: install, enable, use, upgrade, remove (an existing preload file)"
cp "$W/before" "$P"
run_programs "$W/base"

# The three packages (not the -dbgsym ones).
debs () { ls "$R/tmp/e2e/$1"/{libfastcopy1,libfastcopy-dev,fastcopy-tools}_*.deb | sed "s|^$R||"; }
deb_v1=$(debs deb)
deb_v2=$(debs deb-up)
deb_broken=$(debs deb-broken)
deb_good=$(debs deb-good)
# shellcheck disable=SC2086
inroot dpkg -i $deb_v1 >"$W/dpkg-install.log" 2>&1
check "dpkg -i libfastcopy1 libfastcopy-dev fastcopy-tools" [ $? -eq 0 ]
no_ldso_errors "install" "$W/dpkg-install.log"
check "installing does not enable the preload (/etc/ld.so.preload unchanged)" same_bytes "$W/before" "$P"
inroot fastcopy-preload status >"$W/status.out"; st=$?
check "fastcopy-preload status says 'not enabled' (exit $st, wanted 3): $(head -n 1 "$W/status.out")" [ $st -eq 3 ]
check "the fleet service and timer are installed disabled and not started" \
    fleet_units_disabled /lib/systemd/system

inroot fastcopy-preload enable >"$W/enable.out" 2>&1; st=$?
check "fastcopy-preload enable (exit $st): $(grep -m1 enabled "$W/enable.out")" [ $st -eq 0 ]
{ cat "$W/before"; printf '\n%s' '/usr/$LIB/libfastcopy.so.1'; } >"$W/enabled"
check "enable appended exactly '\\n/usr/\$LIB/libfastcopy.so.1', every other byte kept" same_bytes "$W/enabled" "$P"
inroot fastcopy-preload enable >/dev/null 2>&1
check "enable again changes nothing (idempotent)" same_bytes "$W/enabled" "$P"
inroot fastcopy-preload status >"$W/status.out"; st=$?
check "status says enabled (exit $st; 6 when the root runs 32-bit programs, which get no i386 library yet): $(sed -n 2p "$W/status.out")" \
    enabled_64 $st "$W/status.out"
leftover=$(ls -A "$R/etc" | grep -c '^\.ld\.so\.preload\.' || :)
check "no temporary file left in /etc" [ "$leftover" -eq 0 ]

run_programs "$W/enabled-run"
compare_programs "$W/enabled-run"

inroot cat /proc/self/maps >"$W/maps"
check "a program started now maps libfastcopy: $(grep -m1 -o '/[^ ]*libfastcopy[^ ]*' "$W/maps")" grep -q "$LIBDIR/libfastcopy.so.1" "$W/maps"
inroot env LD_DEBUG=bindings sort </dev/null 2>&1 | grep -E "libfastcopy\.so\.1.*symbol \`(memcpy|memmove|memset)'" >"$W/bindings"
check "sort's memcpy/memmove/memset bind to libfastcopy (LD_DEBUG=bindings: $(head -n 1 "$W/bindings" | sed 's/^ *[0-9]*:\s*//'))" [ -s "$W/bindings" ]

out=$(as_nobody /usr/local/bin/fc-e2e-probe-suid 2>&1)
check "setuid-root probe run by uid 65534 (AT_SECURE): $out" \
    [ "$out" = "secure=1 ruid=65534 euid=0 libfastcopy=$LIBDIR/libfastcopy.so.1 memcpy=$LIBDIR/libfastcopy.so.1 copy=ok" ]
out=$(inroot /usr/local/bin/fc-e2e-probe 2>&1)
check "the same probe, not setuid: $out" \
    [ "$out" = "secure=0 ruid=0 euid=0 libfastcopy=$LIBDIR/libfastcopy.so.1 memcpy=$LIBDIR/libfastcopy.so.1 copy=ok" ]

# The way back to glibc for one process, under the root's preload: where
# memcpy's and memset's code runs (the instruction that faults on an
# unreadable page), and what the library reports.
out=$(inroot env FASTCOPY=glibc=on /usr/local/bin/fc-e2e-lands 2>&1)
check "FASTCOPY=glibc=on under /etc/ld.so.preload: memcpy and memset run libc.so.6's code: $out" \
    [ "$out" = "secure=0 memcpy=libc.so.6 memset=libc.so.6" ]
out=$(inroot /usr/local/bin/fc-e2e-lands 2>&1)
check "without it they run libfastcopy's: $out" \
    [ "$out" = "secure=0 memcpy=libfastcopy.so.1 memset=libfastcopy.so.1" ]
out=$(as_nobody env FASTCOPY=glibc=on /usr/local/bin/fc-e2e-lands-suid 2>&1)
check "a setuid-root copy run by uid 65534 ignores FASTCOPY=glibc=on: $out" \
    [ "$out" = "secure=1 memcpy=libfastcopy.so.1 memset=libfastcopy.so.1" ]
out=$(inroot env FASTCOPY=glibc=on fastcopy-info 2>&1 | sed -n '/^selected:/,/^$/p' | awk 'NF > 1 { print $2 }' | sort -u)
check "fastcopy-info with FASTCOPY=glibc=on: every function's implementation is glibc ('$(echo $out)')" \
    [ "$out" = glibc ]
out=$(inroot env FASTCOPY=glibc=on sort </dev/null 2>&1); st=$?
check "sort with FASTCOPY=glibc=on: exit $st, no output: '$out'" eval '[ $st -eq 0 ] && [ -z "$out" ]'

# (Started without a shell function in between, so that $! is the program.)
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin chroot "$R" setpriv --reuid=65534 --regid=65534 --clear-groups \
    /usr/local/bin/fc-e2e-sleep-suid 30 &
pid=$!
setuid_mapped $pid; st=$?
check "setuid-root copy of sleep (real, effective uid: '$uids') has libfastcopy mapped" [ $st -eq 0 ]
kill $pid; wait $pid 2>/dev/null
mkfifo "$R/tmp/e2e/fifo"
env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin chroot "$R" setpriv --reuid=65534 --regid=65534 --clear-groups \
    su root -c true 0<>"$R/tmp/e2e/fifo" >"$W/su.out" 2>&1 &
pid=$!
setuid_mapped $pid; st=$?
check "su (setuid root) run by uid 65534, waiting for a password: libfastcopy mapped (real, effective uid: '$uids')" [ $st -eq 0 ]
kill $pid; wait $pid 2>/dev/null

section "Debian: a good upgrade with the preload enabled"
# shellcheck disable=SC2086
watched "upgrade with the preload enabled" "$W/dpkg-upgrade.log" dpkg -i $deb_v2
check "dpkg -i (upgrade to $(inroot dpkg-query -W -f='${Version}' libfastcopy1))" [ $st -eq 0 ]
check "the preinst took the entry out before the unpack: $(grep -m1 'took libfastcopy out' "$W/dpkg-upgrade.log")" \
    grep -q 'took libfastcopy out of /etc/ld.so.preload during the upgrade' "$W/dpkg-upgrade.log"
check "the postinst tested the new library and put it back: $(grep -m1 'passed its test' "$W/dpkg-upgrade.log")" \
    grep -q 'the new library passed its test; /etc/ld.so.preload is as before the upgrade' "$W/dpkg-upgrade.log"
check "after the upgrade /etc/ld.so.preload is byte-identical to before it" same_bytes "$W/enabled" "$P"
check "no copy left in /var/lib/libfastcopy" eval '[ -z "$(ls -A "$R/var/lib/libfastcopy" 2>/dev/null)" ]'
inroot fastcopy-preload status >"$W/status-up.out"; st=$?
check "status after the upgrade: enabled, the library passes the test (exit $st)" enabled_64 $st "$W/status-up.out"
run_programs "$W/upgraded-run"
compare_programs "$W/upgraded-run" "after the upgrade"

section "Debian: a broken upgrade with the preload enabled"
# shellcheck disable=SC2086
watched "upgrade to a library that aborts every process" "$W/dpkg-broken.log" dpkg -i $deb_broken
check "dpkg -i of the broken version $(inroot dpkg-query -W -f='${Version}' libfastcopy1) succeeds (exit $st)" [ $st -eq 0 ]
check "the postinst says the new library failed its test and stays out: $(grep -m1 'FAILED its test' "$W/dpkg-broken.log")" \
    eval 'grep -q "killed by signal 6 (SIGABRT)" "$W/dpkg-broken.log" && grep -q "FAILED its test" "$W/dpkg-broken.log" &&
          grep -q "stays out of /etc/ld.so.preload" "$W/dpkg-broken.log"'
check "the preload is disabled: /etc/ld.so.preload is as before enable" same_bytes "$W/before" "$P"
inroot fastcopy-preload status >/dev/null 2>&1; st=$?
check "status: not enabled (exit $st)" [ $st -eq 3 ]
run_programs "$W/broken-run"
compare_programs "$W/broken-run" "with the broken library installed"
inroot fastcopy-preload enable >"$W/enable-broken.out" 2>&1; st=$?
check "enable refuses the broken library (exit $st)" eval '[ $st -ne 0 ] && same_bytes "$W/before" "$P"'

section "Debian: a good version over the broken one, enabled again"
# shellcheck disable=SC2086
inroot dpkg -i $deb_good >"$W/dpkg-good.log" 2>&1
check "dpkg -i of the good version $(inroot dpkg-query -W -f='${Version}' libfastcopy1)" [ $? -eq 0 ]
check "an upgrade does not enable a preload that was disabled" same_bytes "$W/before" "$P"
inroot fastcopy-preload -q enable; st=$?
check "enable (exit $st)" eval '[ $st -eq 0 ] && same_bytes "$W/enabled" "$P"'

section "Debian: libc6 changes under the enabled preload (its file trigger)"
# libc_changed LOG: libc6's files change: the .deb reinstalled when the
# host had it to give, else its file trigger activated by hand.
libc_changed ()
{
    if [ -n "$libc_deb" ]; then
        inroot dpkg -i "$libc_deb" >"$1" 2>&1
    else
        { inroot dpkg-trigger --no-await /usr/lib/x86_64-linux-gnu/libc.so.6 &&
          inroot dpkg --triggers-only --pending; } >"$1" 2>&1
    fi
}
libc_deb=$(cd "$R" 2>/dev/null && ls tmp/e2e/libc6/libc6_*.deb 2>/dev/null | sed 's|^|/|' | head -n 1)
[ -n "$libc_deb" ] || info "no libc6 .deb from the host: activating libc6's file trigger with dpkg-trigger instead"
if [ -n "$libc_deb" ]; then how="libc6 reinstalled"; else how="libc6's trigger processed"; fi
libc_changed "$W/libc6.log"; st=$?
check "$how (exit $st)" [ $st -eq 0 ]
check "the trigger ran the test, which passes: $(grep -m1 'C library changed' "$W/libc6.log")" \
    grep -q 'the C library changed; .* still passes its test' "$W/libc6.log"
check "... and the preload stays enabled, the file unchanged" same_bytes "$W/enabled" "$P"
# A library that fails the test once libc6 changed.  Stand-in: one that
# aborts only in processes that have it in LD_PRELOAD, as the test runs
# it, so that dpkg itself, which gets it from /etc/ld.so.preload, lives.
cp "$R/usr/local/lib/libe2e-picky.so" "$R$LIBDIR/libfastcopy.so.1.0.0"
libc_changed "$W/libc6-fail.log"; st=$?
check "libc6 changed again (exit $st)" [ $st -eq 0 ]
check "the trigger's test fails and takes the preload out: $(grep -m1 'FAILS its test' "$W/libc6-fail.log")" \
    eval 'grep -q "FAILS its test" "$W/libc6-fail.log" && same_bytes "$W/before" "$P"'
# shellcheck disable=SC2086
inroot dpkg -i $deb_good >/dev/null 2>&1 && inroot fastcopy-preload -q enable
check "the good library back and enabled" same_bytes "$W/enabled" "$P"

# The configuration file fastcopy-tune writes: kept on removal, gone with
# purge (fastcopy.conf(5)).
inroot fastcopy-tune --set copy=erms --write >/dev/null 2>&1
check "fastcopy-tune --write creates /etc/fastcopy.conf" [ -f "$R/etc/fastcopy.conf" ]
inroot dpkg -r fastcopy-tools libfastcopy-dev >"$W/dpkg-r-tools.log" 2>&1
check "dpkg -r fastcopy-tools libfastcopy-dev" [ $? -eq 0 ]
check "removing the tools (fastcopy-preload with them) leaves the preload enabled" same_bytes "$W/enabled" "$P"
check "fastcopy-preload is gone now" [ ! -e "$R/usr/sbin/fastcopy-preload" ]

watched "removal of libfastcopy1 (entry first, then the library)" "$W/dpkg-r.log" dpkg -r libfastcopy1
check "dpkg -r libfastcopy1, whose prerm works without fastcopy-tools" [ $st -eq 0 ]
check "after removal /etc/ld.so.preload is byte-identical to before the install" same_bytes "$W/before" "$P"
check "the library is gone" [ ! -e "$R$LIBDIR/libfastcopy.so.1" ]
check "removal keeps /etc/fastcopy.conf" [ -f "$R/etc/fastcopy.conf" ]
inroot dpkg -P libfastcopy1 >"$W/dpkg-P.log" 2>&1
check "dpkg -P libfastcopy1" [ $? -eq 0 ]
check "purge removes /etc/fastcopy.conf and /var/lib/libfastcopy" \
    eval '[ ! -e "$R/etc/fastcopy.conf" ] && [ ! -e "$R/var/lib/libfastcopy" ]'
check "after purge /etc/ld.so.preload is still byte-identical to before" same_bytes "$W/before" "$P"
check "dpkg no longer knows libfastcopy1" eval '! inroot dpkg-query -W -f="\${Status}" libfastcopy1 2>/dev/null | grep -q "ok installed\|config-files"'
run_programs "$W/removed-run"
compare_programs "$W/removed-run" "after removal"

section "Debian: no preload file before; purge everything at once"
rm -f "$P"
# shellcheck disable=SC2086
inroot dpkg -i $deb_v1 >/dev/null 2>&1
check "install (no /etc/ld.so.preload before)" [ $? -eq 0 ]
check "installing does not create /etc/ld.so.preload" [ ! -e "$P" ]
inroot fastcopy-preload enable >/dev/null 2>&1
check "enable creates it with just the entry" [ "$(cat "$P")" = '/usr/$LIB/libfastcopy.so.1' ]
check "... mode 0644, owner root" [ "$(stat -c '%a %U' "$P")" = "644 root" ]
inroot dpkg -P fastcopy-tools libfastcopy-dev libfastcopy1 >"$W/dpkg-P-all.log" 2>&1
check "dpkg -P of all three packages" [ $? -eq 0 ]
no_ldso_errors "purge" "$W/dpkg-P-all.log"
check "purge removed the file libfastcopy was the only entry of (as before the install)" [ ! -e "$P" ]

section "A broken preload, and how to get out of it"
cp "$W/before" "$P"
# shellcheck disable=SC2086
inroot dpkg -i $deb_v1 >/dev/null 2>&1 && inroot fastcopy-preload -q enable
# Simulate a library that kills every process that loads it.
cp "$R/usr/local/lib/libe2e-crash.so" "$R$LIBDIR/libfastcopy.so.1.0.0"
inroot /bin/true 2>/dev/null; st=$?
check "with a crashing library preloaded every dynamic program dies (/bin/true: exit $st)" [ $st -ne 0 ]
/lib64/ld-linux-x86-64.so.2 --help >/dev/null 2>&1 &&
    { inroot /lib64/ld-linux-x86-64.so.2 /bin/true 2>/dev/null; st=$?
      check "running it through ld.so directly does not bypass /etc/ld.so.preload (exit $st)" [ $st -ne 0 ]; }
mount --bind /dev/null "$P"
out=$(inroot /bin/sh -c 'echo ok' 2>&1); st=$?
check "a mount namespace with /dev/null over /etc/ld.so.preload opts a process out (what systemd's BindReadOnlyPaths=/dev/null:/etc/ld.so.preload does): '$out'" \
    eval '[ $st -eq 0 ] && [ "$out" = ok ]'
umount "$P"
out=$(inroot fastcopy-preload status 2>&1); st=$?
check "the static fastcopy-preload still runs; status says the library fails the test (exit $st)" [ $st -eq 5 ]
out=$(inroot fastcopy-preload disable 2>&1); st=$?
check "fastcopy-preload disable repairs it (exit $st)" [ $st -eq 0 ]
out=$(inroot /bin/sh -c 'echo ok' 2>&1); st=$?
check "programs run again: '$out'" eval '[ $st -eq 0 ] && [ "$out" = ok ]'
check "... and the file is as before" same_bytes "$W/before" "$P"
out=$(inroot fastcopy-preload enable 2>&1); st=$?
check "enable refuses the crashing library (exit $st): $(echo "$out" | grep -m1 'fastcopy-preload:')" [ $st -ne 0 ]
check "... and leaves the file alone" same_bytes "$W/before" "$P"
# Offline repair, as from rescue media: the package's static binary, run
# from outside, on the root directory.
cp "$W/enabled" "$P"
"$R/usr/sbin/fastcopy-preload" --root "$R" disable >/dev/null 2>&1; st=$?
check "fastcopy-preload --root DIR disable repairs a root from outside (exit $st)" \
    eval '[ $st -eq 0 ] && same_bytes "$W/before" "$P"'
inroot dpkg -P fastcopy-tools libfastcopy-dev libfastcopy1 >"$W/dpkg-P-broken.log" 2>&1
check "purge after the repair" [ $? -eq 0 ]

# --- Debian, both ABIs ---------------------------------------------------------------
# libfastcopy1:amd64 and libfastcopy1:i386 together: the one entry
# /usr/$LIB/libfastcopy.so.1 serves 64-bit and 32-bit programs.
if [ -d "$R/tmp/e2e/i386" ]; then
    section "Debian: both ABIs (libfastcopy1:amd64 and libfastcopy1:i386), 32-bit and 64-bit programs"
    I=/tmp/e2e/i386
    # run32 COMMAND...: COMMAND in the root, where 32-bit programs run:
    # natively when the kernel runs them, else under qemu-i386-static
    # through a binfmt_misc instance of a private user namespace (Linux
    # 6.7 and later), so that the host's binfmt settings are untouched.
    # dpkg runs this way too, so that its scripts test the i386 library.
    run32 ()
    {
        if [ "$(cat "$R$I/native")" = yes ]; then
            inroot "$@"
            return
        fi
        unshare --user --map-root-user --mount -- sh -c '
            mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc &&
                printf "%s" "$1" >/proc/sys/fs/binfmt_misc/register || exit 125
            shift
            exec "$@"' sh \
            ':fc-e2e-i386:M::\x7fELF\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\x03\x00:\xff\xff\xff\xff\xff\xfe\xfe\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-i386-static:F' \
            env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
            LC_ALL=C HOME=/root DEBIAN_FRONTEND=noninteractive chroot "$R" "$@"
    }
    # 32-bit programs: name, command (the C library's banner, a plain
    # program, and the probe, which says where memcpy came from).
    programs32=(
        "libc.so.6 (i386)"  "/lib/i386-linux-gnu/libc.so.6"
        "hello32"           "$I/hello32"
        "probe32"           "$I/fc-e2e-probe32"
    )
    # run32_programs DIR: each 32-bit program's output, error output and
    # exit status in DIR.
    run32_programs ()
    {
        local i
        mkdir -p "$1"
        for ((i = 0; i < ${#programs32[@]}; i += 2)); do
            run32 ${programs32[i + 1]} >"$1/${programs32[i]}.out" 2>"$1/${programs32[i]}.err" </dev/null
            echo $? >"$1/${programs32[i]}.rc"
        done
    }
    # same32 DIR: each 32-bit program as in $W/base32 (the probe: the same
    # apart from where memcpy comes from), with nothing on stderr.
    same32 ()
    {
        local i name bad failures=
        for ((i = 0; i < ${#programs32[@]}; i += 2)); do
            name=${programs32[i]} bad=
            if [ "$name" = probe32 ]; then
                sed -e 's/libfastcopy=[^ ]*//' -e 's/memcpy=[^ ]*//' "$W/base32/$name.out" >"$W/a32"
                sed -e 's/libfastcopy=[^ ]*//' -e 's/memcpy=[^ ]*//' "$1/$name.out" >"$W/b32"
                cmp -s "$W/a32" "$W/b32" || bad="its output differs: $(cat "$1/$name.out")"
            else
                cmp -s "$W/base32/$name.out" "$1/$name.out" || bad="its output differs: $(head -c 200 "$1/$name.out")"
            fi
            cmp -s "$W/base32/$name.rc" "$1/$name.rc" || bad="exit status $(cat "$1/$name.rc")"
            [ -s "$1/$name.err" ] && bad="it printed: $(head -c 300 "$1/$name.err")"
            [ -z "$bad" ] || failures="$failures; $name: $bad"
        done
        [ -z "$failures" ] || echo "${failures#; }"
    }
    # check32 LABEL DIR: one PASS/FAIL line for the 32-bit programs run
    # into DIR.
    check32 ()
    {
        local problems
        problems=$(same32 "$2")
        if [ -z "$problems" ]; then pass "$1"; else fail "$1: $problems"; fi
    }
    probe32_lib () { sed -n 's/.* memcpy=\([^ ]*\) .*/\1/p' "$1/probe32.out"; }
    # inside PATTERN: the root's files matching PATTERN, as paths in the root.
    # shellcheck disable=SC2086
    inside () { (cd "$R" && ls -d ${1#/}) | sed 's|^|/|'; }

    # A preload file with no other library in it: another package's
    # 64-bit-only entry would make every 32-bit program print an error of
    # its own.
    printf '# local settings\n' >"$W/before32"
    { cat "$W/before32"; printf '%s\n' '/usr/$LIB/libfastcopy.so.1'; } >"$W/enabled32"
    cp "$W/before32" "$P"
    inroot dpkg --add-architecture i386
    run32 dpkg -i $(inside "$I/libc/*.deb") >"$W/dpkg-libc-i386.log" 2>&1
    check "libc6:i386 at the host's libc6 version, in the root (dpkg -i: $(ls "$R$I/libc" | tr '\n' ' '| sed 's/ $//'))" [ $? -eq 0 ]
    run32_programs "$W/base32"
    check "without libfastcopy, 32-bit programs run: $(head -n 1 "$W/base32/hello32.out") / $(cat "$W/base32/probe32.out")" \
        eval '[ "$(cat "$W/base32/hello32.rc")" = 0 ] && [ ! -s "$W/base32/hello32.err" ] && grep -q "copy=ok" "$W/base32/probe32.out"'

    # The amd64 packages alone: enable warns about 32-bit programs, which
    # then print ld.so's error.
    inroot dpkg -i $deb_v1 >/dev/null 2>&1
    inroot fastcopy-preload enable >"$W/enable32.out" 2>&1; st=$?
    check "amd64 only: enable works (exit $st) and warns that 32-bit programs need libfastcopy1:i386: $(grep -m1 'libfastcopy1:i386' "$W/enable32.out")" \
        eval '[ $st -eq 0 ] && grep -q "libfastcopy1:i386" "$W/enable32.out"'
    inroot fastcopy-preload status >"$W/status32.out" 2>&1; st=$?
    check "amd64 only: status exits 6 (32-bit programs get no i386 library), got $st" [ $st -eq 6 ]
    run32 "$I/hello32" >/dev/null 2>"$W/hello32.err"
    check "amd64 only: a 32-bit program prints ld.so's error ('cannot be preloaded'): $(head -c 150 "$W/hello32.err")" \
        grep -q 'libfastcopy.so.1.*cannot be preloaded' "$W/hello32.err"

    # Both: no message from any 32-bit or 64-bit program.
    run32 dpkg -i $(inside "$I/deb/libfastcopy1_*_i386.deb") >"$W/dpkg-i386.log" 2>&1
    check "dpkg -i libfastcopy1:i386 next to libfastcopy1:amd64 (Multi-Arch: same)" [ $? -eq 0 ]
    no_ldso_errors "install of libfastcopy1:i386" "$W/dpkg-i386.log"
    run32 fastcopy-preload status >"$W/status32.out" 2>&1; st=$?
    check "both: status exits 0, the i386 library passes the test: $(grep -m1 '32-bit' "$W/status32.out" | sed 's/^ *//')" \
        eval '[ $st -eq 0 ] && grep -q "for 32-bit programs.*i386-linux-gnu/libfastcopy\.so\.1[.0-9]*: ok" "$W/status32.out"'
    run32_programs "$W/both32"
    check32 "both: 32-bit programs give the same output and exit status as without libfastcopy, nothing on stderr" "$W/both32"
    check "both: the 32-bit probe's memcpy comes from $(probe32_lib "$W/both32")" \
        [ "$(probe32_lib "$W/both32")" = /usr/lib/i386-linux-gnu/libfastcopy.so.1 ]
    run_programs "$W/both64"
    compare_programs "$W/both64" "both: 64-bit programs"

    # Both upgraded together, good: one suspend, one resume, which tests
    # both libraries (the i386 one under run32's 32-bit programs).
    run32 dpkg -i $(debs deb-v4) $(inside "$I/deb-v4/*.deb") >"$W/dpkg-up32.log" 2>&1; st=$?
    check "dpkg -i of both ABIs' packages, version $(inroot dpkg-query -W -f='${Version}' libfastcopy1:i386) (exit $st)" [ $st -eq 0 ]
    no_ldso_errors "upgrade of both ABIs" "$W/dpkg-up32.log"
    check "both upgraded: the entry is back, /etc/ld.so.preload as before the upgrade" same_bytes "$W/enabled32" "$P"
    run32_programs "$W/up32"
    check32 "both upgraded: 32-bit programs as without libfastcopy, nothing on stderr" "$W/up32"

    # A broken i386 library in an upgrade: its test fails (in a 32-bit
    # process), and the entry stays out for both ABIs.
    run32 dpkg -i $(debs deb-v5) $(inside "$I/deb-v5/*.deb") >"$W/dpkg-broken32.log" 2>&1; st=$?
    check "dpkg -i of a version whose i386 library aborts (exit $st)" [ $st -eq 0 ]
    check "the scripts say the i386 library FAILED its test and stays out: $(grep -m1 'FAILED its test' "$W/dpkg-broken32.log")" \
        eval 'grep -q "i386-linux-gnu/libfastcopy.so.1 FAILED its test" "$W/dpkg-broken32.log" &&
              grep -q "stays out of /etc/ld.so.preload" "$W/dpkg-broken32.log"'
    check "the preload is disabled: /etc/ld.so.preload as before enable" same_bytes "$W/before32" "$P"
    run32_programs "$W/broken32"
    check32 "with the broken i386 library installed, 32-bit programs still run as without libfastcopy" "$W/broken32"
    run_programs "$W/broken64"
    compare_programs "$W/broken64" "with the broken i386 library installed, 64-bit programs"

    # Good again, enabled; then the i386 package alone removed.
    run32 dpkg -i $(debs deb-v6) $(inside "$I/deb-v6/*.deb") >/dev/null 2>&1 && inroot fastcopy-preload -q enable 2>/dev/null
    check "good version of both again, enabled" same_bytes "$W/enabled32" "$P"
    watched "removal of libfastcopy1:i386" "$W/dpkg-r32.log" dpkg -r libfastcopy-dev:i386 libfastcopy1:i386
    check "dpkg -r libfastcopy-dev:i386 libfastcopy1:i386 (exit $st)" [ $st -eq 0 ]
    check "its prerm took the entry out (32-bit programs would get no library): /etc/ld.so.preload as before" \
        same_bytes "$W/before32" "$P"
    run32_programs "$W/removed32"
    check32 "after removing the i386 package, 32-bit programs as without libfastcopy, nothing on stderr" "$W/removed32"
    inroot dpkg -P fastcopy-tools libfastcopy-dev:amd64 libfastcopy1:amd64 libfastcopy1:i386 >"$W/dpkg-P32.log" 2>&1
    check "purge of both architectures' packages" [ $? -eq 0 ]
    check "after purge /etc/ld.so.preload is as before the install" same_bytes "$W/before32" "$P"
else
    info "no i386 packages, or no way to run 32-bit programs here: the two-ABI test is skipped"
fi

# --- RPM ----------------------------------------------------------------------------
if [ -d "$R/tmp/e2e/rpm" ] && inroot rpm --version >/dev/null 2>&1; then
    section "RPM: install, enable, use, upgrade, remove (rpm --nodeps in the same root)"
    rpms () { ls "$R/tmp/e2e/$1"/*.rpm | grep -v -e '\.src\.rpm$' -e debuginfo -e debugsource | sed "s|^$R||"; }
    rpm_v1=$(rpms rpm)
    rpm_v2=$(rpms rpm-up)
    rpm_broken=$(rpms rpm-broken)
    rpm_good=$(rpms rpm-good)
    RLIB=/usr/lib64
    cp "$W/before" "$P"
    inroot rpmdb --initdb >/dev/null 2>&1 || inroot rpm --initdb >/dev/null 2>&1
    # shellcheck disable=SC2086
    inroot rpm -i --nodeps $rpm_v1 >"$W/rpm-i.log" 2>&1
    check "rpm -i --nodeps libfastcopy libfastcopy-devel libfastcopy-tools" [ $? -eq 0 ]
    no_ldso_errors "rpm install" "$W/rpm-i.log"
    check "installing does not enable the preload" same_bytes "$W/before" "$P"
    check "the fleet service and timer are installed disabled" \
        fleet_units_disabled /usr/lib/systemd/system
    inroot fastcopy-preload enable >"$W/enable.out" 2>&1; st=$?
    check "enable (exit $st): $(grep -m1 -E 'enabled|note' "$W/enable.out")" [ $st -eq 0 ]
    # Debian's ld.so expands $LIB to lib/x86_64-linux-gnu, not lib64: the
    # RPM's tool writes the full path here (on Fedora: /usr/$LIB/...).
    { cat "$W/before"; printf '\n%s' "$RLIB/libfastcopy.so.1"; } >"$W/enabled-rpm"
    check "the entry is $RLIB/libfastcopy.so.1 (\$LIB is lib/x86_64-linux-gnu on this Debian root)" same_bytes "$W/enabled-rpm" "$P"
    out=$(as_nobody /usr/local/bin/fc-e2e-probe-suid 2>&1)
    check "setuid probe: $out" [ "$out" = "secure=1 ruid=65534 euid=0 libfastcopy=$RLIB/libfastcopy.so.1 memcpy=$RLIB/libfastcopy.so.1 copy=ok" ]
    run_programs "$W/rpm-run"
    compare_programs "$W/rpm-run" "RPM, preload enabled"
    # shellcheck disable=SC2086
    watched "rpm -U with the preload enabled" "$W/rpm-U.log" rpm -U --nodeps $rpm_v2
    check "rpm -U to release 2 ($(inroot rpm -q libfastcopy))" [ $st -eq 0 ]
    check "%pre took the entry out, %post tested the new library and put it back" \
        eval 'grep -q "took libfastcopy out" "$W/rpm-U.log" && grep -q "passed its test" "$W/rpm-U.log"'
    check "after the upgrade /etc/ld.so.preload is byte-identical to before it" same_bytes "$W/enabled-rpm" "$P"

    section "RPM: a broken upgrade with the preload enabled"
    # shellcheck disable=SC2086
    watched "rpm -U to a library that aborts every process" "$W/rpm-broken.log" rpm -U --nodeps $rpm_broken
    check "rpm -U to the broken release $(inroot rpm -q libfastcopy) succeeds (exit $st)" [ $st -eq 0 ]
    check "%post says the new library failed its test and stays out: $(grep -m1 'FAILED its test' "$W/rpm-broken.log")" \
        eval 'grep -q "FAILED its test" "$W/rpm-broken.log" && grep -q "stays out" "$W/rpm-broken.log"'
    check "the preload is disabled: /etc/ld.so.preload is as before enable" same_bytes "$W/before" "$P"
    run_programs "$W/rpm-broken-run"
    compare_programs "$W/rpm-broken-run" "RPM, broken library installed"
    # shellcheck disable=SC2086
    inroot rpm -U --nodeps $rpm_good >/dev/null 2>&1 && inroot fastcopy-preload -q enable
    check "a good release over it ($(inroot rpm -q libfastcopy)), enabled again" same_bytes "$W/enabled-rpm" "$P"

    section "RPM: glibc installed and upgraded under the enabled preload (triggers on glibc)"
    for rel in 1 2; do
        if [ $rel = 1 ]; then op=-i; else op=-U; fi
        inroot rpm $op --nodeps "/tmp/e2e/glibc/glibc-2.36-$rel.noarch.rpm" >"$W/rpm-glibc$rel.log" 2>&1
        check "rpm $op glibc-2.36-$rel (exit $?)" [ $? -eq 0 ]
        check "... the entry was out while glibc was unpacked and came back after the test" \
            eval 'grep -q "took libfastcopy out" "$W/rpm-glibc$rel.log" && grep -q "passed its test" "$W/rpm-glibc$rel.log"'
        check "... /etc/ld.so.preload byte-identical" same_bytes "$W/enabled-rpm" "$P"
    done
    # A library that fails its test once glibc changed (the stand-in of the
    # Debian part: it aborts only where LD_PRELOAD names it).
    cp "$R/usr/local/lib/libe2e-picky.so" "$R$RLIB/libfastcopy.so.1.0.0"
    inroot rpm -U --nodeps /tmp/e2e/glibc/glibc-2.36-3.noarch.rpm >"$W/rpm-glibc3.log" 2>&1
    check "rpm -U glibc-2.36-3 (exit $?)" [ $? -eq 0 ]
    check "the library fails its test after glibc changed: the entry stays out, with a message" \
        eval 'grep -q "FAILED its test" "$W/rpm-glibc3.log" && same_bytes "$W/before" "$P"'
    # shellcheck disable=SC2086
    inroot rpm -U --nodeps --replacepkgs $rpm_good >/dev/null 2>&1 && inroot fastcopy-preload -q enable
    check "the good library back and enabled" same_bytes "$W/enabled-rpm" "$P"

    section "RPM: remove"
    inroot fastcopy-tune --set copy=erms --write >/dev/null 2>&1
    check "fastcopy-tune --write creates /etc/fastcopy.conf" [ -f "$R/etc/fastcopy.conf" ]
    inroot rpm -e --nodeps libfastcopy-tools libfastcopy-devel >"$W/rpm-e-tools.log" 2>&1
    check "rpm -e libfastcopy-tools libfastcopy-devel" [ $? -eq 0 ]
    check "... leaves the preload enabled" same_bytes "$W/enabled-rpm" "$P"
    watched "rpm -e libfastcopy" "$W/rpm-e.log" rpm -e libfastcopy
    check "rpm -e libfastcopy (%preun with \$1 = 0, without the tools)" [ $st -eq 0 ]
    check "after rpm -e /etc/ld.so.preload is byte-identical to before the install" same_bytes "$W/before" "$P"
    check "the library is gone" [ ! -e "$R$RLIB/libfastcopy.so.1" ]
    check "rpm -e keeps /etc/fastcopy.conf (%ghost %config: the package owns it, the administrator's settings stay)" \
        [ -f "$R/etc/fastcopy.conf" ]
    check "no /var/lib/libfastcopy left" [ ! -e "$R/var/lib/libfastcopy" ]
else
    info "RPM part skipped: no packages in $PKG/rpm or no rpm program"
fi

exit 0
fi

# --- outside: prepare, run the inside in a private mount namespace, check the host --------
PKG=$(cd "${1:-/tmp/fastcopy-packages}" 2>/dev/null && pwd) ||
    { echo "FAIL: no package directory ${1:-/tmp/fastcopy-packages}"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "FAIL: run as root (it uses unshare, mount and chroot)"; exit 1; }
for t in unshare chroot setpriv gcc; do
    command -v $t >/dev/null || { echo "FAIL: $t is missing"; exit 1; }
done
ls "$PKG"/deb/*.deb >/dev/null 2>&1 ||
    { echo "FAIL: no .deb files in $PKG/deb (run packaging/build-packages.sh)"; exit 1; }

start=$(date +%s)
host_state () { if [ -e /etc/ld.so.preload ]; then stat -c '%i %s %Y %a' /etc/ld.so.preload; sha256sum </etc/ld.so.preload; else echo ABSENT; fi; }
host_before=$(host_state)
W=$(mktemp -d /tmp/fastcopy-e2e.XXXXXX)
# FASTCOPY_E2E_KEEP=1 keeps the logs (not the throwaway root) for a look.
[ "${FASTCOPY_E2E_KEEP:-0}" = 1 ] || trap 'rm -rf "$W"' EXIT
: >"$W/results"

mkdir "$W/helpers"
cat >"$W/helpers/probe.c" <<'EOF'
/* Which library the running process got memcpy from, whether libfastcopy
   is loaded (dl_iterate_phdr), and whether this is a secure-execution
   (setuid) process.  Prints one line.  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

static const char *fastcopy = "none";

static int
find (struct dl_phdr_info *info, size_t size, void *data)
{
  (void) size; (void) data;
  if (info->dlpi_name != NULL && strstr (info->dlpi_name, "libfastcopy.so") != NULL)
    fastcopy = info->dlpi_name;
  return 0;
}

int
main (void)
{
  dl_iterate_phdr (find, NULL);
  void *(*copy) (void *, const void *, size_t) = dlsym (RTLD_DEFAULT, "memcpy");
  Dl_info where = { 0 };
  const char *from = copy != NULL && dladdr ((void *) copy, &where) && where.dli_fname
    ? where.dli_fname : "?";
  char a[100], b[100] = { 0 };
  for (int i = 0; i < 100; i++)
    a[i] = (char) i;
  int ok = copy != NULL && copy (b, a, 77) == b && memcmp (a, b, 77) == 0 && b[77] == 0;
  printf ("secure=%lu ruid=%d euid=%d libfastcopy=%s memcpy=%s copy=%s\n",
          getauxval (AT_SECURE), (int) getuid (), (int) geteuid (), fastcopy, from,
          ok ? "ok" : "BAD");
  return 0;
}
EOF
cat >"$W/helpers/lands.c" <<'EOF'
/* Whose code memcpy and memset run in this process: each (as the process
   binds it) is called on a page that cannot be read or written, and the
   object holding the faulting instruction is named: "libc.so.6" when it
   is libc.so.6's own.  Prints one line.  */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <ucontext.h>

static sigjmp_buf back;
static volatile unsigned long pc;

static void
fault (int sig, siginfo_t *info, void *context)
{
  (void) sig; (void) info;
  pc = (unsigned long) ((ucontext_t *) context)->uc_mcontext.gregs[REG_RIP];
  siglongjmp (back, 1);
}

static const char *
object_of (unsigned long addr, const Dl_info *libc)
{
  Dl_info where;
  if (addr == 0 || !dladdr ((void *) addr, &where) || where.dli_fname == NULL)
    return "?";
  if (where.dli_fbase == libc->dli_fbase)
    return "libc.so.6";
  const char *slash = strrchr (where.dli_fname, '/');
  return slash ? slash + 1 : where.dli_fname;
}

int
main (void)
{
  void *(*copy) (void *, const void *, size_t) = dlsym (RTLD_DEFAULT, "memcpy");
  void *(*set) (void *, int, size_t) = dlsym (RTLD_DEFAULT, "memset");
  void *libc_handle = dlopen ("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  Dl_info libc = { 0 };
  if (copy == NULL || set == NULL || libc_handle == NULL
      || !dladdr (dlsym (libc_handle, "memmove"), &libc))
    return 1;
  unsigned char *ok = mmap (NULL, 8192, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  unsigned char *bad = ok + 4096;
  mprotect (bad, 4096, PROT_NONE);
  static struct sigaction sa;
  sa.sa_sigaction = fault;
  sa.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigaction (SIGSEGV, &sa, NULL);
  unsigned long at[2] = { 0, 0 };
  for (int i = 0; i < 2; i++)
    {
      pc = 0;
      if (sigsetjmp (back, 1) == 0)
        {
          if (i == 0)
            copy (ok, bad, 256);
          else
            set (bad, 0x5a, 256);
        }
      at[i] = pc;
    }
  printf ("secure=%lu memcpy=%s memset=%s\n", getauxval (AT_SECURE),
          object_of (at[0], &libc), object_of (at[1], &libc));
  return 0;
}
EOF
printf 'int fc_e2e_other;\n' >"$W/helpers/other.c"
printf '#include <signal.h>\n__attribute__ ((constructor)) static void die (void) { raise (SIGSEGV); }\n' >"$W/helpers/crash.c"
printf '#include <stdio.h>\nint main (void) { puts ("hello"); return 0; }\n' >"$W/helpers/hello.c"
# The broken version's library: every process that loads it aborts.
printf '#include <stdlib.h>\n__attribute__ ((constructor)) static void die (void) { abort (); }\n' >"$W/helpers/broken.c"
# A library that fails the test but not the processes that get it from
# /etc/ld.so.preload: it aborts only where LD_PRELOAD names it, as in the
# test's processes.
printf '#include <stdlib.h>\n__attribute__ ((constructor)) static void die (void) { if (getenv ("LD_PRELOAD")) abort (); }\n' >"$W/helpers/picky.c"
if ! { gcc -O2 -o "$W/helpers/fc-e2e-probe" "$W/helpers/probe.c" &&
       gcc -O2 -o "$W/helpers/fc-e2e-lands" "$W/helpers/lands.c" &&
       gcc -shared -fPIC -o "$W/helpers/libe2e-other.so" "$W/helpers/other.c" &&
       gcc -shared -fPIC -o "$W/helpers/libe2e-crash.so" "$W/helpers/crash.c" &&
       gcc -shared -fPIC -Wl,-soname,libfastcopy.so.1 -o "$W/helpers/libe2e-broken.so" "$W/helpers/broken.c" &&
       gcc -shared -fPIC -Wl,-soname,libfastcopy.so.1 -o "$W/helpers/libe2e-picky.so" "$W/helpers/picky.c"; }; then
    echo "FAIL: cannot build the test helpers"; exit 1
fi

# The versions to upgrade to, made from the built packages.
# deb_repack VERSION DIR [LIBRARY]: the three .debs again with VERSION (and
# the dependencies between them), in $W/debs/DIR; with LIBRARY, that file
# takes the library's place.
version=$(dpkg-deb -f "$(ls "$PKG"/deb/libfastcopy1_*.deb)" Version)
deb_repack () { deb_repack_from "$PKG/deb" "$W/debs/$2" "$1" "${3:-}"; }
# deb_repack_from SRC OUT VERSION [LIBRARY]: the same for the packages in
# SRC (either architecture's), into OUT.
deb_repack_from ()
{
    local deb d pkg arch lib
    mkdir -p "$2"
    for deb in "$1"/{libfastcopy1,libfastcopy-dev,fastcopy-tools}_*.deb; do
        [ -e "$deb" ] || continue
        d=$W/repack/$(basename "$2")-$(basename "$deb" .deb)
        mkdir -p "$d"
        dpkg-deb -R "$deb" "$d"
        sed -i -e "s/^Version: .*/Version: $3/" -e "s/(= $version)/(= $3)/g" "$d/DEBIAN/control"
        lib=$(ls "$d"/usr/lib/*/libfastcopy.so.1.0.0 2>/dev/null)
        if [ -n "${4:-}" ] && [ -n "$lib" ]; then
            install -m 0644 "$4" "$lib"
            (cd "$d" && find usr -type f -exec md5sum {} + >DEBIAN/md5sums)
        fi
        pkg=$(dpkg-deb -f "$deb" Package) arch=$(dpkg-deb -f "$deb" Architecture)
        dpkg-deb --root-owner-group -b "$d" "$2/${pkg}_$3_$arch.deb" >/dev/null || return 1
    done
}
mkdir -p "$W/debs"
cp -r "$PKG/deb" "$W/debs/deb"
deb_repack "$version+e2e1" deb-up && deb_repack "$version+e2e2" deb-broken "$W/helpers/libe2e-broken.so" &&
    deb_repack "$version+e2e3" deb-good || { echo "FAIL: cannot repack the .debs"; exit 1; }

# rpm_repack RELEASE DIR [LIBRARY]: the binary RPMs of release 2 again
# with RELEASE, in $W/rpms/DIR, with LIBRARY in the library's place if
# given: their files, scriptlets and triggers, through a spec written from
# each package's header.
rpm_repack ()
{
    local rpm name top=$W/rpmrepack/$2 spec tag prog body flags perms path
    mkdir -p "$W/rpms/$2"
    for rpm in "$PKG"/rpm-up/*.rpm; do
        case $rpm in *-debuginfo-* | *-debugsource-*) continue ;; esac
        name=$(rpm -qp --qf '%{NAME}' "$rpm")
        mkdir -p "$top/$name/root"
        (cd "$top/$name/root" && rpm2cpio "$rpm" | cpio -idm --quiet) || return 1
        if [ -n "${3:-}" ] && [ -e "$top/$name/root/usr/lib64/libfastcopy.so.1.0.0" ]; then
            install -m 0755 "$3" "$top/$name/root/usr/lib64/libfastcopy.so.1.0.0"
        fi
        spec=$top/$name.spec
        {
            rpm -qp --qf 'Name: %{NAME}\nVersion: %{VERSION}\nSummary: %{SUMMARY}\nLicense: %{LICENSE}\n' "$rpm"
            printf 'Release: %s\nAutoReqProv: no\n%%description\nRepacked by packaging/e2e-test.sh.\n' "$1"
            printf '%%install\ncp -a %s/. %%{buildroot}/\n%%files\n' "$top/$name/root"
            # (The '-' keeps the flags a word when there are none.)
            rpm -qp --qf '[-%{FILEFLAGS:fflags} %{FILEMODES:perms} %{FILENAMES}\n]' "$rpm" |
            while read -r flags perms path; do
                case $perms in d*) printf '%%dir ' ;; esac
                case $flags in *g*) printf '%%ghost ' ;; esac
                case $flags in *c*n*) printf '%%config(noreplace) ' ;; *c*) printf '%%config ' ;; esac
                printf '%s\n' "$path"
            done
            for tag in PREIN:pre POSTIN:post PREUN:preun POSTUN:postun; do
                prog=$(rpm -qp --qf "%{${tag%:*}PROG}" "$rpm")
                body=$(rpm -qp --qf "%{${tag%:*}}" "$rpm")
                [ "$prog" != "(none)" ] || continue
                if [ "$body" = "(none)" ]; then
                    printf '%%%s -p %s\n' "${tag#*:}" "$prog"
                else
                    printf '%%%s\n%s\n' "${tag#*:}" "$(printf '%s' "$body" | sed 's/%/%%/g')"
                fi
            done
            # "triggerprein scriptlet (using /bin/sh) -- glibc" and its body.
            rpm -qp --triggers "$rpm" | sed -e 's/%/%%/g' \
                -e 's/^trigger\([a-z]*\) scriptlet (using [^)]*) -- \(.*\)$/%trigger\1 -- \2/'
        } >"$spec"
        rpmbuild -bb --quiet --define "_topdir $top/build" --define "_rpmdir $W/rpms/$2" \
            --define '_build_name_fmt %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm' \
            --define '__os_install_post %{nil}' --define 'debug_package %{nil}' \
            --define '_build_id_links none' --target x86_64 "$spec" >"$top/$name.log" 2>&1 ||
            { cat "$top/$name.log"; return 1; }
    done
}
# glibc_standin RELEASE: an empty package named glibc, in $W/rpms/glibc:
# the RPM triggers on glibc fire when it is installed or upgraded.
glibc_standin ()
{
    mkdir -p "$W/rpms/glibc" "$W/rpmrepack/glibc"
    printf '%s\n' 'Name: glibc' 'Version: 2.36' "Release: $1" 'Summary: Stand-in for the C library' \
        'License: MIT' 'BuildArch: noarch' '%description' 'packaging/e2e-test.sh' '%files' \
        >"$W/rpmrepack/glibc/glibc.spec"
    rpmbuild -bb --quiet --define "_topdir $W/rpmrepack/glibc/build" --define "_rpmdir $W/rpms/glibc" \
        --define '_build_name_fmt %%{NAME}-%%{VERSION}-%%{RELEASE}.%%{ARCH}.rpm' \
        "$W/rpmrepack/glibc/glibc.spec" >/dev/null 2>&1
}
if [ -d "$PKG/rpm-up" ] && command -v rpmbuild >/dev/null && command -v rpm2cpio >/dev/null; then
    mkdir -p "$W/rpms"
    cp -r "$PKG/rpm" "$PKG/rpm-up" "$W/rpms/"
    { rpm_repack 3 rpm-broken "$W/helpers/libe2e-broken.so" && rpm_repack 4 rpm-good &&
      glibc_standin 1 && glibc_standin 2 && glibc_standin 3; } ||
        { echo "FAIL: cannot repack the RPMs"; exit 1; }
fi

# libc6 as installed, to reinstall: its file trigger is the one to test.
mkdir -p "$W/libc6"
(cd "$W/libc6" && apt-get download -q "libc6=$(dpkg-query -W -f='${Version}' libc6)" >/dev/null 2>&1) ||
    echo "INFO: cannot download libc6's .deb; its trigger is activated with dpkg-trigger instead"
# Both ABIs: the i386 packages, with their versions matching the amd64
# ones' (Multi-Arch: same); 32-bit helpers; libc6:i386 and what it needs.
prepare_i386 ()
{
    local i=$W/i386 p o st=$W/apt-i386
    [ -d "$PKG/deb-i386" ] || { echo "INFO: no i386 packages in $PKG/deb-i386"; return 1; }
    mkdir -p "$i/libc" "$st/lists/partial" "$st/cache/archives/partial"
    gcc -m32 -o "$i/hello32" "$W/helpers/hello.c" &&
        gcc -m32 -O2 -o "$i/fc-e2e-probe32" "$W/helpers/probe.c" &&
        gcc -m32 -shared -fPIC -Wl,-soname,libfastcopy.so.1 -o "$W/helpers/libe2e-broken32.so" "$W/helpers/broken.c" ||
        { echo "INFO: no 32-bit toolchain (gcc-multilib)"; return 1; }
    if [ "$("$i/hello32" 2>/dev/null)" = hello ]; then
        echo yes >"$i/native"
    elif [ -x /usr/bin/qemu-i386-static ]; then
        echo no >"$i/native"
    else
        echo "INFO: this kernel runs no 32-bit program and qemu-i386-static (qemu-user-static) is missing"
        return 1
    fi
    # A private apt state, so that the host's apt and dpkg are untouched.
    o="-o APT::Architecture=i386 -o APT::Architectures::=i386 -o Dir::State::Lists=$st/lists"
    o="$o -o Dir::Cache=$st/cache -o Dir::State::status=/dev/null"
    # shellcheck disable=SC2086
    apt-get $o update -qq >/dev/null 2>&1 || :     # the packages below may be there anyway
    for p in libc6 libgcc-s1 gcc-12-base; do
        # shellcheck disable=SC2086
        (cd "$i/libc" && apt-get $o download -q "$p=$(dpkg-query -W -f='${Version}' "$p:amd64")") >/dev/null 2>&1 ||
            { echo "INFO: cannot download $p:i386 at the host's version"; return 1; }
    done
    cp -r "$PKG/deb-i386" "$i/deb"
    deb_repack "$version+e2e4" deb-v4 && deb_repack "$version+e2e5" deb-v5 &&
        deb_repack "$version+e2e6" deb-v6 &&
        deb_repack_from "$PKG/deb-i386" "$i/deb-v4" "$version+e2e4" &&
        deb_repack_from "$PKG/deb-i386" "$i/deb-v5" "$version+e2e5" "$W/helpers/libe2e-broken32.so" &&
        deb_repack_from "$PKG/deb-i386" "$i/deb-v6" "$version+e2e6"
}
prepare_i386 || { echo "INFO: the two-ABI test is skipped"; rm -rf "$W/i386"; }

unshare --mount --propagation private -- bash "$(realpath "$0")" --inside "$W" "$PKG"
inside=$?

host_after=$(host_state)
if [ "$host_before" = "$host_after" ]; then
    echo "PASS: the host's own /etc/ld.so.preload was not touched ($(echo "$host_before" | head -n 1))"
    echo pass >>"$W/results"
else
    echo "FAIL: the host's /etc/ld.so.preload changed!"
    echo fail >>"$W/results"
fi
[ $inside -eq 0 ] || { echo "FAIL: the test aborted (exit $inside)"; echo fail >>"$W/results"; }

passed=$(grep -c '^pass$' "$W/results") failed=$(grep -c '^fail$' "$W/results")
printf '\ne2e took %d s\ne2e: %d passed, %d failed\n' $(($(date +%s) - start)) "$passed" "$failed"
[ "$failed" -eq 0 ]
