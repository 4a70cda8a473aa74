"""Tests of the chunk cost reader: `python3 -m unittest discover -s lab/scripts -p
'test_chunk_cost.py'` (not part of cargo test)."""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import chunk_cost  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "chunk_cost.py")


def make_data(folder, rows, chunk_positions):
    """Chunk files of the given positions and a cpu log of the given lines."""
    for first, positions in chunk_positions.items():
        with open(os.path.join(folder, f"chunk-{first:09d}.bin"), "wb") as f:
            f.write(b"\0" * (32 * positions))
    with open(os.path.join(folder, "cpu"), "w", encoding="utf-8") as f:
        f.write("".join(rows))


class Cost(unittest.TestCase):
    def test_a_remade_chunk_counts_its_last_line_and_ranges_join(self):
        with tempfile.TemporaryDirectory() as folder:
            make_data(folder, ["0 1000 100.0 2.0 300\n", "1000 1000 50.0 1.0 99\n",
                               "1000 1000 90.0 5.0 120\n", "2000 1000 80.0 0.0 90\n"],
                      {0: 10, 1000: 20, 2000: 30, 5000: 7})
            self.assertEqual(chunk_cost.cpu_seconds(folder)[1000], (1000, 95.0))
            self.assertEqual(chunk_cost.ranges([1000, 2000, 4000], {1000: 1000, 2000: 1000,
                                                                    4000: 1000}),
                             "1000-3000 4000-5000")
            # 100 s of budget: chunk 1000 (95 s) fits, chunk 2000 (80 s) does not; chunk 0 is
            # held out and chunk 5000 has no cost line.
            out = subprocess.run([sys.executable, SCRIPT, folder, "--budget", "100"],
                                 capture_output=True, text=True, check=True).stdout
            self.assertTrue(out.startswith('RANGES="1000-2000"  # 1 chunks, 20 positions, 95'),
                            out)
            table = subprocess.run([sys.executable, SCRIPT, folder], capture_output=True,
                                   text=True, check=True).stdout
            self.assertIn("| 3 | 60 | 277 | 0.2 | 1 |", table)

    def test_a_malformed_line_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            make_data(folder, ["0 1000 lots 2.0 300\n"], {0: 1})
            run = subprocess.run([sys.executable, SCRIPT, folder], capture_output=True,
                                 text=True)
            self.assertNotEqual(run.returncode, 0)
            self.assertIn("not numbers", run.stderr)


if __name__ == "__main__":
    unittest.main()
