#!/bin/bash
# SPDX-License-Identifier: MIT
# Build libfastcopy's Debian and RPM packages from a clean copy of this
# checkout, lint them, and build the RPM "upgrade" packages the end-to-end
# test needs (it repacks the others itself).
#
#   packaging/build-packages.sh [OUTDIR]     (default /tmp/fastcopy-packages)
#
# The checkout itself is never built in: its committed and untracked
# (not ignored) files are copied to a scratch directory first, so the
# build cannot leave files behind in it and cannot pick up stale generated
# files from it.  Needs: git, dpkg-dev, debhelper, dh-autoreconf, lintian,
# rpm, rpmlint, cpio (and the build dependencies in debian/control).
#
# OUTDIR/deb      the .deb, .dsc, source tarball, .changes, .buildinfo
# OUTDIR/deb-i386 the i386 .debs (libfastcopy1, libfastcopy-dev), when
#                 gcc-multilib and binutils-i686-linux-gnu are installed
# OUTDIR/rpm      the .src.rpm and .rpm files (release 1)
# OUTDIR/rpm-up   binary RPMs with release 2, for the upgrade test
# OUTDIR/logs     build logs; lintian.txt and rpmlint.txt
#
# OUTDIR/logs/checks-deb.txt and checks-rpm.txt are the result lines of
# each build's testsuite, for packaging/compare-checks.sh.
#
# FASTCOPY_NOCHECK=1 skips the testsuite in both builds (DEB_BUILD_OPTIONS=
# nocheck, rpmbuild --nocheck): for working on the packaging while the
# suite is red, and for CI's second build, which only shows that two
# builds give the same bytes.
#
# Both builds skip testsuite/packaging/test-check-twice.sh (FC_CHECK_TWICE=no): it
# builds copies of the distributed tree in and out of it, as the package
# builds do, whatever build runs it, so the plain make check's run shows
# all it can (compare-checks.sh expects it skipped here).
#
# Exits non-zero when a build fails, when a package contains the build
# directory's name or lacks a file it must ship, or when lintian reports
# an error or warning.
# rpmlint's findings are printed and kept in logs/rpmlint.txt; any error or
# warning fails the script unless FASTCOPY_RPMLINT_ERRORS_OK=1.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-/tmp/fastcopy-packages}
jobs=${FASTCOPY_JOBS:-$(nproc)}
start=$(date +%s)
export FC_CHECK_TWICE=no

step () { printf '\n=== %s (%ds)\n' "$*" $(($(date +%s) - start)); }
die () { echo "build-packages: $*" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out"/{deb,rpm,rpm-up,logs}
out=$(cd "$out" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/fastcopy-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The testsuite runs the setuid, AT_SECURE and unreadable-file checks as
# user nobody, who must reach the build tree: not a mode 0700 directory.
chmod 0755 "$work"

# checks LOG OUT: the testsuite's result lines in a build log, into OUT,
# and their counts.
checks ()
{
    grep -E '^(PASS|FAIL|UNSUPPORTED|UNTESTED|UNRESOLVED|XPASS|XFAIL|KFAIL|ERROR|SKIP): ' "$1" >"$2" || :
    cut -d: -f1 "$2" | sort | uniq -c
}

# unpacked DIR PACKAGE...: the packages' files, side by side, under DIR.
unpacked ()
{
    local dir=$1 pkg
    shift
    for pkg in "$@"; do
        mkdir -p "$dir/$(basename "$pkg")"
        case $pkg in
            *.deb) dpkg-deb -x "$pkg" "$dir/$(basename "$pkg")" ;;
            *.rpm) (cd "$dir/$(basename "$pkg")" && rpm2cpio "$pkg" | cpio -idm --quiet) ;;
        esac
    done
}

