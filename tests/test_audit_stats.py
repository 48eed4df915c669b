"""The dice tests of ``bgkit.audit`` against ``scipy.stats`` and exact enumeration, on
counted rolls; and their false-alarm rate on fair dice (the quick version of
``benchmarks/audit_calibration.py``)."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from bgkit.audit import dice_tests
from bgkit.audit.stats import (
    ROLL_PROBABILITIES,
    ROLLS,
    binomial_two_sided,
    chi2_sf,
    pips_p_value,
    poisson_binomial_two_sided,
    rolls_chi2,
    rolls_p_value,
)

stats = pytest.importorskip("scipy.stats")
np = pytest.importorskip("numpy")

COUNTED = [  # 21 rolls' counts of three players (11, 21, 22, 31, ...)
    [3, 5, 1, 4, 6, 2, 3, 4, 2, 5, 6, 1, 2, 4, 3, 3, 2, 5, 1, 2, 4],
    [9, 14, 11, 15, 12, 8, 16, 13, 12, 9, 18, 14, 10, 15, 7, 17, 13, 11, 12, 14, 20],
    [0, 2, 0, 3, 1, 0, 2, 2, 1, 0, 4, 3, 0, 1, 2, 3, 1, 2, 0, 1, 9],
]


@pytest.mark.parametrize("counts", COUNTED)
def test_the_statistic_is_scipy_s_chisquare(counts: list[int]) -> None:
    n = sum(counts)
    expected = [n * p for p in ROLL_PROBABILITIES]
    want = stats.chisquare(counts, expected)
    assert rolls_chi2(counts) == pytest.approx(want.statistic, rel=1e-12)


@pytest.mark.parametrize("x", [0.5, 10.0, 19.3, 31.41, 45.3, 80.0, 150.0])
@pytest.mark.parametrize("df", [2, 10, 20])
def test_chi2_tail_is_scipy_s(x: float, df: int) -> None:
    assert chi2_sf(x, df) == pytest.approx(stats.chi2.sf(x, df), rel=1e-9, abs=1e-300)


def test_with_many_rolls_the_p_value_is_scipy_s_chisquare() -> None:
    counts = COUNTED[1]
    assert sum(counts) >= 180
    expected = [sum(counts) * p for p in ROLL_PROBABILITIES]
    assert rolls_p_value(counts) == pytest.approx(stats.chisquare(counts, expected).pvalue)


def test_with_few_rolls_the_monte_carlo_p_value_is_near_the_exact_one() -> None:
    """Few rolls: the exact tail, summed over every outcome of 3 rolls (1771 of them),
    against the Monte Carlo estimate."""
    n = 3
    observed = [0] * 21
    observed[ROLLS.index((6, 6))] = 2
    observed[ROLLS.index((2, 1))] = 1
    x = rolls_chi2(observed)
    exact = Fraction(0)
    probabilities = [Fraction(1, 36) if a == b else Fraction(2, 36) for a, b in ROLLS]
    for combo in itertools.combinations_with_replacement(range(21), n):
        counts = [combo.count(i) for i in range(21)]
        if rolls_chi2(counts) >= x * (1 - 1e-9):
            ways = math.factorial(n)
            for c in counts:
                ways //= math.factorial(c)
            weight = Fraction(ways)
            for c, p in zip(counts, probabilities, strict=True):
                weight *= p**c
            exact += weight
    assert rolls_p_value(observed) == pytest.approx(float(exact), rel=0.1)


@pytest.mark.parametrize(("k", "n", "p"), [(12, 30, 1 / 6), (0, 40, 1 / 6), (66, 177, 1 / 6)])
def test_doubles_is_scipy_s_binomtest(k: int, n: int, p: float) -> None:
    assert binomial_two_sided(k, n, p) == pytest.approx(stats.binomtest(k, n, p).pvalue, rel=1e-9)


def test_bar_entries_against_every_outcome() -> None:
    chances = [0.75, 0.3055, 0.5556, 0.9722, 0.1, 0.75, 0.8889, 0.3055]
    pmf = [0.0] * (len(chances) + 1)
    for outcome in itertools.product((0, 1), repeat=len(chances)):
        w = math.prod(q if o else 1 - q for o, q in zip(outcome, chances, strict=True))
        pmf[sum(outcome)] += w
    for seen in range(len(chances) + 1):
        want = sum(w for w in pmf if w <= pmf[seen] * (1 + 1e-7))
        assert poisson_binomial_two_sided(seen, chances) == pytest.approx(min(1.0, want))


def test_pips_against_the_exact_distribution_in_fractions() -> None:
    one: dict[int, Fraction] = {}
    for a, b in ROLLS:
        pips = 4 * a if a == b else a + b
        one[pips] = one.get(pips, Fraction(0)) + (Fraction(1, 36) if a == b else Fraction(2, 36))
    dist = {0: Fraction(1)}
    for _ in range(6):
        nxt: dict[int, Fraction] = {}
        for total, w in dist.items():
            for pips, q in one.items():
                nxt[total + pips] = nxt.get(total + pips, Fraction(0)) + w * q
        dist = nxt
    for total in (20, 40, 49, 60, 90):
        low = sum(w for t, w in dist.items() if t <= total)
        high = sum(w for t, w in dist.items() if t >= total)
        assert pips_p_value(total, 6) == pytest.approx(min(1.0, float(2 * min(low, high))))


def test_the_player_s_p_value_is_four_times_the_smallest() -> None:
    row = dice_tests(COUNTED[2], [0.75, 0.5], 0)
    tests = [row["p_rolls"], row["p_doubles"], row["p_pips"], row["p_bar"]]
    assert row["p_value"] == pytest.approx(min(1.0, 4 * min(tests)))
    assert row["doubles"] == sum(c for c, (a, b) in zip(COUNTED[2], ROLLS, strict=True) if a == b)


def test_fair_dice_are_flagged_at_about_the_rate_alpha_says() -> None:
    """Fair rolls of 400 players with 60 rolls each (a match): the share of p-values
    under 0.05 and 0.2 is what those levels say (within 3 standard errors)."""
    rng = np.random.default_rng(7)
    players = 400
    p_values = []
    for _ in range(players):
        counts = rng.multinomial(60, ROLL_PROBABILITIES).tolist()
        p_values.append(rolls_p_value(counts))
    for level in (0.05, 0.2):
        rate = sum(p < level for p in p_values) / players
        spread = 3 * math.sqrt(level * (1 - level) / players)
        assert abs(rate - level) <= spread, (level, rate)
