"""Legal-play generation: bgkit against GNU Backgammon's generator (gnubg_nn.moves).

Both generate every distinct legal play for the same positions (from seeded random
games, see ``tests/gnubg_oracle.py``) and all 21 rolls. Printed: microseconds per
(position, roll), best of ``--repeat`` runs, overall and for doubles / non-doubles,
and the ratio bgkit / gnubg. ``--profile`` adds a cProfile of bgkit's run.

    python benchmarks/bench_movegen.py [--positions 3000] [--repeat 3] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import gnubg_nn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from gnubg_oracle import ROLLS, random_positions

from bgkit import Position

Job = Callable[[], None]


def bgkit_job(positions: Sequence[Position], rolls: Sequence[tuple[int, int]]) -> Job:
    def run() -> None:
        for pos in positions:
            for d1, d2 in rolls:
                pos.legal_results(d1, d2)

    return run


def gnubg_job(boards: Sequence[list[list[int]]], rolls: Sequence[tuple[int, int]]) -> Job:
    moves = gnubg_nn.moves

    def run() -> None:
        for board in boards:
            for d1, d2 in rolls:
                moves(board, d1, d2)

    return run


def best_time(job: Job, repeat: int) -> float:
    """The fastest of ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return min(times)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=3000, help="positions (default 3000)")
    parser.add_argument("--seed", type=int, default=1, help="random-game seed (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (default 3)")
    parser.add_argument("--profile", action="store_true", help="cProfile bgkit's run")
    args = parser.parse_args(argv)

    sample = random_positions(args.positions, args.seed)
    positions = [gp.position() for gp in sample]
    boards = [[list(gp.board[0]), list(gp.board[1])] for gp in sample]
    doubles = [r for r in ROLLS if r[0] == r[1]]
    others = [r for r in ROLLS if r[0] != r[1]]

    print(f"{len(sample)} positions from random games (seed {args.seed}), best of {args.repeat}")
    print(f"{'rolls':<12} {'bgkit µs':>10} {'gnubg µs':>10} {'ratio':>7}")
    means: dict[str, tuple[float, float]] = {}
    for label, rolls in (("all 21", ROLLS), ("6 doubles", doubles), ("15 others", others)):
        calls = len(sample) * len(rolls)
        ours = best_time(bgkit_job(positions, rolls), args.repeat) / calls * 1e6
        theirs = best_time(gnubg_job(boards, rolls), args.repeat) / calls * 1e6
        means[label] = (ours, theirs)
        print(f"{label:<12} {ours:>10.1f} {theirs:>10.1f} {ours / theirs:>7.1f}")
    # as rolled: a double comes 1 time in 36, each other roll 2 times in 36
    ours, theirs = (
        (6 * d + 30 * o) / 36 for d, o in zip(means["6 doubles"], means["15 others"], strict=True)
    )
    print(f"{'as rolled':<12} {ours:>10.1f} {theirs:>10.1f} {ours / theirs:>7.1f}")

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(bgkit_job(positions, ROLLS))
        pstats.Stats(profiler).sort_stats("tottime").print_stats(12)


if __name__ == "__main__":
    main()