# contents DIR PACKAGE...: no file of the packages holds the build
# directory's name (two builds must give the same bytes), and each
# PATTERN of $must_ship (one a line, "PACKAGE-GLOB PATH-GLOB") is shipped.
contents ()
{
    local dir=$1 pat pkg path found
    shift
    unpacked "$dir" "$@"
    found=$(grep -rlF -e "$work" -e "${top:-$work}" "$dir" | sed "s|^$dir/||" || :)
    [ -z "$found" ] || { echo "$found"; die "these files hold the build directory's name $work or ${top:-$work} (above)"; }
    while read -r pkg path; do
        # shellcheck disable=SC2086
        ls -d "$dir"/$pkg/$path >/dev/null 2>&1 || die "no $path in the $pkg package"
    done <<EOF
$must_ship
EOF
}

# export DIR: the checkout's files (tracked and untracked-but-not-ignored,
# as they are in the working tree) into DIR.
export_tree ()
{
    mkdir -p "$1"
    (cd "$here" &&
        git -c safe.directory="$here" ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
        tar --null -T - -cf -) | tar -C "$1" -xf -
}

version=$(cd "$here" && dpkg-parsechangelog -S Version)
upstream=$(sed -n 's/^AC_INIT(\[libfastcopy\], \[\([^]]*\)\].*/\1/p' "$here/configure.ac")
[ -n "$upstream" ] || die "cannot read the version from configure.ac"
[ "$version" = "$upstream" ] ||
    die "debian/changelog says $version but configure.ac says $upstream"

# --- Debian --------------------------------------------------------------------
step "Debian: dpkg-buildpackage -us -uc -tc (runs make check, cleans up)"
export_tree "$work/deb/libfastcopy-$version"
(
    cd "$work/deb/libfastcopy-$version"
    export DEB_BUILD_OPTIONS="parallel=$jobs ${DEB_BUILD_OPTIONS:-}"
    [ "${FASTCOPY_NOCHECK:-0}" != 1 ] || DEB_BUILD_OPTIONS="$DEB_BUILD_OPTIONS nocheck"
    dpkg-buildpackage -us -uc -tc
) >"$out/logs/dpkg-buildpackage.log" 2>&1 || {
    tail -n 80 "$out/logs/dpkg-buildpackage.log"
    die "dpkg-buildpackage failed; log: $out/logs/dpkg-buildpackage.log"
}
checks "$out/logs/dpkg-buildpackage.log" "$out/logs/checks-deb.txt"
# The build must have cleaned up after itself.
leftover=$(cd "$work/deb/libfastcopy-$version" &&
    diff <(cd "$here" && git -c safe.directory="$here" ls-files --cached --others --exclude-standard | sort) <(find . -type f -printf '%P\n' | sort) | grep '^>' || :)
