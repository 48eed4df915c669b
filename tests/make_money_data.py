"""Rebuild the money-session references in ``tests/data/money`` (needs the PyPI ``gnubg``).

Usage::

    python tests/make_money_data.py

GNU Backgammon plays three money sessions against itself (seed 8, five games, player 1
with noise 0.06 on checker play and cube, both at 0-ply), one per set of rules: the Jacoby
rule and beavers (``jacoby_beavers``, gnubg's defaults; the session holds a beaver), the
Jacoby rule without beavers (``jacoby``), and neither (``plain``). It exports each as
``.mat`` (which carries no rule tags) and analyses it in the playing session, at 0-ply and
at 2-ply, keeping ``show statistics match`` as ``NAME.PLIESply.stats.txt``.

This is the recipe of the project's shared ``tools/gnubg_money_session.py`` (run in a
process of its own for each session and depth: gnubg is one global state per process),
with only the outputs the tests need kept: the sessions' analysed SGF files are large.
The sessions played for 0-ply and for 2-ply are the same (gnubg's evaluation noise is
deterministic by default); the script checks it.

Two one-game sessions (seed 3) are kept as gnubg's SGF (``save match``), with the
analysis properties gnubg writes during play taken out (``A``, ``DA``, ``LU``, ``MR``):
``gnubg_money_jacoby.sgf`` (its ``RU[Jacoby]`` says the rule) and
``gnubg_money_plain.sgf`` (no ``RU``: gnubg played it without), with the latter's
statistics at 0-ply (``gnubg_money_plain.0ply.stats.txt``).

Last, ``jacoby_beavers.2ply.luck.json`` and ``plain.2ply.luck.json``: the luck gnubg gives
each roll of those sessions at 2-ply (``tests/gnubg_reference.py``: ``import mat`` with
gnubg's default rules, without the Jacoby rule for ``plain``, ``analyse match`` in a fresh
process), as ``[game, player, dice, luck]`` rows in record order. (A roll's luck at 2-ply
depends on what gnubg's cache holds: the playing session's own analysis, in the
``stats.txt``, had its play's searches in it, and gives other luck figures than a fresh
process: ``plain``'s luck adjusted result +6.100 there, +6.085 fresh.)
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tests" / "data" / "money"

SEED, GAMES = 8, 5
#: name: (Jacoby rule, beavers a cube may take)
SESSIONS = {"jacoby_beavers": ("on", 3), "jacoby": ("on", 0), "plain": ("off", 0)}
PLIES = (0, 2)

_SESSION = r"""
import sys
import gnubg
sys.path.insert(0, sys.argv.pop())  # (tests/, for its gnubg_reference)
from gnubg_reference import capture_stdout

base, seed, jacoby, beavers, games, plies = sys.argv[1], int(sys.argv[2]), sys.argv[3], \
    sys.argv[4], int(sys.argv[5]), int(sys.argv[6])
for c in ("set display off", "set sound enable off", "set threads 1", "set automatic game off",
          f"set jacoby {jacoby}", f"set beavers {beavers}"):
    gnubg.command(c)
for p in (0, 1):
    gnubg.command(f"set player {p} gnubg")
    gnubg.command(f"set player {p} chequerplay evaluation plies 0")
    gnubg.command(f"set player {p} cubedecision evaluation plies 0")
gnubg.command("set player 1 chequerplay evaluation noise 0.06")
gnubg.command("set player 1 cubedecision evaluation noise 0.06")
gnubg.command(f"set seed {seed}")
gnubg.command("new session")
for _ in range(games - 1):
    gnubg.command("new game")
gnubg.command(f"export match mat {base}.mat")
gnubg.command(f"save match {base}.sgf")
for c in (f"set analysis chequerplay evaluation plies {plies}",
          f"set analysis cubedecision evaluation plies {plies}"):
    gnubg.command(c)
gnubg.command("analyse match")
with open(f"{base}.{plies}ply.stats.txt", "w") as out:
    out.write(capture_stdout(lambda: gnubg.command("show statistics match")))
"""


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (jacoby, beavers) in SESSIONS.items():
            played = None
            for plies in PLIES:
                base = Path(tmp) / f"{name}.{plies}"
                args = [str(base), str(SEED), jacoby, str(beavers), str(GAMES), str(plies)]
                subprocess.run(
                    [sys.executable, "-c", _SESSION, *args, str(ROOT / "tests")], check=True
                )
                mat = Path(f"{base}.mat").read_text()
                if played is not None and mat != played:
                    raise SystemExit(f"{name}: the session played for {plies}-ply differs")
                played = mat
                stats = Path(f"{base}.{plies}ply.stats.txt").read_text()
                (HERE / f"{name}.{plies}ply.stats.txt").write_text(stats)
            assert played is not None
            (HERE / f"{name}.mat").write_text(played)
            print(f"{name}: {played.count('Game ')} games", file=sys.stderr)
        for name, jacoby in (("gnubg_money_jacoby", "on"), ("gnubg_money_plain", "off")):
            base = Path(tmp) / name
            args = [str(base), "3", jacoby, "0", "1", "0"]
            subprocess.run([sys.executable, "-c", _SESSION, *args, str(ROOT / "tests")], check=True)
            sgf = Path(f"{base}.sgf").read_text()
            sgf = re.sub(r"(?<=[\];(\s])(A|DA|LU|MR)(\[(?:[^\]\\]|\\.)*\])+", "", sgf)
            (HERE / f"{name}.sgf").write_text(sgf)
            if jacoby == "off":
                stats = Path(f"{base}.0ply.stats.txt").read_text()
                (HERE / f"{name}.0ply.stats.txt").write_text(stats)
        for name, rules in (("jacoby_beavers", []), ("plain", ["--no-jacoby"])):
            write_luck_reference(name, rules, Path(tmp))


def write_luck_reference(name: str, rules: list[str], tmp: Path) -> None:
    """``NAME.2ply.luck.json``: gnubg's luck of each roll of ``NAME.mat`` at 2-ply, analysed
    in a fresh process with the rules ``rules`` (``gnubg_reference.py`` options)."""
    out = tmp / f"{name}.luck.json"
    reference = [sys.executable, str(ROOT / "tests" / "gnubg_reference.py")]
    record = str(HERE / f"{name}.mat")
    subprocess.run([*reference, record, "2", *rules, "--json", str(out)], check=True)
    moves = json.loads(out.read_text())["moves"]
    rows = [[m["game"], m["player"], m["dice"], m["luck"]] for m in moves if "luck" in m]
    (HERE / f"{name}.2ply.luck.json").write_text(json.dumps(rows) + "\n")


if __name__ == "__main__":
    main()
