"""``bgkit.analysis.tasks.early_workers``: ``bgkit analyze`` forks the workers of a 0-ply
analysis before it reads the record, so that GNU Backgammon starts its thread pool in
each (up to 26 ms beside a busy process) while the record is read (issue 31).

The analysis takes those workers and forks none of its own; they give the figures the
analysis gives without them; workers it cannot use (another match equity table, fewer
jobs, no analysis at all) stop, and none is left behind. Each check runs in a fresh
process: a test process that ran gnubg's commands itself may not fork workers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bgkit.workers import usable_cores

pytest.importorskip("gnubg")
pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")

ROOT = Path(__file__).resolve().parent.parent

_PRELUDE = """
import json, os, sys
from bgkit import workers
from bgkit.analysis import tasks
from bgkit.analysis.match import analyze
from bgkit.formats import read_match

forks = []
_start = workers.Forked.start
def counted(*args, **kwargs):
    forks.append(1)
    return _start(*args, **kwargs)
workers.Forked.start = counted

KEYS = ("luck_emg", "error_emg", "equity_best", "equity_played", "cube_error_emg")
def figures(result):
    return [(r["action"], *(r.get(key) for key in KEYS)) for r in result.rows]

def largest_gap(one, other):
    gaps = [abs(a - b) for x, y in zip(figures(one), figures(other), strict=True)
            for a, b in zip(x[1:], y[1:]) if a is not None or b is not None]
    assert [x[0] for x in figures(one)] == [y[0] for y in figures(other)]
    return max(gaps)

def reaped(pids):
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return True
"""


def _run(body: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", _PRELUDE + body],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    facts: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return facts


def _command(args: list[str], *, before: str = "", report: str = "") -> dict[str, Any]:
    """``bgkit ARGS`` in a fresh process, after the code ``before``: its exit code, the
    workers it forked and those still running, and ``report`` (``"key": value, ...``)."""
    return _run(f"""
{before}
from bgkit.cli import main
sys.argv = ["bgkit", *{args!r}]
code = None
try:
    main()
except SystemExit as exit:
    code = exit.code
print(json.dumps({{"forks": len(forks), "code": code, "left": len(workers._running),
                  {report}}}))
""")


def test_the_analysis_takes_the_early_workers_and_gives_its_figures() -> None:
    facts = _run("""
match = read_match("data/sample.mat")
with tasks.early_workers(2, None):
    early = [w.pid for w in tasks._early[0].idle]
    forked_early = len(forks)
    with_them = analyze(match, 0, jobs=2, progress=False)
    taken = tasks._early is None
    forked_then = len(forks) - forked_early
left = len(workers._running)
without = analyze(match, 0, jobs=2, progress=False)
print(json.dumps({"forked_early": forked_early, "forked_then": forked_then, "taken": taken,
                  "left": left, "reaped": reaped(early), "jobs": with_them.jobs,
                  "gap": largest_gap(with_them, without)}))
""")
    assert facts["forked_early"] == 2 and facts["taken"]
    assert facts["forked_then"] == 0  # (the analysis forked no worker of its own)
    assert facts["jobs"] == 2
    assert facts["left"] == 0 and facts["reaped"]
    # (two workers' figures vary in their last bits from run to run, early or not)
    assert facts["gap"] <= 1e-5


def test_early_workers_the_analysis_cannot_use_stop() -> None:
    facts = _run("""
short = read_match("data/fixtures/handwritten_3pt.mat")  # 14 actions: one job
alone = analyze(short, 0, jobs=1, progress=False)
with tasks.early_workers(2, None):
    early = [w.pid for w in tasks._early[0].idle]
    forked = len(forks)
    fewer = analyze(short, 0, jobs=2, progress=False)
    fewer_forked = len(forks) - forked
fewer_reaped = reaped(early)
with tasks.early_workers(2, "Rockwell-Kazaross"):
    early = [w.pid for w in tasks._early[0].idle]
    forked = len(forks)
    other = analyze(short, 0, jobs=2, progress=False)
    other_forked = len(forks) - forked
other_reaped = reaped(early)
try:
    with tasks.early_workers(2, None):
        early = [w.pid for w in tasks._early[0].idle]
        raise ValueError("the record cannot be read")
except ValueError:
    pass
