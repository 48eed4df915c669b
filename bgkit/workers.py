"""Worker processes that die with their parent, forked pools, and a call that a crash
cannot take down.

Every pool bgkit starts (``verify`` and ``analyze`` batches, the analysis of a match, the
worker ``bgkit hint`` asks GNU Backgammon in) starts its processes with :func:`worker_start`:
Ctrl-C is left to the parent, which reports it once, and the kernel kills the worker
(``PR_SET_PDEATHSIG``) when its parent dies, however it dies (``kill -9`` included), so
that no worker is left running after its command.

:class:`Forked` is one worker process forked from this one, which answers the requests
it reads from a pipe: the pools of a batch and of a match's analysis, and the worker of
:class:`Isolated`, are made of them, without :mod:`concurrent.futures` and
:mod:`multiprocessing` (their import alone is 15-22 ms of a short command's start, issue
31) nor their threads in this process.

:class:`Isolated` runs calls in one such worker: GNU Backgammon's C code checks little,
and a crash there (a segmentation fault) kills only the worker; the caller gets an
:class:`~bgkit.errors.EngineCrashError` for that call, and the next call a new worker.
"""

from __future__ import annotations

import contextlib
import ctypes
import faulthandler
import os
import pickle
import select
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from bgkit.errors import EngineCrashError, first_line

__all__ = [
    "Forked",
    "ForkedPool",
    "Isolated",
    "WorkerDied",
    "current_cpu",
    "die_with_parent",
    "flush_std_streams",
    "in_worker",
    "mark_forked_worker",
    "may_fork",
    "usable_cores",
    "worker_cpu",
    "worker_start",
]

T = TypeVar("T")

_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def may_fork() -> bool:
    """Whether this process may fork workers at all: the platform has ``fork`` (not
    Windows) and, on Python 3.12+, this process runs no other thread (a child forked from
    a threaded process may wait for ever on a lock another thread held; 3.12 warns).
    Each pool adds what it needs (a match's analysis: no gnubg threads started)."""
    return (
        hasattr(os, "fork")
        and sys.platform != "win32"
        and (sys.version_info < (3, 12) or threading.active_count() == 1)
    )


def usable_cores() -> int:
    """The CPUs this process can keep busy, the most workers worth running at once: those
    its affinity lets it run on (``taskset``, a container's cpuset), or fewer when a
    cgroup's CPU quota gives it less time (a container's ``--cpus``, a Kubernetes CPU
    limit; rounded up). ``os.cpu_count()`` counts the machine's, which on a large host
    forks many workers onto the few CPUs a container has."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # (not Linux)
        cores = os.cpu_count() or 1
    quota = cgroup_cpu_limit()
    return max(1, cores if quota is None else min(cores, quota))


#: How far up from this process's cgroup :func:`cgroup_cpu_limit` looks for a quota.
_CGROUP_DEPTH = 16


def cgroup_cpu_limit(
    root: Path = Path("/sys/fs/cgroup"), membership: Path = Path("/proc/self/cgroup")
) -> int | None:
    """The CPUs this process's cgroups let it use (their CPU quota over its period,
    rounded up; the lowest of its cgroup's and of those above it), ``None`` without a
    quota or off Linux. cgroup v2 (``cpu.max``) and v1 (``cpu.cfs_quota_us``), under
    ``root``, for the cgroups ``membership`` (``/proc/self/cgroup``) names."""
    try:
        lines = membership.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return None
    limits = []
    for line in lines:
        fields = line.split(":", 2)
        if len(fields) != 3:
            continue
        controllers, path = fields[1], fields[2]
        names: tuple[str, ...]
        if not controllers:  # v2: "0::/path"
            where, names = root, ("cpu.max",)
        elif "cpu" in controllers.split(","):  # v1: "4:cpu,cpuacct:/path"
            where, names = root / controllers, ("cpu.cfs_quota_us", "cpu.cfs_period_us")
        else:
            continue
        # (its own cgroup, then each above it up to the root: a container sees its own
        # at the root, whatever the path says)
        folder = where.joinpath(*[part for part in path.split("/") if part not in ("", "..")])
        for _ in range(_CGROUP_DEPTH):
            limit = _quota(folder, names)
            if limit is not None:
                limits.append(limit)
            if folder == where:
                break
            folder = folder.parent
    return min(limits) if limits else None


def _quota(folder: Path, names: tuple[str, ...]) -> int | None:
    """The CPUs the quota in ``folder`` allows (``None``: no quota, or none readable)."""
    try:
        if len(names) == 1:  # v2: "max 100000" or "200000 100000"
            quota, _, period = (folder / names[0]).read_text(encoding="ascii").partition(" ")
        else:  # v1: -1 for none
            quota = (folder / names[0]).read_text(encoding="ascii")
            period = (folder / names[1]).read_text(encoding="ascii")
        if quota.strip() == "max" or int(quota) <= 0:
            return None
        return max(1, -(-int(quota) // int(period)))
    except (OSError, ValueError, ZeroDivisionError):
        return None


@cache
def _libc() -> Any:
    """This process's C library (``None`` where ctypes cannot load it)."""
    try:
        return ctypes.CDLL(None, use_errno=True)
    except (OSError, TypeError):  # pragma: no cover (no C library to load by that name)
        return None


