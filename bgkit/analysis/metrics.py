"""The formulas of a backgammon analysis, as GNU Backgammon defines them.

Everything here is a pure function of equities an evaluator produced: the luck of a
roll, error labels, cube availability and cube errors, ratings, the luck-adjusted
result and FIBS rating estimates, the performance rating (PR), pip counts. Sources:
gnubg's ``analysis.c``, ``eval.c`` and ``formatgs.c`` (see the project's
``analysis-metrics`` spec). Equities are EMG (normalised to the cube, from the view of
the player concerned); errors are reported as positive magnitudes, as gnubg
accumulates them.

>>> skill_label(-0.073787)
'bad'
>>> luck_label(0.25042), luck_label(-0.61)
('', 'very unlucky')
>>> rating(0.00796), rating(0.00796, scale="legacy")
('Grandmaster', 'Expert')
>>> round(performance_rating(0.495, 6 + 3), 1)
27.5
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from operator import mul
from typing import TYPE_CHECKING, Literal

from bgkit.analysis.bearoff import bearoff_chances

if TYPE_CHECKING:
    from bgkit.analysis.evaluator import CubeDecision
    from bgkit.position import Position

__all__ = [
    "CLOSE_CUBE",
    "CUBE_NOISE",
    "DOUBLES",
    "LUCK_THRESHOLDS",
    "NON_DOUBLES",
    "PIPS_PER_ROLL",
    "RATING_SCALES",
    "ROLLS",
    "SKILL_SIGNS",
    "SKILL_THRESHOLDS",
    "absolute_fibs_rating",
    "cube_available",
    "cube_errors",
    "effective_pip_count",
    "is_close_cube",
    "luck_label",
    "luck_normal",
    "luck_opening",
    "luck_rating",
    "luck_words",
    "performance_rating",
    "pip_count",
    "rating",
    "relative_fibs_rating",
    "skill_label",
    "skill_thresholds",
]

#: Error labels: an error (EMG, <= 0) below -threshold gets the label (gnubg ``arSkillLevel``).
SKILL_THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("very bad", 0.12),
    ("bad", 0.06),
    ("doubtful", 0.03),
)
#: Luck labels (gnubg ``arLuckLevel``): luck above +t or below -t, in EMG.
LUCK_THRESHOLDS: tuple[tuple[str, str, float], ...] = (
    ("very lucky", "very unlucky", 0.6),
    ("lucky", "unlucky", 0.3),
)
#: A no-double decision is close when the optimal equity is within this of doubling's.
CLOSE_CUBE = 0.16

#: The 21 distinct rolls, high die first.
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))
DOUBLES: tuple[tuple[int, int], ...] = tuple(r for r in ROLLS if r[0] == r[1])
NON_DOUBLES: tuple[tuple[int, int], ...] = tuple(r for r in ROLLS if r[0] != r[1])

#: Per-decision EMG error -> rating: first row whose bound the error is below.
RATING_SCALES: dict[str, tuple[tuple[float, str], ...]] = {
    # gnubg since 2024 (commit 8bddbdd2, BMAB-like bands; PR = 500 x error)
    "current": (
        (0.005, "Super Grandmaster"),
        (0.008, "Grandmaster"),
        (0.013, "Master"),
        (0.020, "Advanced"),
        (0.032, "Intermediate"),
        (math.inf, "Beginner"),
    ),
    # gnubg <= 1.08.003 and its manual
    "legacy": (
        (0.002, "Supernatural"),
        (0.005, "World class"),
        (0.008, "Expert"),
        (0.012, "Advanced"),
        (0.018, "Intermediate"),
        (0.026, "Casual player"),
        (0.035, "Beginner"),
        (math.inf, "Awful!"),
    ),
}


#: gnubg's sign for each mark, as its move lists print them.
SKILL_SIGNS = {"doubtful": "?!", "bad": "?", "very bad": "??"}


def skill_label(error: float, thresholds: Sequence[tuple[str, float]] = SKILL_THRESHOLDS) -> str:
    """gnubg's mark for a decision that lost ``error`` EMG (``<= 0``; a magnitude works too).

    ``"very bad"`` (``??``), ``"bad"`` (``?``), ``"doubtful"`` (``?!``) or ``""``, by
    gnubg's default ``thresholds`` (:data:`SKILL_THRESHOLDS`) or others (the largest first).

    >>> skill_label(-0.2), skill_label(0.2), skill_label(-0.03)
    ('very bad', 'very bad', '')
    >>> skill_label(-0.03, skill_thresholds(0.02, 0.05, 0.1))
    'doubtful'
    """
    loss = abs(error)
    for label, threshold in thresholds:
        if loss > threshold:
            return label
    return ""


def skill_thresholds(doubtful: float, bad: float, very_bad: float) -> tuple[tuple[str, float], ...]:
    """Marks' thresholds (EMG lost) in :data:`SKILL_THRESHOLDS`'s form.

    :raises ValueError: unless ``0 < doubtful <= bad <= very_bad``.
    """
    if not 0 < doubtful <= bad <= very_bad:
        raise ValueError(
            f"thresholds must grow: doubtful {doubtful}, bad {bad}, very bad {very_bad}"
        )
    return (("very bad", very_bad), ("bad", bad), ("doubtful", doubtful))


def luck_label(luck: float) -> str:
    """gnubg's mark for a roll.

    ``"very lucky"``, ``"lucky"``, ``""``, ``"unlucky"`` or ``"very unlucky"``.
    """
    for good, bad, threshold in LUCK_THRESHOLDS:
        if luck > threshold:
            return good
        if luck < -threshold:
            return bad
    return ""


def rating(error_rate: float | None, *, scale: Literal["current", "legacy"] = "current") -> str:
    """The rating for an EMG error per decision (``"n/a"`` when there were no decisions).

    >>> rating(0.0309), rating(None)
    ('Intermediate', 'n/a')
    """
    if error_rate is None or math.isnan(error_rate):
        return "n/a"
    for bound, name in RATING_SCALES[scale]:
        if abs(error_rate) < bound:
            return name
    return RATING_SCALES[scale][-1][1]  # pragma: no cover (inf bound)


def luck_rating(luck_rate: float | None) -> str:
    """gnubg's luck rating for the luck per move (EMG).

    >>> luck_rating(0.0652), luck_rating(-0.0064), luck_rating(-0.04)
    ('Go to Las Vegas', 'None', 'Bad dice, man!')
    """
    if luck_rate is None or math.isnan(luck_rate):
        return "n/a"
    if luck_rate > 0.06:
        return "Go to Las Vegas"
    if luck_rate > 0.03:
        return "Good dice, man!"
    if luck_rate < -0.06:
        return "Go to bed"
    if luck_rate < -0.03:
        return "Bad dice, man!"
    return "None"


def luck_words(rating: str) -> str:
    """:func:`luck_rating` as a player reads it: gnubg's "None" (neither lucky nor unlucky)
    reads as a missing value, so it is shown as "average" with gnubg's word named.

    >>> luck_words("None"), luck_words("Go to bed")
    ('average (gnubg: "None")', 'Go to bed')
    """
    return 'average (gnubg: "None")' if rating == "None" else rating


def performance_rating(error_emg: float, decisions: int) -> float:
    """XG-style PR with gnubg's denominator: 500 x EMG lost per non-forced decision.

    ``decisions`` = unforced moves + close or actual cube decisions; NaN when 0.
    """
    return 500.0 * error_emg / decisions if decisions else math.nan


def relative_fibs_rating(actual: float, luck_mwc: float, opp_luck_mwc: float, length: int) -> float:
    """The luck-based FIBS rating difference of a player over the opponent (match play).

    ``r = 0.5 + actual - own luck + opponent's luck`` (MWC); ``-2000 / sqrt(N) log10(1/r - 1)``,
    floored at -2100; NaN unless ``0 < r < 1``.

    >>> round(relative_fibs_rating(0.5, 0.16823, 0.03401, 3), 1)
    934.8
    """
    r = 0.5 + actual - luck_mwc + opp_luck_mwc
    if not 0.0 < r < 1.0 or length <= 0:
        return math.nan
    return max(-2000.0 / math.sqrt(length) * math.log10(1.0 / r - 1.0), -2100.0)


def absolute_fibs_rating(
    checker_rate: float, cube_rate: float, length: int, *, offset: float = 2050.0
) -> tuple[float, float, float]:
    """Kees van den Doel's error-based FIBS rating: ``(rating, chequer loss, cube loss)``.

    ``checker_rate`` is EMG per unforced move, ``cube_rate`` EMG per close cube
    decision (NaN counts as 0); NaNs for money play.

    >>> [round(x) for x in absolute_fibs_rating(0.03095, 0.1031, 3)]  # Ann, spec 6.1
    [1443, 536, 71]
    """
    if length <= 0:
        return (math.nan, math.nan, math.nan)
    chequer = 0.0 if math.isnan(checker_rate) else checker_rate * (8798.0 + 25526.0 / length)
    cube = 0.0 if math.isnan(cube_rate) else cube_rate * (863.0 - 519.0 / length)
    return (offset - chequer - cube, chequer, cube)


# ---------------------------------------------------------------------- luck


def luck_normal(
    values: Mapping[tuple[int, int], float], roll: tuple[int, int]
) -> tuple[float, float]:
    """Luck of ``roll`` from the value of every roll: ``(luck, mean over 36 rolls)``.

    ``values`` maps the 21 rolls (high die first) to the equity the roller gets with
    it (the best play's equity, or for a roll that cannot be played minus the
    opponent's equity in the unchanged position).

    >>> values = {r: (0.5 if r == (6, 6) else 0.0) for r in ROLLS}
    >>> luck, mean = luck_normal(values, (6, 6))
    >>> round(luck, 4), round(mean, 4)
    (0.4861, 0.0139)
    """
    mean = sum(values[r] * (1 if r[0] == r[1] else 2) for r in ROLLS) / 36.0
    return values[_high_first(roll)] - mean, mean


def luck_opening(
    mine: Mapping[tuple[int, int], float],
    theirs: Mapping[tuple[int, int], float],
    roll: tuple[int, int],
) -> tuple[float, float]:
    """Luck of an opening roll (gnubg's ``LuckFirst``): ``(luck, mean over 30 outcomes)``.

    The reference is every non-double opening: the 15 rolls played by the roller
    (``mine``, equities of the roller) and the same 15 played by the opponent
    (``theirs``, equities of the opponent, counted negated).
    """
    mean = (sum(mine[r] for r in NON_DOUBLES) - sum(theirs[r] for r in NON_DOUBLES)) / 30.0
    return mine[_high_first(roll)] - mean, mean


def _high_first(roll: tuple[int, int]) -> tuple[int, int]:
    return (max(roll), min(roll))


# ---------------------------------------------------------------------- cube


def cube_available(pos: Position) -> bool:
    """May the player on roll double here (gnubg's ``GetDPEq``)?

    Money: the cube is centred or his. Match: also not the Crawford game, the cube not
    dead for him (score + cube < length), and not the leader after the Crawford game.
    A cube limit or a game played without a cube also forbid it.

    >>> from bgkit.position import Position
    >>> cube_available(Position.initial(match_length=5, score=(4, 2)))  # post-Crawford leader
    False
    >>> cube_available(Position.initial(match_length=5, score=(2, 4)))
    True
    """
    if pos.cube_owner is not None and pos.cube_owner != pos.turn:
        return False
    if pos.cube * 2 > pos.cube_limit:
        return False
    if not pos.match_length:
        return True
    me = pos.score[pos.turn]
    post_crawford = not pos.crawford and pos.match_length - 1 in pos.score
    return (
        not pos.crawford
        and me + pos.cube < pos.match_length
        and not (post_crawford and me == pos.match_length - 1)
    )


def is_close_cube(decision: CubeDecision) -> bool:
    """gnubg's ``isCloseCubedecision``: doubling is within 0.16 EMG of the best decision."""
    return decision.optimal - decision.double_equity < CLOSE_CUBE


#: The largest difference of cube equities (EMG) that is a float's rounding, not an error:
#: gnubg's figures are single-precision floats, so a real error is far larger.
CUBE_NOISE = 1e-12


def cube_errors(decision: CubeDecision, action: str) -> tuple[float, str]:
    """The error (EMG, >= 0) of a cube ``action`` and its category (``""`` when none).

    ``action`` is ``"no double"`` (the player rolled with the cube available),
    ``"double"``, ``"take"`` or ``"drop"``. Categories: ``"missed double below CP"``,
    ``"missed double above CP"``, ``"wrong double below DP"``, ``"wrong double above TG"``,
    ``"wrong take"``, ``"wrong pass"``.

    >>> from bgkit.analysis.evaluator import CubeDecision
    >>> d = CubeDecision(no_double=0.62, double_take=0.71, double_pass=1.0)
    >>> [(round(e, 2), kind) for e, kind in (cube_errors(d, a) for a in ("no double", "take"))]
    [(0.09, 'missed double below CP'), (0.0, '')]
    >>> d = CubeDecision(no_double=0.40, double_take=0.10, double_pass=1.0)
    >>> round(cube_errors(d, "double")[0], 2), cube_errors(d, "double")[1]
    (0.3, 'wrong double below DP')

    A difference within a float's rounding (:data:`CUBE_NOISE`) is no error: gnubg's SGF
    writes a sure win as 1.000000 MWC, which becomes 1.0000000000000004 EMG, not the
    double/pass's 1.0, and gnubg's statistics count no error there.

    >>> cube_errors(CubeDecision(1.0000000000000004, 2.34, 1.0), "double")
    (0.0, '')
    """
    nd, dt, dp, opt = (
        decision.no_double,
        decision.double_take,
        decision.double_pass,
        decision.optimal,
    )
    if action == "no double":
        error = opt - nd
        if error > CUBE_NOISE:
            return error, "missed double above CP" if dt > 1.0 else "missed double below CP"
    elif action == "double":
        error = opt - min(dt, dp)
        if error > CUBE_NOISE:
            return error, "wrong double above TG" if nd > 1.0 else "wrong double below DP"
    elif action == "take":
        error = dt - dp
        if error > CUBE_NOISE:
            return error, "wrong take"
    elif action in ("drop", "pass"):
        error = dp - dt
        if error > CUBE_NOISE:
            return error, "wrong pass"
    else:
        raise ValueError(f"unknown cube action {action!r}")
    return 0.0, ""


# ---------------------------------------------------------------------- pips


#: Average pips of a roll (doubles count four times): 294 / 36.
PIPS_PER_ROLL = 294.0 / 36.0


def effective_pip_count(side: Sequence[int]) -> float | None:
    """gnubg's effective pip count of a side whose checkers are all home, else ``None``.

    Expected rolls to bear off (gnubg's one-sided bear-off database, read by
    :mod:`bgkit.analysis.bearoff`) x 294/36. ``None`` also when gnubg is not installed.

    >>> round(effective_pip_count((14, 0, 0, 0, 0, 0, 1) + (0,) * 19), 3)
    10.208
    """
    if any(side[7:]) or not any(side[1:7]):
        return None
    chances = bearoff_chances(side[1:7])
    if chances is None:  # pragma: no cover (the analysis extra is not installed)
        return None
    return PIPS_PER_ROLL * float(sum(rolls * p for rolls, p in enumerate(chances)))


def pip_count(side: Sequence[int]) -> int:
    """Pips of one side (26 counts from its own view, index 25 = bar): ``sum(p x n)``.

    >>> from bgkit.position import STANDARD_BOARD
    >>> pip_count(STANDARD_BOARD)
    167
    """
    return sum(map(mul, _POINTS, side))


_POINTS = range(26)
