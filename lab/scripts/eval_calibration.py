#!/usr/bin/env python3
"""How much Betacut's own evaluation is worth in points, against a given set of opponents.

    lab/scripts/eval_calibration.py --side NAME[,NAME...] [--min-ply N] [--max-cp CP]
        [--by-opponent] [--by-position] [--by-move] PGN [PGN ...]

Reads match.py's PGNs (each move's comment starts with the mover's score, "+0.26/14 0.436s").
For every move of a game played by a side whose name is in --side, it takes that side's score
(centipawns, from its own view; mates, book moves and |score| > --max-cp are left out, as are
plies before --min-ply) and the game's result from that side's view. It prints the score won
per band of the evaluation and fits a logistic scale K and offset C by maximum likelihood:

    expected points = 1 / (1 + exp(-(cp + C) / K))

C takes up a difference in strength between the sides (or in their clocks).
A large K means an evaluation of +1 wins less often than a small K says. In self-play the
winner and the loser are the same program, so an evaluation that misjudges a kind of position
still wins what it predicts; against other engines it does not. The K of Betacut's games
against others, beside the K of its self-play games, measures that. Where the opponent prints
its own score on the next move, the mean gap between the two views (Betacut's minus the
opponent's, both from Betacut's side) is printed per band too.

--by-move adds where the game turns: at a side's 5th, 10th, ... move, the mean of its own score
and of the opponent's score on the reply, each from its own view (clipped to --max-cp, mates
left out), over the games still running. Two engines that both think they are ahead disagree;
the one whose view the results bear out judged the opening better.

Every game counts as much as its number of sampled moves; the fit's error is the spread of K
over 100 resamples of whole games (seed 1), so moves of one game are not taken as independent.
"""

import argparse
import math
import random
import re
import sys
from typing import Dict, List, Optional, Tuple

from pgn_files import open_pgn

SCORE = re.compile(r"^([+-]\d+\.\d+)/\d+")
BANDS = [(-400, -250), (-250, -150), (-150, -75), (-75, -25), (-25, 25), (25, 75), (75, 150),
         (150, 250), (250, 400)]


def parse_games(path: str) -> list:
    """The games of a PGN file (see [`parse_games_text`])."""
    with open_pgn(path) as f:
        return parse_games_text(f.read())


def parse_games_text(pgn: str) -> list:
    """The headers and the per-ply scores (centipawns from the mover's view, or None) of
    every game in PGN text; movetext is read by its comments only, so no board is needed."""
    games = []
    headers: Dict[str, str] = {}
    text: List[str] = []

    def flush() -> None:
        if not headers:
            return
        scores: List[Optional[int]] = []
        for c in re.findall(r"\{([^}]*)\}", " ".join(text)):
            is_move, cp = comment_score(c)
            if is_move:  # anything else (a game's reason alone) is not a move
                scores.append(cp)
        games.append((dict(headers), scores, None))

    in_moves = False
    for line in pgn.splitlines():
        if line.startswith("["):
            if in_moves:
                flush()
                headers, text, in_moves = {}, [], False
            m = re.match(r'^\[(\w+) "(.*)"\]$', line)
            if m:
                headers[m.group(1)] = m.group(2)
        elif line.strip():
            in_moves = True
            text.append(line)
    flush()
    return games


def collect(paths: List[str], sides: List[str], min_ply: int, max_cp: int,
            on_boards: bool = False):
    """Samples (cp, points, the other side's reply score from this side's view or None, the
    other side's name, game index, position class or None) of the named sides in PGN files;
    the classes of [`parse_games_on_boards`] when `on_boards`."""
    read = parse_games_on_boards if on_boards else parse_games
    games = [g for path in paths for g in read(path)]
    return collect_from_games(games, sides, min_ply, max_cp)


def named_sides(headers: Dict[str, str], num_scores: int, sides: List[str]):
    """For each side of a finished game whose name is in `sides`: (the other side's name, the
    side's points, the indices of its plies among the game's `num_scores` scored comments).
    The comments start at the first move after the FEN (or the book moves, which carry
    "book"), made by the FEN's side to move. In self-play both sides are named."""
    result = headers.get("Result", "*")
    if result not in ("1-0", "0-1", "1/2-1/2"):
        return
    white, black = headers.get("White", ""), headers.get("Black", "")
    white_points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    first = 1 if " b " in headers.get("FEN", "") else 0
    for colour, name, other in ((0, white, black), (1, black, white)):
        if name in sides:
            points = white_points if colour == 0 else 1.0 - white_points
            yield other, points, [i for i in range(num_scores) if (first + i) % 2 == colour]


