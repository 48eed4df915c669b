"""A strict reading of gnubg's text export (``bgkit show``, ``parse_gnubg_text``) raises
its first fault from the block where it stands, as the grammar reading the whole export
raises it (issue 29, item 6: a block that could not be read sent the whole export to
Lark; ``bgkit show`` of 16 MB with a fault near its end took 13 s of CPU and 491 MiB).

The oracle is the whole export read by ``gnubg_text.lark`` (:func:`_grammar_read`, main's
reading before the fast path): every damaged export here raises the same error, message,
line and column, and the Lark work of the strict reading stays within a few blocks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bounded import BGKIT, GIB, count_parsed, run
from lark import Lark
from test_gnubg_text_fast import _grammar_read

import bgkit.formats.gnubg_text as gt
from bgkit.errors import BgkitError

ROOT = Path(__file__).resolve().parent.parent
GAME = (
    ROOT / "data" / "real" / "gnubg_txt"
    / "lassehjorthmadsen__bglab__4ply__Magic_-_Lasse_5pt_Backgammon_Studio_2024_04_22_19_06_30.txt"
).read_text("utf-8")  # fmt: skip
"""A real analysed game of 53 boards (92,828 characters), repeated to make an export."""

ROW = " | X           O    |   | O              X |     0 points"
"""The top row of the first board."""


def _near_end(text: str) -> str:
    """The last candidate's ``Eq.:`` written ``Eq:`` (a syntax fault in the last board)."""
    at = text.rindex("Eq.:")
    return text[:at] + "Eq:" + text[at + 4 :]


def _nth(text: str, old: str, new: str, n: int) -> str:
    """``text`` with the ``n``-th (0-based) ``old`` made ``new``."""
    at = -1
    for _ in range(n + 1):
        at = text.index(old, at + 1)
    return text[:at] + new + text[at + len(old) :]


def _cut_block(text: str, number: int, keep: str) -> str:
    """Board ``number`` of the second game cut after the line ``keep`` matches: its block
    ends there and the next block starts (``Move number``)."""
    start = _nth(text, f"Move number {number}:", "\0", 1).index("\0")
    end = text.index("Move number", start + 1)
    lines = text[start:end].split("\n")
    kept = next(i for i, line in enumerate(lines) if re.match(keep, line))
    return text[:start] + "\n".join(lines[: kept + 1]) + "\n" + text[end:]


def _cut_short(text: str, end: str = "\n") -> str:
    """The export ending after the top frame and three rows of its last board."""
    at = text.rindex("\n +1", 0, text.rindex("\n +1"))
    for _ in range(4):
        at = text.index("\n", at + 1)
    return text[:at] + end


def _error(read: Callable[[], object]) -> BgkitError:
    with pytest.raises(BgkitError) as caught:
        read()
    return caught.value


def _oracle(text: str) -> BgkitError:
    """The error of the whole export read by the grammar."""
    return _error(lambda: _grammar_read(text, "x.txt"))


def _same(text: str, monkeypatch: pytest.MonkeyPatch) -> BgkitError:
    """The strict reading's error, asserted to be the oracle's in every respect; its Lark
    work (characters parsed) is asserted to be within a few blocks."""
    expected = _oracle(text)
    parsed = count_parsed(monkeypatch, gt)
    whole: list[int] = []
    lark_parse = Lark.parse

    def parse(self: Lark, text: str, *args: Any, **kwargs: Any) -> Any:
        whole.append(len(text))
        return lark_parse(self, text, *args, **kwargs)

    monkeypatch.setattr(Lark, "parse", parse)
    found = _error(lambda: gt.parse_gnubg_text(text, source_name="x.txt"))
    monkeypatch.undo()
    assert (type(found), found.msg, found.line, found.column, str(found)) == (  # type: ignore[attr-defined]
        type(expected),
        expected.msg,  # type: ignore[attr-defined]
        expected.line,  # type: ignore[attr-defined]
        expected.column,  # type: ignore[attr-defined]
        str(expected),
    )
    assert sum(parsed) < 12_000 and not whole, (parsed, whole)  # (gnubg's blocks: 1-4 KB)
    return found


