"""Whole ``bgkit`` runs of an earlier commit and of the working tree, paired.

    python benchmarks/bench_pair.py REV [FILE ...] [--plies 0] [--repeat 3] [--jobs N]
        [--command 'hint XGID=...' ...] [--keep DIR]

For each file (``bgkit analyze FILE --json -``) and each ``--command`` (``bgkit`` with
those arguments), ``--repeat`` pairs of runs, the two trees alternating (which runs first
alternates too): wall and CPU seconds of the whole process tree (``wait4``: the workers
are reaped by bgkit, so their CPU counts) as ranges, and how many values of the output
(of JSON, but an analysis's ``seconds``; else lines) differ between the trees' first
runs, and between two runs of the working tree (an analysis in several workers varies in
its last bits from run to run).

Both trees run from the same interpreter and virtual environment with ``PYTHONPATH``
pointing at them, from an empty folder. Both are byte-compiled first: with
``PYTHONDONTWRITEBYTECODE`` set (as on the machine this was written on), a tree made for
the comparison would otherwise compile every module from source at every start, 60-90 ms
of a 0.3 s run that the working tree, compiled long ago, does not pay (issue 31: the
pairs of the sixth round were measured so, and are corrected in ``README.md``).

The earlier commit is checked out with ``git worktree`` into a temporary folder (``--keep
DIR``: there, and left for the next run), removed at the end.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(tree: Path, args: list[str], folder: Path) -> tuple[float, float, bytes]:
    """Wall and CPU seconds of ``python -m bgkit ARGS`` run from ``tree``, and its output."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out_path = folder / "out.json"
    with out_path.open("wb") as out:
        started = time.perf_counter()
        process = subprocess.Popen(
            [sys.executable, "-m", "bgkit", *args], stdout=out, cwd=folder, env=env
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{tree}: bgkit {' '.join(args)} exited {status}")
    return wall, usage.ru_utime + usage.ru_stime, out_path.read_bytes()


def _differences(a: object, b: object) -> int:
    """Values that differ between two decoded JSON documents (but the run's ``seconds``)."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = (a.keys() | b.keys()) - {"seconds"}
        return sum(_differences(a.get(k), b.get(k)) for k in keys)
    if isinstance(a, list) and isinstance(b, list):
        extra = abs(len(a) - len(b))
        return extra + sum(_differences(x, y) for x, y in zip(a, b, strict=False))
    return int(a != b)


def _span(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f} (median {statistics.median(values):.2f})"


def _compare(a: bytes, b: bytes) -> int:
    """Values that differ between two outputs: JSON value for value, else line for line."""
    try:
        return _differences(json.loads(a), json.loads(b))
    except ValueError:
        first, second = a.splitlines(), b.splitlines()
        extra = abs(len(first) - len(second))
        return extra + sum(x != y for x, y in zip(first, second, strict=False))


def _pair(trees: dict[str, Path], label: str, args: list[str], repeat: int, folder: Path) -> None:
    """``repeat`` pairs of ``bgkit ARGS`` runs of the two trees, and what they cost."""
    walls: dict[str, list[float]] = {name: [] for name in trees}
    cpus: dict[str, list[float]] = {name: [] for name in trees}
    outputs: dict[str, list[bytes]] = {name: [] for name in trees}
    for i in range(repeat):
        order = list(trees) if i % 2 == 0 else list(reversed(trees))
        for name in order:
            wall, cpu, out = _run(trees[name], args, folder)
            walls[name].append(wall)
            cpus[name].append(cpu)
            outputs[name].append(out)
    earlier, later = trees
    differ = _compare(outputs[earlier][0], outputs[later][0])
    noise = _compare(outputs[later][0], outputs[later][-1])
    print(f"{label}, {repeat} pairs:")
    for name in trees:
        print(f"  {name:>14}: wall {_span(walls[name])} s, CPU {_span(cpus[name])} s")
    ratio = statistics.median(walls[later]) / statistics.median(walls[earlier])
    print(f"  {later} / {earlier}: {ratio:.3f} (medians of wall)")
    print(
        f"  values that differ: {differ} between the trees' first runs,"
        f" {noise} between the {later}'s first and last"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the earlier commit")
    parser.add_argument("files", nargs="*", type=Path, help="records to analyse")
    parser.add_argument("--plies", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument(
        "--command",
        action="append",
        default=[],
        help="another bgkit command to pair, as one string ('hint XGID=...'); repeatable",
    )
    parser.add_argument("--keep", type=Path, default=None, help="the earlier tree's folder")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        earlier = opts.keep or Path(scratch) / "earlier"
        _check_out(earlier, opts.rev)
        try:
            for tree in (earlier, ROOT):
                compileall.compile_dir(tree / "bgkit", quiet=1)
            trees = {opts.rev: earlier, "working tree": ROOT}
            for path in opts.files:
                args = ["analyze", str(path.resolve()), "--plies", str(opts.plies)]
                args += ["--json", "-"]
                if opts.jobs is not None:
                    args += ["--jobs", str(opts.jobs)]
                _pair(trees, f"{path.name}, {opts.plies}-ply", args, opts.repeat, Path(scratch))
            for command in opts.command:
                _pair(trees, f"bgkit {command}", shlex.split(command), opts.repeat, Path(scratch))
        finally:
            if opts.keep is None:
                subprocess.run(
                    ["git", "worktree", "remove", "--force", str(earlier)],
                    cwd=ROOT,
                    check=False,
                    capture_output=True,
                )


def _check_out(folder: Path, rev: str) -> None:
    """``rev`` checked out in ``folder``: a new worktree, or the kept one moved to it (a
    kept folder left at another commit once made every pair of a round compare against
    that commit, whatever ``REV`` said)."""

    def git(*args: str, cwd: Path = ROOT) -> str:
        done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
        return done.stdout.strip()

    commit = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    if not (folder / "bgkit").is_dir():
        git("worktree", "add", "-f", "--detach", str(folder), commit)
    elif git("rev-parse", "HEAD", cwd=folder) != commit:
        git("checkout", "--quiet", "--force", "--detach", commit, cwd=folder)
    print(f"{rev}: {git('log', '--oneline', '-1', commit)} (in {folder})", file=sys.stderr)


if __name__ == "__main__":
    main()
