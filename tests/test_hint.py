"""``bgkit.hint`` and ``bgkit hint`` against GNU Backgammon, asked directly.

Positions come from random games (``gnubg_oracle``: both players pick among gnubg_nn's
legal results). For a position with dice, every play and its 0-ply equity must be what
``gnubg.findbestmoves`` gives (in the same order); without dice, the three cube equities
and the proper action must be what gnubg's own ``hint`` command prints at 0-ply.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from dataclasses import replace
from typing import Any

import pytest

pytest.importorskip("gnubg")

import gnubg_session as session
from gnubg_oracle import board_of, random_positions, result_board

from bgkit import Position
from bgkit.analysis.hints import hint

POSITIONS = random_positions(40, seed=16, variant_share=0.0)
MATCH_STATES = [
    {"match_length": 0},
    {"match_length": 0, "jacoby": True, "beavers": True},
    {"match_length": 7, "score": (2, 4)},
    {"match_length": 5, "score": (3, 0), "cube": 2, "cube_owner": 0},
    {"match_length": 3, "score": (0, 0)},
    {"match_length": 0, "cube": 2, "cube_owner": 0, "beavers": True},
    {"match_length": 9, "score": (5, 5), "cube": 2, "cube_owner": 0},
]


def states(i: int) -> dict[str, Any]:
    """A match state for position ``i`` (player 0 is on roll: a cube owned by 0 is his)."""
    return dict(MATCH_STATES[i % len(MATCH_STATES)])


def gnubg_plays(pos: Position, dice: tuple[int, int]) -> list[tuple[Any, float]]:
    """(result board, 0-ply score) of every play, best first, from ``gnubg.findbestmoves``."""
    gnubg = session.open_session()
    board = board_of(pos)
    owner = -1 if pos.cube_owner is None else pos.cube_owner
    length = pos.match_length
    ci = gnubg.cubeinfo(pos.cube, owner, pos.turn, length, pos.score, int(pos.crawford), 0)
    if not length and not pos.jacoby:  # the module's cubeinfo always sets Jacoby for money
        ci["jacoby"] = 0
        ci["gammonprice"] = ((1.0, 1.0), (1.0, 1.0))
    moves = gnubg.findbestmoves(board, ci, gnubg.evalcontext(1, 0, 0, 0, 0.0), dice)
    out = []
    for m in moves:
        # (a tuple cut short at a checker borne off gives no board: None)
        after = board_after(board, m["move"]) if len(m["move"]) % 2 == 0 else None
        out.append((after, float(m["score"])))
    return out


def board_after(board: Any, move: tuple[int, ...]) -> Any:
    opp, me = [list(board[0]), list(board[1])]
    for i in range(0, len(move) - 1, 2):
        src, dst = move[i], move[i + 1]
        if src <= 0:
            continue
        me[src - 1] -= 1
        if dst > 0:
            me[dst - 1] += 1
            if opp[24 - dst] == 1:
                opp[24 - dst] = 0
                opp[24] += 1
    return (tuple(opp), tuple(me))


@pytest.mark.parametrize("index", range(0, 40, 2))
def test_plays_equal_gnubg_findbestmoves(index: int) -> None:
    rng = random.Random(index)
    pos = replace(POSITIONS[index].position(turn=0), **states(index))
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    ours = hint(pos.with_dice(*dice), plies=0, candidates=None)
    theirs = gnubg_plays(pos, dice)
    if not theirs:
        assert ours.plays == ()
        return
    legal = pos.legal_results(*dice)
    assert len(ours.plays) == len(legal) == len(theirs)
    equities = [p.equity for p in ours.plays]  # best first
    assert equities == pytest.approx([score for _, score in theirs], abs=1e-4)
    if all(board is not None for board, _ in theirs):
        key_of = {str(play): key for key, play in legal.items()}
        mine = {result_board(key_of[str(p.play)]): p.equity for p in ours.plays}
        assert set(mine) == {board for board, _ in theirs}  # the same results
        for board, score in theirs:  # with the same equities
            assert mine[board] == pytest.approx(score, abs=1e-4)
    assert equities == sorted(equities, reverse=True)
    assert ours.plays[0].difference == 0.0
    assert all(p.difference <= 0 for p in ours.plays)
    assert all(0 <= x <= 1 for p in ours.plays for x in p.probabilities)


_EQUITY = re.compile(
    r"^\d\. (No (?:re)?double|(?:Re)?[Dd]ouble, take|(?:Re)?[Dd]ouble, pass)\s+([+-]\d+\.\d+)", re.M
)
_PROPER = re.compile(r"Proper cube action: ([^(\n]+?)\s*(?:\(|$)", re.M)


def gnubg_cube(pos: Position) -> tuple[dict[str, float], str] | None:
    """gnubg's 0-ply cube equities and proper action for ``pos``, from its ``hint``."""
    session.command("set evaluation cubedecision evaluation plies 0")
    session.command("set evaluation chequerplay evaluation plies 0")
    session.command(f"set beavers {3 if pos.beavers else 0}")  # not in gnubg's IDs
    session.set_position(pos)
    text = session.command("hint")
    proper = _PROPER.search(text)
    if proper is None:
        return None
    found = {}
    for name, value in _EQUITY.findall(text):
        key = "nd" if name.lower().startswith("no") else ("dt" if "take" in name else "dp")
        found[key] = float(value)
    return found, proper.group(1)


