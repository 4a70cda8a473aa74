"""Tests of paired_gauntlets.py: `python3 -m unittest discover -s lab/scripts -p
'test_paired_gauntlets.py'` (not part of cargo test)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import paired_gauntlets as pg  # noqa: E402


def pgn(results):
    """Rounds 1.. with colours alternating (betacut White in odd rounds), opening k per pair."""
    out = []
    for r, result in enumerate(results, start=1):
        white, black = ("betacut", "eth") if r % 2 else ("eth", "betacut")
        out.append(f'[Event "m"]\n[Round "{r}"]\n[White "{white}"]\n[Black "{black}"]\n'
                   f'[Result "{result}"]\n[Opening "book:{(r + 1) // 2}"]\n\n1. e4 {result}\n')
    return "\n".join(out)


class Paired(unittest.TestCase):
    def test_points_follow_the_side_and_pairs_cancel_the_openings(self):
        a = pg.games_by_round(pgn(["1-0", "0-1", "1-0", "1/2-1/2"]), "betacut")
        # Round 2: betacut is Black and Black won.
        self.assertEqual([a[r][2] for r in (1, 2, 3, 4)], [1.0, 1.0, 1.0, 0.5])
        b = pg.games_by_round(pgn(["1/2-1/2", "0-1", "0-1", "1-0"]), "betacut")
        n, mean, se = pg.paired_difference(a, b)
        # Pair 1: 2 - 1.5 points, pair 2: 1.5 - 0: +0.25 and +0.75 a game.
        self.assertEqual(n, 2)
        self.assertAlmostEqual(mean, 0.5)
        self.assertAlmostEqual(se, 0.25)

    def test_other_openings_are_refused(self):
        a = pg.games_by_round(pgn(["1-0", "0-1"]), "betacut")
        b = pg.games_by_round(pgn(["1-0", "0-1"]).replace("book:1", "book:9"), "betacut")
        with self.assertRaises(ValueError):
            pg.paired_difference(a, b)


if __name__ == "__main__":
    unittest.main()
