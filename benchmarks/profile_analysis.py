"""Where an analysis's time goes, per roll: GNU Backgammon's calls and the Python around them.

Usage: python benchmarks/profile_analysis.py [FILE ...] [--plies 0] [--repeat 3]

Each FILE (default: the 7-point self-play match of ``bench_analysis.py``) is analysed in
this process, as a season's worker analyses its matches (one evaluator, gnubg's
default cache emptied first), after one analysis that loads gnubg. Printed:

- the calls into gnubg per roll, by kind: ``findbestmoves`` by what asks it (the luck of
  the roll: one per possible roll; the plays of the roll made; the made-up turns that
  read a position's 0-ply cubeful equity, for cube decisions and dances; others),
  ``evaluate`` and commands, and the Python function calls per roll (cProfile's count,
  the same on any machine: what the Python side does);
- CPU seconds (``time.process_time``, the fastest of ``--repeat``): the analysis, the
  part spent inside gnubg's calls and the rest; the commands' wall seconds beside their
  CPU seconds (a command waits for gnubg's threads: that wait is wall time, not work);
- at 0-ply, the floor, paired in this process: gnubg's own ``analyse match`` of the file
  against bgkit's luck calls alone (the ``findbestmoves`` of every possible roll,
  replayed on an empty cache), in CPU seconds and as a ratio; the same calls with
  ``findbestmove`` (the best play only: what building the list of every play costs);
  and every call bgkit's analysis made into gnubg (luck, made-up turns, ``evaluate``,
  commands) replayed in its order on an empty cache, without the Python around them.
  gnubg's cache answers for a position as it was first figured, and a call it drops
  changes what the cache keeps, and so later figures in their last bits: bgkit's
  figures need exactly those calls, so the replay is the floor of its analysis at
  identical figures, and the analysis less the replay is what its Python costs.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "data" / "fixtures" / "selfplay_7pt_noisy.mat"

#: What asks ``findbestmoves``, by the evaluator's method that calls it.
KINDS = {
    "best_equities": "luck",
    "_findbestmoves": "plays",
    "_optimal": "made-up turns",
}


class Counted:
    """gnubg's module with its calls counted (by kind) and timed (CPU and wall)."""

    def __init__(self, gnubg: Any) -> None:
        self.gnubg = gnubg
        self.calls: collections.Counter[str] = collections.Counter()
        self.cpu: collections.Counter[str] = collections.Counter()
        self.wall: collections.Counter[str] = collections.Counter()
        self.luck: list[tuple[Any, ...]] = []
        self.sequence: list[tuple[str, tuple[Any, ...]]] = []
        """Every call into gnubg, in order: (function name, arguments)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(self.gnubg, name)

    def _timed(self, kind: str, call: Any, *args: Any) -> Any:
        self.sequence.append((call.__name__, args))
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return call(*args)
        finally:
            self.calls[kind] += 1
            self.cpu[kind] += time.process_time() - cpu
            self.wall[kind] += time.perf_counter() - wall

    def findbestmoves(self, *args: Any) -> Any:
        caller = sys._getframe(1).f_code.co_name
        kind = KINDS.get(caller, "other")
        if kind == "luck":
            self.luck.append(args)
        return self._timed(f"findbestmoves ({kind})", self.gnubg.findbestmoves, *args)

    def evaluate(self, *args: Any) -> Any:
        return self._timed("evaluate", self.gnubg.evaluate, *args)

    def command(self, *args: Any) -> Any:
        return self._timed("commands", self.gnubg.command, *args)


def profile(path: Path, plies: int, repeat: int) -> None:
    import bgkit.analysis.gnubg as evaluator
    from bgkit.analysis.gnubg_process import _Capture
    from bgkit.analysis.match import analyze
    from bgkit.formats import read_match

    match = read_match(path)
    real = evaluator.gnubg_module()
    analyze(match, plies, evaluator=evaluator.GnubgEvaluator())  # (gnubg loaded, warm)
    best = float("inf")
    for _ in range(repeat):  # without the counting: the analysis's own CPU time
        started = time.process_time()
        result = analyze(match, plies, evaluator=evaluator.GnubgEvaluator())
        best = min(best, time.process_time() - started)
    rolls = sum(1 for row in result.rows if row["action"] == "move")
    profiler = cProfile.Profile()
    profiler.enable()
    analyze(match, plies, evaluator=evaluator.GnubgEvaluator())
    profiler.disable()
    python_calls = pstats.Stats(profiler).total_calls  # type: ignore[attr-defined]
    counted = Counted(real)
    module = evaluator.gnubg_module
    try:
        evaluator.gnubg_module = lambda: counted  # type: ignore[assignment]
        evaluator.gnubg_module.cache_info = module.cache_info  # type: ignore[attr-defined]
        analyze(match, plies, evaluator=evaluator.GnubgEvaluator())
    finally:
        evaluator.gnubg_module = module
    print(f"{path.name}, {plies}-ply, {rolls} rolls (load average {os.getloadavg()[0]:.1f})")
    print("  calls per roll:")
    for kind in sorted(counted.calls, key=lambda k: -counted.calls[k]):
        print(f"    {kind:<28}{counted.calls[kind] / rolls:8.2f}")
    total = sum(v for k, v in counted.calls.items() if k.startswith("findbestmoves"))
    print(f"    {'findbestmoves, all':<28}{total / rolls:8.2f}")
    print(f"    {'Python function calls':<28}{python_calls / rolls:8.0f}")
    inside = sum(counted.cpu.values())
    print(
        f"  CPU: analysis {best:.3f} s ({1000 * best / rolls:.2f} ms a roll); inside gnubg's"
        f" calls {inside:.3f} s, the rest {best - inside:.3f} s (counted run)"
    )
    if counted.calls["commands"]:
        print(
            f"  commands: {counted.calls['commands']}, {counted.cpu['commands']:.3f} CPU s,"
            f" {counted.wall['commands']:.3f} wall s"
        )
    if plies:
        return
    # the floor: gnubg's analyse match against bgkit's luck calls alone, on empty caches
    gnubg_cpu, luck_cpu, best_cpu, all_cpu = [], [], [], []
    ev = evaluator.GnubgEvaluator()
    for _ in range(repeat):
        ev.clear_cache()
        with _Capture() as out:
            for kind in ("chequerplay", "cubedecision"):
                out.run(real, f"set analysis {kind} evaluation plies 0")
            out.run(real, f"import mat {path.resolve()}")
            started = time.process_time()
            out.run(real, "analyse match")
            gnubg_cpu.append(time.process_time() - started)
        ev.clear_cache()
        started = time.process_time()
        for args in counted.luck:
            real.findbestmoves(*args)
        luck_cpu.append(time.process_time() - started)
        ev.clear_cache()
        started = time.process_time()
        for args in counted.luck:
            real.findbestmove(*args)
        best_cpu.append(time.process_time() - started)
        all_cpu.append(_replay(real, counted.sequence))
    g, luck, best_only, every = min(gnubg_cpu), min(luck_cpu), min(best_cpu), min(all_cpu)
    print(
        f"  floor: gnubg's analyse match {g:.3f} CPU s; bgkit's luck calls alone"
        f" ({len(counted.luck) / rolls:.2f} a roll) {luck:.3f} s = {luck / g:.2f}x;"
        f" bgkit's analysis {best / g:.2f}x"
    )
    print(
        f"  the luck calls with findbestmove (best play only, no list) {best_only:.3f} s ="
        f" {best_only / g:.2f}x; every call of the analysis replayed"
        f" ({len(counted.sequence) / rolls:.1f} a roll) {every:.3f} s = {every / g:.2f}x"
        f" (the floor at identical figures; Python around the calls {best - every:.3f} s)"
    )


def _replay(gnubg: Any, sequence: list[tuple[str, tuple[Any, ...]]]) -> float:
    """CPU seconds of ``sequence`` (:attr:`Counted.sequence`) replayed in this process,
    from the empty cache its first commands make (its commands' output captured)."""
    from bgkit.analysis.gnubg_process import _Capture

    with _Capture() as out:
        started = time.process_time()
        for name, args in sequence:
            if name == "command":
                out.run(gnubg, *args)
            else:
                getattr(gnubg, name)(*args)
        return time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, default=[DEFAULT])
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the fastest counts")
    args = parser.parse_args(argv)
    for path in args.files:
        profile(path, args.plies, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
