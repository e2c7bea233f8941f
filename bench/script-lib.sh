# SPDX-License-Identifier: MIT
# What the bench's scripts share; sourced, not run, after they set $me,
# their name: an error ends the script with status 1, a usage error with
# status 2 and a pointer to --help, each on one line of standard error.

die () {
    echo "$me: $*" >&2
    exit 1
}

usage_error () {
    echo "$me: $*" >&2
    echo "Try '$me --help' for more information." >&2
    exit 2
}
