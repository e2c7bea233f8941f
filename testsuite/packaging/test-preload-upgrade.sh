#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of the package scripts' upgrade steps (packaging/preload-upgrade.sh)
# on scratch root directories, without privileges: the entry comes out
# before the unpack, goes back byte for byte when the new library passes
# the test (each ABI's library), stays out with a message when it fails,
# and a changed C library gets the same test.  packaging/e2e-test.sh runs
# the same steps through dpkg and rpm.
#
#   test-preload-upgrade.sh [LIBRARY]
#
# LIBRARY defaults to ./.libs/libfastcopy.so.1 (make check runs in the
# build directory).  Prints PASS/FAIL lines; exits 1 when something failed
# (77, "skipped", without the library or a C compiler).
#
# Where this machine cannot run the build's programs (FC_HOST_RUNS=no:
# an i386 build on a kernel without IA-32 emulation) the steps still run
# on the files; only the cases that need a broken library of the build's
# ABI to fail its test are not checked, and say so.
set -u
host_runs=${FC_HOST_RUNS:-yes}
# not_checked WHAT: a case that needs the build's programs to run.
not_checked () { echo "NOT CHECKED: $1 (this machine cannot run the build's programs)"; }

lib=${1:-./.libs/libfastcopy.so.1}
srcdir=${srcdir:-$(dirname "$0")/../..}
cc=${CC:-cc}
[ -r "$lib" ] || { echo "SKIP: no $lib"; exit 77; }
for f in preload-remove.sh preload-test.sh preload-upgrade.sh; do
    # shellcheck source=/dev/null
    . "$srcdir/packaging/$f"
done

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-upgrade-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

printf '#include <stdlib.h>\n__attribute__ ((constructor)) static void f (void) { abort (); }\n' |
    $cc -x c -shared -fPIC -o "$work/libabort.so" - 2>/dev/null ||
    { echo "SKIP: no C compiler ($cc) for the broken library"; exit 77; }

entry='/usr/$LIB/libfastcopy.so.1'
multi=/usr/lib/x86_64-linux-gnu

# root NAME MODE FORMAT [ARG...]: a scratch root with the library installed
# as the Debian package installs it, and /etc/ld.so.preload as printf
# FORMAT ARG... gives it, with MODE; $r is the root, $p the file, and
# $work/NAME.orig a copy of it.
root ()
{
    r=$work/$1 p=$work/$1/etc/ld.so.preload
    mkdir -p "$r/etc" "$r$multi"
    cp "$lib" "$r$multi/libfastcopy.so.1.0.0"
    ln -s libfastcopy.so.1.0.0 "$r$multi/libfastcopy.so.1"
    mode=$2
    shift 2
    # shellcheck disable=SC2059
    printf "$@" >"$p"
    chmod "$mode" "$p"
    cp -p "$p" "$work/$(basename "$r").orig"
}
# upgrade_to LIBRARY: the new version's files replace the library.
upgrade_to () { cp "$1" "$r$multi/libfastcopy.so.1.0.0.new" && mv "$r$multi/libfastcopy.so.1.0.0.new" "$r$multi/libfastcopy.so.1.0.0"; }
same () { cmp -s "$1" "$2" && [ "$(stat -c %a "$1")" = "$(stat -c %a "$2")" ]; }
no_state () { [ ! -e "$r/var/lib/libfastcopy" ]; }

# 1. A good new version: out during the upgrade, back byte for byte.
root good 0640 '# local\nother.so\t%s\nlast.so' "$entry"
out=$(fastcopy_preload_suspend "$r" 2>&1)
if [ "$(cat "$p")" = "$(printf '# local\nother.so\nlast.so')" ] &&
    [ -e "$r/var/lib/libfastcopy/preload.before" ]; then
    pass "suspend takes the entry out before the unpack: $out"
else
    fail "suspend: file now $(cat "$p"), output: $out"
fi
upgrade_to "$lib"
out=$(fastcopy_preload_resume "$r" "$r$multi/libfastcopy.so.1" "$entry" 2>&1); st=$?
if [ $st -eq 0 ] && same "$work/good.orig" "$p" && no_state; then
    pass "a good new library: the file is back byte for byte, mode 0640 kept: $out"
else
    fail "a good new library: exit $st, file $(od -c "$p" | head -n 3), output: $out"
