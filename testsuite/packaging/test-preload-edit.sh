#!/bin/sh
# SPDX-License-Identifier: MIT
# Tests of fastcopy-preload and of the package scripts' removal function
# (packaging/preload-remove.sh), on scratch root directories: never on the
# real /etc/ld.so.preload, and without privileges.
#
#   test-preload-edit.sh [TOOL [LIBRARY]]
#
# TOOL defaults to ./tools/fastcopy-preload (make check runs in the build
# directory), LIBRARY to ./.libs/libfastcopy.so.1.  Prints PASS/FAIL lines;
# exits 1 when something failed (77, "skipped", when the tool is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

tool=${1:-./tools/fastcopy-preload}
lib=${2:-./.libs/libfastcopy.so.1}
srcdir=${srcdir:-$(dirname "$0")/../..}
remove_sh=$srcdir/packaging/preload-remove.sh

[ -x "$tool" ] || { echo "SKIP: no $tool"; exit 77; }
[ -r "$remove_sh" ] || { echo "FAIL: no $remove_sh"; exit 1; }
# shellcheck source=preload-remove.sh
. "$remove_sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-preload-test.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
. "$(dirname "$0")/../lib/test-lib.sh"

# The library directory compiled into the tool.
libdir=$("$tool" --help | sed -n 's|^library: \(.*\)/libfastcopy\.so\.1$|\1|p')
[ -n "$libdir" ] || { echo "FAIL: cannot find the library directory in '$tool --help'"; exit 1; }

# state FILE: the file's bytes, or ABSENT.
state () { if [ -e "$1" ]; then od -An -c "$1"; else echo ABSENT; fi; }
leftovers () { ls -A "$1" | grep -q '^\.ld\.so\.preload\.fastcopy-'; }

# --- 1. removal: fastcopy-preload disable and the sh function agree ------------

# case NAME INPUT EXPECTED  (printf formats; EXPECTED "ABSENT": file removed)
n=0
check_removal ()
{
    n=$((n + 1))
    r=$work/rm$n
    mkdir -p "$r/c/etc" "$r/s/etc"
    printf "$2" >"$r/c/etc/ld.so.preload"
    printf "$2" >"$r/s/etc/ld.so.preload"
    if [ "$3" = ABSENT ]; then
        want=ABSENT
    else
        printf "$3" >"$r/want"
        want=$(state "$r/want")
    fi
    "$tool" --quiet --root "$r/c" disable || fail "removal $1: fastcopy-preload disable failed"
    fastcopy_preload_remove "$r/s" || fail "removal $1: fastcopy_preload_remove failed"
    got_c=$(state "$r/c/etc/ld.so.preload")
    got_s=$(state "$r/s/etc/ld.so.preload")
    if [ "$got_c" != "$want" ]; then
        fail "removal $1: fastcopy-preload wrote"; echo "$got_c"; echo "  expected"; echo "$want"
    elif [ "$got_s" != "$want" ]; then
        fail "removal $1: preload-remove.sh wrote"; echo "$got_s"; echo "  expected"; echo "$want"
    elif leftovers "$r/c/etc" || leftovers "$r/s/etc"; then
        fail "removal $1: a temporary file was left behind"
    else
        pass "removal $1"
    fi
}

check_removal "only entry" 'libfastcopy.so.1\n' ABSENT
check_removal "only entry, no final newline" '/usr/$LIB/libfastcopy.so.1' ABSENT
check_removal "last line" '# c\n/usr/lib/x86_64-linux-gnu/libother.so\n/usr/$LIB/libfastcopy.so.1\n' \
    '# c\n/usr/lib/x86_64-linux-gnu/libother.so\n'
