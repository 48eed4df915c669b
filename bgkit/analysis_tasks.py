"""The evaluation side of :func:`bgkit.analysis.analyze`: one task per decision, run in workers.

Internal to :mod:`bgkit.analysis`. A :class:`Task` is what to ask the evaluator about
one recorded roll or double (picklable, so that worker processes can run it); the
answer is a :class:`Figures`. A :class:`Runner` evaluates a list of tasks, in worker
processes or in this process:

* Workers are forked from this process (so they start with bgkit imported) and start
  GNU Backgammon at once, while this process checks and replays the record.
* This process evaluates the tasks itself when an evaluator object is given (it cannot
  be sent to other processes), or when it cannot fork safely: it runs a gnubg session
  already (gnubg's worker threads do not survive a fork: a forked gnubg would wait for
  them forever), or (Python 3.12+) it runs other threads.

Within a task the 0-ply luck is evaluated first: gnubg's position cache answers for a
position with whatever depth it last searched it at, so deeper searches first would
leave their figures for the luck to find (gnubg's own analysis shows this at 2-ply).
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bgkit.evaluator import CachedEvaluator, CubeDecision, Evaluator
from bgkit.metrics import effective_pip_count, luck_normal, luck_opening
from bgkit.position import Position

if TYPE_CHECKING:
    from bgkit.movegen import Key

__all__ = ["MIN_ACTIONS_PER_JOB", "Figures", "Runner", "Task", "evaluate_task"]

#: A record with fewer actions than this per process is analysed in fewer processes.
MIN_ACTIONS_PER_JOB = 24


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
    epc: tuple[float | None, float | None] = (None, None)
    """Effective pip counts of the player on roll and of the opponent."""


class AnalysisTaskError(RuntimeError):
    """The evaluator's answer does not fit the record (a bug, not a bad record)."""


def roll_values(ev: Evaluator, pos: Position) -> dict[tuple[int, int], float]:
    """The roller's equity with each roll played best (0-ply, as gnubg's luck analysis).

    A roll that cannot be played leaves the opponent on roll in the same position.
    """
    values: dict[tuple[int, int], float] = {}
    stay: float | None = None
    for roll, equity in ev.best_equities(pos, 0).items():
        if equity is None:
            if stay is None:
                stay = -ev.evaluate(replace(pos, turn=pos.opponent, dice=None), 0).cubeful
            equity = stay
        values[roll] = equity
    return values


def evaluate_task(ev: Evaluator, task: Task) -> Figures:
    """Luck (0-ply), cube decision and checker play (``task.plies``) of one action."""
    pos = task.position
    luck = mean = None
    if task.dice is not None:
        mine = roll_values(ev, pos)
        if task.opening:
            theirs = roll_values(ev, replace(pos, turn=pos.opponent))
            luck, mean = luck_opening(mine, theirs, task.dice)
        else:
            luck, mean = luck_normal(mine, task.dice)
    cube = ev.cube_decision(pos, task.plies) if task.cube else None
    epc = (
        effective_pip_count(pos.board[pos.turn]),
        effective_pip_count(pos.board[pos.opponent]),
    )
    if task.dice is None or task.played is None:
        return Figures(cube, luck, mean, epc=epc)
    plays = ev.plays(pos, task.dice, task.plies, keep=task.played)
    if not plays:
        return Figures(cube, luck, mean, 0, epc=epc)
    at = next((i for i, c in enumerate(plays) if c.key == task.played), None)
    if at is None:
        raise AnalysisTaskError(f"the evaluator does not list the play made in {pos!r}")
    best = plays[0]
    return Figures(
        cube, luck, mean, len(plays), str(best.play), best.equity, plays[at].equity, at + 1, epc
    )


def clear_cache(evaluator: Evaluator) -> None:
    """Clear the evaluator's own cache, when it has one (``GnubgEvaluator.clear_cache``)."""
    inner = evaluator.inner if isinstance(evaluator, CachedEvaluator) else evaluator
    clear = getattr(inner, "clear_cache", None)
    if callable(clear):
        clear()


