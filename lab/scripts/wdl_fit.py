#!/usr/bin/env python3
"""Fits Betacut's win/draw/loss model (what `UCI_ShowWDL` prints) to self-play records.

The model, for a search score v in centipawns from the side to move's view:

    win  = 1 / (1 + exp((a - v) / b))
    loss = 1 / (1 + exp((a + v) / b))
    draw = 1 - win - loss

where a (the score at which a win is as likely as not) and b (how slowly the win rate rises
with the score) are polynomials of degree 3 in x = clamp(phase, lo, hi) / anchor. Two phase
variables are fitted and compared on held-out games (PHASES below says why these clamps; a few
other clamps are fitted for comparison):

    material  pawn 1, knight 3, bishop 3, rook 5, queen 9, both sides; clamped to 4..78 and
              divided by 58
    move      the full-move number; clamped to 5..120 and divided by 64

The fit is maximum likelihood: the outcome of each position (win, draw or loss of the side to
move) is a 3-class variable with the probabilities above, and the script minimises the mean
negative log-likelihood (log loss) over the training games by Fisher scoring (Newton's method
with the expected Hessian, which is always positive definite) with step halving. Scores and
phases are integers, so positions are first counted per (score, phase, outcome) cell: the fit
is exact and takes seconds.

Positions of one game share its result, so the held-out set is whole games: game boundaries
are found from the record order (`datagen` writes games in order: a new game starts where the
full-move number drops, the piece count rises or the result changes), and each game goes to
the held-out set with probability --test-fraction, drawn from a generator seeded with --seed.

It reports, on the held-out games: the log loss of a constant model (the training W/D/L
frequencies), of the model with constant a and b, and of both degree-3 models, with a 95 %
interval for their difference from resampling the held-out games; which phase variable it
keeps (the lower held-out log loss if the interval excludes 0, else material, which depends on
the position alone while the move number is whatever the GUI's FEN says); calibration tables (predicted against observed
W/D/L rates per score bin, and per phase bin); and the kept coefficients as Rust constants for
src/search/wdl.rs. --compare A0 A1 A2 A3 B0 B1 B2 B3 also scores a given material model (the
constants in the code before a refit) on the same held-out games, with the 95 % interval of its
difference from the refit.

Record format: see the top of lab/src/records.rs (32 bytes a position; score i16 LE at
byte 24 from White's view; result byte 26 from White's view, 0 Black won, 1 draw, 2 White won;
side to move byte 27; full-move number u16 LE at byte 28; tag 0xB1 at byte 31).

How to run (numpy is the only dependency):

    python3 -m venv ~/.venv-wdl && ~/.venv-wdl/bin/pip install numpy
    nice -n 5 ~/.venv-wdl/bin/python lab/scripts/wdl_fit.py \\
        $BETACUT_DATA/gen6/chunk-000000000.bin $BETACUT_DATA/gen6/chunk-000005000.bin

Options: --seed N (default 20261127), --test-fraction F (default 0.2), --degree D (default 3).
Give complete chunk files only (never a `*.part` file that datagen is still writing).
"""

import argparse
import math
import sys

import numpy as np

RECORD_LEN = 32
RECORD_TAG = 0xB1
# Material value of each piece code modulo 6: pawn, knight, bishop, rook, queen, king.
PIECE_VALUE = np.array([1, 3, 3, 5, 9, 0], dtype=np.int64)

# Phase variables: name -> (clamp low, clamp high, anchor the clamped value is divided by).
# Material: 78 at the start; the low clamp is 4, not Stockfish's 17, because a quarter of
# Betacut's positions have less than 17 (its games are played out to bare endings). Move: the
# random opening plies put the first recorded position at move 5 or later, and 3 % of the
# positions are past move 120, too few to pin the cubics down there (clamped to 200, b falls
# to 0 at the end: see OTHER_CLAMPS).
PHASES = {
    "material": (4, 78, 58.0),
    "move": (5, 120, 64.0),
}

# Other clamps, fitted for comparison only: (label, phase variable, clamp spec).
OTHER_CLAMPS = [
    ("material clamped to 17..78 (Stockfish's), / 58", "material", (17, 78, 58.0)),
    ("material clamped to 1..78, / 58", "material", (1, 78, 58.0)),
    ("move clamped to 5..200, / 64", "move", (5, 200, 64.0)),
]

# Score bins (side to move's view, centipawns) of the calibration table: [low, high).
SCORE_EDGES = [-2000, -1000, -600, -400, -300, -200, -150, -100, -60, -30, -10,
               11, 31, 61, 101, 151, 201, 301, 401, 601, 1001, 2000]


