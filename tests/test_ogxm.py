"""OGXM, read and written through its reference codec (``bgkit.formats.ogxm_record``).

Interop both ways, with programs bgkit does not control: what bgkit writes passes the
reference codec's own check (``ogxm.verify``: every v2 rule, the checksum) and reads in
GammonView's ``gvformat``, whose replay of every play lands on the positions bgkit's
rules engine reaches; what ``gvformat`` writes from the real ``.mat`` files reads in bgkit
as the same match. The round trip of every record through OGXM, alone and with every
other format, is in ``test_conversion_matrix.py``.
"""

from __future__ import annotations

import copy
import io
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bgkit import Match, read_match, replay, verify, write_match
from bgkit.cli import main
from bgkit.errors import BgkitError, NotationError, UnsupportedFormatError
from bgkit.formats.ogxm_record import (
    KEY,
    dumps_ogxm,
    match_from_document,
    ogxm_document,
    parse_ogxm,
)
from bgkit.records import Game, Move

ogxm = pytest.importorskip("ogxm")
gvformat = pytest.importorskip("gvformat")

DATA = Path(__file__).resolve().parent.parent / "data"
SAMPLE = DATA / "sample.mat"
_PIPS = "0123456789abcdefghijklmnop"


def _records() -> list[Path]:
    found = []
    for path in sorted(p for p in DATA.rglob("*") if p.is_file()):
        if path.suffix in (".md", ".json") or path.name.startswith("."):
            continue
        try:
            match = read_match(path)
            dumps_ogxm(match)
        except (BgkitError, ValueError):
            continue  # not a record, or one OGXM cannot hold (test_conversion_matrix)
        found.append(path)
    return found


RECORDS = _records()


def _ogid_board(xgid_position: Any) -> str:
    """The first two fields of an OGID (White's and Black's checkers on OGXM's board)."""
    white, black = xgid_position.board
    w = sorted([_PIPS[25 - p if p < 25 else 0] for p in range(1, 26) for _ in range(white[p])])
    b = sorted([_PIPS[p] for p in range(1, 26) for _ in range(black[p])])
    return "".join(w) + ":" + "".join(b)


def test_records_are_written() -> None:
    assert len(RECORDS) >= 200


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_the_codec_accepts_it_and_gvformat_replays_it_to_the_same_positions(path: Path) -> None:
    match = read_match(path)
    data = dumps_ogxm(match)
    assert ogxm.verify(data) == (None, True)  # every v2 rule, and the CRC-32 checked
    doc = gvformat.read_gvab(data)
    assert (doc["player_white"], doc["player_black"]) == match.players
    assert [(g["winner"], g["points_won"]) for g in doc["games"]] == [
        (255, 0) if g.result is None else (g.result.winner, g.result.points) for g in match.games
    ]
    try:
        steps = list(replay(match))
    except (BgkitError, ValueError):
        return  # a record that breaks the rules: no positions to compare
    after = iter(s.after for s in steps if isinstance(s.action, Move))
    for game in doc["games"]:
        for ply in game["plies"]:
            if ply["action_id"] <= 20:  # a roll: gvformat's board after it is bgkit's
                assert ply["ogid_after"].split(":")[:2] == _ogid_board(next(after)).split(":")


