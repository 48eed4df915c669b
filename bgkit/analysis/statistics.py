"""The statistics of an analysis per player and per game, as GNU Backgammon's
``show statistics match`` computes them from the figures of each decision.

:func:`summaries` totals the rows :func:`bgkit.analysis.match.analyze` makes (one per
recorded action, with its error, luck and cube figures) for each player, per game and over
the match: moves and unforced moves, checker and cube errors (EMG and MWC or points) and
their rates, the marks, the luck and its rating, the cube decisions by kind of error, the
ratings, the PR, the actual and the luck-adjusted result and the FIBS rating estimates.
The formulas are those of :mod:`bgkit.analysis.metrics`; this module counts and adds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from bgkit.analysis.metrics import (
    absolute_fibs_rating,
    luck_rating,
    performance_rating,
    rating,
    relative_fibs_rating,
)

if TYPE_CHECKING:
    from bgkit.analysis.met import MatchEquityTable
    from bgkit.records import Match
    from bgkit.replay import ReplayStep

__all__ = ["RatingScale", "summaries"]

RatingScale = Literal["current", "legacy"]

_CUBE_KINDS = (
    "missed double below CP",
    "missed double above CP",
    "wrong double below DP",
    "wrong double above TG",
    "wrong take",
    "wrong pass",
)


#: How far a roll's luck in the rows may be from the analyser's own (gnubg writes a roll's
#: luck with five decimals, ``LU``; its sums with six), in EMG.
_LUCK_ROUNDING = 0.5e-5 + 0.5e-6


def summaries(
    match: Match,
    steps: Sequence[ReplayStep],
    rows: Sequence[dict[str, Any]],
    met: MatchEquityTable,
    scale: RatingScale,
    luck: Sequence[tuple[tuple[float, float, int], tuple[float, float, int]] | None] = (),
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The per-player rows (the match's totals) and the per-game rows (each player's totals
    in each game) of an analysis, from its per-action ``rows`` (one per step of ``steps``).

    ``luck``, by game, is each player's luck as the analyser summed it, ``(EMG, MWC,
    rolls)`` (gnubg's statistics in its SGF: :func:`bgkit.formats.sgf_analysis.game_luck`):
    a player's luck in that game is that sum, not the sum of the rows' rounded figures,
    when it counts the rolls the rows count and is their sum as far as their rounding
    goes (half a unit of the fifth decimal a roll). Else it is not the sum of these
    rolls' luck: a record analysed again that kept an earlier analysis's statistics."""
    by_game: dict[int, list[dict[str, Any]]] = {}
    for step, row in zip(steps, rows, strict=True):
        by_game.setdefault(step.game_index, []).append(row)
    games: list[dict[str, Any]] = []
    totals = [_Tally(), _Tally()]
    for index, game in enumerate(match.games):
        game_rows = by_game.get(index, [])
        tallies = [_Tally(), _Tally()]
        for row in game_rows:
            tallies[row["player"]].add(row)
            if row.get("_take") is not None:  # (an accepted beaver: the doubler's take)
                tallies[row["_take"]["player"]].add(row["_take"])
        written = luck[index] if index < len(luck) else None
        for p, (emg, mwc, rolls) in enumerate(written or ()):
            tally = tallies[p]
            if rolls == tally.luck_rolls and abs(emg - tally.luck_emg) <= _LUCK_ROUNDING * rolls:
                tally.luck_emg, tally.luck_mwc = emg, mwc
        result = _actual_result(match, index, met)
        for p in (0, 1):
            tallies[p].actual = result[p]
            totals[p].merge(tallies[p])
        for p in (0, 1):
            games.append(
                {"game": game.number, **tallies[p].summary(match, p, tallies[1 - p], scale)}
            )
    players = [totals[p].summary(match, p, totals[1 - p], scale) for p in (0, 1)]
    return players, games


def _actual_result(match: Match, index: int, met: MatchEquityTable) -> tuple[float, float]:
    """Each player's result of a game: MWC gained (match) or points (money)."""
    game = match.games[index]
    if game.result is None:
        return (0.0, 0.0)
    winner, points = game.result.winner, game.result.points
    if match.length:
        crawford = index == match.crawford_game()
        score = game.score
        if max(score) >= match.length:
            return (0.0, 0.0)
        gain = met.get_me(
            score, match.length, player=winner, points=points, winner=winner, crawford=crawford
        ) - met.at_score(score, match.length, player=winner, crawford=crawford)
    else:
        gain = float(points)
    return (gain, -gain) if winner == 0 else (-gain, gain)


