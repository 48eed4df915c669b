"""XG's analysis levels and rollouts (issue 27 item 8) and XG position files, ``.xgp``
(issue 28 item 1).

The figures expected here are XG's own: the cube rollout is XG's record of
``TooGoodAndTake.xgp`` as ConvertXgToJson_Lib's golden decode prints it (see
``tests/make_xg_fixtures.py``, which built ``data/fixtures/xg/`` from it), the play
position is XG's own records of one decision of ``data/real/xg/kevung__gbf__test.xg``.
"""

from __future__ import annotations

import io
import json
import struct
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from make_xg_fixtures import (
    RESULT1,
    archive,
    cube_record,
    game_header,
    match_header,
    real_records,
    rich_header,
    rollout_context,
    with_rolled_out_second,
)
from test_limits import assert_one_line, bgkit_run

import bgkit
from bgkit.errors import NotationError
from bgkit.formats.annotations import Rollout
from bgkit.formats.json_record import parse_json
from bgkit.formats.positions import read_exports, read_positions
from bgkit.formats.sgf_analysis import analysis_of
from bgkit.formats.xg import LEVELS, parse_xg_record, read_xg_record, read_xgp
from bgkit.records import Move

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "data" / "fixtures" / "xg"
CUBE = FIXTURES / "cube_rollout.xgp"
PLAY = FIXTURES / "play.xgp"
PLAY_ROLLOUT = FIXTURES / "play_rollout.xgp"
TEST_XG = ROOT / "data" / "real" / "xg" / "kevung__gbf__test.xg"


def f32(x: float) -> float:
    """``x`` as XG stores it (a Delphi Single)."""
    return float(struct.unpack("<f", struct.pack("<f", x))[0])


# XG's rollout of TooGoodAndTake.xgp: ConvertXgToJson_Lib's golden decode of the real file.
XG_ROLLOUT = Rollout(
    trials=1296,
    truncation=None,
    standard_error=f32(0.008834839) / 1.96,
    confidence=f32(0.008834839),
    checker_level="4-ply",  # Level1 = 3
    cube_level="XG Roller",  # Level1C = 1000
    variance_reduction=True,
    cubeful=True,
    seed=97688624,  # RandomSeedI
)


# ------------------------------------------------------------------ levels (issue 27 item 8)


def test_levels_are_xgs_codes() -> None:
    # xg_format.pas, PLAYERLEVEL: 100 is a rollout, 1000-1002 the XG Rollers, 12 3-ply red
    assert LEVELS[100] == "Rollout"
    assert (LEVELS[1000], LEVELS[1001], LEVELS[1002]) == ("XG Roller", "XG Roller+", "XG Roller++")
    assert LEVELS[12] == "3-ply red"
    assert [LEVELS[n] for n in range(7)] == [f"{n}-ply" for n in range(1, 8)]


def test_real_roller_evaluations_are_not_rollouts() -> None:
    # test.xg: its candidates at level 1002 (XG Roller++), as counted in the records; no
    # candidate or cube decision is rolled out (level 100)
    body = b"".join(real_records())
    raw = 0
    for at in range(0, len(body), 2560):
        if body[at + 8] == 3 and body[at + 2308]:  # a move record, its play made
            n = struct.unpack_from("<l", body, at + 124 + 64)[0]
            for i in range(max(0, min(n, 32))):
                raw += struct.unpack_from("<h", body, at + 124 + 1156 + 4 * i)[0] == 1002
    record = read_xg_record(TEST_XG)
    named = [
        c.level
        for game in record.analysis
        for note in game
        if note is not None and note.checker is not None
        for c in note.checker.candidates
    ]
    assert raw > 400
    assert named.count("XG Roller++") == raw
    assert "Rollout" not in named


# ------------------------------------------------------------------ rollouts


