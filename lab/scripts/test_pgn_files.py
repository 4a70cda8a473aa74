"""Tests of pgn_files.py: `python3 -m unittest discover -s lab/scripts -p 'test_*.py'`."""
import gzip
import lzma
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgn_files  # noqa: E402

GAME = '[Event "m"]\n[White "betacut"]\n[Black "ethereal"]\n[Result "1-0"]\n\n1. e4 { é } 1-0\n'


class OpenPgn(unittest.TestCase):
    def test_plain_xz_and_gz_read_the_same_text(self):
        with tempfile.TemporaryDirectory() as folder:
            plain = os.path.join(folder, "g.pgn")
            with open(plain, "w", encoding="utf-8") as f:
                f.write(GAME)
            with lzma.open(plain + ".xz", "wt", encoding="utf-8") as f:
                f.write(GAME)
            with gzip.open(plain + ".gz", "wt", encoding="utf-8") as f:
                f.write(GAME)
            for path in (plain, plain + ".xz", plain + ".gz"):
                with pgn_files.open_pgn(path) as f:
                    self.assertEqual(f.read(), GAME, path)

    def test_a_plain_file_named_xz_is_an_error_not_garbage(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "g.pgn.xz")
            with open(path, "w", encoding="utf-8") as f:
                f.write(GAME)
            with self.assertRaises(lzma.LZMAError):
                with pgn_files.open_pgn(path) as f:
                    f.read()


if __name__ == "__main__":
    unittest.main()