fi

# 2. A broken new version: the entry stays out, with a message.
if [ "$host_runs" = yes ]; then
    root broken 0644 'other.so\n%s\n' "$entry"
    fastcopy_preload_suspend "$r" >/dev/null
    upgrade_to "$work/libabort.so"
    out=$(fastcopy_preload_resume "$r" "$r$multi/libfastcopy.so.1" "$entry" 2>&1); st=$?
    case $out in
        *"test '/bin/true' was killed by signal 6 (SIGABRT)"*"FAILED its test"*"stays out"*) said=yes ;;
        *) said=no ;;
    esac
    if [ $st -eq 0 ] && [ "$(cat "$p")" = other.so ] && [ $said = yes ] && no_state; then
        pass "a broken new library stays out, and the scripts say so"
    else
        fail "a broken new library: exit $st, file $(cat "$p"), output: $out"
    fi
else
    not_checked "a broken new library stays out"
fi

# 3. The only entry: the file goes, and comes back with its mode.
root only 0600 '%s\n' "$entry"
fastcopy_preload_suspend "$r" >/dev/null
[ ! -e "$p" ] || fail "suspend left a file with no entry in it"
out=$(fastcopy_preload_resume "$r" "$r$multi/libfastcopy.so.1" "$entry" 2>&1)
if same "$work/only.orig" "$p"; then
    pass "the only entry: file removed during the upgrade, back after it with mode 0600"
else
    fail "the only entry: after resume $(ls -l "$p" 2>&1): $out"
fi

# 4. Somebody changed the file during the upgrade: that change stays, and
# the entry is added at the end.
root changed 0644 'a.so\n%s\n' "$entry"
fastcopy_preload_suspend "$r" >/dev/null
printf 'b.so' >>"$p"
fastcopy_preload_resume "$r" "$r$multi/libfastcopy.so.1" "$entry" >/dev/null 2>&1
if [ "$(cat "$p")" = "$(printf 'a.so\nb.so\n%s' "$entry")" ]; then
    pass "a file changed during the upgrade keeps the change and gets the entry at its end"
else
    fail "a file changed during the upgrade: $(cat "$p")"
fi

# 5. Not enabled: nothing happens, nothing is kept.
root off 0644 'a.so\n'
fastcopy_preload_suspend "$r" >/dev/null
fastcopy_preload_resume "$r" "$r$multi/libfastcopy.so.1" "$entry" >/dev/null 2>&1
if same "$work/off.orig" "$p" && no_state; then
    pass "not enabled: suspend and resume change nothing"
else
    fail "not enabled: the file or the state changed"
fi

# 6. Suspended twice (RPM: %triggerprein on glibc, then %pre): one copy,
# the original, comes back.
root twice 0644 'x.so %s\n' "$entry"
fastcopy_preload_suspend "$r" >/dev/null
fastcopy_preload_suspend "$r" >/dev/null
fastcopy_preload_resume "$r" "$r$multi/libfastcopy.so.1" "$entry" >/dev/null 2>&1
if same "$work/twice.orig" "$p" && no_state; then
    pass "suspended twice: the original comes back once"
else
    fail "suspended twice: $(cat "$p")"
fi

# 7. The C library changed under an enabled preload (Debian's trigger): a
# library that still passes stays, one that fails now goes.
root recheck 0644 'a.so\n%s\n' "$entry"
fastcopy_preload_recheck "$r" "$r$multi/libfastcopy.so.1" >/dev/null 2>&1
if same "$work/recheck.orig" "$p"; then
    pass "recheck: a library that passes stays enabled"
else
    fail "recheck of a good library changed the file: $(cat "$p")"
fi
if [ "$host_runs" = yes ]; then
    upgrade_to "$work/libabort.so"
    out=$(fastcopy_preload_recheck "$r" "$r$multi/libfastcopy.so.1" 2>&1); st=$?
    if [ $st -eq 0 ] && [ "$(cat "$p")" = a.so ] && case $out in *"FAILS its test"*) true ;; *) false ;; esac; then
        pass "recheck: a library that now fails is taken out, with a message"
    else
        fail "recheck of a failing library: exit $st, file $(cat "$p"), output: $out"
    fi
else
    not_checked "recheck: a library that now fails is taken out"