def test_cube_rollout_is_xgs() -> None:
    cube = read_xgp(CUBE).cube
    assert cube is not None
    assert cube.level == "Rollout"
    assert (cube.no_double, cube.double_take, cube.double_pass) == (
        f32(1.1710503),
        f32(0.60041064),
        1.0,
    )
    assert cube.probabilities is not None
    assert cube.probabilities.values() == tuple(
        f32(x) for x in (0.77807134, 0.40612987, 0.17966479, 0.0035489919, 0.00014316337)
    )
    assert cube.rollout == XG_ROLLOUT
    assert cube.double_rollout == Rollout(
        **{
            **{f: getattr(XG_ROLLOUT, f) for f in ("trials", "checker_level", "cube_level")},
            "confidence": f32(0.017504454),
            "standard_error": f32(0.017504454) / 1.96,
            "variance_reduction": True,
            "cubeful": True,
            "seed": 97688624,
        }
    )
    assert cube.proper_action == "too good, take"  # the file's name


def test_checker_play_rollout() -> None:
    checker = read_xgp(PLAY_ROLLOUT).checker
    assert checker is not None
    rolled = checker.candidates[1]
    assert (rolled.level, rolled.equity, rolled.rollout) == ("Rollout", f32(RESULT1[6]), XG_ROLLOUT)
    assert all(c.rollout is None for i, c in enumerate(checker.candidates) if i != 1)


def test_a_rollout_index_past_the_rollouts_is_a_located_error() -> None:
    records = real_records()
    move = [i for i, r in enumerate(records) if r[8] == 3][9]
    records[move] = with_rolled_out_second(records[move])
    data = rich_header("") + archive({"temp.xg": b"".join(records)})  # no temp.xgr
    # a part of XG's analysis (#28): the match is read, that candidate without a rollout
    record = parse_xg_record(data, source_name="r.xg")
    (fault,) = record.match.read_errors
    assert not fault.record
    assert fault.message == (
        "game 1: the analysis points to rollout 1, but 'temp.xgr' holds 0"
        f" (record {move + 1} of 'temp.xg', byte 2348)"
    )
    whole = parse_xg_record(TEST_XG.read_bytes())
    assert [g.actions for g in record.match.games] == [g.actions for g in whole.match.games]
    from bgkit.verify import IssueKind, verify

    report = verify(record.match)
    assert report.ok  # (a part of XG's analysis: a note, no rule broken)
    assert [(e.kind, e.message) for e in report.notes if e.kind.value.startswith("unread")] == [
        (
            IssueKind.UNREADABLE_ANALYSIS,
            f"{fault.message} (a part of the record's own analysis: every action is read and"
            " verified)",
        )
    ]
    assert report.actions_checked == verify(whole.match).actions_checked


def _match_with_rollouts() -> bytes:
    """test.xg with the tenth roll of game 1 rolled out: its second candidate and the cube
    decision before it point to XG's rollout of TooGoodAndTake (made up, to travel)."""
    records = real_records()
    move = [i for i, r in enumerate(records) if r[8] == 3][9]
    records[move] = with_rolled_out_second(records[move])
    cube = bytearray(records[move - 1])
    struct.pack_into("<l", cube, 64 + 28, 100)  # EngineStructDoubleAction.Level
    struct.pack_into("<l", cube, 224, 0)  # RolloutindexD
    records[move - 1] = bytes(cube)
    files = {"temp.xg": b"".join(records), "temp.xgr": rollout_context()}
    return rich_header("") + archive(files)


def test_rollouts_travel_through_sgf_and_json() -> None:
    record = parse_xg_record(_match_with_rollouts(), source_name="rolled.xg")
    action = record.match.games[0].actions[9]
    assert isinstance(action, Move) and action.dice == (5, 3)
    note = analysis_of(action)
    assert note is not None and note.checker is not None and note.cube is not None
    assert note.checker.candidates[1].rollout == XG_ROLLOUT
    assert note.cube.rollout == XG_ROLLOUT and note.cube.double_rollout is not None
    assert note == record.analysis[0][9]
    back = bgkit.read_match(io.StringIO(record.match.to_sgf()))
    assert analysis_of(back.games[0].actions[9]) == note
    again = parse_json(record.match.to_json())
    assert analysis_of(again.games[0].actions[9]) == note
    bk = json.loads(dict(back.games[0].actions[9].annotations)["BK"][0])
    assert bk["checker"]["candidates"][1]["rollout"]["trials"] == 1296