# gvformat's own reading of these .mat files differs from what they say
GVFORMAT_MISREADS = {
    "kevung__gbf__test.mat": "drops a roll whose play is unknown (33: ???) and the result",
    "unknown-roll.mat": "drops a roll whose play is unknown (???)",
    "lassehjorthmadsen__bglab__match3755271.txt": "an empty name: invents one, no games",
    "empty-name.mat": "an empty name: invents one, no games",
    "gridgammon-rating.mat": "keeps GridGammon's rating in the name ('Alice,1712.5')",
    "lassehjorthmadsen__bglab__match3241209.txt": "reads Galaxy's 'Losses' line as a move",
    "lassehjorthmadsen__bglab__match2900236.txt": "reads Galaxy's 'Losses' line as a move",
    "galaxy-losses.mat": "reads Galaxy's 'Losses' line as a move",
    "galaxy-forfeit.mat": "keeps the starting score in an annotation of its own",
    "forfeit-fixed-value.mat": "keeps the starting score in an annotation of its own",
    "money.mat": "drops a beaver",
    "compact-xg.mat": "drops a play written compactly ('13/10*/6')",
    "synonyms.mat": "writes a file the codec refuses (turn order)",
    "set-pos.mat": "ignores XG's Set Pos (plays from the opening position)",
    "words-bar-off.mat": "ignores XG's Set Pos (plays from the opening position)",
    "cannot-move.mat": "ignores XG's Set Pos (plays from the opening position)",
}
# records bgkit reads with a line it cannot read (Match.read_errors): bgkit leaves the line
# out and reports it, so the match differs from gvformat's reading of it by design
READ_WITH_A_BAD_LINE = {
    "handwritten_3pt_syntax1.mat": "gvformat reads '61: 9-3 6/5', an unreadable line to bgkit",
    "handwritten_3pt_syntax2.mat": "gvformat refuses the file for its dice '27'",
}
MAT_FILES = [  # (gvformat reads .mat text, not gnubg's text exports)
    p
    for p in RECORDS
    if p.suffix == ".mat" or (p.suffix == ".txt" and p.parent.name != "gnubg_txt")
]


def _mirrored(match: Match) -> Match:
    """The match with the players' sides swapped (OGXM's White is any one of them)."""
    games = tuple(
        replace(
            g,
            score=(g.score[1], g.score[0]),
            actions=tuple(replace(a, player=1 - a.player) for a in g.actions),
            result=None if g.result is None else replace(g.result, winner=1 - g.result.winner),
        )
        for g in match.games
    )
    return replace(match, players=(match.players[1], match.players[0]), games=games)


def _shape(match: Match) -> list[object]:
    """Players, length, and per game the score (match play), result and every action: a
    play by its dice as a set (gvformat writes steps in an order of its own)."""
    return [
        match.players,
        match.length,
        [
            (
                g.score if match.length else None,
                None if g.result is None else (g.result.winner, g.result.points),
                [
                    (type(a).__name__, a.player, sorted(a.dice))
                    if isinstance(a, Move)
                    else (type(a).__name__, a.player, getattr(a, "value", None))
                    for a in g.actions
                ],
            )
            for g in match.games
        ],
    ]


def _positions(match: Match) -> list[str] | None:
    """The position after every action (in a money session without the score, which
    writers count each their own way)."""
    try:
        ids = [s.after.xgid().split(":") for s in replay(match)]
    except (BgkitError, ValueError):
        return None
    return [":".join(f[:5] + f[7:] if not match.length else f) for f in ids]


@pytest.mark.parametrize("path", MAT_FILES, ids=lambda p: p.name)
def test_ogxm_written_by_gvformat_reads_as_the_same_match(path: Path) -> None:
    match = read_match(path)
    differs = {**GVFORMAT_MISREADS, **READ_WITH_A_BAD_LINE}
    assert bool(match.read_errors) == (path.name in READ_WITH_A_BAD_LINE)
    try:
        data = gvformat.write_gvab(gvformat.convert_mat(path))
        back = parse_ogxm(data)
    except Exception:
        if path.name in differs:
            return
        raise
    if back.players != match.players and back.players == match.players[::-1]:
        back = _mirrored(back)
    same = _shape(back) == _shape(match)
    want = _positions(match)
    if same and want is not None:
        same = _positions(back) == want
    assert same == (path.name not in differs), differs.get(path.name)