check_removal "last line without newline" 'a.so\nlibfastcopy.so.1' 'a.so'
check_removal "first line, none final" 'libfastcopy.so.1\na.so' 'a.so'
check_removal "middle line" 'a.so\n/usr/$LIB/libfastcopy.so.1\nb.so\n' 'a.so\nb.so\n'
check_removal "middle of a line" 'a.so libfastcopy.so.1 b.so\n' 'a.so b.so\n'
check_removal "first of a line" '  libfastcopy.so.1:a.so  # x\n' '  a.so  # x\n'
check_removal "last of a line" 'a.so:/usr/lib64/libfastcopy.so.1.0.0\t# x\n' 'a.so\t# x\n'
check_removal "commented out" '# libfastcopy.so.1 commented\n' '# libfastcopy.so.1 commented\n'
check_removal "foreign directory" '/opt/elsewhere/lib/libfastcopy.so.1\n' '/opt/elsewhere/lib/libfastcopy.so.1\n'
check_removal "other soname" 'libfastcopy.so.10\n' 'libfastcopy.so.10\n'
check_removal "blank lines" '\n\n/lib64/libfastcopy.so.1\n\n' '\n\n\n'
check_removal "entry with comment" 'libfastcopy.so.1 # enabled by hand\n' ABSENT
check_removal "carriage return" 'libfastcopy.so.1\r\n' 'libfastcopy.so.1\r\n'
check_removal "pattern characters" 'a*[b].so\\\\x /${LIB}/libfastcopy.so.1\n' 'a*[b].so\\\\x\n'
check_removal "twice" 'libfastcopy.so.1 libfastcopy.so.1\n/$LIB/libfastcopy.so.1\n' ABSENT
long=$(i=0; while [ $i -lt 100 ]; do printf 'l%d.so ' $i; [ $i = 50 ] && printf 'libfastcopy.so.1 '; i=$((i + 1)); done)
check_removal "100 names" "$long\\n" "$(echo "$long" | sed 's/libfastcopy\.so\.1 //')\\n"

# Permissions survive.
r=$work/mode; mkdir -p "$r/etc"
printf 'a.so\nlibfastcopy.so.1\n' >"$r/etc/ld.so.preload"; chmod 0640 "$r/etc/ld.so.preload"
fastcopy_preload_remove "$r"
m_s=$(stat -c %a "$r/etc/ld.so.preload")
printf 'a.so\nlibfastcopy.so.1\n' >"$r/etc/ld.so.preload"; chmod 0640 "$r/etc/ld.so.preload"
"$tool" -q --root "$r" disable
m_c=$(stat -c %a "$r/etc/ld.so.preload")
if [ "$m_s" = 640 ] && [ "$m_c" = 640 ]; then pass "mode kept"; else fail "mode kept (sh $m_s, tool $m_c)"; fi

# preload-remove.sh knows the packages' library directories only; a build
# for another prefix (the default /usr/local) has the tool write a full path
# that only the tool itself removes.
case $libdir in
    /usr/lib/x86_64-linux-gnu|/lib/x86_64-linux-gnu|/usr/lib64|/lib64) removers="tool sh" ;;
    *) removers=tool; echo "SKIP: preload-remove.sh round trips: $libdir is no package library directory" ;;
esac

# A symbolic link: the file it points to is edited, the link stays.
r=$work/link; mkdir -p "$r/etc" "$r/srv"
printf 'a.so libfastcopy.so.1\n' >"$r/srv/preload"; ln -s ../srv/preload "$r/etc/ld.so.preload"
"$tool" -q --root "$r" disable
if [ -L "$r/etc/ld.so.preload" ] && [ "$(cat "$r/srv/preload")" = a.so ]; then
    pass "symbolic link followed"
else
    fail "symbolic link followed"
fi
# ... and when nothing else is left, the file is emptied, not deleted.
for how in tool sh; do
    r=$work/link-only-$how; mkdir -p "$r/etc" "$r/srv"
    printf 'libfastcopy.so.1\n' >"$r/srv/preload"; ln -s ../srv/preload "$r/etc/ld.so.preload"
    if [ $how = tool ]; then "$tool" -q --root "$r" disable
    else fastcopy_preload_remove "$r"; fi
    if [ -L "$r/etc/ld.so.preload" ] && [ -f "$r/srv/preload" ] && [ ! -s "$r/srv/preload" ]; then
        pass "disable ($how) empties the file of a link whose only entry was libfastcopy's"
    else
        fail "disable ($how) through a link: file $(state "$r/srv/preload")"
    fi
done

# Links whose file is empty or missing: enable writes the file the link
# points to (creating it), disable empties it; the link is never replaced
# and its file never deleted, by the tool or the package scripts.
if [ -r "$lib" ]; then
    for target in empty missing; do
        for how in $removers; do
            r=$work/link-$target-$how; mkdir -p "$r/etc" "$r/srv" "$r$libdir"
            cp "$lib" "$r$libdir/libfastcopy.so.1"
            [ $target = missing ] || : >"$r/srv/preload"
            ln -s ../srv/preload "$r/etc/ld.so.preload"
            "$tool" -q --root "$r" enable ||
                fail "enable through a link to a $target file failed"
            if [ ! -L "$r/etc/ld.so.preload" ] ||
                ! grep -q libfastcopy "$r/srv/preload" 2>/dev/null; then
                fail "enable through a link to a $target file: the link was replaced or its file not written"
                continue
            fi
            if [ $how = tool ]; then "$tool" -q --root "$r" disable
            else fastcopy_preload_remove "$r"; fi
            if [ -L "$r/etc/ld.so.preload" ] && [ -f "$r/srv/preload" ] &&
                [ ! -s "$r/srv/preload" ]; then
                pass "link to a $target file: enable writes its file, disable ($how) empties it, the link stays"
            else
                fail "link to a $target file, disable ($how): link $(ls -l "$r/etc/ld.so.preload" 2>&1), file $(state "$r/srv/preload")"
            fi
        done
    done
