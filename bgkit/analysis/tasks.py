"""The evaluation side of :func:`bgkit.analyze`: one task per decision, run in workers.

Internal to :mod:`bgkit.analysis`. A :class:`Task` is what to ask the evaluator about
one recorded roll or double (picklable, so that worker processes can run it); the
answer is a :class:`Figures`. A :class:`Runner` evaluates a list of tasks, in worker
processes or in this process:

* Workers are forked from this process once the record is replayed and the tasks are
  made: they start with bgkit, GNU Backgammon's module and the tasks in memory, and are
  handed chunks of task numbers. ``bgkit analyze`` at 0-ply forks them before it reads
  the record (:func:`early_workers`), and their first chunk brings the tasks.
* This process evaluates the tasks itself when an evaluator object is given (it cannot
  be sent to other processes), or when it cannot fork safely: it runs a gnubg session
  already (gnubg's worker threads do not survive a fork: a forked gnubg would wait for
  them forever), it is a daemonic process (a Dask worker's, which may have no children),
  or (Python 3.12+) it runs other threads.

gnubg's position cache answers for a position with whatever depth it last searched it
at, so deeper figures depend on what was searched before. A deeper analysis therefore
asks what gnubg's ``analyse match`` asks, in its order: game by game, each action's cube
decision, luck and plays (:func:`evaluate_task`), each game from empty caches. Its
candidate lists are then gnubg's own.

For a match gnubg can stand for (:func:`~bgkit.analysis.gnubg_match.gnubg_may_analyse`:
the :class:`Runner`'s ``record``), gnubg itself analyses each piece, action by action,
with its ``analyse move`` (:mod:`bgkit.analysis.gnubg_moves`): its own code, in its own
order, at its own cost, where bgkit's searches needed more calls and, for a dance's luck,
a forked copy of the process, and still left two rolls in a thousand off gnubg's luck.
bgkit's searches stay for what gnubg reads otherwise (a money session with a beaver, a
position set up, a roll without its play).

What a deeper search leaves in gnubg's cache is met by the next actions of its game, as
far ahead as it searched (the luck of a roll reads positions the 2-ply searches of the
two plays before it went through), so a game can be cut into pieces that different
workers search at the same time (:func:`pieces`): a piece starts from empty caches with
the actions before it, as many as the search is deep, searched again for what they
leave in the cache and their figures dropped. Measured on two 2-ply self-play matches
(531 actions, cut in 15 places), one process's figures against the pieces': with no
actions before a piece 21 actions differed, by up to 0.013 EMG (a luck); with one 5,
with two 3, with three 1, and those by 2e-7 EMG at most (a float's last bits: what
gnubg's net evaluated further back, kept in its cache or figured again; cut at other
places, a candidate's equity by 1e-6, the last of the six decimals gnubg writes). With
one, a money session's luck cut every 12 actions was 2e-4 off gnubg's on a roll; with
two, every roll is gnubg's.

The pieces are planned from a rough cost per action (:func:`cost`), which is off by 3x
from game to game, so a worker may run out of pieces while another has much left: it
then takes the second half of that rest, which the other stops before (the pieces'
standing is in memory both share: :class:`_Shares`). Where such a cut falls depends on
when the workers get there, and so, in their last bits, do the figures after it, as
the share of each worker already makes them vary at 0-ply.
"""

from __future__ import annotations

import copyreg
import gc
import heapq
import io
import itertools
import mmap
import pickle
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from bgkit.analysis.evaluator import (
    CachedEvaluator,
    Candidate,
    Chances,
    CubeDecision,
    Evaluator,
    mirror,
)
from bgkit.analysis.metrics import luck_normal, luck_opening
from bgkit.errors import EngineCrashError
from bgkit.formats.annotations import CandidatePlay, Probabilities
from bgkit.play import Play, Step
from bgkit.position import Position
from bgkit.workers import ForkedPool, WorkerDied, in_worker, may_fork, usable_cores

if TYPE_CHECKING:
    from bgkit.analysis.gnubg_moves import Record
    from bgkit.movegen import Key

__all__ = [
    "MIN_ACTIONS_PER_JOB",
    "MIN_DEEP_ACTIONS_PER_JOB",
    "Figures",
    "Runner",
    "Task",
    "chunks",
    "evaluate_task",
    "pieces",
]

#: A record with fewer actions than this per process is analysed in fewer processes
#: (at 0-ply; a deeper search costs more per action: :data:`MIN_DEEP_ACTIONS_PER_JOB`).
MIN_ACTIONS_PER_JOB = 24
MIN_DEEP_ACTIONS_PER_JOB = 4

