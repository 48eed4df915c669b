"""gnubg's own analysis of one match cut in pieces, move by move, one process a piece.

    python benchmarks/gnubg_moves.py [FILE ...] [--plies 2] [--lookback 2] [--repeat 3]

Measured, not built (issue 31): a way for a deeper analysis of one match to keep gnubg's
own figures and use both cores. Each piece is a process that imports the match, goes to
the piece's first move (``first game``, ``next game``, ``first move``, ``next N``) and runs
gnubg's ``analyse move`` on each move of the piece, then ``save match``; a piece that
starts within a game first analyses the ``--lookback`` moves before it again, from an
empty cache, for what they leave in gnubg's cache (their figures are dropped). For each
FILE (default: the one-game 3-point self-play match and ``data/selfplay/selfplay_0003``):

- gnubg's own one-thread ``analyse match`` (the oracle: its SGF);
- the same moves analysed one ``analyse move`` at a time in one process: its wall and
  CPU, each move's CPU (the cost the pieces are cut by: here the measured one, the best
  a planner could do), and whether its SGF is the oracle's;
- two pieces cut at half of that CPU, run at once: the wall of the pair, and whether every
  move node of each piece's own part is the oracle's, byte for byte;
- gnubg's ``analyse match`` with two threads, and ``bgkit analyze FILE --plies N``, the
  same number of times, alternating.

The pieces run with bgkit's gnubg session (its pool of two threads, pinned to the
caller's CPU for each command: gnubg looks at its pool every 10 ms, and a command that
waits for that look leaves the core idle).
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_speed import GNUBG_ANALYSE

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
ONE_GAME = ROOT / "benchmarks" / ".cache" / "selfplay" / "selfplay_1002.mat"
DEEP = ROOT / "data" / "selfplay" / "selfplay_0003.mat"

_SETUP = """
import sys, json, time
sys.path.insert(0, {root!r})
from bgkit.analysis.gnubg_process import _session, gnubg_module
gnubg = gnubg_module()
session = _session()
session.start_threads(gnubg, {threads})
for kind in ("chequerplay", "cubedecision"):
    session.run(gnubg, "set analysis %s evaluation plies {plies}" % kind)
with session.one_cpu():
    session.run(gnubg, "import mat " + {mat!r})
"""

#: gnubg's own ``analyse match``, then its SGF (the oracle with one thread).
ANALYSE = (
    _SETUP
    + """
start = time.process_time()
session.run(gnubg, "analyse match")
with session.one_cpu():
    session.run(gnubg, "save match " + {out!r})
print(json.dumps({{"cpu": time.process_time() - start}}))
"""
)

#: The moves of ``segments`` ((game, first move, end) each) analysed one at a time;
#: each move's CPU seconds.
PIECE = (
    _SETUP
    + """
games = [len(g["game"]) + 1 for g in gnubg.match(analysis=0, boards=0, statistics=0)["games"]]
costs = []
for game, first, end in {segments!r}:
    with session.one_cpu():
        session.run(gnubg, "first game")
        for _ in range(game):
            session.run(gnubg, "next game")
        session.run(gnubg, "first move")
        if first:
            session.run(gnubg, "next %d" % first)
    for _ in range(first, min(end, games[game])):
        before = time.process_time()
        with session.one_cpu():
            session.run(gnubg, "analyse move")
            session.run(gnubg, "next")
        costs.append(time.process_time() - before)
with session.one_cpu():
    session.run(gnubg, "save match " + {out!r})
print(json.dumps({{"games": games, "costs": costs}}))
"""
)


def _script(template: str, **values: object) -> list[str]:
    return [PYTHON, "-c", template.format(root=str(ROOT), **values)]


def _run(commands: list[list[str]]) -> tuple[float, float, list[str]]:
    """Run ``commands`` at once: the wall of them all, their CPU, and their outputs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    procs = [
        subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for c in commands
    ]
    outs = [p.communicate()[0] for p in procs]
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if any(p.returncode for p in procs):
        raise RuntimeError(f"a gnubg process failed: {[p.returncode for p in procs]}")
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return wall, cpu, [o.strip().splitlines()[-1] if o.strip() else "" for o in outs]


def _nodes(sgf: str) -> list[list[str]]:
    """Each game tree's nodes (the root first), as gnubg writes them (no ``;`` in the
    self-play records' names and comments)."""
    trees = re.split(r"\)\s*\(", sgf.strip().strip("()"))
    return [tree.split(";")[1:] for tree in trees]


Segments = list[tuple[int, int, int]]