fi

# A FIFO: the tool refuses it at once (reading it would block), the
# package scripts leave it alone.
r=$work/fifo; mkdir -p "$r/etc" "$r$libdir"
[ ! -r "$lib" ] || cp "$lib" "$r$libdir/libfastcopy.so.1"
mkfifo "$r/etc/ld.so.preload"
for cmd in status disable enable; do
    st=0; out=$(timeout 10 "$tool" --root "$r" $cmd 2>&1) || st=$?
    case $st:$out in
        1:*"not a regular file"*) pass "$cmd refuses a FIFO at once: $out" ;;
        124:*) fail "$cmd blocked on a FIFO" ;;
        *) fail "$cmd on a FIFO: exit $st: $out" ;;
    esac
done
st=0; out=$(timeout 10 sh -c '. "$1"; fastcopy_preload_remove "$2"' sh "$remove_sh" "$r" 2>&1) || st=$?
if [ $st -eq 0 ] && [ -p "$r/etc/ld.so.preload" ]; then
    pass "the package scripts leave a FIFO alone: $out"
else
    fail "the package scripts on a FIFO: exit $st: $out"
fi

# A file not every user can read: enable and status warn that other
# users' programs run without the library.
if [ -r "$lib" ]; then
    r=$work/unreadable; mkdir -p "$r/etc" "$r$libdir"
    cp "$lib" "$r$libdir/libfastcopy.so.1"
    printf 'a.so\n' >"$r/etc/ld.so.preload"; chmod 0640 "$r/etc/ld.so.preload"
    for cmd in enable status; do
        out=$("$tool" --root "$r" $cmd 2>&1)
        case $out in
            *"not readable by all users (mode 0640)"*"run without"*)
                pass "$cmd warns about a mode 0640 file" ;;
            *) fail "$cmd says nothing of a mode 0640 file: $out" ;;
        esac
    done
    case $out in
        *"every program started from now on"*) fail "enable claims every program loads the library" ;;
    esac
fi

# Entries spelt differently that load the library all the same: status
# sees them, disable and the package scripts remove them.  The library is
# installed as the Debian package installs it.
if [ -r "$lib" ]; then
    spellings='/usr/lib/x86_64-linux-gnu//libfastcopy.so.1
libfastcopy.so
/usr/lib/x86_64-linux-gnu/libfastcopy.so
/usr/lib/x86_64-linux-gnu/sub/../libfastcopy.so.1
/usr/$LIB/../x86_64-linux-gnu/./libfastcopy.so.1.0.0
/lib/x86_64-linux-gnu/libfastcopy.so.1'
    while IFS= read -r entry; do
        for how in tool sh; do
            r=$work/spelt-$how
            rm -rf "$r"
            mkdir -p "$r/etc" "$r/usr/lib/x86_64-linux-gnu/sub"
            ln -s usr/lib "$r/lib"
            cp "$lib" "$r/usr/lib/x86_64-linux-gnu/libfastcopy.so.1.0.0"
            ln -s libfastcopy.so.1.0.0 "$r/usr/lib/x86_64-linux-gnu/libfastcopy.so.1"
            ln -s libfastcopy.so.1 "$r/usr/lib/x86_64-linux-gnu/libfastcopy.so"
            printf 'a.so\n%s\n' "$entry" >"$r/etc/ld.so.preload"
            if [ $how = tool ]; then
                st=0; "$tool" --root "$r" status >/dev/null 2>&1 || st=$?
                [ $st -eq 0 ] || fail "status with the entry '$entry' exits $st, not 0 (enabled)"
                "$tool" -q --root "$r" disable
            else
                fastcopy_preload_remove "$r"
            fi
            if [ "$(cat "$r/etc/ld.so.preload")" = a.so ]; then
                pass "the entry '$entry' is removed by the $how"
            else
                fail "the entry '$entry' is left by the $how: $(state "$r/etc/ld.so.preload")"
            fi
        done
    done <<EOF
$spellings
EOF
fi

# --- 2. enable, then disable (tool or sh): byte-identical ------------------------

