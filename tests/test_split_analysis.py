"""A deeper analysis with its games cut into pieces for several processes, against GNU
Backgammon's own figures (``tests/data/analysis/*.2ply.json``, ``tests/data/money/
*.2ply.luck.json``, written by gnubg: see the README files there).

gnubg's 2-ply figures depend on what its cache holds from the searches before, so a piece
of a game is searched after the two actions before it (``bgkit.analysis.tasks``). Here
the pieces are made as small as they can be (many cuts per game, each a place where the
figures could go wrong), and every roll's luck, every error and every candidate list must
still be gnubg's, to the decimals gnubg writes.
"""

from __future__ import annotations

import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("gnubg")

from bgkit.analysis.tasks import MIN_CUT

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"

#: The analysis at sys.argv[3] plies in two processes with pieces of sys.argv[2] actions'
#: work, and how many pieces started after their game's first action (the cuts).
_SPLIT = """
import json, sys
from bgkit.analysis import tasks
from bgkit.analysis.match import analyze
from bgkit.formats.mat import read_mat
made = tasks.pieces
cuts = []
def counted(found, jobs):
    out = made(found, jobs, int(sys.argv[2]))
    cuts.extend(piece for piece in out if not found[piece[1]].first)
    return out
tasks.pieces = counted
result = analyze(read_mat(sys.argv[1]), int(sys.argv[3]), jobs=2)
json.dump({"jobs": result.jobs, "cuts": len(cuts), "moves": result.to_dict()["moves"]}, sys.stdout)
"""


@cache
def split(path: Path, piece: int, plies: int = 2) -> dict[str, Any]:
    """The analysis of ``path`` at ``plies`` in two processes, its games cut every
    ``piece`` actions (in a process of its own: the workers are forked from one without
    gnubg)."""
    run = subprocess.run(
        [sys.executable, "-c", _SPLIT, str(path), str(piece), str(plies)],
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, Any] = json.loads(run.stdout)
    assert found["jobs"] == 2
    return found


@pytest.mark.parametrize("plies", [2, 1])
@pytest.mark.parametrize(
    "record",
    [DATA / "analysis" / "example_a.mat", ROOT / "data" / "fixtures" / "handwritten_3pt.mat"],
    ids=lambda path: path.stem,
)
def test_games_cut_into_pieces_give_gnubgs_figures(record: Path, plies: int) -> None:
    """Every error and every roll's luck within 1e-5 EMG of gnubg's, and the five best
    plays of every roll with gnubg's equities and depths, the play made too (the 2-ply
    references keep them). At 1-ply a piece is searched after one action."""
    found = split(record, 3, plies)
    assert found["cuts"] >= 2
    reference = DATA / "analysis" / f"{record.stem}.{plies}ply.json"
    theirs = json.loads(reference.read_text())["moves"]
    mine = [m for m in found["moves"] if m["action"] in ("move", "double", "take", "drop")]
    assert len(mine) == len(theirs)
    lucks = candidates = 0
    for a, b in zip(mine, theirs, strict=True):
        assert (a["action"], a["player"], a["dice"]) == (b["action"], b["player"], b.get("dice"))
        if "error" in b:
            assert a["error_emg"] == pytest.approx(b["error"], abs=1e-5), a
        if "luck" in b:
            assert a["luck_emg"] == pytest.approx(b["luck"], abs=1e-5), a
            lucks += 1
        if a["action"] != "move" or "candidates" not in b:
            continue
        top, gnubg_top = a["candidates"][:5], b["candidates"][:5]
        assert len(top) == len(gnubg_top), a
        for c, text in zip(top, gnubg_top, strict=True):
            words = text.split()
            assert c["equity"] == pytest.approx(float(words[9]), abs=1e-5), a
            assert c["level"] == f"Cubeful {words[10].rstrip('C')}-ply"
        made = next(c for c in a["candidates"] if c["played"])
        assert made["equity"] == pytest.approx(b["equity_played"], abs=1e-5), a
        candidates += 1
    assert lucks >= 10 and candidates >= (5 if plies == 2 else 0)  # (no 1-ply lists kept)


def test_a_money_session_cut_into_pieces_has_gnubgs_luck_on_every_roll() -> None:
    """The luck of a roll is the figure most bound to gnubg's cache (a dance's luck reads
    what the search of the play before left there): all 188 rolls of a money session, its
    games cut every 12 actions, to gnubg's five decimals (the session with a beaver)."""
    found = split(DATA / "money" / "jacoby_beavers.mat", 12)
    assert found["cuts"] >= 8
    theirs = json.loads((DATA / "money" / "jacoby_beavers.2ply.luck.json").read_text())
    mine = [m for m in found["moves"] if m["action"] == "move" and m["luck_emg"] is not None]
    assert len(mine) == len(theirs) == 188
    for row, (game, player, dice, luck) in zip(mine, theirs, strict=True):
        assert (row["game"], row["player"], row["dice"]) == (game, player, dice)
        assert row["luck_emg"] == pytest.approx(luck, abs=1e-5), row


#: The analysis at 2-ply in two processes, the whole match handed out as one piece, and
#: where the rest of a piece was handed to the worker with nothing to do while it ran.
_HANDED_ON = """
import json, sys
from bgkit.analysis import tasks
from bgkit.analysis.match import analyze
from bgkit.formats.mat import read_mat
tasks.pieces = lambda found, jobs: [(0, 0, len(found))]
cut = tasks.Runner._cut_running
handed = []
def counted(runner):
    piece = cut(runner)
    if piece is not None:
        handed.append((piece.start, piece.stop))
    return piece
tasks.Runner._cut_running = counted
result = analyze(read_mat(sys.argv[1]), 2, jobs=2)
json.dump({"handed": handed, "moves": result.to_dict()["moves"]}, sys.stdout)
"""


