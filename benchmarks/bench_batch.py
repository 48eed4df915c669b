"""Throughput and memory of ``bgkit.batch``: files/s with 1 and 2 processes, peak memory.

Usage: python benchmarks/bench_batch.py [--files 400] [--repeat 2] [--sizes 50,100,200,400]

The records are self-play matches that GNU Backgammon writes into
``benchmarks/.cache/selfplay`` on first use (3-point matches, as for
``bench_verify.py``). Throughput: :func:`bgkit.batch.verify_files` on ``--files`` of
them with ``jobs=1`` (this process) and ``jobs=2`` (two worker processes), best of
``--repeat`` runs. Memory: for each size, a fresh Python process verifies that many
files and reports its peak resident set (``ru_maxrss``) and the peak of Python
allocations (``tracemalloc``) with ``jobs=1``, where all the work happens in the one
process; then, in another fresh process, the resident peaks of the parent and of the
largest worker with ``jobs=2``. For comparison, the last column is what holding the
``Match`` objects of the same files would take. Run from the repository root.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

from make_selfplay import cached_selfplay  # (benchmarks/ is the script's folder)

ROOT = Path(__file__).resolve().parent.parent


def throughput(files: list[Path], jobs: int, repeat: int) -> float:
    """Best files/s of ``repeat`` runs of ``verify_files(files, jobs=jobs)``."""
    from bgkit.batch import verify_files

    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        df = verify_files(files, jobs=jobs, progress=False)
        took = time.perf_counter() - start
        assert df["file"].nunique() == len(files) and bool(df["ok"].all())
        best = max(best, len(files) / took)
    return best


def _mib(kib: int) -> float:
    return kib / 1024  # ru_maxrss is in KiB on Linux


def measure(count: int, jobs: int) -> dict[str, float]:
    """In this (fresh) process: peaks while verifying ``count`` files (see the module doc)."""
    from bgkit.batch import verify_files
    from bgkit.formats import read_match

    files = cached_selfplay(count)
    verify_files(files[:2], jobs=1, progress=False)  # imports, grammar: not per file
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if jobs == 1:
        tracemalloc.start()
    df = verify_files(files, jobs=jobs, progress=False)
    assert df["file"].nunique() == count
    out = {
        "rss": _mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss),
        "growth": _mib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base),
        "worker": _mib(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss),
    }
    if jobs == 1:
        out["traced"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        tracemalloc.start()
        matches = [read_match(f) for f in files]  # what a batch must not do
        out["held"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        del matches
    return out


def _child(count: int, jobs: int) -> dict[str, float]:
    child = subprocess.run(
        [sys.executable, __file__, "--measure", str(count), "--jobs", str(jobs)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    result: dict[str, float] = json.loads(child.stdout.splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--sizes", default="50,100,200,400")
    ap.add_argument("--measure", type=int, help=argparse.SUPPRESS)  # in a child process
    ap.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.jobs)))
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    files = cached_selfplay(max(args.files, *sizes))
    bench = files[: args.files]
    throughput(bench[:10], 1, 1)  # build the grammar once before timing
    one = throughput(bench, 1, args.repeat)
    two = throughput(bench, 2, args.repeat)
    print(f"verify_files on {len(bench)} self-play 3-point matches (best of {args.repeat}):")
    print(f"  jobs=1: {one:6.1f} files/s")
    print(f"  jobs=2: {two:6.1f} files/s")
    print(f"  scaling jobs=2 / jobs=1: {two / one:.2f}x")
    print()
    print("peak memory, MiB (each line: fresh processes)")
    print(
        "  files | jobs=1: RSS  growth  traced Python | jobs=2: parent RSS  worker RSS"
        " | Match objects held"
    )
    for count in sizes:
        one_m, two_m = _child(count, 1), _child(count, 2)
        print(
            f"  {count:5d} | {one_m['rss']:11.1f}  {one_m['growth']:+6.1f}"
            f"  {one_m['traced']:13.2f} | {two_m['rss']:18.1f}  {two_m['worker']:10.1f}"
            f" | {one_m['held']:18.1f}"
        )


if __name__ == "__main__":
    main()
