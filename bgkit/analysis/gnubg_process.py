"""GNU Backgammon's process: its module, its command channel, its one state (used by
:mod:`bgkit.analysis.gnubg`).

gnubg is one global state per process: one position cache, one match equity table, one
set of command settings, one pool of calculation threads. This module holds what bgkit
knows of that state and the ways to reach gnubg, apart from what an evaluator asks it:

* :func:`gnubg_module`: the ``gnubg`` module, imported and set up once per process;
* :class:`_Capture` and :class:`_Session` (:func:`_session`): gnubg's commands and what
  they print. gnubg runs a command's evaluation in its thread pool and looks for the
  answer every 10 ms (``multithread.c``, ``WaitForAllTasks``): on an idle machine an
  ``eval`` takes 10 ms, however short the work, so the session runs short commands
  with gnubg's threads on the caller's CPU. The pool is started on the first command
  (``set threads 2``; the Python API needs none, and with none a command hangs). The
  session gives gnubg the settings its commands depend on (plies, move filters, the
  Jacoby rule and beavers), and forgets them when an analysis starts;
* :class:`_Searched`, :class:`_Table`, :data:`_lock`: whether gnubg's cache may hold
  figures of deeper searches, the table it has loaded and its cache's size, and the
  lock around every call into gnubg;
* :func:`_in_child`: a question asked in a forked copy of the process, whose searches
  leave nothing in this process's gnubg cache.
"""

from __future__ import annotations

import atexit
import math
import os
import select
import signal
import struct
import sys
import tempfile
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from types import ModuleType
from typing import IO, Any, Self

from bgkit.analysis.met import DEFAULT_MET
from bgkit.position import Position
from bgkit.workers import _libc, current_cpu, worker_cpu

__all__ = ["BEAVERS", "CACHE_SIZE", "CHILD_TIMEOUT", "gnubg_module"]

_SETUP = (
    "set display off",
    "set sound enable off",
    "set output digits 6",
    "set output mwc off",
    "set evaluation chequerplay evaluation prune on",
    "set evaluation cubedecision evaluation prune on",
    "set evaluation chequerplay evaluation cubeful on",
    "set evaluation cubedecision evaluation cubeful on",
)
#: Entries of gnubg's position cache (its default; set when it is cleared).
CACHE_SIZE = 1 << 19


class _Searched:
    """Whether gnubg's cache may hold figures of searches deeper than 0-ply (since it was
    last cleared): a 0-ply question may then get such a figure, and what the evaluator
    kept from an earlier asking is not what gnubg would answer now."""

    deeper = False


def _searching(plies: int) -> None:
    if plies:
        _Searched.deeper = True


class _Table:
    """The match equity table gnubg has in memory (one per process), and the size of its
    position cache."""

    loaded = DEFAULT_MET
    entries = CACHE_SIZE


_lock = threading.Lock()


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


def _fflush() -> None:
    """Flush every C stdio stream (gnubg's output)."""
    libc = _libc()
    if libc is not None:
        libc.fflush(None)


class _Capture:
    """Run gnubg commands with file descriptor 1 sent to a file, and read what they print.

    gnubg writes with C stdio to file descriptor 1; the buffers are flushed with
    ``fflush(NULL)`` before the descriptor is put back. What it writes to file descriptor
    2 (its complaints, such as "Please use 'analyse move' on the double decision" when
    its import made other actions of a record than bgkit's) goes to ``os.devnull``:
    bgkit says itself what it could not do, and the user's terminal gets no line of
    gnubg's in the middle of it.
    """

    def __enter__(self) -> Self:
        self.file: IO[bytes] = tempfile.TemporaryFile()
        self.errors: IO[bytes] = open(os.devnull, "wb")
        return self

    def __exit__(self, *exc: object) -> None:
        self.file.close()
        self.errors.close()

    def run(self, gnubg: Any, command: str) -> str:
        sys.stdout.flush()
        sys.stderr.flush()
        _fflush()
        self.file.seek(0)
        self.file.truncate()
        saved = os.dup(1), os.dup(2)
        os.dup2(self.file.fileno(), 1)
        os.dup2(self.errors.fileno(), 2)
        try:
            gnubg.command(command)
            _fflush()
        finally:
            for fd, kept in enumerate(saved, 1):
                os.dup2(kept, fd)
                os.close(kept)
        self.file.seek(0)
        return self.file.read().decode("utf-8", "replace")


