"""Ask about one position: the ranked plays of a roll, or the cube decision before it.

:func:`hint` is what a player asks GNU Backgammon's ``hint`` for: with dice, every legal
play ranked by equity (the best first), each with its difference to the best and its
winning chances; without dice, the cube decision (no double, double/take, double/pass,
the proper action in gnubg's words) and, in a match, the taker's take point.

>>> from bgkit import Position
>>> pos = Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
>>> h = hint(pos, plies=0)                                     # doctest: +SKIP
>>> h.plays[0].play, round(h.plays[0].equity, 3)               # doctest: +SKIP
(Play('13/11 13/8'), -0.009)

``bgkit.hint`` is this function (the module is ``bgkit.analysis.hints``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from bgkit.analysis import engine_gate
from bgkit.analysis.evaluator import Chances, CubeDecision, Evaluator, mirror
from bgkit.errors import IllegalActionError
from bgkit.extras import require
from bgkit.position import GameState, Position

if TYPE_CHECKING:
    from bgkit.play import Play

__all__ = ["CubeHint", "Hint", "PlayHint", "hint", "proper_action"]

Probabilities = Chances
"""Win, win gammon, win backgammon, lose gammon, lose backgammon (cubeless, the gammon
figures include backgammons), for the player on roll."""


@dataclass(frozen=True, slots=True)
class PlayHint:
    """One legal play with its figures, from the view of the player who plays it."""

    play: Play
    """The play, as the rules engine writes it."""
    equity: float
    """Cubeful equity after the play (EMG; in a match gnubg's MWC turned into EMG)."""
    difference: float
    """``equity`` minus the best play's (0 for the best, negative for the others)."""
    probabilities: Probabilities
    """Winning chances after the play: win, win gammon, win backgammon, lose gammon,
    lose backgammon (cubeless)."""
    plies: int
    """The depth the play was searched to."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "play": str(self.play),
            "equity": self.equity,
            "difference": self.difference,
            "probabilities": list(self.probabilities),
            "plies": self.plies,
        }


@dataclass(frozen=True, slots=True)
class CubeHint:
    """The cube decision of the player on roll, before the roll (EMG, current cube)."""

    no_double: float
    double_take: float
    double_pass: float
    proper_action: str
    """As GNU Backgammon words it: "No double, take", "Double, pass", "Too good to
    redouble, take", "Double, beaver"... ("Cube not available" when it is not)."""
    available: bool
    """The player on roll may double."""
    probabilities: Probabilities
    """The player on roll's chances before the roll (cubeless)."""
    take_point: float | None = None
    """In a match: the taker's take point, the least share of games the taker must win
    for a take to be right with a dead cube and no gammons (from the match equity table);
    ``None`` in money play (25%) or when no double is possible."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "no_double": self.no_double,
            "double_take": self.double_take,
            "double_pass": self.double_pass,
            "proper_action": self.proper_action,
            "available": self.available,
            "probabilities": list(self.probabilities),
            "take_point": self.take_point,
        }


@dataclass(frozen=True, slots=True)
class Hint:
    """What :func:`hint` found for one position."""

    position: Position
    plies: int
    plays: tuple[PlayHint, ...] = ()
    """With dice: the legal plays, best first (at most ``candidates`` of them)."""
    cube: CubeHint | None = None
    """Without dice: the cube decision."""

    def to_dict(self) -> dict[str, Any]:
        """The JSON object ``bgkit hint --json`` prints for the position."""
        out: dict[str, Any] = {
            "position": self.position.xgid(),
            "gnubg_id": f"{self.position.gnubg_id()}:{self.position.match_id()}",
            "plies": self.plies,
        }
        if self.position.dice is not None:
            out["dice"] = list(self.position.dice)
            out["plays"] = [p.to_dict() for p in self.plays]
        if self.cube is not None:
            out["cube"] = self.cube.to_dict()
        return out


def hint(
    position: Position | str,
    *,
    plies: int = 2,
    candidates: int | None = 5,
    evaluator: Evaluator | None = None,
    met: str | None = None,
) -> Hint:
    """The ranked plays (position with dice) or the cube decision (without dice).

    :param plies: search depth, as GNU Backgammon counts: the default, 2, is its default
        strength ("world class"); 0, its static evaluation, is a quick look.
    :param candidates: how many plays to keep, best first (``None``: all).
    :param evaluator: the evaluator to ask (default: GNU Backgammon with the move filters
        of its own ``hint``, :data:`bgkit.analysis.gnubg.HINT_FILTERS`; it needs the
        ``analysis`` extra).
    :param met: GNU Backgammon's match equity table, by name (:data:`bgkit.analysis.met.MET_NAMES`;
        default Kazaross-XG2); not with ``evaluator``.
    :param position: a :class:`~bgkit.position.Position`, or its notation (XGID, GNU
        Backgammon Position ID with an optional Match ID, FIBS ``board:``).
    :raises ValueError: for an unknown table, or a table with an ``evaluator``.
    :raises NotationError: for notation that does not parse.
    :raises IllegalActionError: for a game that is over (no play or cube to rank).
    :raises MissingExtraError: without an ``evaluator``, on an install without the
        ``analysis`` extra.
    :raises EngineLimitError: for a position or depth GNU Backgammon does not support
        (:mod:`bgkit.analysis.engine_gate`), or a figure that is not a number.
    """
    if isinstance(position, str):
        position = Position.parse(position)
    if position.game_state != GameState.PLAYING or any(
        side[0] == position.checkers for side in position.board
    ):
        raise IllegalActionError("the game is over: no play or cube to rank")
    engine_gate.check(position, plies)
    result = _hint(position, plies, candidates, evaluator, met)
    engine_gate.finite_all(result.to_dict(), "this position")
    return result


def _hint(
    position: Position,
    plies: int,
    candidates: int | None,
    evaluator: Evaluator | None,
    met: str | None,
) -> Hint:
    if evaluator is None:
        require("analysis", ("gnubg",), "bgkit.hint")
        from bgkit.analysis.gnubg import HINT_FILTERS, GnubgEvaluator

        evaluator = GnubgEvaluator(met=met, filters=HINT_FILTERS)
    elif met is not None:
        raise ValueError("give the match equity table to the evaluator, not to hint()")
    if position.dice is None:
        return Hint(position, plies, cube=_cube_hint(evaluator, position, plies))
    before = replace(position, dice=None)
    found = evaluator.plays(before, position.dice, plies=plies)
    if candidates is not None:
        found = found[:candidates]
    best = found[0].equity if found else 0.0
    plays = []
    for candidate in found:
        # the chances of the search that gave the equity (a play gnubg searched less deep
        # than asked has that depth's chances)
        mine = candidate.probabilities
        if mine is None:
            after = position.apply(candidate.play)
            mine = mirror(evaluator.evaluate(after, plies=candidate.plies).probabilities)
        plays.append(
            PlayHint(
                candidate.play.ordered(),  # (repr in the order str writes the steps)
                candidate.equity,
                candidate.equity - best,
                mine,
                candidate.plies,
            )
        )
    return Hint(position, plies, plays=tuple(plays))


def proper_action(decision: CubeDecision, position: Position, probabilities: Probabilities) -> str:
    """The proper cube action as GNU Backgammon words it (its ``FindBestCubeDecision``).

    ``probabilities`` are the chances of the player on roll: "too good" needs a gammon
    to play for, and one who cannot win at all does not double.
    """
    owned = position.cube_owner is not None  # the owner redoubles
    double = "redouble" if owned else "double"
    if not decision.available:
        if position.may_double() is not None:  # Crawford, the opponent's cube...
            return "Cube not available"
        return f"Never {double}, take (dead cube)"  # legal, but it cannot gain
    nd, dt, dp = decision.no_double, decision.double_take, decision.double_pass
    gammons = probabilities[1] > 0.0
    beaver = not position.is_match and position.beavers and -2.0 <= dt <= 0.0
    word = double.capitalize()
    if dt >= nd and dp >= nd:
        if dp > dt:
            optional = "Optional " if _close(dt, nd) else ""
            if beaver:  # (gnubg words these as for a centred cube)
                if 2.0 * dt < nd:
                    return "No double, beaver"
                return f"{optional}{'double' if optional else 'Double'}, beaver"
            if probabilities[0] <= 0.0:
                return f"No {double}, take"
            return f"{optional}{word if not optional else double}, take"
        if _close(nd, dp) and gammons and (position.is_match or owned or not position.jacoby):
            return f"Optional {double}, pass"
        return f"{word}, pass"
    if nd > dt:
        if dt > dp:
            return f"Too good to {double}, pass" if gammons else f"{word}, pass"
        if nd > dp:
            return f"Too good to {double}, take" if gammons else f"No {double}, take"
        return f"No {double}, beaver" if beaver else f"No {double}, take"
    return f"Too good to {double}, pass" if gammons else f"{word}, pass"


def _close(a: float, b: float) -> bool:
    """gnubg's "optional" test: two equities within 1e-5."""
    return abs(a - b) <= 1e-5


