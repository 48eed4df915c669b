"""Match analysis: bgkit (``bgkit.analyze``) against GNU Backgammon's ``analyse match``.

Same match, same run, 0-ply and 2-ply (chequer play and cube decisions; luck at 0-ply,
as gnubg does). gnubg runs in a subprocess of its own (``tests/gnubg_reference.py``,
one calculation thread as its recipe needs) and is timed around ``analyse match`` only
(not its import nor the SGF read-back). bgkit is timed around the whole of ``analyze``:
verification, replay, worker processes started and GNU Backgammon loaded in them,
evaluations, rows and summaries (``--jobs`` processes, default: the cores; ``analyze``
returns without waiting for its workers to exit: their CPU time is counted once they
have). Each side runs ``--repeat`` times, alternating, and the fastest run counts
(wall-clock seconds: bgkit uses several processes; the fastest run is the least
disturbed by other load).
Printed: both times and the ratio bgkit / gnubg (target: 1.0 or less), the CPU seconds
of both (bgkit's over all its processes) and the load average (on a busy machine the
processes bgkit adds gain less), and both analyses per player with how many moves agree.

    python benchmarks/bench_analysis.py [FILE] [--quick] [--jobs N] [--repeat 3]

``--quick`` analyses the full match at 0-ply only, and runs the 2-ply comparison on the
short Example A (13 rolls) instead of FILE (gnubg needs about 50 s for the 7-point
default at 2-ply).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bgkit.analysis.match import Analysis, analyze
from bgkit.formats.mat import read_mat

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "data" / "fixtures" / "selfplay_7pt_noisy.mat"
SHORT = ROOT / "tests" / "data" / "analysis" / "example_a.mat"
REFERENCE = ROOT / "tests" / "gnubg_reference.py"


def run_gnubg(path: Path, plies: int) -> dict[str, Any]:
    """gnubg's analysis of ``path`` in a fresh process: its figures and its timing."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "reference.json"
        subprocess.run(
            [sys.executable, str(REFERENCE), str(path), str(plies), "--json", str(out)],
            check=True,
            capture_output=True,
        )
        data: dict[str, Any] = json.loads(out.read_text())
    return data


def run_bgkit(path: Path, plies: int, jobs: int | None) -> tuple[float, float, Analysis]:
    """Wall-clock and CPU seconds (this process and its workers) of one analysis."""
    match = read_mat(path)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    started, cpu = time.perf_counter(), time.process_time()
    result = analyze(match, plies, jobs=jobs)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    for worker in multiprocessing.active_children():  # (exiting: counted once joined)
        worker.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu += (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    return wall, cpu, result


def compare(
    path: Path, plies: int, jobs: int | None, repeat: int
) -> tuple[Analysis, dict[str, Any]]:
    gnubg_times, bgkit_times, gnubg_cpu, bgkit_cpu = [], [], [], []
    result: Analysis | None = None
    reference: dict[str, Any] = {}
    for _ in range(repeat):
        reference = run_gnubg(path, plies)
        gnubg_times.append(reference["timing"]["analyse_s"])
        gnubg_cpu.append(reference["timing"].get("analyse_cpu_s", float("nan")))
        wall, cpu, result = run_bgkit(path, plies, jobs)
        bgkit_times.append(wall)
        bgkit_cpu.append(cpu)
    assert result is not None
    g, b = min(gnubg_times), min(bgkit_times)
    moves = sum(1 for r in result.rows if r["action"] == "move")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"{path.name}, {plies}-ply, {moves} rolls: gnubg {g:.2f} s, bgkit {b:.2f} s"
        f" ({result.jobs} process{'es' if result.jobs > 1 else ''}),"
        f" ratio bgkit/gnubg {b / g:.2f}\n"
        f"  CPU seconds: gnubg {min(gnubg_cpu):.2f}, bgkit {min(bgkit_cpu):.2f} (all processes)"
        f"   runs: gnubg {', '.join(f'{t:.2f}' for t in gnubg_times)};"
        f" bgkit {', '.join(f'{t:.2f}' for t in bgkit_times)}; load average {load}"
    )
    return result, reference


def per_player(result: Analysis, reference: dict[str, Any]) -> None:
    """Both analyses side by side per player, and per-move agreement."""
    cube = reference["stats_text"]["Cube statistics"]["Error total EMG (MWC)"]
    print(f"  {'player':<12}{'figure':<26}{'gnubg':>10}{'bgkit':>10}")
    for p, (mine, theirs) in enumerate(zip(result.players_list, reference["players"], strict=True)):
        figures = (
            ("unforced moves", theirs["unforced"], mine["unforced_moves"], "{}"),
            ("checker error EMG", theirs["chequer_err_emg"], mine["checker_error_emg"], "{:.3f}"),
            ("luck EMG", theirs["luck_emg"], mine["luck_emg"], "{:+.3f}"),
            ("cube error EMG", abs(float(cube[p].split()[0])), mine["cube_error_emg"], "{:.3f}"),
        )
        for label, a, b, fmt in figures:
            name = mine["name"] if label == figures[0][0] else ""
            print(f"  {name:<12}{label:<26}{fmt.format(a):>10}{fmt.format(b):>10}")
    mine_rows = [r for r in result.rows if r["action"] in ("move", "double", "take", "drop")]
    errors = lucks = same_error = same_luck = 0
    for a, b in zip(mine_rows, reference["moves"], strict=True):
        if "error" in b:
            errors += 1
            same_error += abs(a["error_emg"] - b["error"]) <= 1e-3
        if "luck" in b:
            lucks += 1
            same_luck += abs(a["luck_emg"] - b["luck"]) <= 1e-3
    print(f"  per move (within 0.001 EMG): errors {same_error}/{errors}, luck {same_luck}/{lucks}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--quick", action="store_true", help="2-ply on a short match only")
    parser.add_argument("--jobs", type=int, default=None, help="bgkit processes (default: cores)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the fastest counts")
    args = parser.parse_args(argv)
    result, reference = compare(args.file, 0, args.jobs, args.repeat)
    per_player(result, reference)
    deep = SHORT if args.quick else args.file
    result, reference = compare(deep, 2, args.jobs, 1 if not args.quick else args.repeat)
    per_player(result, reference)
    return 0


if __name__ == "__main__":
    sys.exit(main())
