#!/usr/bin/env bash
# Draws packaging/betacut.png, the logo XBoard shows beside the clock of a game Betacut plays
# (installed by `make install` as share/games/plugins/logos/betacut.png; XBoard looks a logo up
# by the engine's name). 100x50 like the logos of Debian's engines. Needs ImageMagick 6 and the
# DejaVu fonts (Debian: imagemagick, fonts-dejavu-core). The PNG is committed: rerun this only
# to change the drawing.
set -euo pipefail
cd "$(dirname "$0")"
fonts=/usr/share/fonts/truetype/dejavu
# A 2x2 board square, dark squares in walnut, with a beta for Betacut over it; then the name.
convert -size 100x50 xc:white \
    -fill '#f0d9b5' -draw 'rectangle 3,9 34,40' \
    -fill '#8b5a2b' -draw 'rectangle 3,9 18,24' -draw 'rectangle 19,25 34,40' \
    -stroke '#3a2510' -strokewidth 1 -fill none -draw 'rectangle 3,9 34,40' -stroke none \
    -font "$fonts/DejaVuSerif-Bold.ttf" -pointsize 26 \
    -fill white -annotate +9+34 'β' -fill '#1c3f94' -annotate +8+33 'β' \
    -font "$fonts/DejaVuSansCondensed-Bold.ttf" -pointsize 14 -fill '#1c3f94' \
    -annotate +38+25 'Betacut' \
    -font "$fonts/DejaVuSansCondensed.ttf" -pointsize 8.5 -fill '#3a2510' \
    -annotate +38+37 'chess engine' \
    -strip -define png:compression-level=9 betacut.png
echo "packaging/betacut.png: $(identify -format '%wx%h, %b' betacut.png)"
