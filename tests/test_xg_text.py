"""bgkit.formats.xg_text: eXtreme Gammon's position text exports in four languages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bgkit._grammars import parser
from bgkit.errors import NotationError
from bgkit.formats.xg_text import parse_xg_text, read_xg_text, sniff_xg_text
from bgkit.play import Play
from bgkit.position import Position

XG_TXT = Path(__file__).resolve().parent.parent / "data" / "real" / "xg_txt"
FILES = sorted(XG_TXT.glob("*.txt"))
CHECKER = XG_TXT / "kevung__xgparser__01_checkerPosition_EN.txt"


def test_strict_grammar_builds() -> None:
    assert parser("xg_text", strict=True) is not None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_diagram_equals_the_xgid(path: Path) -> None:
    export = read_xg_text(path)
    assert export.xgid is not None
    assert export.position == Position.from_xgid(export.xgid)
    assert (export.checker is None) != (export.cube is None)


def test_checker_analysis() -> None:
    export = read_xg_text(CHECKER)
    assert export.names == ("Player 2", "Player 1")
    analysis = export.checker
    assert analysis is not None
    assert [c.play for c in analysis.candidates] == [
        Play("19/18 14/12"),
        Play("19/18 3/1"),
        Play("19/17 18/17"),
        Play("14/11"),
        Play("14/12 3/2"),
    ]
    assert [c.equity for c in analysis.candidates] == [-0.491, -0.556, -0.576, -0.568, -0.572]
    assert [c.level for c in analysis.candidates] == ["4-ply"] * 3 + ["3-ply"] * 2
    chances = analysis.candidates[1].probabilities
    assert chances is not None
    assert (chances.win, chances.win_gammon, chances.lose_gammon) == (0.2219, 0.0, 0.3524)


@pytest.mark.parametrize("language", ["EN", "DE", "FR", "JP"])
def test_cube_analysis_in_every_language(language: str) -> None:
    export = read_xg_text(XG_TXT / f"kevung__xgparser__04_DP_{language}.txt")
    cube = export.cube
    assert cube is not None
    assert (cube.no_double, cube.double_take, cube.double_pass) == (0.735, 1.336, 1.0)
    assert cube.cubeless_equity == 0.680
    assert cube.level == "XG Roller++"
    assert cube.proper_action == "double, pass"
    assert cube.probabilities is not None and cube.probabilities.win == 0.6665
    assert export.position.board[1][25] == 1  # X has a checker on the bar


def test_a_tall_point_and_the_cube_owner() -> None:
    export = read_xg_text(XG_TXT / "kevung__xgparser__05_NRT_EN.txt")
    assert export.position.board[0][5] == 6  # O's six checkers, drawn as four marks and "6"
    assert (export.position.cube, export.position.cube_owner) == (2, 1)


def _edit(old: str, new: str) -> str:
    text = CHECKER.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def test_a_bad_cell_is_located() -> None:
    text = _edit(" |    X           X |", " |    X           Z |")
    with pytest.raises(NotationError) as info:
        parse_xg_text(text)
    assert (info.value.line, info.value.column) == (6, 19)
    assert "'Z' is not a checker or a count" in str(info.value)


def test_pips_must_agree_with_the_diagram() -> None:
    with pytest.raises(NotationError, match="pip counts O 52, X 112 disagree") as info:
        parse_xg_text(_edit("X: 111  O: 52", "X: 112  O: 52"))
    assert info.value.line == 18


def test_too_many_checkers_is_a_notation_error() -> None:
    with pytest.raises(NotationError, match="the diagram is no position"):
        parse_xg_text(_edit(" |       O          |", " |       O  O  O  O |"))


def test_sniff() -> None:
    assert sniff_xg_text(CHECKER.read_text(encoding="utf-8"))
    assert not sniff_xg_text(" 7 point match\n")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2000), st.text(max_size=8))
def test_fuzz_damaged_exports(at: int, junk: str) -> None:
    text = CHECKER.read_text(encoding="utf-8")
    at %= len(text)
    for damaged in (text[:at] + junk + text[at + 1 :], text[:at], junk):
        try:
            export = parse_xg_text(damaged)
        except NotationError:
            continue
        repr(export.position)


# The reader's patterns before a run of blanks or digits was tried from its start only:
# the references the new ones must match as (on texts short enough for the old ones).
_OLD_PLAYERS = re.compile(r"X:(?P<x>.*?)\s+O:(?P<o>.*)$")
_OLD_LEVEL = re.compile(r"XG Roller\+*|[0-9]+-ply|Rollout", re.IGNORECASE)


@settings(max_examples=2000, deadline=None)
@given(text=st.text(alphabet=" \tXO:ab12-ply\u00a0", max_size=30))
def test_the_linear_patterns_match_as_the_old_ones(text: str) -> None:
    from bgkit.formats.xg_text import _LEVEL, _PLAYERS

    found, was = _PLAYERS.match(text), _OLD_PLAYERS.match(text)
    assert (found and found.groupdict()) == (was and was.groupdict())
    found, was = _LEVEL.search(text), _OLD_LEVEL.search(text)
    assert (found and (found.span(), found[0])) == (was and (was.span(), was[0]))
