"""Where a batch runs: its files in chunks, in this process, on local worker
processes or on a Dask cluster, a few chunks in flight, every file's rows in input
order; and the progress bar."""

from __future__ import annotations

import functools
import os
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from bgkit.batch.common import (
    INTERNAL_ERROR,
    UNREADABLE,
    FileRows,
    Row,
    RowFunction,
)
from bgkit.errors import BatchError, BgkitError, NotationError, error_line, first_line
from bgkit.workers import ForkedPool, WorkerDied, may_fork, usable_cores, worker_start

if TYPE_CHECKING:
    from distributed import Client  # type: ignore[import-not-found, unused-ignore]

    from bgkit.batch.output import _Key, _Store

FILES_PER_JOB = 4
"""By default, one more process for every this many files, up to the number of cores."""


def _stream(
    func: RowFunction,
    files: Sequence[Path],
    *,
    jobs: int | None,
    client: Client | str | None,
    output: str | os.PathLike[str] | None,
    columns: Mapping[str, str] | None,
) -> Generator[FileRows, None, None]:
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be at least 1, not {jobs}")
    store: _Store | None = None
    done: Mapping[_Key, list[Row]] = {}
    if output is not None:  # (loaded only then: shutil, bz2 and lzma, issue 31)
        from bgkit.batch.output import _dtypes, _settings, _Store

        store = _Store(Path(output), _dtypes(columns), _settings(func))
        done = store.load({str(f) for f in files})
    items = [_item(path, done) for path in files]
    todo = sum(item.rows is None for item in items)
    return _ordered(items, functools.partial(_runner, func, todo, jobs, client), store)


class _Item:
    """A file of the batch: its name, size and time, and the rows an earlier run stored.

    (This and the other small classes here are plain classes, not dataclasses: each of
    those costs every ``bgkit verify`` some tenths of a millisecond at its start, issue 31.)
    """

    __slots__ = ("file", "mtime_ns", "rows", "size")

    def __init__(
        self, file: str, size: int | None, mtime_ns: int | None, rows: list[Row] | None
    ) -> None:
        self.file, self.size, self.mtime_ns = file, size, mtime_ns
        self.rows = rows  # the stored rows of a file done by an earlier run


def _item(path: Path, done: Mapping[_Key, list[Row]]) -> _Item:
    file = str(path)
    try:
        st = os.stat(path)
    except OSError:
        return _Item(file, None, None, None)
    return _Item(file, st.st_size, st.st_mtime_ns, done.get((file, st.st_size, st.st_mtime_ns)))


def _ordered(
    items: list[_Item], start: Callable[[], _Runner], store: _Store | None
) -> Generator[FileRows, None, None]:
    """Keep ``runner.slots`` chunks in flight; yield every file's rows in input order.

    The runner (a process pool, a Dask client) is started on the first ``next()``, so
    that it is always closed again, by the end of the loop or by ``close()``.
    """
    runner = start()
    chunks = deque(_chunks(items, runner.chunk, runner.workers))
    pending: deque[tuple[list[_Item], _Handle | None]] = deque()

    def submit(chunk: list[_Item]) -> _Handle | None:
        paths = [item.file for item in chunk if item.rows is None]
        return runner.submit(paths) if paths else None

    def fill() -> None:
        while chunks and len(pending) < runner.slots and len(chunks) > runner.slots:
            chunk = chunks.popleft()
            pending.append((chunk, submit(chunk)))
        if not chunks or len(pending) >= runner.slots:
            return
        # the last chunks (a few slots more in flight at most): handed out largest first
        # (bytes to compute), so that the workers finish together, where the largest
        # coming last keeps one busy while the others wait; rows still come in input order
        last = list(chunks)
        chunks.clear()
        handles = {id(chunk): submit(chunk) for chunk in sorted(last, key=_work, reverse=True)}
        pending.extend((chunk, handles[id(chunk)]) for chunk in last)

    finished = False
    try:
        fill()
        while pending:
            chunk, handle = pending.popleft()
            fill()
            computed = iter(handle.result() if handle is not None else [])
            for item in chunk:
                reused = item.rows is not None
                if item.rows is not None:
                    rows = item.rows
                else:
                    rows = [_complete(item, row) for row in next(computed)]
                if store is not None:
                    store.add(item, rows)
                yield FileRows(item.file, rows, reused)
        if store is not None:
            store.finish()
        finished = True
    finally:
        try:
            if store is not None and not finished:
                store.checkpoint()  # keep what is done for the next run
        finally:
            runner.close([h for _, h in pending if h is not None], cancel=not finished)


def _work(chunk: list[_Item]) -> int:
    """Bytes of the files of ``chunk`` still to compute (the measure of its work; a file
    that could not be read counts 0)."""
    return sum(item.size or 0 for item in chunk if item.rows is None)