def _pips(text: str, n: int, pips: str) -> str:
    return _nth(text, "Pip counts: O 167, X 167", f"Pip counts: O {pips}, X 167", n)


CASES: dict[str, Callable[[str], str]] = {
    "near the end": _near_end,
    "in the header block": lambda t: t.replace(
        "Match Information:", "Pip counts: O 1x7, X 167\nMatch Information:", 1
    ),
    "in the first board": lambda t: t.replace(ROW, "x" + ROW[1:], 1),
    "in the middle": lambda t: _nth(t, ROW, "x" + ROW[1:], 2),
    "a block ending inside its board": lambda t: _cut_block(t, 20, r" \| "),
    "a block ending inside its IDs": lambda t: _cut_block(t, 20, r" GNU Backgammon"),
    "a block ending at its board's top": lambda t: _cut_block(t, 20, r" \+1"),
    "the last block cut short": _cut_short,
    "the last block cut short in a line": lambda t: _cut_short(t, "")[:-8],
    "the last line cut short": lambda t: t[: t.rindex("Eq.:") + 2],
    "a heading damaged before a fault": lambda t: _nth(
        _nth(t, ROW, "x" + ROW[1:], 2), "Move number 1:", "Move number one:", 2
    ),
    "a pip count too large, then a syntax fault": lambda t: _near_end(_pips(t, 1, "16700")),
    "a pip count too large": lambda t: _pips(t, 1, "16700"),
    "a cubeless equity that is no number": lambda t: _nth(
        t, "cubeless equity -0.005", "cubeless equity -0.005x", 1
    ),
    "a candidate's step backwards, then a syntax fault": lambda t: _near_end(
        _nth(t, "13/11 13/10", "13/11 11/13", 2)
    ),
    "a candidate's step backwards": lambda t: _nth(t, "13/11 13/10", "13/11 11/13", 2),
    "pip counts that disagree, then a syntax fault": lambda t: _near_end(_pips(t, 1, "166")),
    "pip counts that disagree": lambda t: _pips(t, 1, "166"),
}


@pytest.mark.parametrize("case", CASES)
def test_a_fault_is_raised_as_the_grammar_reading_the_whole_export_raises_it(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = CASES[case](GAME * 3)
    found = _same(text, monkeypatch)
    assert found.line > 1  # type: ignore[attr-defined]


def test_an_export_of_one_block(monkeypatch: pytest.MonkeyPatch) -> None:
    start = GAME.index("Move number 5:")
    block = GAME[start : GAME.index("Move number 6:")]
    for text in (block.replace(" | ", "x| ", 1), block[: block.index("Pip counts")]):
        _same(text, monkeypatch)
    _same(block.replace("Eq.:", "Eq:", 1).rstrip("\n"), monkeypatch)


def test_a_fault_near_the_end_of_a_large_export(monkeypatch: pytest.MonkeyPatch) -> None:
    """3 MB: the grammar reads a block of it (the oracle, the whole text)."""
    found = _same(_near_end(GAME * 32), monkeypatch)
    assert "unexpected 'Eq'" in found.msg  # type: ignore[attr-defined]


def test_bgkit_show_of_16_mb_with_a_fault_near_its_end(tmp_path: Path) -> None:
    """Just under the 16 MiB default size limit, one line damaged near the end: one line
    naming it, as the grammar reading the whole export places it (line and column as in 3
    MB of the same, counted from the end). Measured 1.9 s of CPU and 110 MiB (the whole
    export by Lark: 13.0-13.5 s and 491 MiB)."""
    small = _near_end(GAME * 3)
    expected = _oracle(small)
    text = _near_end(GAME * 180)
    assert len(text.encode()) < 16 << 20
    line = expected.line + text.count("\n") - small.count("\n")  # type: ignore[attr-defined]
    path = tmp_path / "export.txt"
    path.write_text(text, "utf-8")
    ran = run([*BGKIT, "show", str(path)], seconds=60, memory=2 * GIB)
    assert ran.code == 2, ran.stderr
    assert ran.lines == [f"bgkit: {path}:{line}:{expected.column}: {expected.msg}"]  # type: ignore[attr-defined]
    assert ran.max_rss < 250 << 20 and ran.seconds < 12, ran
