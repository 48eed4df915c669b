"""Analysis that other programs wrote into their files, kept as plain data.

eXtreme Gammon (``.xg`` files and position text exports), BGBlitz and GNU Backgammon
(text exports) write their own evaluation beside the moves: the candidate plays with
their equities and chances, and the cube decision. The readers in :mod:`bgkit.formats`
return it with these frozen values, exactly as the program wrote it (nothing is
recomputed). Every number is from the point of view of the player who acts (on roll, or
doubling): equities in the program's units (cubeful money-game equity or EMG), chances as
fractions of 1 (``0.5445`` for ``54.45%``).

>>> chances = Probabilities(0.5445, 0.1822, 0.0053, 0.1271, 0.0051)
>>> round(chances.lose, 4)
0.4555
>>> best = CandidatePlay(Play("19/18 14/12"), -0.491, chances, level="4-ply")
>>> CheckerAnalysis((best,)).best is best
True
>>> cube = CubeAnalysis(no_double=0.337, double_take=0.215, double_pass=1.0)
>>> cube.proper_action
'no double, take'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bgkit.play import Play

if TYPE_CHECKING:
    from bgkit.position import Position

__all__ = [
    "ActionAnalysis",
    "CandidatePlay",
    "CheckerAnalysis",
    "CubeAnalysis",
    "PositionExport",
    "Probabilities",
    "Rollout",
]


@dataclass(frozen=True, slots=True)
class Probabilities:
    """Game-winning chances of the player who acts, as fractions of 1.

    ``win_gammon`` includes backgammons and ``win_backgammon`` counts only them, as every
    program writes them; the same for the losses.
    """

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float

    @property
    def lose(self) -> float:
        """``1 - win``."""
        return 1.0 - self.win

    def values(self) -> tuple[float, float, float, float, float]:
        """The five chances in order: win, win gammon, win backgammon, lose gammon, lose
        backgammon (as gnubg and bgkit's JSON list them)."""
        return (
            self.win,
            self.win_gammon,
            self.win_backgammon,
            self.lose_gammon,
            self.lose_backgammon,
        )


@dataclass(frozen=True, slots=True)
class Rollout:
    """How a program rolled a position out, and how sure its figures are.

    The equity and chances a rollout found stay where an evaluation's go (the
    :class:`CandidatePlay` or :class:`CubeAnalysis` it belongs to, whose ``level`` is then
    ``"Rollout"``); this says how they were found.

    >>> r = Rollout(1296, confidence=0.0088, checker_level="4-ply", cube_level="XG Roller")
    >>> r.trials, r.truncation, r.confidence
    (1296, None, 0.0088)
    """

    trials: int
    """Games rolled."""
    truncation: int | None = None
    """Where each trial stops and the position is evaluated instead, in the program's own
    count (XG's ``Truncate``, in plies); ``None`` when every trial is played to the end."""
    standard_error: float | None = None
    """One standard error of the rolled-out equity, in the equity's unit. XG stores the
    95% confidence half-width (:attr:`confidence`); bgkit gives it divided by 1.96."""
    confidence: float | None = None
    """Half-width of the equity's 95% confidence interval as the program gives it (XG's
    ``±0.009``), in the equity's unit."""
    checker_level: str | None = None
    """The level the trials' checker plays were chosen at (``"3-ply"``)."""
    cube_level: str | None = None
    """The level the trials' cube decisions were made at; ``None`` in a cubeless rollout."""
    late_checker_level: str | None = None
    """XG: the checker-play level used from ply :attr:`late_from` on, when it changes."""
    late_cube_level: str | None = None
    """XG: the cube level used from ply :attr:`late_from` on, when it changes."""
    late_from: int | None = None
    """XG: the ply from which the late levels are used (``None``: one level throughout)."""
    variance_reduction: bool | None = None
    cubeful: bool | None = None
    seed: int | None = None
    """The dice seed the user gave (XG's ``RandomSeedI``)."""


@dataclass(frozen=True, slots=True)
class CandidatePlay:
    """One play the program evaluated, in its rank order."""

    play: Play
    """The steps as the program wrote them (mover's numbering)."""
    equity: float
    """The program's equity for the play (cubeful where it says so)."""
    probabilities: Probabilities | None = None
    level: str | None = None
    """The evaluation level as written: ``"4-ply"``, ``"XG Roller++"``, ``"Cubeful 0-ply"``."""
    match_winning_chance: float | None = None
    """BGBlitz's ``mwp`` column (match winning chance) when written."""
    rollout: Rollout | None = None
    """How the figures were rolled out, when they were."""


@dataclass(frozen=True, slots=True)
class CheckerAnalysis:
    """The candidate plays for one roll, best first."""

    candidates: tuple[CandidatePlay, ...]
    played: int | None = None
    """Index in :attr:`candidates` of the play made, when the file says it."""
    error: float | None = None
    """Equity the play made gave away against the best one (XG: ``0`` or negative)."""
    luck: float | None = None
    """XG's luck rating of the roll (equity gained by the dice)."""

    @property
    def best(self) -> CandidatePlay | None:
        """The first candidate, or ``None`` when there is none."""
        return self.candidates[0] if self.candidates else None


@dataclass(frozen=True, slots=True)
class CubeAnalysis:
    """A cube decision as the program evaluated it (the doubler's point of view)."""

    no_double: float | None = None
    """Cubeful equity of not doubling."""
    double_take: float | None = None
    double_pass: float | None = None
    probabilities: Probabilities | None = None
    """Cubeless chances of the player on roll."""
    cubeless_equity: float | None = None
    level: str | None = None
    """The evaluation level as written (``"XG Roller++"``, ``"0-ply"``)."""
    verdict: str | None = None
    """The program's own wording of the proper action, verbatim (any language)."""
    error_double: float | None = None
    """Equity the doubling decision gave away (XG files; ``0`` or negative)."""
    error_take: float | None = None
    """Equity the take/pass decision gave away (XG files; ``0`` or negative)."""
    rollout: Rollout | None = None
    """The rollout of the no-double line, when the figures were rolled out."""
    double_rollout: Rollout | None = None
    """The rollout of the double/take line (its own trials and confidence)."""

    @property
    def proper_action(self) -> str | None:
        """The proper action from the three equities, in GNU Backgammon's words.

        ``"no double, take"``, ``"double, take"``, ``"double, pass"``, ``"too good,
        take"`` (no double worth more than a pass, the double taken: gnubg's "Too good to
        double, take"), ``"too good, pass"``, ``"no double, pass"`` (rare: a pass that is
        wrong to offer), or ``None`` when an equity is missing.
        """
        nd, dt, dp = self.no_double, self.double_take, self.double_pass
        if nd is None or dt is None or dp is None:
            return None
        take = dt <= dp
        best_double = min(dt, dp)
        if best_double > nd:
            return "double, take" if take else "double, pass"
        if take:
            return "too good, take" if nd > dp else "no double, take"
        return "too good, pass" if nd > dp else "no double, pass"


@dataclass(frozen=True, slots=True)
class ActionAnalysis:
    """What a match file says about one action of a game (see :mod:`bgkit.formats.xg`).

    For a :class:`~bgkit.records.Move`, ``cube`` is the decision before the roll (not to
    double) and ``checker`` the play; for a :class:`~bgkit.records.Double`,
    :class:`~bgkit.records.Take` or :class:`~bgkit.records.Drop`, ``cube`` is the
    decision answered.
    """

    cube: CubeAnalysis | None = None
    checker: CheckerAnalysis | None = None
    comment: str | None = None
    """The annotator's comment, as plain text."""


@dataclass(frozen=True, slots=True)
class PositionExport:
    """One position of a text export: what the diagram and the text lines say.

    :attr:`position` is built from the board diagram and the score, cube and turn lines
    (not from the printed IDs); :attr:`xgid`, :attr:`position_id` and :attr:`match_id`
    are the identifiers the program printed beside it, verbatim, so the two can be
    compared.
    """

    position: Position
    names: tuple[str, str]
    """Names of players 0 (O) and 1 (X)."""
    xgid: str | None = None
    position_id: str | None = None
    """GNU Backgammon Position ID as printed."""
    match_id: str | None = None
    """GNU Backgammon Match ID as printed."""
    checker: CheckerAnalysis | None = None
    cube: CubeAnalysis | None = None
    heading: str | None = None
    """gnubg: the ``Move number N: ...`` line above the board."""
    played: str | None = None
    """gnubg: what was done, without the leading ``*`` mark (``"Llabba moves 8/4 6/4"``)."""
    line: int = 0
    """1-based line of the diagram's first line (or of the ID line above it)."""
