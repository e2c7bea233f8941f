#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-preload on systems that run 32-bit programs: enable warns when
# an entry gives them no i386 library, status shows what each entry loads
# for them and exits 6 when that is no i386 shared object.  Works on
# scratch root directories, never on the real /etc, without privileges.
#
#   test-i386.sh [TOOL [LIBRARY]]
#
# TOOL defaults to ./tools/fastcopy-preload (make check runs in the build
# directory), LIBRARY, the 64-bit library, to ./.libs/libfastcopy.so.1.
# The i386 library is a shared object built with 'cc -m32'; without such
# a compiler those cases are skipped.  Prints PASS/FAIL lines; exits 1
# when something failed (77, "skipped", when the tool or library is
# missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

tool=${1:-./tools/fastcopy-preload}
lib=${2:-./.libs/libfastcopy.so.1}
[ -x "$tool" ] || { echo "SKIP: no $tool"; exit 77; }
[ -r "$lib" ] || { echo "SKIP: no $lib"; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-preload-i386.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../../lib/test-lib.sh"

# The library directory compiled into the tool.
libdir=$("$tool" --help | sed -n 's|^library: \(.*\)/libfastcopy\.so\.1$|\1|p')
[ -n "$libdir" ] || { echo "FAIL: cannot find the library directory in '$tool --help'"; exit 1; }

cc=${CC:-cc}
lib32=$work/i386.so
printf 'int fastcopy_i386;\n' | $cc -m32 -x c -shared -fPIC -o "$lib32" - 2>/dev/null ||
    lib32=

# newroot NAME: a root with the 64-bit library where the tool looks for it
# and in the Debian $LIB directory, and no preload file.
newroot ()
{
    r=$work/$1
    mkdir -p "$r/etc" "$r$libdir" "$r/usr/lib/x86_64-linux-gnu"
    cp "$lib" "$r$libdir/libfastcopy.so.1"
    [ -e "$r/usr/lib/x86_64-linux-gnu/libfastcopy.so.1" ] ||
        cp "$lib" "$r/usr/lib/x86_64-linux-gnu/libfastcopy.so.1"
}

# run NAME CMD: the tool's CMD with --no-test on the root; its exit status
# in $st, standard output in $work/NAME.out, standard error in .err.
run ()
{
    st=0
    "$tool" --no-test --root "$r" "$2" >"$work/$1.out" 2>"$work/$1.err" || st=$?
}
has () { grep -q -F -e "$2" "$work/$1"; }
# both NAME: enable, then status, on the root; their exit statuses in
# $st_enable and $st, their output in NAME-enable.* and NAME-status.*.
both ()
{
    run "$1-enable" enable
    st_enable=$st
    run "$1-status" status
}

# A $LIB entry already in place: enable only checks it (and warns).
lib_entry () { printf '/usr/$LIB/libfastcopy.so.1\n' >"$r/etc/ld.so.preload"; }

# --- (a) no i386 at all: nothing changes -------------------------------------

newroot none
run none-enable enable
if [ $st -eq 0 ] && ! has none-enable.err 32-bit; then
    pass "no i386 ABI: enable says nothing of 32-bit programs"
else
    fail "no i386 ABI: enable exits $st: $(cat "$work/none-enable.err")"
fi
run none-status status
if [ $st -eq 0 ] && ! has none-status.out 32-bit; then
    pass "no i386 ABI: status shows the 64-bit library only"
else
    fail "no i386 ABI: status exits $st: $(cat "$work/none-status.out")"
fi

# --- (b) i386 listed by dpkg, no i386 library --------------------------------

newroot dpkg
mkdir -p "$r/var/lib/dpkg"
printf 'i386\n' >"$r/var/lib/dpkg/arch"
run dpkg-enable enable
if [ $st -eq 0 ] && has dpkg-enable.err "warning: 32-bit programs get no i386 libfastcopy" &&
    grep -q libfastcopy "$r/etc/ld.so.preload"; then
    pass "dpkg lists i386: enable enables, and warns: $(head -n 1 "$work/dpkg-enable.err")"
else
    fail "dpkg lists i386: enable exits $st: $(cat "$work/dpkg-enable.err")"
fi
lib_entry
run dpkg-again enable
if [ $st -eq 0 ] && has dpkg-again.err "apt-get install libfastcopy1:i386" &&
    ! has dpkg-again.err "add-architecture"; then
    pass "dpkg lists i386: enable with a \$LIB entry names libfastcopy1:i386"
else
    fail "dpkg lists i386: enable with a \$LIB entry exits $st: $(cat "$work/dpkg-again.err")"
fi
run dpkg-status status
if [ $st -eq 6 ] &&
    has dpkg-status.out '/usr/lib/x86_64-linux-gnu/libfastcopy.so.1: ok' &&
    has dpkg-status.out 'for 32-bit programs ($LIB is lib/i386-linux-gnu) -> nothing: no such file' &&
    has dpkg-status.out 'apt-get install libfastcopy1:i386'; then
    pass "dpkg lists i386: status shows no 32-bit library and exits 6"
else
    fail "dpkg lists i386: status exits $st, not 6: $(cat "$work/dpkg-status.out")"
fi
# A broken 64-bit entry keeps its own exit status.  (Both copies: $LIB
# finds the one in the tool's directory too where that is lib64.)
rm -f "$r/usr/lib/x86_64-linux-gnu/libfastcopy.so.1" "$r$libdir/libfastcopy.so.1"
run dpkg-broken status
[ $st -eq 4 ] && pass "a missing 64-bit library still exits 4 where i386 is missing too" ||
    fail "a missing 64-bit library where i386 is missing too: exit $st, not 4"

# Other ways to have the ABI: Debian's biarch libc6-i386, whose $LIB is
# lib32, with dpkg not (yet) listing i386; an RPM system's glibc.i686.
newroot biarch
mkdir -p "$r/var/lib/dpkg" "$r/usr/lib32" "$r/lib"
: >"$r/usr/lib32/ld-linux.so.2"
ln -s /usr/lib32/ld-linux.so.2 "$r/lib/ld-linux.so.2"
lib_entry
both biarch
if [ $st_enable -eq 0 ] && [ $st -eq 6 ] && has biarch-status.out '($LIB is lib32) -> nothing' &&
    has biarch-enable.err 'dpkg --add-architecture i386'; then
    pass "libc6-i386 only: \$LIB is lib32, and the advice adds the architecture"
else
    fail "libc6-i386 only: $(cat "$work/biarch-status.out" "$work/biarch-enable.err")"
fi
newroot rpm
mkdir -p "$r/lib"
: >"$r/lib/ld-linux.so.2"
lib_entry
both rpm
if [ $st_enable -eq 0 ] && [ $st -eq 6 ] && has rpm-status.out '($LIB is lib) -> nothing' &&
    has rpm-enable.err 'libfastcopy.i686'; then
    pass "glibc.i686: \$LIB is lib, and the advice names libfastcopy.i686"
else
    fail "glibc.i686: $(cat "$work/rpm-status.out" "$work/rpm-enable.err")"
fi

# --- (c) an i386 library in place, and a 64-bit one in its place ------------

if [ -n "$lib32" ]; then
    newroot multiarch
    mkdir -p "$r/usr/lib/i386-linux-gnu"
    cp "$lib32" "$r/usr/lib/i386-linux-gnu/libc.so.6"
    cp "$lib32" "$r/usr/lib/i386-linux-gnu/libfastcopy.so.1"
    lib_entry
    both multi
    if [ $st_enable -eq 0 ] && [ $st -eq 0 ] && ! has multi-enable.err warning &&
        has multi-status.out '/usr/lib/i386-linux-gnu/libfastcopy.so.1: an i386 shared object (not tested)'; then
        pass "i386 library installed: no warning, status ok for both ABIs"
    else
        fail "i386 library installed: status exits $st: $(cat "$work/multi-enable.err" "$work/multi-status.out")"
    fi
    # A bare name finds it too, as the 32-bit loader would.
    printf 'libfastcopy.so.1\n' >"$r/etc/ld.so.preload"
    run multi-bare status
    [ $st -eq 0 ] && has multi-bare.out 'i386 shared object' &&
        pass "a bare name leads 32-bit programs to the i386 library" ||
        fail "a bare name: status exits $st: $(cat "$work/multi-bare.out")"

    cp "$lib" "$r/usr/lib/i386-linux-gnu/libfastcopy.so.1"
    lib_entry
    both wrong
    if [ $st_enable -eq 0 ] && [ $st -eq 6 ] && has wrong-enable.err 'not a 32-bit little-endian ELF file' &&
        has wrong-status.out '/usr/lib/i386-linux-gnu/libfastcopy.so.1: not a 32-bit little-endian ELF file'; then
        pass "a 64-bit library in the i386 directory is the wrong kind"
    else
        fail "a 64-bit library in the i386 directory: status exits $st: $(cat "$work/wrong-enable.err" "$work/wrong-status.out")"
    fi

    # A full path loads the 64-bit file in 32-bit programs too.
    printf '/usr/lib/x86_64-linux-gnu/libfastcopy.so.1\n' >"$r/etc/ld.so.preload"
    cp "$lib32" "$r/usr/lib/i386-linux-gnu/libfastcopy.so.1"
    run full-enable enable
    if has full-enable.err 'write the entry with $LIB'; then
        pass "a full path: enable says that 32-bit programs need \$LIB"
    else
        fail "a full path: $(cat "$work/full-enable.err")"
    fi
else
    echo "SKIP: no 32-bit compiler ($cc -m32) for the i386 library cases"
fi

finish