#: Worker processes beyond the usable cores (two or more) that a deeper analysis of a
#: match of several games forks when not told how many. Its searches are gnubg's
#: commands, and gnubg looks for a command's answer every 10 ms
#: (:mod:`bgkit.analysis.gnubg_process`): a 2-ply analysis in one process spent 11.6 s
#: of wall in its commands for 10.5 CPU s, and its two workers on two cores were busy
#: 87-90% of their time; with a third, the cores 92%. Measured on 2 cores at 2-ply,
#: paired runs (wall, the median of the ratios): 0.95x on a 5-point match of two games
#: (5 pairs), 0.94x on an 11-point match of six games, 0.95x on a 7-point match of three
#: (3 pairs each); the same figures. A match of one game gained nothing (1.01x, 5 pairs)
#: for 11% more CPU: its pieces are all cut inside the game, and each such cut searches
#: the actions before it again (:func:`pieces`). On one core two workers gained nothing
#: (12.2 s either way); at 0-ply the searches are calls into gnubg's module, which do
#: not wait, and a third worker gained nothing either.
DEEP_EXTRA_JOBS = 1

#: Fewer bytes an action than any record takes (the fewest among 311 real and bundled
#: records, every reader's: 14.2, a gnubg SGF without analysis; ``.mat`` 24.3):
#: :func:`early_workers` forks no more workers than a file of its size could keep busy.
MIN_BYTES_PER_ACTION = 12

#: The fewest actions of a piece of a game (:func:`pieces`).
MIN_PIECE = 8

#: The fewest actions on each side of a cut made in the rest of a piece while it runs
#: (:meth:`Runner._cut_running`): the new piece searches its depth's number of actions
#: again before its own, and the rest's cost may be a third of its estimate or three
#: times it (:func:`cost`).
MIN_CUT = 3

#: gnubg's position cache in each of several workers at 0-ply (its default is 2**19
#: positions, 29 MB), and in a season's or a Dask worker, which analyses match after
#: match: what a worker asks again it asks within a few decisions, and a 4 MB cache
#: answers it faster (a season of 40 matches 4-7% less CPU, its figures within 2e-6 of
#: the default's). One process for one match keeps the default, so that its figures
#: are those of one gnubg session bit for bit (several workers' figures already vary
#: in their last bits with the share of each).
WORKER_CACHE = 1 << 16


@dataclass(frozen=True, slots=True)
class Task:
    """What to ask the evaluator about one recorded action."""

    position: Position
    """Before the roll (the roller on turn) or before the double (the doubler on turn)."""
    dice: tuple[int, int] | None
    """The roll, ``None`` for a double."""
    played: Key | None
    """The result of the play made (``None``: the roll was not played)."""
    cube: bool
    """Analyse the cube decision at ``position``."""
    opening: bool
    """The roll's luck follows the opening-roll rule."""
    plies: int
    candidates: int = 5
    """How many of the best plays to keep with their chances (and the play made)."""
    first: bool = False
    """The first task of its game (a deeper search starts from empty caches there)."""


@dataclass(frozen=True, slots=True)
class Figures:
    """The evaluator's answers for one task."""

    cube: CubeDecision | None = None
    luck: float | None = None
    luck_mean: float | None = None
    legal: int | None = None
    """Legal plays of the roll (``None``: the play was not analysed)."""
    best_play: str | None = None
    best: float | None = None
    played: float | None = None
    rank: int | None = None
    candidates: tuple[CandidatePlay, ...] = ()
    """The best plays (``Task.candidates`` of them), then the play made if it is not
    among them: with their equities and the mover's chances after them."""
    cube_chances: Chances | None = None
    """The roller's (doubler's) chances before the roll, with a cube decision."""


def _by_fields(cls: type) -> Callable[[Any], tuple[type, tuple[Any, ...]]]:
    """How a worker sends a frozen dataclass of its figures: its fields' values, which
    ``cls(*values)`` takes back. (Python's own pickling of a frozen dataclass with slots
    looks up the class's fields again for every object: half the time it took to send
    the 865 figures of a 25-point match, 11,000 objects with their plays.)"""
    names = tuple(f.name for f in fields(cls))
    if not all(f.init for f in fields(cls)):  # pragma: no cover (cls(*values) would fail)
        raise TypeError(f"{cls.__name__} has a field its constructor does not take")

    def reduce(obj: Any) -> tuple[type, tuple[Any, ...]]:
        return cls, tuple([getattr(obj, name) for name in names])

    return reduce


#: How the workers send their figures (their pickler's only: what users pickle of these
#: classes is unchanged).
_SENT_BY_FIELDS = copyreg.dispatch_table | {
    cls: _by_fields(cls)
    for cls in (Figures, CubeDecision, CandidatePlay, Probabilities, Play, Step)
}


def _dumps(obj: object) -> bytes:
    """``obj`` pickled as a worker sends it (:data:`_SENT_BY_FIELDS`)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _SENT_BY_FIELDS
    pickler.dump(obj)
    return out.getvalue()


class AnalysisTaskError(RuntimeError):
    """The evaluator's answer does not fit the record (a bug, not a bad record)."""


