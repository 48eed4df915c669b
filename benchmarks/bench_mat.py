""".mat reading: bgkit (``read_mat``) against GNU Backgammon's ``import mat``, same files, same run.

Both read every file under ``data/real/mat`` (87 records from 9 writers) from disk,
``--repeat`` times; the round with the least CPU time counts (both readers are
single-threaded; CPU time keeps the figures steady on a busy machine). Printed: CPU
seconds per round, records per second
(a record is one roll, cube action or ``Wins`` line, counted from bgkit's reading, so both
sides share the denominator), files per second, and the ratio gnubg / bgkit.

gnubg does more per record than bgkit: it also replays every play against its rules
(bgkit leaves that to the verifier); bgkit builds a full parse tree and typed records.

    python benchmarks/bench_mat.py [--repeat 5] [--profile]
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from importlib import metadata
from pathlib import Path

from bgkit._grammars import parser
from bgkit.formats.mat import read_mat

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "data" / "real" / "mat"


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Silence C-level writes to file descriptor 1 (gnubg prints a board per import)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(os.devnull, "wb") as null:
        os.dup2(null.fileno(), 1)
        try:
            yield
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)


def best_of(repeat: int, job: Callable[[], None]) -> float:
    """The fewest CPU seconds of ``repeat`` runs (CPU time: robust to a busy machine)."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        job()
        times.append(time.process_time() - start)
    return min(times)


def bgkit_job(paths: Sequence[Path]) -> Callable[[], None]:
    def run() -> None:
        for path in paths:
            read_mat(path)

    return run


def gnubg_job(paths: Sequence[Path]) -> Callable[[], None]:
    import gnubg

    for command in ("set display off", "set sound enable off", "set threads 1"):
        gnubg.command(command)
    commands = [f"import mat {path}" for path in paths]

    def run() -> None:
        with quiet_stdout():
            for command in commands:
                gnubg.command(command)

    return run


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="rounds per reader (best counts)")
    ap.add_argument("--profile", action="store_true", help="profile one bgkit round")
    args = ap.parse_args(argv)

    paths = sorted(CORPUS.iterdir())
    matches = [read_mat(p) for p in paths]  # also builds the grammar, outside the timing
    records = sum(len(g.actions) + (g.result is not None) for m in matches for g in m.games)
    size = sum(p.stat().st_size for p in paths)
    print(f"corpus: {len(paths)} files, {size / 1e6:.2f} MB, {records} records")
    print(
        f"python {sys.version.split()[0]}, lark {metadata.version('lark')}, "
        f"gnubg {metadata.version('gnubg')}, best of {args.repeat}"
    )

    start = time.perf_counter()
    parser.cache_clear()
    parser("mat")
    print(f"bgkit grammar build: {time.perf_counter() - start:.3f} s (once per process)")

    results = {}
    for name, job in (("bgkit", bgkit_job(paths)), ("gnubg", gnubg_job(paths))):
        seconds = best_of(args.repeat, job)
        results[name] = seconds
        print(
            f"{name:6s} {seconds:8.3f} CPU s/round  {records / seconds:10.0f} records/s"
            f"  {len(paths) / seconds:8.1f} files/s"
        )
    print(f"gnubg / bgkit throughput: {results['bgkit'] / results['gnubg']:.1f}x")

    if args.profile:
        profile = cProfile.Profile()
        profile.runcall(bgkit_job(paths))
        pstats.Stats(profile).sort_stats("tottime").print_stats(12)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