@pytest.mark.parametrize("index", range(40))
def test_cube_decision_equals_gnubg_hint(index: int) -> None:
    pos = replace(POSITIONS[index].position(turn=0), **states(index))
    theirs = gnubg_cube(pos)
    cube = hint(pos, plies=0).cube
    assert cube is not None
    if theirs is None:  # gnubg gives no cube analysis: no double is possible
        assert not cube.available
        return
    equities, action = theirs
    assert cube.available
    assert cube.no_double == pytest.approx(equities["nd"], abs=6e-4)
    assert cube.double_take == pytest.approx(equities["dt"], abs=6e-4)
    assert cube.double_pass == pytest.approx(equities["dp"], abs=6e-4)
    assert cube.proper_action == action


def test_cube_not_available_and_dead_cube_wording() -> None:
    pos = POSITIONS[3].position(turn=0)
    crawford = replace(pos, match_length=5, score=(4, 2), crawford=True)
    dead = replace(pos, match_length=3, cube=4, cube_owner=0)  # 4 wins the match already
    for state, action in (
        (crawford, "Cube not available"),
        (dead, "Never redouble, take (dead cube)"),
    ):
        assert gnubg_cube(state) is None  # gnubg: "You cannot double."
        cube = hint(state, plies=0).cube
        assert cube is not None and not cube.available
        assert cube.proper_action == action


def test_match_take_point() -> None:
    # at 0-0 of a 7-point match the taker's dead-cube take point is near money's 25%
    pos = Position.initial(match_length=7)
    cube = hint(pos, plies=0).cube
    assert cube is not None and cube.take_point is not None
    assert 0.2 < cube.take_point < 0.3
    money = hint(Position.initial(), plies=0).cube
    assert money is not None and money.take_point is None


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bgkit", "hint", *args, *([] if "--plies" in args else ["-p", "0"])],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_cli_json_lines_for_plays_and_cube() -> None:
    opening = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:7:10"
    result = run_cli(opening, opening.replace(":00:", ":52:"), "--json")
    assert result.returncode == 0, result.stderr
    first, second = (json.loads(line) for line in result.stdout.splitlines())
    assert set(first["cube"]) >= {"no_double", "double_take", "double_pass", "proper_action"}
    assert first["cube"]["proper_action"] == "No double, take"
    plays = second["plays"]
    assert second["dice"] == [5, 2] and len(plays) == 5
    assert set(plays[0]) >= {"play", "equity", "probabilities"}
    assert len(plays[0]["probabilities"]) == 5
    assert [p["equity"] for p in plays] == sorted((p["equity"] for p in plays), reverse=True)


