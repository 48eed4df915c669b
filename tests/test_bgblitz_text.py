"""bgkit.formats.bgblitz_text: BGBlitz's position text exports in four languages."""

from __future__ import annotations

import contextlib
import dataclasses
import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bgkit._grammars import parser
from bgkit.errors import NotationError
from bgkit.formats.bgblitz_text import parse_bgblitz_text, read_bgblitz_text, sniff_bgblitz_text
from bgkit.play import Play
from bgkit.position import Position

BGBLITZ = Path(__file__).resolve().parent.parent / "data" / "real" / "bgblitz_txt"
FILES = sorted(BGBLITZ.glob("*.txt"))
CHECKER = BGBLITZ / "kevung__bgfparser__01_checkerPosition_EN.txt"
NO_DOUBLE = BGBLITZ / "kevung__bgfparser__02_NDT_EN.txt"


def test_strict_grammar_builds() -> None:
    assert parser("bgblitz_text", strict=True) is not None


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_diagram_equals_the_gnubg_ids(path: Path) -> None:
    export = read_bgblitz_text(path)
    assert export.position == Position.from_gnubg_id(f"{export.position_id}:{export.match_id}")


def test_the_xgid_has_the_dice_high_first() -> None:
    export = read_bgblitz_text(CHECKER)
    assert export.xgid is not None
    from_xgid = Position.from_xgid(export.xgid)
    assert (export.position.dice, from_xgid.dice) == ((1, 2), (2, 1))
    assert dataclasses.replace(from_xgid, dice=(1, 2)) == export.position


def test_checker_analysis() -> None:
    export = read_bgblitz_text(CHECKER)
    assert export.names == ("Green", "Red")
    analysis = export.checker
    assert analysis is not None
    assert [c.play for c in analysis.candidates][:2] == [Play("19/18 14/12"), Play("19/18 3/1")]
    second = analysis.candidates[1]
    assert (second.equity, second.match_winning_chance, second.level) == (-0.545, 0.111, "EMG")
    assert second.probabilities is not None
    assert (second.probabilities.win, second.probabilities.lose_gammon) == (0.227, 0.385)


@pytest.mark.parametrize("language", ["EN", "DE", "FR", "JP"])
def test_cube_options_are_told_apart_in_every_language(language: str) -> None:
    # the three options are listed best first: here Double/Pass, Double/Take, No Double
    cube = read_bgblitz_text(BGBLITZ / f"kevung__bgfparser__04_DP_{language}.txt").cube
    assert cube is not None
    assert (cube.no_double, cube.double_take, cube.double_pass) == (0.767, 1.287, 1.0)
    assert cube.cubeless_equity == 0.626
    assert cube.proper_action == "double, pass"
    assert cube.probabilities is not None and cube.probabilities.win == 0.656


def test_a_tall_point_counts_beyond_the_marks() -> None:
    export = read_bgblitz_text(BGBLITZ / "kevung__bgfparser__05_NRT_EN.txt")
    assert export.position.board[0][5] == 6  # four marks and "2"
    assert (export.position.cube, export.position.cube_owner) == (2, 1)


def _edit(old: str, new: str) -> str:
    text = CHECKER.read_text(encoding="utf-8")
    assert old in text
    return text.replace(old, new, 1)


def test_a_bad_cell_is_located() -> None:
    with pytest.raises(NotationError) as info:
        parse_bgblitz_text(_edit(" |    X           X |", " |    X        ?  X |"))
    assert (info.value.line, info.value.column) == (2, 16)


def test_names_must_match_the_frames() -> None:
    with pytest.raises(NotationError, match="the turn line names neither") as info:
        parse_bgblitz_text(_edit(" Red to move 1-2", " Blue to move 1-2"))
    assert info.value.line == 19


def test_pips_must_agree_with_the_diagram() -> None:
    with pytest.raises(NotationError, match="disagree with the diagram"):
        parse_bgblitz_text(_edit("X: Red  111", "X: Red  110"))


def test_sniff() -> None:
    assert sniff_bgblitz_text(CHECKER.read_text(encoding="utf-8"))
    assert not sniff_bgblitz_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2000), st.text(max_size=8))
