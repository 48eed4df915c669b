"""``bgkit.workers.Forked``: the worker processes of a batch's pool and of a match's
analysis (issue 31: they stand in for ``concurrent.futures``, whose import was 15-22 ms
of a short analysis).

Each worker answers its requests in order; an exception (in the request, in the worker's
setup, one that cannot be pickled) comes back as the answer; a worker that dies raises
:class:`~bgkit.workers.WorkerDied`; and workers end when their pipes close, in any order,
leaving no process behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bgkit import workers
from bgkit.workers import Forked, Isolated, WorkerDied, in_worker

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")


@pytest.fixture(autouse=True)
def _within_seconds() -> Iterator[None]:
    """A worker that does not end would hang the test: fail it instead."""

    def late(*_: object) -> None:
        raise TimeoutError("a worker did not answer or end")

    before = signal.signal(signal.SIGALRM, late)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, before)


def _double(request: int) -> int:
    if request < 0:
        raise ValueError(f"negative: {request}")
    return 2 * request


def _start(count: int, serve: Any = _double, **kwargs: Any) -> list[Forked]:
    return [Forked.start(serve, **kwargs) for _ in range(count)]


def _gone(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_each_worker_answers_its_requests_in_order() -> None:
    pool = _start(2)
    for i, worker in enumerate(pool):
        for n in range(3):
            worker.send(10 * i + n)
    answers = [[worker.receive() for _ in range(3)] for worker in pool]
    pids = [worker.pid for worker in pool]
    for worker in pool:
        worker.stop(now=False)
    assert answers == [[(True, 0), (True, 2), (True, 4)], [(True, 20), (True, 22), (True, 24)]]
    assert all(_gone(pid) for pid in pids)  # (reaped: not even a zombie is left)


def test_workers_end_when_stopped_in_any_order_with_requests_answered_or_not() -> None:
    # each worker must hold only its own pipes: one that kept another's open (forked
    # after it) would keep that one waiting for requests, and stopping it first would
    # wait for ever
    pool = _start(3)
    pool[0].send(1)
    pool[2].send(2)
    assert pool[2].receive() == (True, 4)
    pids = [worker.pid for worker in pool]
    for worker in pool:
        worker.stop(now=False)
    assert all(_gone(pid) for pid in pids)


def test_an_exception_comes_back_as_the_answer() -> None:
    (worker,) = _start(1)
    worker.send(-3)
    worker.send(4)
    ok, err = worker.receive()
    assert not ok and isinstance(err, ValueError) and str(err) == "negative: -3"
    assert worker.receive() == (True, 8)  # (the worker goes on)
    worker.stop(now=False)


def test_a_pool_hands_each_worker_one_request_at_a_time_and_matches_the_answers() -> None:
    pool = workers.ForkedPool()
    for n in range(5):  # (waiting: no worker yet)
        pool.submit(f"job {n}", n)
    pool.start(_double, 2)
    got = {}
    while pool.busy:
        for job, ok, value in pool.answers():
            assert ok
            got[job] = value
            assert len(pool.idle) <= 2
    pids = [worker.pid for worker in pool.idle]
    pool.close(now=False)
    assert got == {f"job {n}": 2 * n for n in range(5)}
    assert len(pids) == 2 and all(_gone(pid) for pid in pids)


def test_a_pool_reports_a_worker_that_died() -> None:
    pool = workers.ForkedPool()
    pool.start(_double_or_exit, 2)
    started = list(pool.idle)
    pool.submit("fine", 1)
    pool.submit("dies", 0)
    with pytest.raises(WorkerDied, match="exit code 3"):
        while pool.busy:
            pool.answers()
    pool.close(now=True)
    assert not any(worker in workers._running for worker in started)


def _double_or_exit(request: int) -> int:
    if request == 0:
        os._exit(3)
    return 2 * request


class _Unpicklable(Exception):
    def __reduce__(self) -> Any:
        raise TypeError("not this one")


def _raise_unpicklable(request: object) -> None:
    raise _Unpicklable("first line\nsecond")


def test_an_exception_that_cannot_be_pickled_comes_back_as_its_first_line() -> None:
    (worker,) = _start(1, _raise_unpicklable)
    worker.send(None)
    ok, err = worker.receive()
    worker.stop(now=False)
    assert not ok and isinstance(err, RuntimeError)
    assert str(err) == "_Unpicklable: first line"


def _failing_setup() -> None:
    raise OSError("no nets here")


def test_a_failed_setup_is_the_answer_to_every_request() -> None:
    (worker,) = _start(1, setup=_failing_setup)
    worker.send(1)
    worker.send(2)
    answers = [worker.receive() for _ in range(2)]
    worker.stop(now=False)
    for ok, err in answers:
        assert not ok and isinstance(err, OSError) and str(err) == "no nets here"


def _exit(code: int) -> None:
    os._exit(code)


def _in_worker(request: object) -> bool:
    return in_worker()


@pytest.mark.parametrize(("serve", "how"), [(_exit, "exit code 3"), (os.abort, "SIGABRT")])
def test_a_worker_that_dies_raises_worker_died(serve: Any, how: str) -> None:
    (worker,) = _start(1, lambda request: serve(3) if serve is _exit else serve())
    worker.send(None)
    with pytest.raises(WorkerDied, match=how):
        worker.receive()
    assert worker not in workers._running  # (its pipes closed, the process reaped)
    with pytest.raises(OSError):
        os.fstat(worker.answers)
    worker.stop(now=False)  # (nothing left to do)


def test_a_worker_says_it_is_one() -> None:
    (worker,) = _start(1, _in_worker)
    worker.send(None)
    assert worker.receive() == (True, True)
    worker.stop(now=True)


@pytest.mark.parametrize(
    ("worker", "cpu"),
    [
        ((0, 5), 5),  # the first: where the parent ran
        ((1, 5), 1),  # the next ones: the allowed CPUs after it, round
        ((2, 5), 3),
        ((3, 5), None),  # beyond one a CPU: where it runs
        ((0, -1), None),  # the parent's CPU not known (Isolated's worker)
        ((0, 4), None),  # nor allowed
        (None, None),  # not a worker bgkit forked
    ],
)
def test_a_pools_workers_each_have_a_cpu_from_their_parents(
    monkeypatch: pytest.MonkeyPatch, worker: tuple[int, int] | None, cpu: int | None
) -> None:
    monkeypatch.setattr(workers, "_forked_worker", worker)
    assert workers.worker_cpu({5, 1, 3}) == cpu


@pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity: Linux")
def test_a_pools_workers_know_their_number_and_their_parents_cpu() -> None:
    pool = workers.ForkedPool()
    for n in range(2):
        pool.submit(n, n)
    mine = os.sched_getaffinity(0)
    first = workers.current_cpu(mine)
    os.sched_setaffinity(0, {first})  # (so that the parent does not move meanwhile)
    try:
        pool.start(_numbered, 2)
    finally:
        os.sched_setaffinity(0, mine)
    found = {}
    while pool.busy:
        for job, ok, value in pool.answers():
            assert ok, value
            found[job] = value
    pool.close(now=False)
    assert sorted(found.values()) == [(0, first), (1, first)]
    (isolated,) = _start(1, _numbered)
    isolated.send(None)
    assert isolated.receive() == (True, (0, -1))
    isolated.stop(now=True)


def _numbered(request: object) -> tuple[int, int] | None:
    time.sleep(0.2)  # (so that each of a pool's workers answers one request)
    return workers._forked_worker


#: One match analysed at 0-ply in two workers, in a process of its own: the modules of a
#: process pool must not be imported (their import alone was 15-22 ms of such a run).
_ANALYSIS = """
import sys
from pathlib import Path
from bgkit.analysis.match import analyze
from bgkit.formats import read_match
assert analyze(read_match(Path(sys.argv[1])), 0, jobs=2).jobs == 2
print(sorted(m for m in sys.modules if m.startswith(("concurrent", "multiprocessing"))))
"""


#: ``bgkit hint``'s isolated worker (``bgkit.workers.Isolated``), the same.
_ISOLATED = """
import sys
from bgkit.workers import Isolated
with Isolated() as engine:
    assert engine.call(sum, [1, 2]) == 3
print(sorted(m for m in sys.modules if m.startswith(("concurrent", "multiprocessing"))))
"""


@pytest.mark.parametrize("script", [_ANALYSIS, _ISOLATED], ids=["analysis", "isolated"])
def test_a_forked_worker_imports_no_process_pool(script: str) -> None:
    if script is _ANALYSIS:
        pytest.importorskip("gnubg")
    out = subprocess.run(
        [sys.executable, "-c", script, str(SAMPLE)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert out == "[]\n"


def test_an_isolated_call_that_raises_raises_in_the_caller() -> None:
    with Isolated() as engine:
        with pytest.raises(ValueError, match="negative: -1"):
            engine.call(_double, -1)
        assert engine.call(_double, 2) == 4