def test_cli_dice_option_and_text() -> None:
    result = run_cli("4HPwATDgc/ABMA:cAkAAAAAAAAA", "--dice", "31")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert any("8/5 6/5" in line for line in lines[:4])
    assert lines[0].endswith("(GNU Backgammon, 0-ply)")  # (the level it used)


def test_cli_bad_notation_is_one_line() -> None:
    result = run_cli("XGID=nonsense")
    assert result.returncode == 2
    assert len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


@pytest.mark.parametrize("index", range(1, 40, 6))
def test_hint_and_moves_print_every_play_alike(index: int) -> None:
    """``bgkit hint`` and ``bgkit moves`` write each play the same way (issue 14): the
    evaluator's plays go through the rules engine's written form, bear-offs included."""
    from click.testing import CliRunner

    from bgkit.cli import main

    rng = random.Random(index)
    pos = POSITIONS[index].position(turn=0)
    dice = f"{rng.randint(1, 6)}{rng.randint(1, 6)}"
    notation = pos.xgid()
    runner = CliRunner()
    moves = runner.invoke(main, ["moves", notation, dice, "--json"])
    hinted = runner.invoke(main, ["hint", notation, "-d", dice, "-n", "200", "-p", "0", "--json"])
    assert moves.exit_code == 0 and hinted.exit_code == 0, (moves.output, hinted.output)
    written = [row["play"] for row in json.loads(moves.output)["plays"]]
    ranked = [row["play"] for row in json.loads(hinted.output)["plays"]]
    assert sorted(ranked) == sorted(written)


_ORACLE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import gnubg_session as session
from test_hint import gnubg_cube
from bgkit import Position
session.command('set matchequitytable "' + sys.argv[2] + '"')
found = [gnubg_cube(Position.from_gnubg_id(i)) for i in json.loads(sys.argv[3])]
print(json.dumps(found))
"""


@pytest.mark.parametrize("met", ["woolsey", "jac100", "Rockwell-Kazaross"])
def test_cube_decisions_with_another_table_equal_gnubgs(met: str) -> None:
    """gnubg's ``hint`` after its own ``set matchequitytable`` (in a process of its own:
    gnubg holds one table per process), against ``hint(..., met=...)``; a table bgkit
    left unloaded would give the default table's figures, which differ."""
    from pathlib import Path

    from bgkit.analysis.met import met_path
    from bgkit.gnubgid import gnubg_id

    positions = [
        replace(POSITIONS[i].position(turn=0), **states(i))
        for i in range(40)
        if states(i)["match_length"]
    ]
    ids = [gnubg_id(pos) for pos in positions]
    here = str(Path(__file__).resolve().parent)
    run = subprocess.run(
        [sys.executable, "-c", _ORACLE, here, str(met_path(met)), json.dumps(ids)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    theirs = json.loads(run.stdout.splitlines()[-1])
    changed = 0
    for pos, found in zip(positions, theirs, strict=True):
        cube = hint(pos, plies=0, met=met).cube
        assert cube is not None
        if found is None:
            assert not cube.available
            continue
        equities, action = found
        assert cube.no_double == pytest.approx(equities["nd"], abs=6e-4)
        assert cube.double_take == pytest.approx(equities["dt"], abs=6e-4)
        assert cube.proper_action == action
        default = hint(pos, plies=0).cube
        assert default is not None
        changed += abs(default.no_double - cube.no_double) > 0.005
    assert changed >= 3


def test_cli_met_option() -> None:
    position = "4HPwATDgc/ABMA:cAngAEAAKAAE"  # the opening, 7-point match at 4-5
    default, woolsey = run_cli(position, "--json"), run_cli(position, "--met", "woolsey", "--json")
    assert default.returncode == woolsey.returncode == 0, default.stderr + woolsey.stderr
    cube, other = json.loads(default.stdout)["cube"], json.loads(woolsey.stdout)["cube"]
    assert other["no_double"] < cube["no_double"] - 0.02  # (gnubg: -0.100 and -0.066)
    bad = run_cli(position, "--met", "nonsense")
    assert bad.returncode == 2 and "choose one of Kazaross-XG2" in bad.stderr
