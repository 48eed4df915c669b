"""Issue 31: each worker of a pool runs GNU Backgammon's commands on a CPU of its own.

gnubg hands a command's search to a thread of its pool and looks for the answer every
10 ms; with the caller and that thread on one CPU, a short search is done when gnubg
first looks. Workers forked from one parent all start on its CPU: had each kept the CPU
it ran on, two of them could take turns on one CPU while another stayed idle.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bgkit import workers

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"

linux = pytest.mark.skipif(not hasattr(os, "sched_getaffinity"), reason="CPU affinity: Linux")


@linux
def test_a_worker_takes_the_cpu_of_its_number_when_each_can_have_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cpus = sorted(os.sched_getaffinity(0))
    monkeypatch.setattr(workers, "_own_cpu", None)
    assert workers.own_cpu() is None  # (not a worker)
    workers.take_cpu(len(cpus) + 1, len(cpus) + 1)  # (more workers than CPUs)
    assert workers.own_cpu() is None
    for index in range(len(cpus)):
        workers.take_cpu(index, len(cpus))
        assert workers.own_cpu() == cpus[index]


#: In a worker with a CPU of its own (the last one), gnubg's 0-ply commands run there,
#: with its threads, not where the worker runs (the first CPU, here); deeper ones with
#: all free (kept there, a candidate list of test_split_analysis.py was no longer
#: gnubg's); the caller's own CPU set is as it was after each.
_OWN_CPU = """
import os
import gnubg
from bgkit import workers
from bgkit.analysis.gnubg import GnubgEvaluator, _session
from bgkit.position import Position
mine = os.sched_getaffinity(0)
own = sorted(mine)[-1]
workers.take_cpu(len(mine) - 1, len(mine))
assert workers.own_cpu() == own
from bgkit.analysis import gnubg_process
gnubg_process._current_cpu = min  # (where the caller would run: not its own CPU)
on_bar = [0] * 5 + [5, 0, 3, 0, 0, 0, 2, 4] + [0] * 11 + [1]
closed = [2] * 6 + [0, 3] + [0] * 17
pos = Position.from_layout(on_bar, closed, match_length=5, turn=1)
ev = GnubgEvaluator()
ev.evaluate(pos)
session = _session()
assert len(session.threads) == 2, session.threads
seen = []
command = gnubg.command
def watching(text):
    seen.append((text, [os.sched_getaffinity(t) for t in (0, *session.threads)]))
    return command(text)
gnubg.command = watching
ev.clear_cache()
ev.evaluate(pos)
ev.evaluate(pos, plies=1)
gnubg.command = command
evals = [cpus for text, cpus in seen if text == "eval"]
assert len(evals) == 2 and evals[0] == [{own}] * 3, seen  # 0-ply
assert evals[1] == [mine] * 3, seen  # 1-ply: free
assert all(os.sched_getaffinity(t) == mine for t in (0, *session.threads))
"""


@linux
def test_a_worker_with_a_cpu_of_its_own_runs_short_commands_there() -> None:
    pytest.importorskip("gnubg")
    subprocess.run([sys.executable, "-c", _OWN_CPU], check=True)


#: The analysis of sys.argv[2] (``match``: one match at 0-ply with two workers) or a
#: batch verifying it sys.argv[3] times with two workers forked (``batch``), in a
#: process of its own (with gnubg loaded, as other tests leave it, workers are not
#: forked); each worker writes the number it took, and the count, in one line.
_NUMBERS = """
import os, sys
from pathlib import Path
def record(index, count):
    os.write(1, f"{index} {count}\\n".encode())
if sys.argv[1] == "match":
    from bgkit.analysis import tasks
    from bgkit.analysis.match import analyze
    from bgkit.formats import read_match
    tasks.take_cpu = record
    assert analyze(read_match(Path(sys.argv[2])), 0, jobs=2).jobs == 2
else:
    from bgkit import batch
    from bgkit.batch import run
    run.take_cpu = record
    files = [Path(sys.argv[2])] * int(sys.argv[3])
    assert len(list(batch.stream_files(batch.verify_rows, files, jobs=2))) == len(files)
"""


@pytest.mark.parametrize("pool", ["match", "batch"])
def test_the_workers_of_a_pool_take_one_number_each(pool: str) -> None:
    if pool == "match":
        pytest.importorskip("gnubg")
    out = subprocess.run(
        [sys.executable, "-c", _NUMBERS, pool, str(SAMPLE), "40"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert sorted(out.split("\n")[:-1]) == ["0 2", "1 2"]
