#!/usr/bin/env bash
# Fills fuzz/corpus/<target>/ with seed inputs from the repository's test data (and from
# ../shared/data when it is there): FENs of the perft suites and WAC, move texts, the sample
# sessions of uci.md and xboard.md, EPD and PGN files, Polyglot books, the built-in network and
# small networks made here, and the small Syzygy tables. Seeds are added, never removed, so the
# corpus a run grew is kept; `rm -rf fuzz/corpus` starts afresh. The corpora are not committed
# (.gitignore): this script makes them again.
#
# usage: fuzz/seed_corpus.sh   (from anywhere; needs python3 for the small networks)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
shared="$root/../shared/data"
corpus="$root/fuzz/corpus"
cd "$root"

for target in fen move_text uci_session xboard_session epd pgn polyglot net_file syzygy_header; do
    mkdir -p "$corpus/$target"
done

# One seed per line of stdin, named by the line's hash (so running again adds no copies).
seed_lines() {
    local dir=$1 line
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        printf '%s' "$line" > "$dir/seed-$(printf '%s' "$line" | sha1sum | cut -c1-16)"
    done
}

# A file (or part of it) as one seed.
seed_file() {
    local dir=$1 file=$2 name=$3
    cp "$file" "$dir/seed-$name"
}

# fen: the positions of the perft suites, WAC and (a sample of) the opening files.
{
    cut -d';' -f1 perft/standard.epd perft/cpw.epd
    awk 'NR % 8 == 1' perft/fischer.epd | cut -d';' -f1
    awk '{print $1, $2, $3, $4}' tests/data/wac.epd
    if [ -d "$shared/openings" ]; then
        awk 'NR % 20 == 1' "$shared/openings/FRC_openings.epd"
        awk 'NR % 200 == 1' "$shared/openings/noob_2moves.epd"
    fi
} | sed 's/ *$//' | seed_lines "$corpus/fen"

# move_text: WAC's best moves (SAN) and coordinate, castling and promotion forms.
{
    sed -n 's/.* bm \([^;]*\);.*/\1/p' tests/data/wac.epd | tr ' ' '\n'
    printf '%s\n' e2e4 e7e5 g1f3 e7e8q e7e8=Q b7b8n b7a8q g2g1n e1g1 e1h1 e1c1 e1a1 e8g8 e8a8 \
        d5d6 e5d6 d4e3 0000 O-O O-O-O 0-0 0-0-0 O-O+ exd6 exd6e.p. bxa8=Q+ bxa8Q b8=N Nbd7 \
        R1e2 Qh4e4 Rad1 Re8# Kf1 gxf1=Q+ g1=R '--' Z0 'e4!?' 'Nf3?!' 'Qxh7+!!'
} | seed_lines "$corpus/move_text"

# The `> ` lines of a document's sample session, as one seed.
session_seed() {
    sed -n '/<!-- session:begin -->/,/<!-- session:end -->/p' "$1" | sed -n 's/^> //p'
}

# uci_session: uci.md's session and a few GUI-like sessions.
session_seed uci.md > "$corpus/uci_session/seed-uci-md"
cat > "$corpus/uci_session/seed-game" <<'EOF'
uci
setoption name Hash value 2
setoption name MultiPV value 2
isready
ucinewgame
position startpos moves e2e4 e7e5
go wtime 1000 btime 1000 winc 10 binc 10
position startpos moves e2e4 e7e5 g1f3 b8c6
go ponder wtime 900 btime 900
ponderhit
stop
position fen r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1 moves e5d6 g2g1q
go depth 3 searchmoves e1g1 b7a8q
go infinite
stop
go perft 2
d
eval
quit
EOF
cat > "$corpus/uci_session/seed-chess960" <<'EOF'
uci
setoption name UCI_Chess960 value true
setoption name UCI_ShowWDL value true
position fen bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 moves g1h1
go nodes 2000
setoption name UCI_LimitStrength value true
setoption name UCI_Elo value 1200
go movetime 50
d
EOF

# xboard_session: xboard.md's session and a few GUI-like sessions.
session_seed xboard.md > "$corpus/xboard_session/seed-xboard-md"
cat > "$corpus/xboard_session/seed-game" <<'EOF'
xboard
protover 2
accepted setboard
new
random
level 40 0:05 0
post
hard
time 500
otim 500
e2e4
time 480
otim 490
usermove g1f3
?
hint
bk
undo
remove
setboard r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1
force
e5d6
st 0.05
go
analyze
exclude e1g1
include all
.
exit
edit
#
Ke1
Pe2
c
ke8
.
variant fischerandom
setboard bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9
sd 3
go
result 1/2-1/2 {draw}
ping 7
EOF

