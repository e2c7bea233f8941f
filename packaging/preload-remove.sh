# SPDX-License-Identifier: MIT
# fastcopy_preload_remove [FILE]
#
# Remove libfastcopy's entries from FILE (default /etc/ld.so.preload), the
# way 'fastcopy-preload disable' does, for package scripts that must work
# without fastcopy-preload: the Debian prerm of libfastcopy1 and the RPM
# %preun of libfastcopy include this file.  POSIX sh plus coreutils only
# (Debian: essential packages only).  packaging/test-preload-edit.sh checks
# that it and fastcopy-preload give the same bytes.
#
# Which entries are libfastcopy's: the two lists below.  A line holding
# only such entries goes with its newline; from a line that also names
# other libraries only these names go, each with the separators in front of
# it (for the line's first name: after it).  Every other byte stays,
# comments and a missing final newline included.  A file left empty is
# removed.
#
# The new file is written next to the old one, gets its mode and owner, is
# synced, renamed over it, and the directory is synced: a program starting
# meanwhile sees the old file or the new one, never a partial one.  The
# directory is locked (flock) like fastcopy-preload does.
#
# Returns 0 when done (or nothing to do), 1 after an error message; the file
# is then unchanged.

# The rule, stated here only: the tools' C tables are generated from these
# two lists (tools/common/preload-rule.sh), and
# tools/common/test-preload-rule.sh checks that the shell and the C code
# agree.  An entry is libfastcopy's when its last component matches one of
# the file-name patterns and the part before it (with its last '/') is
# empty, a bare name that ld.so looks up itself, or matches one of the
# directory patterns.  One shell pattern a line; $LIB and ${LIB} are
# ld.so's, written as such in the file.
_fastcopy_preload_names='libfastcopy.so.1
libfastcopy.so.1.*'
_fastcopy_preload_dirs='/usr/$LIB/
/$LIB/
/usr/${LIB}/
/${LIB}/
/usr/lib/x86_64-linux-gnu/
/lib/x86_64-linux-gnu/
/usr/lib64/
/lib64/'

# _fastcopy_preload_matches WORD PATTERNS: WORD matches a line of PATTERNS.
_fastcopy_preload_matches ()
{
    _fc_lf='
'
    _fc_pats=$2
    while [ -n "$_fc_pats" ]; do
        _fc_pat=${_fc_pats%%"$_fc_lf"*}
        _fc_pats=${_fc_pats#"$_fc_pat"}
        _fc_pats=${_fc_pats#"$_fc_lf"}
        case $1 in
            $_fc_pat) return 0 ;;
        esac
    done
    return 1
}

_fastcopy_preload_ours ()
{
    case $1 in
        */*) _fc_d=${1%/*}/ _fc_b=${1##*/} ;;
        *) _fc_d= _fc_b=$1 ;;
    esac
    _fastcopy_preload_matches "$_fc_b" "$_fastcopy_preload_names" || return 1
    [ -z "$_fc_d" ] || _fastcopy_preload_matches "$_fc_d" "$_fastcopy_preload_dirs"
}

