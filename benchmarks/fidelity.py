"""Per-roll fidelity: every checker error and luck of bgkit's analysis against gnubg's own.

    python benchmarks/fidelity.py [RECORD ...] [--plies 2] [--jobs N] [--threads N] [--runs 2]
        [--cache DIR]

Each ``.mat`` record (default: the 30 gnubg self-play matches in ``data/selfplay/``) is
analysed by GNU Backgammon in a fresh process of its own (``tests/gnubg_reference.py``:
``import mat``, ``analyse match`` with one calculation thread, its SGF read back) and by
bgkit (``bgkit.analyze``, ``--jobs`` processes, default the CPUs). Printed per record:
how many rolls' checker errors and lucks agree within 1e-5 EMG (gnubg writes equities
with six decimals and luck with five), each roll that does not (game, move, player,
dice, bgkit's figure and gnubg's), and both sides' per-player totals; then the totals
over all records. The exit code is 0 whatever the agreement: this measures, the tests
(``tests/test_analysis.py``) judge.

``--threads N`` (N > 1) also has gnubg analyse each record ``--runs`` times with N
threads, and says how many of those runs' figures differ from its one-thread figures
and from each other: with several threads gnubg analyses several moves at once, and
they share one position cache, so what a search finds there depends on their timing.

gnubg's one-thread figures are kept in ``--cache`` (default ``benchmarks/.cache/fidelity/``)
by the record's content, the depth and gnubg's version; threaded runs are never kept.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "gnubg_reference.py"
CACHE = Path(__file__).resolve().parent / ".cache" / "fidelity"
DEFAULT = sorted((ROOT / "data" / "selfplay").glob("selfplay_*.mat"))
#: How far two figures may be apart and still agree (EMG): gnubg's luck has five decimals.
TOLERANCE = 1e-5
KINDS = ("move", "double", "take", "drop")


def gnubg_figures(path: Path, plies: int, threads: int = 1) -> dict[str, Any]:
    """gnubg's analysis of ``path`` (``gnubg_reference.py``'s JSON), from a process of its own."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "reference.json"
        command = [sys.executable, str(REFERENCE), str(path), str(plies), "--json", str(out)]
        subprocess.run([*command, "--threads", str(threads)], check=True, capture_output=True)
        data: dict[str, Any] = json.loads(out.read_text())
    return data


