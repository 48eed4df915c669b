"""GNU Backgammon as bgkit's evaluator (the PyPI ``gnubg`` package, imported on first use).

:class:`GnubgEvaluator` implements :class:`bgkit.evaluator.Evaluator` with GNU
Backgammon's neural nets, bear-off databases and match equity table, the same
engine and settings that ``analyse match`` uses, so bgkit's analysis reproduces
gnubg's figures.

**Why ``gnubg`` and not ``gnubg-nn``.** Measured here (2-core VM, Python 3.11,
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
come from gnubg's ``eval`` command, printed with six decimals. gnubg runs commands
through its thread pool, which often answers only after a 10 ms poll; with two
threads less often than with one (``set threads 0`` hangs).

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

import atexit
import ctypes
import itertools
import os
import re
import sys
import tempfile
import threading
from dataclasses import replace
from functools import cache
from types import ModuleType
from typing import IO, Any, Self

from bgkit.errors import InvalidPositionError
from bgkit.evaluator import Candidate, CubeDecision, Evaluation
from bgkit.met import MatchEquityTable
from bgkit.movegen import Key
from bgkit.play import Play, Step
from bgkit.position import GameState, Position

__all__ = ["ANALYSIS_FILTERS", "GnubgEvaluator", "gnubg_module"]

#: GNU Backgammon's default analysis move filters: for a search of ``n`` plies, one
#: ``(accept, extra, threshold)`` per level 0..n-1 (``show analysis``).
ANALYSIS_FILTERS: dict[int, tuple[tuple[int, int, float], ...]] = {
    1: ((0, 16, 0.32),),
    2: ((0, 16, 0.32), (0, 8, 0.16)),
    3: ((0, 24, 0.4), (0, 12, 0.2), (0, 6, 0.08)),
    4: ((0, 32, 0.4), (0, 16, 0.2), (0, 8, 0.1), (0, 6, 0.08)),
}

_SETUP = (
    "set display off",
    "set sound enable off",
    "set threads 2",
    "set output digits 6",
    "set output mwc off",
    "set evaluation chequerplay evaluation prune on",
    "set evaluation cubedecision evaluation prune on",
    "set evaluation chequerplay evaluation cubeful on",
    "set evaluation cubedecision evaluation cubeful on",
)
_lock = threading.Lock()
_HINT = re.compile(r"^\s*\d+\.\s+Cubeful (\d+)-ply\s+(.+?)\s+Eq\.:\s+([+-]?\d+\.\d+)", re.MULTILINE)
_ROW = re.compile(r"^\s*(?:static|\d+ ply):((?:\s+[+-]?\d+\.\d+){7})\s*$", re.MULTILINE)
_CUBE = re.compile(
    r"^\s*\d\.\s+(No (?:re)?double|(?:Re)?[Dd]ouble, (?:take|pass|beaver))"
    r"\s+([+-]?\d+\.\d+)",
    re.MULTILINE,
)


@cache
def gnubg_module() -> ModuleType:
    """The ``gnubg`` module, imported and set up for quiet, scripted use (once per process).

    :raises ImportError: when the ``gnubg`` package is not installed.
    """
    import gnubg

    with _Capture() as out:
        for setting in _SETUP:
            out.run(gnubg, setting)
    module: ModuleType = gnubg
    return module


@cache
def _libc() -> Any:
    try:
        return ctypes.CDLL(None)
    except (OSError, TypeError):  # pragma: no cover (no C library to load by that name)
        return None


def _fflush() -> None:
    """Flush every C stdio stream (gnubg's output)."""
    libc = _libc()
    if libc is not None:
        libc.fflush(None)


class _Capture:
    """Run gnubg commands with file descriptor 1 sent to a file, and read what they print.

    gnubg writes with C stdio to file descriptor 1; the buffers are flushed with
    ``fflush(NULL)`` before the descriptor is put back.
    """

    def __enter__(self) -> Self:
        self.file: IO[bytes] = tempfile.TemporaryFile()
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()

    def run(self, gnubg: Any, command: str) -> str:
        sys.stdout.flush()
        _fflush()
        self.file.seek(0)
        self.file.truncate()
        saved = os.dup(1)
        os.dup2(self.file.fileno(), 1)
        try:
            gnubg.command(command)
            _fflush()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        self.file.seek(0)
        return self.file.read().decode("utf-8", "replace")


class _Session(_Capture):
    """The process's command channel to gnubg, and the search settings of its commands."""

    settings: tuple[int, object] | None = None

    def set_plies(
        self, gnubg: Any, plies: int, filters: dict[int, tuple[tuple[int, int, float], ...]]
    ) -> None:
        """Make ``eval`` and ``hint`` search ``plies`` deep with the analysis move filters."""
        wanted = (plies, filters)
        if self.settings == wanted:
            return
        for what in ("chequerplay", "cubedecision"):
            self.run(gnubg, f"set evaluation {what} evaluation plies {plies}")
        gnubg.setevalhintfilter(
            [
                {"ply": n, "level": level, "acceptmoves": a, "extramoves": e, "threshold": t}
                for n, row in sorted(filters.items())
                for level, (a, e, t) in enumerate(row)
            ]
        )
        self.settings = wanted


@cache
def _session() -> _Session:
    session = _Session().__enter__()
    atexit.register(session.__exit__)
    return session


class GnubgEvaluator:
    """:class:`~bgkit.evaluator.Evaluator` on GNU Backgammon (the PyPI ``gnubg`` package).

    :param filters: move filters per search depth (default :data:`ANALYSIS_FILTERS`).
    :raises ImportError: (on first use) when ``gnubg`` is not installed.
    """

    def __init__(
        self, *, filters: dict[int, tuple[tuple[int, int, float], ...]] | None = None
    ) -> None:
        self._filters = dict(ANALYSIS_FILTERS if filters is None else filters)

    # ------------------------------------------------------------------ protocol

    @property
    def name(self) -> str:
        version = str(getattr(gnubg_module(), "version", "?"))
        return f"GNU Backgammon {version}"

    def match_equity_table(self) -> MatchEquityTable:
        """gnubg's table in memory (Kazaross-XG2 unless changed), 25 points long."""
        return _met(gnubg_module())

    def clear_cache(self) -> None:
        """Empty gnubg's position cache (shared by every evaluator of the process).

        gnubg's cache answers for a position with whatever depth it was last searched
        at: after a 2-ply search, a 0-ply or 1-ply question about the same position may
        get the 2-ply figure. Clearing it makes what follows independent of what came
        before (an analysis clears it when it starts).
        """
        if gnubg_module.cache_info().currsize == 0:
            return  # gnubg not started yet: nothing cached
        gnubg = gnubg_module()
        with _lock:  # (resizing to the same size keeps the entries)
            _session().run(gnubg, "set cache 0")
            _session().run(gnubg, f"set cache {CACHE_SIZE}")

    def evaluate(self, position: Position, plies: int = 0) -> Evaluation:
        _check(position)
        if plies == 0:
            optimal = self._optimal(position)
            if optimal is not None:
                gnubg = gnubg_module()
                board = (position.board[position.opponent][1:], position.board[position.turn][1:])
                with _lock:
                    out = gnubg.evaluate(board, _cubeinfo(gnubg, position), _evalcontext(gnubg, 0))
                probs = (out[0], out[1], out[2], out[3], out[4])
                return Evaluation(probs, float(out[5]), optimal, 0)
        return _parse(self._eval_text(position, plies), plies)[0]

    def cube_decision(self, position: Position, plies: int = 0) -> CubeDecision:
        _check(position)
        if plies == 0:
            decision = self._settled_cube_decision(position)
            if decision is not None:
                return decision
        return _parse(self._eval_text(position, plies), plies)[1]

    # ------------------------------------------------------------------ 0-ply shortcuts

    def _optimal(self, position: Position) -> float | None:
        """0-ply cubeful equity of the player on roll with his best cube action.

        gnubg's Python API scores plays but does not evaluate positions cubefully; a
        play's score is minus the cubeful equity of the position it leads to. So the
        opponent is given a made-up previous turn that can end in ``position`` (a
        checker put back three pips, or back on the bar), and the score of that play is
        read. ``None`` when no such turn can be made up (gnubg's ``eval`` then answers).
        """
        made_up = _predecessor(position)
        if made_up is None:
            return None
        previous, dice = made_up
        target = (position.board[position.opponent], position.board[position.turn])
        for m in self._findbestmoves(previous, dice, 0, 0):
            move = tuple(m["move"])
            if len(move) % 2 == 0 and _result(*_sides(previous), _pairs(move)) == target:
                return -float(m["score"])
        return None  # pragma: no cover (the made-up play is legal by construction)

    def _settled_cube_decision(self, position: Position) -> CubeDecision | None:
        """The 0-ply cube decision from :meth:`_optimal`, when no double is right.

        The optimal equity is the no-double equity unless doubling is right; the
        double/take equity is the optimal equity with the cube doubled and owned by the
        opponent (where the player cannot double). When the optimal equity is not above
        the double's, the no-double equity is unknown: ``None``.
        """
        from bgkit.metrics import cube_available

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
        self, position: Position, dice: tuple[int, int], plies: int = 0
    ) -> float | None:
        moves = self._findbestmoves(position, dice, plies, plies)
        return float(moves[0]["score"]) if moves else None

    def best_equities(
        self, position: Position, plies: int = 0
    ) -> dict[tuple[int, int], float | None]:
        _check(position)
        gnubg = gnubg_module()
        board = (position.board[position.opponent][1:], position.board[position.turn][1:])
        ci = _cubeinfo(gnubg, position)
        ec = _evalcontext(gnubg, plies)
        mf = self._movefilters(plies, plies)
        out: dict[tuple[int, int], float | None] = {}
        with _lock:
            for roll in _ROLLS:
                moves = gnubg.findbestmoves(board, ci, ec, roll, *mf)
                out[roll] = float(moves[0]["score"]) if moves else None
        return out

    def plays(
        self,
        position: Position,
        dice: tuple[int, int],
        plies: int = 0,
        *,
        keep: Key | None = None,
    ) -> list[Candidate]:
        _check(position)
        if plies:
            return self._deeper_plays(position, dice, plies, keep)
        found = self._findbestmoves(position, dice, 0, 0)
        if not found:
            return []
        me = position.board[position.turn]
        opp = position.board[position.opponent]
        if all(len(m["move"]) % 2 == 0 for m in found):
            out = []
            for m in found:
                play, key = _play(me, opp, _pairs(m["move"]))
                out.append(Candidate(play, key, float(m["score"]), 0))
            return out
        # gnubg's move tuples stop at the first checker borne off: score each result
        legal = position.legal_results(*dice)
        scored = self._score_results(position, legal)
        if scored is None:
            scored = self._hint(position, dice, 0)
        return _candidates(position, legal, scored)

    def _deeper_plays(
        self, position: Position, dice: tuple[int, int], plies: int, keep: Key | None
    ) -> list[Candidate]:
        """The plays searched ``plies`` deep, as gnubg's ``hint`` lists them (with the depth
        each reached through the move filters); ``keep`` is searched to full depth.

        gnubg's position cache answers for a position with whatever depth it last
        searched it at, so even a play listed at full depth may carry a shallower
        figure: unless it is the best, the play kept is searched anew (``eval`` of the
        position after it), as gnubg's analysis searches the play made.
        """
        legal = position.legal_results(*dice)
        if not legal:
            return []
        out = _candidates(position, legal, self._hint(position, dice, plies))
        # (gnubg searches exact bear-offs less deep than asked: its deepest is "full")
        full = max(c.plies for c in out)
        at = next((i for i, c in enumerate(out) if c.key == keep), None)
        if keep is not None and at:
            kept = replace(
                out.pop(at),
                equity=-self.evaluate(_after(position, keep), plies).cubeful,
                plies=full,
            )
            where = next(
                (i for i, c in enumerate(out) if c.plies < full or c.equity < kept.equity),
                len(out),
            )
            out.insert(where, kept)
        return out

    def _score_results(
        self, position: Position, legal: dict[Key, Play]
    ) -> list[tuple[Key, float, int]] | None:
        """0-ply scores of the given results of the player on roll's plays, best first."""
        out = []
        for key in legal:
            value = self._optimal(_after(position, key))
            if value is None:
                return None
            out.append((key, -value, 0))
        out.sort(key=lambda item: -item[1])
        return out

    def _hint(
        self, position: Position, dice: tuple[int, int], plies: int
    ) -> list[tuple[Key, float, int]]:
        """Every play with its equity and depth, from gnubg's ``hint`` command."""
        gnubg = gnubg_module()
        me = position.board[position.turn]
        opp = position.board[position.opponent]
        rolled = replace(position, dice=(dice[0], dice[1]), doubled=False, resigned=0)
        with _lock:
            session = _session()
            session.set_plies(gnubg, plies, self._filters)
            session.run(gnubg, f"set gnubgid {rolled.gnubg_id()}:{rolled.match_id()}")
            text = session.run(gnubg, "hint 9999")
        out = []
        for depth, move, equity in _HINT.findall(text):
            out.append((_result(me, opp, _parse_move(move)), float(equity), int(depth)))
        if not out:
            raise RuntimeError(f"unexpected output of gnubg's hint:\n{text}")
        return out

    # ------------------------------------------------------------------ gnubg calls

    def _findbestmoves(
        self, position: Position, dice: tuple[int, int], plies: int, row: int
    ) -> list[dict[str, Any]]:
        _check(position)
        gnubg = gnubg_module()
        board = (position.board[position.opponent][1:], position.board[position.turn][1:])
        ci = _cubeinfo(gnubg, position)
        ec = _evalcontext(gnubg, plies)
        mf = self._movefilters(plies, row)
        with _lock:
            return list(gnubg.findbestmoves(board, ci, ec, tuple(dice), *mf))

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
        gnubg = gnubg_module()
        pos = replace(position, dice=None, doubled=False, resigned=0)
        gid = f"{pos.gnubg_id()}:{pos.match_id()}"
        board = (pos.board[pos.opponent][1:], pos.board[pos.turn][1:])
        with _lock:
            # with the position in gnubg's cache, the command's evaluation is done before
            # gnubg first looks for it (else it polls again after 10 ms)
            gnubg.evaluate(board, _cubeinfo(gnubg, pos), _evalcontext(gnubg, 0))
            session = _session()
            session.set_plies(gnubg, plies, self._filters)
            session.run(gnubg, f"set gnubgid {gid}")
            return session.run(gnubg, "eval")