def collect_from_games(games, sides: List[str], min_ply: int, max_cp: int):
    """[`collect`] over parsed games."""
    samples = []
    for game_index, (headers, scores, kinds) in enumerate(games):
        for other, points, plies in named_sides(headers, len(scores), sides):
            for i in plies:
                cp = scores[i]
                if cp is None or i < min_ply or abs(cp) > max_cp:
                    continue
                reply = scores[i + 1] if i + 1 < len(scores) else None
                opp = -reply if reply is not None and abs(reply) <= 3000 else None
                kind = kinds[i] if kinds else None
                samples.append((cp, points, opp, other, game_index, kind))
    return samples


MOVE_NUMBERS = (5, 10, 15, 20, 25, 30, 40, 50)


def own_scores_by_move(games, sides: List[str], max_cp: int, numbers=MOVE_NUMBERS):
    """For each move number n: (games, the named side's mean own score at its n-th move, the
    opponent's mean own score on its reply, the named side's mean points), centipawns clipped
    to max_cp, over the games that reached the reply with both scores known (not a mate)."""
    def clip(cp: int) -> int:
        return max(-max_cp, min(max_cp, cp))

    rows = {n: [] for n in numbers}
    for headers, scores, _ in games:
        for _, points, own in named_sides(headers, len(scores), sides):
            for n in numbers:
                if len(own) < n or own[n - 1] + 1 >= len(scores):
                    continue
                mine, reply = scores[own[n - 1]], scores[own[n - 1] + 1]
                if mine is None or reply is None:
                    continue
                rows[n].append((clip(mine), clip(reply), points))
    out = []
    for n in numbers:
        r = rows[n]
        if r:
            out.append((n, len(r), sum(x[0] for x in r) / len(r), sum(x[1] for x in r) / len(r),
                        sum(x[2] for x in r) / len(r)))
    return out


def report_by_move(label: str, games, sides: List[str], max_cp: int) -> None:
    print(f"## {label}: each side's own score by move number")
    print("| move | games | the side's own score | the opponent's own score (reply) | the side's points |")
    print("| --- | --- | --- | --- | --- |")
    for n, count, mine, theirs, points in own_scores_by_move(games, sides, max_cp):
        print(f"| {n} | {count} | {mine:+.0f} | {theirs:+.0f} | {100 * points:.1f} % |")
    print()


VALUES = {1: 1, 2: 3, 3: 3, 4: 5, 5: 9, 6: 0}  # python-chess piece types: P N B R Q K


def comment_score(c: str) -> Tuple[bool, Optional[int]]:
    """Whether a comment belongs to a move (an engine's or a book move), and its score."""
    c = c.strip()
    m = SCORE.match(c)
    if m:
        return True, round(float(m.group(1)) * 100)
    if c.startswith("book") or re.match(r"^([+-]M|#|\d+\.\d+s)", c):
        return True, None
    return False, None


def parse_games_on_boards(path: str):
    """As [`parse_games`], with each scored comment's position class: the material balance
    from the mover's view (pawn 1, knight and bishop 3, rook 5, queen 9) as "material ahead"
    (+1 or more), "material level" or "material behind", and "queens on" or "queens off".
    Replays every game, so it needs python-chess (the venv of ../shared/tools/setup.sh)."""
    import chess
    import chess.pgn

    games = []
    with open_pgn(path) as f:
        while True:
            game = chess.pgn.read_game(f)
            if game is None:
                return games
            board = game.board()
            scores: List[Optional[int]] = []
            kinds = []
            for node in game.mainline():
                is_move, cp = comment_score(node.comment)
                if is_move:
                    balance = sum(VALUES[p.piece_type] * (1 if p.color == board.turn else -1)
                                  for p in board.piece_map().values())
                    queens = any(board.pieces(chess.QUEEN, c) for c in chess.COLORS)
                    scores.append(cp)
                    kinds.append(("material ahead" if balance >= 1 else "material behind"
                                  if balance <= -1 else "material level",
                                  "queens on" if queens else "queens off"))
                board.push(node.move)
            games.append((dict(game.headers), scores, kinds))


