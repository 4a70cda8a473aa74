"""Tests of the time-odds ladder's fit and its interval: `python3 -m unittest discover -s
lab/scripts -p 'test_time_odds.py'` (not part of cargo test)."""
import fractions
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import time_odds  # noqa: E402

SHARES = [fractions.Fraction(1, 4), fractions.Fraction(1, 8), fractions.Fraction(1, 16)]


class Fit(unittest.TestCase):
    def test_symmetric_ladder_crosses_at_the_middle_share(self):
        # -100 Elo at 1/4, 0 at 1/8, +100 at 1/16: the line crosses zero at 1/8.
        points = [(s, e, 40) for s, e in zip(SHARES, (-100.0, 0.0, 100.0))]
        zero, slope = time_odds.fit_zero(points)
        self.assertAlmostEqual(1 / zero, 8.0)
        self.assertAlmostEqual(slope, -100.0)

    def test_clamped_elo_of_a_whitewash_is_finite(self):
        self.assertAlmostEqual(time_odds.clamped_elo(40, 40), time_odds.elo_of(39.5 / 40))
        self.assertEqual(time_odds.clamped_elo(20, 40), 0.0)


class Interval(unittest.TestCase):
    def test_pairs_that_all_score_alike_give_no_width(self):
        # Every pair of a share scores the same, so each resample repeats the sample.
        pentas = [[20, 0, 0, 0, 0], [0, 0, 20, 0, 0], [0, 0, 0, 0, 20]]
        low, high = time_odds.zero_interval(SHARES, pentas, runs=50)
        self.assertAlmostEqual(low, high)

    def test_interval_holds_the_point_and_narrows_with_games(self):
        # The ladder of 2026-12-07 (AMD EPYC VM): 1/4 [9, 4, 6, 1, 0], 1/8 [1, 9, 8, 1, 1],
        # 1/16 [1, 0, 8, 8, 3]; the fit puts 50 % at about 1/10.2.
        pentas = [[9, 4, 6, 1, 0], [1, 9, 8, 1, 1], [1, 0, 8, 8, 3]]
        points = [(s, time_odds.clamped_elo(sum(k / 2 * c for k, c in enumerate(p)), 2 * sum(p)),
                   2 * sum(p)) for s, p in zip(SHARES, pentas)]
        zero, _ = time_odds.fit_zero(points)
        self.assertAlmostEqual(1 / zero, 10.2, places=1)
        low, high = time_odds.zero_interval(SHARES, pentas, runs=1000)
        self.assertLess(low, zero)
        self.assertGreater(high, zero)
        big_low, big_high = time_odds.zero_interval(
            SHARES, [[4 * c for c in p] for p in pentas], runs=1000)
        self.assertLess(big_high / big_low, high / low)


if __name__ == "__main__":
    unittest.main()