def roll_values(
    ev: Evaluator, pos: Position, *, deeper: bool = False
) -> dict[tuple[int, int], float]:
    """The roller's equity with each roll played best (0-ply, as gnubg's luck analysis).

    A roll that cannot be played leaves the opponent on roll in the same position.
    ``deeper``: searches deeper than 0-ply came first (gnubg's cache may hold their
    figures, which its luck analysis reads: the evaluator's ``dance_equity``, if it has
    one, reads them for a dance).
    """
    values: dict[tuple[int, int], float] = {}
    best = ev.best_equities(pos, plies=0)
    stay: float | None = None
    if deeper and None in best.values():
        inner = getattr(ev, "inner", ev)
        dance_equity = getattr(inner, "dance_equity", None)
        if dance_equity is not None:
            stay = dance_equity(pos, best)
    for roll, equity in best.items():
        if equity is None:
            if stay is None:
                stay = -ev.evaluate(replace(pos, turn=pos.opponent, dice=None), plies=0).cubeful
            equity = stay
        values[roll] = equity
    return values


def roll_luck(ev: Evaluator, task: Task, *, deeper: bool = False) -> tuple[float, float]:
    """The luck of the task's roll and the roller's equity before it (0-ply: the mean
    over the rolls, an opening's over the openings of both sides); ``deeper`` as for
    :func:`roll_values`."""
    assert task.dice is not None
    pos = task.position
    mine = roll_values(ev, pos, deeper=deeper)
    if task.opening:
        theirs = roll_values(ev, replace(pos, turn=pos.opponent), deeper=deeper)
        return luck_opening(mine, theirs, task.dice)
    return luck_normal(mine, task.dice)


def evaluate_task(ev: Evaluator, task: Task) -> Figures:
    """Cube decision, luck (0-ply) and checker play (``task.plies``) of one action.

    In the order of gnubg's analysis of a move: deeper searches leave figures in its
    cache that later questions get, so the order changes figures. (At 0-ply it does not;
    there the luck comes first, its plays then answer the cube decision.)
    """
    if task.plies and task.first:
        _forget(ev)
    pos = task.position
    cube = chances = None
    if task.cube and task.plies:
        cube = ev.cube_decision(pos, plies=task.plies)
        chances = ev.chances(pos, plies=task.plies)
    luck = mean = None
    if task.dice is not None:
        luck, mean = roll_luck(ev, task, deeper=task.plies > 0)
    if task.cube and not task.plies:
        cube = ev.cube_decision(pos, plies=0)
        chances = ev.chances(pos, plies=0)
    if task.dice is None or task.played is None:
        return Figures(cube, luck, mean, cube_chances=chances)
    plays = ev.plays(pos, task.dice, plies=task.plies, keep=task.played)
    if not plays:
        return Figures(cube, luck, mean, 0, cube_chances=chances)
    at = next((i for i, c in enumerate(plays) if c.key == task.played), None)
    if at is None:
        raise AnalysisTaskError(f"the evaluator does not list the play made in {pos!r}")
    best = plays[0]
    kept = plays[: task.candidates] + ([plays[at]] if at >= task.candidates else [])
    return Figures(
        cube,
        luck,
        mean,
        len(plays),
        str(best.play),
        best.equity,
        plays[at].equity,
        at + 1,
        tuple(_candidate(ev, pos, task.dice, c) for c in kept),
        chances,
    )


def _candidate(ev: Evaluator, pos: Position, dice: tuple[int, int], c: Candidate) -> CandidatePlay:
    """A play with the mover's chances after it: from the search when it gave them, else
    the opponent's evaluation after the play, seen from the other side."""
    if c.probabilities is not None:
        mine = Probabilities(*c.probabilities)
    else:
        after = pos.with_dice(*dice).apply(c.play, check=False)  # (a legal play, listed)
        mine = Probabilities(*mirror(ev.chances(after, plies=c.plies)))
    return CandidatePlay(c.play, c.equity, mine, level=f"Cubeful {c.plies}-ply")


def _forget(evaluator: Evaluator) -> None:
    """Start a game's deeper tasks from empty caches (bgkit's and gnubg's).

    gnubg's cache answers for a position with whatever depth it last searched it at, so
    a game's figures would depend on the games the same process ran before it, and so
    on how the games were shared out: with empty caches they depend on the game alone,
    the same with any number of processes.
    """
    if isinstance(evaluator, CachedEvaluator):
        evaluator.clear()
    clear_cache(evaluator)


def clear_cache(evaluator: Evaluator, entries: int | None = None) -> None:
    """Clear the evaluator's own cache, when it has one (``GnubgEvaluator.clear_cache``),
    with room for ``entries`` positions (``None``: its default)."""
    inner = evaluator.inner if isinstance(evaluator, CachedEvaluator) else evaluator
    clear = getattr(inner, "clear_cache", None)
    if callable(clear):
        clear() if entries is None else clear(entries)


# ---------------------------------------------------------------------- workers

_worker_evaluator: CachedEvaluator | None = None
_worker_tasks: Sequence[Task] = ()
_worker_record: Record | None = None
"""A deeper analysis of a match gnubg analyses itself (:mod:`bgkit.analysis.gnubg_moves`)."""


