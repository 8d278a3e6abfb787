#!/bin/bash
# The man page and `crawlscope --help` must name the same long options.
#   check-manpage.sh CRAWLSCOPE MANPAGE
# Options are the words that start with two dashes; roff's \- is read as a dash. Qt's own
# --help-all (added by QCommandLineParser::addHelpOption) is not the program's and is ignored on
# both sides.
set -euo pipefail

exe=${1:?crawlscope executable}
man=${2:?man page}

[ -x "$exe" ] || { echo "FAIL: $exe is not an executable" >&2; exit 1; }
[ -f "$man" ] || { echo "FAIL: $man not found" >&2; exit 1; }

flags() { grep -oE -- '--[a-z][a-z0-9]*(-[a-z0-9]+)*' | grep -vx -- '--help-all' | sort -u; }

help=$(QT_QPA_PLATFORM=offscreen "$exe" --help 2>&1) || {
    echo "FAIL: $exe --help exited $?:" >&2
    echo "$help" >&2
    exit 1
}
in_help=$(flags <<<"$help")
# Leave out comment lines (.\") and turn roff's \- into -.
in_man=$(grep -v '^\.\\"' "$man" | sed 's/\\-/-/g' | flags)

only_man=$(comm -23 <(echo "$in_man") <(echo "$in_help"))
only_help=$(comm -13 <(echo "$in_man") <(echo "$in_help"))

status=0
if [ -n "$only_man" ]; then
    echo "FAIL: in the man page but not in --help:" $only_man >&2
    status=1
fi
if [ -n "$only_help" ]; then
    echo "FAIL: in --help but not in the man page:" $only_help >&2
    status=1
fi
if [ "$status" -eq 0 ]; then
    echo "man page and --help agree on $(wc -l <<<"$in_help") options:" $in_help
fi
exit "$status"
