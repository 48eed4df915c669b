"""Issue 29, item 4: killing the main process leaves no worker running.

Each command that starts workers (``verify`` and ``analyze`` of a folder, the analysis of
one match, ``hint``) is started on enough work to keep its workers busy, its workers are
found under it (``/proc``), the main process is killed outright (SIGKILL: no clean-up of
its own can run), and every worker must be gone within a few seconds.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from bounded import BGKIT

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample.mat"
OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:{}:0:0:0:7:10"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _ppid(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(text.rpartition(")")[2].split()[1])


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def descendants(root: int) -> set[int]:
    found: set[int] = set()
    frontier = {root}
    while frontier:
        children = {
            int(p)
            for p in os.listdir("/proc")
            if p.isdigit() and _ppid(int(p)) in frontier and int(p) not in found
        }
        found |= children
        frontier = children
    return found


def kill_main_and_check(args: list[str], *, workers: int, cwd: Path) -> None:
    process = subprocess.Popen(
        [*BGKIT, *args],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 30
        found: set[int] = set()
        while len(found) < workers:
            assert process.poll() is None, "the command ended before its workers were seen"
            assert time.monotonic() < deadline, f"no {workers} workers seen: {found}"
            found = descendants(process.pid)
            time.sleep(0.05)
        time.sleep(0.3)  # (at work)
        found |= descendants(process.pid)
        process.kill()
        process.wait()
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in found) and time.monotonic() < deadline:
            time.sleep(0.05)
        left = [pid for pid in found if _alive(pid)]
        assert not left, f"workers left running after the main process was killed: {left}"
    finally:
        if process.poll() is None:
            process.kill()
        for pid in descendants(process.pid):
            os.kill(pid, signal.SIGKILL)


def folder_of_copies(tmp_path: Path, n: int) -> Path:
    folder = tmp_path / "records"
    folder.mkdir()
    for i in range(n):
        shutil.copyfile(SAMPLE, folder / f"m{i:04d}.mat")
    return folder


def test_verify_workers_die_with_the_main_process(tmp_path: Path) -> None:
    folder = folder_of_copies(tmp_path, 1500)  # (600 took 1.6 s: little room on a quiet machine)
    kill_main_and_check(["verify", "-q", "--jobs", "2", str(folder)], workers=2, cwd=tmp_path)


def test_analyze_folder_workers_die_with_the_main_process(tmp_path: Path) -> None:
    pytest.importorskip("gnubg")
    folder = folder_of_copies(tmp_path, 8)
    kill_main_and_check(
        ["analyze", "--plies", "0", "--jobs", "2", str(folder), "--csv", "out.csv"],
        workers=2,
        cwd=tmp_path,
    )


def test_analysis_workers_die_with_the_main_process(tmp_path: Path) -> None:
    pytest.importorskip("gnubg")
    kill_main_and_check(
        ["analyze", "--plies", "2", str(SAMPLE), "--json", "out.json"], workers=2, cwd=tmp_path
    )


def test_the_hint_worker_dies_with_the_main_process(tmp_path: Path) -> None:
    pytest.importorskip("gnubg")
    positions = [OPENING.format(d) for d in ("52", "31", "64", "21", "65", "43")]
    kill_main_and_check(["hint", "--plies", "3", *positions], workers=1, cwd=tmp_path)


def test_a_worker_whose_parent_is_gone_exits() -> None:
    """The race :func:`bgkit.workers.die_with_parent` closes: a parent that died before
    the request was made."""
    script = (
        "import os, sys\n"
        "from bgkit.workers import die_with_parent\n"
        "die_with_parent(os.getppid() + 100000)\n"
        "print('still here')\n"
    )
    ran = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=30)
    assert ran.returncode == 1 and ran.stdout == b""
