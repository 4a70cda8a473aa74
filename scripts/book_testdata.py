#!/usr/bin/env python3
"""Makes and checks the test data of Betacut's Polyglot book code with python-chess, the
reference: what python-chess's reader finds in the stored books, what a book made from the PGN
fixtures must hold, and whether a book made by `betacut book make` reads back identically.

  expected   For tests/data/books/performance.bin and lasker-trap.bin: a seeded set of
             positions (start position, common openings, seeded random walks along book moves
             with a few positions whose book moves castle, positions with no entries) and, for
             each, the entries python-chess's `find_all` returns (weight 0 included) and how many
             raw entries have its key; plus the whole book's entry count and digests. For the
             PGN fixtures (annotated.pgn, selfplay.pgn): the entries of the book Polyglot's
             weighting gives (2 a win, 1 a draw for the side that played the move, once per
             game; first N plies; entries in fewer than M games or with score 0 dropped; a
             position's weights scaled into 16 bits if needed; sorted by key, weight
             descending, move), computed here from python-chess's PGN reader and Zobrist hash,
             independently of Betacut. Writes tests/data/books/*.expected.
  selfplay   Plays the self-play fixture with a Betacut binary over UCI: 40 games, the first
             2-8 plies drawn (seeded) from performance.bin's moves, then Betacut at a fixed
             node count on both sides; writes tests/data/books/selfplay.pgn. The games depend
             on the build; the committed file is what the tests use.
  check      Reads a book made by `betacut book make PGN BOOK [--plies N] [--min-games M]`
             with python-chess and compares every entry with the weighting above, and every
             position of the games with `find_all`. Exit 1 on any difference.

usage: scripts/book_testdata.py expected
       scripts/book_testdata.py selfplay BINARY [--games N] [--nodes N]
       scripts/book_testdata.py check BOOK.bin PGN [--plies N] [--min-games M]
"""

import argparse
import random
import sys
from pathlib import Path

import chess
import chess.engine
import chess.pgn
import chess.polyglot

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "books"
SEED = 20260101

# Each (plies, min-games) pair a fixture's expected book is written for.
FIXTURE_BOOKS = [
    ("annotated.pgn", 24, 1),
    ("annotated.pgn", 400, 1),
    ("selfplay.pgn", 24, 3),
    ("selfplay.pgn", 400, 1),
]

OPENINGS = [
    "",
    "e2e4",
    "d2d4",
    "c2c4",
    "g1f3",
    "e2e4 c7c5",
    "e2e4 e7e5",
    "e2e4 e7e6",
    "e2e4 c7c6",
    "d2d4 d7d5 c2c4",
    "d2d4 g8f6 c2c4 e7e6",
    "e2e4 e7e5 g1f3 b8c6 f1b5",
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6",
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 c2c3 g8f6",
    "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6",
    "d2d4 g8f6 c2c4 g7g6 b1c3 f8g7 e2e4 d7d6 g1f3",
    "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7 e2e4",
]

NO_ENTRY_FENS = [
    "8/8/4k3/8/8/4K3/4P3/8 w - - 0 1",
    "r1bq1rk1/ppp2ppp/2n2n2/3pp3/1b1PP3/2N2N2/PPP1BPPP/R1BQK2R w KQ - 0 1",
    "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
]

LASKER_LINE = "d2d4 d7d5 c2c4 e7e5 d4e5 d5d4 e2e3 f8b4 c1d2 d4e3 d2b4 e3f2 e1e2 f2g1n"


def polyglot_raw(board, move):
    """The Polyglot encoding of a legal move: castling as king takes rook."""
    to = move.to_square
    if board.is_castling(move) and not board.chess960:
        rank = chess.square_rank(move.from_square)
        rook_file = 7 if board.is_kingside_castling(move) else 0
        to = chess.square(rook_file, rank)
    promotion = move.promotion - 1 if move.promotion else 0
    return to | move.from_square << 6 | promotion << 12


def board_after(moves):
    board = chess.Board()
    for uci in moves.split():
        board.push_uci(uci)
    return board


def position_block(reader, board):
    key = chess.polyglot.zobrist_hash(board)
    raw = list(reader.find_all(key, minimum_weight=0))
    lines = [f"position {board.fen()}", f"key {key:016x}", f"raw {len(raw)}"]
    for entry in reader.find_all(board, minimum_weight=0):
        lines.append(
            f"move {entry.move.uci()} {entry.raw_move:04x} {entry.weight} {entry.learn}"
        )
    lines.append("end")
    return lines


