"""Where ``bgkit verify``'s time goes, per action: reading and rules replay, each profiled.

Usage: python benchmarks/profile_verify.py [--files 400] [--top 12] [--repeat 3] [--cprofile]

The records are ``--files`` gnubg self-play 3-point ``.mat`` matches (those of
``bench_speed.py``'s verify, from ``benchmarks/.cache``), read into memory first. Two
phases, as ``bench_speed.py`` splits ``bgkit verify``: reading (``parse_mat`` of each
text) and the rules replay (``verify`` of each match). For each: its time without a
profiler (the fastest of ``--repeat``, in µs per action of this process's CPU time,
``time.process_time``, so that it holds on a busy machine), then its ``--top`` functions
by self time (the time spent in the function's own code, not in the functions it
calls) with their share of the phase.

The profile is sampled with py-spy when it is installed (``pip install py-spy``; it
runs this script again on the phase alone, 500 samples a second), which costs the
program nothing per call; else (or with ``--cprofile``) it is cProfile's, which adds a
cost to every call, so that functions called very often come out too high.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from bench_mat import best_of  # (benchmarks/ is the script's folder)
from make_selfplay import cached_selfplay

PHASES = {"reading": "reading (parse_mat)", "replay": "rules replay (verify)"}


def _where(filename: str, name: str) -> str:
    path = Path(filename)
    for package in ("bgkit", "lark"):
        if package in path.parts:
            return f"{'/'.join(path.parts[path.parts.index(package) :])} {name}"
    return name if filename.startswith(("~", "<")) else f"{path.name} {name}"


def _jobs(files: int) -> tuple[dict[str, Callable[[], object]], int, int]:
    """The two phases as jobs over ``files`` records, the records and their actions."""
    from bgkit.formats.mat import parse_mat
    from bgkit.verify import verify

    paths = cached_selfplay(files)
    texts = [(path.read_text(), str(path)) for path in paths]
    matches = [parse_mat(text, source_name=name) for text, name in texts]
    actions = sum(verify(match).actions_checked for match in matches)
    jobs: dict[str, Callable[[], object]] = {
        "reading": lambda: [parse_mat(text, source_name=name) for text, name in texts],
        "replay": lambda: [verify(match) for match in matches],
    }
    return jobs, len(paths), actions


def _phase_job(job: Callable[[], object], loops: int) -> None:
    """The phase alone, ``loops`` times (the frame py-spy's samples are kept under)."""
    for _ in range(loops):
        job()


def top_cprofile(job: Callable[[], object], top: int) -> list[tuple[float, str]]:
    """``(share of self time, function)``, most first, from a cProfile run of ``job``."""
    profiler = cProfile.Profile()
    profiler.enable()
    job()
    profiler.disable()
    table = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(row[2] for row in table.values())
    rows = sorted(table.items(), key=lambda item: item[1][2], reverse=True)[:top]
    return [(row[2] / total, _where(key[0], key[2])) for key, row in rows]


def top_py_spy(phase: str, files: int, seconds: float, top: int) -> list[tuple[float, str]]:
    """``(share of self time, function)``, most first, from py-spy samples of the phase
    run alone in a child process for about ``seconds``."""
    with tempfile.TemporaryDirectory() as work:
        raw = Path(work) / "samples.txt"
        command = [
            "py-spy", "record", "--rate", "500", "--format", "raw", "--function",
            "--output", str(raw), "--", sys.executable, __file__, "--files", str(files),
            "--phase", phase, "--seconds", str(seconds),
        ]  # fmt: skip
        subprocess.run(command, check=True, capture_output=True)
        counts: collections.Counter[str] = collections.Counter()
        for line in raw.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            frames = stack.split(";")
            if not any(frame.startswith("_phase_job ") for frame in frames):
                continue  # (start-up, reading the files)
            name, _, place = frames[-1].partition(" (")
            filename = re.sub(r":\d+\)$", "", place)
            counts[_where(filename, name)] += int(count)
    total = sum(counts.values())
    return [(count / total, name) for name, count in counts.most_common(top)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--top", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cprofile", action="store_true", help="cProfile, even with py-spy")
    parser.add_argument("--phase", choices=PHASES, help=argparse.SUPPRESS)  # (under py-spy)
    parser.add_argument("--seconds", type=float, default=10.0, help="py-spy's time per phase")
    args = parser.parse_args(argv)
    jobs, files, actions = _jobs(args.files)
    if args.phase:
        once = best_of(1, jobs[args.phase])
        _phase_job(jobs[args.phase], max(1, round(args.seconds / max(once, 1e-3))))
        return 0
    sampled = not args.cprofile and shutil.which("py-spy") is not None
    print(
        f"{files} gnubg self-play 3-point records, {actions} actions;"
        f" self time by {'py-spy samples' if sampled else 'cProfile'}"
    )
    for phase, label in PHASES.items():
        plain = best_of(args.repeat, jobs[phase])
        if sampled:
            rows = top_py_spy(phase, args.files, args.seconds, args.top)
        else:
            rows = top_cprofile(jobs[phase], args.top)
        print(f"{label}: {plain:.3f} CPU s, {plain / actions * 1e6:.2f} us per action")
        for share, name in rows:
            print(f"  {share * 100:5.1f}%  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
