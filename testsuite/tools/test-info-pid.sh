#!/bin/sh
# SPDX-License-Identifier: MIT
# fastcopy-info --pid: what libfastcopy's state in a running process of
# the same user says (the implementations and settings in force and
# where each came from, as FASTCOPY gave them to it; glibc under
# glibc=on), that a process
# without the library does not map it, and why a process of another user
# cannot be looked into (as a user other than root: a process of root's;
# as root: root's process, looked at as nobody), nor one that is not
# dumpable, nor one that the kernel keeps even from root.
#
#   test-info-pid.sh [INFO [LIBRARY]]
#
# Defaults: ./tools/fastcopy-info and ./.libs/libfastcopy.so.1 (make
# check runs in the build directory).  Prints PASS/FAIL lines; exits 1
# when something failed (77, "skipped", when one is missing).
set -u
# configure's verdict (FC_HOST_RUNS): the programs of an i386 build do
# not run on a kernel without IA-32 emulation.
[ "${FC_HOST_RUNS:-yes}" = yes ] ||
    { echo "SKIP: this machine cannot run the build's programs"; exit 77; }

info=${1:-./tools/fastcopy-info}
lib=${2:-./.libs/libfastcopy.so.1}
[ -x "$info" ] || { echo "SKIP: no $info"; exit 77; }
[ -r "$lib" ] || { echo "SKIP: no $lib"; exit 77; }
lib=$(realpath "$lib")
. "$(dirname "$0")/../lib/test-lib.sh"

# Until process $1 has loaded the library and sleeps: the library is
# mapped before its load-time code has run, and a look in between would
# find its state still empty; a process asleep has run it.
loaded_and_asleep ()
{
    i=0
    while [ $i -lt 400 ]; do
        if grep -q libfastcopy "/proc/$1/maps" 2>/dev/null &&
            [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)" = S ]; then
            return 0
        fi
        sleep 0.05
        i=$((i + 1))
    done
}

# A process that maps the library, with settings from FASTCOPY: sleep,
# killed at the end.
env FASTCOPY_CONFIG= FASTCOPY=copy=scalar,rep_stosb_threshold=4K \
    LD_PRELOAD="$lib" sleep 60 &
pid=$!
trap 'kill $pid 2>/dev/null' EXIT
loaded_and_asleep $pid

expect "--pid: the implementations in force and why" 0 \
    "process $pid (sleep): libfastcopy *
implementations:
  copy  scalar   FASTCOPY item 1
  clear * row *
settings:
  copy                 scalar                 FASTCOPY item 1
  clear                auto                   default
*
  rep_stosb_threshold  4096                   FASTCOPY item 2
*
configuration:
  file: none
  FASTCOPY: used
  secure execution: no" \
    env FASTCOPY_CONFIG= FASTCOPY= "$info" --pid "$pid"
expect "--pid --json: the same, as JSON" 0 \
    "{\"pid\":$pid,\"command\":\"sleep\",*\"implementations\":\[{\"family\":\"copy\",\"implementation\":\"scalar\",\"worker\":\"scalar\",\"row\":null,\"origin\":\"FASTCOPY item 1\"}*{\"key\":\"rep_stosb_threshold\",\"value\":\"4096\",\"source\":\"env\",\"origin\":\"FASTCOPY item 2\",\"line\":2}*\"config\":{\"path\":\"\",\"path_from_env\":true,\"file\":\"none\",\"env\":\"used\",\"secure\":false}}" \
    "$info" --json --pid "$pid"
# glibc=on: the process's calls go to glibc's own functions, which --pid
# says in the words fastcopy-info uses of its own process.
env FASTCOPY_CONFIG= FASTCOPY=glibc=on LD_PRELOAD="$lib" sleep 60 &
gpid=$!
trap 'kill $pid $gpid 2>/dev/null' EXIT
loaded_and_asleep $gpid
expect "--pid under glibc=on: glibc runs, and why" 0 \
    "process $gpid (sleep): libfastcopy *
implementations:
  copy  glibc    FASTCOPY item 1: glibc=on
  clear glibc    FASTCOPY item 1: glibc=on

settings:
*
  glibc                on                     FASTCOPY item 1
*" \
    "$info" --pid "$gpid"
expect "--pid --json under glibc=on: the same" 0 \
    "{\"pid\":$gpid,*\"implementations\":\[{\"family\":\"copy\",\"implementation\":\"glibc\",\"worker\":\"glibc\",\"row\":null,\"origin\":\"FASTCOPY item 1: glibc=on\"},{\"family\":\"clear\",\"implementation\":\"glibc\",\"worker\":\"glibc\",\"row\":null,\"origin\":\"FASTCOPY item 1: glibc=on\"}\],*" \
    "$info" --json --pid "$gpid"