# ---------------------------------------------------------------------- helpers


def _check(position: Position) -> None:
    if position.checkers != 15:
        raise NotImplementedError("gnubg evaluation of hypergammon positions is not supported")


@cache
def _met(gnubg: Any) -> MatchEquityTable:
    pre, post0, post1 = gnubg.met(25)
    return MatchEquityTable.from_rows("gnubg (Kazaross-XG2)", pre, (post0, post1))


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
) -> dict[str, Any]:
    ci: dict[str, Any] = gnubg.cubeinfo(cube, owner, turn, length, score, int(crawford), 0)
    if not length and not jacoby:
        # gnubg.cubeinfo() always applies the Jacoby rule in money play
        ci["jacoby"] = 0
        ci["gammonprice"] = ((1.0, 1.0), (1.0, 1.0))
    return ci


@cache
def _evalcontext(gnubg: Any, plies: int) -> dict[str, Any]:
    # cubeful, plies, deterministic, pruning nets (as the analysis settings), no noise
    ec: dict[str, Any] = gnubg.evalcontext(1, plies, 1, 1 if plies else 0, 0.0)
    return ec


#: Entries of gnubg's position cache (set when it is cleared).
CACHE_SIZE = 1 << 19

_ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, a + 1))

#: How far the optimal equity must be above doubling's for a 0-ply cube decision to be
#: settled without gnubg's cube analysis (the figures pass through float32 and the MET).
_SETTLED = 1e-4


