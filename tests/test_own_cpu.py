"""Issue 31: each worker of a pool runs GNU Backgammon's short commands on a CPU of its
own (that they run there: ``test_evaluator.py``).

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


#: The analysis of sys.argv[2] (``match``: one match at 0-ply with two workers) or a
#: batch verifying it sys.argv[3] times with two workers forked (``batch``), in a
#: process of its own (with gnubg loaded, as other tests leave it, workers are not
#: forked); each worker writes the number it took, and the count, in one line.
_NUMBERS = """
import os, sys
from pathlib import Path
def record(index, count):
    os.write(1, f"{index} {count}\\n".encode())
from bgkit import workers
workers.take_cpu = record
if sys.argv[1] == "match":
    from bgkit.analysis.match import analyze
    from bgkit.formats import read_match
    assert analyze(read_match(Path(sys.argv[2])), 0, jobs=2).jobs == 2
else:
    from bgkit import batch
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