class _Session(_Capture):
    """The process's command channel to gnubg, and the search settings of its commands.

    **Short commands on one CPU.** gnubg hands a command's evaluation to a thread of its
    pool and checks for the answer at once, then every 10 ms. On an idle machine the
    check comes first (the pool thread wakes on another CPU), so an ``eval`` that takes
    0.2 ms answers after 10 ms. :meth:`one_cpu` puts the calling thread (for the
    command) and gnubg's threads on one CPU (:func:`_own_cpu`): the woken thread then
    runs first, and the answer is there when gnubg first looks (mostly). So do the
    cube decisions of 1- and 2-ply searches (1 and 4-14 ms), which otherwise answer at
    a later check (a 2-ply analysis in one process: its 37 cube decisions waited 0.29 s
    for 0.15 s of search, and 0.05 s on one CPU). Longer searches let gnubg's threads go
    (:meth:`search`). Linux only; elsewhere, or when gnubg's threads are not the ones the
    session started, commands run as they are.

    In a worker that CPU is the worker's own, not the one it happens to run on: two
    workers forked at once often start on the same CPU, and gnubg's threads, kept where
    they were pinned, then shared it for whole pieces of an analysis while the other
    CPU idled.
    """

    settings: tuple[int, object] | None = None
    beavers: int = -1
    """gnubg's ``set beavers`` (-1: not known). Never assumed to be gnubg's default: code
    sharing the process (or the parent of a forked worker) may have set it."""
    jacoby: bool | None = None
    """gnubg's ``set jacoby`` (``None``: not known, as :attr:`beavers`)."""
    threads: tuple[int, ...] = ()
    """Thread IDs of gnubg's pool (the threads ``set threads`` started)."""
    pinned: int | None = None
    """The CPU gnubg's threads are kept on since the last short command (``None``: free)."""

    def start_threads(self, gnubg: Any, count: int = 2) -> None:
        """Start gnubg's pool of ``count`` threads (``set threads``, which ends the threads
        it had) from the caller's CPU: the command then answers at once (else after
        20 ms)."""
        if count == len(self.threads):
            return
        self.threads, self.pinned = (), None
        before = _thread_ids()
        try:
            if not before:  # (so the threads could not be told)
                raise OSError("no list of threads")
            mine = os.sched_getaffinity(0)
            cpu = _own_cpu(mine)
            os.sched_setaffinity(0, {cpu})
        except (AttributeError, OSError):  # pragma: no cover (not Linux, or not allowed)
            self.run(gnubg, f"set threads {count}")
            return
        try:
            self.run(gnubg, f"set threads {count}")
        finally:
            os.sched_setaffinity(0, mine)
        self.threads = tuple(sorted(_thread_ids() - before))  # (started on ``cpu``)
        self.pinned = cpu if self.threads else None

    @contextmanager
    def one_cpu(self) -> Iterator[None]:
        """Run a short command with the caller and gnubg's threads on one CPU (:func:`_own_cpu`).

        gnubg's threads stay there after it (moved each time, they answer late more
        often); :meth:`unpin` lets them go."""
        if not self.threads:
            yield
            return
        mine = os.sched_getaffinity(0)
        try:
            cpu = _own_cpu(mine)
            os.sched_setaffinity(0, {cpu})
            if self.pinned != cpu:
                _pin(self.threads, {cpu})
                self.pinned = cpu
        except OSError:  # pragma: no cover (gnubg's threads changed: leave them alone)
            self.threads, self.pinned = (), None
        try:
            yield
        finally:
            os.sched_setaffinity(0, mine)

    def unpin(self) -> None:
        """Let gnubg's threads run on the caller's CPUs."""
        if self.pinned is None:
            return
        self.pinned = None
        try:
            _pin(self.threads, os.sched_getaffinity(0))
        except OSError:  # pragma: no cover
            self.threads = ()

    def search(self, gnubg: Any, command: str, plies: int, *, short: bool = False) -> str:
        """Run a command that searches ``plies`` deep: a 0-ply or ``short`` one (a few
        milliseconds) on one CPU, longer ones with gnubg's threads free (it may spread a
        search over them)."""
        _searching(plies)
        if plies and not short:
            self.unpin()
            return self.run(gnubg, command)
        with self.one_cpu():
            return self.run(gnubg, command)

    def set_rules(self, gnubg: Any, position: Position) -> None:
        """Make gnubg's beaver setting and Jacoby rule those of ``position``'s session
        (:func:`_beavers`; the Jacoby rule as the position says in money play, gnubg's
        default in match play): its commands' cube information, and so the keys of its
        cache, carry them (gnubg's IDs do not)."""
        beavers = _beavers(position.match_length, position.beavers)
        if beavers != self.beavers:
            self.run(gnubg, f"set beavers {beavers}")
            self.beavers = beavers
        jacoby = position.jacoby or bool(position.match_length)
        if jacoby != self.jacoby:
            self.run(gnubg, f"set jacoby {'on' if jacoby else 'off'}")
            self.jacoby = jacoby

    def forget(self) -> None:
        """Forget the settings this session gave gnubg: code sharing the process (a
        notebook's own ``gnubg.command``, another library) may have changed them, so
        they are all given again before the next command that depends on them."""
        self.settings = None
        self.beavers = -1
        self.jacoby = None

    def set_plies(
        self, gnubg: Any, plies: int, filters: dict[int, tuple[tuple[int, int, float], ...]]
    ) -> None:
        """Make ``eval`` and ``hint`` search ``plies`` deep with the analysis move filters."""
        wanted = (plies, filters)
        if self.settings == wanted:
            return
        if self.settings is None:  # (forgotten: what the output is parsed by, too)
            for setting in _SETUP:
                self.run(gnubg, setting)
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