def test_the_rest_of_a_piece_goes_to_a_worker_with_nothing_to_do() -> None:
    """Handed the whole match as one piece (its games one after the other, each from
    empty caches), the worker left without a piece takes the second half of what the
    other has left, while it runs, as often as a half is worth it
    (``Runner._cut_running``), wherever that falls in a game: the figures are still
    gnubg's, every error and luck of a 7-point match and every roll's luck of the money
    session."""
    for record, reference in (
        (DATA / "analysis" / "selfplay_7pt_cube_noise.mat", "selfplay_7pt_cube_noise"),
        (DATA / "money" / "jacoby_beavers.mat", None),
    ):
        run = subprocess.run(
            [sys.executable, "-c", _HANDED_ON, str(record)],
            capture_output=True,
            text=True,
            check=True,
        )
        found = json.loads(run.stdout)
        assert found["handed"], record  # (the other worker had nothing to start with)
        for start, stop in found["handed"]:
            assert stop - start >= MIN_CUT
        if reference is None:  # the money session's 188 rolls: gnubg's luck on each
            theirs = json.loads((DATA / "money" / "jacoby_beavers.2ply.luck.json").read_text())
            mine = [
                m for m in found["moves"] if m["action"] == "move" and m["luck_emg"] is not None
            ]
            assert [(m["game"], m["player"], m["dice"]) for m in mine] == [
                tuple(t[:3]) for t in theirs
            ]
            for row, luck in zip(mine, (t[3] for t in theirs), strict=True):
                assert row["luck_emg"] == pytest.approx(luck, abs=1e-5), row
            continue
        ref = json.loads((DATA / "analysis" / f"{reference}.2ply.json").read_text())["moves"]
        mine = [m for m in found["moves"] if m["action"] in ("move", "double", "take", "drop")]
        assert len(mine) == len(ref)
        for a, b in zip(mine, ref, strict=True):
            if "error" in b:
                assert a["error_emg"] == pytest.approx(b["error"], abs=1e-5), a
            if "luck" in b:
                assert a["luck_emg"] == pytest.approx(b["luck"], abs=1e-5), a


@pytest.mark.parametrize(("record", "games"), [("selfplay_0001", 1), ("selfplay_0002", 5)])
def test_pieces_cover_every_action_once_within_its_game(record: str, games: int) -> None:
    """Each task in one piece; a piece's actions searched before it are of its game, two
    at 2-ply (none at a game's start); a one-game match is cut for two workers."""
    from bgkit.analysis import match as analysis_match
    from bgkit.analysis.tasks import pieces
    from bgkit.formats.mat import read_mat

    match = read_mat(ROOT / "data" / "selfplay" / f"{record}.mat")
    steps, _ = analysis_match._replay(match)
    tasks, _ = analysis_match._tasks(match, steps, 2)
    assert sum(task.first for task in tasks) == games
    found = pieces(tasks, 2)
    assert sorted(i for _, start, stop in found for i in range(start, stop)) == list(
        range(len(tasks))
    )
    for lead, start, stop in found:
        assert start < stop
        if tasks[start].first:
            assert lead == start
        else:
            assert start - lead == 2 and not any(task.first for task in tasks[lead + 1 : stop])
    if games == 1:
        assert len(found) == 2
    assert sorted(pieces(tasks, 1)) == [(start, start, stop) for start, stop in _games(tasks)]


def _games(tasks: Any) -> list[tuple[int, int]]:
    starts = [i for i, task in enumerate(tasks) if task.first]
    return list(zip(starts, [*starts[1:], len(tasks)], strict=True))


@pytest.mark.parametrize(("at", "handed"), [(15, (23, 28, 21)), (21, (25, 28, 23)), (22, None)])
def test_a_short_rest_of_a_running_piece_is_cut_when_each_side_keeps_min_cut(
    at: int, handed: tuple[int, int, int] | None
) -> None:
    """A one-game match's piece searching task ``at`` of tasks up to 28 has its rest cut
    at half its estimated work for a free worker, when each side keeps ``MIN_CUT`` tasks:
    a 2-ply game's costliest actions may all lie in its last dozen (in ``selfplay_1001``
    2.1 of its 3.9 CPU s lay in 10 actions, where a rest needed 16 tasks to be cut)."""
    from bgkit.analysis import match as analysis_match
    from bgkit.analysis import tasks as analysis_tasks
    from bgkit.formats.mat import read_mat

    match = read_mat(ROOT / "data" / "selfplay" / "selfplay_0001.mat")
    steps, _ = analysis_match._replay(match)
    tasks, _ = analysis_match._tasks(match, steps, 2)
    runner = analysis_tasks.Runner(0)
    runner._tasks = tasks
    runner._game_of = [0] * len(tasks)
    runner._shares = analysis_tasks._Shares(4)
    runner._pieces.append(analysis_tasks._Job(0, 28, 0, 0))
    runner._shares.open(0, 28)
    runner._shares.begin(0, at)
    submitted: list[tuple[int, int, int]] = []

    def submit(lead: int, start: int, stop: int) -> analysis_tasks._Job:
        submitted.append((start, stop, lead))
        return analysis_tasks._Job(start, stop, lead)

    runner._submit_piece = submit  # type: ignore[method-assign]
    found = runner._cut_running()
    if handed is None:
        assert found is None and not submitted and runner._shares.stop(0) == 28
        return
    assert submitted == [handed]
    cut, stop, lead = handed
    assert runner._shares.stop(0) == cut  # (the running piece stops before it)
    assert cut - (at + 1) >= MIN_CUT and stop - cut >= MIN_CUT and cut - lead == 2