# ---------------------------------------------------------------------- workers

_worker_evaluator: CachedEvaluator | None = None


def _worker_start() -> None:
    """Start GNU Backgammon in a new worker process."""
    global _worker_evaluator
    from bgkit.gnubg_evaluator import GnubgEvaluator, gnubg_module

    gnubg_module()  # a fresh gnubg: its cache is empty
    _worker_evaluator = CachedEvaluator(GnubgEvaluator())


def _worker_run(tasks: Sequence[Task]) -> list[Figures]:
    if _worker_evaluator is None:  # pragma: no cover (the pool's initializer ran)
        _worker_start()
    assert _worker_evaluator is not None
    return [evaluate_task(_worker_evaluator, task) for task in tasks]


def can_fork() -> bool:
    """Whether worker processes can be forked from this process (see the module docstring)."""
    from bgkit.gnubg_evaluator import gnubg_module

    return (
        "fork" in multiprocessing.get_all_start_methods()
        and gnubg_module.cache_info().currsize == 0
        and (sys.version_info < (3, 12) or threading.active_count() == 1)
    )


class Runner:
    """Evaluates tasks in ``jobs`` forked worker processes, or in this process (``jobs=0``).

    The workers are forked when the runner is made, so that they start gnubg while this
    process prepares the tasks; :meth:`submit` hands them the tasks, :meth:`results`
    collects the figures in task order.
    """

    def __init__(self, jobs: int, evaluator: Evaluator | None = None) -> None:
        self.jobs = jobs
        self.evaluator = evaluator
        self._tasks: list[Task] = []
        self._futures: dict[Future[list[Figures]], list[int]] = {}
        self._pool: ProcessPoolExecutor | None = None
        if jobs:
            self._pool = ProcessPoolExecutor(
                max_workers=jobs,
                mp_context=multiprocessing.get_context("fork"),
                initializer=_worker_start,
            )
            for _ in range(jobs):  # one process is forked per task while none is idle
                self._pool.submit(int)

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)

    def submit(self, tasks: list[Task]) -> None:
        """Start evaluating ``tasks`` (in the workers: interleaved chunks)."""
        self._tasks = tasks
        if self._pool is None:
            return
        size = max(1, min(16, len(tasks) // (self.jobs * 4)))
        for start in range(0, len(tasks), size):
            chunk = list(range(start, min(start + size, len(tasks))))
            future = self._pool.submit(_worker_run, [tasks[i] for i in chunk])
            self._futures[future] = chunk

    def results(self, tick: Callable[[int], object] = lambda n: None) -> list[Figures]:
        """The figures of every submitted task, in order; ``tick(n)`` after each ``n`` done."""
        if self._pool is None:
            return self._here(tick)
        found: list[Figures | None] = [None] * len(self._tasks)
        for future in as_completed(self._futures):
            chunk = self._futures[future]
            for i, figures in zip(chunk, future.result(), strict=True):
                found[i] = figures
            tick(len(chunk))
        return [f if f is not None else Figures() for f in found]

    def _here(self, tick: Callable[[int], object]) -> list[Figures]:
        evaluator = self.evaluator
        if evaluator is None:
            from bgkit.gnubg_evaluator import GnubgEvaluator

            evaluator = GnubgEvaluator()
        ev = evaluator if isinstance(evaluator, CachedEvaluator) else CachedEvaluator(evaluator)
        clear_cache(ev)  # what this process searched before must not answer now
        out = []
        for task in self._tasks:
            out.append(evaluate_task(ev, task))
            tick(1)
        return out


def plan_jobs(jobs: int | None, n_actions: int, evaluator: Evaluator | None) -> int:
    """Worker processes for a record of ``n_actions`` (0: evaluate in this process)."""
    if evaluator is not None or not can_fork():
        return 0
    wanted = jobs if jobs is not None else (os.cpu_count() or 1)
    return max(1, min(wanted, n_actions // MIN_ACTIONS_PER_JOB))
