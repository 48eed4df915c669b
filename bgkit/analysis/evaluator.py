"""What bgkit asks of a backgammon evaluator, and a cache in front of one.

An :class:`Evaluator` judges positions with their cube and match state
(:class:`~bgkit.position.Position` carries both) at a search depth of ``plies``
(0 = the static evaluation, as GNU Backgammon counts):

* :meth:`Evaluator.evaluate`: the probabilities and the equities (cubeless and
  cubeful) of the player on roll, before the roll;
* :meth:`Evaluator.plays`: every legal play of a roll, best first, each with its
  cubeful equity after the play from the mover's view;
* :meth:`Evaluator.best_equity`: only the best of those equities (fast; for luck),
  and :meth:`Evaluator.best_equities` for all 21 rolls at once;
* :meth:`Evaluator.cube_decision`: the no double, double/take and double/pass
  equities of the player on roll.

Equities are normalised to the current cube (EMG: +1 = winning a single game with
the cube as it stands); in match play they are GNU Backgammon's ``mwc2eq`` of the
match-winning chances, so they add up across a match like money equities.

bgkit's back-end is :class:`bgkit.analysis.gnubg.GnubgEvaluator` (GNU Backgammon's
neural nets); :class:`CachedEvaluator` wraps any evaluator with a memory of what
it already computed.

>>> decision = CubeDecision(no_double=0.62, double_take=0.71, double_pass=1.0)
>>> decision.action, round(decision.optimal, 2)
('double, take', 0.71)
>>> CubeDecision(0.9, 1.4, 1.0).action
'double, pass'
>>> CubeDecision(1.2, 1.5, 1.0).action
'too good'
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeAlias, runtime_checkable

if TYPE_CHECKING:
    from bgkit.analysis.met import MatchEquityTable
    from bgkit.movegen import Key
    from bgkit.play import Play
    from bgkit.position import Position

__all__ = [
    "CachedEvaluator",
    "Candidate",
    "Chances",
    "CubeDecision",
    "Evaluation",
    "Evaluator",
    "mirror",
    "position_key",
]

Chances: TypeAlias = tuple[float, float, float, float, float]
"""Win, win gammon, win backgammon, lose gammon, lose backgammon of the player on roll
(cubeless; the gammon figures include backgammons)."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position judged from the view of the player on roll, before the roll."""

    probabilities: Chances
    """Win, win gammon, win backgammon, lose gammon, lose backgammon (cubeless;
    the gammon figures include backgammons)."""
    cubeless: float
    """Cubeless equity (EMG)."""
    cubeful: float
    """Cubeful equity (EMG) with the player on roll making the best cube decision."""
    plies: int
    """The search depth that produced the figures."""


@dataclass(frozen=True, slots=True)
class Candidate:
    """One legal play of a roll with its equity."""

    play: Play
    """The play, one step per die, as the rules engine writes it."""
    key: Key
    """The result: (mover's side, opponent's side) after the play."""
    equity: float
    """Cubeful equity after the play (EMG, the mover's view), as gnubg ranks moves."""
    plies: int
    """How deep the play was searched: move filters drop weak plays early (with
    GNU Backgammon, a play that passed the first filter counts as searched in full)."""
    probabilities: Chances | None = None
    """The mover's chances after the play, at ``plies``, when the search gave them."""


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """The cube equities of the player on roll (EMG, normalised to the current cube).

    ``available`` says whether the player may double at all; when not, only
    ``no_double`` means anything and :attr:`optimal` is it.
    """

    no_double: float
    double_take: float
    double_pass: float = 1.0
    available: bool = True

    @property
    def optimal(self) -> float:
        """The equity of the best decision (GNU Backgammon's ``FindCubeDecision``)."""
        nd, dt, dp = self.no_double, self.double_take, self.double_pass
        if self.available and dt >= nd and dp >= nd:
            return min(dt, dp)
        return nd

    @property
    def double_equity(self) -> float:
        """The doubler's equity after doubling, when the opponent answers right."""
        return min(self.double_take, self.double_pass)

    @property
    def should_double(self) -> bool:
        """Doubling is right (the opponent should then take or pass)."""
        nd = self.no_double
        return self.available and self.double_take >= nd and self.double_pass >= nd

    @property
    def should_take(self) -> bool:
        """After a double, taking is right (double/take costs the doubler less than a pass)."""
        return self.double_take <= self.double_pass

    @property
    def action(self) -> str:
        """``"no double"``, ``"too good"``, ``"double, take"``, ``"double, pass"``
        or ``"cube not available"``."""
        if not self.available:
            return "cube not available"
        if self.should_double:
            return "double, take" if self.should_take else "double, pass"
        if self.no_double > self.double_pass:  # (gnubg: too good to double, take or pass)
            return "too good"
        return "no double"