def _sides(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mover's side, opponent's side) of the player on roll."""
    return position.board[position.turn], position.board[position.opponent]


def _predecessor(position: Position) -> tuple[Position, tuple[int, int]] | None:
    """A made-up turn of the opponent that ends in ``position``: (position before, dice).

    With no checker on the bar, one of his checkers goes back three pips (a 21 brings it
    home over an open point); from the bar, a checker on an entry point goes back to the
    bar and enters with one die while the other die's entry point is closed.
    """
    mover = position.opponent
    side = list(position.board[mover])
    them = position.board[position.turn]

    def free(point: int) -> bool:  # no checker of the player on roll on the mover's point
        return them[25 - point] == 0

    if side[25] == 0:
        for p in range(1, 22):
            q = p + 3
            if side[p] and free(q) and (free(p + 1) or free(p + 2)):
                side[p] -= 1
                side[q] += 1
                made_up = _made_up(position, mover, side)
                return None if made_up is None else (made_up, (2, 1))
        return None
    closed = [d for d in range(1, 7) if them[d] >= 2]  # the mover enters on point 25 - d
    for entry in range(19, 25):
        die = 25 - entry
        other = next((d for d in closed if d != die), None)
        if side[entry] and other is not None:
            side[entry] -= 1
            side[25] += 1
            made_up = _made_up(position, mover, side)
            return None if made_up is None else (made_up, (die, other))
    return None


def _made_up(position: Position, mover: int, side: list[int]) -> Position | None:
    board = (tuple(side), position.board[1 - mover])
    if mover == 1:
        board = (board[1], board[0])
    try:
        return replace(position, board=board, turn=mover, dice=None)
    except InvalidPositionError:  # both players on the bar against closed boards
        return None


def _candidates(
    position: Position, legal: dict[Key, Play], scored: list[tuple[Key, float, int]]
) -> list[Candidate]:
    out = []
    for key, equity, depth in scored:
        play = legal.get(key)
        if play is None:
            raise RuntimeError(f"gnubg lists a play bgkit finds illegal in {position!r}")
        out.append(Candidate(play, key, equity, depth))
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


def _play(
    me: tuple[int, ...], opp: tuple[int, ...], steps: list[tuple[int, int]]
) -> tuple[Play, Key]:
    """The play of gnubg's steps (a hit where a step lands on a blot) and its result."""
    mine, theirs = list(me), list(opp)
    out = []
    for src, dst in steps:
        dst = max(dst, 0)
        hit = bool(dst) and theirs[25 - dst] == 1
        if hit:
            theirs[25 - dst] = 0
            theirs[25] += 1
        mine[src] -= 1
        mine[dst] += 1
        out.append(_STEPS[src][dst][hit])
    return Play(out), (tuple(mine), tuple(theirs))


#: Every step, made once: ``_STEPS[src][dst][hit]``.
_STEPS = [[(Step(s, d, False), Step(s, d, True)) for d in range(26)] for s in range(26)]


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
    board = (opp, me) if position.turn == 1 else (me, opp)
    return replace(position, board=board, turn=position.opponent, dice=None)


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
    found = {label.lower(): float(value) for label, value in _CUBE.findall(text)}
    if not found:
        # the player on roll cannot double: only the no-double equity exists
        cube = CubeDecision(values[6], values[6], 1.0, available=False)
    else:
        nd = next((v for k, v in found.items() if k.startswith("no ")), None)
        dt = next((v for k, v in found.items() if k.endswith(("take", "beaver"))), None)
        dp = next((v for k, v in found.items() if k.endswith("pass")), None)
        if nd is None or dt is None or dp is None:
            raise RuntimeError(f"unexpected cube analysis from gnubg's eval:\n{text}")
        cube = CubeDecision(nd, dt, dp, available=True)
    return Evaluation(probs, values[5], cube.optimal, plies), cube
