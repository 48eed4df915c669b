"""``bgkit hint --plies N`` against GNU Backgammon's own ``hint`` at N plies (2: its
default strength; 1 and 3 as well).

Positions with dice are drawn (seeded) from games gnubg played against itself
(``data/selfplay``, and a money session of ``tests/data/money``). gnubg is asked in a
process of its own, with its defaults but the depth (its ``hint`` move filters), one
position after the other; bgkit's command line gets the same positions in the same
order. Every play gnubg lists must be bgkit's, in gnubg's order, with gnubg's equity,
depth and chances (the chances of the depth the play was searched to).
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from bgkit.formats.mat import read_mat
from bgkit.position import Position
from bgkit.replay import replay

pytest.importorskip("gnubg")

ROOT = Path(__file__).resolve().parent.parent
GAMES = [
    ROOT / "data" / "selfplay" / "selfplay_0003.mat",
    ROOT / "tests" / "data" / "money" / "plain.mat",
]
PER_RECORD = 3

_ORACLE = r"""
import ctypes, os, sys, tempfile
import gnubg

def run(command):
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as out:
        os.dup2(out.fileno(), 1)
        try:
            gnubg.command(command)
        finally:
            ctypes.CDLL(None).fflush(None)
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        return out.read().decode()

plies = sys.argv[1]
for c in ("set display off", "set sound enable off", "set threads 1", "set output digits 6",
          f"set evaluation chequerplay evaluation plies {plies}",
          f"set evaluation cubedecision evaluation plies {plies}"):
    run(c)
for gid in sys.argv[2:]:
    run(f"set gnubgid {gid}")
    print("=== " + gid)
    print(run("hint 9999"))
"""

_LINE = re.compile(
    r"^\s*\d+\.\s+Cubeful (\d)-ply\s+(.+?)\s+Eq\.:\s+([+-]\d+\.\d+).*\n"
    r"\s*([0-9.]+) ([0-9.]+) ([0-9.]+) - [0-9.]+ ([0-9.]+) ([0-9.]+)",
    re.M,
)


def positions() -> list[Position]:
    out = []
    for path in GAMES:
        rolled = [
            step.rolled
            for step in replay(read_mat(path))
            if step.kind == "move" and len(step.rolled.legal_results()) > 1
        ]
        out += random.Random(7).sample(rolled, PER_RECORD)
    return out


def net(play: str) -> Counter[str]:
    """What a play written ``24/18*/13 8/4(2)`` does: checkers off each point, onto each
    point (intermediate points cancel)."""
    moved: Counter[str] = Counter()
    for token in play.split():
        count = 1
        if token.endswith(")"):
            token, _, n = token[:-1].partition("(")
            count = int(n)
        points = token.replace("*", "").split("/")
        moved[points[0]] -= count
        moved[points[-1]] += count
    return +moved + Counter({k: v for k, v in moved.items() if v < 0})


DEPTHS = (1, 2, 3)


@cache
def gnubg_hints(plies: int) -> dict[str, list[tuple[Counter[str], float, int, tuple[float, ...]]]]:
    ids = [f"{p.gnubg_id()}:{p.match_id()}" for p in positions()]
    text = subprocess.run(
        [sys.executable, "-c", _ORACLE, str(plies), *ids],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    found = {}
    for block in text.split("=== ")[1:]:
        gid, _, body = block.partition("\n")
        found[gid.strip()] = [
            (net(m[2]), float(m[3]), int(m[1]), tuple(float(x) for x in m.groups()[3:8]))
            for m in _LINE.finditer(body)
        ]
    return found


@cache
def bgkit_hints(plies: int) -> list[dict[str, object]]:
    args = [p.xgid() for p in positions()]
    command = [sys.executable, "-m", "bgkit", "hint", *args, "--plies", str(plies), "-n", "500"]
    out = subprocess.run([*command, "--json"], capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines()]


@pytest.mark.parametrize("plies", DEPTHS)
@pytest.mark.parametrize("index", range(len(GAMES) * PER_RECORD))
def test_hint_is_gnubgs(index: int, plies: int) -> None:
    pos = positions()[index]
    theirs = gnubg_hints(plies)[f"{pos.gnubg_id()}:{pos.match_id()}"]
    mine = bgkit_hints(plies)[index]["plays"]
    assert isinstance(mine, list) and theirs
    assert len(mine) == len(theirs)
    for rank, (play, (moved, equity, depth, chances)) in enumerate(
        zip(mine, theirs, strict=True), 1
    ):
        assert net(play["play"]) == moved, rank
        assert play["equity"] == pytest.approx(equity, abs=1e-6), rank
        assert play["plies"] == depth, rank
        assert play["probabilities"] == pytest.approx(list(chances), abs=1e-6), rank