def book_positions(reader, rng):
    """Openings, seeded walks along book moves, castling positions, positions with none."""
    boards = [board_after(line) for line in OPENINGS]
    castling = []
    walks = 0
    while walks < 60 or len(castling) < 4:
        walks += 1
        if walks > 5000:
            raise SystemExit("no castling entries found along the walks")
        board = chess.Board()
        for ply in range(rng.randint(4, 30)):
            entries = list(reader.find_all(board))
            if not entries:
                break
            if any(board.is_castling(e.move) for e in entries):
                if board.fen() not in {b.fen() for b in castling}:
                    castling.append(board.copy(stack=False))
            if walks <= 60 and ply % 3 == 0:
                boards.append(board.copy(stack=False))
            board.push(reader.weighted_choice(board, random=rng).move)
        if walks <= 60:
            boards.append(board.copy(stack=False))
    boards.extend(castling[:6])
    for _ in range(15):
        board = chess.Board()
        for _ in range(rng.randint(6, 20)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        boards.append(board.copy(stack=False))
    boards.extend(chess.Board(fen) for fen in NO_ENTRY_FENS)
    seen, unique = set(), []
    for board in boards:
        if board.fen() not in seen:
            seen.add(board.fen())
            unique.append(board)
    return unique


def book_expected(name, boards_for):
    path = DATA / name
    lines = [
        f"# Expected entries of {name}, from python-chess {chess.__version__}'s chess.polyglot",
        "# (find_all with minimum_weight 0), written by scripts/book_testdata.py expected.",
        "# Per position: its key, the number of raw entries with that key (legal or not), then",
        "# each legal entry in file order: move (UCI), raw move (hex), weight, learn.",
    ]
    with chess.polyglot.open_reader(path) as reader:
        entries = list(reader)
        xor_keys = 0
        for e in entries:
            xor_keys ^= e.key
        lines.append(f"entries {len(entries)}")
        lines.append(f"xor_keys {xor_keys:016x}")
        lines.append(f"sum_raw_moves {sum(e.raw_move for e in entries)}")
        lines.append(f"sum_weights {sum(e.weight for e in entries)}")
        lines.append(f"sum_learn {sum(e.learn for e in entries)}")
        boards = boards_for(reader)
        with_entries = 0
        castles = 0
        for board in boards:
            block = position_block(reader, board)
            lines.extend(block)
            found = [line for line in block if line.startswith("move ")]
            with_entries += bool(found)
            castles += any(board.is_castling(chess.Move.from_uci(line.split()[1])) for line in found)
    out = DATA / (Path(name).stem + ".expected")
    out.write_text("\n".join(lines) + "\n")
    print(
        f"{out}: {len(boards)} positions, {with_entries} with entries, "
        f"{castles} with castling entries"
    )


def lasker_boards(_reader):
    board = chess.Board()
    boards = [board.copy(stack=False)]
    for uci in LASKER_LINE.split():
        board.push_uci(uci)
        boards.append(board.copy(stack=False))
    return boards


def fixture_book(pgn_path, plies, min_games):
    """The book Polyglot's weighting makes of the games in `pgn_path` (see the header)."""
    tallies = {}
    fens = {}
    with open(pgn_path, encoding="utf-8", errors="replace") as pgn:
        index = 0
        while True:
            game = chess.pgn.read_game(pgn)
            if game is None:
                break
            index += 1
            variant = game.headers.get("Variant", "").lower()
            if variant not in ("", "standard", "chess"):
                continue
            result = game.headers.get("Result", "*")
            white_points = {"1-0": 2, "0-1": 0}.get(result, 1)
            board = game.board()
            for move in list(game.mainline_moves())[:plies]:
                points = white_points if board.turn == chess.WHITE else 2 - white_points
                key = chess.polyglot.zobrist_hash(board)
                raw = polyglot_raw(board, move)
                tally = tallies.setdefault((key, raw), {"games": 0, "score": 0, "last": 0})
                fens.setdefault((key, raw), (board.fen(), move.uci()))
                if tally["last"] != index:
                    tally["last"] = index
                    tally["games"] += 1
                    tally["score"] += points
                board.push(move)
    kept = {k: t["score"] for k, t in tallies.items() if t["games"] >= min_games and t["score"] > 0}
    top = {}
    for (key, _), score in kept.items():
        top[key] = max(top.get(key, 0), score)
    entries = []
    for (key, raw), score in kept.items():
        weight = max(1, score * 65535 // top[key]) if top[key] > 65535 else score
        entries.append((key, raw, weight))
    entries.sort(key=lambda e: (e[0], -e[2], e[1]))
    return entries, fens


def fixture_expected(name, plies, min_games):
    entries, fens = fixture_book(DATA / name, plies, min_games)
    stem = Path(name).stem
    out = DATA / f"{stem}-{plies}-{min_games}.expected"
    lines = [
        f"# The book `betacut book make {name} OUT --plies {plies} --min-games {min_games}` must",
        "# write: one entry a line in file order (key, raw move in hex, weight; learn is 0), then",
        "# a position where it is played and the move in UCI, for reading.",
        "# Computed with python-chess by scripts/book_testdata.py expected.",
        f"entries {len(entries)}",
    ]
    for key, raw, weight in entries:
        fen, uci = fens[(key, raw)]
        lines.append(f"{key:016x} {raw:04x} {weight} {uci} {fen}")
    out.write_text("\n".join(lines) + "\n")
    print(f"{out}: {len(entries)} entries")


def cmd_expected(_args):
    rng = random.Random(SEED)
    book_expected("performance.bin", lambda reader: book_positions(reader, rng))
    book_expected("lasker-trap.bin", lasker_boards)
    for name, plies, min_games in FIXTURE_BOOKS:
        if (DATA / name).exists():
            fixture_expected(name, plies, min_games)
        else:
            print(f"{DATA / name} missing: run `selfplay` first", file=sys.stderr)


def cmd_selfplay(args):
    rng = random.Random(SEED + 1)
    games = []
    with chess.polyglot.open_reader(DATA / "performance.bin") as book, \
            chess.engine.SimpleEngine.popen_uci(args.binary) as engine:
        for number in range(1, args.games + 1):
            board = chess.Board()
            for _ in range(rng.choice([2, 4, 6, 8])):
                entry = book.get(board)
                if entry is None:
                    break
                board.push(book.weighted_choice(board, random=rng).move)
            game_id = object()
            while not board.is_game_over(claim_draw=True) and board.ply() < 200:
                played = engine.play(board, chess.engine.Limit(nodes=args.nodes), game=game_id)
                board.push(played.move)
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "Betacut self-play for the book tests"
            game.headers["Site"] = "scripts/book_testdata.py selfplay"
            game.headers["Date"] = "2026.01.01"
            game.headers["Round"] = str(number)
            game.headers["White"] = "Betacut"
            game.headers["Black"] = "Betacut"
            outcome = board.outcome(claim_draw=True)
            game.headers["Result"] = outcome.result() if outcome else "*"
            games.append(str(game))
            print(f"game {number}: {board.ply()} plies, {game.headers['Result']}")
    out = DATA / "selfplay.pgn"
    out.write_text("\n\n".join(games) + "\n")
    print(f"{out}: {len(games)} games")


def cmd_check(args):
    expected, _ = fixture_book(args.pgn, args.plies, args.min_games)
    problems = 0
    with chess.polyglot.open_reader(args.book) as reader:
        found = [(e.key, e.raw_move, e.weight, e.learn) for e in reader]
        wanted = [(k, r, w, 0) for k, r, w in expected]
        if found != wanted:
            problems += 1
            print(f"entries differ: {len(found)} in the book, {len(wanted)} expected")
            for i, (a, b) in enumerate(zip(found, wanted)):
                if a != b:
                    print(f"first difference at entry {i}: {a} vs {b}")
                    break
        # Every position of the games: python-chess finds the moves the weighting keeps.
        by_key = {}
        for key, raw, weight in expected:
            by_key.setdefault(key, []).append((raw, weight))
        positions = 0
        with open(args.pgn, encoding="utf-8", errors="replace") as pgn:
            while True:
                game = chess.pgn.read_game(pgn)
                if game is None:
                    break
                variant = game.headers.get("Variant", "").lower()
                if variant not in ("", "standard", "chess"):
                    continue
                board = game.board()
                for move in list(game.mainline_moves())[: args.plies]:
                    positions += 1
                    key = chess.polyglot.zobrist_hash(board)
                    read = [
                        (polyglot_raw(board, e.move), e.weight) for e in reader.find_all(board)
                    ]
                    if read != by_key.get(key, []):
                        problems += 1
                        print(f"{board.fen()}: read {read}, expected {by_key.get(key, [])}")
                    board.push(move)
    print(
        f"{args.book}: {len(found)} entries, {positions} game positions looked up, "
        f"{problems} differences"
    )
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("expected")
    selfplay = sub.add_parser("selfplay")
    selfplay.add_argument("binary")
    selfplay.add_argument("--games", type=int, default=40)
    selfplay.add_argument("--nodes", type=int, default=1500)
    check = sub.add_parser("check")
    check.add_argument("book")
    check.add_argument("pgn")
    check.add_argument("--plies", type=int, default=24)
    check.add_argument("--min-games", type=int, default=3)
    args = parser.parse_args()
    if args.command == "expected":
        cmd_expected(args)
    elif args.command == "selfplay":
        cmd_selfplay(args)
    else:
        sys.exit(cmd_check(args))


if __name__ == "__main__":
    main()
