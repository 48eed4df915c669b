"""A season of matches analysed at 0-ply: bgkit against GNU Backgammon, and on Dask (issue 31).

Usage: python benchmarks/bench_season.py [--quick] [--only season,dask] [--matches 40]
       [--dask-matches 1000] [--length 7] [--repeat 3] [--folder DIR]

Whole processes on the same input, at equal cores, as ``bench_speed.py`` does:

- ``season``: ``bgkit analyze FOLDER --plies 0`` (one process per core) against one
  Python process of the PyPI ``gnubg`` with ``set threads N`` (N = the cores) running
  ``import mat`` + ``analyse match`` on each record in turn. The records are ``--matches``
  self-play matches of ``--length`` points that gnubg writes into ``benchmarks/.cache``
  on first use (:mod:`make_selfplay`), or the ``.mat`` files of ``--folder``. ``--repeat``
  paired runs (bgkit, then gnubg); printed: wall and CPU seconds of each side (the CPU of
  the whole process tree: its workers too) as the range over the runs, the ratio
  bgkit / gnubg of each pair, and the CPU seconds per match of each, whose ratio says how
  much more work bgkit does than gnubg for the same figures; then, once, the season's way
  timed part by part, gnubg analysing each match itself (one process of one thread:
  ``import mat`` + ``analyse match`` + ``save match`` to SGF, bgkit reading the figures
  back as a season does with :func:`bgkit.analysis.analysis_from_file`): its CPU seconds
  per match against gnubg's, the same split into its parts (gnubg's import and analysis,
  its save, bgkit's reading of the SGF and its summing up, the rest), the wall ratio it
  would make spread over the cores, with bgkit's reading back and with none (the floor of
  any reading back), and how far its figures are from the season's (counts equal or not,
  the largest difference of each real-valued column: the season empties gnubg's cache
  before each match, this one process does not);
- ``dask``: a season of ``--dask-matches`` matches (1,000 real-size ones by default) at
  0-ply, ``bgkit analyze FOLDER --plies 0 --scheduler ADDRESS`` on a Dask ``LocalCluster``
  of 2 workers of one thread (started in a process of its own), against the same season
  on the local cores (``bgkit analyze FOLDER``); printed: the wall time of each, the
  peak memory of the client (bgkit's process and its children), of the
  scheduler's process and of each worker (proportional set sizes, so that pages
  forked processes share count once), sampled every 0.1 s, each worker's peak in the
  first and in the second half of the run (flat memory: the second no higher than the
  first plus a little), and the check that the two runs' rows per player and match are
  identical (the benchmark fails otherwise).

``--quick``: 6 matches for the season, 2 runs, and 40 for Dask: minutes, not an hour.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench_speed import GNUBG_QUIET  # (benchmarks/ is the script's folder)
from make_selfplay import cached_selfplay

CORES = os.cpu_count() or 1
PYTHON = sys.executable
BGKIT = [PYTHON, "-m", "bgkit"]

GNUBG_SEASON = GNUBG_QUIET + (
    "for kind in ('chequerplay', 'cubedecision'):\n"
    "    gnubg.command('set analysis ' + kind + ' evaluation plies 0')\n"
    "for name in sorted(os.listdir(sys.argv[1])):\n"
    "    gnubg.command('import mat ' + os.path.join(sys.argv[1], name))\n"
    "    gnubg.command('analyse match')\n"
)
# the season's way, its parts timed in one process of one thread: gnubg analyses each
# match itself (import mat + analyse match + save match) and bgkit reads its figures back
# from the SGF as a season does (analysis_from_file, the best candidate of each roll); as
# JSON, the player rows and the CPU seconds of each part (gnubg's import and analysis,
# its save, bgkit's reading of the SGF and its summing up of the figures)
GNUBG_SGF = GNUBG_QUIET + (
    "import json, pathlib, tempfile, time\n"
    "from bgkit.analysis import analysis_from_file\n"
    "from bgkit.formats import read_match\n"
    "for kind in ('chequerplay', 'cubedecision'):\n"
    "    gnubg.command('set analysis ' + kind + ' evaluation plies 0')\n"
    "work, rows = tempfile.mkdtemp(), []\n"
    "parts = dict.fromkeys(('analyse', 'save', 'read', 'sum'), 0.0)\n"
    "def timed(part, run):\n"
    "    started = time.process_time()\n"
    "    out = run()\n"
    "    parts[part] += time.process_time() - started\n"
    "    return out\n"
    "for name in sorted(os.listdir(sys.argv[1])):\n"
    "    mat, sgf = os.path.join(sys.argv[1], name), os.path.join(work, name + '.sgf')\n"
    "    timed('analyse', lambda: (gnubg.command('import mat ' + mat),\n"
    "                              gnubg.command('analyse match')))\n"
    "    timed('save', lambda: gnubg.command('save match ' + sgf))\n"
    "    match = timed('read', lambda: read_match(pathlib.Path(sgf)))\n"
    "    result = timed('sum', lambda: analysis_from_file(match, candidates=1))\n"
    "    rows += [{{'file': name, **player}} for player in result.players_list]\n"
    "pathlib.Path(sys.argv[2]).write_text(json.dumps({{'rows': rows, 'parts': parts}}))\n"
)
# a Dask LocalCluster of 2 one-thread workers in a process of its own: the scheduler (and
# the workers' nannies) in it, each worker a child process; it prints the scheduler's
# address and runs until its stdin closes
DASK_CLUSTER = (
    "import sys\n"
    "from distributed import LocalCluster\n"
    "cluster = LocalCluster(n_workers=int(sys.argv[1]), threads_per_worker=1,\n"
    "                       processes=True, dashboard_address=':0')\n"
    "print(cluster.scheduler_address, flush=True)\n"
    "sys.stdin.read()\n"
    "cluster.close()\n"
)


@dataclass
class Timed:
    """A whole process's wall seconds and the CPU seconds of its tree."""

    wall: float
    cpu: float


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command: Sequence[str], watch: MemoryWatch | None = None) -> Timed:
    """Run ``command`` as a whole process (its stdout and stderr discarded; it must succeed).

    The CPU seconds are those of the process and every descendant it waited for (its
    worker processes), from ``getrusage(RUSAGE_CHILDREN)`` before and after."""
    cpu = _children_cpu()
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if watch is not None:
        watch.client = child.pid
    _, err = child.communicate()
    wall = time.perf_counter() - start
    if child.returncode:
        raise RuntimeError(f"{' '.join(command)} failed ({child.returncode}):\n{err.decode()}")
    return Timed(wall, _children_cpu() - cpu)


