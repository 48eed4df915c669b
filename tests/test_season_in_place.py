"""A season's worker analyses its matches in place, with the figures of a process per match.

Issue 31: a season's worker used to start one more process per match (``analyze(match,
jobs=1)`` forked a worker of its own), loading GNU Backgammon each time. It now analyses
each match in its own process, gnubg loaded once. The figures must not change: each
match is compared, whole rows, with the same match analysed alone in a fresh process
(spawned: nothing of this test process in it), at 0-ply and at 2-ply (where gnubg's
cache would carry a deeper search from one match into the next if the analysis did not
start each game from empty caches). A Dask cluster gives the same rows as local workers.
"""

from __future__ import annotations

import functools
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gnubg")
pd = pytest.importorskip("pandas")

from bgkit import batch  # noqa: E402
from bgkit.analysis.tasks import plan_jobs  # noqa: E402
from bgkit.batch import output  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SELFPLAY = ROOT / "data" / "selfplay"
# the shortest self-play records (38-52 lines): seconds at 2-ply
SHORT = [SELFPLAY / f"selfplay_{n:04d}.mat" for n in (21, 4, 1)]


def _rows(path: Path, plies: int) -> list[dict[str, object]]:
    return batch.analyze_rows(path, plies=plies)


def _one_after_another(paths: list[Path], plies: int) -> list[list[dict[str, object]]]:
    return [_rows(path, plies) for path in paths]


def _frame(paths: list[Path], found: list[list[dict[str, object]]]) -> Any:
    rows = [
        {"file": str(path), **row}
        for path, match_rows in zip(paths, found, strict=True)
        for row in match_rows
    ]
    return output._frame(rows, output._dtypes(batch.analysis_columns()))


def _spawned(max_tasks_per_child: int | None = None) -> ProcessPoolExecutor:
    """A new process (spawned: nothing of this test process in it), as a season's worker
    is one (:func:`bgkit.workers.in_worker`)."""
    return ProcessPoolExecutor(
        1, mp_context=multiprocessing.get_context("spawn"), max_tasks_per_child=max_tasks_per_child
    )


def _a_process_per_match(paths: list[Path], plies: int) -> Any:
    """What a season did before: each match analysed alone in a process of its own."""
    with _spawned(max_tasks_per_child=1) as pool:
        found = list(pool.map(functools.partial(_rows, plies=plies), paths))
    return _frame(paths, found)


def _in_one_worker(paths: list[Path], plies: int) -> Any:
    """What a season's worker does now: every match in turn, in the worker's process."""
    with _spawned() as pool:
        found = pool.submit(_one_after_another, paths, plies).result()
    return _frame(paths, found)


def _worker_plan() -> int:
    return plan_jobs(1, 1000, None, 0)


def test_a_season_worker_analyses_in_its_own_process() -> None:
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=context) as pool:
        assert pool.submit(_worker_plan).result() == 0  # in place: no process of its own
    # this process is no worker: jobs=1 still forks one, when it can (keeps gnubg's
    # threads out of a program's own process); when it cannot, it analyses here
    from bgkit.analysis.tasks import can_fork

    assert plan_jobs(1, 1000, None, 0) == (1 if can_fork() else 0)


@pytest.mark.parametrize("plies", [0, 2])
def test_in_place_gives_the_figures_of_a_process_per_match(plies: int) -> None:
    # at 2-ply, the match after another (what the first's searches left in gnubg's
    # cache would change its figures) against that match alone: seconds, not a minute
    paths = SHORT if plies == 0 else [SHORT[1], SHORT[0]]
    in_place = _in_one_worker(paths, plies)
    assert in_place["kind"].isna().all()
    assert len(in_place) == 2 * len(paths)
    compared = paths if plies == 0 else paths[1:]
    in_place = in_place[in_place["file"].isin([str(p) for p in compared])]
    pd.testing.assert_frame_equal(
        in_place.reset_index(drop=True),
        _a_process_per_match(compared, plies),
        check_exact=True,
    )


def _cache_after(plies: int) -> int:
    from bgkit.analysis.gnubg import _Table

    # (with another table than gnubg's default: bgkit's analysis, not gnubg's own)
    batch.analyze_rows(SHORT[1], plies=plies, met="woolsey")
    return _Table.entries


def test_a_season_worker_analyses_at_0_ply_with_a_workers_small_cache() -> None:
    """Match after match, at 0-ply: gnubg's cache as each of several workers has it, which
    answers faster; deeper searches keep gnubg's default (issue 31). (bgkit's own
    analysis: where gnubg's stands for it, see test_season_by_gnubg.py.)"""
    from bgkit.analysis.gnubg import CACHE_SIZE
    from bgkit.analysis.tasks import WORKER_CACHE

    with _spawned() as pool:
        assert pool.submit(_cache_after, 0).result() == WORKER_CACHE
        assert pool.submit(_cache_after, 2).result() == CACHE_SIZE


def test_a_season_run_gives_the_same_rows() -> None:
    pooled = batch.analyze_files(SHORT, 0, jobs=2, progress=False)
    expected = _in_one_worker(SHORT, 0)
    pd.testing.assert_frame_equal(
        pooled.drop(columns=["size", "mtime_ns"]),
        expected.drop(columns=["size", "mtime_ns"]),
        check_exact=True,
    )


def test_a_dask_cluster_gives_the_rows_of_local_workers() -> None:
    distributed = pytest.importorskip("distributed")
    paths = SHORT
    local = batch.analyze_files(paths, 0, jobs=2, progress=False)
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            # a free port: None still binds 8787, which another test module may hold
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = batch.analyze_files(paths, 0, client=client, progress=False)
    pd.testing.assert_frame_equal(on_dask, local, check_exact=True)