# epd: WAC and the perft suites, ten lines a seed.
epd_chunks() {
    local file=$1 tag=$2
    split -l 10 -d -a 3 "$file" "$corpus/epd/seed-$tag-"
}
epd_chunks tests/data/wac.epd wac
epd_chunks perft/standard.epd standard
epd_chunks perft/cpw.epd cpw
head -n 40 perft/fischer.epd | split -l 10 -d -a 3 - "$corpus/epd/seed-fischer-"

# pgn: every test PGN (the large self-play file cut into pieces of about 4 KB at game starts).
for file in tests/data/annotate/*.pgn tests/data/books/annotated.pgn; do
    seed_file "$corpus/pgn" "$file" "$(basename "$(dirname "$file")")-$(basename "$file")"
done
awk -v dir="$corpus/pgn" '
    /^\[Event / && size > 4000 { part++; size = 0 }
    { print > (dir "/seed-selfplay-" part); size += length($0) + 1 }
' part=0 tests/data/books/selfplay.pgn

# polyglot: the small books, and the first 4 KB (256 entries) of the large one.
seed_file "$corpus/polyglot" tests/data/books/lasker-trap.bin lasker-trap
head -c 4096 tests/data/books/performance.bin > "$corpus/polyglot/seed-performance-4k"
tail -c 4096 tests/data/books/performance.bin > "$corpus/polyglot/seed-performance-tail-4k"

# net_file: the built-in network, and small ones (32 hidden units) of each format version.
seed_file "$corpus/net_file" src/eval/nnue/nets/gen11.bin gen11
python3 - "$corpus/net_file" <<'EOF'
import random, struct, sys

def fnv1a64(data):
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h

def net(version, hidden, buckets, kings, mirrored, seed):
    rng = random.Random(seed)
    payload = b""
    if version == 3:
        if mirrored:
            # The mirror image of a square (file a <-> h) is in the same bucket.
            layout = bytes((sq // 8 * kings // 8) for sq in range(64))
        else:
            layout = bytes((sq % kings) for sq in range(64))
        payload += struct.pack("<HH", kings, 1 if mirrored else 0) + layout
    words = lambda n, lim: struct.pack("<%dh" % n, *(rng.randint(-lim, lim) for _ in range(n)))
    payload += words(kings * 768 * hidden, 20)           # feature weights
    payload += words(hidden, 100)                         # feature biases
    payload += words(buckets * 2 * hidden, 127)          # output weights
    payload += struct.pack("<%di" % buckets, *(rng.randint(-1000, 1000) for _ in range(buckets)))
    if version == 1:
        head = struct.pack("<4sHHI", b"BCNN", 1, 1, hidden)
    else:
        head = struct.pack("<4sHHHH", b"BCNN", version, 1, hidden, buckets)
    head += struct.pack("<HHHHIQ", 255, 64, 400, 1, len(payload), fnv1a64(payload))
    return head + payload

out = sys.argv[1]
for name, args in {
    "v1-h32": (1, 32, 1, 1, False, 1),
    "v2-h32-b4": (2, 32, 4, 1, False, 2),
    "v3-h32-k2": (3, 32, 1, 2, False, 3),
    "v3-h32-k2-mirrored": (3, 32, 2, 2, True, 4),
}.items():
    with open(f"{out}/seed-{name}", "wb") as f:
        f.write(net(*args))
EOF

# syzygy_header: "NAME\n" and the bytes of every table file of at most 16 KB.
tables=tests/data/syzygy
[ -d "$shared/syzygy" ] && tables="$shared/syzygy"
for file in "$tables"/*.rtbw "$tables"/*.rtbz; do
    [ "$(stat -c %s "$file")" -le 16384 ] || continue
    name=$(basename "$file")
    { printf '%s\n' "$name"; cat "$file"; } > "$corpus/syzygy_header/seed-$name"
done

for target in "$corpus"/*/; do
    printf '%-16s %5d seeds\n' "$(basename "$target")" "$(find "$target" -type f | wc -l)"
done
