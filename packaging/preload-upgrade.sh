# SPDX-License-Identifier: MIT
# Upgrades that cannot take the system down, for the package scripts of
# libfastcopy1 (Debian) and libfastcopy (RPM).  Needs preload-remove.sh
# and preload-test.sh before it.
#
# A new library, or a new C library under it, may crash every process.
# With the preload enabled, that would kill the package manager halfway
# through the upgrade, and every program after it.  So:
#
#   fastcopy_preload_suspend [ROOT]
#       before the new files are unpacked (Debian preinst, RPM %pre, and
#       RPM's %triggerprein on glibc): when libfastcopy has entries in
#       ROOT/etc/ld.so.preload, keep a copy of the file, take the entries
#       out, and keep a copy of what is left.  Processes started during
#       the upgrade run without libfastcopy.  Does nothing when the entries
#       are already out for an upgrade (the copy exists).
#
#   fastcopy_preload_resume [ROOT] LIBRARY ENTRY
#       after the unpack (Debian postinst, or postrm when the unpack
#       failed; RPM %post and %triggerin): when entries were taken out,
#       run fastcopy_preload_test on LIBRARY, the path of the library now
#       installed, and on the other x86 ABI's copy of it when there is
#       one (the entry loads both).  If it passes, the file goes back as it was, byte for
#       byte, when nobody changed it meanwhile; else ENTRY is added at its
#       end as 'fastcopy-preload enable' would.  If the test fails, the
#       entries stay out and a message says why and what to do.
#
#   fastcopy_preload_recheck [ROOT] LIBRARY
#       after the C library changed under an enabled preload (Debian's
#       trigger on libc6's files, which runs only after libc6 is
#       unpacked): resume when entries were taken out; otherwise, when
#       libfastcopy is enabled, run the test, and take the entries out
#       when it fails.
#
# All return 0 unless a file could not be written (1, after a message):
# a library that fails its test is not an error of the upgrade, it is
# simply left out.  The copies are kept in ROOT/var/lib/libfastcopy, which
# is removed again once they are not needed.

_fastcopy_preload_state ()
{
    printf '%s/var/lib/libfastcopy' "$_fc_root"
}

fastcopy_preload_suspend ()
{
    _fastcopy_preload_locate "${1:-}" || return 1
    _fcu_state=$(_fastcopy_preload_state)
    if [ -e "$_fcu_state/preload.before" ]; then
        # Out already; make sure nothing put an entry back meanwhile.
        fastcopy_preload_remove "${1:-}"
        return
    fi
    [ -n "$_fc_file" ] || return 0
    mkdir -p -- "$_fcu_state" || return 1
    _fastcopy_preload_locked _fastcopy_preload_suspend_locked
}

_fastcopy_preload_suspend_locked ()
{
    cp -p -- "$_fc_file" "$_fcu_state/preload.new" || return 1
    _fastcopy_preload_edit || {
        rm -f -- "$_fcu_state/preload.new"
        return 1
    }
    if [ -f "$_fc_path" ] && cmp -s -- "$_fc_path" "$_fcu_state/preload.new"; then
        rm -f -- "$_fcu_state/preload.new"      # not enabled: nothing to do
        rmdir -- "$_fcu_state" 2>/dev/null || :
        return 0
    fi
    # What the upgrade left, so that resume can tell whether anybody
    # changed the file meanwhile ("absent" when nothing was left).
    rm -f -- "$_fcu_state/preload.left"
    if [ -e "$_fc_path" ]; then
        cp -- "$_fc_path" "$_fcu_state/preload.left" || return 1
    fi
    sync -- "$_fcu_state/preload.new" &&
        mv -f -- "$_fcu_state/preload.new" "$_fcu_state/preload.before" || return 1
    echo "libfastcopy: took libfastcopy out of $_fc_path during the upgrade;" \
        "it goes back once the new library passes its test"
}

