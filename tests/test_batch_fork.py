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

from bgkit import batch, workers
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
    started: list[workers.Forked] = []
    start = workers.Forked.start

    def remember(*args: Any, **kwargs: Any) -> workers.Forked:
        worker = start(*args, **kwargs)
        started.append(worker)
        return worker

    monkeypatch.setattr(workers.Forked, "start", remember)
    stream = batch.stream_files(batch.verify_rows, FILES, jobs=2)
    next(stream)
    pids = [w.pid for w in started]
    stream.close()
    assert len(pids) == 2
    for pid in pids:  # (reaped: no process, not even a zombie, is left)
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


class _Recording:
    """A runner that runs each chunk when asked (as ``_SerialRunner``), recording the order
    chunks are handed out in and how many are in flight at most."""

    def __init__(self, slots: int, chunk: int, workers: int) -> None:
        self.slots, self.chunk, self.workers = slots, chunk, workers
        self.submitted: list[list[str]] = []
        self.in_flight = 0
        self.most = 0

    def submit(self, paths: list[str]) -> Any:
        self.submitted.append(paths)
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        runner = self

        class Handle:
            def result(self) -> list[list[dict[str, Any]]]:
                runner.in_flight -= 1
                return [[{"n": len(p)}] for p in paths]

        return Handle()

    def close(self, pending: list[Any], *, cancel: bool) -> None:
        pass


@pytest.mark.parametrize("files", [3, 10, 40, 200])
def test_the_last_chunks_go_out_largest_first_and_rows_in_input_order(files: int) -> None:
    # sizes rise with the input order: the largest files are the last ones
    items = [batch_run._Item(f"f{i:03}", 100 + i, 0, None) for i in range(files)]
    runner = _Recording(slots=6, chunk=16, workers=2)
    runner.chunk = batch_run._chunk_size(files, 2, 16)
    out = list(batch_run._ordered(items, lambda: runner, None))
    assert [r.file for r in out] == [item.file for item in items]  # input order
    assert [r.rows[0]["n"] for r in out] == [len(item.file) for item in items]
    sent = [path for chunk in runner.submitted for path in chunk]
    assert sorted(sent) == [item.file for item in items]  # each file once
    chunks = list(batch_run._chunks(items, runner.chunk, 2))
    tail = runner.submitted[-min(len(chunks), runner.slots) :]
    sizes = [sum(100 + int(p[1:]) for p in chunk) for chunk in tail]
    assert sizes == sorted(sizes, reverse=True)  # the last ones: largest first
    assert tail[0] == [item.file for item in chunks[-1]]  # (the largest, input's last)
    if len(chunks) > runner.slots:  # before them, in input order
        head = runner.submitted[: -runner.slots]
        assert head == [[item.file for item in chunk] for chunk in chunks[: len(head)]]
    assert runner.most <= 2 * runner.slots