def _chunks(items: list[_Item], size: int, workers: int = 1) -> Iterator[list[_Item]]:
    """Consecutive items with up to ``size`` files to compute (done ones ride along),
    fewer as the end comes (:func:`_chunk_size` of the files left), down to one: the
    workers then finish together, where a last chunk of 60 analyses (a minute) would
    leave the other workers idle.

    >>> sizes = [len(c) for c in _chunks([_Item(str(i), 0, 0, None) for i in range(100)], 6, 2)]
    >>> sizes[:8], sizes[-3:], len(sizes)
    ([6, 5, 5, 5, 4, 4, 4, 4], [1, 1, 1], 52)
    """
    left = sum(item.rows is None for item in items)
    chunk: list[_Item] = []
    count = 0
    limit = min(size, _chunk_size(left, workers, size))
    for item in items:
        chunk.append(item)
        count += item.rows is None
        if count >= limit:
            yield chunk
            left -= count
            chunk, count = [], 0
            limit = _chunk_size(left, workers, size)
    if chunk:
        yield chunk


def _complete(item: _Item, row: Row) -> Row:
    return {
        "file": item.file,
        "kind": None,
        "message": None,
        **row,
        "size": item.size,
        "mtime_ns": item.mtime_ns,
    }


def _run_one(func: RowFunction, path: str) -> list[Row]:
    """``func(path)``, with a failure turned into one row (runs in the worker)."""
    try:
        rows = list(func(Path(path)))
    except (BgkitError, OSError) as err:
        row: Row = {"kind": UNREADABLE, "message": error_line(err, source=path)}
        if isinstance(err, NotationError):
            row.update(line=err.line, column=err.column)
        return [row]
    except Exception as err:
        message = f"{path}: internal error: {type(err).__name__}: {first_line(err)}"
        return [{"kind": INTERNAL_ERROR, "message": message}]
    return rows or [{}]


def _run_chunk(func: RowFunction, paths: list[str]) -> list[list[Row]]:
    return [_run_one(func, path) for path in paths]


# ---------------------------------------------------------------------- runners


class _Handle(Protocol):
    def result(self) -> list[list[Row]]: ...


class _Runner(Protocol):
    slots: int
    """Chunks in flight at once."""
    chunk: int
    """Files per chunk (at most; fewer towards the end)."""
    workers: int
    """Processes or threads that run chunks at once."""

    def submit(self, paths: list[str]) -> _Handle: ...

    def close(self, pending: list[_Handle], *, cancel: bool) -> None: ...


def _runner(func: RowFunction, todo: int, jobs: int | None, client: Client | str | None) -> _Runner:
    if client is not None:
        return _DaskRunner(func, todo, client)
    jobs = _default_jobs(todo) if jobs is None else min(jobs, max(1, todo))
    if jobs <= 1:
        return _SerialRunner(func)
    if _fork_is_safe():
        return _ForkRunner(func, todo, jobs)
    return _PoolRunner(func, todo, jobs)


