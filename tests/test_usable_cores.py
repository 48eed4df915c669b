"""``bgkit.workers.usable_cores``: how many workers bgkit runs by default.

``os.cpu_count()`` counts the machine's CPUs. In a container on a large host (a cpuset,
``docker --cpus``, a Kubernetes CPU limit) or under ``taskset``, bgkit would fork a
worker per CPU of the host onto the few it may use: measured on two CPUs, 16 workers
made a 0-ply analysis of the 25-point match 1.16x slower and a 2-ply one of
``selfplay_0003`` 1.31x (issue 31). Every default (a match's analysis, its early
workers, a batch) counts the CPUs the process's affinity and its cgroups' quota allow.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bgkit import workers
from bgkit.analysis import tasks
from bgkit.batch import run as batch_run
from bgkit.workers import cgroup_cpu_limit, usable_cores


def _tree(tmp_path: Path, membership: str, files: dict[str, str]) -> tuple[Path, Path]:
    root = tmp_path / "cgroup"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    root.mkdir(exist_ok=True)
    (tmp_path / "membership").write_text(membership)
    return root, tmp_path / "membership"


@pytest.mark.parametrize(
    ("membership", "files", "limit"),
    [
        # cgroup v2: the process's cgroup has no quota, the one above it 1.5 CPUs
        ("0::/kubepods/pod1\n", {"kubepods/cpu.max": "150000 100000\n",
                                 "kubepods/pod1/cpu.max": "max 100000\n"}, 2),
        # v2, the lowest quota on the way up counts
        ("0::/a/b\n", {"cpu.max": "400000 100000", "a/b/cpu.max": "100000 100000"}, 1),
        # v2 in a container: its own cgroup at the root, whatever the path says
        ("0::/docker/abc\n", {"cpu.max": "200000 100000\n"}, 2),
        # v2 without a quota anywhere
        ("0::/user.slice\n", {"cpu.max": "max 100000\n", "user.slice/cpu.max": "max 100000"},
         None),
        # cgroup v1, cpu and cpuacct mounted together
        ("12:memory:/x\n4:cpu,cpuacct:/docker/abc\n",
         {"cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "50000\n",
          "cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n"}, 1),
        # v1 without a quota (-1), as on the machine these tests were written on
        ("1:cpu:/\n", {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"},
         None),
        # unreadable or odd contents are no quota; a path cannot leave the root
        ("0::/a\n", {"a/cpu.max": "lots 100000"}, None),
        ("0::/../../etc\n", {"cpu.max": "300000 100000"}, 3),
        ("not a cgroup line\n", {"cpu.max": "100000 100000"}, None),
    ],
)  # fmt: skip
def test_a_cgroup_quota_is_read_as_whole_cpus(
    tmp_path: Path, membership: str, files: dict[str, str], limit: int | None
) -> None:
    root, member = _tree(tmp_path, membership, files)
    assert cgroup_cpu_limit(root, member) == limit


def test_no_cgroup_file_is_no_quota(tmp_path: Path) -> None:
    assert cgroup_cpu_limit(tmp_path, tmp_path / "missing") is None


def test_a_quota_caps_every_default_number_of_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers, "cgroup_cpu_limit", lambda: 1)
    # (as in a process that may fork: one of this test run's may have started gnubg)
    monkeypatch.setattr(tasks, "can_fork", lambda: True)
    assert usable_cores() == 1
    assert tasks.plan_jobs(None, 10_000, None) == 1
    assert tasks.plan_jobs(None, 10_000, None, plies=2) == 1
    assert batch_run._default_jobs(10_000) == 1
    monkeypatch.setattr(workers, "cgroup_cpu_limit", lambda: None)
    assert usable_cores() == len(os.sched_getaffinity(0))


@pytest.mark.parametrize(("cores", "at_0_ply", "deeper"), [(1, 1, 1), (2, 2, 3), (8, 8, 9)])
def test_a_deeper_analysis_of_games_forks_one_worker_more_than_cores(
    monkeypatch: pytest.MonkeyPatch, cores: int, at_0_ply: int, deeper: int
) -> None:
    """Deeper than 0-ply each worker waits on gnubg's commands (tasks.DEEP_EXTRA_JOBS):
    one more worker keeps two or more cores busy when it can take whole games; on one
    core, or for one game (cut inside it), it gained nothing."""
    monkeypatch.setattr(tasks, "usable_cores", lambda: cores)
    monkeypatch.setattr(tasks, "can_fork", lambda: True)
    assert tasks.plan_jobs(None, 10_000, None, games=5) == at_0_ply
    assert tasks.plan_jobs(None, 10_000, None, plies=1, games=2) == deeper
    assert tasks.plan_jobs(None, 10_000, None, plies=2, games=5) == deeper
    assert tasks.plan_jobs(None, 10_000, None, plies=2) == cores  # (one game)
    assert tasks.plan_jobs(cores, 10_000, None, plies=2, games=5) == cores  # (as told)
    assert tasks.plan_jobs(None, 8, None, plies=2, games=2) == min(deeper, 2)  # (short)
