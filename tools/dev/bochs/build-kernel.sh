#!/bin/bash
# SPDX-License-Identifier: MIT
# build-kernel.sh - build the small, fast-booting kernel used by
# run-under-bochs.sh (the stock Debian kernel works too, but its xz
# decompression alone takes ~2 minutes inside Bochs).
#
# Source: Debian's linux-source-6.1 package, fetched with `apt-get download`
# and unpacked here (nothing installed under /usr/src).
# Build deps: apt-get install -y bison flex libelf-dev bc (gcc, make).
# Output: $FASTCOPY_BOCHS_DIR (default ~/.cache/fastcopy-bochs)/vmlinuz-bochs
# (+ config-bochs), where the source is unpacked too (about 1.6 GB).
# Runs a single make job (-j1, nice 19) by default; override with JOBS=N.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
work=${FASTCOPY_BOCHS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fastcopy-bochs}
bdir=$work/kernel-build
src=$bdir/linux-source-6.1
obj=$bdir/out
jobs=${JOBS:-1}

if [ ! -d "$src" ]; then
    mkdir -p "$bdir"
    (cd "$bdir" && apt-get download linux-source-6.1)
    dpkg-deb --fsys-tarfile "$bdir"/linux-source-6.1_*.deb |
        tar -xO --wildcards './usr/src/linux-source-6.1.tar.xz' | (cd "$bdir" && tar -xJ)
    rm -f "$bdir"/linux-source-6.1_*.deb
fi

mkdir -p "$obj"
make -C "$src" O="$obj" -s tinyconfig
"$src"/scripts/kconfig/merge_config.sh -m -O "$obj" "$obj/.config" "$here/kernel/bochs-min.config" >/dev/null
make -C "$src" O="$obj" -s olddefconfig
# report fragment options that did not stick (dependency not met)
while IFS= read -r line; do
    case $line in CONFIG_*=n) opt=${line%=n}; grep -q "^$opt=" "$obj/.config" && echo "note: $opt still set" ;;
    CONFIG_*) grep -qx "$line" "$obj/.config" || echo "note: '$line' not applied" ;; esac
done <"$here/kernel/bochs-min.config"
nice -n 19 make -C "$src" O="$obj" -j"$jobs" -s bzImage
cp "$obj/arch/x86/boot/bzImage" "$work/vmlinuz-bochs"
cp "$obj/.config" "$work/config-bochs"
ls -l "$work/vmlinuz-bochs"