def _prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    return getattr(_libc(), "prctl", None)


def die_with_parent(parent: int | None = None) -> None:
    """In a worker process: have the kernel kill this process when its parent dies.

    :param parent: the parent's process ID when known: a worker whose parent died before
        the request took effect exits at once.
    """
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if parent is not None and os.getppid() != parent:
        os._exit(1)  # the parent is gone already


def worker_start(parent: int | None = None) -> None:
    """What every worker process does first: leave Ctrl-C (sent to the whole process
    group) to the parent, end quietly when the parent stops it (SIGTERM: a forked worker
    would otherwise run the command's own handler, and print a traceback), and die with
    the parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # (not the command's: a quiet end)
    faulthandler.disable()  # (a crash is the parent's to report, in one line)
    die_with_parent(parent)


def current_cpu(allowed: set[int]) -> int:
    """The CPU the calling thread runs on (one of ``allowed`` if the C library cannot say)."""
    getcpu = getattr(_libc(), "sched_getcpu", None)
    cpu = -1 if getcpu is None else int(getcpu())
    return cpu if cpu in allowed else min(allowed)


_forked_worker: tuple[int, int] | None = None
"""In a worker bgkit forked itself: its number in the pool that forked it (0 to n-1), and
the CPU the pool's parent ran on when it forked it (-1: not known)."""


def mark_forked_worker(number: int = 0, first_cpu: int = -1) -> None:
    """In a worker process bgkit forked itself (a batch's, :mod:`bgkit.batch`), the
    ``number``-th its pool forked when the parent ran on ``first_cpu``: say so to
    :func:`in_worker` and :func:`worker_cpu`."""
    global _forked_worker
    _forked_worker = (number, first_cpu)


def worker_cpu(allowed: set[int]) -> int | None:
    """The CPU of ``allowed`` this worker keeps its work on (GNU Backgammon's threads:
    :mod:`bgkit.analysis.gnubg_process`): for the first worker of a pool, the CPU its
    parent ran on when it forked them (the parent then waits for their answers), for the
    next ones the allowed CPUs after it, each its own. ``None`` outside a worker bgkit
    forked, for a worker beyond one a CPU, and where the parent's CPU is not known or
    not allowed (not a pool's worker: :class:`Isolated`'s): such a worker stays where
    it runs.

    Pools of other processes are spread by the kernel, which puts each parent where
    there is room: two runs of two workers on a machine of four CPUs take two CPUs each,
    where numbering the allowed CPUs from the first would put both runs on the same two.
    """
    if _forked_worker is None:
        return None
    number, first = _forked_worker
    cpus = sorted(allowed)
    if number >= len(cpus) or first not in allowed:
        return None
    return cpus[(cpus.index(first) + number) % len(cpus)]


def in_worker() -> bool:
    """Whether this process is a worker that :mod:`multiprocessing` started (a pool's,
    a Dask worker's) or that a bgkit batch forked, not a program's own process."""
    if _forked_worker is not None:
        return True
    import multiprocessing

    return multiprocessing.parent_process() is not None


class WorkerDied(RuntimeError):
    """A :class:`Forked` worker ended while it had a request (a crash in C code)."""

    def __init__(self, how: str) -> None:
        super().__init__(f"a worker process ended while running a chunk ({how})")
        self.how = how
        """How it ended: ``exit code 3``, ``killed by SIGSEGV``."""