@example(365, "\u00b9")  # a superscript one where BGBlitz writes a checker count (isdigit)
def test_fuzz_damaged_exports(at: int, junk: str) -> None:
    text = (BGBLITZ / "kevung__bgfparser__03_DT_FR.txt").read_text(encoding="utf-8")
    at %= len(text)
    for damaged in (text[:at] + junk + text[at + 1 :], text[:at], junk):
        try:
            export = parse_bgblitz_text(damaged)
        except NotationError:
            continue
        repr(export.position)


# The pattern the reader found a frame's label with: the reference for the reader that
# replaced it (it backtracked over each blank of a long run in a name: quadratic in it).
_OLD_FRAME_LABEL = re.compile(r"(?P<side>[OX]):\s*(?P<name>.*?)\s+(?P<pips>[0-9]+)\s*$")


@settings(max_examples=3000, deadline=None)
@given(tail=st.text(alphabet="OX: \t0123456789ab-\u00a0", max_size=30))
def test_a_frames_label_is_read_as_the_pattern_read_it(tail: str) -> None:
    from bgkit.formats.bgblitz_text import _frame_label

    found = _OLD_FRAME_LABEL.search(tail)
    expected = None if found is None else (found["side"], found["name"], found["pips"])
    assert _frame_label(tail) == expected


def test_a_frame_label_with_long_runs_of_blanks_is_read_in_linear_time() -> None:
    """The old pattern took 4.6 s over 1,200 blanks; 90,000 now take milliseconds."""
    import time

    from bgkit.formats.bgblitz_text import _frame_label

    for tail in ("     X: a" + " " * 90_000 + "b", "  O: " + "1 " * 45_000 + "x", "X:" * 45_000):
        start = time.monotonic()
        assert _frame_label(tail) is None
        assert time.monotonic() - start < 1, tail[:20]
    assert _frame_label("     O: Bo Bi   167  ") == ("O", "Bo Bi", "167")


# The reader's patterns before they were made linear in a run of blanks or digits: the
# references the new ones must match as (on texts short enough for the old ones).
_OLD_PATTERNS = {
    "_SCORE": re.compile(
        r"^(?P<a>.+?)\s+-\s*(?P<sa>[0-9]+)\s+(?P<b>.+?)\s+-\s*(?P<sb>[0-9]+)\b(?P<rest>.*)$"
    ),
    "_LENGTH": re.compile(r"([0-9]+)\s*point", re.IGNORECASE),
    "_TURN_DICE": re.compile(r"([1-6])\s*-\s*([1-6])\s*\.?\s*$"),
    "_NUMBERS": re.compile(r"[-+]?[0-9]+\.[0-9]+"),
    "_LAST_WORD": re.compile(r"\s+\S+$"),
}


@settings(max_examples=2000, deadline=None)
@given(
    name=st.sampled_from(sorted(_OLD_PATTERNS)),
    text=st.text(alphabet=" \t-.+12390abPointP\u00a0", max_size=30),
)
def test_the_linear_patterns_match_as_the_old_ones(name: str, text: str) -> None:
    from bgkit.formats import bgblitz_text

    new, old = getattr(bgblitz_text, name), _OLD_PATTERNS[name]
    if name == "_SCORE":  # (matched on the stripped score line)
        text = text.strip()
        found, was = new.match(text), old.match(text)
        assert (found and found.groupdict()) == (was and was.groupdict())
    elif name == "_NUMBERS":
        assert new.findall(text) == old.findall(text)
    elif name == "_LAST_WORD":
        assert new.sub("", text) == old.sub("", text)
    else:
        found, was = new.search(text), old.search(text)
        assert (found and found.groups()) == (was and was.groups())


@pytest.mark.parametrize(
    ("before", "token"),
    [("in a 9 point match", "9"), ("ouble / Take", " "), ("reen - 5 Red", " "), ("45.9", "9")],
)
def test_a_long_run_in_a_line_is_read_in_linear_time(before: str, token: str) -> None:
    """60,000 digits or blanks inserted in the score line, the cube action's line or a
    line of chances (the old patterns: 10 s for 30,000 digits in the score line, 6 s for
    30,000 blanks in the cube action's): milliseconds now."""
    import time

    text = NO_DOUBLE.read_text(encoding="utf-8")
    at = text.index(before)
    hostile = text[:at] + token * 60_000 + text[at:]
    start = time.monotonic()
    with contextlib.suppress(NotationError):
        parse_bgblitz_text(hostile)
    assert time.monotonic() - start < 3
