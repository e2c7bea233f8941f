# SPDX-License-Identifier: MIT
# fastcopy_preload_test LIBRARY [ENTRY]
#
# The test that decides whether LIBRARY may be in /etc/ld.so.preload, and
# so in every process.  'fastcopy-preload enable' runs it before adding the
# entry, 'fastcopy-preload status' on the library each entry loads (both
# carry this file, built into the program), and the package scripts on the
# new library after an upgrade, before they put the entry back.
#
# New processes run with LIBRARY in LD_PRELOAD, a minimal environment and
# at most 20 seconds each:
#   /bin/true                  must exit 0 and print nothing;
#   /bin/sh -c 'echo ok'       must exit 0 and print exactly "ok";
#   /bin/cat /proc/self/maps   must exit 0, print nothing on standard
#                              error, and show LIBRARY mapped (skipped,
#                              with a note, when /proc is not mounted).
# With ENTRY, an /etc/ld.so.preload entry for LIBRARY, cat runs once more
# with ENTRY in LD_PRELOAD, to see that ld.so resolves it to LIBRARY.
#
# A 32-bit (i386) LIBRARY cannot go into those 64-bit programs.  The
# 32-bit C library next to it (LIBRARY's directory, or the same directory
# without /usr) runs instead, as a program: it prints its version banner,
# and must exit 0 with nothing on standard error.  Where no 32-bit C
# library is installed, or the kernel runs no 32-bit program, no 32-bit
# process can load LIBRARY: the test says so and passes.
#
# Returns 0 when every test passed, 2 when only ENTRY did not lead to
# LIBRARY, and 1 after saying on standard error which test failed, how,
# and what it printed.  POSIX sh, coreutils and cmp only.

fastcopy_preload_test ()
{
    _fct_dir=$(mktemp -d -t fastcopy-preload-test.XXXXXX) || {
        echo "cannot create a temporary directory for the test" >&2
        return 1
    }
    _fct_rc=0
    _fastcopy_preload_test_in "$@" || _fct_rc=$?
    rm -rf -- "$_fct_dir"
    return $_fct_rc
}

_fastcopy_preload_test_in ()
{
    _fct_real=$(realpath -- "$1") || {
        echo "cannot resolve $1" >&2
        return 1
    }
    # LD_PRELOAD splits at spaces and colons: reach such a name through a
    # link.
    _fct_lib=$1
    case $_fct_lib in
        *[' 	:']*)
            _fct_lib=$_fct_dir/libfastcopy.so.1
            ln -s -- "$_fct_real" "$_fct_lib" || return 1
            ;;
    esac

    # EI_CLASS, the fifth byte of the ELF header: 1 for a 32-bit file.
    if [ "$(od -An -tu1 -j4 -N1 -- "$_fct_real" | tr -d ' ')" = 1 ]; then
        _fastcopy_preload_test_32 "$_fct_lib"
        return
    fi
    _fastcopy_preload_run "$_fct_lib" /bin/true
    if [ $_fct_st -ne 0 ] || [ -s "$_fct_dir/out" ] || [ -s "$_fct_dir/err" ]; then
        _fastcopy_preload_failed /bin/true
        return 1
    fi
    _fastcopy_preload_run "$_fct_lib" /bin/sh -c 'echo ok'
    if [ $_fct_st -ne 0 ] || [ -s "$_fct_dir/err" ] ||
        ! printf 'ok\n' | cmp -s - "$_fct_dir/out"; then
        _fastcopy_preload_failed "/bin/sh -c 'echo ok'"
        return 1
    fi
    if [ ! -r /proc/self/maps ]; then
        echo "note: /proc is not mounted; cannot check that the library is mapped"
        return 0
    fi
    _fastcopy_preload_run "$_fct_lib" /bin/cat /proc/self/maps
    if [ $_fct_st -ne 0 ] || [ -s "$_fct_dir/err" ]; then
        _fastcopy_preload_failed "/bin/cat /proc/self/maps"
        return 1
    fi
    if ! _fastcopy_preload_mapped; then
        echo "with $1 preloaded, /bin/cat did not map $_fct_real; the library was not loaded" >&2
        return 1
    fi
    if [ -n "${2:-}" ] && [ "$2" != "$1" ]; then
        _fastcopy_preload_run "$2" /bin/cat /proc/self/maps
        [ $_fct_st -eq 0 ] && [ ! -s "$_fct_dir/err" ] && _fastcopy_preload_mapped ||
            return 2
    fi
    return 0
}

