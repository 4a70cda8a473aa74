"""Tests of the referee's statistics and bookkeeping: `python3 -m unittest discover -s scripts
-p 'test_referee.py'` (not part of cargo test)."""
import contextlib
import io
import math
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import referee  # noqa: E402
import referee_stats as rs  # noqa: E402

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "tools")


class Statistics(unittest.TestCase):
    def test_all_draw_pairs_are_zero_elo_without_error(self):
        stats = rs.penta_elo([0, 0, 10, 0, 0])
        self.assertEqual(stats["elo"], 0.0)
        self.assertEqual(stats["error95"], 0.0)
        self.assertEqual(stats["pairs"], 10)

    def test_known_sprt_slice(self):
        # The clock-use SPRT slice of commit c391a36: pairs [5, 14, 31, 19, 4] printed by
        # sprt_combine.py (match.py's penta_stats) as +7.1 +/- 38.9.
        stats = rs.penta_elo([5, 14, 31, 19, 4])
        self.assertAlmostEqual(stats["elo"], 7.1, places=1)
        self.assertAlmostEqual(stats["error95"], 38.9, places=1)

    def test_same_as_match_py(self):
        sys.path.insert(0, TOOLS)
        try:
            import match  # needs python-chess: the tools' venv
        except (ImportError, SystemExit):
            self.skipTest("match.py needs python-chess (run with ~/.venv-chess-tools/bin/python)")
        for counts in ([5, 14, 31, 19, 4], [1, 3, 20, 9, 2], [9, 20, 30, 6, 0]):
            ours, theirs = rs.penta_elo(counts), match.penta_stats(counts)
            self.assertAlmostEqual(ours["elo"], theirs["elo"], places=9)
            self.assertAlmostEqual(ours["error95"], theirs["elo_error95"], places=9)

    def test_score_of_one_has_infinite_elo(self):
        self.assertEqual(rs.penta_elo([0, 0, 0, 0, 7])["elo"], math.inf)
        self.assertEqual(rs.penta_elo([0, 0, 0, 0, 0]), {})

    def test_pooling_sums_counts(self):
        self.assertEqual(rs.pool([[1, 2, 3, 4, 5], [5, 4, 3, 2, 1]]), [6, 6, 6, 6, 6])
        self.assertEqual(rs.counts_of([0, 2, 2, 4, 3]), [1, 0, 2, 1, 1])

    def test_difference_of_a_build_with_itself_is_zero(self):
        pairs = [(h, h) for h in (0, 1, 2, 2, 3, 4, 2, 1, 3)]
        diff, err = rs.diff_paired(pairs)
        self.assertEqual(diff, 0.0)
        self.assertEqual(err, 0.0)
        counts = rs.counts_of(h for h, _ in pairs)
        diff, err = rs.diff_independent(counts, counts)
        self.assertEqual(diff, 0.0)
        self.assertGreater(err, 0.0)

    def test_paired_difference_by_hand(self):
        # new 2 and 1 points, base 1 and 1: scores 0.75 and 0.5, Elo +190.8 and 0. Slopes
        # 400 / (ln 10 * s (1 - s)): 926.5 and 694.9; per-pair terms 926.5*1 - 694.9*0.5 =
        # 579.1 and 926.5*0.5 - 347.4 = 115.8, sd 231.6, error 1.96 * 231.6 / sqrt(2) = 321.
        diff, err = rs.diff_paired([(4, 2), (2, 2)])
        self.assertAlmostEqual(diff, 190.85, places=1)
        self.assertAlmostEqual(err, 321.0, delta=0.5)
        back, err_back = rs.diff_paired([(2, 4), (2, 2)])
        self.assertAlmostEqual(back, -diff, places=9)
        self.assertAlmostEqual(err_back, err, places=9)

    def test_paired_error_is_smaller_when_the_builds_agree(self):
        new = [4, 2, 2, 0, 3, 1, 2, 4, 2, 1]
        base = [3, 2, 2, 0, 3, 1, 2, 3, 2, 1]  # the same games but two half-points
        paired = rs.diff_paired(list(zip(new, base)))
        independent = rs.diff_independent(rs.counts_of(new), rs.counts_of(base))
        self.assertAlmostEqual(paired[0], independent[0], places=9)
        self.assertLess(paired[1], independent[1] / 3)


