"""bgkit against GNU Backgammon, whole processes on the same input, in one run (issue 15).

Usage: python benchmarks/bench_speed.py [--repeat 3] [--files 400] [--skip-2ply] [--only PARTS]

PARTS: any of ``import,verify,analyze,match,movegen,season,dask`` (default all but ``dask``).

Every figure is the wall-clock time of a whole process (interpreter start-up and imports
included, with Python's bytecode cache as in an install), the fastest of ``--repeat``
runs, with bgkit's and gnubg's runs alternating so that both see the same machine.
Printed, with the ratio bgkit / gnubg of each:

- ``import bgkit`` (the time of ``python -c "import bgkit"`` less that of ``python -c
  pass``) and ``bgkit --help``;
- ``bgkit verify -q`` over ``--files`` gnubg self-play ``.mat`` records (written by
  :mod:`make_selfplay` into ``benchmarks/.cache`` on first use, which takes minutes)
  against a Python process of the PyPI ``gnubg`` running ``import mat`` on each; with the
  machine's cores and with ``-j 1``; then verify's parts each alone in one process (its
  start-up, reading the records from memory, the rules replay) and the floor they make:
  the start-up plus reading and replay split over the cores;
- ``bgkit analyze --plies 0`` on the bundled sample and on the longest real record (a
  25-point match), and ``--plies 2`` on a 5-point self-play match, against gnubg's
  ``import mat`` + ``analyse match`` with ``set threads N``, where N is the number of
  cores, and also the number of processes bgkit uses where that is another (one more at
  2-ply for several games), gnubg's faster run counting (both use every core); then
  bgkit's analysis in one process with the CPU of every call into gnubg timed (its
  threads' included: a command's wall also holds its wait for gnubg's next look at its
  pool), and the floor: the start-up plus those calls split over the cores (at 2-ply
  also gnubg with one thread, to show how well its threads share);
- ``match``: one match, the goal of issue 31 (at most gnubg's time at 0-ply and 2-ply):
  a 3-point self-play match of one game and an 11-point one (written by
  :mod:`make_selfplay` into ``benchmarks/.cache``), each at 0-ply and 2-ply, ``bgkit
  analyze`` against gnubg's ``import mat`` + ``analyse match`` with ``set threads N`` (N:
  the cores, and bgkit's processes where those differ, the faster counting); wall and CPU
  seconds of each whole process (its children's included), and the ratios of each pair
  of runs (the two run one after the other, so that both see the same machine); then
  the time each would take on free cores, from CPU seconds alone (bgkit's main process
  plus its busiest worker, a worker per core; gnubg's CPU over its threads at 2-ply),
  the figure a busy machine does not change;
- legal-play generation per (position, roll), bgkit against ``gnubg_nn.moves``
  (functions of :mod:`bench_movegen`, in this process);
- ``season``: a season of 40 7-point self-play matches at 0-ply, ``bgkit analyze FOLDER``
  against gnubg importing and analysing each in turn, and ``dask`` (not run unless named):
  1,000 on a Dask LocalCluster of 2 workers against the local run (:mod:`bench_season`).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from make_selfplay import cached_selfplay  # (benchmarks/ is the script's folder)

if TYPE_CHECKING:
    from bgkit.records import Match

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"
DEEP = ROOT / "data" / "selfplay" / "selfplay_0003.mat"  # 5 points, 150 rolls
# the longest real record (a 25-point match, 861 rolls): bgkit's start-up counts less
LONG = ROOT / "data" / "real" / "mat" / "andrewbaine__td-gammon__monte-carlo-2001-final.mat"
CORES = os.cpu_count() or 1
PYTHON = sys.executable
BGKIT = [PYTHON, "-m", "bgkit"]
# Every process runs with Python's bytecode cache, as an installed bgkit does (pip compiles
# it): with PYTHONDONTWRITEBYTECODE set (some sandboxes and CI set it), each run would
# compile bgkit's modules from source again, 50-60 ms of CPU that no user's run spends.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}

GNUBG_QUIET = (
    "import os, sys, gnubg\n"
    "for c in ('set display off', 'set sound enable off', 'set threads {threads}'):\n"
    "    gnubg.command(c)\n"
    "os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # gnubg prints on fd 1\n"
)
GNUBG_IMPORT = GNUBG_QUIET + (
    "for name in sorted(os.listdir(sys.argv[1])):\n"
    "    gnubg.command('import mat ' + os.path.join(sys.argv[1], name))\n"
)
GNUBG_ANALYSE = GNUBG_QUIET + (
    "for kind in ('chequerplay', 'cubedecision'):\n"
    "    gnubg.command('set analysis ' + kind + ' evaluation plies ' + sys.argv[2])\n"
    "gnubg.command('import mat ' + sys.argv[1])\n"
    "gnubg.command('analyse match')\n"
)
# bgkit verify's parts, each alone: its start-up (the modules it imports, the parser
# loaded from its cache), then reading the records (already in memory) and replaying them
VERIFY_PARTS = (
    "import sys, time\n"
    "start = time.perf_counter()\n"
    "import bgkit.cli, bgkit.cli.verify  # (what bgkit verify imports: the batch, its pool)\n"
    "from bgkit.formats.mat import parse_mat\n"
    "from bgkit.verify import verify\n"
    "parse_mat(' 1 point match\\n')\n"
    "loaded = time.perf_counter()\n"
    "from pathlib import Path\n"
    "texts = [(p.read_text(), str(p)) for p in sorted(Path(sys.argv[1]).iterdir())]\n"
    "read = time.perf_counter()\n"
    "matches = [parse_mat(text, source_name=name) for text, name in texts]\n"
    "parsed = time.perf_counter()\n"
    "actions = sum(verify(m).actions_checked for m in matches)\n"
    "print(loaded - start, parsed - read, time.perf_counter() - parsed, actions)\n"
)
# bgkit's analysis in one process with every call into gnubg timed: the evaluation work
# no split over processes can take away; and what only the main process can do, before
# the workers start (start-up, the replay of the record, the tasks) and after they end
# (the JSON, counted at the C encoder's speed)
ANALYSIS_PARTS = (
    "import json, sys, time\n"
    "start = time.perf_counter()\n"
    "import gnubg, gnubg_nn, bgkit.cli, bgkit.analysis.match\n"
    "from bgkit.formats import read_match\n"
    "from bgkit.analysis.gnubg import GnubgEvaluator\n"
    "match = read_match(sys.argv[1])\n"
    "loaded = time.perf_counter()\n"
    "inside = {'gnubg': 0.0, 'prepare': 0.0}\n"
    "def timed(call, part, clock):\n"
    "    def wrapper(*args, **kwargs):\n"
    "        begun = clock()\n"
    "        try:\n"
    "            return call(*args, **kwargs)\n"
    "        finally:\n"
    "            inside[part] += clock() - begun\n"
    "    return wrapper\n"
    "# (gnubg's calls by CPU, its threads' included: a command's wall also holds its\n"
    "# wait for gnubg's next look at its pool, which other workers' work can fill)\n"
    "for name in ('findbestmoves', 'evaluate', 'command', 'setevalhintfilter'):\n"
    "    setattr(gnubg, name, timed(getattr(gnubg, name), 'gnubg', time.process_time))\n"
    "match_module = bgkit.analysis.match\n"
    "for name in ('_replay', '_tasks'):\n"
    "    setattr(\n"
    "        match_module, name, timed(getattr(match_module, name), 'prepare', time.perf_counter)\n"
    "    )\n"
    "analysis = bgkit.analysis.match.analyze(match, int(sys.argv[2]), evaluator=GnubgEvaluator())\n"
    "done = time.perf_counter()\n"
    "json.dumps(analysis.to_dict(), allow_nan=False)\n"
    "out = time.perf_counter() - done\n"
    "print(loaded - start, inside['prepare'], inside['gnubg'], out, done - loaded)\n"
)

# bgkit analyze with the CPU time of each piece of work its workers do logged: the
# main process's own CPU and its busiest worker's, printed on stderr (the time the
# command would take on free cores, whatever else runs on the machine)
BUSIEST = (
    "import os, resource, sys, tempfile, time\n"
    "import bgkit.analysis.tasks as tasks\n"
    "log = tempfile.mktemp()\n"
    "work = tasks._worker_run\n"
    "def timed(*args):\n"
    "    begun = time.process_time()\n"
    "    try:\n"
    "        return work(*args)\n"
    "    finally:\n"
    "        with open(log, 'a') as out:\n"
    "            out.write(f'{os.getpid()} {time.process_time() - begun}\\n')\n"
    "timed.__module__, timed.__qualname__ = work.__module__, work.__qualname__\n"
    "tasks._worker_run = timed\n"
    "from bgkit.cli import main\n"
    "sys.argv = ['bgkit', 'analyze', sys.argv[1], '--plies', sys.argv[2], '--json', '-',\n"
    "            '--jobs', sys.argv[3]]\n"
    "try:\n"
    "    main()\n"
    "except SystemExit:\n"
    "    pass\n"
    "busy = {}\n"
    "for row in open(log) if os.path.exists(log) else ():\n"
    "    pid, cpu = row.split()\n"
    "    busy[pid] = busy.get(pid, 0.0) + float(cpu)\n"
    "me = resource.getrusage(resource.RUSAGE_SELF)\n"
    "print(me.ru_utime + me.ru_stime, max(busy.values(), default=0.0), file=sys.stderr)\n"
)


def run(command: Sequence[str]) -> float:
    """Seconds for ``command`` as a whole process (its output discarded; it must succeed)."""
    start = time.perf_counter()
    subprocess.run(
        command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=CHILD_ENV
    )
    return time.perf_counter() - start


def fastest_with_cpu(
    commands: dict[str, Sequence[str]], repeat: int
) -> tuple[dict[str, float], dict[str, float]]:
    """:func:`fastest`, and the least CPU time (user + system, of the process and its
    children) of each command's runs: on a machine that other work shares, the wall time
    of a run varies more than its CPU time."""
    best = {label: float("inf") for label in commands}
    cpu = {label: float("inf") for label in commands}
    for _ in range(repeat):
        for label, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            best[label] = min(best[label], run(command))
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            used = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            cpu[label] = min(cpu[label], used)
    return best, cpu


def fastest(commands: dict[str, Sequence[str]], repeat: int) -> dict[str, float]:
    """The fastest of ``repeat`` runs of each command, the commands taking turns."""
    best = {label: float("inf") for label in commands}
    for _ in range(repeat):
        for label, command in commands.items():
            best[label] = min(best[label], run(command))
    return best


def line(label: str, ours: float, theirs: float, unit: str = "s", goal: str = "") -> None:
    scale = {"ms": 1e3, "us": 1e6}.get(unit, 1)
    print(
        f"  {label:<44} bgkit {ours * scale:8.2f} {unit:<2}  gnubg {theirs * scale:8.2f} {unit:<2}"
        f"  ratio {ours / theirs:5.2f}{'  (goal ' + goal + ')' if goal else ''}"
    )


def bench_import(repeat: int) -> None:
    times = fastest(
        {
            "pass": [PYTHON, "-c", "pass"],
            "import": [PYTHON, "-c", "import bgkit"],
            "help": [*BGKIT, "--help"],
            "gnubg": [PYTHON, "-c", "import gnubg"],
        },
        max(repeat, 5),
    )
    base = times["pass"]
    print(f"start-up (whole processes; the interpreter alone takes {base * 1000:.0f} ms)")
    print(f"  import bgkit{'':<33}{(times['import'] - base) * 1000:8.1f} ms  (goal < 50 ms)")
    print(f"  bgkit --help{'':<33}{times['help'] * 1000:8.1f} ms")
    print(f"  import gnubg (for scale){'':<21}{(times['gnubg'] - base) * 1000:8.1f} ms")


def bench_verify(count: int, repeat: int) -> None:
    records = [p for p in cached_selfplay(count) if p.suffix == ".mat"][:count]
    with tempfile.TemporaryDirectory() as folder:
        for path in records:
            shutil.copyfile(path, Path(folder) / path.name)
        times, cpu = fastest_with_cpu(
            {
                "bgkit": [*BGKIT, "verify", "-q", folder],
                "bgkit1": [*BGKIT, "verify", "-q", "-j", "1", folder],
                "gnubg": [PYTHON, "-c", GNUBG_IMPORT.format(threads=1), folder],
                "python": [PYTHON, "-c", "pass"],
            },
            repeat,
        )
        runs = [
            subprocess.run(
                [PYTHON, "-c", VERIFY_PARTS, folder],
                check=True,
                capture_output=True,
                text=True,
                env=CHILD_ENV,
            ).stdout.split()
            for _ in range(repeat)
        ]
    start_up, reading, replay = (min(float(run[k]) for run in runs) for k in range(3))
    n = int(runs[0][3])
    g = times["gnubg"]
    print(f"verify: {len(records)} gnubg .mat records, {n} actions (gnubg: import mat, 1 thread)")
    line(f"bgkit verify -q ({CORES} processes)", times["bgkit"], g, goal="<= 4")
    line("bgkit verify -q -j 1", times["bgkit1"], g)
    print(
        f"  CPU time (all processes): bgkit {cpu['bgkit']:.2f} s ({CORES} processes),"
        f" {cpu['bgkit1']:.2f} s (-j 1); gnubg {cpu['gnubg']:.2f} s"
    )
    start_up += times["python"]  # (the interpreter's own start, before the parts' clock)
    best = start_up + (reading + replay) / CORES
    print(
        f"  its parts, each alone: start-up {start_up:.2f} s (interpreter, imports, parser),"
        f" reading {reading:.2f} s ({reading / n * 1e6:.1f} us/action), rules replay {replay:.2f} s"
        f" ({replay / n * 1e6:.1f} us/action) on one core\n"
        f"  floor: start-up + reading and replay split over {CORES} cores = {best:.2f} s,"
        f" {best / g:.1f}x gnubg's whole process"
    )


def bgkit_processes(match: Match, plies: int) -> int:
    """The worker processes ``bgkit analyze`` forks for ``match`` searched ``plies`` deep
    by default (``bgkit.analysis.tasks.plan_jobs``, its own rule: a worker a core, one
    more deeper than 0-ply for several games; at least one)."""
    from bgkit.analysis.tasks import plan_jobs

    actions = sum(len(game.actions) for game in match.games)
    return max(1, plan_jobs(None, actions, None, plies, len(match.games)))


def gnubg_threads(processes: int) -> tuple[int, ...]:
    """The thread counts gnubg's side runs with against ``bgkit analyze`` of ``processes``
    workers: the cores, and as many as bgkit's processes where that is another number,
    gnubg's faster run counting."""
    return (CORES,) if processes == CORES else (CORES, processes)