expect "fastcopy-info in its own process under glibc=on: the same words" 0 \
    "*
selected:
  memcpy                glibc    FASTCOPY item 1: glibc=on
*" env FASTCOPY_CONFIG= FASTCOPY=glibc=on "$info"

if grep -q libfastcopy "/proc/$$/maps"; then
    echo "SKIP: this shell maps libfastcopy (a system-wide preload)"
else
    expect "--pid of a process without the library: not mapped, status 3" 3 \
        "process $$ (*): libfastcopy is not mapped" "$info" --pid $$
fi
expect "--pid of no process" 1 "fastcopy-info: --pid 2147483646: no such process" \
    "$info" --pid 2147483646
expect "--pid with no number: a usage error" 2 \
    "fastcopy-info: --pid: 'x' is not a process ID
Try 'fastcopy-info --help' for more information." "$info" --pid x

# Another user's process: the kernel does not let its maps be read.
denied="fastcopy-info: --pid 1: cannot read /proc/1/maps: Permission denied (a process of another user: only that user or root may look into it)"
if [ "$(id -u)" != 0 ]; then
    if [ "$(stat -c %u /proc/1)" = 0 ]; then
        expect "--pid of root's process, as another user: why not" 1 "$denied" \
            "$info" --pid 1
    else
        echo "SKIP: process 1 is not root's here"
    fi
elif command -v setpriv >/dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups "$info" --version >/dev/null 2>&1; then
    expect "--pid of root's process, as nobody: why not" 1 "$denied" \
        setpriv --reuid=65534 --regid=65534 --clear-groups "$info" --pid 1
else
    echo "SKIP: nobody cannot run $info here (no setpriv, or the build is not readable)"
fi

# A process of the same user that is not dumpable (prctl, as a program
# that changed its IDs is): the kernel refuses its maps too, and the
# user is not the reason.  As root, both are nobody's.
as=
if [ "$(id -u)" = 0 ]; then
    as="setpriv --reuid=65534 --regid=65534 --clear-groups"
    $as "$info" --version >/dev/null 2>&1 || as=none
fi
# A python3 that the user can run (root's may be in a home nobody cannot
# enter).
py=
for p in "$(command -v python3)" /usr/bin/python3; do
    [ "$as" != none ] && [ -n "$p" ] && $as "$p" -c '' 2>/dev/null &&
        { py=$p; break; }
done
if [ -z "$py" ]; then
    echo "SKIP: a process that is not dumpable (no python3, or nobody cannot run $info)"
else
    $as "$py" -c 'import ctypes, time
ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)
time.sleep(60)' &
    npid=$!
    trap 'kill $pid $gpid $npid 2>/dev/null' EXIT
    # Its /proc files become root's once it is not dumpable; they are
    # root's too while setpriv, before it executes python3, still is.
    i=0
    while [ $i -lt 400 ]; do
        case $(cat "/proc/$npid/comm" 2>/dev/null) in
            python*) [ "$(stat -c %u "/proc/$npid/maps" 2>/dev/null)" = 0 ] && break ;;
        esac
        sleep 0.05
        i=$((i + 1))
    done
    expect "--pid of a process that is not dumpable: why not" 1 \
        "fastcopy-info: --pid $npid: cannot read /proc/$npid/maps: Permission denied (it is not dumpable (it changed its IDs, or made itself so): only a process with CAP_SYS_PTRACE may look into it)" \
        $as "$info" --pid "$npid"
fi

# Where the user and the capabilities allow a look and the kernel still
# refuses it (process 1 of some sandboxes, looked at by root), something
# else refuses it: the message does not blame the user.
cap=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
if [ "$(id -u)" = 0 ] && [ $(((0x${cap:-0} >> 19) & 1)) = 1 ] &&
    [ "$(stat -c %u /proc/1/status)" = 0 ] &&
    ! head -c 1 /proc/1/maps >/dev/null 2>&1; then
    expect "--pid of a process that root with CAP_SYS_PTRACE may not read: why not" 1 \
        "fastcopy-info: --pid 1: cannot read /proc/1/maps: Permission denied (its user and capabilities allow it, so a security module, a sandbox that this program runs in or a user namespace refuses it)" \
        "$info" --pid 1
else
    echo "SKIP: root with CAP_SYS_PTRACE can read process 1's maps here"
fi

finish