def flush_std_streams() -> None:
    """Flush this process's ``stdout`` and ``stderr`` (before a fork, else the child could
    write what is in their buffers again; and at a forked worker's end)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, OSError, ValueError):
            stream.flush()


def _dumps(obj: object) -> bytes:
    return pickle.dumps(obj, pickle.HIGHEST_PROTOCOL)


_HEADER = 8  # bytes of a message's length


class Forked:
    """One worker process forked from this one: it reads requests from a pipe and
    answers each, in order, on another (``worker.send(request)``, then
    ``ok, value = worker.receive()``: ``serve(request)`` or the exception it raised).

    The worker inherits this process's memory (nothing is pickled but the requests and
    the answers), ignores Ctrl-C, dies with this process (:func:`worker_start`) and says
    it is a worker (:func:`in_worker`).
    """

    __slots__ = ("answers", "pid", "requests")

    def __init__(self, pid: int, requests: int, answers: int) -> None:
        self.pid, self.requests, self.answers = pid, requests, answers

    @classmethod
    def start(
        cls,
        serve: Callable[[Any], Any],
        *,
        setup: Callable[[], object] | None = None,
        dumps: Callable[[object], bytes] = _dumps,
        number: int = 0,
        first_cpu: int = -1,
    ) -> Forked:
        """Fork a worker, the ``number``-th of its pool, whose parent ran on ``first_cpu``
        (:func:`worker_cpu`; -1: not a pool's), which runs ``setup()`` first (an exception
        there is then the answer to every request) and answers each request with
        ``serve(request)``, pickled by ``dumps``. It closes its copies of the pipes of the
        workers this process runs (:data:`_running`): a worker must be the only one to
        hold its requests' pipe, else it would not see it close."""
        flush_std_streams()
        parent = os.getpid()
        request_r, request_w = os.pipe()
        answer_r, answer_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            code = 1
            try:
                for fd in (request_w, answer_r, *(f for o in _running for f in o._fds())):
                    os.close(fd)
                _running.clear()
                mark_forked_worker(number, first_cpu)
                worker_start(parent)
                failure: Exception | None = None
                if setup is not None:
                    try:
                        setup()
                    except Exception as err:
                        failure = err
                _serve(serve, request_r, answer_w, dumps, failure)
                code = 0
            finally:
                flush_std_streams()
                os._exit(code)
        os.close(request_r)
        os.close(answer_w)
        worker = cls(pid, request_w, answer_r)
        _running.add(worker)
        return worker

    def _fds(self) -> tuple[int, int]:
        return self.requests, self.answers

    def send(self, request: object) -> None:
        _write(self.requests, _dumps(request))

    def receive(self) -> tuple[bool, Any]:
        """The answer to the oldest request not answered yet: ``(True, value)`` or
        ``(False, exception)``.

        :raises WorkerDied: when the worker ended instead (its exit code in the message).
        """
        data = _read(self.answers)
        if data is None:
            _, status = os.waitpid(self.pid, 0)
            self.pid = 0
            self.stop(now=False)  # (its pipes closed: nothing to wait for)
            raise WorkerDied(_signal_name(os.waitstatus_to_exitcode(status)))
        answer: tuple[bool, Any] = pickle.loads(data)
        return answer

    def stop(self, *, now: bool) -> None:
        """End the worker: at once (``now``), else once it has answered its requests."""
        if self.pid and now:
            with contextlib.suppress(ProcessLookupError):  # (it died already)
                os.kill(self.pid, signal.SIGKILL)
        if self not in _running:
            return  # (stopped already)
        _running.discard(self)
        for fd in self._fds():  # (no more requests: the worker ends)
            with contextlib.suppress(OSError):
                os.close(fd)
        if self.pid:
            os.waitpid(self.pid, 0)
            self.pid = 0