def bench_analyze(path: Path, plies: int, repeat: int) -> None:
    commands = {
        "bgkit": [*BGKIT, "analyze", str(path), "--plies", str(plies), "--json", "-"],
        "python": [PYTHON, "-c", "pass"],
    }
    from bgkit.formats import read_match

    procs = bgkit_processes(read_match(path), plies)
    threads = gnubg_threads(procs)
    for n in threads:
        commands[f"gnubg{n}"] = [
            PYTHON, "-c", GNUBG_ANALYSE.format(threads=n), str(path), str(plies)
        ]  # fmt: skip
    if plies:  # (at 0-ply a second thread gains gnubg nothing: 0.35 s either way, sample.mat)
        commands["gnubg1"] = [PYTHON, "-c", GNUBG_ANALYSE.format(threads=1), str(path), str(plies)]
    times = fastest(commands, repeat)
    g = min(times[f"gnubg{n}"] for n in threads)
    line(
        f"analyze {path.name} at {plies}-ply ({procs} procs, threads"
        f" {'/'.join(map(str, threads))})",
        times["bgkit"],
        g,
        "s",
        "<= 1.0",  # (issue 31: one match at most gnubg's time, 0-ply and 2-ply)
    )
    parts = subprocess.run(
        [PYTHON, "-c", ANALYSIS_PARTS, str(path), str(plies)],
        check=True,
        capture_output=True,
        text=True,
        env=CHILD_ENV,
    ).stdout.split()
    start_up, prepare, inside, output, whole = (float(x) for x in parts)
    start_up += times["python"]  # (the interpreter's own start, before the parts' clock)
    best = start_up + prepare + inside / CORES + output
    print(
        f"  in one process: start-up {start_up:.2f} s (interpreter, imports, gnubg's nets,"
        f" the record), analysis {whole:.2f} s, of it {inside:.2f} CPU s inside gnubg's"
        f" calls and {prepare:.2f} s replaying the record into tasks; JSON {output:.2f} s"
    )
    if plies:
        print(
            f"  gnubg with 1 thread: {times['gnubg1']:.2f} s (its threads share its"
            f" search: {times['gnubg1'] / g:.2f}x faster, and its figures then vary from run"
            f" to run); bgkit, whose figures are those of one thread"
            f" (benchmarks/fidelity.py), {times['bgkit'] / times['gnubg1']:.2f}x that"
        )
    print(
        f"  floor: start-up, replay and JSON (one process) + the CPU of the calls into gnubg"
        f" split over {CORES} cores = {best:.2f} s, {best / g:.2f}x gnubg"
    )