def _worker_start(
    tasks: Sequence[Task],
    cache: int | None,
    met: str | None,
    *,
    early: bool = False,
    record: Record | None = None,
) -> None:
    """Start GNU Backgammon in a new worker process (forked: :class:`~bgkit.workers.Forked`),
    which evaluates some of ``tasks`` (inherited: they are not copied, nor pickled), with
    a cache of ``cache`` positions (``None``: gnubg's default) and the match equity table
    ``met`` (``None``: gnubg's). A worker forked ``early`` (:func:`early_workers`) starts
    gnubg's thread pool now and gets its tasks with its first request (:func:`_load`).

    The process lives for one analysis and makes next to no cyclic garbage: the
    collector is off, and what the process inherited is not scanned again.
    """
    global _worker_evaluator, _worker_tasks, _worker_record
    _worker_tasks, _worker_record = tasks, record
    gc.freeze()
    gc.disable()
    from bgkit.analysis.gnubg import GnubgEvaluator, gnubg_module
    from bgkit.analysis.gnubg_process import _session

    gnubg_module()  # a fresh gnubg: its cache is empty
    evaluator = GnubgEvaluator(met=met)
    if cache is not None:
        evaluator.clear_cache(cache)  # (starts gnubg's thread pool)
    elif early:
        _session()  # gnubg's thread pool, while the caller reads its record
    _worker_evaluator = CachedEvaluator(evaluator)


def _load(tasks: bytes, cache: int | None) -> None:
    """An early worker's tasks (pickled), and the cache its analysis wants (``None``:
    gnubg's default)."""
    global _worker_tasks
    assert _worker_evaluator is not None  # (the worker's setup ran)
    _worker_tasks = pickle.loads(tasks)
    from bgkit.analysis.gnubg import CACHE_SIZE, GnubgEvaluator
    from bgkit.analysis.gnubg_process import _Table

    entries = CACHE_SIZE if cache is None else cache
    if _Table.entries != entries:  # (the size the worker's setup gave gnubg's cache)
        evaluator = _worker_evaluator.inner
        assert isinstance(evaluator, GnubgEvaluator)
        evaluator.clear_cache(entries)


def _serve(
    request: tuple[int, int, int | None, int | None, tuple[bytes, int | None] | None],
) -> list[Figures]:
    """A worker's answer to a request: :func:`_worker_run`'s (looked up when called),
    after :func:`_load` when the request brings the tasks."""
    start, stop, lead, slot, load = request
    if load is not None:
        _load(*load)
    return _worker_run(start, stop, lead, slot)


def _worker_run(
    start: int, stop: int, lead: int | None = None, slot: int | None = None
) -> list[Figures]:
    """Evaluate tasks ``start`` to ``stop`` (in a worker); a deeper piece of a game
    (:func:`pieces`) from empty caches after tasks ``lead`` to ``start``, whose figures
    are dropped; ``slot``: the piece's place in :data:`_shares`, where it may be told to
    stop sooner."""
    assert _worker_evaluator is not None  # (the pool's initializer ran)
    first = start if lead is None else lead
    if _worker_record is not None and lead is not None:
        from bgkit.analysis.gnubg_moves import analyse_piece

        shares = _shares if slot is not None else None
        found = analyse_piece(
            _worker_evaluator, _worker_record, _worker_tasks, start, stop, first, slot, shares
        )
        if found is not None:
            return found
    return run_piece(_worker_evaluator, _worker_tasks, start, stop, first, slot)


def run_piece(
    ev: Evaluator,
    tasks: Sequence[Task],
    start: int,
    stop: int,
    lead: int,
    slot: int | None = None,
) -> list[Figures]:
    """The figures of ``tasks[start:stop]``, searched after ``tasks[lead:start]`` (their
    figures dropped). A deeper search starts from empty caches at ``lead``, as at its
    game's first action: what the tasks before ``lead`` left in gnubg's cache must not
    answer there, in a worker that searched another piece before.

    With ``slot`` (a worker's piece: :class:`_Shares`), each task says it is being
    searched, and the piece ends before the task its stop now names: the figures are
    then those of ``tasks[start:start + len(result)]``."""
    out = []
    shares = _shares if slot is not None else None
    for i in range(lead, stop):
        if shares is not None and slot is not None:
            if i >= start and i >= shares.stop(slot):  # (the rest went to another worker)
                break
            shares.begin(slot, i)
        task = tasks[i]
        if i == lead and task.plies and not task.first:
            task = replace(task, first=True)
        figures = evaluate_task(ev, task)
        if i >= start:
            out.append(figures)
    return out


class _Shares:
    """Where each piece of a deeper analysis stands, in memory the forked workers share
    with this process (an anonymous shared mapping, made before they fork): per piece
    slot, the task its worker is searching (-1 before it starts) and the task it must
    stop before, which this process lowers to hand the rest of the piece to a worker
    that has nothing left to do (:meth:`Runner.results`). Each is one aligned 32-bit
    word, written by one side and read by the other."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self._map = mmap.mmap(-1, 8 * slots)
        self._words = memoryview(self._map).cast("i")

    def open(self, slot: int, stop: int) -> None:
        """Make ``slot`` a piece's, not started, that stops before task ``stop``."""
        self._words[2 * slot], self._words[2 * slot + 1] = -1, stop

    def begin(self, slot: int, task: int) -> None:
        self._words[2 * slot] = task

    def at(self, slot: int) -> int:
        return int(self._words[2 * slot])

    def stop(self, slot: int) -> int:
        return int(self._words[2 * slot + 1])

    def cut(self, slot: int, stop: int) -> None:
        self._words[2 * slot + 1] = stop