def fit_scale(samples) -> Tuple[float, float]:
    """K and the offset C maximising the likelihood of the points (draws as half a win) under
    points = 1 / (1 + exp(-(cp + C) / K)): logistic regression by Newton's method on
    (C / K, 1 / K), where the log-likelihood is concave. C takes up a difference in strength
    (the side scores more than its evaluation says when C > 0), so K is the evaluation's scale
    alone."""
    a, b = 0.0, 1.0 / 200.0
    for _ in range(50):
        ga = gb = haa = hab = hbb = 0.0
        for cp, points, *_ in samples:
            p = 1.0 / (1.0 + math.exp(-(a + b * cp)))
            r = points - p
            w = p * (1.0 - p)
            ga += r
            gb += r * cp
            haa += w
            hab += w * cp
            hbb += w * cp * cp
        det = haa * hbb - hab * hab
        if det <= 0.0:
            break
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a += da
        b = min(max(b + db, 1e-5), 1.0)
        if abs(da) < 1e-9 and abs(db) < 1e-12:
            break
    return 1.0 / b, a / b


def resampled_error(samples, runs: int = 100) -> float:
    by_game: Dict[int, list] = {}
    for s in samples:
        by_game.setdefault(s[4], []).append(s)
    games = list(by_game.values())
    rng = random.Random(1)
    ks = []
    for _ in range(runs):
        pick = [s for _ in games for s in rng.choice(games)]
        ks.append(fit_scale(pick)[0])
    mean = sum(ks) / len(ks)
    return math.sqrt(sum((k - mean) ** 2 for k in ks) / (len(ks) - 1))


def report(label: str, samples, error_runs: int) -> None:
    games = len({s[4] for s in samples})
    print(f"## {label}: {games} games, {len(samples)} sampled moves")
    print("| the side's eval (cp) | moves | its points | the other side's eval next move, mean | gap (side - other) |")
    print("| --- | --- | --- | --- | --- |")
    for lo, hi in BANDS:
        band = [s for s in samples if lo <= s[0] < hi]
        if not band:
            continue
        pts = sum(s[1] for s in band) / len(band)
        opp = [s for s in band if s[2] is not None]
        if opp:
            mean_opp = sum(s[2] for s in opp) / len(opp)
            gap = sum(s[0] - s[2] for s in opp) / len(opp)
            opp_text, gap_text = f"{mean_opp:+.0f}", f"{gap:+.0f}"
        else:
            opp_text = gap_text = "-"
        print(f"| {lo} to {hi} | {len(band)} | {100 * pts:.1f} % | {opp_text} | {gap_text} |")
    k, offset = fit_scale(samples)
    err = resampled_error(samples, error_runs) if error_runs > 0 else float("nan")
    print(f"\nlogistic scale K = {k:.0f} +/- {err:.0f} cp (one standard error, games resampled), "
          f"offset C = {offset:+.0f} cp\n")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--side", required=True, help="Betacut's engine names in the PGNs, comma-separated")
    ap.add_argument("--min-ply", type=int, default=8, help="skip the first N plies of engine moves [8]")
    ap.add_argument("--max-cp", type=int, default=400, help="skip scores beyond this [400]")
    ap.add_argument("--by-opponent", action="store_true", help="one table per opponent as well")
    ap.add_argument("--error-runs", type=int, default=100, help="resamples for K's error [100]")
    ap.add_argument("--label", default="all games")
    ap.add_argument("--by-position", action="store_true",
                    help="one table per material balance and per queens on/off (python-chess)")
    ap.add_argument("--by-move", action="store_true",
                    help="each side's own score at its 5th, 10th, ... move")
    ap.add_argument("pgn", nargs="+")
    args = ap.parse_args()
    sides = [s for s in args.side.split(",") if s]
    try:
        samples = collect(args.pgn, sides, args.min_ply, args.max_cp, args.by_position)
    except (OSError, ImportError) as e:
        print(f"eval_calibration.py: {e}", file=sys.stderr)
        return 2
    if not samples:
        print("eval_calibration.py: no sampled moves (check --side against the PGN's names)",
              file=sys.stderr)
        return 1
    report(args.label, samples, args.error_runs)
    if args.by_move:
        games = [g for path in args.pgn for g in parse_games(path)]
        report_by_move(args.label, games, sides, args.max_cp)
    if args.by_position:
        for field in (0, 1):
            for kind in sorted({smp[5][field] for smp in samples}):
                report(f"{args.label}, {kind}", [smp for smp in samples if smp[5][field] == kind],
                       args.error_runs)
    if args.by_opponent:
        for opponent in sorted({s[3] for s in samples}):
            report(f"{args.label}, against {opponent}",
                   [s for s in samples if s[3] == opponent], args.error_runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
