"""gnubg's text exports are read without Lark where their lines are as gnubg writes them
(issue 29, item 6: Lark took 2 ms and 63 KB an action of a 16 MB export); these tests
check that the fast path reads exactly what the grammar reads.

The reference is main's reading, kept here (:func:`_grammar_read`): the whole export by
``gnubg_text.lark``, and after a fault a block at a time, every block by the grammar.
Every gnubg text export under ``data/`` and ``tests/data/``, and real lines changed at
random, must give the same match (every field: actions, places, results, the analysis
``analyze --use-file-analysis`` reports, the read errors) or the same error, read as a
match (lenient) and as positions (strict, ``bgkit show``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bounded import CountedText
from fields import every_field as _every_field
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bgkit.formats.gnubg_text as gt
from bgkit._grammars import build, parse_tree
from bgkit._play_grammar import with_plays
from bgkit.errors import BgkitError, LimitError, NotationError
from bgkit.formats import decode_bytes
from bgkit.formats.sgf_analysis import analysis_of
from bgkit.records import ReadError

ROOT = Path(__file__).resolve().parent.parent
EXPORTS = sorted(
    p
    for folder in (ROOT / "data", ROOT / "tests" / "data")
    for p in folder.rglob("*.txt")
    if p.is_file() and gt.sniff_gnubg_text(p.read_text("utf-8", errors="replace"))
)
REAL = ROOT / "data" / "real" / "gnubg_txt"


def _grammar_read(text: str, source_name: str | None, *, lenient: bool = False) -> gt._Grouper:
    """main's ``_read`` (before the fast path): the whole text by the grammar; after a
    fault, with ``lenient``, every block by the grammar."""
    source = text[1:] if text.startswith("\ufeff") else text
    faults: list[ReadError] = []
    grouper = gt._Grouper(source, source_name)
    try:
        tree = parse_tree("gnubg_text", source, "gnubg text export", source_name=source_name)
        items: list[Any] = build(
            with_plays(gt._LineBuilder(source, source_name)), tree, source, source_name=source_name
        )
    except LimitError:
        raise
    except NotationError:
        if not lenient:
            raise
        with pytest.MonkeyPatch.context() as patch:  # (every block read, then grouped)
            patch.setattr(gt, "_fast_block", lambda *args: None)
            items = list(gt._block_items(source, source_name, faults, grouper))
    grouper.faults = faults if lenient else None
    grouper.run(items)
    return grouper


def _outcome(read: Callable[[], Any]) -> Any:
    try:
        value = read()
    except BgkitError as err:
        return ("error", type(err).__name__, str(err))
    if isinstance(value, tuple):  # (the boards, read strictly)
        return _every_field(value)
    analysis = [analysis_of(action) for game in value.games for action in game.actions]
    return _every_field(value), _every_field(analysis)


def _fast_and_grammar(text: str) -> tuple[Any, Any, int]:
    """What the reader makes of ``text`` (as a match, and as boards) with the fast path
    and with the grammar alone, and how many blocks the fast path read."""
    read = 0
    own = gt._fast_block

    def watched(*args: Any) -> Any:
        nonlocal read
        found = own(*args)
        read += found is not None
        return found

    def both() -> tuple[Any, Any]:
        return (
            _outcome(lambda: gt.parse_gnubg_match(text, source_name="x.txt")),
            _outcome(lambda: gt.parse_gnubg_text(text, source_name="x.txt")),
        )

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(gt, "_fast_block", watched)
        fast = both()
        patch.setattr(gt, "_read", _grammar_read)
        grammar = both()
    return fast, grammar, read


@pytest.mark.parametrize("path", EXPORTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_export_reads_as_the_grammar_reads_it(path: Path) -> None:
    text = decode_bytes(path.read_bytes())
    fast, grammar, read = _fast_and_grammar(text)
    assert fast == grammar
    blocks = len(gt._BLOCK_START.findall(text))
    assert read >= blocks > 0, (read, blocks)  # (every block by the fast path)


def test_the_exports_are_found() -> None:
    assert len(EXPORTS) >= 16 and len([p for p in EXPORTS if p.parent == REAL]) == 4


def _sample() -> list[str]:
    """The lines of a real analysed export: its header and first boards (a cube
    analysis, candidates, a pending double...), and its last lines (the result)."""
    lines = (REAL / sorted(p.name for p in REAL.iterdir())[-1]).read_text().split("\n")
    return lines[:170] + lines[-60:]


SAMPLE = _sample()

# what a line may become: a character changed, dropped or doubled, a blank, a tab or a
# carriage return put in, a line dropped, doubled or swapped with the next
_CHARS = st.sampled_from([*" \t\r*+-.:/()?0123456789OXvx^|bBarofMPC", "\xa0", "é"])


@st.composite
def _changed(draw: st.DrawFn) -> str:
    lines = list(SAMPLE)
    for _ in range(draw(st.integers(1, 3))):
        index = draw(st.integers(0, len(lines) - 1))
        line = lines[index]
        kind = draw(st.sampled_from(["put", "drop", "double", "line", "swap", "copy", "end"]))
        at = draw(st.integers(0, len(line)))
        if kind == "put":
            line = line[:at] + draw(_CHARS) + line[at:]
        elif kind == "drop":
            line = line[:at] + line[at + 1 :]
        elif kind == "double":
            line = line[:at] + line[at:][:1] + line[at:]
        elif kind == "end":
            line = line + draw(st.sampled_from(["\r", " ", "\t", " x", "\r\r"]))
        elif kind == "line":
            del lines[index]
            continue
        elif kind == "swap" and index + 1 < len(lines):
            lines[index], lines[index + 1] = lines[index + 1], lines[index]
            continue
        elif kind == "copy":
            lines.insert(index, line)
            continue
        lines[index] = line
    return "\n".join(lines)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_changed())
def test_changed_lines_read_as_the_grammar_reads_them(text: str) -> None:
    fast, grammar, _ = _fast_and_grammar(text)
    assert fast == grammar


CHANGES = [
    ("* Magic moves 24/21 13/11", "* Magic moves 24/21 13/14"),  # (kept, for the verifier)
    ("* Magic moves 24/21 13/11", "* Magic moves 24/21 13/11(5)"),
    ("     2. Cubeful 4-ply    13/11 13/10", "     2. Cubeful 4-ply    13/11 11/13"),
    ("     2. Cubeful 4-ply    13/11 13/10", "     2. Cubeful 4-ply    13/11, 13/10"),
    ("     2. Cubeful 4-ply    13/11 13/10", "     2. Cubeful 4-ply    13/11 13 /10"),
    ("     2. Cubeful 4-ply    13/11 13/10", "     2. Cubeful 4-ply    Bar/11 13/10"),
    ("     2. Cubeful 4-ply    13/11 13/10", "     2.Cubeful 4-ply    13/11 13/10"),
    ("     2. Cubeful 4-ply    13/11 13/10", "     2. Cubeful 4-ply    13/11 13/10x"),
    ("Pip counts: O 167, X 167", "Pip counts: O 16700, X 167"),
    ("Pip counts: O 167, X 167", "Pip counts: O 167 , X 167  "),
    ("Pip counts: O 167, X 167", "Pip counts: O 166, X 167"),
    ("4-ply cubeless equity -0.005", "4-ply cubeless equity -0.005x"),
    ("4-ply cubeless equity -0.005", "Rollout cubeless equity -0.005"),
    ("  0.499 0.134 0.006 - 0.501", "  0.499 0.134 0.006 -0.501"),
    ("1. No double           -0.002", "1. No redouble         -0.002"),
    ("1. No double           -0.002", "?? No double           -0.002"),
    ("2. Double, pass        +1.000", "2. Redouble, beaver    +1.000"),
    ("Proper cube action: No double", "Proper cube action:No double"),
    ("Rolled 41:", "Rollout 41:"),
    ("Rolled 41:", "Cannot move"),
    ("Rolled 41:", "*  Cannot move"),
    ("Rolled 41:", "* Cannot move"),
    ("Rolled 41:", "*    8/4 6/4"),
    ("Rolled 41:", "*    8/4 4/6"),
    ("Rolled 41:", "Match ID   : cAmmAAAAAAAE"),
    ("Rolled 41:", " | X  O        O    |   | O              X |     0 points"),
    ("Move number 2:", "  Move number 2:"),
    ("Move number 2:", "Move number two:"),
    (
        " GNU Backgammon  Position ID: 4HPkASLgc/ABMA",
        " GNU Backgammon  Position ID: 4HPkASLgc/ABMA!",
    ),
    ("                 Match ID   : cAmmAAAAAAAE", "\n                 Match ID   : cAmmAAAAAAAE"),
    (" | O           X    |   | X                |     Rolled 41", "\n | O  X  X"),
    (" | O           X    |   | X                |     Rolled 41", " | O  X  X"),
    (" | O           X    |   | X                |     Rolled 41", "x| O           X    |"),
    (" +12-11-10--9--8--7-------6--5--4--3--2--1-+     X: Lasse", " +12-11-10--9"),
    ("Cube analysis", "\x0cCube analysis"),
    ("Cube analysis", "Cube analysis\r"),
    ("Cube analysis", "Cube\ranalysis"),
    ("Cube analysis", "\xa0Cube analysis"),
]


@pytest.mark.parametrize(("line", "other"), CHANGES)
def test_awkward_lines_read_as_the_grammar_reads_them(line: str, other: str) -> None:
    text = "\n".join(SAMPLE)
    assert line in text
    changed = text.replace(line, other, 1)
    fast, grammar, _ = _fast_and_grammar(changed)
    assert fast == grammar, other


def test_crlf_exports_and_a_bom_read_alike() -> None:
    text = "\n".join(SAMPLE)
    chances = next(i for i, line in enumerate(SAMPLE) if line.endswith("0.006 - 0.499 0.134 0.006"))
    cut = "\n".join(SAMPLE[: chances + 1]) + "\r"  # (a carriage return that ends no line)
    for changed in (text.replace("\n", "\r\n"), "\ufeff" + text, cut):
        fast, grammar, read = _fast_and_grammar(changed)
        assert fast == grammar
    assert read > 0  # (a CRLF export is read by the fast path too)


@pytest.mark.parametrize(
    "name",
    [
        "HEADING", "_POSITION_ID", "_MATCH_ID", "GNUBG_ID", "FRAME", "ROW", "_PIP_COUNTS",
        "PLAYED", "STAR", "RANK", "LEVEL", "_EQ", "CANNOT", "NUMBER", "DIFF", "CUBELESS",
        "OPTION", "PROPER",
    ],
)  # fmt: skip
def test_the_fast_path_matches_the_grammars_terminals(name: str) -> None:
    """The fast path's terminals are gnubg_text.lark's as Lark compiles them, so that an
    edited grammar cannot leave them behind."""
    from bgkit._grammars import parser

    compiled = parser("gnubg_text").get_terminal(name).pattern.to_regexp()
    assert getattr(gt, "_TERM_" + name.strip("_")) == compiled


def test_the_terminals_of_priority_two_are_those_the_fast_path_knows() -> None:
    """A line none of them starts is a TEXT line: a new kind of line in the grammar must
    be known to the fast path."""
    from bgkit._grammars import parser

    high = {t.name for t in parser("gnubg_text").terminals if t.priority > 0}
    known = {name for name in dir(gt) if name.startswith("_TERM_")}
    assert {"_TERM_" + name.strip("_") for name in high} <= known


def test_a_fault_on_every_board_is_placed_without_counting_the_text_before_it() -> None:
    """Each board whose pip counts disagree is a fault, placed at its token's own line: an
    error counting the lines before it made an export with such a board on every move
    quadratic (16 MB, 9,116 faults: 28 s; now 1.7 s). No count of the text covers more
    than a block of it."""
    import re

    game = (REAL / sorted(p.name for p in REAL.iterdir())[-1]).read_text()
    text = re.sub(r"Pip counts: O ([0-9]+)", lambda m: f"Pip counts: O {int(m[1]) + 1}", game * 3)
    counted = CountedText(text)
    match = gt.parse_gnubg_match(counted, source_name="x.txt")
    boards = text.count("Pip counts:")
    assert len(match.read_errors) == boards > 100
    assert all("disagree with the board" in e.message for e in match.read_errors)
    assert max(counted.counts) < 5_000, sorted(counted.counts)[-3:]  # (a block: 1-4 KB)