print(json.dumps({
    "fewer_jobs": fewer.jobs, "fewer_forked": fewer_forked, "fewer_reaped": fewer_reaped,
    "same_as_one_process": figures(fewer) == figures(alone),
    "other_forked": other_forked, "other_reaped": other_reaped,
    "failed_reaped": reaped(early), "left": len(workers._running),
    "early": tasks._early is not None,
}))
""")
    # fewer jobs than forked: one is kept, the other stops; one worker's figures are one
    # gnubg session's, bit for bit, with gnubg's default cache as without early workers
    assert facts["fewer_jobs"] == 1 and facts["fewer_forked"] == 0
    assert facts["same_as_one_process"] and facts["fewer_reaped"]
    # started with another table: stopped, and the analysis forks its own
    assert facts["other_forked"] == 1 and facts["other_reaped"]
    # no analysis at all (the record could not be read): stopped with the block
    assert facts["failed_reaped"] and facts["left"] == 0 and not facts["early"]


#: Each reading of a record noted, with the workers forked by then.
_READS_NOTED = """
import bgkit.formats as formats
order = []
_read = formats.read_match
def read(*args, **kwargs):
    order.append(("read", len(forks)))
    return _read(*args, **kwargs)
formats.read_match = read
"""


def test_bgkit_analyze_at_0_ply_forks_before_reading(tmp_path: Path) -> None:
    """The command's own order: the workers are forked before the record is opened."""
    out = str(tmp_path / "out.json")
    args = ["analyze", "data/sample.mat", "--plies", "0", "--json", out]
    facts = _command(args, before=_READS_NOTED, report='"order": order')
    assert facts["code"] in (0, None)
    # (one early worker per core by default, as many as a file of its 7,795 bytes could
    # keep busy: 27; the analysis keeps those its 303 actions need, at most 12, and
    # stops the rest)
    early = min(usable_cores(), 27)
    assert facts["order"] == [["read", early]] and facts["forks"] == early
    written = json.loads((tmp_path / "out.json").read_text())
    assert written["settings"]["checker_plies"] == 0 and len(written["moves"]) > 250


def test_a_short_record_forks_no_more_early_workers_than_its_size_can_use(
    tmp_path: Path,
) -> None:
    """On a machine of many cores (here: ``--jobs 16``), a record of 2,136 bytes forks
    at most 2,136 // 12 // 24 = 7 early workers, not one per core, and still enough that
    the analysis (86 actions: 3 workers) forks none of its own."""
    out = str(tmp_path / "out.json")
    facts = _command(["analyze", "data/selfplay/selfplay_0001.mat", "--plies", "0",
                      "--jobs", "16", "--json", out])  # fmt: skip
    assert facts["code"] in (0, None) and facts["left"] == 0
    assert facts["forks"] == 7  # (7 + 3 had the analysis not taken them)
    written = json.loads((tmp_path / "out.json").read_text())
    assert len(written["moves"]) == 86


@pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="needs two CPUs to leave one out",
)
def test_bgkit_analyze_on_one_allowed_cpu_forks_one_worker(tmp_path: Path) -> None:
    """As under ``taskset -c N``: one early worker, not one per CPU of the machine
    (:func:`bgkit.workers.usable_cores`), and the whole analysis from it."""
    out = str(tmp_path / "out.json")
    facts = _command(
        ["analyze", "data/sample.mat", "--plies", "0", "--json", out],
        before="os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})",
        report='"cores": workers.usable_cores(), "machine": os.cpu_count()',
    )
    assert facts["code"] in (0, None) and facts["cores"] == 1 and facts["machine"] >= 2
    assert facts["forks"] == 1 and facts["left"] == 0
    written = json.loads((tmp_path / "out.json").read_text())
    assert len(written["moves"]) > 250


def test_an_early_worker_takes_the_cache_its_analysis_wants() -> None:
    """Forked for two jobs, a worker starts with the cache of several workers; when the
    analysis uses one, its tasks come with gnubg's default cache, as one worker's."""
    facts = _run("""
import pickle
from bgkit.analysis.gnubg import CACHE_SIZE, _Table
tasks._worker_start((), tasks.WORKER_CACHE, None, early=True)  # (as in the worker)
started = _Table.entries
tasks._load(pickle.dumps([]), None)
print(json.dumps({"started": started, "then": _Table.entries, "default": CACHE_SIZE,
                  "tasks": list(tasks._worker_tasks)}))
""")
    assert facts["started"] == 1 << 16 and facts["then"] == facts["default"] == 1 << 19
    assert facts["tasks"] == []