# _fastcopy_preload_test_32 LIBRARY: the 32-bit C library of LIBRARY's
# directory, run as a program with LIBRARY preloaded.
_fastcopy_preload_test_32 ()
{
    _fct_libdir=$(dirname -- "$_fct_real")
    for _fct_libc in "$_fct_libdir/libc.so.6" "${_fct_libdir#/usr}/libc.so.6" ""; do
        [ -f "$_fct_libc" ] && break
    done
    if [ -z "$_fct_libc" ]; then
        echo "note: no 32-bit C library in $_fct_libdir; no 32-bit program can load $1 here"
        return 0
    fi
    # Without LIBRARY first: where the kernel runs no 32-bit program, the
    # C library does not run either (and execvp hands it to sh).
    _fastcopy_preload_run "" "$_fct_libc"
    if [ $_fct_st -ne 0 ] || ! _fastcopy_preload_banner; then
        echo "note: $_fct_libc does not run here (no 32-bit programs); nothing can load $1 here"
        return 0
    fi
    # What it prints without LIBRARY (ld.so's complaints about another
    # package's 64-bit-only entry in /etc/ld.so.preload, say) is not
    # LIBRARY's doing.
    mv -f -- "$_fct_dir/err" "$_fct_dir/err.before"
    _fastcopy_preload_run "$1" "$_fct_libc"
    if [ $_fct_st -ne 0 ] || ! cmp -s -- "$_fct_dir/err.before" "$_fct_dir/err" ||
        ! _fastcopy_preload_banner; then
        _fastcopy_preload_failed "$_fct_libc (the 32-bit C library, run as a program)"
        return 1
    fi
    return 0
}

# The last run printed the C library's version banner.
_fastcopy_preload_banner ()
{
    case $(head -c 200 "$_fct_dir/out") in
        *"GNU C Library"*) return 0 ;;
    esac
    return 1
}

# _fastcopy_preload_run PRELOAD COMMAND...: run COMMAND with PRELOAD in
# LD_PRELOAD; its output in $_fct_dir/out and err, its exit status in
# $_fct_st (124: it ran out of time; above 128: a signal).
_fastcopy_preload_run ()
{
    _fct_pre=$1
    shift
    _fct_st=0
    timeout -k 5 20 env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LC_ALL=C LD_PRELOAD="$_fct_pre" "$@" \
        </dev/null >"$_fct_dir/out" 2>"$_fct_dir/err" || _fct_st=$?
}

# The last cat's output maps the library's file.
_fastcopy_preload_mapped ()
{
    while IFS= read -r _fct_line; do
        case $_fct_line in
            *" $_fct_real") return 0 ;;
        esac
    done <"$_fct_dir/out"
    return 1
}

# _fastcopy_preload_failed WHAT: say how the test WHAT failed, with the
# start of its output.
_fastcopy_preload_failed ()
{
    if [ $_fct_st -eq 124 ] || [ $_fct_st -eq 137 ]; then
        echo "test '$1' did not finish within 20 seconds"
    elif [ $_fct_st -gt 128 ]; then
        echo "test '$1' was killed by signal $((_fct_st - 128)) (SIG$(kill -l $((_fct_st - 128))))"
    elif [ $_fct_st -ne 0 ]; then
        echo "test '$1' failed (exit status $_fct_st)"
    else
        echo "test '$1' printed something unexpected"
    fi
    if [ -s "$_fct_dir/err" ]; then
        echo "  its error output was:"
        head -c 4000 "$_fct_dir/err"
        [ -z "$(tail -c 1 "$_fct_dir/err")" ] || echo
    fi
    if [ -s "$_fct_dir/out" ]; then
        echo "  its output was:"
        head -c 4000 "$_fct_dir/out"
        [ -z "$(tail -c 1 "$_fct_dir/out")" ] || echo
    fi
} >&2