#: The pieces' standing in a deeper analysis on several workers (set before they fork).
_shares: _Shares | None = None

#: Cuts a deeper analysis may make while it runs (each halves a piece's rest).
MAX_CUTS = 64

#: Seconds between looks for a piece to cut while a worker has nothing to do.
_IDLE_LOOK = 0.05


def can_fork() -> bool:
    """Whether worker processes can be forked from this process (see the module docstring)."""
    from bgkit.analysis.gnubg import gnubg_module

    started_by = sys.modules.get("multiprocessing")  # (imported in any process it started)
    return (
        may_fork()
        # (a daemonic process, a Dask worker's, may have no children)
        and not (started_by is not None and started_by.current_process().daemon)
        and gnubg_module.cache_info().currsize == 0
        and not _gnubg_threads()
    )


def _gnubg_threads() -> int:
    """gnubg's calculation threads running in this process, whoever started them (a
    caller's own ``set threads``): a forked child has none of them, and its first
    ``set threads`` then waits for them for ever."""
    gnubg = sys.modules.get("gnubg")
    if gnubg is None:
        return 0
    found = re.match(r"\s*(\d+)", str(gnubg.show("threads")))
    return int(found[1]) if found else 0


def chunks(n: int, jobs: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of the chunks ``n`` tasks are handed out in to ``jobs`` workers.

    Large chunks first (few hand-outs while this process still works), smaller ones
    towards the end (the workers finish together): each a third of what is left per
    worker, 6 tasks at least.

    >>> [stop - start for start, stop in chunks(100, 2)]
    [16, 14, 11, 9, 8, 7, 6, 6, 6, 6, 6, 5]
    """
    out = []
    start = 0
    while start < n:
        size = max(6, (n - start) // (3 * jobs))
        out.append((start, min(n, start + size)))
        start += size
    return out


def games(tasks: Sequence[Task]) -> list[tuple[int, int]]:
    """``(start, stop)`` of each game's tasks (a deeper analysis hands out whole games).

    >>> from bgkit.position import Position
    >>> task = Task(Position.initial(), None, None, True, False, 2)
    >>> games([replace(task, first=True), task, replace(task, first=True), task, task])
    [(0, 2), (2, 5)]
    """
    starts = [i for i, task in enumerate(tasks) if task.first or i == 0]
    return list(zip(starts, [*starts[1:], len(tasks)], strict=True))


def pieces(
    tasks: Sequence[Task], jobs: int, size: float | None = None
) -> list[tuple[int, int, int]]:
    """``(lead, start, stop)`` of the pieces a deeper analysis hands out to ``jobs``
    workers, the costliest first: tasks ``start`` to ``stop`` of a game, searched after
    tasks ``lead`` to ``start`` (the search depth's number of them, none at a game's
    start: see the module's docstring).

    Whole games, unless cutting one lets the workers finish sooner: while it does, by
    more than 2 % of the work (:func:`cost`; the pieces handed out costliest first to
    the worker free first), the costliest piece is cut in two of equal work. Simulated
    with each action's CPU time in one process on three 2-ply self-play matches, two
    workers: a one-game match takes 0.60 of one process's time so (two pieces, 3 % more
    work), 0.63-0.79 in 4 to 20 pieces (9-54 % more work); matches of three and five
    games 0.53 and 0.53 (whole games; one cut), 0.54-0.80 in pieces of 40 to 4 actions.
    ``size``: cut every game into pieces of about ``size`` tasks' work instead (tests).

    >>> from bgkit.position import Position
    >>> task = Task(Position.initial(), (3, 1), None, True, False, 2)
    >>> game = [replace(task, first=True)] + [task] * 39
    >>> pieces(game, 2)
    [(18, 20, 40), (0, 0, 20)]
    >>> pieces(game + game + game, 2)
    [(40, 40, 80), (80, 80, 120), (18, 20, 40), (0, 0, 20)]
    >>> pieces(game + game, 2)
    [(0, 0, 40), (40, 40, 80)]
    >>> pieces(game, 1)
    [(0, 0, 40)]
    """
    weights = [cost(task) for task in tasks]
    lead = tasks[0].plies if tasks else 0
    found = [(start, start, stop) for start, stop in games(tasks)]

    def work(piece: tuple[int, int, int]) -> float:
        return sum(weights[piece[0] : piece[2]])

    def halves(piece: tuple[int, int, int], parts: int = 2) -> list[tuple[int, int, int]]:
        first, start, stop = piece
        total = sum(weights[start:stop])
        bounds, done = [start], 0.0
        for i in range(start, stop - 1):
            done += weights[i]
            if done >= total * len(bounds) / parts * (1 - 1e-9) and len(bounds) < parts:
                bounds.append(i + 1)
        bounds.append(stop)
        return [(max(first, a - lead), a, b) for a, b in itertools.pairwise(bounds)]

    def finish(parts: list[tuple[int, int, int]]) -> float:
        free = [0.0] * jobs
        for piece in sorted(parts, key=lambda p: -work(p)):
            heapq.heappush(free, heapq.heappop(free) + work(piece))
        return max(free)

    if jobs > 1 and size is not None:
        mean = sum(weights) / len(weights)
        found = [
            part
            for piece in found
            for part in halves(piece, max(1, round(work(piece) / (size * mean))))
        ]
    elif jobs > 1:
        best = finish(found)
        while True:
            costliest = max(found, key=work)
            if costliest[2] - costliest[1] < 2 * MIN_PIECE:
                break
            cut = [p for p in found if p != costliest] + halves(costliest)
            if finish(cut) >= best * 0.98:
                break
            found, best = cut, finish(cut)
    return sorted(found, key=lambda piece: -work(piece))


def cost(task: Task) -> float:
    """A deeper task's work, roughly: measured at 2-ply it grows with the legal plays of
    the roll up to the 16 gnubg's move filter keeps (correlation 0.6 over a game's
    rolls; a bear-off with few plays costs a fiftieth of an opening's); a double alone
    is next to nothing (its cube decision is the one the roll before asked)."""
    if task.dice is None:
        return 0.1
    return 2.0 + min(16, len(task.position.with_dice(*task.dice).legal_results()))


class _Job:
    """Tasks handed to a worker (a chunk, or a piece of a deeper analysis) and, once its
    answer has come, whether it is done."""

    __slots__ = ("done", "lead", "slot", "start", "stop")

    def __init__(self, start: int, stop: int, lead: int, slot: int | None = None) -> None:
        self.start, self.stop, self.lead, self.slot = start, stop, lead, slot
        self.done = False


class Runner:
    """Evaluates tasks in ``jobs`` forked worker processes, or in this process (``jobs=0``).

    :meth:`submit` forks the workers (:class:`~bgkit.workers.Forked`) with the tasks in
    memory (GNU Backgammon's module is imported before, so they start with it loaded),
    or at 0-ply takes those :func:`early_workers` forked and sends them the tasks, and
    hands them out in chunks of task numbers, one at a time to each worker;
    :meth:`results` collects the figures in task order.
    """

    def __init__(
        self, jobs: int, evaluator: Evaluator | None = None, *, met: str | None = None
    ) -> None:
        self.jobs = jobs
        self.evaluator = evaluator
        self.met = met
        """The match equity table of the GNU Backgammon evaluators it starts."""
        self.record: Record | None = None
        """A match's record for gnubg's own analysis of each deeper piece
        (:mod:`bgkit.analysis.gnubg_moves`; set before :meth:`submit`)."""
        self._tasks: list[Task] = []
        self._pieces: list[_Job] = []
        """A deeper analysis's pieces, in :attr:`_shares`' slots."""
        self._shares: _Shares | None = None
        self._game_of: list[int] = []
        """The first task of each task's game."""
        self._pool = ForkedPool()
        if jobs:
            _preload()

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        global _shares
        if self._shares is not None and _shares is self._shares:
            _shares = None  # (its workers are done: a later analysis forks its own)
        # (after an error or an interrupt: not needed any more)
        self._pool.close(now=exc_type is not None)

    def submit(self, tasks: list[Task]) -> None:
        """Start evaluating ``tasks`` (in the workers: chunks handed out as they free up)."""
        global _shares
        self._tasks = tasks
        if not self.jobs or not tasks:
            return
        if tasks[0].plies:  # pieces of games, the longest first, cut again as they run
            parts = pieces(tasks, self.jobs)
            # (made before the workers fork, so that they share it)
            _shares = self._shares = _Shares(len(parts) + MAX_CUTS)
            self._game_of = [0] * len(tasks)
            for first, end in games(tasks):
                self._game_of[first:end] = [first] * (end - first)
            for lead, start, stop in parts:
                self._submit_piece(lead, start, stop)
        else:
            early = _take_early(self.jobs, self.met)
            load = None
            if early is not None:  # (the tasks go with each worker's first chunk)
                self._pool = early
                load = (pickle.dumps(tasks, pickle.HIGHEST_PROTOCOL), _cache(self.jobs, 0))
            for i, (start, stop) in enumerate(chunks(len(tasks), self.jobs)):
                self._submit(_Job(start, stop, start), load if i < self.jobs else None)
            if early is not None:
                return  # (its workers run already)
        record = self.record if tasks[0].plies else None
        setup = partial(
            _worker_start, tasks, _cache(self.jobs, tasks[0].plies), self.met, record=record
        )
        # (the first worker starts on its chunk as the next forks)
        self._pool.start(_serve, self.jobs, setup=setup, dumps=_dumps)

    def _submit_piece(self, lead: int, start: int, stop: int) -> _Job:
        """Hand tasks ``start`` to ``stop`` (after ``lead`` to ``start``) to a worker, in
        the next slot of :attr:`_shares`."""
        assert self._shares is not None
        slot = len(self._pieces)
        self._shares.open(slot, stop)
        job = _Job(start, stop, lead, slot)
        self._pieces.append(job)
        self._submit(job)
        return job

    def _submit(self, job: _Job, load: tuple[bytes, int | None] | None = None) -> None:
        """Hand ``job`` to the next worker that has none (with the tasks: ``load``)."""
        self._pool.submit(job, (job.start, job.stop, job.lead, job.slot, load))

    def _cut_running(self) -> _Job | None:
        """A worker has nothing left to do: hand it the second half of the costliest rest
        of a piece another worker is searching (by :func:`cost`), which that worker then
        stops before. ``None`` while a piece is still to start, or when no rest is worth
        the searches a new piece repeats (at least ``2 * MIN_CUT`` tasks left).

        Where a game is cut then depends on when the workers get there, and so, in their
        last bits, the figures of the actions after a cut (the module's docstring), as
        the share of each worker already makes them vary at 0-ply."""
        shares = self._shares
        if shares is None or len(self._pieces) >= shares.slots:
            return None
        running = []
        for job in self._pieces:
            if job.done:
                continue
            assert job.slot is not None
            at = shares.at(job.slot)
            if at < 0:
                return None  # (a piece not started yet: the free worker takes it)
            running.append((job.slot, max(at, job.start), shares.stop(job.slot)))
        plies = self._tasks[0].plies
        best: tuple[float, int, int, int] | None = None
        for slot, at, stop in running:
            first = at + 1  # (``at`` is being searched; a task searched twice counts once)
            if stop - first < 2 * MIN_CUT:
                continue
            weights = [cost(self._tasks[i]) for i in range(first, stop)]
            half, done, cut = sum(weights) / 2, 0.0, first
            for i, weight in enumerate(weights):
                if done >= half:
                    break
                done, cut = done + weight, first + i + 1
            cut = min(max(cut, first + MIN_CUT), stop - MIN_CUT)
            rest = sum(weights)
            if best is None or rest > best[0]:
                best = (rest, slot, cut, stop)
        if best is None:
            return None
        _, slot, cut, stop = best
        shares.cut(slot, cut)
        lead = max(self._game_of[cut], cut - plies)
        return self._submit_piece(lead, cut, stop)

    def results(self, tick: Callable[[int], object] = lambda n: None) -> list[Figures]:
        """The figures of every submitted task, in order; ``tick(n)`` after each ``n`` done.

        :raises EngineCrashError: when a worker died (a crash in GNU Backgammon's C code).
        """
        if not self.jobs:
            return self._here(tick)
        found: list[Figures | None] = [None] * len(self._tasks)
        pool = self._pool
        while pool.busy:
            # a worker with nothing to do in a deeper analysis: look again soon (a piece
            # handed out may not have started yet, and only a started one is cut)
            idle = self._shares is not None and bool(pool.idle)
            try:
                answers = pool.answers(_IDLE_LOOK if idle else None)
            except WorkerDied as err:
                raise EngineCrashError(
                    "cannot analyse: GNU Backgammon's process died (a crash in its C"
                    " code); nothing else was lost"
                ) from err
            for job, ok, searched in answers:
                job.done = True
                if not ok:
                    raise searched
                for i, figure in enumerate(searched, job.start):
                    if found[i] is None:  # (a task both sides of a cut searched: the first)
                        found[i] = figure
                tick(len(searched))
            while pool.idle and self._cut_running() is not None:
                pass  # (each cut is handed to a free worker as it is made)
        missing = [i for i, f in enumerate(found) if f is None]
        if missing:  # pragma: no cover (every cut hands on the rest of its piece)
            raise RuntimeError(f"tasks {missing[:5]} were not evaluated")
        return [f for f in found if f is not None]

    def _here(self, tick: Callable[[int], object]) -> list[Figures]:
        evaluator = self.evaluator
        if evaluator is None:
            from bgkit.analysis.gnubg import GnubgEvaluator

            evaluator = GnubgEvaluator(met=self.met)
        ev = evaluator if isinstance(evaluator, CachedEvaluator) else CachedEvaluator(evaluator)
        # what this process searched before must not answer now; a season's or a Dask
        # worker analyses match after match here, at 0-ply with a worker's small cache
        tasks = self._tasks
        many = bool(tasks) and not tasks[0].plies and self.evaluator is None and in_worker()
        clear_cache(ev, WORKER_CACHE if many else None)
        if self.record is not None and tasks and tasks[0].plies:
            from bgkit.analysis.gnubg_moves import analyse_piece

            found = analyse_piece(ev, self.record, tasks, 0, len(tasks), 0, None, None)
            if found is not None:
                tick(len(found))
                return found
        out = []
        collecting = gc.isenabled()
        gc.disable()  # (the evaluations make next to no cyclic garbage)
        try:
            for task in self._tasks:
                out.append(evaluate_task(ev, task))
                tick(1)
        finally:
            if collecting:
                gc.enable()
        return out


def _preload() -> None:
    """Import GNU Backgammon's module (its nets and databases) here, before forking: each
    worker then starts with it loaded. Importing starts no thread of gnubg's, so the
    workers can still be forked (its commands are what start them)."""
    try:
        import gnubg  # noqa: F401

        import bgkit.analysis.gnubg  # noqa: F401
    except ImportError:  # pragma: no cover (the workers report it)
        pass


#: Workers forked ahead of the next 0-ply analysis (:func:`early_workers`), with the
#: match equity table they were started with.
_early: tuple[ForkedPool, str | None] | None = None


@contextmanager
def early_workers(jobs: int | None, met: str | None, size: int | None = None) -> Iterator[None]:
    """Fork the workers of a 0-ply analysis before the caller reads and replays its
    record (``bgkit analyze``): each starts GNU Backgammon's thread pool meanwhile, which
    takes 0.3 ms in a process alone but up to 26 ms beside a busy one. The next
    :class:`Runner` at 0-ply with the table ``met`` takes them and sends each its tasks
    with its first chunk (the sample's 297: 50 kB, 1 + 2 ms to pickle and unpickle);
    the workers no analysis took stop when the block ends. ``jobs``: as
    :func:`plan_jobs`'s (the most the analysis will use); ``size``: the record's size in
    bytes, when it is known, so that a short record on a machine of many cores forks no
    more workers than :func:`plan_jobs` could give it (a record takes at least
    :data:`MIN_BYTES_PER_ACTION` bytes an action)."""
    global _early
    pool = None
    # (a file of ``size`` bytes holds at most ``size // MIN_BYTES_PER_ACTION`` actions)
    if size is None:
        wanted = _most_jobs(jobs)
    else:
        wanted = plan_jobs(jobs, size // MIN_BYTES_PER_ACTION, None)
    if _early is None and wanted:
        _preload()
        pool = ForkedPool()
        # (the cache the analysis most likely wants; :func:`_load` changes it if not)
        setup = partial(_worker_start, (), _cache(wanted, 0), met, early=True)
        pool.start(_serve, wanted, setup=setup, dumps=_dumps)
        _early = (pool, met)
    try:
        yield
    finally:
        if pool is not None:
            if _early is not None and _early[0] is pool:
                _early = None
            pool.close(now=True)  # (a no-op for a pool a Runner took: it closed it)


def _take_early(jobs: int, met: str | None) -> ForkedPool | None:
    """The workers :func:`early_workers` forked, ``jobs`` of them, when they were started
    with the table ``met`` (``None``: there are none, or they do not fit)."""
    global _early
    if _early is None:
        return None
    pool, started_with = _early
    _early = None
    if started_with != met or len(pool.idle) < jobs:
        pool.close(now=True)
        return None
    pool.keep(jobs)
    return pool


def plan_jobs(
    jobs: int | None,
    n_actions: int,
    evaluator: Evaluator | None,
    plies: int = 0,
    games: int = 1,
) -> int:
    """Worker processes for a record of ``n_actions`` in ``games`` games searched ``plies``
    deep (0: evaluate in this process): ``jobs`` (default: :func:`~bgkit.workers.usable_cores`,
    and :data:`DEEP_EXTRA_JOBS` more deeper than 0-ply for several games on several
    cores), fewer when each would get less than :data:`MIN_ACTIONS_PER_JOB` actions (at
    0-ply) or :data:`MIN_DEEP_ACTIONS_PER_JOB`.

    ``jobs=1`` in a process that is itself a worker (of a season's pool, of Dask) is
    this process: its GNU Backgammon stays loaded for the next match, where a process
    per match would start one each time (about a fifth of a 0-ply season's CPU). The
    caller's own process is kept free of gnubg's threads otherwise, so that a later
    analysis can still fork its workers.
    """
    wanted = _most_jobs(jobs, plies > 0 and games > 1) if evaluator is None else 0
    if not wanted:
        return 0
    per_job = MIN_DEEP_ACTIONS_PER_JOB if plies else MIN_ACTIONS_PER_JOB
    return max(1, min(wanted, n_actions // per_job))


def _most_jobs(jobs: int | None, extra: bool = False) -> int:
    """The most worker processes an analysis forks from this process, asked for ``jobs``
    (default: :func:`~bgkit.workers.usable_cores`, and :data:`DEEP_EXTRA_JOBS` more with
    ``extra`` on several cores); 0 when it runs here (:func:`plan_jobs`)."""
    if not can_fork() or (jobs == 1 and in_worker()):
        return 0
    if jobs is not None:
        return jobs
    cores = usable_cores()
    return cores + (DEEP_EXTRA_JOBS if extra and cores > 1 else 0)


def _cache(jobs: int, plies: int) -> int | None:
    """The position cache of each of ``jobs`` workers searching ``plies`` deep
    (:data:`WORKER_CACHE`; ``None``: gnubg's default)."""
    return WORKER_CACHE if jobs > 1 and not plies else None