def _cut(games: list[int], costs: list[float], lookback: int) -> list[tuple[Segments, int]]:
    """Two pieces, cut where the first half of the CPU ends: each a list of (game, first
    move, end) segments and how many of its first moves are a look back (the second
    begins ``lookback`` moves early, none at a game's start)."""
    total, run, where = sum(costs), 0.0, (len(games) - 1, games[-1])
    index = 0
    for game, moves in enumerate(games):
        for move in range(moves):
            run += costs[index]
            index += 1
            if run >= total / 2:
                where = (game, move + 1)
                break
        else:
            continue
        break
    game, move = where
    if move >= games[game]:
        game, move = game + 1, 0
    first = [(g, 0, games[g]) for g in range(game)] + ([(game, 0, move)] if move else [])
    back = min(move, lookback)
    second = [(game, move - back, games[game])] + [
        (g, 0, games[g]) for g in range(game + 1, len(games))
    ]
    return [(first, 0), (second, back)]


def _own(segments: Segments, back: int) -> list[tuple[int, int]]:
    """The (game, move) of each move a piece keeps (its first ``back`` are a look back)."""
    kept = [(game, m) for game, first, end in segments for m in range(first, end)]
    return kept[back:]


def bench(path: Path, plies: int, lookback: int, repeat: int) -> None:
    with tempfile.TemporaryDirectory() as work:
        ref_sgf = str(Path(work) / "ref.sgf")
        _run([_script(ANALYSE, threads=1, plies=plies, mat=str(path), out=ref_sgf)])
        oracle = _nodes(Path(ref_sgf).read_text())
        whole = str(Path(work) / "moves.sgf")
        games = [len(g) for g in oracle]  # (a count to cap the loop: gnubg's is exact)
        all_moves = [(g, 0, n + 1) for g, n in enumerate(games)]
        wall1, cpu1, out = _run(
            [_script(PIECE, threads=2, plies=plies, mat=str(path), out=whole, segments=all_moves)]
        )
        found = json.loads(out[0])
        same_whole = _nodes(Path(whole).read_text()) == oracle
        pieces = _cut(found["games"], found["costs"], lookback)
        outs = [str(Path(work) / f"piece{k}.sgf") for k in range(2)]
        commands = [
            _script(PIECE, threads=2, plies=plies, mat=str(path), out=o, segments=s)
            for o, (s, _) in zip(outs, pieces, strict=True)
        ]
        # (gnubg alone, as bench_speed.py runs it)
        gnubg2 = [PYTHON, "-c", GNUBG_ANALYSE.format(threads=2), str(path), str(plies)]
        bgkit = [PYTHON, "-m", "bgkit", "analyze", str(path), "--plies", str(plies), "--json",
                 str(Path(work) / "b.json"), "--force"]  # fmt: skip
        walls: dict[str, list[float]] = {"pieces": [], "gnubg": [], "bgkit": []}
        cpus: dict[str, list[float]] = {"pieces": [], "gnubg": [], "bgkit": []}
        for _ in range(repeat):
            for name, cmds in (("pieces", commands), ("gnubg", [gnubg2]), ("bgkit", [bgkit])):
                w, c, _ = _run(cmds)
                walls[name].append(w)
                cpus[name].append(c)
        differ = []
        for k, (segments, back) in enumerate(pieces):
            got = _nodes(Path(outs[k]).read_text())
            for game, move in _own(segments, back):
                node = move + 1  # (the root is node 0)
                if node < len(oracle[game]) and got[game][node] != oracle[game][node]:
                    differ.append((k, game, move))
    n_moves = sum(found["games"])
    print(f"{path.name}, {plies}-ply, {len(games)} games, {n_moves} move records:")
    print(
        f"  one process, move by move: wall {wall1:.2f} s, CPU {cpu1:.2f} s;"
        f" its SGF the oracle's: {same_whole}"
    )
    print(f"  pieces (game, first move, end): {[s for s, _ in pieces]}")
    for name in ("pieces", "gnubg", "bgkit"):
        label = {"gnubg": "gnubg, two threads", "bgkit": "bgkit analyze"}.get(name, "two pieces")
        print(
            f"  {label:<20} wall {min(walls[name]):.2f}-{max(walls[name]):.2f} s"
            f" (median {statistics.median(walls[name]):.2f}), CPU"
            f" {statistics.median(cpus[name]):.2f} s"
        )
    ratio = statistics.median(walls["pieces"]) / statistics.median(walls["gnubg"])
    mine = statistics.median(walls["bgkit"]) / statistics.median(walls["gnubg"])
    print(f"  ratio to gnubg: pieces {ratio:.2f}, bgkit {mine:.2f}")
    print(f"  move nodes of the pieces' own parts not the oracle's: {differ or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--plies", type=int, default=2)
    parser.add_argument("--lookback", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for path in args.files or [ONE_GAME, DEEP]:
        if not path.is_file():  # (the one-game match is made by bench_speed.py)
            print(f"{path}: no such file (run benchmarks/bench_speed.py --only match once)")
            continue
        bench(path, args.plies, args.lookback, args.repeat)


if __name__ == "__main__":
    main()
