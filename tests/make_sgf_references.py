"""GNU Backgammon plays, analyses and saves: the references for reading gnubg's own SGF analysis.

Usage::

    python tests/make_sgf_references.py [NAME...]     # default: every reference below

For each reference the PyPI ``gnubg`` module, in a process of its own, plays a match
(``new match N``) or a money session (``new session``, ``new game``...) against itself,
player 1 with evaluation noise on its chequer play and cube decisions (so that it errs),
then analyses it at the reference's depth (``analyse match``: chequer play and cube at
PLIES, luck at 0-ply, gnubg's defaults otherwise, one thread) and writes, into
``tests/data/sgf_analysis/``:

- ``NAME.sgf.gz``: the match with gnubg's analysis, as gnubg's ``save match`` wrote it
  (gzip'ed: gnubg keeps every candidate play of every roll);
- ``NAME.stats.txt``: gnubg's ``show statistics match`` in the same session, the figures
  ``bgkit analyze NAME.sgf --use-file-analysis`` must give.

The recipe is the project's shared ``tools/gnubg_money_session.py``, for match play too.
Play is seeded (``set seed``; the noise is deterministic per position), so a rerun with
the same gnubg makes the same files.
"""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data", "sgf_analysis")

#: name -> (match length, 0 for money; games of a session; seed; plies; jacoby; beavers)
REFERENCES: dict[str, tuple[int, int, int, int, str, int]] = {
    "match7.0ply": (7, 0, 1, 0, "off", 0),  # 6 games: Crawford, post-Crawford
    "match5.0ply": (5, 0, 4, 0, "off", 0),
    "match3.2ply": (3, 0, 7, 2, "off", 0),
    "money.0ply": (0, 4, 8, 0, "on", 3),  # a beaver, taken
    "money.2ply": (0, 2, 4, 2, "on", 3),
}
NAMES = ("Ann", "Bob")
#: name -> (a record in ``OUT`` that gnubg imports instead of playing, plies)
IMPORTED: dict[str, tuple[str, int]] = {
    # a gnubg self-play match (benchmarks/make_selfplay.py): Bob doubles where he wins
    # for sure, no double and double/pass both 1.000000 MWC; gnubg counts no error
    "match7sure.0ply": ("match7sure.mat", 0),
}


def play_and_analyse(name: str) -> None:
    """In this process: play (or import), analyse and save reference ``name``."""
    import gnubg
    from gnubg_reference import capture_stdout  # (tests/ is this script's folder)

    def run(command: str) -> str:
        return capture_stdout(lambda: gnubg.command(command))

    for command in ("set display off", "set sound enable off", "set threads 1"):
        run(command)
    if name in IMPORTED:
        record, plies = IMPORTED[name]
        run(f"import mat {os.path.join(OUT, record)}")
    else:
        _play(name, run)
        plies = REFERENCES[name][3]
    for kind in ("chequerplay", "cubedecision"):
        run(f"set analysis {kind} evaluation plies {plies}")
    run("analyse match")
    stats = run("show statistics match")
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "analysed.sgf")
        run(f"save match {path}")
        with open(path, "rb") as handle:
            sgf = handle.read()
    with gzip.GzipFile(os.path.join(OUT, f"{name}.sgf.gz"), "wb", mtime=0) as out:
        out.write(sgf)
    with open(os.path.join(OUT, f"{name}.stats.txt"), "w", encoding="utf-8") as text:
        text.write(stats)


def _play(name: str, run: Callable[[str], str]) -> None:
    """gnubg plays reference ``name`` against itself (player 1 with noise)."""
    length, games, seed, _, jacoby, beavers = REFERENCES[name]
    if not length:  # (a session's games are started one by one)
        run("set automatic game off")
    run(f"set jacoby {jacoby}")
    run(f"set beavers {beavers}")
    for p in (0, 1):
        run(f"set player {p} gnubg")
        run(f"set player {p} chequerplay evaluation plies 0")
        run(f"set player {p} cubedecision evaluation plies 0")
    run("set player 1 chequerplay evaluation noise 0.06")
    run("set player 1 cubedecision evaluation noise 0.06")
    run(f"set seed {seed}")
    if length:
        run(f"new match {length}")
    else:
        run("new session")
        for _ in range(games - 1):
            run("new game")
    for p, player in enumerate(NAMES):  # (`new match` resets the names)
        run(f"set player {p} name {player}")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"]:
        play_and_analyse(argv[1])
        return 0
    os.makedirs(OUT, exist_ok=True)
    known = [*REFERENCES, *IMPORTED]
    for name in argv or known:
        if name not in known:
            print(f"unknown reference {name!r}: one of {', '.join(known)}", file=sys.stderr)
            return 2
        # gnubg is a process-wide singleton: one process per reference
        subprocess.run([sys.executable, __file__, "--one", name], check=True, cwd=HERE)
        print(f"wrote {name}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