def records(count: int, length: int, folder: str | None) -> list[Path]:
    if folder:
        found = sorted(Path(folder).glob("*.mat"))[:count]
        if len(found) < count:
            raise SystemExit(f"{folder}: {len(found)} .mat files, fewer than {count}")
        return found
    return cached_selfplay(count, length)


def _spread(values: Sequence[float], fmt: str = ".2f") -> str:
    low, high = min(values), max(values)
    return f"{low:{fmt}}" if f"{low:{fmt}}" == f"{high:{fmt}}" else f"{low:{fmt}}-{high:{fmt}}"


def _season_folder(work: Path, paths: list[Path]) -> Path:
    """A folder in ``work`` holding copies of ``paths`` (the season, and nothing else)."""
    folder = work / "season"
    folder.mkdir()
    for path in paths:
        shutil.copyfile(path, folder / path.name)
    return folder


def bench_season(paths: list[Path], repeat: int, label: str, alternative: bool = True) -> None:
    """``bgkit analyze FOLDER --plies 0`` against gnubg's import + analyse of each in turn."""
    n = len(paths)
    with tempfile.TemporaryDirectory() as work:
        folder = _season_folder(Path(work), paths)
        out = Path(work) / "season.json"
        ours: list[Timed] = []
        theirs: list[Timed] = []
        for _ in range(repeat):
            ours.append(
                timed(
                    [*BGKIT, "analyze", str(folder), "--plies", "0", "--no-progress",
                     "--json", str(out), "--force"]
                )
            )  # fmt: skip
            theirs.append(timed([PYTHON, "-c", GNUBG_SEASON.format(threads=CORES), str(folder)]))
        doc = json.loads(out.read_text())
        if alternative:
            alt_out = Path(work) / "gnubg_sgf.json"
            alt = timed([PYTHON, "-c", GNUBG_SGF.format(threads=1), str(folder), str(alt_out)])
            alt_doc = json.loads(alt_out.read_text())
    analysed = len({row["file"] for row in doc["matches"]})
    if analysed != n or doc["skipped"]:
        raise RuntimeError(f"bgkit analysed {analysed} of {n} matches: {doc['skipped']}")
    wall = [o.wall / t.wall for o, t in zip(ours, theirs, strict=True)]
    cpu = [o.cpu / t.cpu for o, t in zip(ours, theirs, strict=True)]
    print(
        f"season: {n} {label} at 0-ply, {repeat} paired runs (bgkit: {CORES} processes;"
        f" gnubg: one process, set threads {CORES}, import mat + analyse match of each)"
    )
    print(
        f"  wall  bgkit {_spread([o.wall for o in ours]):>11} s  gnubg"
        f" {_spread([t.wall for t in theirs]):>11} s  ratio {_spread(wall)}  (goal <= 0.6)"
    )
    print(
        f"  CPU   bgkit {_spread([o.cpu for o in ours]):>11} s  gnubg"
        f" {_spread([t.cpu for t in theirs]):>11} s  ratio {_spread(cpu)}"
    )
    print(
        f"  per match: bgkit {_spread([o.cpu / n for o in ours], '.3f')} CPU s, gnubg"
        f" {_spread([t.cpu / n for t in theirs], '.3f')} CPU s: bgkit does {_spread(cpu)}x"
        f" gnubg's work; at gnubg's cost per match its wall ratio would be"
        f" {_spread([w / c for w, c in zip(wall, cpu, strict=True)])}"
    )
    if alternative:
        _alternative(n, alt, alt_doc, doc["matches"], theirs)