def load(paths):
    """Reads record files; returns a dict of per-position arrays (game ids included)."""
    parts = []
    for path in paths:
        if path.endswith(".part"):
            sys.exit(f"{path}: a file datagen is still writing; give complete chunks only")
        raw = np.fromfile(path, dtype=np.uint8)
        if raw.size % RECORD_LEN:
            sys.exit(f"{path}: {raw.size} bytes is not a whole number of records")
        rec = raw.reshape(-1, RECORD_LEN)
        if np.any(rec[:, 31] != RECORD_TAG):
            sys.exit(f"{path}: a record without the tag byte 0xB1")
        parts.append(rec)
        print(f"{path}: {rec.shape[0]} positions", file=sys.stderr)
    counts = [p.shape[0] for p in parts]
    rec = np.concatenate(parts)

    occupancy = rec[:, 0:8].copy().view("<u8").ravel()
    pieces = np.bitwise_count(occupancy).astype(np.int64)
    nibbles = np.empty((rec.shape[0], 32), dtype=np.int64)
    nibbles[:, 0::2] = rec[:, 8:24] & 15
    nibbles[:, 1::2] = rec[:, 8:24] >> 4
    used = np.arange(32)[None, :] < pieces[:, None]
    material = np.where(used, PIECE_VALUE[nibbles % 6], 0).sum(axis=1)

    white_score = rec[:, 24:26].copy().view("<i2").ravel().astype(np.int64)
    white_result = rec[:, 26].astype(np.int64)  # 0 Black won, 1 draw, 2 White won
    black_to_move = rec[:, 27].astype(np.int64) == 1
    fullmove = rec[:, 28:30].copy().view("<u2").ravel().astype(np.int64)
    if np.any(white_result > 2) or np.any(rec[:, 27] > 1):
        sys.exit("a record with a bad result or side-to-move byte")

    # The side to move's view: score negated and result mirrored when Black moves.
    score = np.where(black_to_move, -white_score, white_score)
    outcome = np.where(black_to_move, 2 - white_result, white_result)  # 0 loss, 1 draw, 2 win

    # Game boundaries: the first record of a file, or where the move number drops, the piece
    # count rises or the result changes.
    new_game = np.zeros(rec.shape[0], dtype=bool)
    new_game[np.cumsum([0] + counts[:-1])] = True
    new_game[1:] |= fullmove[1:] < fullmove[:-1]
    new_game[1:] |= pieces[1:] > pieces[:-1]
    new_game[1:] |= white_result[1:] != white_result[:-1]
    game = np.cumsum(new_game) - 1

    return {
        "score": score,
        "outcome": outcome,
        "material": material,
        "move": fullmove,
        "game": game,
        "games": int(game[-1]) + 1 if rec.shape[0] else 0,
        "white_result": white_result,
    }


def phase_x(values, spec):
    """The polynomials' variable: the phase value clamped to spec's range, divided by its anchor."""
    low, high, anchor = spec
    return np.clip(values, low, high) / anchor


