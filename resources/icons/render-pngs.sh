#!/bin/sh
# Renders the committed PNG copies of the application icon from the SVG sources.
# Run it after changing crawlscope.svg or crawlscope-small.svg, and commit the PNGs it writes.
# Needs rsvg-convert (Debian: apt-get install librsvg2-bin).
#
# 16, 22 and 24 px come from crawlscope-small.svg (drawn on a 16 px grid, thicker lines, fewer
# details); 32 px and up come from crawlscope.svg.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out="$here/png"

if ! command -v rsvg-convert >/dev/null 2>&1; then
    echo "render-pngs.sh: rsvg-convert not found; install it with: apt-get install librsvg2-bin" >&2
    exit 1
fi

mkdir -p "$out"
for size in 16 22 24 32 48 64 128 256; do
    if [ "$size" -le 24 ]; then
        src="$here/crawlscope-small.svg"
    else
        src="$here/crawlscope.svg"
    fi
    rsvg-convert --width "$size" --height "$size" --keep-aspect-ratio \
        --output "$out/crawlscope-$size.png" "$src"
    echo "wrote png/crawlscope-$size.png from $(basename "$src")"
done
