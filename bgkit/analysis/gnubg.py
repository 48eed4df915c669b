"""GNU Backgammon as bgkit's evaluator (the PyPI ``gnubg`` package, imported on first use).

:class:`GnubgEvaluator` implements :class:`bgkit.analysis.evaluator.Evaluator` with GNU
Backgammon's neural nets, bear-off databases and match equity table, the same
engine and settings that ``analyse match`` uses, so bgkit's analysis reproduces
gnubg's figures.

**Why gnubg and not gnubg-nn.** Measured here (2-core VM, Python 3.11,
µs per call, first pass over the positions of a 7-point match):

============================================  ===============  ==============
operation                                     gnubg 1.1.0a16   gnubg-nn 1.1.0a11
============================================  ===============  ==============
0-ply probabilities                           8-14             13-22
all plays of a roll with 0-ply scores         120-190          180
cubeful equities (move scores, cube actions)  yes              no (cubeless only)
============================================  ===============  ==============

gnubg is as fast or faster, and only gnubg evaluates cubefully: its move scores and
cube decisions are the ones its analysis ranks by (Janowski's cube model with the
match equity table, exact bear-off databases). gnubg-nn's nets evaluate cubeless
and its cube routine is its own, so its figures cannot match gnubg's.

**How.** Plays and their cubeful scores come from ``gnubg.findbestmoves`` with the
analysis move filters (its move tuples stop at the first checker borne off, so
bear-off plays are scored one by one, or read from gnubg's ``hint`` when searched
deeper). gnubg's Python API has no cubeful evaluation of a position, but a play's
score is minus the cubeful equity of the position it leads to (with the opponent's
best cube action): so the 0-ply cubeful equity of a position, and from it and the
same with the cube turned most 0-ply cube decisions, are read from the score of a
made-up previous turn of the opponent (:func:`_predecessor`). The rest (deeper
searches, positions no such turn leads to, cube decisions where doubling is right)
come from gnubg's ``eval`` command, printed with six decimals. Commands are slow to
answer (:mod:`bgkit.analysis.gnubg_process`), so the evaluator avoids them where it
can, and asks ``eval`` about a position once (at 0-ply).

gnubg keeps one position cache per process, and it answers for a position with
whatever depth it was last searched at; :meth:`GnubgEvaluator.clear_cache` empties it.
Everything happens on gnubg's one global state: one evaluator per process is enough
(the analysis runs one per worker process).

>>> from bgkit.position import Position
>>> ev = GnubgEvaluator()
>>> plays = ev.plays(Position.initial(match_length=3), (3, 1))
>>> str(plays[0].play), len(plays)
('8/5 6/5', 16)
>>> decision = ev.cube_decision(Position.initial(match_length=3))
>>> decision.action, round(decision.no_double, 3), round(decision.double_take, 3)
('no double', 0.106, -0.281)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from bgkit.analysis import engine_gate
from bgkit.analysis.evaluator import Candidate, Chances, CubeDecision, Evaluation
from bgkit.analysis.gnubg_process import (
    BEAVERS as BEAVERS,
)
from bgkit.analysis.gnubg_process import (
    CACHE_SIZE as CACHE_SIZE,
)
from bgkit.analysis.gnubg_process import (
    _beavers,
    _in_child,
    _lock,
    _Searched,
    _searching,
    _Table,
)
from bgkit.analysis.gnubg_process import (
    _Capture as _Capture,
)
from bgkit.analysis.gnubg_process import (
    _session as _session,
)
from bgkit.analysis.gnubg_process import (
    gnubg_module as gnubg_module,
)
from bgkit.analysis.met import DEFAULT_MET, MatchEquityTable, met_name, met_path
from bgkit.movegen import Key, Side
from bgkit.play import Play
from bgkit.position import GameState, Position

__all__ = [
    "ANALYSIS_FILTERS",
    "HINT_FILTERS",
    "GnubgEvaluator",
    "empty_gnubg_cache",
    "gnubg_module",
]

#: GNU Backgammon's default analysis move filters: for a search of ``n`` plies, one
#: ``(accept, extra, threshold)`` per level 0..n-1 (``show analysis``).
ANALYSIS_FILTERS: dict[int, tuple[tuple[int, int, float], ...]] = {
    1: ((0, 16, 0.32),),
    2: ((0, 16, 0.32), (0, 8, 0.16)),
    3: ((0, 24, 0.4), (0, 12, 0.2), (0, 6, 0.08)),
    4: ((0, 32, 0.4), (0, 16, 0.2), (0, 8, 0.1), (0, 6, 0.08)),
}

#: GNU Backgammon's default move filters of its ``hint`` and ``eval`` (``show evaluation``):
#: the ones :func:`bgkit.hint` searches with.
HINT_FILTERS: dict[int, tuple[tuple[int, int, float], ...]] = {
    1: ((0, 12, 0.24),),
    2: ((0, 12, 0.24), (0, 6, 0.12)),
    3: ((0, 16, 0.32), (0, 8, 0.16), (0, 4, 0.06)),
    4: ((0, 16, 0.32), (0, 12, 0.16), (0, 6, 0.08), (0, 4, 0.06)),
}

#: Made-up turns :meth:`GnubgEvaluator._searched_made_up` ranks a play in, at most (one
#: ``findbestmoves`` at 0-ply each: a fraction of a millisecond against the 2-ply search of
#: a play, 10-30 ms).
MADE_UP_TRIES = 8

#: How much the play made may lose before gnubg's analysis searches it and the best
#: play the full depth when its search stopped early (its doubtful mark, 0.03 EMG).
KEEP_THRESHOLD = 0.03


#: The cubeless chances gnubg prints under a play or a cube analysis, as groups
#: (``0.52 0.15 0.009 - 0.47 0.17 0.008``: the player's win, gammon, backgammon, then the
#: opponent's win, gammon, backgammon; the opponent's win is left out).
_CHANCES_LINE = r"([0-9.]+) ([0-9.]+) ([0-9.]+) - [0-9.]+ ([0-9.]+) ([0-9.]+)"
_HINT = re.compile(
    r"^\s*\d+\.\s+Cubeful (\d+)-ply\s+(.+?)\s+Eq\.:\s+([+-]?\d+\.\d+)[^\n]*"
    rf"(?:\n\s*{_CHANCES_LINE})?",
    re.MULTILINE,
)
_CHANCES = re.compile(rf"^\s*{_CHANCES_LINE}\s*$", re.MULTILINE)
_ROW = re.compile(r"^\s*(?:static|\d+ ply):((?:\s+[+-]?\d+\.\d+){7})\s*$", re.MULTILINE)
_CUBE = re.compile(
    r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass|beaver))"
    r"\s+([+-]?\d+\.\d+)",
    re.MULTILINE,
)


class GnubgEvaluator:
    """:class:`~bgkit.analysis.evaluator.Evaluator` on GNU Backgammon (the PyPI ``gnubg`` package).

    :param filters: move filters per search depth (default :data:`ANALYSIS_FILTERS`).
    :param met: the match equity table, by name (:data:`bgkit.analysis.met.MET_NAMES`; default
        gnubg's, Kazaross-XG2). gnubg holds one table per process: an evaluator loads
        its own before it asks anything, and empties gnubg's cache when the table changes.
    :raises ImportError: (on first use) when ``gnubg`` is not installed.
    :raises ValueError: for a table bgkit does not ship.
    """

    def __init__(
        self,
        *,
        filters: dict[int, tuple[tuple[int, int, float], ...]] | None = None,
        met: str | None = None,
    ) -> None:
        self._filters = dict(ANALYSIS_FILTERS if filters is None else filters)
        self.met = met_name(met or DEFAULT_MET)
        """The name of the match equity table gnubg evaluates with."""
        # 0-ply figures, kept: asked again, gnubg would answer the same from its cache
        # (as long as it holds no deeper figures: _Searched)
        self._optimals: dict[tuple[object, ...], float] = {}
        """:meth:`_optimal` by (sides of the player on roll and of the opponent, turn,
        :func:`_state`)."""
        self._eval_texts: dict[str, tuple[Evaluation, CubeDecision]] = {}
        """0-ply ``eval`` figures by gnubg ID (positions no made-up turn leads to)."""
        self._cube_chances: dict[tuple[str, int], Chances] = {}
        """The cubeless chances of the last deeper cube analyses, by gnubg ID and depth."""
        self._rolled: _Rolled | None = None
        """The last :meth:`best_equities` at 0-ply: gnubg's plays of each roll, which
        :meth:`plays` reads for the roll played (gnubg would answer the same from its
        cache)."""

    # ------------------------------------------------------------------ protocol

    @property
    def name(self) -> str:
        version = str(getattr(gnubg_module(), "version", "?"))
        return f"GNU Backgammon {version}"

    def match_equity_table(self) -> MatchEquityTable:
        """gnubg's table in memory (:attr:`met`), 64 points long (gnubg extends a
        shorter table itself), as far as the engine gate lets matches through."""
        return _met(self._gnubg(), self.met)

    def _gnubg(self) -> Any:
        """gnubg's module, with this evaluator's match equity table loaded."""
        gnubg = gnubg_module()
        if _Table.loaded != self.met:
            with _lock, _Capture() as out:
                out.run(gnubg, f'set matchequitytable "{met_path(self.met)}"')
            _Table.loaded = self.met
            _cubeinfo_cached.cache_clear()  # (its gammon prices come from the table)
            # what gnubg and this evaluator kept was figured with another table
            self.clear_cache(_Table.entries)
        return gnubg

    def clear_cache(self, entries: int = CACHE_SIZE) -> None:
        """Empty gnubg's position cache (shared by every evaluator of the process), with
        room for ``entries`` positions after (gnubg's default: 2**19, about 29 MB).

        gnubg's cache answers for a position with whatever depth it was last searched
        at: after a 2-ply search, a 0-ply or 1-ply question about the same position may
        get the 2-ply figure. Clearing it makes what follows independent of what came
        before (an analysis clears it when it starts).

        A smaller cache is faster when it still holds what is asked again (it stays in
        the processor's caches), but a position it has let go is evaluated again, which
        can change figures in their last bits (see :func:`_made_up_turn`).
        """
        self._optimals.clear()
        self._eval_texts.clear()
        self._cube_chances.clear()
        self._rolled = None
        empty_gnubg_cache(entries)

    def evaluate(self, position: Position, *, plies: int = 0) -> Evaluation:
        _check(position)
        if plies == 0:
            optimal = self._optimal(position)
            if optimal is not None:
                gnubg = self._gnubg()
                with _lock:
                    out = _api_evaluate(gnubg, position, 0)
                probs = (out[0], out[1], out[2], out[3], out[4])
                return Evaluation(probs, float(out[5]), optimal, 0)
        return self._eval(position, plies)[0]

    def chances(self, position: Position, *, plies: int = 0) -> Chances:
        """gnubg's cubeless evaluation at ``plies`` through its Python API (no command); for
        a position whose cube decision was just searched as deep, that search's chances."""
        _check(position)
        if plies:
            found = self._cube_chances.get((_eval_id(position), plies))
            if found is not None:
                return found
        gnubg = self._gnubg()
        _searching(plies)
        with _lock:
            out = _api_evaluate(gnubg, position, plies)
        return (out[0], out[1], out[2], out[3], out[4])

    def cube_decision(self, position: Position, *, plies: int = 0) -> CubeDecision:
        """The cube decision of the player on roll. Deeper than 0-ply it is gnubg's cube
        analysis (its ``hint`` before the roll, what ``analyse match`` runs), whose
        chances :meth:`chances` then gives: ``eval`` searches every depth up to
        ``plies``, and what that leaves in gnubg's cache changes the plays searched
        next (their 0-ply figures, and so which reach the deeper levels)."""
        _check(position)
        if plies == 0:
            decision = self._settled_cube_decision(position)
            if decision is not None:
                return decision
        else:
            found = self._cube_hint(position, plies)
            if found is not None:
                decision, chances = found
                self._cube_chances[(_eval_id(position), plies)] = chances
                return decision
        return self._eval(position, plies)[1]

    def _cube_hint(self, position: Position, plies: int) -> tuple[CubeDecision, Chances] | None:
        """gnubg's cube analysis (``hint`` without dice); ``None`` when it gives none (the
        player on roll cannot double)."""
        gnubg = self._gnubg()
        pos = replace(position, dice=None, doubled=False, resigned=0)
        with _lock:
            session = _session()
            session.set_plies(gnubg, plies, self._filters)
            session.set_rules(gnubg, pos)
            session.run(gnubg, f"set gnubgid {pos.gnubg_id()}:{pos.match_id()}")
            text = session.search(gnubg, "hint", plies, short=plies <= SHORT_CUBE_PLIES)
        decision = _cube_equities(text, "hint")
        chances = _CHANCES.search(text)
        if decision is None or chances is None:
            return None
        return decision, _chances(list(chances.groups()))

    def _eval(self, position: Position, plies: int) -> tuple[Evaluation, CubeDecision]:
        """gnubg's ``eval`` of the position (at 0-ply asked once per position)."""
        if plies:
            return _parse(self._eval_text(position, plies), plies)
        if _Searched.deeper:
            return _parse(self._eval_text(position, 0), 0)
        key = _eval_id(position)
        found = self._eval_texts.get(key)
        if found is None:
            found = self._eval_texts[key] = _parse(self._eval_text(position, 0), 0)
        return found

    # ------------------------------------------------------------------ 0-ply shortcuts

    def _optimal(self, position: Position) -> float | None:
        """0-ply cubeful equity of the player on roll with his best cube action.

        gnubg's Python API scores plays but does not evaluate positions cubefully; a
        play's score is minus the cubeful equity of the position it leads to. So the
        opponent is given a made-up previous turn that can end in ``position`` (a
        checker put back three pips, or back on the bar), and the score of that play is
        read. ``None`` when no such turn can be made up (gnubg's ``eval`` then answers).
        Kept: asked again (a cube decision after a dance), the figure is not searched
        again (the made-up turn's plays are all in gnubg's cache by then).

        (The scores of the plays :meth:`plays` lists are such figures too, but reading
        them from there would skip the made-up turn's other plays, and change, in their
        last bits, figures that meet those positions later: see :func:`_made_up_turn`.)
        """
        turn = position.turn
        me, them = position.board[turn], position.board[1 - turn]
        made_up = _made_up_turn(them, me)
        if made_up is None:
            return None
        state = _state(position)
        key = (me, them, turn, state)
        keep = not _Searched.deeper
        found = self._optimals.get(key) if keep else None
        if found is not None:
            return found
        before, dice = made_up
        gnubg = self._gnubg()
        ci = _cubeinfo_cached(gnubg, *state[:2], 1 - turn, *state[2:])
        target = (them, me)
        with _lock:
            moves = gnubg.findbestmoves((me[1:], before[1:]), ci, _evalcontext(gnubg, 0), dice)
        for m in moves:
            move = m["move"]
            if len(move) % 2 == 0 and _result(before, me, _pairs(move)) == target:
                value = -float(m["score"])
                if keep:
                    self._optimals[key] = value
                return value
        return None  # pragma: no cover (the made-up play is legal by construction)

    def dance_equity(
        self, position: Position, best: dict[tuple[int, int], float | None]
    ) -> float | None:
        """The roller's equity after a roll that dances, as gnubg's luck analysis reads
        it when deeper searches filled its cache, where no made-up turn can read it.

        ``best`` is :meth:`best_equities` of ``position`` (``None`` for the rolls that
        dance). gnubg's luck takes the 0-ply cubeful equity of the position after the
        dance (the other side on roll) from its cache, whose entry a deeper search may
        have left, and which gnubg's ``eval`` does not read. The Python API reaches that
        entry only through a play that ends there (:meth:`_optimal`); where none can,
        it is read inside a 1-ply search of ``position`` itself, scored as the play of a
        made-up turn of the opponent that ends there: its cubeful equity is the mean
        over the 36 rolls of each roll's best 0-ply equity, the dances' that entry. The
        entry is what the mean leaves once the other rolls' equities are taken out, as
        the search left them (where the roller may double, the search looks for the
        positions after each roll with the cube doubled too, and figures them again
        when it does not find both: so the other rolls' equities are read after it).

        The search runs in a forked copy of this process (:func:`_in_child`): what it
        leaves in gnubg's cache, which later searches would meet (measured: a 2-ply
        candidate play's equity 1e-4 off gnubg's), goes with the copy.

        ``None`` when the usual reading holds (no roll dances, or a made-up turn leads
        to the position after the dance) or this one is not made: no made-up turn of
        the opponent leads to ``position``, the search's figure may be the roller's
        double's (:meth:`_may_be_doubled`), or the copy cannot be made or gave no answer.
        """
        dances = [roll for roll, equity in best.items() if equity is None]
        if not dances or _predecessor(replace(position, turn=position.opponent)) is not None:
            return None
        weight = {roll: 1 if roll[0] == roll[1] else 2 for roll in best}

        def read() -> float | None:
            mean = self._one_ply(position)
            if mean is None:
                return None
            after = self.best_equities(position, plies=0)
            if self._may_be_doubled(position, mean):
                return None
            rest = sum(weight[roll] * e for roll, e in after.items() if e is not None)
            return (36 * mean - rest) / sum(weight[roll] for roll in dances)

        return _in_child(read)

    def _may_be_doubled(self, position: Position, mean: float) -> bool:
        """Whether the 1-ply figure ``mean`` of the roller (:meth:`_one_ply`) may be his
        double's: gnubg's search takes his best cube action where he may double, the
        higher of no double and the lower of double/take (searched here: it leaves
        figures in gnubg's cache) and double/pass."""
        from bgkit.analysis.metrics import cube_available

        if not cube_available(position):
            return False
        doubled = replace(position, cube=position.cube * 2, cube_owner=position.opponent)
        taken = self._one_ply(doubled)
        if taken is None:  # pragma: no cover (the same made-up turn as the position's)
            return True
        met = self.match_equity_table()
        take = met.mwc_to_emg(met.emg_to_mwc(taken, doubled), position)
        return mean < min(take, 1.0) + _SETTLED

    def _one_ply(self, position: Position) -> float | None:
        """1-ply cubeful equity of the player on roll (no pruning), scored as the play
        of a made-up turn of the opponent that ends in ``position``; ``None`` without
        such a turn. Only the plays ranked at 0-ply up to that one are searched at 1-ply
        (each search leaves figures in gnubg's cache, which later searches meet)."""
        made_up = _predecessor(position)
        if made_up is None:
            return None
        before, dice = made_up
        gnubg = self._gnubg()
        mover, other = before.board[before.turn], before.board[before.opponent]
        board = (other[1:], mover[1:])
        target = (position.board[before.turn], position.board[position.turn])
        ci = _cubeinfo(gnubg, before)

        def rank(moves: list[dict[str, Any]]) -> int | None:
            return next(
                (
                    i
                    for i, m in enumerate(moves)
                    if len(m["move"]) % 2 == 0
                    and _result(mover, other, _pairs(m["move"])) == target
                ),
                None,
            )

        with _lock:
            at = rank(list(gnubg.findbestmoves(board, ci, _evalcontext(gnubg, 0), dice)))
        if at is None:  # pragma: no cover (the made-up play is legal by construction)
            return None
        keep = [{"ply": 1, "level": 0, "acceptmoves": at + 1, "extramoves": 0, "threshold": 0.0}]
        _searching(1)
        with _lock:
            moves = list(gnubg.findbestmoves(board, ci, _unpruned(gnubg), dice, keep))
        at = rank(moves)
        return None if at is None else -float(moves[at]["score"])

    def _settled_cube_decision(self, position: Position) -> CubeDecision | None:
        """The 0-ply cube decision from :meth:`_optimal`, when no double is right.

        The optimal equity is the no-double equity unless doubling is right; the
        double/take equity is the optimal equity with the cube doubled and owned by the
        opponent (where the player cannot double). When the optimal equity is not above
        the double's, the no-double equity is unknown: ``None``.
        """
        from bgkit.analysis.metrics import cube_available

        optimal = self._optimal(position)
        if optimal is None:
            return None
        if not cube_available(position):
            return CubeDecision(optimal, optimal, 1.0, available=False)
        taken = replace(position, cube=position.cube * 2, cube_owner=position.opponent)
        after_take = self._optimal(taken)
        if after_take is None:
            return None
        met = self.match_equity_table()
        take = met.mwc_to_emg(met.emg_to_mwc(after_take, taken), position)
        if optimal > min(take, 1.0) + _SETTLED:
            return CubeDecision(optimal, take, 1.0)
        return None

    def best_equity(
        self, position: Position, dice: tuple[int, int], *, plies: int = 0
    ) -> float | None:
        moves = self._findbestmoves(position, dice, plies, plies)
        return float(moves[0]["score"]) if moves else None

    def best_equities(
        self, position: Position, *, plies: int = 0
    ) -> dict[tuple[int, int], float | None]:
        gnubg, board, ci, ec, mf = self._search_args(position, plies, plies)
        out: dict[tuple[int, int], float | None] = {}
        found: dict[tuple[int, int], list[dict[str, Any]]] = {}
        with _lock:
            for roll in _ROLLS:
                moves = found[roll] = gnubg.findbestmoves(board, ci, ec, roll, *mf)
                out[roll] = float(moves[0]["score"]) if moves else None
        fresh = not plies and not _Searched.deeper
        self._rolled = (board, ci, _Cleared.times, found) if fresh else None
        return out

    def _rolled_plays(self, position: Position, dice: tuple[int, int]) -> list[dict[str, Any]]:
        """gnubg's 0-ply plays of ``dice`` (``findbestmoves``), from the last
        :meth:`best_equities` when it searched this position (the same list: its
        positions are in gnubg's cache since). Only for the dice in its order (high die
        first): gnubg lists the plays of the dice in their order, and sorts them by an
        unstable sort, so plays of equal scores may come in another order otherwise."""
        rolled = self._rolled
        if rolled is not None and dice[0] >= dice[1] and not _Searched.deeper:
            board, ci, cleared, found = rolled
            same = ci is _cubeinfo(self._gnubg(), position) and cleared == _Cleared.times
            if same and board == _board(position):
                _check(position)
                return found[dice]
        return self._findbestmoves(position, dice, 0, 0)

    def plays(
        self,
        position: Position,
        dice: tuple[int, int],
        *,
        plies: int = 0,
        keep: Key | None = None,
    ) -> list[Candidate]:
        _check(position)
        if plies:
            return self._deeper_plays(position, dice, plies, keep)
        found = self._rolled_plays(position, dice)
        if not found:
            return []
        me = position.board[position.turn]
        opp = position.board[position.opponent]
        # plays as the rules engine writes them, as everywhere in bgkit (bgkit moves...)
        legal = position.legal_results(*dice)
        if all(len(m["move"]) % 2 == 0 for m in found):
            out = []
            for m in found:
                key = _moved(me, opp, m["move"])
                out.append(Candidate(legal[key], key, float(m["score"]), 0))
            return out
        # gnubg's move tuples stop at the first checker borne off: score each result
        scored = self._score_results(position, legal)
        if scored is None:
            scored = self._hint(position, dice, 0)
        return _candidates(position, legal, scored)

    def _deeper_plays(
        self, position: Position, dice: tuple[int, int], plies: int, keep: Key | None
    ) -> list[Candidate]:
        """The plays searched ``plies`` deep as gnubg's ``analyse match`` lists them.

        gnubg's ``hint`` searches as its analysis does (``FindnSaveBestMoves``), without a
        play to keep: each level's move filter sends the best plays one ply deeper, and
        the search stops early when a level keeps one play only. The analysis then makes
        sure of the play made (``keep``), as gnubg does after the search: searched as deep
        as the deepest plays (``n``) if it was not; and when it lost more than
        :data:`KEEP_THRESHOLD` and the search stopped early, it and the best play both
        searched the full ``plies``. Moved up next to the plays searched as deep, sorted
        with them.
        """
        legal = position.legal_results(*dice)
        if not legal:
            return []
        out = _candidates(position, legal, self._hint(position, dice, plies))
        # (gnubg searches exact bear-offs less deep than asked: its deepest is "n")
        n = max(c.plies for c in out)
        at = next((i for i, c in enumerate(out) if c.key == keep), None)
        if keep is None or at is None or at == 0:
            return out
        deep = sum(1 for c in out if c.plies == n)  # (listed first)
        kept = out[at]
        moved = False
        if kept.plies < n:
            kept = self._searched(position, dice, n, (kept.key,))[kept.key]
            moved = True
        if abs(kept.equity - out[0].equity) > KEEP_THRESHOLD and n < plies:
            if moved:
                # gnubg searched the one play n deep; searching more leaves figures in its
                # cache that the deeper search would get: it starts from an empty one
                self.clear_cache(_Table.entries)
            searched = self._searched(position, dice, plies, (out[0].key, kept.key))
            out[0], kept = searched[out[0].key], searched[kept.key]
            deep = 1
            moved = True
        if moved:
            del out[at]
            top = sorted([*out[:deep], kept], key=lambda c: -c.equity)
            out = top + out[deep:]
        return out

    def _searched(
        self, position: Position, dice: tuple[int, int], plies: int, wanted: Sequence[Key]
    ) -> dict[Key, Candidate]:
        """The ``wanted`` plays (and those between them at 0-ply) searched ``plies`` deep,
        by result: gnubg's ``hint`` with move filters that keep the plays ranked down to
        the last wanted one at 0-ply and skip the levels between, so each is scored as
        gnubg's analysis scores the play made (``eval`` of the position after a play gives
        another figure: it is another search).

        gnubg's analysis scores the play made with one search at the deepest level
        (``FindnSaveBestMoves``: ``ScoreMove``), not level by level: a search one ply
        short of it leaves figures in gnubg's cache that its luck analysis of the next
        roll meets (measured: a dance's luck 0.0132 off gnubg's when the levels between
        were searched, equal when skipped; every candidate figure the same).

        A wanted play whose mover has two checkers on points of the opponent's home
        board is scored alone, as the one legal play of a made-up turn that ends where
        it does (:func:`_entering_turn`): the same search of the same position, without
        the plays ranked above it. Else one play is searched as a play of a made-up turn
        that ends where it does when fewer of that turn's plays rank above it
        (:meth:`_searched_made_up`), alone when one ranks it first: a 1-1 of 277 plays
        whose play made ranked 105th searched 276 plays in 5.4 s; a made-up turn ranks it
        4th."""
        legal = position.legal_results(*dice)
        if all(_entering_turn(*key) is not None for key in wanted):
            alone = {key: self._scored_alone(position, legal[key], key, plies) for key in wanted}
            if all(found is not None for found in alone.values()):
                return {key: found for key, found in alone.items() if found is not None}
        ranks = self._ranks(position, dice)
        last = max((ranks.get(key, len(legal)) for key in wanted), default=len(legal))
        if len(wanted) == 1:
            made_up = self._searched_made_up(position, legal[wanted[0]], wanted[0], plies, last)
            if made_up is not None:
                return {wanted[0]: made_up}
        found = self._searched_down_to(position, dice, legal, plies, last, wanted)
        if found is None:  # (ties ranked otherwise)
            found = self._hint_through(position, dice, legal, plies, (len(legal), 0, 0.0))
        return found

    def _searched_down_to(
        self,
        position: Position,
        dice: tuple[int, int],
        legal: dict[Key, Play],
        plies: int,
        rank: int,
        wanted: Sequence[Key],
    ) -> dict[Key, Candidate] | None:
        """:meth:`_hint_through` of the plays ranked down to ``rank`` at 0-ply (and two
        more: plays of equal figures), by result; ``None`` when it leaves a ``wanted`` play
        short of the deepest plays (plays of equal figures ranked otherwise)."""
        extra = min(len(legal), rank + 2)
        found = self._hint_through(position, dice, legal, plies, (0, extra, 10.0))
        deepest = max(c.plies for c in found.values())
        if any(found[key].plies < deepest for key in wanted):
            return None
        return found

    def _searched_made_up(
        self, position: Position, play: Play, key: Key, plies: int, rank: int
    ) -> Candidate | None:
        """The play with result ``key`` searched ``plies`` deep among the plays of a
        made-up turn of the mover that ends where it does (:func:`_made_up_turns`: the
        same cube, the same search of the same position), ranked down to it at 0-ply: of
        the first :data:`MADE_UP_TRIES` such turns, the first that ranks it first (then
        searched alone), else the one that ranks it highest. ``None`` when no turn ranks
        it higher than the roll's ``rank``, or the search leaves the play short (plays
        of equal figures)."""
        best: tuple[int, Position, tuple[int, int]] | None = None
        turns = _made_up_turns(position, key)
        for before, dice in itertools.islice(turns, MADE_UP_TRIES):
            theirs = self._ranks(before, dice).get(key)
            if theirs is not None and theirs < (rank if best is None else best[0]):
                best = (theirs, before, dice)
                if theirs == 0:
                    break
        if best is None:
            return None
        theirs, before, dice = best
        if theirs == 0:
            first = self._searched_first(before, dice, play, key, plies)
            if first is not None:
                return first
        legal = before.legal_results(*dice)
        found = self._searched_down_to(before, dice, legal, plies, theirs, (key,))
        return None if found is None else replace(found[key], play=play)

    def _scored_alone(
        self, position: Position, play: Play, key: Key, plies: int
    ) -> Candidate | None:
        """The play with result ``key`` searched ``plies`` deep by itself: gnubg's ``hint``
        of a made-up turn of the mover (:func:`_entering_turn`) whose one legal play ends
        in the same position, with the same cube; ``None`` when no such turn is made."""
        mover, other = key
        made_up = _entering_turn(mover, other)
        if made_up is None:
            return None
        before, dice = made_up
        turn = _with_sides(position, position.turn, before, other, position.turn)
        return self._searched_first(turn, dice, play, key, plies)

    def _searched_first(
        self, turn: Position, dice: tuple[int, int], play: Play, key: Key, plies: int
    ) -> Candidate | None:
        """The play with result ``key``, the best of the made-up ``turn``'s at 0-ply,
        searched ``plies`` deep by itself (gnubg's ``hint`` keeping one play at 0-ply);
        ``None`` when another play of equal figures comes first."""
        found = self._hint(turn, dice, plies, {plies: ((1, 0, 0.0),) + (_SKIP,) * (plies - 1)})
        if found[0][0] != key or found[0][2] != plies:
            return None
        _, equity, depth, chances = found[0]
        return Candidate(play, key, equity, depth, chances)

    def _hint_through(
        self,
        position: Position,
        dice: tuple[int, int],
        legal: dict[Key, Play],
        plies: int,
        level: tuple[int, int, float],
    ) -> dict[Key, Candidate]:
        """:meth:`_hint` with the move filter ``level`` (accept, extra, threshold) at 0-ply,
        the levels between 0-ply and ``plies`` skipped (gnubg's accept -1), by result
        (``legal``: the roll's legal plays)."""
        filters = {n: (level,) + (_SKIP,) * (n - 1) for n in range(1, plies + 1)}
        found = self._hint(position, dice, plies, filters)
        return {c.key: c for c in _candidates(position, legal, found)}

    def _ranks(self, position: Position, dice: tuple[int, int]) -> dict[Key, int]:
        """The plays' ranks at 0-ply (as gnubg's first move filter sorts them), by result;
        empty when gnubg's move tuples do not name every result (bear-offs)."""
        found = self._findbestmoves(position, dice, 0, 0)
        if not all(len(m["move"]) % 2 == 0 for m in found):
            return {}
        me, opp = position.board[position.turn], position.board[position.opponent]
        return {_moved(me, opp, m["move"]): i for i, m in enumerate(found)}

    def _score_results(self, position: Position, legal: dict[Key, Play]) -> list[_Scored] | None:
        """0-ply scores of the given results of the player on roll's plays, best first."""
        out: list[_Scored] = []
        for key in legal:
            value = self._optimal(_after(position, key))
            if value is None:
                return None
            out.append((key, -value, 0, None))
        out.sort(key=lambda item: -item[1])
        return out

    def _hint(
        self,
        position: Position,
        dice: tuple[int, int],
        plies: int,
        filters: dict[int, tuple[tuple[int, int, float], ...]] | None = None,
    ) -> list[_Scored]:
        """Every play with its equity, depth and chances, from gnubg's ``hint`` command
        (with the move filters ``filters``, default the evaluator's)."""
        gnubg = self._gnubg()
        me = position.board[position.turn]
        opp = position.board[position.opponent]
        rolled = replace(position, dice=(dice[0], dice[1]), doubled=False, resigned=0)
        with _lock:
            session = _session()
            session.set_plies(gnubg, plies, self._filters if filters is None else filters)
            session.set_rules(gnubg, rolled)
            session.run(gnubg, f"set gnubgid {rolled.gnubg_id()}:{rolled.match_id()}")
            text = session.search(gnubg, "hint 9999", plies)
        out = []
        for depth, move, equity, *chances in _HINT.findall(text):
            probs = _chances(chances) if chances[0] else None
            out.append((_result(me, opp, _parse_move(move)), float(equity), int(depth), probs))
        if not out:
            raise RuntimeError(f"unexpected output of gnubg's hint:\n{text}")
        return out

    # ------------------------------------------------------------------ gnubg calls

    def _findbestmoves(
        self, position: Position, dice: tuple[int, int], plies: int, row: int
    ) -> list[dict[str, Any]]:
        gnubg, board, ci, ec, mf = self._search_args(position, plies, row)
        with _lock:
            return list(gnubg.findbestmoves(board, ci, ec, tuple(dice), *mf))

    def _search_args(self, position: Position, plies: int, row: int) -> tuple[Any, ...]:
        """gnubg's module and ``findbestmoves``'s arguments but the dice, for a search of
        ``plies`` with the filters of ``row`` (the position checked, the search noted)."""
        _check(position)
        gnubg = self._gnubg()
        ci = _cubeinfo(gnubg, position)
        mf = self._movefilters(plies, row)
        _searching(plies)
        return gnubg, _board(position), ci, _evalcontext(gnubg, plies), mf

    def _movefilters(self, plies: int, row: int) -> tuple[list[dict[str, Any]], ...]:
        """The ``movefilters`` argument for a search of ``plies`` with the filters of ``row``."""
        if not plies:
            return ()
        filters = self._filters.get(row) or self._filters[max(self._filters)]
        return (
            [
                {"ply": plies, "level": level, "acceptmoves": a, "extramoves": e, "threshold": t}
                for level, (a, e, t) in enumerate(filters[:plies])
            ],
        )

    def _eval_text(self, position: Position, plies: int) -> str:
        """gnubg's ``eval`` output for the position before the roll (EMG, six decimals)."""
        _check(position)
        if position.game_state != GameState.PLAYING:
            raise ValueError("the game is over: nothing to evaluate")
        gnubg = self._gnubg()
        pos = replace(position, dice=None, doubled=False, resigned=0)
        gid = f"{pos.gnubg_id()}:{pos.match_id()}"
        with _lock:
            # the position in gnubg's cache first (as it always was: figures depend on the
            # order gnubg's net met positions in, see _made_up_turn)
            _api_evaluate(gnubg, pos, 0)
            session = _session()
            session.set_plies(gnubg, plies, self._filters)
            session.set_rules(gnubg, pos)
            session.run(gnubg, f"set gnubgid {gid}")
            return session.search(gnubg, "eval", plies, short=plies <= SHORT_CUBE_PLIES)


# ---------------------------------------------------------------------- helpers


def _check(position: Position) -> None:
    engine_gate.check(position)  # (nothing gnubg does not support reaches its C code)


@cache
def _met(gnubg: Any, name: str) -> MatchEquityTable:
    pre, post0, post1 = gnubg.met(engine_gate.MAX_MATCH_LENGTH)
    return MatchEquityTable.from_rows(f"gnubg ({name})", pre, (post0, post1))


def _board(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The position as gnubg's Python API takes a board: the opponent's side, then the
    player on roll's, each from point 1 to the bar."""
    return (position.board[position.opponent][1:], position.board[position.turn][1:])


def _api_evaluate(gnubg: Any, position: Position, plies: int) -> Any:
    """gnubg's ``evaluate`` of the position before the roll (the caller holds ``_lock``):
    the cubeless chances, then the cubeful equity."""
    return gnubg.evaluate(_board(position), _cubeinfo(gnubg, position), _evalcontext(gnubg, plies))


def _cubeinfo(gnubg: Any, pos: Position) -> dict[str, Any]:
    owner = -1 if pos.cube_owner is None else pos.cube_owner
    return _cubeinfo_cached(
        gnubg,
        pos.cube,
        owner,
        pos.turn,
        pos.match_length,
        pos.score,
        pos.crawford,
        pos.jacoby,
        pos.beavers,
    )


@cache
def _cubeinfo_cached(
    gnubg: Any,
    cube: int,
    owner: int,
    turn: int,
    length: int,
    score: tuple[int, int],
    crawford: bool,
    jacoby: bool,
    beavers: bool = False,
) -> dict[str, Any]:
    ci: dict[str, Any] = gnubg.cubeinfo(cube, owner, turn, length, score, int(crawford), 0)
    if not length and not jacoby:
        # gnubg.cubeinfo() always applies the Jacoby rule in money play
        ci["jacoby"] = 0
        ci["gammonprice"] = ((1.0, 1.0), (1.0, 1.0))
    # gnubg's cache keeps figures by the cube's rules too, the number of beavers allowed
    # among them: gnubg.cubeinfo() says none, its commands (and analysis) its setting
    ci["beavers"] = _beavers(length, beavers)
    return ci


@cache
def _evalcontext(gnubg: Any, plies: int) -> dict[str, Any]:
    # cubeful, plies, deterministic, pruning nets (as the analysis settings), no noise
    ec: dict[str, Any] = gnubg.evalcontext(1, plies, 1, 1 if plies else 0, 0.0)
    return ec


@cache
def _unpruned(gnubg: Any) -> dict[str, Any]:
    """1-ply, cubeful, deterministic, without the pruning nets (see
    :meth:`GnubgEvaluator.dance_equity`)."""
    ec: dict[str, Any] = gnubg.evalcontext(1, 1, 1, 0, 0.0)
    return ec


_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))

#: The deepest cube decision (``hint`` without dice, ``eval``) run as a short command, on
#: the caller's CPU (:class:`~bgkit.analysis.gnubg_process._Session`): 4 ms at 2-ply in
#: an analysis, 14 ms from an empty cache; 340 ms at 3-ply.
SHORT_CUBE_PLIES = 2

#: A move filter level that gnubg's search skips (accept -1: no search at that depth).
_SKIP = (-1, 0, 0.0)

#: How far the optimal equity must be above doubling's for a 0-ply cube decision to be
#: settled without gnubg's cube analysis (the figures pass through float32 and the MET).
_SETTLED = 1e-4


def _predecessor(position: Position) -> tuple[Position, tuple[int, int]] | None:
    """A made-up turn of the opponent that ends in ``position``: (position before, dice).

    See :func:`_made_up_turn`.
    """
    mover = position.opponent
    made_up = _made_up_turn(position.board[mover], position.board[position.turn])
    if made_up is None:
        return None
    side, dice = made_up
    return _with_sides(position, mover, side, position.board[position.turn], mover), dice


def _made_up_turn(mover: Side, other: Side) -> tuple[Side, tuple[int, int]] | None:
    """A turn of ``mover`` (his side before it, and the dice) that ends with the sides
    ``mover`` and ``other`` (``other``, on roll after it, is not moved).

    With no checker on the bar, one of his checkers goes back three pips (a 21 brings it
    home over an open point); from the bar, a checker on an entry point goes back to the
    bar and enters with one die while the other die's entry point is closed.

    (A turn with fewer legal plays, such as two checkers entering from the bar, would
    cost gnubg fewer evaluations, but changes figures in their last bits: gnubg's net
    evaluates the plays of a roll incrementally from the first, and caches the outputs.)
    """
    side = list(mover)

    def free(point: int) -> bool:  # no checker of ``other`` on the mover's point
        return other[25 - point] == 0

    if side[25] == 0:
        for p in range(1, 22):
            q = p + 3
            if side[p] and free(q) and (free(p + 1) or free(p + 2)):
                side[p] -= 1
                side[q] += 1
                return tuple(side), (2, 1)
        return None
    closed = [d for d in range(1, 7) if other[d] >= 2]  # the mover enters on point 25 - d
    for entry in range(19, 25):
        die = 25 - entry
        found = next((d for d in closed if d != die), None)
        if side[entry] and found is not None:
            side[entry] -= 1
            side[25] += 1
            if other[25] and _closed(side) and _closed(other):  # pragma: no cover
                return None  # (then the position itself is impossible)
            return tuple(side), (die, found)
    return None


def _entering_turn(mover: Side, other: Side) -> tuple[Side, tuple[int, int]] | None:
    """A turn of ``mover`` with one legal play that ends with the sides ``mover`` and
    ``other`` (on roll after it): two of his checkers on different points of ``other``'s
    home board where ``other`` has none go back to the bar, and the dice enter them there
    (both dice must be played, and only those two checkers can move). ``None`` when he
    has no two such points."""
    points = [p for p in range(24, 18, -1) if mover[p] and not other[25 - p]]
    if len(points) < 2:
        return None
    high, low = points[0], points[1]
    side = list(mover)
    side[high] -= 1
    side[low] -= 1
    side[25] += 2
    return tuple(side), (25 - low, 25 - high)


def _made_up_turns(position: Position, key: Key) -> Iterator[tuple[Position, tuple[int, int]]]:
    """Made-up turns of the player on roll in ``position`` (the position before, the
    dice) that end with the sides ``key`` (his play's result), the same cube and score:
    :func:`_predecessor`'s, then one checker of his moved back by the dice of a roll that
    is not a double, over a point and to a point where the opponent has no checker (so
    the play that brings it forward hits nothing and is legal).

    Those that make the point it comes to (a blot there before) first, then those from
    the opponent's home board, then by the pips moved, most first: of 52 plays made that
    2-ply's filters drop in 10 self-play matches, 34 have such a turn that ranks them
    first at 0-ply, and 28 within the first eight turns (14 at the second, the first
    moved back). None moved back when the mover has checkers on the bar."""
    mover, other = key
    turn = position.turn
    first = _predecessor(_after(position, key))
    if first is not None:
        yield first
    if mover[25]:
        return
    moves = []
    for p in range(1, 25):
        if not mover[p]:
            continue
        for a, b in _ROLLS:
            q = p + a + b
            if a == b or q > 24 or other[25 - q] or (other[25 - p - a] and other[25 - p - b]):
                continue
            moves.append((mover[p] != 2, q <= 18, -(a + b), p, (a, b)))
    for *_, p, dice in sorted(moves):
        side = list(mover)
        side[p] -= 1
        side[p + sum(dice)] += 1
        found = _with_sides(position, turn, tuple(side), other, turn), dice
        if found != first:
            yield found


def _closed(side: Sequence[int]) -> bool:
    """All six home points of ``side`` made."""
    return all(side[p] >= 2 for p in range(1, 7))


def _state(position: Position) -> tuple[int, int, int, tuple[int, int], bool, bool, bool]:
    """Cube and match state, as :func:`_cubeinfo_cached` takes it (the turn aside)."""
    owner = -1 if position.cube_owner is None else position.cube_owner
    return (
        position.cube,
        owner,
        position.match_length,
        position.score,
        position.crawford,
        position.jacoby,
        position.beavers,
    )


def _eval_id(position: Position) -> str:
    """What decides a 0-ply ``eval``: gnubg ID of the position before the roll."""
    pos = replace(position, dice=None, doubled=False, resigned=0)
    return f"{pos.gnubg_id()}:{pos.match_id()}"


_Rolled = tuple[Any, dict[str, Any], int, dict[tuple[int, int], list[dict[str, Any]]]]
"""gnubg's board and cube info of a position, :attr:`_Cleared.times` then, and each
roll's plays (its ``findbestmoves``)."""


def empty_gnubg_cache(entries: int = CACHE_SIZE) -> None:
    """Empty gnubg's position cache, with room for ``entries`` positions after (see
    :meth:`GnubgEvaluator.clear_cache`, which also empties the evaluator's own); the
    session gives its settings again before its next command that depends on them."""
    _Table.entries = entries
    if _session.cache_info().currsize:
        _session().forget()
    if gnubg_module.cache_info().currsize == 0 and entries == CACHE_SIZE:
        return  # gnubg not started yet: nothing cached
    gnubg = gnubg_module()
    with _lock:  # (resizing to the same size keeps the entries)
        session = _session()
        with session.one_cpu():
            session.run(gnubg, "set cache 0")
        with session.one_cpu():
            session.run(gnubg, f"set cache {entries}")
        _Searched.deeper = False
        _Cleared.times += 1


class _Cleared:
    """How many times an evaluator of this process emptied gnubg's cache (what one
    evaluator kept from before is not what gnubg would answer after)."""

    times = 0


_Scored = tuple[Key, float, int, Chances | None]
"""A play's result, equity, depth and (from ``hint``) the mover's chances."""


def _chances(words: Sequence[str]) -> Chances:
    """``hint``'s chances line (win, win g., win bg., lose g., lose bg.) as floats."""
    win, win_g, win_bg, lose_g, lose_bg = (float(w) for w in words)
    return (win, win_g, win_bg, lose_g, lose_bg)


def _candidates(
    position: Position, legal: dict[Key, Play], scored: list[_Scored]
) -> list[Candidate]:
    out = []
    for key, equity, depth, chances in scored:
        play = legal.get(key)
        if play is None:
            raise RuntimeError(f"gnubg lists a play bgkit finds illegal in {position!r}")
        out.append(Candidate(play, key, equity, depth, chances))
    return out


def _pairs(move: tuple[int, ...]) -> list[tuple[int, int]]:
    """gnubg's move tuple ``(from, to, from, to, ...)`` (1-based, 25 = bar, 0 = off) as steps."""
    return [(move[i], move[i + 1]) for i in range(0, len(move) - 1, 2) if move[i] > 0]


def _parse_move(text: str) -> list[tuple[int, int]]:
    """gnubg's written play (``24/18*/13 6/off 8/4(2)``) as steps; each hop is one step."""
    steps: list[tuple[int, int]] = []
    for token in text.split():
        count = 1
        if token.endswith(")"):
            token, _, n = token[:-1].partition("(")
            count = int(n)
        points = [_POINTS[p] if p in _POINTS else int(p) for p in token.replace("*", "").split("/")]
        hops = list(itertools.pairwise(points))
        steps.extend(hops * count)
    return steps


_POINTS = {"bar": 25, "off": 0}


def _moved(me: tuple[int, ...], opp: tuple[int, ...], move: tuple[int, ...]) -> Key:
    """The result of gnubg's move tuple (as :func:`_pairs` reads it; a hit where a step
    lands on a blot): :func:`_result` without the list of steps."""
    mine, theirs = list(me), list(opp)
    for i in range(0, len(move) - 1, 2):
        src, dst = move[i], move[i + 1]
        if src <= 0:
            continue
        if dst < 0:
            dst = 0
        if dst and theirs[25 - dst] == 1:
            theirs[25 - dst] = 0
            theirs[25] += 1
        mine[src] -= 1
        mine[dst] += 1
    return (tuple(mine), tuple(theirs))


def _result(me: tuple[int, ...], opp: tuple[int, ...], steps: list[tuple[int, int]]) -> Key:
    """The sides after the mover makes ``steps`` (hitting blots it lands on)."""
    mine, theirs = list(me), list(opp)
    for src, dst in steps:
        dst = max(dst, 0)
        if dst and theirs[25 - dst] == 1:
            theirs[25 - dst] = 0
            theirs[25] += 1
        mine[src] -= 1
        mine[dst] += 1
    return (tuple(mine), tuple(theirs))


def _after(position: Position, key: Key) -> Position:
    """The position after the player on roll's play with result ``key``."""
    me, opp = key
    return _with_sides(position, position.turn, me, opp, position.opponent)


def _with_sides(position: Position, player: int, side: Side, other: Side, turn: int) -> Position:
    """``position`` with ``player``'s checkers ``side`` and the other's ``other``, ``turn``
    on roll and no dice (the cube and score as they are)."""
    board = (other, side) if player == 1 else (side, other)
    return replace(position, board=board, turn=turn, dice=None)


def _numbers(text: str) -> list[float]:
    return [float(x) for x in text.split()]


def _parse(text: str, plies: int) -> tuple[Evaluation, CubeDecision]:
    """gnubg's ``eval`` output: the evaluation and the cube decision of the player on roll.

    The table's cubeful column is the no-double equity; the evaluation's cubeful equity
    is the optimal one (what a play into this position scores, negated).
    """
    rows = _ROW.findall(text)
    if not rows:
        raise RuntimeError(f"unexpected output of gnubg's eval:\n{text}")
    values = _numbers(rows[-1])
    probs = (values[0], values[1], values[2], values[3], values[4])
    cube = _cube_equities(text, "eval")
    if cube is None:
        # the player on roll cannot double: only the no-double equity exists
        cube = CubeDecision(values[6], values[6], 1.0, available=False)
    return Evaluation(probs, values[5], cube.optimal, plies), cube


def _cube_equities(text: str, command: str) -> CubeDecision | None:
    """The no double, double/take and double/pass equities a cube analysis of gnubg's
    ``command`` (``eval``, ``hint``) prints; ``None`` when it prints none.

    :raises RuntimeError: when one of the three is missing.
    """
    found = {label.lower(): float(value) for label, value in _CUBE.findall(text)}
    if not found:
        return None
    nd = next((v for k, v in found.items() if k.startswith("no ")), None)
    dt = next((v for k, v in found.items() if k.endswith(("take", "beaver"))), None)
    dp = next((v for k, v in found.items() if k.endswith("pass")), None)
    if nd is None or dt is None or dp is None:
        raise RuntimeError(f"unexpected cube analysis from gnubg's {command}:\n{text}")
    return CubeDecision(nd, dt, dp, available=True)
