"""Tests of eval_calibration.py: `python3 -m unittest discover -s lab/scripts -p
'test_eval_calibration.py'` (not part of cargo test)."""
import math
import os
import random
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import eval_calibration as ec  # noqa: E402

PGN = """[Event "t"]
[White "other"]
[Black "betacut"]
[Result "0-1"]
[FEN "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"]

1... e5 { +0.30/10 0.100s } 2. e4 { -0.25/12 0.200s } 2... Nc6 { +M3/20 0.1s }
3. Nf3 { -1.50/9 0.3s } 3... Nf6 { #; Black wins by adjudication } 0-1

[Event "t"]
[White "other"]
[Black "betacut"]
[Result "1/2-1/2"]

1. e4 { book } 1... e5 { book } 2. Nf3 { 0.050s } 2... Nc6 { -0.10/8 0.1s } 1/2-1/2
"""


class Parsing(unittest.TestCase):
    def test_scores_follow_the_mover_and_mates_are_left_out(self):
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write(PGN)
        try:
            games = ec.parse_games(f.name)
            self.assertEqual(len(games), 2)
            self.assertEqual(games[0][1], [30, -25, None, -150, None])
            self.assertEqual(games[1][1], [None, None, None, -10])
            samples = ec.collect([f.name], ["betacut"], 0, 400)
        finally:
            os.unlink(f.name)
        # Game 1: Black (betacut) moves first from the FEN and won, so its points are 1.
        # Its +30 is answered by White's -25 (White's view), +25 from Black's; its mates are
        # left out.
        first = [s for s in samples if s[4] == 0]
        self.assertEqual([(s[0], s[1], s[2]) for s in first], [(30, 1.0, 25)])
        # White's moves are the other side's: sampled only when it is named.
        white = ec.collect_from_games(ec.parse_games_text(PGN), ["other"], 0, 400)
        self.assertEqual([(s[0], s[1]) for s in white if s[4] == 0], [(-25, 0.0), (-150, 0.0)])
        # Game 2: Black (betacut) at its only scored move, a draw; nothing answers it.
        second = [s for s in samples if s[4] == 1]
        self.assertEqual([(s[0], s[1], s[2]) for s in second], [(-10, 0.5, None)])


class ByMove(unittest.TestCase):
    def test_each_side_is_read_from_its_own_view_at_its_nth_move(self):
        games = ec.parse_games_text(PGN)
        # Game 1: Black (betacut) moves first, +30 answered by White's -25 (White's own view),
        # and Black won. Its second move is a mate score: left out. Game 2's first Betacut
        # move is its only scored one and nothing answers it.
        self.assertEqual(ec.own_scores_by_move(games, ["betacut"], 400, (1, 2)),
                         [(1, 1, 30.0, -25.0, 1.0)])
        self.assertEqual(ec.own_scores_by_move(games, ["betacut"], 20, (1,)),
                         [(1, 1, 20.0, -20.0, 1.0)])
        # White's moves are answered by a mate score and by nothing: no rows.
        self.assertEqual(ec.own_scores_by_move(games, ["other"], 400, (1, 2)), [])


class Boards(unittest.TestCase):
    def test_material_is_counted_from_the_movers_side(self):
        try:
            import chess  # noqa: F401
        except ImportError:
            self.skipTest("python-chess is not installed")
        pgn = """[Event "t"]
[White "betacut"]
[Black "other"]
[Result "1-0"]
[FEN "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1"]

1. Ra8+ { +9.50/10 0.1s } 1... Kd7 { -9.40/10 0.1s } 2. Ra7+ { +9.60/10 0.1s } 1-0
"""
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write(pgn)
        try:
            games = ec.parse_games_on_boards(f.name)
        finally:
            os.unlink(f.name)
        headers, scores, kinds = games[0]
        self.assertEqual(scores, [950, -940, 960])
        # White is a rook and a pawn up: ahead on its moves, behind on Black's; no queens.
        self.assertEqual(kinds, [("material ahead", "queens off"),
                                 ("material behind", "queens off"),
                                 ("material ahead", "queens off")])


class Fit(unittest.TestCase):
    def test_recovers_a_known_scale_and_offset(self):
        rng = random.Random(7)
        samples = []
        for game in range(4000):
            cp = rng.uniform(-400, 400)
            p = 1.0 / (1.0 + math.exp(-(cp + 40.0) / 150.0))
            samples.append((cp, 1.0 if rng.random() < p else 0.0, None, "x", game))
        k, offset = ec.fit_scale(samples)
        self.assertAlmostEqual(k, 150.0, delta=15.0)
        self.assertAlmostEqual(offset, 40.0, delta=15.0)

    def test_a_sharper_evaluation_has_a_smaller_scale(self):
        rng = random.Random(8)
        def draw(scale):
            out = []
            for game in range(3000):
                cp = rng.uniform(-300, 300)
                p = 1.0 / (1.0 + math.exp(-cp / scale))
                out.append((cp, 1.0 if rng.random() < p else 0.0, None, "x", game))
            return out
        self.assertLess(ec.fit_scale(draw(100.0))[0], ec.fit_scale(draw(200.0))[0])


if __name__ == "__main__":
    unittest.main()