@runtime_checkable
class Evaluator(Protocol):
    """A backgammon evaluator bgkit can analyse with."""

    @property
    def name(self) -> str:
        """What evaluates, for reports (``"GNU Backgammon 1.1.0a16"``)."""
        ...

    def evaluate(self, position: Position, *, plies: int = 0) -> Evaluation:
        """The position before the roll, for ``position.turn`` (dice are ignored)."""
        ...

    def plays(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        plies: int = 0,
        keep: Key | None = None,
    ) -> list[Candidate]:
        """Every distinct legal play for ``dice``, best first (empty: no play possible).

        Plays the search drops early keep the equity of a shallower depth (see
        :attr:`Candidate.plies`); ``keep`` names a result (the play made) that must
        be evaluated at full depth all the same.
        """
        ...

    def best_equity(
        self, position: Position, dice: tuple[int, int], *, plies: int = 0
    ) -> float | None:
        """The equity of the best play for ``dice``, ``None`` when no play is possible."""
        ...

    def best_equities(
        self, position: Position, *, plies: int = 0
    ) -> dict[tuple[int, int], float | None]:
        """:meth:`best_equity` of each of the 21 rolls (keys high die first)."""
        ...

    def cube_decision(self, position: Position, *, plies: int = 0) -> CubeDecision:
        """The cube decision of the player on roll, before the roll."""
        ...

    def chances(self, position: Position, *, plies: int = 0) -> Chances:
        """:attr:`Evaluation.probabilities` alone (an evaluator may find them for less)."""
        ...

    def match_equity_table(self) -> MatchEquityTable:
        """The match equity table the evaluator converts MWC with."""
        ...


def mirror(theirs: Chances) -> Chances:
    """The opponent's chances seen from the other side of the board (the mover's chances
    after a play, from the evaluation of the position the opponent is on roll in).

    >>> mirror((0.6, 0.2, 0.01, 0.1, 0.005))
    (0.4, 0.1, 0.005, 0.2, 0.01)
    """
    win, win_g, win_bg, lose_g, lose_bg = theirs
    return (1.0 - win, lose_g, lose_bg, win_g, win_bg)


def position_key(position: Position) -> Hashable:
    """What decides an evaluation: the board, who is on roll, the cube and match state."""
    return (
        position.board,
        position.turn,
        position.cube,
        position.cube_owner,
        position.match_length,
        position.score,
        position.crawford,
        position.jacoby,
        position.beavers,
        position.checkers,
    )


class CachedEvaluator:
    """An :class:`Evaluator` that remembers every answer of the one it wraps.

    Analyses ask for the same things more than once (the played roll's best play is
    part of the luck of the roll too; several games start from the same position at
    the same score); the cache answers the repeats.

    >>> class Counting:
    ...     name = "counting"
    ...     calls = 0
    ...     def best_equity(self, position, dice, plies=0):
    ...         self.calls += 1
    ...         return 0.5
    >>> from bgkit.position import Position
    >>> inner = Counting()
    >>> cached = CachedEvaluator(inner)
    >>> [cached.best_equity(Position.initial(), roll) for roll in ((3, 1), (1, 3))]
    [0.5, 0.5]
    >>> inner.calls, cached.hits, cached.misses
    (1, 1, 1)
    """

    def __init__(self, inner: Evaluator) -> None:
        self.inner = inner
        self.hits = 0
        self.misses = 0
        self._evaluations: dict[Hashable, Evaluation] = {}
        self._plays: dict[Hashable, tuple[Candidate, ...]] = {}
        self._best: dict[Hashable, float | None] = {}
        self._rolls: dict[Hashable, dict[tuple[int, int], float | None]] = {}
        self._cubes: dict[Hashable, CubeDecision] = {}

    @property
    def name(self) -> str:
        return self.inner.name

    def clear(self) -> None:
        """Forget every answer kept so far."""
        for kept in (self._evaluations, self._plays, self._best, self._rolls, self._cubes):
            kept.clear()

    def _count(self, found: bool) -> None:
        if found:
            self.hits += 1
        else:
            self.misses += 1

    def evaluate(self, position: Position, *, plies: int = 0) -> Evaluation:
        key = (position_key(position), plies)
        self._count(key in self._evaluations)
        if key not in self._evaluations:
            self._evaluations[key] = self.inner.evaluate(position, plies=plies)
        return self._evaluations[key]

    def plays(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        plies: int = 0,
        keep: Key | None = None,
    ) -> list[Candidate]:
        key = (position_key(position), _roll(dice), plies, keep)
        self._count(key in self._plays)
        if key not in self._plays:
            found = tuple(self.inner.plays(position, dice, plies=plies, keep=keep))
            self._plays[key] = found
            if found:
                self._best.setdefault(key[:3], found[0].equity)
        return list(self._plays[key])

    def best_equity(
        self, position: Position, dice: tuple[int, int], *, plies: int = 0
    ) -> float | None:
        key = (position_key(position), _roll(dice), plies)
        self._count(key in self._best)
        if key not in self._best:
            self._best[key] = self.inner.best_equity(position, dice, plies=plies)
        return self._best[key]

    def best_equities(
        self, position: Position, *, plies: int = 0
    ) -> dict[tuple[int, int], float | None]:
        key = (position_key(position), plies)
        self._count(key in self._rolls)
        if key not in self._rolls:
            self._rolls[key] = self.inner.best_equities(position, plies=plies)
        return dict(self._rolls[key])

    def cube_decision(self, position: Position, *, plies: int = 0) -> CubeDecision:
        key = (position_key(position), plies)
        self._count(key in self._cubes)
        if key not in self._cubes:
            self._cubes[key] = self.inner.cube_decision(position, plies=plies)
        return self._cubes[key]

    def chances(self, position: Position, *, plies: int = 0) -> Chances:
        return self.inner.chances(position, plies=plies)

    def match_equity_table(self) -> MatchEquityTable:
        return self.inner.match_equity_table()


def _roll(dice: tuple[int, int]) -> tuple[int, int]:
    return (max(dice), min(dice))