def reference(path: Path, plies: int, version: str, cache: Path = CACHE) -> dict[str, Any]:
    """gnubg's one-thread figures, from ``cache`` when they were made by this gnubg."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    kept = cache / f"{path.stem}.{digest}.{plies}ply.json"
    if kept.is_file():
        data: dict[str, Any] = json.loads(kept.read_text())
        if data.get("gnubg") == version:
            return data
    data = gnubg_figures(path, plies)
    cache.mkdir(parents=True, exist_ok=True)
    kept.write_text(json.dumps(data, sort_keys=True) + "\n")
    return data


def _where(row: dict[str, Any]) -> str:
    return f"game {row['game']} move {row['move']} {row['name']} {row['dice']}"


def differences(
    mine: Sequence[dict[str, Any]], theirs: Sequence[dict[str, Any]]
) -> tuple[dict[str, int], list[str]]:
    """How many rolls' errors and lucks there are and agree, and a line for each that does
    not (``mine``: bgkit's rows or another gnubg run's, in the reference's row format)."""
    counts = {"errors": 0, "same errors": 0, "lucks": 0, "same lucks": 0}
    lines = []
    for a, b in zip(mine, theirs, strict=True):
        for figure, key in (("error", "errors"), ("luck", "lucks")):
            if figure not in b or a.get(figure) is None:
                continue
            counts[key] += 1
            if abs(a[figure] - b[figure]) <= TOLERANCE:
                counts[f"same {key}"] += 1
            else:
                lines.append(
                    f"    {a.get('where', '')}: {figure} {a[figure]:+.6f}, gnubg's {b[figure]:+.6f}"
                    f" ({a[figure] - b[figure]:+.2e})"
                )
    return counts, lines


def bgkit_rows(path: Path, plies: int, jobs: int | None) -> tuple[list[dict[str, Any]], Any]:
    """bgkit's analysis of ``path``, a row per action gnubg analyses (no beavers)."""
    from bgkit.analysis.match import analyze
    from bgkit.formats.mat import read_mat

    result = analyze(read_mat(path), plies, jobs=jobs, progress=False)
    rows = []
    for row in result.rows:
        if row["action"] in KINDS:
            rows.append(
                {
                    "where": _where(row) if row["action"] == "move" else "",
                    "error": row["error_emg"] if row["action"] == "move" else None,
                    "luck": row["luck_emg"],
                }
            )
    return rows, result


def gnubg_rows(data: dict[str, Any], where: Sequence[str]) -> list[dict[str, Any]]:
    """Another gnubg run's rows in the format :func:`differences` compares."""
    return [
        {"where": w, "error": r.get("error"), "luck": r.get("luck")}
        for r, w in zip(data["moves"], where, strict=True)
    ]


def compared(title: str, mine: Sequence[dict[str, Any]], theirs: Sequence[dict[str, Any]],
             within: str = "") -> dict[str, int]:  # fmt: skip
    """Print how many of ``mine``'s figures agree with ``theirs`` and each that does not,
    under ``title``; the counts (:func:`differences`)."""
    counts, lines = differences(mine, theirs)
    print(
        f"{title}: errors {counts['same errors']}/{counts['errors']},"
        f" luck {counts['same lucks']}/{counts['lucks']}{within}"
    )
    print("\n".join(lines) if lines else "    every figure agrees")
    return counts


def survey(path: Path, args: argparse.Namespace, version: str, total: dict[str, int]) -> None:
    ref = reference(path, args.plies, version, args.cache)
    mine, result = bgkit_rows(path, args.plies, args.jobs)
    if len(mine) != len(ref["moves"]):  # pragma: no cover (a record gnubg reads otherwise)
        print(f"{path.name}: {len(mine)} actions, gnubg's {len(ref['moves'])}: not compared")
        return
    title = f"{path.name}, {args.plies}-ply: bgkit against gnubg (one thread)"
    counts = compared(title, mine, ref["moves"], f" within {TOLERANCE:g} EMG")
    for key, n in counts.items():
        total[key] = total.get(key, 0) + n
    for mine_p, theirs_p in zip(result.players_list, ref["players"], strict=True):
        print(
            f"    {mine_p['name']}: checker error {mine_p['checker_error_emg']:.6f}"
            f" (gnubg {theirs_p['chequer_err_emg']:.6f}), luck {mine_p['luck_emg']:+.5f}"
            f" (gnubg {theirs_p['luck_emg']:+.5f})"
        )
    if args.threads <= 1:
        return
    where = [m["where"] for m in mine]
    threaded = f"  gnubg with {args.threads} threads"
    runs = [
        gnubg_rows(gnubg_figures(path, args.plies, args.threads), where)
        for _ in range(max(1, args.runs))
    ]
    for n, run in enumerate(runs, 1):
        compared(f"{threaded}, run {n}, against its one thread", run, ref["moves"])
    for n, run in enumerate(runs[1:], 2):
        compared(f"{threaded}, run {n} against run 1", run, runs[0])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="*", type=Path, default=DEFAULT)
    parser.add_argument("--plies", type=int, default=2, help="depth (default 2)")
    parser.add_argument("--jobs", type=int, default=None, help="bgkit's processes")
    parser.add_argument("--threads", type=int, default=1, help="gnubg's threads for more runs")
    parser.add_argument("--runs", type=int, default=2, help="gnubg's runs with --threads")
    parser.add_argument("--cache", type=Path, default=CACHE, help="gnubg's one-thread figures")
    args = parser.parse_args(argv)
    from bgkit.analysis.gnubg import gnubg_module

    version = str(getattr(gnubg_module(), "version", "?"))
    total: dict[str, int] = {}
    for path in args.records:
        survey(path, args, version, total)
    print(
        f"all {len(args.records)} records: errors {total.get('same errors', 0)}/"
        f"{total.get('errors', 0)}, luck {total.get('same lucks', 0)}/{total.get('lucks', 0)}"
        f" within {TOLERANCE:g} EMG of gnubg's (one thread)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