if [ -r "$lib" ]; then
    m=0
    for before in ABSENT '' '\n' 'a.so' 'a.so\n' '# comment\n\n/x/y.so\tz.so:w.so\n'; do
        m=$((m + 1))
        for how in $removers; do
            r=$work/rt$m$how
            mkdir -p "$r/etc" "$r$libdir"
            cp "$lib" "$r$libdir/libfastcopy.so.1"
            [ "$before" = ABSENT ] || printf "$before" >"$r/etc/ld.so.preload"
            orig=$(state "$r/etc/ld.so.preload")
            [ "$before" = '' ] && orig=ABSENT   # an empty file is removed again
            if ! out=$("$tool" --root "$r" enable 2>&1); then
                fail "round trip $m ($how): enable failed"; echo "$out"; continue
            fi
            "$tool" -q --root "$r" enable || fail "round trip $m: second enable failed"
            st=0; "$tool" --root "$r" status >/dev/null || st=$?
            [ $st -eq 0 ] || fail "round trip $m: status after enable exits $st, not 0"
            if [ $how = tool ]; then "$tool" -q --root "$r" disable
            else fastcopy_preload_remove "$r"; fi
            st=0; "$tool" --root "$r" status >/dev/null || st=$?
            [ $st -eq 3 ] || fail "round trip $m: status after disable exits $st, not 3"
            if [ "$(state "$r/etc/ld.so.preload")" = "$orig" ] && ! leftovers "$r/etc"; then
                pass "round trip $m ($how): enable, enable, disable give the original bytes"
            else
                fail "round trip $m ($how): file differs after enable+disable"
                state "$r/etc/ld.so.preload"; echo "  expected"; echo "$orig"
            fi
        done
    done

    # A root whose name has a space (LD_PRELOAD cannot name it directly).
    r="$work/with space"; mkdir -p "$r/etc" "$r$libdir"
    cp "$lib" "$r$libdir/libfastcopy.so.1"
    if "$tool" -q --root "$r" enable && "$tool" --root "$r" status >/dev/null; then
        pass "enable under a root whose name has a space"
    else
        fail "enable under a root whose name has a space"
    fi

    # A stale entry is reported by status (exit 4).
    r=$work/stale; mkdir -p "$r/etc"
    printf '/usr/$LIB/libfastcopy.so.1\n' >"$r/etc/ld.so.preload"
    st=0; "$tool" --root "$r" status >/dev/null || st=$?
    if [ $st -eq 4 ]; then pass "status reports a stale entry"; else fail "status on a stale entry exits $st, not 4"; fi

    # enable refuses libraries that are missing, not ELF, or misbehave.
    refuse ()
    {
        r=$work/refuse-$1; mkdir -p "$r/etc" "$r$libdir"
        printf '# keep\n' >"$r/etc/ld.so.preload"
        "$2" "$r$libdir/libfastcopy.so.1"
        st=0; out=$("$tool" --root "$r" enable 2>&1) || st=$?
        if [ $st -ne 0 ] && [ "$(cat "$r/etc/ld.so.preload")" = '# keep' ] && ! leftovers "$r/etc"; then
            pass "enable refuses a library that $1: $(echo "$out" | grep -m1 'fastcopy-preload:')"
        else
            fail "enable with a library that $1: exit $st, file $(state "$r/etc/ld.so.preload")"
            echo "$out"
        fi
    }
    lib_missing () { :; }
    lib_text () { echo 'not a library' >"$1"; }
    refuse "is missing" lib_missing
    refuse "is not ELF" lib_text
    cc=${CC:-cc}
    if printf 'int x;\n' | $cc -x c -shared -fPIC -o "$work/probe.so" - 2>/dev/null; then
        # Broken builds of libfastcopy: each defines fastcopy_version,
        # which tells libfastcopy from any other library.
        ours='const char *fastcopy_version (void) { return "0"; }'
        lib_noisy ()
        {
            printf '#include <unistd.h>\n__attribute__((constructor)) static void f(void){write(2,"hello\\n",6);}\n%s\n' "$ours" |
                $cc -x c -shared -fPIC -o "$1" -
        }
        lib_exits ()
        {
            printf '#include <unistd.h>\n__attribute__((constructor)) static void f(void){_exit(42);}\n%s\n' "$ours" |
                $cc -x c -shared -fPIC -o "$1" -
        }
        lib_crashes ()
        {
            printf '#include <signal.h>\n__attribute__((constructor)) static void f(void){raise(SIGSEGV);}\n%s\n' "$ours" |
                $cc -x c -shared -fPIC -o "$1" -
        }
        # Another library under libfastcopy's name: it loads and runs
        # well, and is not libfastcopy.
        lib_empty ()
        {
            printf 'int x;\n' | $cc -x c -shared -fPIC -o "$1" -
        }
        refuse "prints something" lib_noisy
        refuse "exits the process" lib_exits
        refuse "crashes the process" lib_crashes
        refuse "is not libfastcopy" lib_empty

        # status runs the same test on the library an entry loads: a
        # library that crashes every process is not "ok".
        for maker in lib_crashes lib_exits; do
            r=$work/status-$maker; mkdir -p "$r/etc" "$r$libdir"
            $maker "$r$libdir/libfastcopy.so.1"
            printf '%s\n' "$libdir/libfastcopy.so.1" >"$r/etc/ld.so.preload"
            st=0; out=$("$tool" --root "$r" status 2>&1) || st=$?
            case $st:$out in
                5:*"test '/bin/true'"*"FAILS the test"*)
                    pass "status on a library that fails the test ($maker): exit 5" ;;
                *) fail "status on a library that fails the test ($maker): exit $st: $out" ;;
            esac
            st=0; "$tool" --no-test --root "$r" status >/dev/null 2>&1 || st=$?
            [ $st -eq 0 ] && pass "status --no-test does not run the test ($maker)" ||
                fail "status --no-test ($maker): exit $st"
        done
        r=$work/status-empty; mkdir -p "$r/etc" "$r$libdir"
        lib_empty "$r$libdir/libfastcopy.so.1"
        printf '%s\n' "$libdir/libfastcopy.so.1" >"$r/etc/ld.so.preload"
        for no_test in "" --no-test; do
            st=0; out=$("$tool" $no_test --root "$r" status 2>&1) || st=$?
            case $st:$out in
                5:*"line 1: $libdir/libfastcopy.so.1 -> $libdir/libfastcopy.so.1: not libfastcopy (it defines no fastcopy_version)"*"loads it instead of libfastcopy"*)
                    pass "status${no_test:+ $no_test} on another library named libfastcopy.so.1: not libfastcopy, exit 5" ;;
                *) fail "status${no_test:+ $no_test} on another library named libfastcopy.so.1: exit $st: $out" ;;
            esac
        done
    else
        echo "SKIP: no C compiler ($cc) for the misbehaving-library tests"
    fi
