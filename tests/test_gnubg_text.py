"""bgkit.formats.gnubg_text: GNU Backgammon's text exports of games."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgkit._grammars import parser
from bgkit.ascii_board import render
from bgkit.errors import NotationError
from bgkit.formats.gnubg_text import parse_gnubg_text, read_gnubg_text, sniff_gnubg_text
from bgkit.play import Play
from bgkit.position import GameState, Position

GNUBG_TXT = Path(__file__).resolve().parent.parent / "data" / "real" / "gnubg_txt"
FILES = sorted(GNUBG_TXT.glob("*.txt"))
LLABBA = GNUBG_TXT / (
    "lassehjorthmadsen__bglab__0ply__BoardLord_-_Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.txt"
)
MAGIC = GNUBG_TXT / (
    "lassehjorthmadsen__bglab__4ply__Magic_-_Lasse_5pt_Backgammon_Studio_2024_04_22_19_06_30.txt"
)


def test_a_name_of_many_blanks_reads_in_time_linear_in_them() -> None:
    """Bounded work per byte: the name beside the frame was matched with blanks allowed
    before its end, which backtracked over each blank of a long run (34,690 blanks took
    5 s; 90,000 would take about 35). It now takes milliseconds: the bound leaves a
    loaded machine room and still fails the old pattern."""
    import time

    pos = Position.initial(match_length=7).roll(5, 1)
    board = render(pos, names=("Ann", "Bo")).split("\n")[:-1]
    text = "\n".join(board).replace("X: Bo", "X: B" + " " * 90_000 + "o", 1) + "\n"
    start = time.monotonic()
    (export,) = parse_gnubg_text(text)
    assert time.monotonic() - start < 3
    assert export.names == ("Ann", "B" + " " * 90_000 + "o")


def test_strict_grammar_builds() -> None:
    assert parser("gnubg_text", strict=True) is not None


def _ids(export: object) -> Position:
    pos = Position.from_gnubg_id(f"{export.position_id}:{export.match_id}")  # type: ignore[attr-defined]
    if pos.game_state == GameState.NONE:  # the first board of a game
        pos = dataclasses.replace(pos, game_state=GameState.PLAYING)
    return pos


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_board_equals_its_ids(path: Path) -> None:
    exports = read_gnubg_text(path)
    assert len(exports) == path.read_text(encoding="utf-8").count("Position ID:")
    for export in exports:
        assert export.position == _ids(export), export.line


def test_a_board_drawn_by_bgkit_reads_back() -> None:
    names = ("Ann", "Bo")
    for pos in (
        Position.initial(match_length=7).roll(5, 1),
        Position.from_xgid("XGID=-A--BBDbD-B------a-ecbb---:0:0:1:31:0:0:0:7:10"),
        Position.from_xgid("XGID=---BADB------------bf---a-:1:1:1:00:4:0:0:7:10"),
        Position.from_xgid("XGID=--BaBCCBAA------acccc-a--A:0:0:1:00:0:2:0:7:10"),
        Position.from_xgid("XGID=---BADB------------bf---a-:1:-1:-1:42:4:0:0:7:10"),
    ):
        board = render(pos, names=names).split("\n")[:-1]  # without the XGID line
        text = "\n".join(board) + "\n"
        (export,) = parse_gnubg_text(text)
        assert export.names == names
        assert export.position == pos


def test_headings_plays_and_analysis() -> None:
    exports = read_gnubg_text(LLABBA)
    second = exports[1]
    assert second.heading == "Move number 2:  Llabba to play 42"
    assert second.played == "Llabba moves 8/4 6/4"
    cube = second.cube
    assert cube is not None
    assert (cube.no_double, cube.double_pass, cube.double_take) == (-0.002, 1.0, -0.347)
    assert cube.verdict == "No double, take (25.6%)"
    assert cube.level == "0-ply"
    assert cube.probabilities is not None and cube.probabilities.win == 0.499
    checker = second.checker
    assert checker is not None and checker.played == 0
    assert checker.candidates[0].play == Play("8/4 6/4")
    assert checker.candidates[0].level == "Cubeful 0-ply"


def test_the_play_made_need_not_be_the_best() -> None:
    boards = read_gnubg_text(MAGIC)
    third = boards[2]
    assert third.played == "Magic moves bar/21*/20"
    assert third.checker is not None and third.checker.played == 2
    assert third.checker.candidates[2].play == Play("bar/21*/20")


def test_a_pending_double_keeps_length_and_owner_of_the_board_before() -> None:
    doubled = [e for e in read_gnubg_text(LLABBA) if e.position.doubled]
    assert doubled
    for export in doubled:
        assert export.position.match_length == 7
        assert export.position == _ids(export)


def _edit(old: str, new: str) -> str:
    text = LLABBA.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def test_pips_must_agree_with_the_board() -> None:
    with pytest.raises(NotationError, match="disagree with the board") as info:
        parse_gnubg_text(_edit("Pip counts: O 167, X 167", "Pip counts: O 166, X 167"))
    assert info.value.line == 28


def test_a_bad_cell_is_located() -> None:
    old = " | X           O    |   | O              X |     0 points"
    with pytest.raises(NotationError) as info:
        parse_gnubg_text(_edit(old, old.replace("| X ", "| Q ", 1)))
    assert (info.value.line, info.value.column) == (16, 4)


def test_sniff() -> None:
    assert sniff_gnubg_text(LLABBA.read_text(encoding="utf-8"))
    assert not sniff_gnubg_text(" 7 point match\n")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 3000), st.text(max_size=8))
def test_fuzz_damaged_exports(at: int, junk: str) -> None:
    text = LLABBA.read_text(encoding="utf-8")[:3000]
    at %= len(text)
    for damaged in (text[:at] + junk + text[at + 1 :], text[:at], junk):
        try:
            exports = parse_gnubg_text(damaged)
        except NotationError:
            continue
        for export in exports:
            repr(export.position)