def _alternative(
    n: int, alt: Timed, doc: dict[str, Any], ours: list[dict[str, Any]], theirs: list[Timed]
) -> None:
    """The cost and the figures of gnubg analysing each match itself, read back by bgkit
    (the season's way, in one process): its parts, and the wall ratio it would make spread
    over the cores, with bgkit's reading back and without (the floor of any way of
    reading gnubg's figures back)."""
    rows: list[dict[str, Any]] = doc["rows"]
    parts: dict[str, float] = doc["parts"]
    gnubg = [t.cpu / n for t in theirs]
    mine = {(Path(str(r["file"])).name, r["player"]): r for r in ours}
    shown = set(ours[0])  # (the season's JSON keeps the main columns of each row)
    numeric = [name for name, v in rows[0].items() if isinstance(v, float) and name in shown]
    counts = [
        name
        for name, v in rows[0].items()
        if isinstance(v, int) and not isinstance(v, bool) and name in shown and name != "player"
    ]
    largest: dict[str, float] = {}
    unequal = 0
    for row in rows:
        other = mine[(row["file"], row["player"])]
        unequal += any(row[name] != other[name] for name in counts)
        for name in numeric:
            a, b = row[name], other[name]
            if a is None or b is None or a != a or b != b:
                continue
            largest[name] = max(largest.get(name, 0.0), abs(a - b))
    per_match = alt.cpu / n
    print(
        f"  its parts: gnubg analysing each match itself (one process, one thread: import"
        f" mat + analyse match + save match, bgkit reading the SGF's figures back):"
        f" {alt.cpu:.1f} CPU s, {per_match:.3f} per match ="
        f" {_spread([per_match / g for g in gnubg])}x gnubg's"
    )
    back = parts["read"] + parts["sum"]
    print(
        "    per match: gnubg's import mat + analyse match "
        + ", its save match ".join(f"{parts[p] / n:.3f}" for p in ("analyse", "save"))
        + f", bgkit reading the SGF {parts['read'] / n:.3f} and summing it up"
        f" {parts['sum'] / n:.3f}, the rest (start-up) {(alt.cpu - sum(parts.values())) / n:.3f}"
    )
    print(
        f"    spread over {CORES} processes its wall ratio would be about"
        f" {_spread([alt.cpu / CORES / t.wall for t in theirs])}; with nothing read back"
        f" {_spread([(alt.cpu - back) / CORES / t.wall for t in theirs])}"
    )
    top = sorted(largest.items(), key=lambda item: -item[1])[:4]
    print(
        f"    its figures against the season's ({', '.join(counts)} equal in"
        f" {len(rows) - unequal} of {len(rows)} rows); {sum(v > 0 for v in largest.values())}"
        f" of {len(numeric)} real-valued columns differ, the most: "
        + ", ".join(f"{name} {value:.1e}" for name, value in top)
    )


