# SPDX-License-Identifier: MIT
# fastcopy_preload_remove [ROOT]
#
# Remove libfastcopy's entries from ROOT/etc/ld.so.preload (ROOT defaults
# to /), the way 'fastcopy-preload disable' does, for package scripts that
# must work without fastcopy-preload: the Debian maintainer scripts of
# libfastcopy1 and the RPM scriptlets of libfastcopy include this file.
# POSIX sh (with test -ef, which dash, bash and busybox have) plus
# coreutils and util-linux's flock (Debian: essential packages only).  testsuite/packaging/test-preload-edit.sh checks that it and
# fastcopy-preload give the same bytes.
#
# A line holding only libfastcopy's entries goes with its newline; from a
# line that also names other libraries only these names go, each with the
# separators in front of it (for the line's first name: after it).  Every
# other byte stays, comments and a missing final newline included.  A file
# left empty is removed, unless /etc/ld.so.preload is a symbolic link: the
# file it points to is the one edited, and it is emptied, never deleted.
# Anything but a regular file is left alone with a warning: ld.so reads no
# entries from it.
#
# The new file is written next to the old one, gets its mode and owner, is
# synced, renamed over it, and the directory is synced: a program starting
# meanwhile sees the old file or the new one, never a partial one.  The
# directory is locked (flock) like fastcopy-preload does.
#
# Returns 0 when done (or nothing to do), 1 after an error message; the file
# is then unchanged.

# Which entries are libfastcopy's: the rule, stated here only.  The tools'
# C code (common/preload-entry.c) follows it with tables generated
# from the lists below (common/preload-rule.sh), and
# testsuite/common/test-preload-rule.sh checks that the shell and the C code
# agree.
#
# An entry is libfastcopy's when, with $LIB (or ${LIB}) replaced by each
# value of _fastcopy_preload_lib_values in turn (as ld.so expands it for
# each ABI; once, as it is, when it has none), it
#   - is an absolute path that names the library's file: the same file
#     (device and inode, symbolic links followed) as
#     DIR/$_fastcopy_preload_library for one of the DIRs of
#     _fastcopy_preload_dirs;
#   - or is an absolute path whose last component matches one of the
#     _fastcopy_preload_names patterns and whose directory, made canonical
#     (symbolic links followed, '.', '..' and repeated '/' resolved, as
#     realpath -m does), is one of those DIRs: an entry spelt differently,
#     or one whose file is already gone;
#   - or is a bare name, which ld.so looks up itself, that matches one of
#     the name patterns or that names the library's file in one of the
#     DIRs.
# Relative paths with a '/' are never libfastcopy's.  A tool installed in
# another directory (a source build for /usr/local) adds its own directory
# to the DIRs.  Paths are resolved inside ROOT; here, absolute symbolic
# links are followed as the host sees them, which for the package scripts
# (ROOT /) is the same.
_fastcopy_preload_library='libfastcopy.so.1'
_fastcopy_preload_names='libfastcopy.so
libfastcopy.so.1
libfastcopy.so.1.*'
_fastcopy_preload_dirs='/usr/lib/x86_64-linux-gnu
/lib/x86_64-linux-gnu
/usr/lib64
/lib64'
_fastcopy_preload_lib_values='lib/x86_64-linux-gnu
lib/i386-linux-gnu
lib64
lib'

# The root the rule works in ("" for /), and a newline.
_fc_root=
_fc_lf='
'

