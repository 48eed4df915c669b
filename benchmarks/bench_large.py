"""What a maximal record costs: ``bgkit verify`` of a file just under the size limit.

    python benchmarks/bench_large.py [--formats mat,sgf,json,gmd,javafibs] [--size 16M]
                                     [--repeat 1] [--folder DIR] [--keep]

For each format, writes a valid record of ``--size`` bytes at most (default: the default
``max_file_bytes``): a money session of the sample's games over and over
(``data/sample.mat``: every game headed 0-0, so that it verifies clean), or for GMD and
JavaFIBS, which bgkit does not write, of the real 7-point record's games in its writer's
own lines (:func:`real_session`). Runs ``bgkit verify -q -j 1`` on it as a whole process
(``--max-size`` raised to the file when needed). Prints, per format, the file's size,
games and actions, the wall and CPU seconds (user + system, from ``wait4``), the CPU
time per action and per byte, and the peak resident memory of the process
(``ru_maxrss``) and its bytes per byte of record: the README's limits table quotes this.
Files go to ``--folder`` (default: a temporary folder, removed unless ``--keep``); an
existing file of the same name and size is reused.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bgkit.records import Match

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"
FORMATS = ("mat", "sgf", "json", "gmd", "javafibs")
REAL = {  # the formats bgkit reads but does not write: a real record's games, repeated
    "gmd": ROOT / "data" / "real" / "gmd" / "gitGNU__gnu_gibbon__7point.gmd",
    "javafibs": ROOT / "data" / "real" / "javafibs" / "gitGNU__gnu_gibbon__7point.match",
}


def session(games: int) -> Match:
    """A money session of ``games`` games, the sample's over and over (every game headed
    0-0, BgMatchFormat's convention, so that it verifies clean)."""
    import bgkit

    source = bgkit.read_match(SAMPLE)
    out = []
    for i in range(games):
        game = source.games[i % len(source.games)]
        result = game.result
        if result is not None and result.match_won:
            result = dataclasses.replace(result, match_won=False)
        out.append(dataclasses.replace(game, number=i + 1, score=(0, 0), result=result))
    return Match(source.players, 0, tuple(out))


def real_session(fmt: str, games: int) -> bytes:
    """A money session in ``fmt`` (``gmd`` or ``javafibs``, which bgkit does not write) of
    :data:`REAL`'s games over and over, each line as its writer wrote it: the record's
    header with the length made unlimited, then its games (a GMD ``Game:`` line or a
    JavaFIBS ``13:`` line and what follows it; JavaFIBS's match-won line left out)."""
    lines = REAL[fmt].read_bytes().decode("utf-8").splitlines(keepends=True)
    starts = ("Game:", "13:")
    first = next(i for i, line in enumerate(lines) if line.startswith(starts))
    head = [
        re.sub(r"^(Length: )[0-9]+|^(8:[^:]*:)[0-9]+", _unlimited, line) for line in lines[:first]
    ]
    blocks: list[list[str]] = []
    for line in lines[first:]:
        if line.startswith(starts):
            blocks.append([])
        if not line.startswith("9:"):
            blocks[-1].append(line)
    body = [line for i in range(games) for line in blocks[i % len(blocks)]]
    return "".join(head + body).encode("utf-8")


def _unlimited(m: re.Match[str]) -> str:
    return f"{m[1]}unlimited" if m[1] else f"{m[2]}9999"


def dump(match: Match, fmt: str) -> bytes:
    from bgkit.formats.ogxm_record import dumps_ogxm

    if fmt == "ogxm":
        return dumps_ogxm(match)
    text = {"mat": match.to_mat, "sgf": match.to_sgf, "json": match.to_json}[fmt]()
    return text.encode("utf-8")


def records(games: int, fmt: str) -> bytes:
    """A money session of ``games`` games in ``fmt``: :func:`session` written by bgkit, or
    for a format bgkit does not write, :func:`real_session`."""
    return real_session(fmt, games) if fmt in REAL else dump(session(games), fmt)


def make(fmt: str, size: int, folder: Path) -> Path:
    """A record of ``fmt`` of at most ``size`` bytes, as close under it as whole games
    allow (the number of games is scaled from a small record, then trimmed)."""
    path = folder / f"max_{size}.{fmt}"
    if path.exists() and path.stat().st_size <= size:
        return path
    probe = len(records(200, fmt)) / 200
    games = int(size / probe)
    while True:
        data = records(games, fmt)
        if len(data) <= size:
            break
        games -= max(1, int((len(data) - size) / probe) + 1)
    path.write_bytes(data)
    return path


@dataclasses.dataclass
class Measured:
    wall: float
    cpu: float
    max_rss: int  # bytes
    summary: str


_LAUNCH = """
import json, os, subprocess, sys, time
started = time.perf_counter()
process = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
err = process.stderr.read().decode()
_, status, usage = os.wait4(process.pid, 0)
print(json.dumps([time.perf_counter() - started, os.waitstatus_to_exitcode(status),
                  usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, err]))
"""
"""Runs the measured process and reports on it. Linux counts in a process's peak memory
(``ru_maxrss``) the memory of the process it was forked from, as it was at the fork: this
one is small, where this benchmark's own process has held the records it made."""


def measure(path: Path) -> Measured:
    """``bgkit verify -q -j 1 path`` as a whole process: wall, CPU and peak memory."""
    args = [sys.executable, "-m", "bgkit", "verify", "-q", "-j", "1"]
    args += ["--max-size", str(max(path.stat().st_size, 1 << 20)), str(path)]
    out = subprocess.run(
        [sys.executable, "-c", _LAUNCH, *args], capture_output=True, text=True, check=True
    ).stdout
    wall, code, cpu, max_rss, err = json.loads(out)
    if code != 0:
        raise SystemExit(f"bgkit verify {path} exited {code}:\n{err}")
    lines = err.strip().splitlines()
    return Measured(wall, cpu, max_rss, lines[-1])


def parse_size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1:].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def main() -> None:
    from bgkit.limits import DEFAULT_LIMITS

    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--formats", default=",".join(FORMATS))
    cli.add_argument("--size", type=parse_size, default=DEFAULT_LIMITS.max_file_bytes)
    cli.add_argument("--repeat", type=int, default=1)
    cli.add_argument("--folder", type=Path)
    cli.add_argument("--keep", action="store_true")
    args = cli.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="bgkit-large-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"# bgkit verify -q -j 1 on records of at most {args.size:,} bytes ({folder})")
    print(
        "| format | bytes | games | actions | wall s | CPU s | CPU µs/action"
        " | CPU µs/byte | peak MB | bytes/byte |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    try:
        for fmt in args.formats.split(","):
            path = make(fmt, args.size, folder)
            size = path.stat().st_size
            for _ in range(args.repeat):
                got = measure(path)
                words = got.summary.split()
                games, actions = int(words[2]), int(words[4])
                print(
                    f"| {fmt} | {size:,} | {games:,} | {actions:,} | {got.wall:.1f}"
                    f" | {got.cpu:.1f} | {got.cpu / actions * 1e6:.1f}"
                    f" | {got.cpu / size * 1e6:.2f} | {got.max_rss / 1e6:.0f}"
                    f" | {got.max_rss / size:.1f} |",
                    flush=True,
                )
    finally:
        if args.folder is None and not args.keep:
            shutil.rmtree(folder)


if __name__ == "__main__":
    main()