[ -z "$leftover" ] || { echo "$leftover"; die "dpkg-buildpackage left files behind (above)"; }
cp "$work/deb"/*.deb "$work/deb"/*.dsc "$work/deb"/*.tar.* "$work/deb"/*.changes \
    "$work/deb"/*.buildinfo "$out/deb/"
must_ship='libfastcopy1_* usr/share/doc/libfastcopy1/README.Debian
libfastcopy1_* usr/share/doc/libfastcopy1/README.md*
libfastcopy1_* usr/share/doc/libfastcopy1/examples/fastcopy.conf.example
libfastcopy1_* usr/share/doc/libfastcopy1/copyright
libfastcopy1_* usr/share/man/man5/fastcopy.conf.5*'
contents "$work/deb-contents" "$out"/deb/*.deb

step "lintian"
changes=$(ls "$out"/deb/*.changes)
lint_rc=0
lintian --fail-on error,warning -I --display-experimental \
    "$changes" >"$out/logs/lintian.txt" 2>&1 || lint_rc=$?
cat "$out/logs/lintian.txt"
[ $lint_rc -eq 0 ] || die "lintian reported errors or warnings (exit $lint_rc)"
echo "lintian: no errors or warnings ($(grep -c "^[IXP]:" "$out/logs/lintian.txt" || :) info/experimental/pedantic tags)"

ls -l "$out"/deb

step "Debian: dpkg-buildpackage -ai386 -B (libfastcopy1:i386, libfastcopy-dev:i386)"
# The i386 library for 32-bit programs, built with gcc -m32
# (gcc-multilib; debian/rules) and binutils-i686-linux-gnu.  Its testsuite
# is the i386 build's make check (quickstart.sh check), which runs the
# i386 programs under qemu-user when the kernel cannot: nocheck here.
if echo 'int main (void) { return 0; }' | gcc -m32 -x c -o /dev/null - 2>/dev/null &&
    command -v i686-linux-gnu-strip >/dev/null; then
    mkdir -p "$out/deb-i386"
    export_tree "$work/deb-i386/libfastcopy-$version"
    (
        cd "$work/deb-i386/libfastcopy-$version"
        DEB_BUILD_OPTIONS="parallel=$jobs nocheck" dpkg-buildpackage -ai386 -B -Pnocheck -us -uc
    ) >"$out/logs/dpkg-buildpackage-i386.log" 2>&1 || {
        tail -n 80 "$out/logs/dpkg-buildpackage-i386.log"
        die "dpkg-buildpackage -ai386 failed; log: $out/logs/dpkg-buildpackage-i386.log"
    }
    cp "$work/deb-i386"/*.deb "$work/deb-i386"/*.changes "$work/deb-i386"/*.buildinfo "$out/deb-i386/"
    must_ship='libfastcopy1_* usr/lib/i386-linux-gnu/libfastcopy.so.1.0.0
libfastcopy1_* usr/share/doc/libfastcopy1/README.Debian'
    contents "$work/deb-i386-contents" "$out"/deb-i386/*.deb
    case $(dpkg-deb -f "$out"/deb-i386/libfastcopy1_*_i386.deb Depends) in
        "libc6 (>= "*) ;;
        *) die "libfastcopy1:i386 should depend on libc6 (>= ...), not: $(dpkg-deb -f "$out"/deb-i386/libfastcopy1_*_i386.deb Depends)" ;;
    esac
    lint_rc=0
    lintian --fail-on error,warning -I --display-experimental \
        "$out"/deb-i386/*.changes >"$out/logs/lintian-i386.txt" 2>&1 || lint_rc=$?
    cat "$out/logs/lintian-i386.txt"
    [ $lint_rc -eq 0 ] || die "lintian reported errors or warnings on the i386 packages (exit $lint_rc)"
    ls -l "$out"/deb-i386
else
    echo "no gcc -m32 (gcc-multilib) or no binutils-i686-linux-gnu: the i386 packages are not built"
fi

# --- RPM -------------------------------------------------------------------------
step "RPM: make dist"
export_tree "$work/rpmsrc"
(
    cd "$work/rpmsrc" && ./bootstrap
    mkdir -p "$work/dist" && cd "$work/dist"
    "$work/rpmsrc/configure" --quiet
    # The same tarball from every build of a commit: the changelog's time,
    # names in order, no owner (GNU tar reads TAR_OPTIONS).
    TAR_OPTIONS="--mtime=@$(cd "$here" && dpkg-parsechangelog -S Timestamp) --sort=name --owner=0 --group=0 --numeric-owner" \
        make -j"$jobs" dist
) >"$out/logs/make-dist.log" 2>&1 || {
    tail -n 40 "$out/logs/make-dist.log"
    die "make dist failed; log: $out/logs/make-dist.log"
}
tarball=$work/dist/libfastcopy-$version.tar.xz
[ -f "$tarball" ] || die "make dist did not make $tarball"

step "RPM: rpmbuild -ba (runs make check in %check)"
# rpmbuild's directories go into the packages' headers (the scripts in the
# source package, the optflags below): one fixed path, so that two builds
# give the same bytes.
top=${TMPDIR:-/tmp}/libfastcopy-rpmbuild
rm -rf "$top"
trap 'rm -rf "$work" "$top"' EXIT
mkdir -p "$top"/{SOURCES,SPECS}
cp "$tarball" "$top/SOURCES/"
cp "$here/packaging/preload-remove.sh" "$here/packaging/preload-test.sh" \
    "$here/packaging/preload-upgrade.sh" "$top/SOURCES/"
cp "$here/rpm/libfastcopy.spec" "$top/SPECS/"
# Debian's rpm runs brp-compress (a bash script) with dash, where it fails,
# and its brp-strip removes only debugging information.  Do what the target
# distributions do: compress manual pages, strip binaries (on Fedora
# find-debuginfo strips them and keeps the debugging information apart).
cat >"$work/brp-strip-unneeded" <<'STRIP'
#!/bin/sh
find "$RPM_BUILD_ROOT" -type f ! -path '*/usr/lib/debug/*' -print |
while IFS= read -r f; do
    case $(file -b "$f") in
        ELF*"not stripped"*) "$1" --strip-unneeded "$f" ;;
    esac
done
STRIP
chmod +x "$work/brp-strip-unneeded"
# Fedora's find-debuginfo rewrites the build directory in the debugging
# information (debugedit), so that the binaries' build-ids do not depend
# on it; Debian's rpm does not run it: the compiler maps it here.
rpmbuild_ ()
{
    rpmbuild --nodeps --define "_topdir $top" --define "_smp_mflags -j$jobs" \
        --define "optflags -O2 -g -ffile-prefix-map=$top/BUILD=/usr/src/debug" \
        --define '__brp_compress bash %{_rpmconfigdir}/brp-compress %{?_prefix}' \
        --define "__brp_strip $work/brp-strip-unneeded %{__strip}" \
        "$@"
}
nocheck=
[ "${FASTCOPY_NOCHECK:-0}" != 1 ] || nocheck=--nocheck
rpmbuild_ -ba $nocheck "$top/SPECS/libfastcopy.spec" >"$out/logs/rpmbuild.log" 2>&1 || {
    tail -n 80 "$out/logs/rpmbuild.log"
    die "rpmbuild -ba failed; log: $out/logs/rpmbuild.log"
}
cp "$top"/SRPMS/*.src.rpm "$top"/RPMS/*/*.rpm "$out/rpm/"
ls -l "$out/rpm"
checks "$out/logs/rpmbuild.log" "$out/logs/checks-rpm.txt"
must_ship='libfastcopy-0* usr/share/licenses/libfastcopy*/LICENSE
libfastcopy-0* usr/share/doc/libfastcopy*/fastcopy.conf.example
libfastcopy-0* usr/share/man/man5/fastcopy.conf.5*'
contents "$work/rpm-contents" "$top"/RPMS/*/*.rpm

step "rpmlint"
rpmlint_rc=0
if command -v rpmlint >/dev/null; then
    # The spec is linted from SOURCES, where its Lua finds the preload
    # functions.
    cp "$top/SPECS/libfastcopy.spec" "$top/SOURCES/"
    rpmlint -c "$here/rpm/rpmlint.toml" "$top/SOURCES/libfastcopy.spec" "$out"/rpm/*.rpm \
        >"$out/logs/rpmlint.txt" 2>&1 || rpmlint_rc=$?
    cat "$out/logs/rpmlint.txt"
    # Every finding is either fixed or filtered, with its reason, in
    # rpm/rpmlint.toml: warnings fail too.
    if ! grep -q ' 0 errors, 0 warnings' "$out/logs/rpmlint.txt"; then
        [ "${FASTCOPY_RPMLINT_ERRORS_OK:-0}" = 1 ] ||
            die "rpmlint reported errors or warnings (exit $rpmlint_rc)"
    fi
else
    echo "rpmlint is not installed; skipped" | tee "$out/logs/rpmlint.txt"
fi

step "RPM: release 2 for the upgrade test (rpmbuild -bb --nocheck)"
rm -rf "$top/RPMS"
rpmbuild_ -bb --nocheck --define 'fastcopy_release 2' "$top/SPECS/libfastcopy.spec" \
    >"$out/logs/rpmbuild-up.log" 2>&1 || {
    tail -n 40 "$out/logs/rpmbuild-up.log"
    die "rpmbuild -bb (release 2) failed; log: $out/logs/rpmbuild-up.log"
}
cp "$top"/RPMS/*/*.rpm "$out/rpm-up/"
ls -l "$out/rpm-up"

step "done: packages in $out"
