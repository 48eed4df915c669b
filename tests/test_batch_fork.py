"""The workers a batch forks itself (``bgkit.batch.run._ForkRunner``, issue 31).

They stand in for a :class:`~concurrent.futures.ProcessPoolExecutor` with ``fork`` (whose
import cost a short ``bgkit verify`` 13 ms), so the pool is their oracle: the same rows
in the same order, a worker that dies raises the pool's ``BrokenProcessPool``, an
exception in a chunk comes back as itself; and they leave no process behind.
"""

from __future__ import annotations

import contextlib
import os
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from bgkit import batch
from bgkit.batch import run as batch_run
from bgkit.workers import in_worker

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "data" / "fixtures"
FILES = [
    str(p)
    for p in (
        *sorted((ROOT / "data" / "selfplay").glob("*.mat"))[:8],
        *sorted(FIXTURES.glob("*.mat"))[:8],
    )
]


@pytest.fixture(autouse=True)
def _forking(monkeypatch: pytest.MonkeyPatch) -> None:
    """The forked workers, even when an earlier test loaded gnubg in this process (its
    threads are not needed in these workers, which never call it)."""
    monkeypatch.setattr(batch_run, "_fork_is_safe", lambda: True)


def _rows(runner: str, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    if runner == "pool":  # (the pool with fork, as before the forked workers)
        monkeypatch.setattr(batch_run, "_fork_is_safe", lambda: False)
        monkeypatch.setattr(batch_run, "_mp_context", _fork_context)
    with contextlib.closing(batch.stream_files(batch.verify_rows, FILES, jobs=2)) as stream:
        return [(r.file, r.rows) for r in stream]


def _fork_context() -> Any:
    import multiprocessing

    return multiprocessing.get_context("fork")


def test_forked_workers_give_the_pools_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    forked = _rows("forked", monkeypatch)
    assert forked == _rows("pool", monkeypatch)
    serial = [(r.file, r.rows) for r in batch.stream_files(batch.verify_rows, FILES, jobs=1)]
    assert forked == serial
    assert len(forked) == len(FILES)


def _who(path: Path) -> list[dict[str, Any]]:
    return [{"pid": os.getpid(), "in_worker": in_worker(), "big": "x" * 200_000}]


def test_each_chunk_runs_in_a_worker_and_long_rows_come_back() -> None:
    rows = [row for r in batch.stream_files(_who, FILES, jobs=2) for row in r.rows]
    assert {row["pid"] for row in rows} - {os.getpid()} == {row["pid"] for row in rows}
    assert len({row["pid"] for row in rows}) == 2
    assert all(row["in_worker"] for row in rows)  # (a nested analysis stays in the worker)
    assert all(len(row["big"]) == 200_000 for row in rows)  # (more than a pipe holds)
    assert not in_worker()


def _dies(path: Path) -> list[dict[str, Any]]:
    if path.name == Path(FILES[5]).name:
        os._exit(3)  # as a crash in C code ends a worker
    return [{}]


def test_a_worker_that_dies_breaks_the_batch_as_the_pool_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(BrokenProcessPool, match="exit code 3"):
        list(batch.stream_files(_dies, FILES, jobs=2))
    monkeypatch.setattr(batch_run, "_fork_is_safe", lambda: False)
    monkeypatch.setattr(batch_run, "_mp_context", _fork_context)
    with pytest.raises(BrokenProcessPool):
        list(batch.stream_files(_dies, FILES, jobs=2))


class _Odd(Exception):
    pass


def _fails(path: Path) -> list[dict[str, Any]]:
    raise _Odd(path.name)


def test_an_exception_outside_a_file_comes_back_as_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # (_run_one makes a file's exception a row: one that escapes it is the chunk's)
    monkeypatch.setattr(batch_run, "_run_one", lambda func, path: func(Path(path)))
    with pytest.raises(_Odd):
        list(batch.stream_files(_fails, FILES, jobs=2))


def test_closing_early_leaves_no_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[batch_run._Forked] = []
    start = batch_run._Forked.start

    def remember(*args: Any) -> batch_run._Forked:
        worker = start(*args)
        started.append(worker)
        return worker

    monkeypatch.setattr(batch_run._Forked, "start", remember)
    stream = batch.stream_files(batch.verify_rows, FILES, jobs=2)
    next(stream)
    pids = [w.pid for w in started]
    stream.close()
    assert len(pids) == 2
    for pid in pids:  # (reaped: no process, not even a zombie, is left)
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)
