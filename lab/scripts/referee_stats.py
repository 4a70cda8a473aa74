"""The statistics of lab/scripts/referee.py: Elo from pentanomial pair counts, pooling over rungs,
and the difference between two builds, independent or paired game pair by game pair.

A game pair is one opening played twice with colours swapped; its points for the build run
0, 0.5, 1, 1.5 or 2, kept here as half-points 0..4. Counts are the numbers of pairs with each
of those five results. The model is match.py's (`penta_stats`): the pair's mean score is the
unit, its variance is taken over the pairs (divided by n, as there), the 95 % interval of the
score is mapped through the logistic Elo curve, and the error is half its width.
"""
import math
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

Z95 = 1.959963984540054
PAIR_POINTS = (0.0, 0.5, 1.0, 1.5, 2.0)


def elo_from_score(score: float) -> float:
    """Logistic Elo of a mean score per game; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def elo_slope(score: float) -> float:
    """dElo/dscore of the logistic curve at a score strictly between 0 and 1."""
    return 400.0 / (math.log(10.0) * score * (1.0 - score))


def pentanomial(counts: Sequence[int]) -> Tuple[float, float]:
    """Mean score per game and the variance of a pair's mean score, from the five counts."""
    n = sum(counts)
    score = sum(c * p / 2 for c, p in zip(counts, PAIR_POINTS)) / n
    var = sum(c * (p / 2 - score) ** 2 for c, p in zip(counts, PAIR_POINTS)) / n
    return score, var


def penta_elo(counts: Sequence[int]) -> Dict[str, float]:
    """Pairs, score, Elo and its 95 % error (inf when the interval reaches 0 or 1) from the
    five pair counts; an empty dict when there are no pairs. Same figures as match.py's."""
    n = sum(counts)
    if n == 0:
        return {}
    score, var = pentanomial(counts)
    se = math.sqrt(var / n)
    lo, hi = score - Z95 * se, score + Z95 * se
    err = (elo_from_score(hi) - elo_from_score(lo)) / 2 if 0 < lo and hi < 1 else math.inf
    return {"pairs": n, "score": score, "elo": elo_from_score(score), "error95": err}


def pool(counts_list: Iterable[Sequence[int]]) -> List[int]:
    """The summed pair counts of several rungs (or chunks)."""
    total = [0] * 5
    for counts in counts_list:
        for i, c in enumerate(counts):
            total[i] += c
    return total


def counts_of(half_points: Iterable[int]) -> List[int]:
    """Pair counts from a list of pair results in half-points (0..4)."""
    counts = [0] * 5
    for h in half_points:
        counts[h] += 1
    return counts


def diff_independent(new: Sequence[int], base: Sequence[int]) -> Optional[Tuple[float, float]]:
    """Elo of `new` minus Elo of `base` from their pair counts, with the 95 % error of two
    independent samples (the errors added in quadrature); None when either has no pairs or an
    infinite Elo."""
    a, b = penta_elo(new), penta_elo(base)
    if not a or not b or not all(math.isfinite(x) for x in (a["elo"], b["elo"])):
        return None
    return a["elo"] - b["elo"], math.hypot(a["error95"], b["error95"])


def diff_paired(pairs: Sequence[Tuple[int, int]]) -> Optional[Tuple[float, float]]:
    """Elo of `new` minus Elo of `base` from matched pairs (new's and base's half-points on the
    same opening, rung and colours), with a 95 % error that keeps the correlation between the
    two: the delta method, each build's score mapped by the slope of the Elo curve at its mean,
    the variance taken over the differences. None with fewer than two pairs or a score of 0
    or 1 for either build."""
    n = len(pairs)
    if n < 2:
        return None
    s_new = sum(x for x, _ in pairs) / (4 * n)
    s_base = sum(y for _, y in pairs) / (4 * n)
    if not (0 < s_new < 1 and 0 < s_base < 1):
        return None
    k_new, k_base = elo_slope(s_new), elo_slope(s_base)
    d = [k_new * x / 4 - k_base * y / 4 for x, y in pairs]
    mean = sum(d) / n
    var = sum((v - mean) ** 2 for v in d) / n
    return elo_from_score(s_new) - elo_from_score(s_base), Z95 * math.sqrt(var / n)