@dataclass
class MemoryWatch:
    """Peak resident memory of the client's process tree, the scheduler and each worker,
    sampled every ``every`` seconds in a thread while a run lasts."""

    scheduler: int | None = None
    client: int | None = None
    every: float = 0.1
    peaks: dict[str, float] = field(default_factory=dict)
    samples: list[tuple[float, dict[str, float]]] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _workers: dict[int, int] = field(default_factory=dict)

    def __enter__(self) -> MemoryWatch:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._start = time.perf_counter()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        import psutil

        while not self._stop.wait(self.every):
            now: dict[str, float] = {}
            try:
                if self.client is not None:
                    tree = psutil.Process(self.client)
                    procs = [tree, *tree.children(recursive=True)]
                    now["client"] = sum(_rss(p) for p in procs)
                if self.scheduler is not None:
                    cluster = psutil.Process(self.scheduler)
                    now["scheduler"] = _rss(cluster)
                    for worker in cluster.children(recursive=True):
                        if "spawn_main" in " ".join(worker.cmdline()):  # (not the tracker)
                            number = self._workers.setdefault(worker.pid, len(self._workers) + 1)
                            now[f"worker {number}"] = _rss(worker)
            except psutil.Error:
                continue  # (a process ended between two calls)
            self.samples.append((time.perf_counter() - self._start, now))
            for name, value in now.items():
                self.peaks[name] = max(self.peaks.get(name, 0.0), value)

    def halves(self, name: str) -> tuple[float, float]:
        """The peak of ``name`` in the first and in the second half of the samples."""
        values = [now[name] for _, now in self.samples if name in now]
        middle = len(values) // 2
        return max(values[:middle] or [0.0]), max(values[middle:] or [0.0])


def _rss(process: Any) -> float:
    """MiB of the process's proportional set size (its own pages, and its share of those it
    shares with others: forked workers share most of theirs), else of its resident set."""
    try:
        return float(process.memory_full_info().pss) / 2**20
    except AttributeError:  # (no PSS but on Linux)
        return float(process.memory_info().rss) / 2**20


def _rows(path: Path) -> list[dict[str, object]]:
    doc = json.loads(path.read_text())
    if doc["skipped"]:
        raise RuntimeError(f"{path}: files not analysed: {doc['skipped']}")
    rows: list[dict[str, object]] = doc["matches"]
    return sorted(rows, key=lambda row: (str(row["file"]), str(row["player"])))