class Cells:
    """Positions counted per (score, phase value) cell, with win/draw/loss counts."""

    def __init__(self, score, phase_values, outcome, spec):
        low, high, anchor = spec
        key_phase = np.clip(phase_values, low, high)
        span = high - low + 1
        key = ((score + 4000) * span + (key_phase - low)) * 3 + outcome
        uniq, n = np.unique(key, return_counts=True)
        cell, out = np.divmod(uniq, 3)
        cells, index = np.unique(cell, return_inverse=True)
        self.counts = np.zeros((cells.size, 3))
        np.add.at(self.counts, (index, out), n)
        self.score = (cells // span - 4000).astype(float)
        self.x = (cells % span + low) / anchor
        self.total = self.counts.sum()


def probabilities(theta, degree, score, x):
    """(win, draw, loss) probabilities and the a, b values for parameters theta."""
    a = np.polyval(theta[: degree + 1][::-1], x)
    b = np.polyval(theta[degree + 1:][::-1], x)
    with np.errstate(divide="ignore", invalid="ignore"):
        # Clipped so that exp never overflows (b <= 0 is rejected by the caller).
        win = 1.0 / (1.0 + np.exp(np.clip((a - score) / b, -700, 700)))
        loss = 1.0 / (1.0 + np.exp(np.clip((a + score) / b, -700, 700)))
    return win, 1.0 - win - loss, loss, a, b


def log_loss(theta, degree, cells):
    """Mean negative log-likelihood per position (nats); inf where the model is invalid."""
    win, draw, loss, a, b = probabilities(theta, degree, cells.score, cells.x)
    if np.any(b <= 0) or np.any(draw <= 0):
        return math.inf
    p = np.stack([loss, draw, win], axis=1)
    return float(-(cells.counts * np.log(np.maximum(p, 1e-300))).sum() / cells.total)


def fit(cells, degree, start=None):
    """Maximum-likelihood coefficients (a's ascending, then b's) by Fisher scoring."""
    k = degree + 1
    theta = np.zeros(2 * k)
    if start is None:
        theta[0], theta[k] = 100.0, 100.0
    else:
        old_k = len(start) // 2
        theta[:old_k], theta[k:k + old_k] = start[:old_k], start[old_k:]
    powers = np.stack([cells.x ** i for i in range(k)], axis=1)
    n = cells.counts.sum(axis=1)
    current = log_loss(theta, degree, cells)
    for _ in range(200):
        win, draw, loss, a, b = probabilities(theta, degree, cells.score, cells.x)
        u = (cells.score - a) / b
        t = (-cells.score - a) / b
        sw, sl = win * (1 - win), loss * (1 - loss)
        # Derivatives of win and loss with respect to a and b, per cell.
        dwin = np.stack([-sw / b, -sw * u / b], axis=1)
        dloss = np.stack([-sl / b, -sl * t / b], axis=1)
        ddraw = -(dwin + dloss)
        # Jacobians with respect to theta: (cells, classes, parameters).
        jac = np.empty((cells.score.size, 3, 2 * k))
        for cls, d in enumerate((dloss, ddraw, dwin)):
            jac[:, cls, :k] = d[:, :1] * powers
            jac[:, cls, k:] = d[:, 1:] * powers
        # Floored: a class whose probability underflows to 0 has no positions anyway.
        p = np.maximum(np.stack([loss, draw, win], axis=1), 1e-15)
        grad = -np.einsum("ck,ckj->j", cells.counts / p, jac) / cells.total
        fisher = np.einsum("c,ck,cki,ckj->ij", n, 1.0 / p, jac, jac) / cells.total
        step = np.linalg.solve(fisher + 1e-12 * np.eye(2 * k), -grad)
        scale = 1.0
        while scale > 1e-6:
            candidate = theta + scale * step
            value = log_loss(candidate, degree, cells)
            if value <= current:
                break
            scale /= 2
        else:
            break
        theta, previous, current = candidate, current, value
        if previous - current < 1e-12:
            break
    return theta, current


def params_range(theta, degree, spec):
    """Smallest a and smallest b over the whole clamped phase range: both must be > 0 (a <= 0
    makes the draw rate negative, b <= 0 turns the win rate around)."""
    x = phase_x(np.arange(spec[0], spec[1] + 1), spec)
    a = np.polyval(theta[: degree + 1][::-1], x)
    b = np.polyval(theta[degree + 1:][::-1], x)
    return float(a.min()), float(b.min())


def params_note(theta, degree, spec):
    a, b = params_range(theta, degree, spec)
    bad = "  INVALID" if a <= 0 or b <= 0 else ""
    return f"; smallest a {a:.1f}, smallest b {b:.1f}{bad}"


def fit_phase(data, train, test, phase, spec, degree):
    """Fits on the training positions; returns (theta, training loss, held-out loss, flat fit)."""
    score, outcome = data["score"], data["outcome"]
    train_cells = Cells(score[train], data[phase][train], outcome[train], spec)
    test_cells = Cells(score[test], data[phase][test], outcome[test], spec)
    flat, _ = fit(train_cells, 0)
    theta, train_loss = fit(train_cells, degree, flat)
    return theta, train_loss, log_loss(theta, degree, test_cells), (flat, test_cells)


def position_loss(theta, degree, score, x, outcome):
    """Per-position negative log-likelihood."""
    win, draw, loss, _, _ = probabilities(theta, degree, score.astype(float), x)
    p = np.stack([loss, draw, win], axis=1)[np.arange(score.size), outcome]
    return -np.log(np.maximum(p, 1e-300))


def game_resampled_interval(per_position, games, seed):
    """95 % interval of the mean of a per-position quantity when the held-out games are
    resampled 1000 times (the positions of a game together, as their outcomes are), with a
    generator seeded with `seed`; `games` numbers each position's game from 0."""
    per_game = np.bincount(games, weights=per_position)
    count = np.bincount(games)
    rng = np.random.default_rng(seed)
    means = []
    for _ in range(1000):
        pick = rng.integers(0, per_game.size, per_game.size)
        means.append(per_game[pick].sum() / count[pick].sum())
    low, high = np.percentile(means, [2.5, 97.5])
    return low, high


def constant_log_loss(train_outcome, test_outcome):
    freq = np.bincount(train_outcome, minlength=3) / train_outcome.size
    return float(-np.log(freq[test_outcome]).mean()), freq


def calibration(title, bin_of, labels, prob, outcome):
    print(f"\n{title}")
    print("| bin | positions | predicted W / D / L % | observed W / D / L % |")
    print("| --- | ---: | --- | --- |")
    for i, label in enumerate(labels):
        sel = bin_of == i
        if not np.any(sel):
            continue
        pw, pd, pl = (prob[j][sel].mean() * 100 for j in range(3))
        obs = np.bincount(outcome[sel], minlength=3) / sel.sum() * 100
        print(f"| {label} | {int(sel.sum())} | {pw:5.1f} / {pd:5.1f} / {pl:5.1f} "
              f"| {obs[2]:5.1f} / {obs[1]:5.1f} / {obs[0]:5.1f} |")


def rust_constants(theta, degree, phase):
    k = degree + 1
    low, high, anchor = PHASES[phase]
    fmt = lambda values: ", ".join(f"{v:.6f}" for v in values)
    print(f"\n// Fitted by lab/scripts/wdl_fit.py (phase: {phase}, clamped to {low}..={high}, "
          f"divided by {anchor:g}).")
    print(f"const A: [f64; {k}] = [{fmt(theta[:k])}];")
    print(f"const B: [f64; {k}] = [{fmt(theta[k:])}];")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", help="record files (complete chunks)")
    parser.add_argument("--seed", type=int, default=20261127, help="seed of the game split")
    parser.add_argument("--test-fraction", type=float, default=0.2)
    parser.add_argument("--degree", type=int, default=3)
    parser.add_argument("--compare", nargs=8, type=float, metavar="C",
                        help="A[0..4] then B[0..4] of a material model (e.g. the constants now in "
                             "src/search/wdl.rs): its held-out log loss beside the refit's")
    args = parser.parse_args()
    degree = args.degree

    data = load(args.files)
    rng = np.random.default_rng(args.seed)
    held_out_game = rng.random(data["games"]) < args.test_fraction
    test = held_out_game[data["game"]]
    train = ~test
    n = data["score"].size
    results = np.bincount(data["white_result"], minlength=3) / n * 100
    print(f"\n{n} positions from {data['games']} games; White won {results[2]:.1f} %, "
          f"drawn {results[1]:.1f} %, Black won {results[0]:.1f} % (per position)")
    print(f"split (seed {args.seed}): {int(train.sum())} training positions "
          f"({int((~held_out_game).sum())} games), {int(test.sum())} held out "
          f"({int(held_out_game.sum())} games)")

    score, outcome = data["score"], data["outcome"]
    print("\nheld-out log loss (nats per position; lower is better)")
    constant, freq = constant_log_loss(outcome[train], outcome[test])
    print(f"  constant W/D/L {freq[2]:.3f}/{freq[1]:.3f}/{freq[0]:.3f}: {constant:.5f}")

    fits = {}
    for phase, spec in PHASES.items():
        theta, train_loss, held, (flat, test_cells) = fit_phase(data, train, test, phase, spec,
                                                                degree)
        if phase == "material":
            print(f"  constant a = {flat[0]:.2f}, b = {flat[1]:.2f}: "
                  f"{log_loss(flat, 0, test_cells):.5f}")
        fits[phase] = (theta, held)
        low, high, anchor = spec
        print(f"  degree-{degree} a, b of {phase} (clamped to {low}..{high}, / {anchor:g}): "
              f"{held:.5f} (training {train_loss:.5f}{params_note(theta, degree, spec)})")
    for label, phase, spec in OTHER_CLAMPS:
        other_theta, train_loss, held, _ = fit_phase(data, train, test, phase, spec, degree)
        print(f"  for comparison, degree-{degree} a, b of {label}: {held:.5f} "
              f"(training {train_loss:.5f}{params_note(other_theta, degree, spec)})")

    # Held-out log loss of both models, position by position, and how sure their difference
    # is: the held-out games are resampled (the positions of a game go together, as their
    # outcomes do) 1000 times with a generator seeded with --seed.
    losses = {phase: position_loss(fits[phase][0], degree, score[test],
                                   phase_x(data[phase][test], PHASES[phase]), outcome[test])
              for phase in PHASES}
    games = np.unique(data["game"][test], return_inverse=True)[1]
    low_ci, high_ci = game_resampled_interval(losses["material"] - losses["move"], games, args.seed)
    if args.compare:
        # The given model (degree 3 in material) on the same held-out positions, and the 95 %
        # interval of its difference from the refit, from the same resampling.
        theirs = position_loss(np.array(args.compare), 3, score[test],
                               phase_x(data["material"][test], PHASES["material"]), outcome[test])
        low, high = game_resampled_interval(theirs - losses["material"], games, args.seed)
        print(f"\n--compare model (material): held-out log loss {theirs.mean():.5f}; minus the "
              f"refit's material model {theirs.mean() - losses['material'].mean():+.5f}, 95 % "
              f"interval {low:+.5f} .. {high:+.5f}")
    print(f"\nmaterial model minus move model, held-out log loss: "
          f"{(losses['material'] - losses['move']).mean():+.5f}; 95 % interval over 1000 "
          f"resamplings of the held-out games {low_ci:+.5f} .. {high_ci:+.5f}")

    # The phase variable kept: the one with the lower held-out log loss when the interval
    # says so; when it does not, material, which is a property of the position alone, whereas
    # the move number is whatever the FEN the GUI sent says (often 1 for a set-up position).
    if low_ci > 0:
        kept, why = "move", "the move model's held-out log loss is lower, beyond the noise"
    elif high_ci < 0:
        kept, why = "material", "the material model's held-out log loss is lower, beyond the noise"
    else:
        kept, why = "material", ("the difference is within the noise, and material depends on "
                                 "the position alone, not on the FEN's move counter")
    other = [p for p in fits if p != kept][0]
    theta, held = fits[kept]
    print(f"kept: {kept}: {why} (held-out log loss {held:.5f} against {fits[other][1]:.5f} "
          f"for {other}; {constant - held:.5f} below the constant model)")

    for phase, edges in (("move", [5, 21, 41, 61, 81, 121, 1000]),
                         ("material", [0, 8, 17, 30, 45, 60, 70, 79])):
        print(f"\nheld-out log loss by {phase}")
        print(f"| {phase} | positions | material model | move model |")
        print("| --- | ---: | ---: | ---: |")
        bins = np.searchsorted(edges, data[phase][test], side="right") - 1
        for i, (lo, hi) in enumerate(zip(edges[:-1], edges[1:])):
            sel = bins == i
            if np.any(sel):
                print(f"| {lo} .. {hi - 1} | {int(sel.sum())} | "
                      f"{losses['material'][sel].mean():.4f} | {losses['move'][sel].mean():.4f} |")

    x = phase_x(data[kept][test], PHASES[kept])
    win, draw, loss, _, _ = probabilities(theta, degree, score[test].astype(float), x)
    prob = (win, draw, loss)
    labels = [f"{lo} .. {hi - 1}" for lo, hi in zip(SCORE_EDGES[:-1], SCORE_EDGES[1:])]
    bins = np.searchsorted(SCORE_EDGES, score[test], side="right") - 1
    calibration(f"calibration on held-out positions by score (side to move's view, cp), "
                f"{kept} model", bins, labels, prob, outcome[test])
    edges = [0, 8, 17, 30, 45, 60, 70, 79] if kept == "material" else \
        [5, 21, 41, 61, 81, 121, 1000]
    labels = [f"{kept} {lo} .. {hi - 1}" for lo, hi in zip(edges[:-1], edges[1:])]
    bins = np.searchsorted(edges, data[kept][test], side="right") - 1
    calibration(f"calibration on held-out positions by {kept}", bins, labels, prob,
                outcome[test])
    sel = np.abs(score[test]) <= 100
    calibration("the same, positions with |score| <= 100 cp only", bins[sel], labels,
                tuple(p[sel] for p in prob), outcome[test][sel])

    low, high, _ = PHASES[kept]
    print(f"\na and b over the {kept} range")
    points = [4, 8, 17, 30, 45, 58, 70, 78] if kept == "material" else \
        [5, 10, 20, 30, 40, 60, 80, 100, 120]
    for value in points:
        xv = phase_x(np.array([value]), PHASES[kept])
        a = np.polyval(theta[: degree + 1][::-1], xv)[0]
        b = np.polyval(theta[degree + 1:][::-1], xv)[0]
        print(f"  {kept} {value}: a = {a:.1f}, b = {b:.1f}")
    for phase in PHASES:
        rust_constants(fits[phase][0], degree, phase)


if __name__ == "__main__":
    main()