class GnubgFile:
    """A file gnubg reads or writes by its path (:func:`gnubg_file`)."""

    def __init__(self, path: str, fd: int | None) -> None:
        self.path, self._fd = path, fd

    def read(self) -> bytes:
        """What the file holds now (what gnubg wrote there)."""
        if self._fd is None:
            try:
                with open(self.path, "rb") as f:
                    return f.read()
            except FileNotFoundError:
                return b""
        with open(self._fd, "rb", closefd=False) as f:
            f.seek(0)
            return f.read()


@contextmanager
def gnubg_file(name: str, data: bytes = b"") -> Iterator[GnubgFile]:
    """A file for gnubg's ``import``/``save`` commands, holding ``data``: in memory where
    the system has such files (``memfd``, Linux: gnubg opens it by its ``/proc/self/fd``
    path), so that a process killed meanwhile (a run interrupted) leaves nothing behind;
    else in a temporary directory, removed at the end."""
    if hasattr(os, "memfd_create") and os.path.isdir("/proc/self/fd"):
        fd = os.memfd_create(f"bgkit-{name}")
        try:
            if data:
                with open(fd, "wb", closefd=False) as out:
                    out.write(data)
            yield GnubgFile(f"/proc/self/fd/{fd}", fd)
        finally:
            os.close(fd)
        return
    with tempfile.TemporaryDirectory(prefix="bgkit-gnubg-") as work:
        path = os.path.join(work, name)
        if data:
            with open(path, "wb") as out:
                out.write(data)
        yield GnubgFile(path, None)


@cache
def _session() -> _Session:
    """The command channel, with gnubg's thread pool started (commands that evaluate need
    it; the Python API does not, so a process that only calls it saves the 25 ms)."""
    session = _Session().__enter__()
    atexit.register(session.__exit__)
    session.start_threads(gnubg_module())
    return session


def _thread_ids() -> set[int]:
    """The IDs of this process's threads (empty where ``/proc`` does not list them)."""
    try:
        return {int(name) for name in os.listdir("/proc/self/task")}
    except (OSError, ValueError):  # pragma: no cover (not Linux)
        return set()


def _pin(threads: Sequence[int], cpus: set[int]) -> None:
    """Let the ``threads`` (0: the caller) run on ``cpus`` only."""
    for tid in threads:
        os.sched_setaffinity(tid, cpus)


def _own_cpu(allowed: set[int]) -> int:
    """The CPU of ``allowed`` a command runs on with gnubg's threads: a pool's worker's own
    (:func:`~bgkit.workers.worker_cpu`: each worker of a pool its own), else the CPU the
    caller runs on.

    Measured (a one-game 3-point match at 2-ply, two workers): pinned where each worker
    ran, both were on one CPU in some runs, 1.40-1.85 s in all (the piece of 42 actions
    took 1.07 s of wall for 0.49 CPU s); on a CPU each, 1.25-1.38 s in six runs."""
    cpu = worker_cpu(allowed)
    return current_cpu(allowed) if cpu is None else cpu


def _in_child(read: Callable[[], float | None]) -> float | None:
    """``read()`` in a forked copy of this process, which ends after it: what it searches
    stays out of this process's gnubg cache. ``None`` when it gives no answer, cannot
    fork, or takes more than :data:`CHILD_TIMEOUT` seconds (then it is killed).

    The copy only calls gnubg's Python API, which needs none of gnubg's threads (a
    forked process has only the thread that forked)."""
    if not hasattr(os, "fork"):  # pragma: no cover (not POSIX)
        return None
    r, w = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # (3.12: fork with threads)
        pid = os.fork()
    if pid == 0:  # pragma: no cover (the copy: its coverage is not collected)
        try:
            os.close(r)
            found = read()
            os.write(w, _DOUBLE.pack(math.nan if found is None else found))
        finally:
            os._exit(0)
    os.close(w)
    data = b""
    try:
        if select.select([r], [], [], CHILD_TIMEOUT)[0]:
            data = os.read(r, _DOUBLE.size)
        else:  # pragma: no cover (a copy that hangs)
            os.kill(pid, signal.SIGKILL)
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    if len(data) != _DOUBLE.size:  # pragma: no cover (the copy failed)
        return None
    value: float = _DOUBLE.unpack(data)[0]
    return None if math.isnan(value) else value


#: Seconds a forked copy may take to answer (:func:`_in_child`; it takes well under one).
CHILD_TIMEOUT = 60.0
_DOUBLE = struct.Struct("d")


#: The beavers gnubg allows a cube in money play by default (its ``set beavers``).
BEAVERS = 3


def _beavers(length: int, allowed: bool) -> int:
    """gnubg's ``set beavers`` for a position: its default in match play (where beavers
    mean nothing, but gnubg's cube information still carries the setting) and in money
    play with beavers allowed, none otherwise."""
    return BEAVERS if length or allowed else 0
