"""bgkit.play: steps and plays, their notation, and the two readers of a play part.

``Play.parse`` reads plays with ``grammars/play.lark``; the ``.mat`` reader takes each
part of a play as one ``PART`` token of ``grammars/mat.lark`` and decodes it with
``part_steps``. Both must read every part the same way, errors included.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bgkit import BAR, OFF, NotationError, Play, Step
from bgkit._grammars import parser
from bgkit.limits import Limits, check_play_steps
from bgkit.play import _StepError, format_steps, parse_point, part_steps, point_name


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("13/8 13/11", [Step(13, 8), Step(13, 11)]),
        ("24/20*/16", [Step(24, 20, hit=True), Step(20, 16)]),
        ("13/8(2)", [Step(13, 8), Step(13, 8)]),
        ("bar/22* 6/off", [Step(BAR, 22, hit=True), Step(6, OFF)]),
        ("Bar/22, 6/Off", [Step(BAR, 22), Step(6, OFF)]),
        ("25/21 6/0", [Step(BAR, 21), Step(6, OFF)]),
        ("24 / 18 *", [Step(24, 18, hit=True)]),
        ("", []),
        ("   ", []),
    ],
)
def test_parse(text: str, steps: list[Step]) -> None:
    assert Play.parse(text).steps == tuple(steps)
    assert Play(text) == Play.parse(text)


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        ("13/", 4, "ends too early"),
        ("13/8 x", 6, "unexpected character 'x'"),
        ("26/20", 1, "point must be 0-25, bar or off: '26'"),
        ("8/13", 3, "a checker moves away from its home: 8/13"),
        ("13/8(5)", 6, "a repeat count must be 1-4: '(5)'"),
    ],
)
def test_parse_errors_point_into_the_text(text: str, column: int, message: str) -> None:
    with pytest.raises(NotationError) as info:
        Play.parse(text, source_name="typed")
    assert info.value.column == column, str(info.value)
    assert message in info.value.msg
    assert info.value.one_line().startswith("typed:1:")


def test_notation_compact_and_spelled() -> None:
    play = Play.parse("13/8 13/8 6/1* 1/off")
    assert str(play) == "13/8(2) 6/1*/off"
    assert play.spelled() == "13/8 13/8 6/1* 1/off"
    assert repr(play) == "Play('13/8 13/8 6/1* 1/off')"
    assert eval(repr(play)) == play  # a repr must round-trip
    assert format_steps([Step(6, 5), Step(8, 5)]) == "8/5 6/5"
    assert play.pips == 5 + 5 + 5 + 1
    assert play.hits() == frozenset({1})
    assert not Play() and len(play) == 4


_STEPS = st.builds(
    Step,
    st.sampled_from([BAR, 24, 13, 8, 6, 5, 3, 1, OFF]),
    st.sampled_from([BAR, 22, 13, 8, 6, 5, 3, 2, OFF]),
    st.booleans(),
)


@given(st.lists(_STEPS, min_size=0, max_size=4))
@example([Step(13, 8), Step(8, 5)])  # one checker's two hops
@example([Step(6, 5, hit=True), Step(6, 5)])  # two checkers to a point, the first hitting
@example([Step(5, OFF), Step(OFF, OFF)])  # (no chain from off)
@example([Step(6, 3), Step(6, 5)])  # one point's checkers: the higher landing first
def test_a_plays_notation_is_format_steps(steps: list[Step]) -> None:
    """``str(play)`` (a fast way for the two steps of most plays) writes what
    ``format_steps`` writes, for any steps in any order."""
    assert str(Play(steps)) == format_steps(steps)


def test_points() -> None:
    assert [point_name(p) for p in (BAR, OFF, 7)] == ["bar", "off", "7"]
    assert [parse_point(t) for t in ("bar", " OFF", "25", "0", "7")] == [BAR, OFF, BAR, OFF, 7]
    with pytest.raises(NotationError):
        parse_point("26")


# ------------------------------------------------- part_steps against play.lark

PART = re.compile(parser("mat").get_terminal("PART").pattern.to_regexp())


def read_with_grammar(text: str) -> tuple[Step, ...] | tuple[str, int]:
    try:
        return Play.parse(text).steps
    except NotationError as err:
        return (err.msg, err.column - 1)


def read_as_part(text: str) -> tuple[Step, ...] | tuple[str, int]:
    """What the ``.mat`` reader makes of a play of this one part: its steps, then the
    limit on a play's steps (a repeat count can make one part many)."""
    try:
        steps = part_steps(text)
        check_play_steps(len(steps), text, 0)
    except _StepError as err:
        return (err.msg, err.pos)
    except NotationError as err:
        return (err.msg, err.column - 1)
    return steps


NOTATION_CHARS = Limits().max_notation_chars

points = st.one_of(
    st.integers(0, 30).map(str),
    st.sampled_from(["bar", "Bar", "OFF", "off", "007", "1" * 12]),
)
blanks = st.sampled_from(["", "", " ", "\t"])


@st.composite
def parts(draw: st.DrawFn) -> str:
    text = draw(points)
    for _ in range(draw(st.integers(1, 4))):
        text += draw(blanks) + "/" + draw(blanks) + draw(points)
        if draw(st.booleans()):
            text += draw(blanks) + "*"
    if draw(st.booleans()):
        text += draw(blanks) + "(" + draw(blanks) + draw(st.sampled_from("0123459")) + ")"
    return text


@settings(max_examples=500, deadline=None)
@given(parts())
@example("3/2/1/0(3)")  # (found by hypothesis: one part of nine steps, over the limit)
def test_part_steps_reads_every_part_as_the_play_grammar_does(text: str) -> None:
    assert PART.fullmatch(text), text  # the strategy writes what the terminal takes
    assert read_as_part(text) == read_with_grammar(text)


@settings(max_examples=300, deadline=None)
@given(st.from_regex(PART, fullmatch=True).filter(lambda text: len(text) <= NOTATION_CHARS))
@example("789/" + " " * NOTATION_CHARS + "0")  # (over the limit: not compared, below)
def test_part_steps_on_anything_the_terminal_takes(text: str) -> None:
    """Up to the notation limit: ``Play.parse`` refuses a longer text for its length
    before reading it (``max_notation_chars``), where a ``.mat`` line, bounded by
    ``max_line_chars``, has each part read and its fault placed (found by hypothesis in
    CI: a part of 1,001 characters, and five minutes of shrinking)."""
    if len(text) > NOTATION_CHARS:
        assert "(max_notation_chars)" in str(read_with_grammar(text)[0])
        assert read_as_part(text) == ("point must be 0-25, bar or off: '789'", 0)
        return
    assert read_as_part(text) == read_with_grammar(text)