# Filter standard input to standard output.  $1: "yes" when the input ends
# with a newline (or is empty).
_fastcopy_preload_filter ()
{
    _fc_sep=' 	:'
    _fc_n=0
    while IFS= read -r _fc_line || [ -n "$_fc_line" ]; do
        case $_fc_line in
            *'#'*) _fc_act=${_fc_line%%#*} _fc_com=${_fc_line#"$_fc_act"} ;;
            *) _fc_act=$_fc_line _fc_com= ;;
        esac
        _fc_rest=$_fc_act
        _fc_before=${_fc_rest%%[!$_fc_sep]*}
        _fc_rest=${_fc_rest#"$_fc_before"}
        _fc_out=$_fc_before _fc_tok_n=0 _fc_ours_n=0 _fc_kept=0
        while [ -n "$_fc_rest" ]; do
            _fc_tok=${_fc_rest%%[$_fc_sep]*}
            _fc_rest=${_fc_rest#"$_fc_tok"}
            _fc_s=${_fc_rest%%[!$_fc_sep]*}
            _fc_rest=${_fc_rest#"$_fc_s"}
            _fc_tok_n=$((_fc_tok_n + 1))
            if _fastcopy_preload_ours "$_fc_tok"; then
                _fc_ours_n=$((_fc_ours_n + 1))
            else
                [ "$_fc_kept" -eq 0 ] || _fc_out=$_fc_out$_fc_before
                _fc_out=$_fc_out$_fc_tok
                _fc_kept=$((_fc_kept + 1))
            fi
            _fc_before=$_fc_s
        done
        if [ "$_fc_ours_n" -eq 0 ]; then
            _fc_out=$_fc_line
        elif [ "$_fc_ours_n" -eq "$_fc_tok_n" ]; then
            _fc_line=
            continue
        else
            _fc_out=$_fc_out$_fc_before$_fc_com
        fi
        [ "$_fc_n" -eq 0 ] || printf '\n'
        printf '%s' "$_fc_out"
        _fc_n=$((_fc_n + 1))
        _fc_line=
    done
    if [ "$_fc_n" -gt 0 ] && [ "$1" = yes ]; then
        printf '\n'
    fi
}

fastcopy_preload_remove ()
{
    _fc_file=${1:-/etc/ld.so.preload}
    if [ -L "$_fc_file" ]; then
        # Edit the file the link points to, as fastcopy-preload does.
        _fc_file=$(readlink -f -- "$_fc_file") || return 0
    fi
    [ -f "$_fc_file" ] || return 0
    grep -q libfastcopy "$_fc_file" || return 0
    _fc_dir=$(dirname -- "$_fc_file")
    _fc_locked=
    if command -v flock >/dev/null 2>&1 && command exec 9<"$_fc_dir"; then
        if flock -w 10 9; then
            _fc_locked=yes
        else
            echo "$_fc_dir is locked by another process; cannot edit $_fc_file" >&2
            exec 9<&-
            return 1
        fi
    fi
    _fc_rc=0
    _fastcopy_preload_edit || _fc_rc=1
    [ -z "$_fc_locked" ] || exec 9<&-
    return $_fc_rc
}

_fastcopy_preload_edit ()
{
    if [ -n "$(tail -c 1 -- "$_fc_file")" ]; then _fc_nl=no; else _fc_nl=yes; fi
    _fc_tmp=$(mktemp "$_fc_dir/.ld.so.preload.fastcopy-XXXXXX") || {
        echo "cannot create a temporary file in $_fc_dir" >&2
        return 1
    }
    if ! _fastcopy_preload_filter "$_fc_nl" <"$_fc_file" >"$_fc_tmp"; then
        echo "cannot write $_fc_tmp" >&2
        rm -f -- "$_fc_tmp"
        return 1
    fi
    if cmp -s -- "$_fc_file" "$_fc_tmp"; then
        rm -f -- "$_fc_tmp"             # only commented-out or foreign mentions
        return 0
    fi
    if [ ! -s "$_fc_tmp" ]; then
        rm -f -- "$_fc_tmp"
        rm -f -- "$_fc_file" && sync -- "$_fc_dir" && return 0
        echo "cannot remove $_fc_file" >&2
        return 1
    fi
    if chmod --reference="$_fc_file" -- "$_fc_tmp" &&
        chown --reference="$_fc_file" -- "$_fc_tmp" &&
        sync -- "$_fc_tmp" &&
        mv -f -- "$_fc_tmp" "$_fc_file" &&
        sync -- "$_fc_dir"
    then
        if [ -e /sys/fs/selinux/enforce ] && command -v restorecon >/dev/null 2>&1; then
            restorecon -- "$_fc_file" || :
        fi
        return 0
    fi
    echo "cannot replace $_fc_file" >&2
    rm -f -- "$_fc_tmp"
    return 1
}