fi

# 8. Both ABIs' libraries upgraded together (one suspend, one resume):
# the other ABI's copy is tested too, and a broken one keeps the entry
# out.  (The lib64/lib pair, so that both copies run here.)
root pair 0644 '%s\n' "$entry"
mkdir -p "$r/usr/lib64"
cp "$lib" "$r/usr/lib64/libfastcopy.so.1"
fastcopy_preload_suspend "$r" >/dev/null
out=$(fastcopy_preload_resume "$r" "$r/usr/lib64/libfastcopy.so.1" "$entry" 2>&1)
if same "$work/pair.orig" "$p"; then
    pass "two good ABIs' libraries: the entry is back"
else
    fail "two good ABIs' libraries: $(cat "$p" 2>&1): $out"
fi
if [ "$host_runs" = yes ]; then
    cp "$work/libabort.so" "$r/usr/lib/libfastcopy.so.1"
    fastcopy_preload_suspend "$r" >/dev/null
    out=$(fastcopy_preload_resume "$r" "$r/usr/lib64/libfastcopy.so.1" "$entry" 2>&1)
    case $out in
        *"$r/usr/lib/libfastcopy.so.1 FAILED its test"*) said=yes ;;
        *) said=no ;;
    esac
    if [ ! -e "$p" ] && [ $said = yes ]; then
        pass "the other ABI's library is broken: the entry stays out, and the scripts name it"
    else
        fail "the other ABI's library is broken: $(cat "$p" 2>&1): $out"
    fi
else
    not_checked "the other ABI's library is broken: the entry stays out"
fi

# 9. A 32-bit library with no 32-bit C library next to it: no 32-bit
# process can load it, and the test says so instead of failing.
if printf 'int f;\n' | $cc -m32 -x c -shared -fPIC -o "$work/lib32.so" - 2>/dev/null; then
    out=$(fastcopy_preload_test "$work/lib32.so" 2>&1); st=$?
    case $out in
        *"no 32-bit C library in $work"*) said=yes ;;
        *) said=no ;;
    esac
    if [ $st -eq 0 ] && [ $said = yes ]; then
        pass "a 32-bit library without a 32-bit C library: passes, with a note"
    else
        fail "a 32-bit library without a 32-bit C library: exit $st: $out"
    fi
else
    echo "SKIP: $cc -m32 cannot build a 32-bit library"
fi

# 10. With nothing on PATH but what the RPM requires for its scriptlets
# (coreutils, flock from util-linux, cmp from diffutils; Debian: all
# essential), the steps still work: an entry must never stay behind for
# want of a command such as grep.
if command -v dpkg >/dev/null && dpkg -L coreutils >/dev/null 2>&1; then
    coreutils=$(dpkg -L coreutils)
elif command -v rpm >/dev/null && rpm -ql coreutils >/dev/null 2>&1; then
    coreutils=$(rpm -ql coreutils)
else
    coreutils=
fi
if [ -n "$coreutils" ]; then
    mkdir -p "$work/bin"
    for cmd in $(printf '%s\n' "$coreutils" | grep -E '/s?bin/[^/]+$') $(command -v flock) $(command -v cmp); do
        ln -sf "$cmd" "$work/bin/$(basename "$cmd")"
    done
    root restricted 0644 'a.so %s\n' "$entry"
    out=$(PATH=$work/bin /bin/sh -c '
        for f in preload-remove.sh preload-test.sh preload-upgrade.sh; do . "$1/packaging/$f"; done
        fastcopy_preload_suspend "$2" && fastcopy_preload_resume "$2" "$3" "$4" &&
            cp -p "$2/etc/ld.so.preload" "$2/resumed" && fastcopy_preload_remove "$2"' \
        sh "$srcdir" "$r" "$r$multi/libfastcopy.so.1" "$entry" 2>&1); st=$?
    if [ $st -eq 0 ] && same "$work/restricted.orig" "$r/resumed" && [ "$(cat "$p")" = a.so ]; then
        pass "with only coreutils, flock and cmp on PATH: suspend, resume and remove work"
    else
        fail "with only coreutils, flock and cmp on PATH: exit $st, file $(cat "$p"): $out"
    fi
else
    echo "SKIP: no package database to tell coreutils' commands"
fi

finish