@dataclass
class _Tally:
    """Running totals of one player (a game or the match)."""

    total_moves: int = 0
    unforced: int = 0
    checker_emg: float = 0.0
    checker_mwc: float = 0.0
    marks: dict[str, int] = field(default_factory=dict)
    luck_emg: float = 0.0
    luck_mwc: float = 0.0
    luck_rolls: int = 0
    luck_marks: dict[str, int] = field(default_factory=dict)
    cube_total: int = 0
    cube_close: int = 0
    doubles: int = 0
    takes: int = 0
    passes: int = 0
    cube_kinds: dict[str, int] = field(default_factory=dict)
    cube_emg: float = 0.0
    cube_mwc: float = 0.0
    actual: float = 0.0

    def add(self, row: dict[str, Any]) -> None:
        if row["luck_emg"] is not None and not row.get("_luck_uncounted"):
            self.luck_rolls += 1
            self.luck_emg += row["luck_emg"]
            self.luck_mwc += row["luck_mwc"]
            self.luck_marks[row["luck"]] = self.luck_marks.get(row["luck"], 0) + 1
        if row["action"] == "move" and row["play"] is not None:
            self.total_moves += 1
            skill = row["skill"] or ""
            self.marks[skill] = self.marks.get(skill, 0) + 1
            if row["legal_plays"] is not None and row["legal_plays"] > 1:
                self.unforced += 1
                self.checker_emg += row["error_emg"] or 0.0
                self.checker_mwc += row["error_mwc"] or 0.0
        if row["cube_action"] is not None:
            self.cube_total += 1
            self.cube_close += bool(row["cube_close"])
            self.doubles += row["cube_action"] == "double"
            self.takes += row["cube_action"] == "take"
            self.passes += row["cube_action"] == "drop"
            if row["cube_error_kind"]:
                kind = row["cube_error_kind"]
                self.cube_kinds[kind] = self.cube_kinds.get(kind, 0) + 1
                self.cube_emg += row["cube_error_emg"]
                self.cube_mwc += row["cube_error_mwc"]

    def merge(self, other: _Tally) -> None:
        for name in (
            "total_moves",
            "unforced",
            "checker_emg",
            "checker_mwc",
            "luck_emg",
            "luck_mwc",
            "luck_rolls",
            "cube_total",
            "cube_close",
            "doubles",
            "takes",
            "passes",
            "cube_emg",
            "cube_mwc",
            "actual",
        ):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for mine, theirs in (
            (self.marks, other.marks),
            (self.luck_marks, other.luck_marks),
            (self.cube_kinds, other.cube_kinds),
        ):
            for key, n in theirs.items():
                mine[key] = mine.get(key, 0) + n

    def luck(self) -> tuple[float, float]:
        """The luck (EMG, MWC or points); NaN when none of the player's rolls has its luck
        analysed (a record that carries no luck)."""
        if self.total_moves and not self.luck_rolls:
            return math.nan, math.nan
        return self.luck_emg, self.luck_mwc

    def summary(
        self, match: Match, player: int, opponent: _Tally, scale: RatingScale
    ) -> dict[str, Any]:
        checker_rate = _rate(self.checker_emg, self.unforced)
        cube_rate = _rate(self.cube_emg, self.cube_close)
        decisions = self.unforced + self.cube_close
        error_emg = self.checker_emg + self.cube_emg
        error_rate = _rate(error_emg, decisions)
        both_moves = self.total_moves + opponent.total_moves
        length = match.length
        luck_emg, luck_mwc = self.luck()
        fibs_diff = math.nan
        if length and player == 0:
            fibs_diff = relative_fibs_rating(self.actual, luck_mwc, opponent.luck()[1], length)
        absolute, chequer_loss, cube_loss = absolute_fibs_rating(checker_rate, cube_rate, length)
        luck_rate = _rate(luck_emg, self.total_moves)
        kinds = self.cube_kinds
        return {
            "player": player,
            "name": match.players[player],
            "total_moves": self.total_moves,
            "unforced_moves": self.unforced,
            "checker_error_emg": self.checker_emg,
            "checker_error_mwc": self.checker_mwc,
            "checker_error_rate_memg": 1000 * checker_rate,
            "checker_error_rate_mwc": _rate(self.checker_mwc, self.unforced),
            "checker_rating": rating(checker_rate, scale=scale),
            "doubtful": self.marks.get("doubtful", 0),
            "bad": self.marks.get("bad", 0),
            "very_bad": self.marks.get("very bad", 0),
            "luck_emg": luck_emg,
            "luck_mwc": luck_mwc,
            "luck_rate_memg": 1000 * luck_rate,
            "luck_rating": luck_rating(luck_rate),
            "very_lucky": self.luck_marks.get("very lucky", 0),
            "lucky": self.luck_marks.get("lucky", 0),
            "unlucky": self.luck_marks.get("unlucky", 0),
            "very_unlucky": self.luck_marks.get("very unlucky", 0),
            "cube_decisions": self.cube_total,
            "close_cube_decisions": self.cube_close,
            "doubles": self.doubles,
            "takes": self.takes,
            "passes": self.passes,
            "missed_doubles_below_cp": kinds.get(_CUBE_KINDS[0], 0),
            "missed_doubles_above_cp": kinds.get(_CUBE_KINDS[1], 0),
            "wrong_doubles_below_dp": kinds.get(_CUBE_KINDS[2], 0),
            "wrong_doubles_above_tg": kinds.get(_CUBE_KINDS[3], 0),
            "wrong_takes": kinds.get(_CUBE_KINDS[4], 0),
            "wrong_passes": kinds.get(_CUBE_KINDS[5], 0),
            "cube_error_emg": self.cube_emg,
            "cube_error_mwc": self.cube_mwc,
            "cube_error_rate_memg": 1000 * cube_rate,
            "cube_rating": rating(cube_rate, scale=scale),
            "error_emg": error_emg,
            "error_mwc": self.checker_mwc + self.cube_mwc,
            "error_rate_memg": 1000 * error_rate,
            "snowie_error_rate": 1000 * _rate(error_emg, both_moves),
            "overall_rating": rating(error_rate, scale=scale),
            "pr": performance_rating(error_emg, decisions),
            "actual_result": self.actual,
            "luck_adjusted_result": self.actual - luck_mwc + opponent.luck()[1],
            "fibs_rating_difference": fibs_diff,
            "error_based_fibs_rating": absolute,
            "checker_rating_loss": chequer_loss,
            "cube_rating_loss": cube_loss,
        }


def _rate(total: float, count: int) -> float:
    return total / count if count else math.nan
