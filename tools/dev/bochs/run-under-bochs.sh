#!/bin/bash
# SPDX-License-Identifier: MIT
# run-under-bochs.sh - run dynamically linked x86-64 Linux test programs inside
# Bochs with a chosen CPU model (e.g. one with AVX-512), headless.
#
# Why: the development host has no AVX-512, and neither qemu-TCG nor valgrind
# execute EVEX code; Bochs' CPU models skylake_x/cnl/icelake/tigerlake do.
#
# How: the given executables/libraries (+ everything `ldd` says they need,
# + static busybox) are packed into an initramfs; a BIOS-bootable isolinux ISO
# with a Linux kernel (the small one from build-kernel.sh boots in seconds,
# Debian's stock kernel works too but needs ~2 min) boots it in Bochs; the
# guest /init runs the --run commands, writes their output and
# "EXIT <status> <command>" lines to the serial port (ttyS0 -> a file on the
# host), then powers off.
#
# Usage:
#   run-under-bochs.sh [options] --out OUTFILE -- FILE...
#
#   FILE...            executables go to /opt/bin/<name>, shared libraries
#                      (*.so, *.so.*) to /opt/lib/<name>; a FILE written
#                      SRC:DEST is put at guest path DEST instead.  Dynamic
#                      dependencies (ldd) are copied to the same path as on
#                      the host (e.g. /lib64/ld-linux-x86-64.so.2).
#   --run 'CMD'        command line run by busybox sh in the guest, in order;
#                      repeatable.  Default: each executable FILE, no args.
#   --out OUTFILE      where the serial console output goes (required).
#   --cpu MODEL        Bochs CPU model (default: corei7_skylake_x).
#                      `--list-cpus` prints the models this Bochs knows.
#   --timeout SECONDS  wall-clock limit for the whole Bochs run (default 900).
#   --kernel FILE      bzImage to boot (default: $BOCHS_KERNEL, else
#                      $FASTCOPY_BOCHS_DIR/vmlinuz-bochs from build-kernel.sh
#                      (default directory ~/.cache/fastcopy-bochs), else
#                      /boot/vmlinuz-*).
#   --megs N           guest RAM in MiB (default 512).
#   --ips N            Bochs instructions per emulated second (default
#                      50000000); only scales guest time vs. instructions.
#   --append 'ARGS'    extra kernel command-line arguments.
#   --keep DIR         keep the work files (iso, bochsrc, bochs.log) in DIR.
#   --status           exit 3 if the run completed but a command failed.
#   -v, --verbose      echo progress to stderr.
#
# In the guest: PATH=/opt/bin:/bin:/sbin:/usr/bin:/usr/sbin, cwd=/tmp (tmpfs),
# LD_LIBRARY_PATH is NOT preset - write e.g.
#   --run 'LD_LIBRARY_PATH=/opt/lib /opt/bin/prog'
#
# Exit status: 0 the guest ran all commands to the end (final marker line
# "@@BOCHS-RUN-DONE@@" is in OUTFILE); 1 it did not (timeout, panic, Bochs
# error - see OUTFILE and, with --keep, bochs.log); 2 usage/setup error;
# 3 with --status, completed but some command exited non-zero.
#
# Only one Bochs runs at a time per invocation; it is single-threaded.

set -eu

prog=${0##*/}
script_dir=$(cd "$(dirname "$0")" && pwd)

die() { echo "$prog: $*" >&2; exit 2; }
say() { [ "$verbose" = 1 ] && echo "$prog: $*" >&2 || :; }

cpu=corei7_skylake_x
timeout=900
out=
kernel=${BOCHS_KERNEL:-}
megs=512
ips=50000000
append=
keep=
check_status=0
verbose=0
runs=()
files=()

# CPU model names, one a line, as printed by `bochs-bin -help cpu`
bochs_cpu_models() {
    bochs-bin -help cpu 2>&1 |
        awk '/^Supported CPU models:/ { on = 1; next } on && /^[a-z]/ { print } on && /quit_sim/ { exit }'
}

usage() { sed -n '/^# Usage:/,/^# Only one/p' "$0" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case $1 in
    --cpu) cpu=${2?}; shift 2 ;;
    --timeout) timeout=${2?}; shift 2 ;;
    --out) out=${2?}; shift 2 ;;
    --run) runs+=("${2?}"); shift 2 ;;
    --kernel) kernel=${2?}; shift 2 ;;
    --megs) megs=${2?}; shift 2 ;;
    --ips) ips=${2?}; shift 2 ;;
    --append) append=${2?}; shift 2 ;;
    --keep) keep=${2?}; shift 2 ;;
    --status) check_status=1; shift ;;
    -v | --verbose) verbose=1; shift ;;
    --list-cpus) bochs_cpu_models; exit 0 ;;
    -h | --help) usage; exit 0 ;;
    --) shift; files=("$@"); break ;;
    *) die "unknown option '$1' (see --help)" ;;
    esac