def _default_jobs(todo: int) -> int:
    return max(1, min(usable_cores(), todo // FILES_PER_JOB))


def _chunk_size(todo: int, workers: int, most: int) -> int:
    """Files per chunk: about 8 chunks per worker, at most ``most``."""
    return max(1, min(most, todo // (workers * 8)))


class _Later:
    """A chunk run in this process when its result is asked for."""

    __slots__ = ("func", "paths")

    def __init__(self, func: RowFunction, paths: list[str]) -> None:
        self.func, self.paths = func, paths

    def result(self) -> list[list[Row]]:
        return _run_chunk(self.func, self.paths)


class _SerialRunner:
    slots = 1
    chunk = 1
    workers = 1

    def __init__(self, func: RowFunction) -> None:
        self.func = func

    def submit(self, paths: list[str]) -> _Handle:
        return _Later(self.func, paths)

    def close(self, pending: list[_Handle], *, cancel: bool) -> None:
        pass


class _PoolRunner:
    def __init__(self, func: RowFunction, todo: int, jobs: int) -> None:
        from concurrent.futures import ProcessPoolExecutor

        self.func = func
        self.slots = jobs * 3
        self.workers = jobs
        self.chunk = _chunk_size(todo, jobs, 16)
        self.pool = ProcessPoolExecutor(
            max_workers=jobs, mp_context=_mp_context(), initializer=ignore_interrupts
        )

    def submit(self, paths: list[str]) -> _Handle:
        return self.pool.submit(_run_chunk, self.func, paths)

    def close(self, pending: list[_Handle], *, cancel: bool) -> None:
        self.pool.shutdown(wait=True, cancel_futures=cancel)


class _ForkRunner:
    """Worker processes forked from this one (:class:`bgkit.workers.Forked`), each given
    one chunk at a time and answering with its rows: what :class:`_PoolRunner` does with
    ``fork``, without :mod:`concurrent.futures` and :mod:`multiprocessing`, whose import
    alone costs a short ``bgkit verify`` 13 ms of its start (issue 31), nor their threads
    in this process.

    The workers inherit ``func`` (nothing is pickled but the paths and the rows); a worker
    that dies in a chunk (a crash in C code) raises
    :exc:`~concurrent.futures.process.BrokenProcessPool`, as the pool does.
    """

    def __init__(self, func: RowFunction, todo: int, jobs: int) -> None:
        self.slots = jobs * 3
        self.workers = jobs
        self.chunk = _chunk_size(todo, jobs, 16)
        self._pool = ForkedPool()
        try:
            self._pool.start(functools.partial(_run_chunk, func), jobs)
        except BaseException:
            self._pool.close(now=True)
            raise

    def submit(self, paths: list[str]) -> _Handle:
        handle = _ForkHandle(self, paths)
        self._pool.submit(handle, paths)
        return handle

    def wait(self, handle: _ForkHandle) -> None:
        """Take the workers' answers until ``handle``'s has come."""
        while not handle.done:
            try:
                answers = self._pool.answers()
            except WorkerDied as err:
                from concurrent.futures.process import BrokenProcessPool

                raise BrokenProcessPool(str(err)) from None
            for done, ok, value in answers:
                done.answer, done.done = (ok, value), True

    def close(self, pending: list[_Handle], *, cancel: bool) -> None:
        self._pool.close(now=cancel)


class _ForkHandle:
    """A chunk given to the forked workers, and its answer once it has come."""

    __slots__ = ("answer", "done", "paths", "runner")

    def __init__(self, runner: _ForkRunner, paths: list[str]) -> None:
        self.runner, self.paths = runner, paths
        self.done = False
        self.answer: tuple[bool, Any] = (False, None)

    def result(self) -> list[list[Row]]:
        self.runner.wait(self)
        ok, value = self.answer
        if not ok:
            raise value
        rows: list[list[Row]] = value
        return rows


def ignore_interrupts(parent: int | None = None) -> None:
    """In a worker process: leave Ctrl-C (SIGINT, sent to the whole process group) to the
    parent, which stops the run and reports it once, instead of a traceback per worker;
    and die with the parent (:func:`bgkit.workers.worker_start`)."""
    worker_start(parent)


def _fork_is_safe() -> bool:
    """Whether workers may be forked from this process (fast: they inherit bgkit already
    imported): not when GNU Backgammon is loaded (its threads would not exist in a forked
    child, which would wait for them forever), nor, on Python 3.12+, when this process
    runs threads."""
    return may_fork() and "gnubg" not in sys.modules


def _mp_context() -> Any:
    """``fork`` when :func:`_fork_is_safe`, else ``forkserver``. A script must then guard
    its main code with ``if __name__ == "__main__":``, as for any :mod:`multiprocessing`
    program.
    """
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and _fork_is_safe():
        return multiprocessing.get_context("fork")
    if "forkserver" in methods:
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["bgkit.batch", "bgkit.verify", "bgkit.formats"])
        return ctx
    return multiprocessing.get_context("spawn")


class _DaskRunner:
    def __init__(self, func: RowFunction, todo: int, client: Client | str) -> None:
        import importlib

        try:  # imported by name: its functions are not annotated, and it is optional
            distributed: Any = importlib.import_module("distributed")
            addressing: Any = importlib.import_module("distributed.comm.addressing")
        except ImportError as err:
            raise BatchError(
                f"a Dask cluster needs dask.distributed: pip install 'bgkit[batch]' ({err})"
            ) from None
        self.owned = isinstance(client, str)
        self.client: Any = client
        if isinstance(client, str):
            try:
                if not client.startswith("inproc://"):
                    addressing.get_address_host_port(client)  # before a Client: it must close
                self.client = distributed.Client(client, timeout="10s", set_as_default=False)
            except (OSError, TimeoutError, ValueError) as err:
                raise BatchError(f"{client}: cannot reach the Dask scheduler: {err}") from None
        threads = sum(self.client.nthreads().values()) or 1
        self.func = func
        self.slots = max(4, threads * 3)
        self.workers = threads
        self.chunk = _chunk_size(todo, threads, 64)

    def submit(self, paths: list[str]) -> _Handle:
        future: _Handle = self.client.submit(_run_chunk, self.func, paths, pure=False)
        return future

    def close(self, pending: list[_Handle], *, cancel: bool) -> None:
        if cancel and pending:
            self.client.cancel(pending)
        if self.owned:
            self.client.close()


# ---------------------------------------------------------------------- progress


class _Bar(Protocol):
    def update(self, n: int = 1) -> object: ...

    def close(self) -> None: ...


def _progress_bar(total: int, show: bool | None) -> _Bar:
    """``tqdm.auto`` (a widget in notebooks) when shown, else a bar that does nothing."""
    if show is None:
        show = sys.stderr.isatty() or _in_notebook()
    if show:
        from tqdm.auto import tqdm

        bar: _Bar = tqdm(total=total, unit="file")
        return bar
    return NullBar()


class NullBar:
    """A progress bar that shows nothing, without loading tqdm (12 ms, and a monitor
    thread per process)."""

    def update(self, n: int = 1) -> None:
        """Count ``n`` more done (nothing to show)."""

    def clear(self) -> None:
        """Clear the bar (there is none)."""

    def close(self) -> None:
        """Close the bar (there is none)."""


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    get = getattr(shell, "get_ipython", None)
    ip = get() if callable(get) else None
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"