def bench_dask(paths: list[Path], label: str, workers: int = 2) -> None:
    """The season on a Dask LocalCluster of ``workers`` workers against the local cores."""
    n = len(paths)
    with tempfile.TemporaryDirectory() as work:
        folder = _season_folder(Path(work), paths)
        local_out, dask_out = Path(work) / "local.json", Path(work) / "dask.json"
        command = [*BGKIT, "analyze", str(folder), "--plies", "0", "--no-progress", "--json"]
        with MemoryWatch() as local_memory:
            local = timed([*command, str(local_out)], local_memory)
        cluster = subprocess.Popen(
            [PYTHON, "-c", DASK_CLUSTER, str(workers)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        try:
            assert cluster.stdout is not None and cluster.stdin is not None
            address = cluster.stdout.readline().strip()
            if not address:
                raise RuntimeError("the Dask LocalCluster did not start")
            import psutil

            worker_cpu = sum(
                sum(p.cpu_times()[:2]) for p in psutil.Process(cluster.pid).children(True)
            )
            with MemoryWatch(scheduler=cluster.pid) as memory:
                dask = timed([*command, str(dask_out), "--scheduler", address], memory)
            worker_cpu = (
                sum(sum(p.cpu_times()[:2]) for p in psutil.Process(cluster.pid).children(True))
                - worker_cpu
            )
        finally:
            if cluster.stdin is not None:
                cluster.stdin.close()
            try:
                cluster.wait(timeout=30)
            except subprocess.TimeoutExpired:
                cluster.kill()
                cluster.wait()
        ours, theirs = _rows(local_out), _rows(dask_out)
    same = ours == theirs
    matches = len({row["file"] for row in ours})
    print(
        f"dask: {n} {label} at 0-ply on a LocalCluster of {workers} one-thread workers"
        f" against the local run ({CORES} processes)"
    )
    print(
        f"  local  {local.wall:8.1f} s wall, {local.cpu:8.1f} CPU s"
        f" ({local.cpu / n:.3f} per match); peak memory {local_memory.peaks['client']:.0f} MiB"
        " (bgkit and its workers)"
    )
    print(
        f"  dask   {dask.wall:8.1f} s wall, {worker_cpu:8.1f} CPU s in the workers"
        f" ({worker_cpu / n:.3f} per match), {dask.cpu:.1f} in the client;"
        f" ratio dask / local {dask.wall / local.wall:.2f}"
    )
    peaks = memory.peaks
    workers_seen = sorted(name for name in peaks if name.startswith("worker"))
    halves = ", ".join(
        f"{name} {memory.halves(name)[0]:.0f} -> {memory.halves(name)[1]:.0f}"
        for name in workers_seen
    )
    print(
        f"  peak memory, MiB: client {peaks.get('client', 0):.0f}, scheduler (with the"
        f" nannies) {peaks.get('scheduler', 0):.0f}, "
        + ", ".join(f"{name} {peaks[name]:.0f}" for name in workers_seen)
    )
    print(f"  workers' peak, first half -> second half of the run: {halves}")
    print(
        f"  figures identical to the local run: {'yes' if same else 'NO'}"
        f" ({len(ours)} rows, {matches} matches)"
    )
    if not same or matches != n:
        raise SystemExit("the Dask run's figures differ from the local run's")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few matches, 2 runs: minutes")
    parser.add_argument("--only", default="season,dask", help="parts: season,dask")
    parser.add_argument("--matches", type=int, help="matches in the season (default 40)")
    parser.add_argument("--dask-matches", type=int, help="matches on Dask (default 1000)")
    parser.add_argument("--length", type=int, default=7, help="points per self-play match")
    parser.add_argument("--repeat", type=int, help="paired runs of the season (default 3)")
    parser.add_argument("--folder", help="use the .mat records of this folder instead")
    args = parser.parse_args(argv)
    matches = args.matches or (6 if args.quick else 40)
    dask_matches = args.dask_matches or (40 if args.quick else 1000)
    repeat = args.repeat or (2 if args.quick else 3)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{platform.processor() or platform.machine()}, {CORES} cores, Python"
        f" {platform.python_version()}, load average {load} at the start"
    )
    label = "matches" if args.folder else f"{args.length}-point gnubg self-play matches"
    parts = args.only.split(",")
    if "season" in parts:
        bench_season(records(matches, args.length, args.folder), repeat, label)
    if "dask" in parts:
        bench_dask(records(dask_matches, args.length, args.folder), label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
