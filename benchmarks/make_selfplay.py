"""Let GNU Backgammon (PyPI ``gnubg``) play matches against itself and export them.

Usage: python benchmarks/make_selfplay.py OUTDIR COUNT [--length N] [--seed S] [--noise X]

Writes ``OUTDIR/selfplay_<seed>.mat`` and ``.sgf`` for COUNT consecutive seeds.
These records are written by gnubg, so they are the independent test of
bgkit's reader and verifier: every one must verify with zero issues.
Recipe and traps: ../shared/specs/gnubg-python.md (display off, sound off,
threads 1 before anything else; names set after ``new match``).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

CACHE = Path(__file__).resolve().parent / ".cache" / "selfplay"
"""Where the benchmarks keep the 3-point matches :func:`cached_selfplay` has gnubg write
(matches of another length go to ``selfplay<length>`` beside it)."""


def cached_selfplay(count: int, length: int = 3, processes: int = 8) -> list[Path]:
    """``count`` self-play ``length``-point ``.mat`` files from :data:`CACHE` (3 points) or
    ``CACHE``'s sibling ``selfplay<length>``, generated with gnubg (this script, in
    ``processes`` processes of its own) when the cache has fewer. Self-play spends most of
    its time waiting on gnubg's thread pool (which looks for an answer every 10 ms), not
    on a core, so several processes write them faster without loading the machine."""
    folder = CACHE if length == 3 else CACHE.with_name(f"selfplay{length}")
    have = len(list(folder.glob("*.mat"))) if folder.exists() else 0
    if have < count:
        print(f"generating {count - have} {length}-point self-play matches with gnubg ...",
              file=sys.stderr)  # fmt: skip
        todo = count - have
        share = -(-todo // processes)
        children = []
        for first in range(0, todo, share):
            n = min(share, todo - first)
            children.append(
                subprocess.Popen(
                    [sys.executable, __file__, str(folder), str(n), "--length", str(length),
                     "--seed", str(1000 + have + first)],
                    stdout=subprocess.DEVNULL,
                )
            )  # fmt: skip
        if any(child.wait() for child in children):
            raise RuntimeError(f"gnubg could not write the self-play matches into {folder}")
    return sorted(folder.glob("*.mat"))[:count]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("outdir")
    ap.add_argument("count", type=int)
    ap.add_argument("--length", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--noise", type=float, default=0.05)
    args = ap.parse_args()

    import gnubg

    for command in ("set display off", "set sound enable off", "set threads 1"):
        gnubg.command(command)
    for p in (0, 1):
        gnubg.command(f"set player {p} gnubg")
        gnubg.command(f"set player {p} chequerplay evaluation plies 0")
        gnubg.command(f"set player {p} cubedecision evaluation plies 0")
        if args.noise:
            gnubg.command(f"set player {p} chequerplay evaluation noise {args.noise}")
            gnubg.command(f"set player {p} chequerplay evaluation deterministic off")
    os.makedirs(args.outdir, exist_ok=True)
    start = time.perf_counter()
    for seed in range(args.seed, args.seed + args.count):
        gnubg.command(f"set seed {seed}")
        gnubg.command(f"new match {args.length}")
        gnubg.command("set player 0 name Alice")
        gnubg.command("set player 1 name Bob")
        base = os.path.abspath(os.path.join(args.outdir, f"selfplay_{seed:04d}"))
        gnubg.command(f"export match mat {base}.mat")
        gnubg.command(f"save match {base}.sgf")
    took = time.perf_counter() - start
    print(f"{args.count} matches of {args.length} points in {took:.1f} s")


if __name__ == "__main__":
    main()
