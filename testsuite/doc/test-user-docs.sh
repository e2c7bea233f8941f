#!/bin/sh
# SPDX-License-Identifier: MIT
# What the project tells its users, checked against the project: the
# manual pages speak of the installed programs, not of the source tree or
# its history, carry this version and a place to report bugs; README and
# the example configuration name the configuration file a source build
# reads beside the packages'; quickstart.sh installs for a plain build
# only what the build needs; the Debian metadata names every tool, says
# which CPUs get AVX-512, and ships fastcopy.conf(5) with the library
# that reads the file.
#
#   test-user-docs.sh      (make check runs it in the build directory,
#                           with srcdir set)
#
# Prints PASS/FAIL lines; exits 1 when something failed.
set -u
srcdir=${srcdir:-$(dirname "$0")/../..}
. "$(dirname "$0")/../lib/test-lib.sh"

version=$(sed -n 's/^AC_INIT(\[libfastcopy\], \[\([^]]*\)\].*/\1/p' "$srcdir/configure.ac")
bugs=$(sed -n 's/^AC_INIT(\[libfastcopy\], \[[^]]*\], \[\([^]]*\)\].*/\1/p' "$srcdir/configure.ac")
[ -n "$version" ] && [ -n "$bugs" ] || fail "configure.ac: no version or bug address in AC_INIT"

# The pages as shipped (two are made from .in files at build time).
for page in tools/info/fastcopy-info.1 tools/run/fastcopy-run.1 tools/tune/fastcopy-tune.1.in \
    tools/profile/fastcopy-profile.1 tools/preload/fastcopy-preload.8 bench/fastcopy-bench.1 \
    bench/fastcopy-startup.1 doc/fastcopy.conf.5.in; do
    f=$srcdir/$page
    [ -r "$f" ] || { fail "no $page"; continue; }
    th=$(sed -n 2p "$f")
    case $th in
        ".TH "*" \"libfastcopy $version\" "*) pass "$page: its footer carries libfastcopy $version" ;;
        *) fail "$page: the footer does not carry libfastcopy $version: $th" ;;
    esac
    grep -q -F "$bugs" "$f" && grep -q '^\.SH "REPORTING BUGS"' "$f" &&
        pass "$page: REPORTING BUGS names $bugs" ||
        fail "$page: no REPORTING BUGS section naming $bugs"
    # The source tree and the project's history are no user's business.
    words=$(grep -n -E 'tools/[a-z]|packaging/|testsuite|kernel patch|in the sources' "$f" | head -3)
    [ -z "$words" ] && pass "$page: speaks of no source file or history" ||
        fail "$page: speaks of the sources: $words"
done

# The configuration file: a source build reads /usr/local/etc/fastcopy.conf
# (configure's default sysconfdir) where the packages read /etc's.
for doc in README.md doc/fastcopy.conf.example; do
    if grep -q -F /usr/local/etc/fastcopy.conf "$srcdir/$doc" &&
        grep -q -F /etc/fastcopy.conf "$srcdir/$doc"; then
        pass "$doc names the source build's configuration file beside the packages'"
    else
        fail "$doc does not name both /usr/local/etc/fastcopy.conf and /etc/fastcopy.conf"
    fi
done
grep -q '^## Quick start (Debian 12 or 13)' "$srcdir/README.md" &&
    grep -q -i 'RPM' "$srcdir/README.md" &&
    pass "README: the quick start names Debian 12 and 13, and the RPM packages" ||
    fail "README: the quick start names only Debian 12, or no RPM"

# quickstart.sh: the testsuite's tools only for the checks.
run_deps=$(sh "$srcdir/quickstart.sh" deps run | tr '\n' ' ')
check_deps=$(sh "$srcdir/quickstart.sh" deps check | tr '\n' ' ')
case $run_deps in
    *qemu*|*valgrind*|*multilib*|*dejagnu*) fail "quickstart.sh run installs what only check needs: $run_deps" ;;
    *build-essential*) pass "quickstart.sh run installs only what the build needs: $run_deps" ;;
    *) fail "quickstart.sh deps run: $run_deps" ;;
esac
case $check_deps in
    *dejagnu*qemu-user*valgrind*gcc-multilib*) pass "quickstart.sh check installs the testsuite's tools" ;;
    *) fail "quickstart.sh deps check: $check_deps" ;;
esac

# Debian: every tool in the changelog, AVX-512 in the library's
# description, the configuration file's page with the library.  The
# release tarball has no debian/ (the Debian packages are built from the
# checkout, packaging/build-packages.sh).
if [ -r "$srcdir/debian/control" ]; then
    for tool in fastcopy-info fastcopy-run fastcopy-preload fastcopy-tune \
        fastcopy-profile fastcopy-bench fastcopy-startup; do
        grep -q -w -- "$tool" "$srcdir/debian/changelog" || fail "debian/changelog omits $tool"
    done
    pass "debian/changelog names the tools it ships (missing ones fail above)"
    sed -n '/^Package: libfastcopy1$/,/^$/p' "$srcdir/debian/control" | grep -q 'AVX-512' &&
        pass "debian/control: libfastcopy1's description names AVX-512" ||
        fail "debian/control: libfastcopy1's description never names AVX-512"
    grep -q 'man5' "$srcdir/debian/rules" &&
        ! grep -q '^usr/share/man$' "$srcdir/debian/fastcopy-tools.install" &&
        pass "Debian: fastcopy.conf(5) ships with the library" ||
        fail "Debian: fastcopy.conf(5) ships with the tools, not with the library that reads the file"
else
    echo "SKIP: no debian/ here (a release tarball)"
fi
if sed -n '/^%files$/,/^%files /p' "$srcdir/rpm/libfastcopy.spec" | grep -q 'man5/fastcopy.conf.5' &&
    ! sed -n '/^%files tools$/,/^%changelog/p' "$srcdir/rpm/libfastcopy.spec" | grep -q 'man5'; then
    pass "RPM: fastcopy.conf(5) ships with the library"
else
    fail "RPM: fastcopy.conf(5) ships with the tools, not with the library that reads the file"
fi
finish
