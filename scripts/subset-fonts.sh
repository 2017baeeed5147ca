#!/bin/sh
# Regenerates app/fonts/*.woff2 (committed; ~28 kB together) from the @fontsource packages:
# Latin only, Inter's weight axis cut to the weights the store uses (400–700), only the kerning
# and tabular-figure features kept (decision 0029). Needs Debian's `fonttools` (apt-get install
# fonttools python3-brotli); the build does not run it.
set -eu
cd "$(dirname "$0")/.."
LATIN="U+0020-007E,U+00A0-00FF,U+2013-2014,U+2018-201E,U+2022,U+2026,U+20AC,U+2122,U+2212"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fonttools varLib.instancer node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2 wght=400:700 -o "$TMP/inter.ttf"
pyftsubset "$TMP/inter.ttf" --unicodes="$LATIN" --layout-features=kern,tnum --no-hinting --desubroutinize \
  --flavor=woff2 --output-file=app/fonts/inter-latin-400-700.woff2
pyftsubset node_modules/@fontsource/bebas-neue/files/bebas-neue-latin-400-normal.woff2 --unicodes="$LATIN" \
  --layout-features=kern --no-hinting --flavor=woff2 --output-file=app/fonts/bebas-neue-latin-400.woff2
ls -l app/fonts