def test_mat_through_ogxm_gives_the_text_back(tmp_path: Path) -> None:
    runner = CliRunner()
    done = runner.invoke(main, ["convert", str(SAMPLE), str(tmp_path / "s.ogxm")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "s.ogxm").read_bytes()[:4] == b"OGXM"
    done = runner.invoke(main, ["convert", str(tmp_path / "s.ogxm"), str(tmp_path / "s.mat")])
    assert done.exit_code == 0, done.output
    assert (tmp_path / "s.mat").read_text() == SAMPLE.read_text()
    done = runner.invoke(main, ["verify", str(tmp_path / "s.ogxm")])
    assert done.exit_code == 0 and "0 error(s)" in done.output


def test_what_ogxm_has_no_field_for_is_kept_in_x_bgkit() -> None:
    text = SAMPLE.read_text().replace("61: 25/24 24/18  ", "61: 25/18        ", 1)
    match = read_match(text=text)
    match = replace(match, tags=(*match.tags, ("Match ID", "12422863"), ("Event", "Club")))
    doc = ogxm_document(match)
    assert doc["event"] == "Club" and doc["started_at"] > 0
    notes = {(a["scope"], a["ref"]): json.loads(a["value"]) for a in doc["annotations"]}
    assert notes[("match", 0)]["tags"][-2:] == [["Match ID", "12422863"], ["Event", "Club"]]
    assert {"play": "25/18"} in notes.values()
    back = match_from_document(ogxm.binary_to_json(ogxm.json_to_binary(doc)))
    assert back == match and back.tags == match.tags
    # another program's OGXM: the tags come from OGXM's own fields
    doc["annotations"] = []
    assert match_from_document(doc).tags == (
        ("Event", "Club"),
        ("EventDate", "2026.11.21"),
        ("EventTime", "00.00"),
    )


def test_long_notes_are_cut_into_pieces_the_codec_takes() -> None:
    match = read_match(SAMPLE)
    comments = tuple(f"line {i}: " + "é" * 90 for i in range(200))  # ~38 KB
    match = replace(match, comments=comments)
    data = dumps_ogxm(match)
    keys = [a["key"] for a in ogxm.binary_to_json(data)["annotations"]]
    assert keys[:3] == [KEY, f"{KEY}~1", f"{KEY}~2"] and len(keys) > 9
    assert parse_ogxm(data).comments == comments


def test_a_piece_number_only_str_isdigit_takes_is_not_a_piece() -> None:
    """``x-bgkit~\u00b2``: a digit to ``str.isdigit``, not to ``int``, was a ValueError;
    the codec refuses such a key, but a document built otherwise may hold it."""
    match = read_match(SAMPLE)
    doc = ogxm_document(match)
    doc["annotations"].append({"key": f"{KEY}~\u00b2", "scope": "match", "ref": 0, "value": "["})
    assert match_from_document(doc) == match


def test_a_rule_break_in_an_ogxm_file_is_found_by_the_verifier() -> None:
    doc = ogxm_document(read_match(SAMPLE))
    ply = doc["games"][0]["plies"][0]  # root's 62: 24/18 18/16
    ply["moves"][1]["pips"] = 3  # 18/15 with a 2
    data = ogxm.json_to_binary(doc)  # the codec checks no rule of the game
    report = verify(parse_ogxm(data, source_name="x.ogxm"))
    # made as written (the checker on 15) root's next play 16/15 finds no checker on 16;
    # made as 24/18 18/16 (the point written wrong) it is legal: no second fault, a note,
    # and the game goes on in that reading (the hit the reader marked as written, a note)
    (first,) = report.errors
    assert (first.game, first.move, first.player_name, first.source_name) == (
        1,
        1,
        "root",
        "x.ogxm",
    )
    assert "18/15" in first.message
    follows = [i for i in report.notes if i.kind.value == "follows-fault"]
    assert [(i.game, i.move, i.player_name) for i in follows] == [(1, 3, "root"), (1, 4, "gnubg")]
    assert follows[0].message.startswith("illegal play 16/15 13/8 for 51: there is no checker")
    assert "not if it was 24/18 18/16" in follows[0].message
    assert follows[1].message.startswith("hit marks in 6/5 13/10 disagree with the play")
    assert "unverified" not in {i.kind.value for i in report.issues}


@pytest.mark.parametrize(
    "data, words",
    [
        (b"", "does not start with 'OGXM'"),
        (b"<html>", "does not start with 'OGXM'"),
        (b"OGXM" + bytes(40), "the reference codec reads"),
    ],
)
def test_what_is_not_ogxm_gets_one_line(data: bytes, words: str) -> None:
    with pytest.raises(NotationError, match=words):
        parse_ogxm(data)


def test_damaged_files_give_a_clean_error_never_a_crash() -> None:
    data = dumps_ogxm(read_match(SAMPLE))
    assert parse_ogxm(data) == read_match(SAMPLE)
    for cut in range(0, len(data), 7):
        with pytest.raises(NotationError, match="OGXM"):
            parse_ogxm(data[:cut])
    for at in range(4, len(data), 5):
        damaged = bytearray(data)
        damaged[at] ^= 0x5A
        try:
            parse_ogxm(bytes(damaged))
        except NotationError as err:
            assert "\n" not in str(err)


@pytest.mark.parametrize(
    "change, words",
    [
        ({"dice": [6, 6]}, "dice"),
        ({"play": 17}, "not text"),
        ({"play": "24/x"}, "written play"),
        ({"value": "two"}, "not a count"),
    ],
)
def test_bgkit_notes_that_do_not_fit_the_ply_are_refused(
    change: dict[str, Any], words: str
) -> None:
    doc = ogxm_document(read_match(SAMPLE))
    ply = 0 if "value" not in change else _first(doc, 21)
    doc["annotations"] = [{"scope": "ply", "ref": ply, "key": KEY, "value": json.dumps(change)}]
    with pytest.raises(NotationError, match=words):
        match_from_document(ogxm.binary_to_json(ogxm.json_to_binary(doc)))


def _first(doc: dict[str, Any], action_id: int) -> int:
    plies = [p for g in doc["games"] for p in g["plies"]]
    return next(i for i, p in enumerate(plies) if p["action_id"] == action_id)


def test_what_ogxm_cannot_hold_is_refused_with_the_game() -> None:
    match = read_match(SAMPLE)
    hyper = replace(match, tags=(("Variation", "Hypergammon (2)"),))
    with pytest.raises(ValueError, match="no name for the variant 'hypergammon-2'"):
        dumps_ogxm(hyper)
    game = match.games[0]
    swapped = replace(game, actions=(game.actions[1], game.actions[0], *game.actions[2:]))
    out_of_turn = replace(match, games=(swapped, *match.games[1:]))
    with pytest.raises(ValueError, match=r"game 1: OGXM cannot hold it .*'turn order'"):
        dumps_ogxm(out_of_turn)


def test_without_the_codec_one_line_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    data = dumps_ogxm(read_match(SAMPLE))
    (tmp_path / "s.ogxm").write_bytes(data)
    monkeypatch.setitem(sys.modules, "ogxm", None)  # as if not installed
    with pytest.raises(UnsupportedFormatError, match=r"pip install 'bgkit\[ogxm\]'"):
        dumps_ogxm(read_match(SAMPLE))
    done = CliRunner().invoke(main, ["verify", str(tmp_path / "s.ogxm")])
    assert done.exit_code != 0
    assert "s.ogxm" in done.output and "pip install 'bgkit[ogxm]'" in done.output
    assert "Traceback" not in done.output


def test_binary_output_to_a_text_stream() -> None:
    match = read_match(SAMPLE)
    with pytest.raises(UnsupportedFormatError, match="binary format"):
        write_match(match, io.StringIO(), "ogxm")
    raw = io.BytesIO()
    text = io.TextIOWrapper(raw, write_through=True)  # sys.stdout is one of these
    write_match(match, text, "ogxm")
    assert parse_ogxm(raw.getvalue()) == match


def test_a_set_up_game_travels_as_ogxm_set_position() -> None:
    path = DATA / "real" / "gmd" / "gitGNU__gnu_gibbon__edited.gmd"
    match = read_match(path)
    doc = ogxm_document(match)
    first = doc["games"][0]["plies"][0]
    assert first["action_id"] == 31 and len(first["set_position"]) == 26
    doc["annotations"] = []  # as another program would write it
    back = match_from_document(ogxm.binary_to_json(ogxm.json_to_binary(copy.deepcopy(doc))))
    setup = back.games[0].setup
    assert setup is not None and setup.split("/")[0] == match.games[0].setup.split("/")[0]
    assert isinstance(back.games[0], Game)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.integers(min_value=0, max_value=2000))
def test_any_bytes_read_as_a_match_or_one_clean_error(tail: bytes, at: int) -> None:
    data = dumps_ogxm(read_match(SAMPLE)) if at % 2 else b"OGXM\x02\x00\x00\x00"
    cut = data[: at % (len(data) + 1)] + tail
    try:
        parse_ogxm(cut)
    except NotationError as err:
        assert "\n" not in str(err)