fastcopy_preload_resume ()
{
    if [ $# -lt 3 ]; then set -- "" "$@"; fi
    _fastcopy_preload_locate "$1" || return 1
    _fcu_state=$(_fastcopy_preload_state)
    [ -e "$_fcu_state/preload.before" ] || return 0
    _fcu_rc=0
    fastcopy_preload_test "$2" "$3" || _fcu_rc=$?
    # The other ABI's library, which the same entry loads in its processes
    # (both may have been upgraded together, with one suspend and one
    # resume).
    _fcu_failed=$2
    _fcu_other=$(_fastcopy_preload_other_abi "$2")
    if [ $_fcu_rc -ne 1 ] && [ -n "$_fcu_other" ] && [ -e "$_fcu_other" ]; then
        fastcopy_preload_test "$_fcu_other" || { _fcu_rc=1; _fcu_failed=$_fcu_other; }
    fi
    if [ $_fcu_rc -eq 1 ]; then
        cat >&2 <<EOF
libfastcopy: the installed library $_fcu_failed FAILED its test (above),
so it stays out of $_fc_path: programs run without libfastcopy.
Once the package is fixed (or the old version is back), run
'fastcopy-preload enable' to add it again.
EOF
        _fastcopy_preload_forget
        return 0
    fi
    _fastcopy_preload_locked _fastcopy_preload_resume_locked "$3" || return 1
    _fastcopy_preload_forget
}

# The copies are no longer needed; their directory goes when empty.
_fastcopy_preload_forget ()
{
    rm -f -- "$_fcu_state/preload.before" "$_fcu_state/preload.left"
    rmdir -- "$_fcu_state" 2>/dev/null || :
}

# With the lock held: the file as it was before the upgrade when it is
# still as the upgrade left it, else the file with ENTRY added.
_fastcopy_preload_resume_locked ()
{
    if { [ ! -e "$_fcu_state/preload.left" ] && [ ! -e "$_fc_path" ]; } ||
        { [ -e "$_fcu_state/preload.left" ] && [ -f "$_fc_path" ] &&
          cmp -s -- "$_fcu_state/preload.left" "$_fc_path"; }; then
        _fcu_tmp=$(mktemp "$_fc_dir/.ld.so.preload.fastcopy-XXXXXX") &&
            cat -- "$_fcu_state/preload.before" >"$_fcu_tmp" &&
            _fastcopy_preload_install "$_fcu_tmp" "$_fcu_state/preload.before" || return 1
        echo "libfastcopy: the new library passed its test; $_fc_path is as before the upgrade"
        return 0
    fi
    if [ -e "$_fc_path" ] && [ ! -f "$_fc_path" ]; then
        echo "libfastcopy: $_fc_path is no longer a regular file; not adding libfastcopy back" >&2
        return 0
    fi
    _fcu_tmp=$(mktemp "$_fc_dir/.ld.so.preload.fastcopy-XXXXXX") || return 1
    if [ -s "$_fc_path" ]; then
        cat -- "$_fc_path" >"$_fcu_tmp" || return 1
        # The entry goes on a line of its own.
        [ -z "$(tail -c 1 -- "$_fc_path")" ] || echo >>"$_fcu_tmp"
    fi
    printf '%s\n' "$1" >>"$_fcu_tmp" || return 1
    if [ -e "$_fc_path" ]; then
        _fastcopy_preload_install "$_fcu_tmp" "$_fc_path"
    else
        _fastcopy_preload_install "$_fcu_tmp" "$_fcu_state/preload.before"
    fi || return 1
    echo "libfastcopy: the new library passed its test; $_fc_path changed during" \
        "the upgrade, so '$1' was added at its end"
}

# _fastcopy_preload_other_abi LIBRARY: where the other x86 ABI's copy of
# LIBRARY would be: Debian's multiarch directories, or lib64 and lib.
_fastcopy_preload_other_abi ()
{
    case $1 in
        */x86_64-linux-gnu/*) printf '%s\n' "${1%%/x86_64-linux-gnu/*}/i386-linux-gnu/${1##*/}" ;;
        */i386-linux-gnu/*) printf '%s\n' "${1%%/i386-linux-gnu/*}/x86_64-linux-gnu/${1##*/}" ;;
        */lib64/*) printf '%s\n' "${1%%/lib64/*}/lib/${1##*/}" ;;
        */lib/*) printf '%s\n' "${1%%/lib/*}/lib64/${1##*/}" ;;
    esac
}

fastcopy_preload_recheck ()
{
    if [ $# -lt 2 ]; then set -- "" "$@"; fi
    _fastcopy_preload_locate "$1" || return 1
    if [ -e "$(_fastcopy_preload_state)/preload.before" ]; then
        fastcopy_preload_resume "$1" "$2" "/usr/\$LIB/$_fastcopy_preload_library"
        return
    fi
    [ -n "$_fc_file" ] && fastcopy_preload_enabled "$1" || return 0
    if fastcopy_preload_test "$2"; then
        echo "libfastcopy: the C library changed; $2 still passes its test"
        return 0
    fi
    echo "libfastcopy: after the C library changed, $2 FAILS its test (above);" \
        "taking it out of $_fc_path" >&2
    fastcopy_preload_remove "$1"
}

# fastcopy_preload_enabled [ROOT]: libfastcopy has an entry in the file.
fastcopy_preload_enabled ()
{
    _fastcopy_preload_locate "${1:-}" || return 1
    [ -n "$_fc_file" ] || return 1
    if [ -n "$(tail -c 1 -- "$_fc_file")" ]; then _fc_nl=no; else _fc_nl=yes; fi
    ! _fastcopy_preload_filter "$_fc_nl" <"$_fc_file" | cmp -s - "$_fc_file"
}
