"""bgkit.errors: one hierarchy, and NotationError's place-finding and rendering."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bgkit import errors
from bgkit.errors import BgkitError, IllegalPlayError, NotationError, error_line, first_line


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in errors.__all__
        if n[0].isupper() and not issubclass(getattr(errors, n), Warning)  # (notes)
    ],
)
def test_every_error_is_a_bgkit_error_and_a_value_error(name: str) -> None:
    cls = getattr(errors, name)
    assert issubclass(cls, BgkitError)
    if cls is not BgkitError:
        assert issubclass(cls, ValueError)


def test_the_decoding_warning_is_a_warning() -> None:
    assert issubclass(errors.DecodingWarning, UserWarning)
    assert not issubclass(errors.DecodingWarning, BgkitError)


def test_line_and_column_from_an_offset() -> None:
    source = " 3 point match\n\n Game 1\n  1) 70: 8/5\n"
    err = NotationError("dice must be 1-6: '70'", source, source.index("70"), source_name="m.mat")
    assert (err.line, err.column) == (4, 6)
    assert err.location == "m.mat:4:6"
    assert err.one_line() == "m.mat:4:6: dice must be 1-6: '70'"
    assert err.source_line == "  1) 70: 8/5"
    assert str(err) == "m.mat:4:6: dice must be 1-6: '70'\n      1) 70: 8/5\n         ^"


def test_rendering_edge_cases() -> None:
    assert str(NotationError("bad")) == "1:1: bad"  # no source at all
    tabbed = NotationError("here", "\tx", 1)
    assert str(tabbed).splitlines()[1:] == ["     x", "     ^"]  # a tab shown as one column
    end = NotationError("ends too early", "13/", 3)
    assert str(end).startswith("1:4: ends too early (at end of input)")
    crlf = NotationError("x", "ab\r\ncd\r\n", 4)
    assert (crlf.line, crlf.column, crlf.source_line) == (2, 1, "cd")
    clamped = NotationError("x", "abc", 99)
    assert clamped.pos == 3
    assert NotationError("x", "abc", -5).pos == 0


def test_at_and_with_source_name() -> None:
    source = "one\ntwo\nthree\n"
    err = NotationError.at("bad", source, 3, 2, source_name="f")
    assert (err.pos, err.line, err.column, err.location) == (9, 3, 2, "f:3:2")
    moved = NotationError("bad", source, 9).with_source_name("g.mat")
    assert moved.one_line() == "g.mat:3:2: bad"
    assert type(moved) is NotationError
    assert NotationError.at("past the end", source, 99, 1).line == 4


@given(st.text(alphabet="ab \t\r\n", max_size=40), st.integers(0, 45))
def test_line_and_column_lead_back_to_the_offset(source: str, pos: int) -> None:
    err = NotationError("x", source, pos)
    back = NotationError.at("x", source, err.line, err.column)
    assert back.pos == err.pos
    assert "\n" not in err.one_line()


def test_error_line_is_one_line_naming_the_place() -> None:
    notation = NotationError("dice must be 1-6: '70'", "a\n  1) 70: 8/5\n", 7)
    assert error_line(notation, source="m.mat") == "m.mat:2:6: dice must be 1-6: '70'"
    named = notation.with_source_name("kept.mat")
    assert error_line(named, source="other.mat").startswith("kept.mat:2:6: ")
    missing = FileNotFoundError(2, "No such file or directory", "no/such.mat")
    assert error_line(missing) == "no/such.mat: No such file or directory"
    assert error_line(OSError("disk gone"), source="x.mat") == "x.mat: disk gone"
    assert error_line(IllegalPlayError("blocked\nmore"), source="x.mat") == "x.mat: blocked"
    assert error_line(BgkitError()) == "BgkitError"


def test_first_line_of_any_exception() -> None:
    """What a batch row and a worker say of an exception that is not bgkit's."""
    assert first_line(KeyError("k")) == "'k'"
    assert first_line(RuntimeError("\n  boom\nat line 2")) == "boom"
    assert first_line(ValueError(" \n")) == "ValueError"
    assert first_line(ZeroDivisionError()) == "ZeroDivisionError"


@given(st.text(st.sampled_from(list(" \t\r\n\x0b\x1c\u00a0\u2028xy")), max_size=12), st.data())
def test_at_end_of_input_is_said_where_only_blanks_follow(text: str, data: st.DataObject) -> None:
    """Whether an error stands at the end of its text is found without a copy of the text
    (``rstrip`` of a 64 MiB record for each of 1,000 faults took 70 s), as before: only
    blanks, as ``str.strip`` takes them, from the error on, in a text that is not blank."""
    pos = data.draw(st.integers(0, len(text)))
    at_end = pos >= len(text.rstrip()) and bool(text.strip())
    assert ("(at end of input)" in str(NotationError("m", text, pos))) == at_end
