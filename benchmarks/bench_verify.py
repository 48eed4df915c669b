"""Time ``bgkit verify`` against GNU Backgammon's ``import mat`` on the same records.

Usage: python benchmarks/bench_verify.py [--generate N]

The records are the real corpus (``data/real/mat``), the committed self-play
matches (``data/selfplay``) and N more self-play matches that GNU Backgammon
writes into ``benchmarks/.cache/selfplay`` on first use (default 250).

bgkit reads each file, replays every game and checks every rule; gnubg only
imports (it replays moves to build its game records but checks far less).
Both run in this process, one after the other, on the same list of files.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from make_selfplay import cached_selfplay  # (benchmarks/ is the script's folder)

ROOT = Path(__file__).resolve().parent.parent


def record_files(generate: int) -> list[Path]:
    files = sorted((ROOT / "data" / "real" / "mat").iterdir())
    files += sorted((ROOT / "data" / "selfplay").glob("*.mat"))
    files += cached_selfplay(generate)
    return files


def time_bgkit(files: list[Path]) -> tuple[float, float, int, int]:
    """(seconds reading, seconds replaying and checking, actions checked, issues)."""
    from bgkit.formats.mat import read_mat
    from bgkit.verify import verify

    reading = checking = 0.0
    actions = issues = 0
    for path in files:
        t0 = time.perf_counter()
        match = read_mat(path)
        t1 = time.perf_counter()
        report = verify(match)
        t2 = time.perf_counter()
        reading += t1 - t0
        checking += t2 - t1
        actions += report.actions_checked
        issues += len(report.issues)
    return reading, checking, actions, issues


def time_lark_floor(files: list[Path]) -> float:
    """Seconds for Lark to read every line of the files as one token, and nothing else.

    No reader built on Lark can be faster than this: it is the floor under bgkit's
    reading time, whatever the grammar.
    """
    from lark import Lark

    lines = Lark("start: LINE*\nLINE: /[^\\n]*\\n/\n", parser="lalr")
    texts = [p.read_bytes().decode("utf-8", "replace") + "\n" for p in files]
    start = time.perf_counter()
    for text in texts:
        lines.parse(text)
    return time.perf_counter() - start


def time_gnubg(files: list[Path]) -> float:
    import gnubg

    for command in ("set display off", "set sound enable off", "set threads 1"):
        gnubg.command(command)
    devnull = os.open(os.devnull, os.O_WRONLY)
    saved = os.dup(1)
    os.dup2(devnull, 1)  # gnubg prints warnings for the broken records on fd 1
    try:
        start = time.perf_counter()
        for path in files:
            gnubg.command(f"import mat {path}")
        return time.perf_counter() - start
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--generate", type=int, default=250)
    args = ap.parse_args()
    files = record_files(args.generate)
    time_bgkit(files[:5])  # build the grammar once before timing
    read_s, check_s, actions, issues = time_bgkit(files)
    bg_s = read_s + check_s
    floor_s = time_lark_floor(files)
    gnubg_s = time_gnubg(files)
    print(f"records: {len(files)} files, {actions} actions checked, {issues} issues")
    print(
        f"bgkit verify (read + replay + all rules): {bg_s:.2f} s"
        f"  ({len(files) / bg_s:.0f} files/s, {bg_s / actions * 1e6:.0f} us/action)"
    )
    print(
        f"  of which reading (Lark LALR) {read_s:.2f} s, replay + every rule {check_s:.2f} s"
        f" ({check_s / actions * 1e6:.0f} us/action)"
    )
    print(
        f"gnubg import mat:                         {gnubg_s:.2f} s"
        f"  ({len(files) / gnubg_s:.0f} files/s)"
    )
    print(f"ratio bgkit / gnubg: {bg_s / gnubg_s:.2f}x  (target <= 4x)")
    print(
        f"floor: Lark reading each line as one token, nothing more: {floor_s:.2f} s"
        f" ({floor_s / gnubg_s:.1f}x gnubg)"
    )


if __name__ == "__main__":
    main()