class ForkedPool:
    """:class:`Forked` workers, each handed one request at a time: requests wait in
    :meth:`submit`'s order for a worker that has none, and :meth:`answers` collects what
    the workers answered, each with the job it was submitted with."""

    def __init__(self) -> None:
        self.idle: list[Forked] = []
        """Workers without a request."""
        self._busy: dict[int, tuple[Forked, Any]] = {}  # by the worker's answer pipe
        self._queue: deque[tuple[Any, object]] = deque()

    def start(
        self,
        serve: Callable[[Any], Any],
        workers: int,
        *,
        setup: Callable[[], object] | None = None,
        dumps: Callable[[object], bytes] = _dumps,
    ) -> None:
        """Fork ``workers`` workers (:meth:`Forked.start`), each handed a request waiting
        as soon as it is forked."""
        try:
            first = current_cpu(os.sched_getaffinity(0))
        except (AttributeError, OSError):  # pragma: no cover (not Linux)
            first = -1
        for number in range(workers):
            worker = Forked.start(serve, setup=setup, dumps=dumps, number=number, first_cpu=first)
            self.idle.append(worker)
            self._dispatch()

    @property
    def busy(self) -> bool:
        """Whether a worker has a request."""
        return bool(self._busy)

    def submit(self, job: object, request: object) -> None:
        """Hand ``request`` to the next worker that has none; its answer comes back
        with ``job``."""
        self._queue.append((job, request))
        self._dispatch()

    def keep(self, workers: int) -> None:
        """Stop the idle workers beyond ``workers`` (at once)."""
        while len(self.idle) > workers:
            self.idle.pop().stop(now=True)

    def _dispatch(self) -> None:
        while self.idle and self._queue:
            worker, (job, request) = self.idle.pop(), self._queue.popleft()
            worker.send(request)
            self._busy[worker.answers] = (worker, job)

    def answers(self, timeout: float | None = None) -> list[tuple[Any, bool, Any]]:
        """``(job, ok, value)`` of the answers that have come (:meth:`Forked.receive`),
        waiting for one at most ``timeout`` seconds (``None``: until one comes); the
        workers that answered take the next requests.

        :raises WorkerDied: when a worker ended instead of answering.
        """
        ready, _, _ = select.select(list(self._busy), [], [], timeout)
        out = []
        for fd in ready:
            worker, job = self._busy.pop(fd)
            ok, value = worker.receive()
            self.idle.append(worker)
            out.append((job, ok, value))
        self._dispatch()
        return out

    def close(self, *, now: bool) -> None:
        """Stop every worker (:meth:`Forked.stop`)."""
        workers = self.idle + [worker for worker, _ in self._busy.values()]
        self.idle, self._busy = [], {}
        for worker in workers:
            worker.stop(now=now)


#: The :class:`Forked` workers this process runs (started, not stopped).
_running: set[Forked] = set()


def _serve(
    serve: Callable[[Any], Any],
    requests: int,
    answers: int,
    dumps: Callable[[object], bytes],
    failure: Exception | None,
) -> None:
    """In a forked worker: answer each request that comes with ``serve(request)`` (or
    the exception: ``failure``, when the worker's setup failed), until the pipe is
    closed."""
    while (data := _read(requests)) is not None:
        try:
            if failure is not None:
                raise failure
            answer = dumps((True, serve(pickle.loads(data))))
        except Exception as err:
            try:
                answer = dumps((False, err))
            except Exception:
                name, line = type(err).__name__, first_line(err)
                failed = RuntimeError(line if line == name else f"{name}: {line}")
                answer = dumps((False, failed))
        _write(answers, answer)


def _write(fd: int, data: bytes) -> None:
    view = memoryview(len(data).to_bytes(_HEADER, "little") + data)
    while view:
        view = view[os.write(fd, view) :]


def _read(fd: int) -> bytes | None:
    """One message from the pipe ``fd``, ``None`` at its end."""
    header = _read_exactly(fd, _HEADER)
    if header is None:
        return None
    return _read_exactly(fd, int.from_bytes(header, "little"))


def _read_exactly(fd: int, size: int) -> bytes | None:
    parts: list[bytes] = []
    while size:
        part = os.read(fd, min(size, 1 << 20))
        if not part:
            return None
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _signal_name(code: int | None) -> str:
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


class Isolated:
    """Calls run in one forked worker process (a :class:`Forked`), so that a crash in C
    code loses the call, not the caller (``with Isolated() as run: run.call(f, x)``).

    :param enabled: ``False`` runs the calls in this process (when forking is not safe:
        GNU Backgammon's threads already run here, and a forked copy would wait for them).
    """

    def __init__(self, *, enabled: bool = True) -> None:
        self.enabled = enabled and hasattr(os, "fork")
        self._worker: Forked | None = None

    def __enter__(self) -> Isolated:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(now=exc[0] is not None)

    def close(self, *, now: bool = False) -> None:
        """Stop the worker (``now``: without waiting for its call, after an interrupt)."""
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.stop(now=now)

    def call(self, function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``function(*args, **kwargs)``, in the worker (``function`` and the arguments
        are pickled: a module's function, not a lambda).

        :raises EngineCrashError: when the worker died during the call.
        """
        if not self.enabled:
            return function(*args, **kwargs)
        if self._worker is None:
            self._worker = Forked.start(_call)
        self._worker.send((function, args, kwargs))
        try:
            ok, value = self._worker.receive()
        except WorkerDied as err:
            self.close(now=True)
            raise EngineCrashError(
                f"GNU Backgammon's process died ({err.how}) on this position; nothing else was lost"
            ) from None
        if not ok:
            raise value
        answer: T = value
        return answer


def _call(request: tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]) -> Any:
    """In an :class:`Isolated` worker: the call asked for."""
    function, args, kwargs = request
    return function(*args, **kwargs)