# ------------------------------------------------------------------ .xgp (issue 28 item 1)


def test_cube_position_is_the_records() -> None:
    export = read_xgp(CUBE)
    # XG's records: 5-point match, 3-1, XG's player 1 (X) on roll, cube centred, no dice
    assert export.position.xgid() == "XGID=abBBBBBB----bC---abcbb----:0:0:1:00:3:1:0:5:10"
    assert export.names == ("Player 2", "Player 1")
    assert export.heading == "Position: 5 point match 3-1"
    assert export.checker is None


def test_play_position_is_the_matchs() -> None:
    # the same decision replayed from the match (whose plays XG's .mat export confirms)
    step = next(
        s
        for s in bgkit.replay(bgkit.read_match(TEST_XG))
        if (s.game_index, s.action_index) == (0, 9)
    )
    export = read_xgp(PLAY)
    pos = export.position
    assert pos.gnubg_id() == step.before.gnubg_id() == "bM6FAQPg28HBAA"
    assert (pos.dice, pos.match_length, pos.score, pos.cube) == ((5, 3), 7, (0, 0), 1)
    assert export.names[pos.turn] == "Maxence Job"  # XG's player 2, on roll
    assert export.checker is not None and export.checker.best is not None
    assert (str(export.checker.best.play), export.checker.best.level) == ("8/3 6/3", "XG Roller++")
    assert export.cube is not None and export.cube.level == "2-ply"
    assert read_positions(PLAY) == (pos,) and read_exports(PLAY) == (export,)


def test_a_match_is_not_read_as_a_position_nor_a_position_as_a_match(tmp_path: Path) -> None:
    with pytest.raises(NotationError, match="match file, not a position file"):
        read_xgp(TEST_XG)
    with pytest.raises(NotationError, match=r"\.xgp\) holds one position, not a match"):
        bgkit.read_match(PLAY)
    # a match saved after its first roll has an .xgp's shape, but its play is made
    records = real_records()
    first = next(i for i, r in enumerate(records) if r[8] == 3)
    data = rich_header("") + archive({"temp.xg": b"".join(records[: first + 1])})
    assert len(parse_xg_record(data, source_name="one.xg").match.games[0].actions) == 1
    with pytest.raises(NotationError, match="holds one position"):
        parse_xg_record(data, source_name="one.xgp")


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 4 * 2560 - 1), st.integers(0, 255)), min_size=1, max_size=6),
    st.sampled_from([PLAY, CUBE, PLAY_ROLLOUT]),
)
def test_damaged_position_files_fail_with_a_located_error(
    changes: list[tuple[int, int]], path: Path
) -> None:
    from bgkit.formats.xg import _archive

    files = {k: bytearray(v) for k, v in _archive(path.read_bytes(), None).items()}
    body = files["temp.xg"]
    for at, value in changes:
        body[at % len(body)] = value
    data = rich_header("") + archive({k: bytes(v) for k, v in files.items()})
    try:
        read = read_xgp(io.BytesIO(data))
    except NotationError as err:
        assert err.location.startswith("1:") or ":1:" in err.location
    else:
        assert read.position.is_valid()


def test_money_and_a_double_to_answer() -> None:
    # a money session (length 99999, Jacoby) keeps running totals in its game headers;
    # a cube record that doubles with no answer yet is a take decision
    cube = bytearray(cube_record())
    struct.pack_into("<l", cube, 16, 1)  # double = 1, take = -1
    records = [match_header(99999, ("A", "B"), jacoby=True), game_header((2, 5)), bytes(cube)]
    files = {"temp.xg": b"".join(records), "temp.xgr": rollout_context()}
    pos = read_xgp(io.BytesIO(rich_header("") + archive(files))).position
    assert (pos.match_length, pos.score, pos.jacoby, pos.doubled) == (0, (0, 0), True, True)
    assert pos.xgid() == "XGID=abBBBBBB----bC---abcbb----:0:0:1:D:0:0:1:0:10"