def _cube_hint(evaluator: Evaluator, position: Position, plies: int) -> CubeHint:
    decision = evaluator.cube_decision(position, plies=plies)
    chances = evaluator.chances(position, plies=plies)  # (the cube analysis's own)
    take_point = None
    if position.is_match and decision.available:
        take_point = _take_point(evaluator, position)
    return CubeHint(
        decision.no_double,
        decision.double_take,
        decision.double_pass,
        proper_action(decision, position, chances),
        decision.available,
        chances,
        take_point,
    )


def _take_point(evaluator: Evaluator, position: Position) -> float:
    """The taker's dead-cube, gammonless take point from the match equity table.

    A result that brings a player to 1-away makes the next game the Crawford game (the
    table's pre-Crawford figures), unless a player was 1-away already: then this game is
    the Crawford game or after it, and the next one is post-Crawford.
    """
    met = evaluator.match_equity_table()
    length, cube = position.match_length, position.cube
    taker = position.opponent
    score = list(position.score)
    crawford_reached = length - max(score) == 1  # (this game is Crawford or after it)

    def mwc(points_to_taker: int, points_to_doubler: int) -> float:
        s = list(score)
        s[taker] += points_to_taker
        s[1 - taker] += points_to_doubler
        if s[taker] >= length:
            return 1.0
        if s[1 - taker] >= length:
            return 0.0
        away, opp_away = length - s[taker], length - s[1 - taker]
        post = (away == 1 or opp_away == 1) and crawford_reached
        return met.mwc(away, opp_away, post_crawford=post)

    passed = mwc(0, cube)
    win, lose = mwc(2 * cube, 0), mwc(0, 2 * cube)
    return (passed - lose) / (win - lose) if win > lose else 0.0