# _fastcopy_preload_matches WORD PATTERNS: WORD matches a line of PATTERNS.
_fastcopy_preload_matches ()
{
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

# _fastcopy_preload_is_library PATH: PATH (absolute, inside the root) is
# the same file as the library in one of the rule's directories.
_fastcopy_preload_is_library ()
{
    _fc_ds=$_fastcopy_preload_dirs
    while [ -n "$_fc_ds" ]; do
        _fc_ld=${_fc_ds%%"$_fc_lf"*}
        _fc_ds=${_fc_ds#"$_fc_ld"}
        _fc_ds=${_fc_ds#"$_fc_lf"}
        [ "$_fc_root$1" -ef "$_fc_root$_fc_ld/$_fastcopy_preload_library" ] && return 0
    done
    return 1
}

# _fastcopy_preload_path_ours PATH: the rule for an entry with $LIB
# expanded.
_fastcopy_preload_path_ours ()
{
    case $1 in
        /*) ;;
        */*) return 1 ;;
        *)
            _fastcopy_preload_matches "$1" "$_fastcopy_preload_names" && return 0
            _fc_bare=$1 _fc_bds=$_fastcopy_preload_dirs
            while [ -n "$_fc_bds" ]; do
                _fc_bd=${_fc_bds%%"$_fc_lf"*}
                _fc_bds=${_fc_bds#"$_fc_bd"}
                _fc_bds=${_fc_bds#"$_fc_lf"}
                _fastcopy_preload_is_library "$_fc_bd/$_fc_bare" && return 0
            done
            return 1
            ;;
    esac
    _fastcopy_preload_is_library "$1" && return 0
    _fastcopy_preload_matches "${1##*/}" "$_fastcopy_preload_names" || return 1
    _fc_pd=${1%/*}
    _fc_pd=$(realpath -m -- "$_fc_root${_fc_pd:-/}") || return 1
    case $_fc_pd in
        "$_fc_root"/*) _fc_pd=${_fc_pd#"$_fc_root"} ;;
        "$_fc_root") _fc_pd=/ ;;
        *) return 1 ;;
    esac
    _fastcopy_preload_matches "$_fc_pd" "$_fastcopy_preload_dirs"
}

# _fastcopy_preload_expand WORD VALUE: WORD with every $LIB and ${LIB}
# replaced by VALUE, on standard output.
_fastcopy_preload_expand ()
{
    _fc_w=$1 _fc_x=
    while :; do
        _fc_a=${_fc_w%%'$LIB'*} _fc_b=${_fc_w%%'${LIB}'*}
        if [ "$_fc_a" != "$_fc_w" ] && [ ${#_fc_a} -le ${#_fc_b} ]; then
            _fc_x=$_fc_x$_fc_a$2 _fc_w=${_fc_w#"$_fc_a"'$LIB'}
        elif [ "$_fc_b" != "$_fc_w" ]; then
            _fc_x=$_fc_x$_fc_b$2 _fc_w=${_fc_w#"$_fc_b"'${LIB}'}
        else
            break
        fi
    done
    printf '%s' "$_fc_x$_fc_w"
}

# _fastcopy_preload_ours ENTRY: ENTRY is libfastcopy's.
_fastcopy_preload_ours ()
{
    case $1 in
        *'$LIB'* | *'${LIB}'*) ;;
        *) _fastcopy_preload_path_ours "$1"; return ;;
    esac
    _fc_entry=$1 _fc_vals=$_fastcopy_preload_lib_values
    while [ -n "$_fc_vals" ]; do
        _fc_val=${_fc_vals%%"$_fc_lf"*}
        _fc_vals=${_fc_vals#"$_fc_val"}
        _fc_vals=${_fc_vals#"$_fc_lf"}
        _fastcopy_preload_path_ours "$(_fastcopy_preload_expand "$_fc_entry" "$_fc_val")" &&
            return 0
    done
    return 1
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
    _fastcopy_preload_locate "${1:-}" || return 1
    [ -z "$_fc_file" ] || _fastcopy_preload_locked _fastcopy_preload_edit
}

# _fastcopy_preload_locate [ROOT]: set _fc_root; _fc_path to the file that
# holds the entries (a link followed; it may not exist), _fc_dir to its
# directory, and _fc_file to _fc_path when there is a file to edit, else
# to "".  Returns 1 after an error message.
_fastcopy_preload_locate ()
{
    _fc_root=
    if [ -n "${1:-}" ] && [ "$1" != / ]; then
        _fc_root=$(realpath -- "$1") || return 1
    fi
    _fc_file=$_fc_root/etc/ld.so.preload _fc_link=
    if [ -L "$_fc_file" ]; then
        # Edit the file the link points to, as fastcopy-preload does, and
        # never delete it.
        _fc_file=$(realpath -m -- "$_fc_file") || return 1
        _fc_link=yes
    fi
    _fc_path=$_fc_file
    _fc_dir=$(dirname -- "$_fc_file")
    if [ ! -e "$_fc_file" ]; then
        _fc_file=
    elif [ ! -f "$_fc_file" ]; then
        # ld.so reads no entry from a FIFO or device; reading it here could
        # block.
        echo "warning: $_fc_file is not a regular file; not touching it" >&2
        _fc_file=
    fi
    return 0
}

# _fastcopy_preload_locked COMMAND...: run COMMAND holding the lock on
# _fc_dir that fastcopy-preload takes too; its status, or 1 when the lock
# was not given within 10 seconds.
_fastcopy_preload_locked ()
{
    _fc_locked=
    if command -v flock >/dev/null 2>&1 && command exec 9<"$_fc_dir"; then
        if flock -w 10 9; then
            _fc_locked=yes
        else
            echo "$_fc_dir is locked by another process; cannot edit $_fc_dir/ld.so.preload" >&2
            exec 9<&-
            return 1
        fi
    fi
    _fc_rc=0
    "$@" || _fc_rc=$?
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
    if [ ! -s "$_fc_tmp" ] && [ -z "$_fc_link" ]; then
        rm -f -- "$_fc_tmp"
        rm -f -- "$_fc_file" && sync -- "$_fc_dir" && return 0
        echo "cannot remove $_fc_file" >&2
        return 1
    fi
    _fastcopy_preload_install "$_fc_tmp" "$_fc_file"
}

# _fastcopy_preload_install TMP REF: rename TMP, a file in _fc_dir, to
# _fc_path, giving it REF's mode and owner first and syncing it and the
# directory.  Returns 1 after an error message; TMP is then gone.
_fastcopy_preload_install ()
{
    if chmod --reference="$2" -- "$1" &&
        chown --reference="$2" -- "$1" &&
        sync -- "$1" &&
        mv -f -- "$1" "$_fc_path" &&
        sync -- "$_fc_dir"
    then
        if [ -z "$_fc_root" ] && [ -e /sys/fs/selinux/enforce ] &&
            command -v restorecon >/dev/null 2>&1; then
            restorecon -- "$_fc_path" || :
        fi
        return 0
    fi
    echo "cannot replace $_fc_path" >&2
    rm -f -- "$1"
    return 1
}