class Bookkeeping(unittest.TestCase):
    def test_chunks_take_consecutive_openings_of_one_shuffle(self):
        lines = [f"pos{i}" for i in range(100)]
        first = referee.chunk_openings(lines, 99, 0, 10)
        second = referee.chunk_openings(lines, 99, 1, 10)
        self.assertEqual(len(set(first + second)), 20)
        self.assertEqual(first + second, referee.chunk_openings(lines, 99, 0, 20))

    def test_scaled_clock(self):
        self.assertEqual(referee.scaled_tc("10+0.1", 0.125), "1.25+0.0125")
        self.assertEqual(referee.scaled_tc("60", 0.5), "30")

    def test_chunk_range(self):
        self.assertEqual(list(referee.chunk_range("3")), [0, 1, 2])
        self.assertEqual(list(referee.chunk_range("4-6")), [4, 5, 6])

    def test_build_with_commit(self):
        build = referee.parse_build("base=/tmp/base@AAF2A98c0ffee")
        self.assertEqual((build.name, build.path, build.commit), ("base", "/tmp/base", "aaf2a98"))

    def test_pair_points_from_pgn(self):
        pgn = "".join(
            f'[Event "x"]\n[White "{w}"]\n[Black "{b}"]\n[Result "{res}"]\n'
            f'[Opening "chunk-0.epd:{slot}"]\n\n{res}\n\n'
            for w, b, res, slot in [("new", "sf", "1-0", 1), ("sf", "new", "1/2-1/2", 1),
                                    ("new", "sf", "0-1", 2), ("sf", "new", "1-0", 2),
                                    ("new", "sf", "1/2-1/2", 3)])
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False) as f:
            f.write(pgn)
        try:
            self.assertEqual(referee.pair_points(f.name, "new", 3), [3, 0, None])
        finally:
            os.unlink(f.name)

    def test_a_chunk_recorded_twice_counts_once(self):
        line = '{"build": "new", "rung": "sf", "chunk": 3, "w": 1}\n'
        other = '{"build": "new", "rung": "sf", "chunk": 4, "w": 2}\n'
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
            f.write(line + other + line.replace('"w": 1', '"w": 5'))
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                records = referee.load_results(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual([(r["chunk"], r["w"]) for r in records], [(3, 1), (4, 2)])

    def test_report_pairs_builds_by_chunk(self):
        def record(build, chunk, points):
            counts = rs.counts_of(points)
            w = sum(1 for p in points if p == 4) * 2 + sum(1 for p in points if p == 3)
            return {"run": "r", "build": build, "commit": "abc1234", "rung": "sf", "chunk": chunk,
                    "w": w, "d": 0, "l": 2 * len(points) - w, "penta": counts,
                    "pair_points": points, "conditions": {"opponent_tc": "1+0", "betacut_tc": "8+0",
                                                          "pairs": 2},
                    "opponent": {"id": "SF"}, "elapsed_s": 10.0, "cpu": "cpu",
                    "faults": {s: {k: 0 for k in referee.FAULTS} for s in ("betacut", "opponent")}}
        records = [record("base", 0, [2, 0]), record("new", 0, [4, 2]),
                   record("base", 1, [2, 2]), record("new", 1, [2, 2])]
        text = referee.report(records, None)
        self.assertIn("| new | sf | 4 |", text)
        self.assertIn("| new | **pooled** | 4 |", text)

    def test_only_rungs_leaves_out_a_moved_rung(self):
        records = [{"rung": "sf", "chunk": 0}, {"rung": "fairy-1of4", "chunk": 0},
                   {"rung": "fairy-1of2", "chunk": 0}]
        retired = {"fairy-1of4"}
        kept = referee.only_rungs(records, [], retired)
        self.assertEqual([r["rung"] for r in kept], ["sf", "fairy-1of2"])
        named = referee.only_rungs(records, ["fairy-1of4"], retired)
        self.assertEqual([r["rung"] for r in named], ["fairy-1of4"])
        self.assertEqual(referee.only_rungs(records, [], set()), records)
        referee.check_reported_rungs(records, ["fairy-1of4"], "run.jsonl")
        with self.assertRaises(referee.RefereeError):
            referee.check_reported_rungs(records, ["ethereal"], "run.jsonl")


if __name__ == "__main__":
    unittest.main()