# ------------------------------------------------------------------ the command line


def test_show_prints_the_position(tmp_path: Path) -> None:
    run = bgkit_run("show", str(CUBE), cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert "XGID=abBBBBBB----bC---abcbb----:0:0:1:00:3:1:0:5:10" in run.stdout
    assert "5 points match" in run.stdout


def test_hint_prints_xgs_analysis(tmp_path: Path) -> None:
    run = bgkit_run("hint", str(CUBE), cwd=tmp_path)
    assert run.code == 0, run.stderr
    assert "eXtreme Gammon's analysis, from the file" in run.stdout
    assert "no double     +1.171" in run.stdout
    assert "rollout: 1296 trials, ±0.009 (95%)" in run.stdout
    assert "proper cube action: too good, take" in run.stdout
    run = bgkit_run("hint", "--json", str(PLAY), cwd=tmp_path)
    out = json.loads(run.stdout)
    assert out["dice"] == [5, 3]
    assert [p["play"] for p in out["plays"][:2]] == ["8/3 6/3", "13/8 6/3"]
    assert out["plays"][0]["equity"] == f32(-0.12824803590774536)


def test_hint_can_ask_gnubg_instead(tmp_path: Path) -> None:
    pytest.importorskip("gnubg")
    # 0-ply: hint's default is now gnubg's 2-ply, where 13/8 6/3 leads by 0.002
    run = bgkit_run("hint", "--gnubg", "-p", "0", "-n", "2", str(PLAY), cwd=tmp_path, timeout=60)
    assert run.code == 0, run.stderr
    assert "from the file" not in run.stdout
    assert run.stdout.splitlines()[0].endswith("(GNU Backgammon, 0-ply)")
    # gnubg (its own process, 0-ply) ranks the position read as XG did
    plays = [line.split()[1:3] for line in run.stdout.splitlines()[1:]]
    assert plays == [["8/3", "6/3"], ["13/8", "6/3"]]


@pytest.mark.parametrize("command", ["verify", "convert"])
def test_verify_and_convert_say_it_is_a_position(tmp_path: Path, command: str) -> None:
    out = tmp_path / "out.sgf"
    args = ("convert", str(PLAY), str(out)) if command == "convert" else ("verify", str(PLAY))
    run = bgkit_run(*args, cwd=tmp_path)
    assert_one_line(run, 2, "play.xgp", "holds one position, not a match")
    assert not out.exists()


def test_show_of_a_match_file_says_so(tmp_path: Path) -> None:
    run = bgkit_run("show", str(TEST_XG), cwd=tmp_path)
    assert_one_line(run, 2, "eXtreme Gammon match file, not a position file (.xgp)")


def test_fixtures_are_what_the_script_builds(tmp_path: Path) -> None:
    """The committed fixtures are the script's output (its sources unchanged)."""
    import make_xg_fixtures

    make_xg_fixtures.OUT = tmp_path
    make_xg_fixtures.main()
    for name in ("cube_rollout.xgp", "play.xgp", "play_rollout.xgp"):
        assert (tmp_path / name).read_bytes() == (FIXTURES / name).read_bytes(), name


def test_the_core_install_prints_xgs_analysis_without_gnubg() -> None:
    from test_cli_unix import run

    result = run("hint", str(CUBE), core=True)
    assert result.returncode == 0, result.stderr
    assert "rollout: 1296 trials, ±0.009 (95%)" in result.stdout.decode()
    result = run("hint", "--gnubg", str(CUBE), core=True)
    assert result.returncode == 2
    assert result.stderr.decode() == (
        "bgkit: `bgkit hint` needs the analysis extra: pip install 'bgkit[analysis]'\n"
    )


def test_a_decision_saved_from_a_match_is_a_position_without_its_name() -> None:
    # play.xgp keeps XG's Played flag (XG's save of a decision of a match); read from
    # stdin, without the .xgp name, its position is not where its game starts
    from test_cli_unix import run

    result = run("verify", "-", stdin=PLAY.read_bytes())
    assert result.returncode == 2
    assert "holds one position, not a match" in result.stderr.decode()