else
    echo "SKIP: no library at $lib for the enable tests"
fi

# status --json: the same verdict, as one JSON object (and the test's
# words off standard output); enable under --root speaks of the system
# there, not of this one.
if [ -r "$lib" ]; then
    r=$work/json; mkdir -p "$r/etc" "$r$libdir"
    cp "$lib" "$r$libdir/libfastcopy.so.1"
    out=$("$tool" --root "$r" enable 2>&1)
    case $out in
        *"every program that the system under $r starts from now on loads $libdir/libfastcopy.so.1"*)
            pass "enable --root: the programs of the system under the root" ;;
        *) fail "enable --root: $out" ;;
    esac
    st=0; out=$("$tool" --root "$r" --json status 2>/dev/null) || st=$?
    case $st:$out in
        '0:{"file":"'*'/etc/ld.so.preload","exists":true,"enabled":true,"library":"'"$r$libdir"'/libfastcopy.so.1","installed":true,'*'"entries":[{"line":1,"entry":"'*'libfastcopy.so.1","loads":"'*'libfastcopy.so.1","state":"ok"'*'}],"status":0}')
            pass "status --json: enabled and ok, as JSON" ;;
        *) fail "status --json: exit $st: $out" ;;
    esac
    "$tool" -q --root "$r" disable
    st=0; out=$("$tool" --root "$r" --json status 2>/dev/null) || st=$?
    case $st:$out in
        '3:{"file":"'*'","exists":false,"enabled":false,'*'"entries":[],"status":3}')
            pass "status --json: not enabled, as JSON" ;;
        *) fail "status --json, not enabled: exit $st: $out" ;;
    esac
fi

# --- 3. usage errors ---------------------------------------------------------------
st=0; "$tool" frobnicate >/dev/null 2>&1 || st=$?
[ $st -eq 2 ] && pass "unknown command exits 2" || fail "unknown command exits $st"
st=0; "$tool" --root relative status >/dev/null 2>&1 || st=$?
[ $st -eq 2 ] && pass "relative --root exits 2" || fail "relative --root exits $st"
st=0; "$tool" --json enable >/dev/null 2>&1 || st=$?
[ $st -eq 2 ] && pass "--json with enable exits 2" || fail "--json with enable exits $st"

finish