def run_cpu(command: Sequence[str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``command`` as a whole process, its children's CPU
    included (the workers it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = run(command)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu


def one_game(paths: Sequence[Path]) -> Path:
    """The first record of one game among ``paths`` (else the one of fewest games)."""
    from bgkit.formats import read_match

    return min(paths, key=lambda path: (len(read_match(path).games), paths.index(path)))


def bench_match(repeat: int, skip_2ply: bool) -> None:
    """One match at 0-ply and 2-ply, paired runs of bgkit and gnubg, wall and CPU."""
    from bgkit.formats import read_match

    records = [one_game(cached_selfplay(8, 3)), cached_selfplay(1, 11)[0]]
    print(
        "one match: bgkit analyze (its default processes, each record's below) against gnubg"
        f" import mat + analyse match (set threads {CORES}, and bgkit's processes where those"
        f" differ, its faster run counting); {repeat} pairs of runs (goal: ratio <= 1.0)"
    )
    for path in records:
        match = read_match(path)
        actions = sum(len(game.actions) for game in match.games)
        for plies in (0,) if skip_2ply else (0, 2):
            bgkit = [*BGKIT, "analyze", str(path), "--plies", str(plies), "--json", "-"]
            procs = bgkit_processes(match, plies)
            gnubgs = [
                [PYTHON, "-c", GNUBG_ANALYSE.format(threads=n), str(path), str(plies)]
                for n in gnubg_threads(procs)
            ]
            pairs = [
                (run_cpu(bgkit), min((run_cpu(gnubg) for gnubg in gnubgs), key=lambda r: r[0]))
                for _ in range(repeat)
            ]
            walls = [ours[0] / theirs[0] for ours, theirs in pairs]
            cpus = [ours[1] / theirs[1] for ours, theirs in pairs]
            (wall, cpu), (g_wall, g_cpu) = (
                [min(pair[side][k] for pair in pairs) for k in (0, 1)] for side in (0, 1)
            )
            label = (
                f"{match.length}-pt, {len(match.games)} games, {actions} actions, {plies}-ply,"
                f" {procs} procs"
            )
            print(
                f"  {label:<44} bgkit {wall:6.2f} s (CPU {cpu:6.2f})"
                f"  gnubg {g_wall:6.2f} s (CPU {g_cpu:6.2f})  ratio wall"
                f" {statistics.median(walls):4.2f} ({min(walls):.2f}-{max(walls):.2f})"
                f" CPU {statistics.median(cpus):4.2f}"
            )
            # on free cores: bgkit's main process and its busiest worker one after the
            # other (an upper bound: the main process works while they do); gnubg's CPU
            # shared evenly by its threads at 2-ply (5.87 s with one thread, 2.78 s with
            # two, on a quiet machine), one thread's at 0-ply (a second gains nothing)
            main_cpu, busiest = min(
                (
                    tuple(float(x) for x in parts.stderr.split()[-2:])
                    for parts in (
                        subprocess.run(
                            [PYTHON, "-c", BUSIEST, str(path), str(plies), str(CORES)],
                            check=True,
                            capture_output=True,
                            text=True,
                        )
                        for _ in range(repeat)
                    )
                ),
                key=sum,
            )
            free = main_cpu + busiest
            theirs = g_cpu / CORES if plies else g_cpu
            print(
                f"  {'':<44} on {CORES} free cores, from CPU: bgkit {free:5.2f} s (main"
                f" {main_cpu:.2f} + busiest worker {busiest:.2f}), gnubg {theirs:5.2f} s,"
                f" ratio {free / theirs:4.2f}"
            )


def bench_movegen(repeat: int, positions: int = 1000) -> None:
    import bench_movegen as mg

    sample = mg.random_positions(positions, 1)
    ours = mg.best_time(mg.bgkit_job([gp.position() for gp in sample], mg.ROLLS), repeat)
    boards = [[list(gp.board[0]), list(gp.board[1])] for gp in sample]
    theirs = mg.best_time(mg.gnubg_job(boards, mg.ROLLS), repeat)
    calls = len(sample) * len(mg.ROLLS)
    print(f"move generation: {len(sample)} positions from random games x 21 rolls, per call")
    line("legal plays per (position, roll)", ours / calls, theirs / calls, "us", goal="<= 50 us")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the fastest counts")
    parser.add_argument("--files", type=int, default=400, help="records for verify")
    parser.add_argument("--skip-2ply", action="store_true", help="no 2-ply analysis (slow)")
    parser.add_argument(
        "--only",
        default="import,verify,analyze,match,movegen,season",
        help="comma-separated parts to run (also: dask, 1,000 matches on a Dask cluster)",
    )
    args = parser.parse_args(argv)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{platform.processor() or platform.machine()}, {CORES} cores, Python"
        f" {platform.python_version()}, load average {load} at the start"
    )
    parts = args.only.split(",")
    if "import" in parts:
        bench_import(args.repeat)
    if "verify" in parts:
        bench_verify(args.files, args.repeat)
    if "analyze" in parts:
        print("analysis (gnubg: import mat + analyse match)")
        bench_analyze(SAMPLE, 0, args.repeat)
        bench_analyze(LONG, 0, args.repeat)
        if not args.skip_2ply:
            bench_analyze(DEEP, 2, max(1, args.repeat - 1))
    if "match" in parts:
        bench_match(args.repeat, args.skip_2ply)
    if "movegen" in parts:
        bench_movegen(args.repeat)
    if "season" in parts or "dask" in parts:
        import bench_season

        label = "7-point gnubg self-play matches"
        if "season" in parts:
            bench_season.bench_season(cached_selfplay(40, 7), args.repeat, label)
        if "dask" in parts:
            bench_season.bench_dask(cached_selfplay(1000, 7), label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
