"""What each valid line shape of GMD and JavaFIBS costs to read, at the size limit.

    python benchmarks/bench_line_shapes.py [--size 16M] [--shapes NAME,...]

For each shape, a valid record of at most ``--size`` bytes made of the real 7-point
record's games (``bench_large.real_session``) with its lines rewritten into that shape
(zero-padded points or dice, a set-up ``Game:`` line, numbers of many digits...), or of
one line over and over (``*-lines``). Prints, per shape, its size, lines, the lines that
went to Lark (``bgkit.formats._by_lines.read_line``) and the CPU seconds of
``parse_gmd`` / ``parse_javafibs`` (``time.process_time``) in this process. A shape
whose lines all go to the fast path reads a 16 MiB record in a few seconds; one that
goes to Lark costs about 40 µs a line (issue 29).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_large import real_session

import bgkit.formats._by_lines as by_lines
from bgkit.formats.gmd import parse_gmd
from bgkit.formats.javafibs import parse_javafibs

_POINTS = "0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0"
_SETUP = (
    f"Game: Scores{{3 2}} Points{{{_POINTS}}} Cube{{2}} May-Double{{0 1}} Dice{{5 3}} Turn{{-1}}"
)


def _padded(m: re.Match[str]) -> str:
    return m[0].zfill(2) if m[0].isdigit() else m[0]


def _gmd_points(text: str) -> str:
    return re.sub(r"(?m)^(Move:[WB]::)(.*)$", lambda m: m[1] + re.sub(r"\w+", _padded, m[2]), text)


def _fibs_points(text: str) -> str:
    return re.sub(r"(?m)^(1:[^:]*:)(.*)$", lambda m: m[1] + re.sub(r"\w+", _padded, m[2]), text)


# name: (format, what makes the record's text from the real session's, or a line to repeat)
SHAPES: dict[str, tuple[str, Callable[[str], str] | str]] = {
    "gmd-as-written": ("gmd", lambda t: t),
    "gmd-setup-lines": ("gmd", _SETUP),
    "gmd-setup-games": ("gmd", lambda t: re.sub(r"(?m)^Game:$", "Game: Scores{0 0}", t)),
    "gmd-padded-points": ("gmd", _gmd_points),
    "gmd-padded-dice": ("gmd", lambda t: re.sub(r"(?m)^(Roll:.::) (\d) (\d)", r"\1 0\2 0\3", t)),
    "gmd-long-length-lines": ("gmd", "Length: 0000007"),
    "gmd-long-resign": (
        "gmd",
        lambda t: re.sub(r"(?m)^(Double:W:)$", "Resign:W:: 00001\nReject:B:\n\\1", t),
    ),
    "gmd-blank-lines": ("gmd", ""),
    "javafibs-as-written": ("javafibs", lambda t: t),
    "javafibs-padded-points": ("javafibs", _fibs_points),
    "javafibs-padded-dice": (
        "javafibs",
        lambda t: re.sub(r"(?m)^((?:0|11):[^:]*:)(\d) (\d)", r"\g<1>0\2 0\3", t),
    ),
    "javafibs-long-numbers": (
        "javafibs",
        lambda t: re.sub(r"(?m)^(7:[^:]*:)(\d+)", r"\g<1>0000\2", t),
    ),
    "javafibs-long-scores": (
        "javafibs",
        lambda t: re.sub(r"(?m)-(\d+)(\r?)$", r"-0000\1\2", re.sub(r"-(\d+):", r"-0000\1:", t)),
    ),
    "javafibs-blank-lines": ("javafibs", " \r"),
}


def record(shape: str, size: int) -> str:
    fmt, how = SHAPES[shape]
    if isinstance(how, str):
        head = real_session(fmt, 1).decode("utf-8").splitlines(keepends=True)[0]
        line = how + "\n"
        return head + line * ((size - len(head)) // len(line))
    probe = len(how(real_session(fmt, 20).decode("utf-8"))) / 20
    games = int(size / probe)
    while True:
        text = how(real_session(fmt, games).decode("utf-8"))
        if len(text.encode("utf-8")) <= size:
            return text
        games -= max(1, int((len(text) - size) / probe) + 1)


def measure(shape: str, size: int) -> tuple[int, int, int, float, Any]:
    text = record(shape, size)
    parse = parse_gmd if SHAPES[shape][0] == "gmd" else parse_javafibs
    by_lark = [0]
    read_line = by_lines.read_line

    def counted(*args: Any) -> Any:
        by_lark[0] += 1
        return read_line(*args)

    by_lines.read_line = counted  # type: ignore[assignment]
    try:
        started = time.process_time()
        match = parse(text, source_name=shape)
        cpu = time.process_time() - started
    finally:
        by_lines.read_line = read_line  # type: ignore[assignment]
    return len(text.encode("utf-8")), text.count("\n"), by_lark[0], cpu, match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", default="16M", help="bytes (K, M suffixes)")
    parser.add_argument("--shapes", default=",".join(SHAPES))
    args = parser.parse_args()
    units = {"K": 1 << 10, "M": 1 << 20}
    size = int(args.size[:-1]) * units[args.size[-1]] if args.size[-1] in units else int(args.size)
    print(f"{'shape':24} {'bytes':>10} {'lines':>9} {'to Lark':>8} {'CPU s':>7}  games faults")
    for shape in args.shapes.split(","):
        nbytes, lines, lark, cpu, match = measure(shape, size)
        print(
            f"{shape:24} {nbytes:10} {lines:9} {lark:8} {cpu:7.1f}"
            f"  {len(match.games)} {len(match.read_errors)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
