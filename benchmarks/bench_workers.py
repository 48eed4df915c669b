"""How long an analysis worker takes to start, forked or spawned (issue 31).

Usage: python benchmarks/bench_workers.py [--repeat 3]

The analysis's workers (:mod:`bgkit.analysis.tasks`) are forked once GNU Backgammon's
module is imported (its nets loaded), with the tasks in memory. Printed per start
method of :mod:`multiprocessing` (``fork``, ``spawn``, ``forkserver``): the seconds
from creating a pool of two workers to the first answer (a 0-ply task), to both
answers and the pool shut down, and the CPU seconds of the workers (``forkserver``'s
are its server's, not this process's children: not counted).
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from bgkit.analysis import tasks
from bgkit.position import Position


def start(method: str, work: list[tasks.Task]) -> tuple[float, float, float]:
    """(first answer, all answers and shut down, the workers' CPU) for two workers."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    begun = time.perf_counter()
    with ProcessPoolExecutor(
        max_workers=2,
        mp_context=multiprocessing.get_context(method),
        initializer=tasks._worker_start,
        initargs=(work, None, None),
    ) as pool:
        futures = [pool.submit(tasks._worker_run, 0, 1) for _ in range(2)]
        futures[0].result()
        first = time.perf_counter() - begun
        futures[1].result()
    done = time.perf_counter() - begun
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return first, done, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per method; the fastest counts")
    args = parser.parse_args(argv)
    tasks._preload()  # (gnubg imported before forking, as the analysis does)
    work = [tasks.Task(Position.initial(match_length=3), (3, 1), None, False, True, 0, first=True)]
    print("two analysis workers: first answer, both answers and shut down, their CPU")
    for method in ("fork", "spawn", "forkserver"):
        if method not in multiprocessing.get_all_start_methods():
            continue
        runs = [start(method, work) for _ in range(args.repeat)]
        first, done, cpu = (min(run[k] for run in runs) for k in range(3))
        print(f"  {method:<10} {first:6.3f} s  {done:6.3f} s  CPU {cpu:6.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