done

[ -n "$out" ] || die "--out OUTFILE is required"
[ ${#files[@]} -gt 0 ] || [ ${#runs[@]} -gt 0 ] || die "nothing to run"
case $timeout in '' | *[!0-9]*) die "--timeout wants whole seconds" ;; esac
for t in bochs-bin busybox cpio gzip xorriso ldd; do
    command -v $t >/dev/null || die "missing tool: $t"
done
busybox_bin=$(command -v busybox)
# the guest has no libc of its own unless a program brings one: need static
! ldd "$busybox_bin" >/dev/null 2>&1 ||
    die "$busybox_bin is not static (apt-get install busybox-static)"

# --- locate kernel, boot loader, firmware ---------------------------------
if [ -z "$kernel" ]; then
    # prefer the small kernel from build-kernel.sh (boots in seconds)
    work_dir=${FASTCOPY_BOCHS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fastcopy-bochs}
    for k in "$work_dir"/vmlinuz-bochs /boot/vmlinuz-*; do
        [ -f "$k" ] && { kernel=$k; break; }
    done
fi
[ -n "$kernel" ] && [ -r "$kernel" ] ||
    die "no kernel found; run $script_dir/build-kernel.sh or pass --kernel"
isolinux_bin=/usr/lib/ISOLINUX/isolinux.bin
ldlinux_c32=/usr/lib/syslinux/modules/bios/ldlinux.c32
bios=/usr/share/bochs/BIOS-bochs-latest
vgabios=/usr/share/vgabios/vgabios.bin
for f in "$isolinux_bin" "$ldlinux_c32" "$bios" "$vgabios"; do
    [ -r "$f" ] || die "missing $f (apt-get install isolinux syslinux-common bochsbios vgabios)"
done
bochs_cpu_models | grep -qx "$cpu" || die "Bochs does not know CPU model '$cpu' (see --list-cpus)"

# --- work directory ---------------------------------------------------------
if [ -n "$keep" ]; then
    mkdir -p "$keep"
    work=$(cd "$keep" && pwd)
    rm -rf "$work/root" "$work/iso"
else
    work=$(mktemp -d "${TMPDIR:-/tmp}/bochs-run.XXXXXX")
fi
bochs_pid=
cleanup() {
    if [ -n "$bochs_pid" ] && kill -0 "$bochs_pid" 2>/dev/null; then
        kill "$bochs_pid" 2>/dev/null || :
        wait "$bochs_pid" 2>/dev/null || :
    fi
    [ -n "$keep" ] || rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

root=$work/root
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,opt/bin,opt/lib,run.d}

# copy host file $1 to guest path $2 (dereferencing symlinks)
put() {
    mkdir -p "$root$(dirname "$2")"
    cp -L "$1" "$root$2"
}

# --- payload: FILEs and their ldd dependencies ------------------------------
is_lib() { case ${1##*/} in *.so | *.so.*) return 0 ;; *) return 1 ;; esac; }

given_libdirs=
given_real=" "
executables=()
for spec in "${files[@]}"; do
    src=${spec%%:*}
    if [ "$src" != "$spec" ]; then dest=${spec#*:}
    elif is_lib "$src"; then dest=/opt/lib/${src##*/}
    else dest=/opt/bin/${src##*/}
    fi
    [ -f "$src" ] || die "no such file: $src"
    put "$src" "$dest"
    given_real="$given_real$(readlink -f "$src") "
    if is_lib "$src"; then
        given_libdirs="$given_libdirs${given_libdirs:+:}$(cd "$(dirname "$src")" && pwd)"
    elif [ -x "$src" ]; then
        executables+=("$dest")
    fi
done

# ldd output lines:  "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)"
#                    "/lib64/ld-linux-x86-64.so.2 (0x...)"
#                    "libfoo.so.1 => not found"
# The given libraries' directories are searched first so that a program's
# dependency on e.g. libfastcopy.so.1 resolves to the given copy (which is
# already in /opt/lib) instead of being reported missing.
missing=
for spec in "${files[@]}"; do
    src=${spec%%:*}
    deps=$(LD_LIBRARY_PATH="$given_libdirs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
        ldd "$src" 2>/dev/null) || continue   # static binary or not ELF: no deps
    while read -r a b c _; do
        if [ "$b" = "=>" ]; then
            [ "$c" = "not" ] && { missing="$missing $a"; continue; }
            path=$c
        else
            path=$a
        fi
        case $path in /*) ;; *) continue ;; esac      # linux-vdso.so.1 etc.
        case $given_real in *" $(readlink -f "$path") "*) continue ;; esac
        [ -e "$root$path" ] || put "$path" "$path"
        say "dep: $path"
    done <<EOF
$deps
EOF
done
[ -z "$missing" ] || echo "$prog: warning: unresolved libraries:$missing" >&2

cp "$busybox_bin" "$root/bin/busybox"

# --- guest command scripts ----------------------------------------------------
if [ ${#runs[@]} -eq 0 ]; then
    runs=("${executables[@]}")
fi
i=0
for cmd in "${runs[@]}"; do
    i=$((i + 1))
    printf '%s\n' "$cmd" >"$root/run.d/$(printf %03d $i)"
done

# --- guest /init -------------------------------------------------------------
# Quoted heredoc: nothing is expanded on the host.
cat >"$root/init" <<'EOF'
#!/bin/busybox sh
# Guest init: mount pseudo-filesystems, run /run.d/* in order, power off.
/bin/busybox --install -s
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t tmpfs tmpfs /tmp
# Talk to the serial port directly (no job control needed).
exec </dev/null >/dev/ttyS0 2>&1
stty -F /dev/ttyS0 -onlcr 2>/dev/null   # plain \n line ends in the host file
export PATH=/opt/bin:/bin:/sbin:/usr/bin:/usr/sbin HOME=/tmp
cd /tmp
read up _ </proc/uptime
echo "@@BOCHS-RUN-START@@ kernel=$(uname -r) uptime=${up}s"
for f in /run.d/*; do
    [ -f "$f" ] || continue
    cmd=$(tr '\n' ' ' <"$f")
    echo "=== RUN $cmd"
    sh "$f"
    echo "EXIT $? $cmd"
done
read up _ </proc/uptime
echo "@@BOCHS-RUN-DONE@@ uptime=${up}s"
# Let the UART drain its (<=4 KiB) transmit buffer before power-off, or the
# tail of the output is lost.  Costs little: an idle guest is skipped fast.
sleep 1
poweroff -f
EOF
chmod 755 "$root/init"
# An initial console avoids the kernel's "unable to open an initial console"
# warning; needs root for mknod, otherwise /init opens ttyS0 itself.
mknod -m 600 "$root/dev/console" c 5 1 2>/dev/null || :

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) | gzip -6 >"$work/initrd.gz"

# --- bootable ISO (isolinux) -------------------------------------------------
# Kernel options: serial console; quiet; mitigations=off/nokaslr save boot
# time; 8250.nr_uarts=1 limits UART probing; panic=-1 reboots on panic (the
# host loop notices "Kernel panic" and stops Bochs).
# "noxsaves" + "clearcpuid=xsavec" are REQUIRED: Bochs 2.7 reports the
# standard-format XSAVE size in CPUID.(0Dh,1).EBX instead of the compacted
# size; Linux then finds an "XSAVE consistency problem" and disables XSAVE,
# and with it AVX/AVX2/AVX-512.  Without XSAVES/XSAVEC the kernel uses the
# standard (non-compacted) format, whose CPUID sizes are right.  User space
# still sees XSAVEC/XSAVES in CPUID; the kernel merely does not use them.
# "clearcpuid=pku" is REQUIRED for the models with protection keys
# (corei3_cnl, corei7_icelake_u, tigerlake): Bochs lists PKRU (bit 9) as an
# XSAVE state but returns size/offset 0 for CPUID.(0Dh,9); Linux again
# disables XSAVE (icelake/tigerlake then even hang during boot).  ("nopku"
# is not enough on 6.1: it keeps PKRU in the kernel's XSAVE feature mask.)
# "clearcpuid=fsrm" is REQUIRED for icelake/tigerlake: Bochs leaves the
# fast-string bit of IA32_MISC_ENABLE clear, so Linux drops ERMS but keeps
# FSRM, and 6.1's memmove (FSRM without ERMS) overruns short copies ->
# oops at boot.
# "clearcpuid=mwaitx" is needed for the AMD "ryzen" model: Linux's udelay()
# uses MWAITX with a timeout there, which never wakes up in Bochs (hang
# before the first console line).
# All of these only change what the *kernel* uses: CPUID in user space still
# reports XSAVEC, PKU, FSRM, MWAITX (and ERMS).
cmdline="console=ttyS0,115200 quiet noxsaves clearcpuid=xsavec,pku,fsrm,mwaitx mitigations=off nokaslr 8250.nr_uarts=1 panic=-1 $append"
iso_dir=$work/iso
mkdir -p "$iso_dir/isolinux"
cp "$isolinux_bin" "$ldlinux_c32" "$iso_dir/isolinux/"
cp "$kernel" "$iso_dir/vmlinuz"
cp "$work/initrd.gz" "$iso_dir/initrd.gz"
cat >"$iso_dir/isolinux/isolinux.cfg" <<EOF
DEFAULT linux
PROMPT 0
TIMEOUT 0
LABEL linux
  KERNEL /vmlinuz
  INITRD /initrd.gz
  APPEND $cmdline
EOF
xorriso -as mkisofs -quiet -o "$work/boot.iso" -b isolinux/isolinux.bin \
    -c isolinux/boot.cat -no-emul-boot -boot-load-size 4 -boot-info-table \
    "$iso_dir" 2>"$work/xorriso.log" || { cat "$work/xorriso.log" >&2; die "xorriso failed"; }

# --- Bochs configuration -------------------------------------------------------
serial=$work/serial.out
: >"$serial"
# display: Debian's Bochs has no "nogui" module; SDL2 with SDL's dummy video
# driver (package bochs-sdl) is headless.  Fallback: rfb (a VNC server on
# port 5900) told not to wait for a client.
if [ -e /usr/lib/x86_64-linux-gnu/bochs/plugins/libbx_sdl2_gui.so ]; then
    display='display_library: sdl2'
    export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
else
    display='display_library: rfb, options="timeout=0"'
fi
cat >"$work/bochsrc" <<EOF
# generated by $prog
$display
config_interface: textconfig
megs: $megs
# a triple fault ends Bochs (panic) instead of silently rebooting the guest
cpu: model=$cpu, count=1, ips=$ips, reset_on_triple_fault=0
romimage: file=$bios
vgaromimage: file=$vgabios
pci: enabled=1, chipset=i440fx
ata0: enabled=1, ioaddr1=0x1f0, ioaddr2=0x3f0, irq=14
ata0-master: type=cdrom, path="$work/boot.iso", status=inserted
boot: cdrom
floppy_bootsig_check: disabled=1
com1: enabled=1, mode=file, dev="$serial"
# guest time advances with executed instructions: deterministic, no host sync
clock: sync=none, time0=local
mouse: enabled=0
# the host has no sound card; ALSA failure crashes bochs' mixer thread
sound: driver=dummy
speaker: enabled=0
# never stop for user input: abort on panic, just log errors
panic: action=fatal
error: action=report
info: action=report
debug: action=ignore
log: $work/bochs.log
EOF

# --- run Bochs and watch the serial output -----------------------------------
say "booting $cpu (kernel ${kernel##*/}, timeout ${timeout}s)"
start=$(date +%s)
# Debian's Bochs is built with the internal debugger, which stops before the
# first instruction: feed it "continue" from a command file (stdin stays
# /dev/null, so a later drop into the debugger ends Bochs instead of waiting).
echo c >"$work/debugger.rc"
bochs-bin -q -f "$work/bochsrc" -rc "$work/debugger.rc" </dev/null >"$work/bochs.stdout" 2>&1 &
bochs_pid=$!

result=1
reason=timeout
while :; do
    if grep -q '^@@BOCHS-RUN-DONE@@' "$serial" 2>/dev/null; then
        # give the ACPI power-off a moment to end Bochs by itself
        for _ in 1 2; do
            kill -0 "$bochs_pid" 2>/dev/null || break
            sleep 0.5
        done
        reason="done"
        break
    fi
    if ! kill -0 "$bochs_pid" 2>/dev/null; then reason="bochs exited early"; break; fi
    if grep -q 'Kernel panic' "$serial" 2>/dev/null; then sleep 1; reason="kernel panic"; break; fi
    [ $(( $(date +%s) - start )) -lt "$timeout" ] || break
    sleep 0.5
done
if kill -0 "$bochs_pid" 2>/dev/null; then
    kill "$bochs_pid" 2>/dev/null || :
fi
wait "$bochs_pid" 2>/dev/null || :
bochs_pid=
elapsed=$(( $(date +%s) - start ))
# CPU time of all children (Bochs dominates): a load-independent cost figure
times >"$work/times"    # not in $(...): a subshell has its own (zero) times
cpu_used=$(sed -n 2p "$work/times" | awk '{ for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%.1f", t }')

tr -d '\r' <"$serial" >"$out"
if grep -q '^@@BOCHS-RUN-DONE@@' "$out"; then
    result=0
    if [ "$check_status" = 1 ] && grep -q '^EXIT [^0]' "$out"; then result=3; fi
else
    echo "$prog: guest did not finish ($reason after ${elapsed}s); see $out" >&2
    grep -E '^[0-9]+[ep]\[' "$work/bochs.log" 2>/dev/null | grep -vE 'RDMSR|WRMSR|User requested shutdown' | tail -5 >&2 || :
fi
say "finished: $reason, ${elapsed}s wall, ${cpu_used}s CPU, cpu=$cpu"
echo "BOCHS-RUN cpu=$cpu wall_seconds=$elapsed cpu_seconds=$cpu_used reason=$reason" >>"$out"
exit $result
