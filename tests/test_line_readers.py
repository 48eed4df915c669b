"""Issue 29, item 6: the GMD and JavaFIBS readers read the lines their writers write
without Lark (``bgkit.formats._by_lines.read_lines`` and each reader's ``_fast_line``),
and every record as they read it with Lark's parse of the whole record and of each line
alone (``reference_lines``, the reading before: kept as the reference).

Compared: the match (every game, action and result, with their places), the lines that
cannot be read (line, column, message), what the verifier reports (errors and notes with
their places), or the error a strict reading raises; over every GMD and JavaFIBS record
under ``data/``, over them with lines changed at random (hypothesis), and at the edges of
what the fast path reads.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from bounded import CountedText
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import bgkit.formats._by_lines as by_lines
import bgkit.formats.gmd as gmd
import bgkit.formats.javafibs as javafibs
from bgkit.errors import BgkitError
from bgkit.limits import Limits, using
from bgkit.records import Match
from bgkit.verify import verify

DATA = Path(__file__).resolve().parent.parent / "data"
READERS: dict[str, tuple[Any, Callable[..., Any]]] = {
    ".gmd": (gmd, gmd.parse_gmd),
    ".match": (javafibs, javafibs.parse_javafibs),
}
FILES = sorted(p for p in DATA.rglob("*") if p.suffix in READERS and p.is_file())
SEVEN = {
    ".gmd": DATA / "real" / "gmd" / "gitGNU__gnu_gibbon__7point.gmd",
    ".match": DATA / "real" / "javafibs" / "gitGNU__gnu_gibbon__7point.match",
}


def _seven(suffix: str) -> str:
    """The real 7-point record's text, its line ends as written (CR LF for JavaFIBS)."""
    return SEVEN[suffix].read_bytes().decode("utf-8")


def _outcome(parse: Callable[..., Any], text: str, strict: bool, issues: bool) -> Any:
    """What ``parse`` makes of ``text``: the match, its actions with their places, the
    faults and (with ``issues``) the verifier's issues; or the error."""
    try:
        match = parse(text, source_name="x", strict=strict)
    except BgkitError as err:
        return ("error", type(err).__name__, str(err))
    return (
        match,
        match.read_errors,
        [
            (
                game.number,
                game.line,
                game.column,
                game.score,
                game.setup,
                game.result,
                None if game.result is None else (game.result.line, game.result.column),
                [(a, a.line, a.column, a.number, a.annotations) for a in game.actions],
            )
            for game in match.games
        ],
        issues and [(i.line, i.column, i.game, i.move, i.kind, str(i)) for i in verify(match)],
    )


def _both(suffix: str, text: str, strict: bool = False, issues: bool = True) -> tuple[Any, Any]:
    """The outcome of the reader as it is, and with the reference reading; each with the
    lines its reading hands to the assembler (with their places) and its faults (read
    before they are assembled, which must not change the outcome)."""
    module, parse = READERS[suffix]
    readings: list[Any] = []

    def kept(read: Callable[..., Any]) -> Callable[..., Any]:
        def reading(*args: Any, **kwargs: Any) -> Any:
            got = read(*args, **kwargs)
            items = list(got.items)
            readings.append((items, got.faults))
            return by_lines.LineReading(items, got.faults, got.unread)

        return reading

    fast = _outcome(parse, text, strict, issues)  # (the lines assembled as they are read)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "read_lines", kept(by_lines.read_lines))
        read_first = _outcome(parse, text, strict, issues)
        assert read_first == fast
        fast_lines = readings[:]
        readings.clear()
        patch.setattr(module, "read_lines", kept(by_lines.reference_lines))
        reference = _outcome(parse, text, strict, issues)
    return (fast, fast_lines), (reference, readings)


def test_there_are_records_to_compare() -> None:
    assert len([p for p in FILES if p.suffix == ".gmd"]) >= 41
    assert len([p for p in FILES if p.suffix == ".match"]) >= 1


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(DATA)))
@pytest.mark.parametrize("strict", [False, True])
def test_every_record_reads_as_the_reference_reads_it(path: Path, strict: bool) -> None:
    text = path.read_bytes().decode("utf-8")
    fast, reference = _both(path.suffix, text, strict)
    assert fast == reference


def _read_counting_lark(
    suffix: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[Match, list[int]]:
    """The match the reader makes of ``text``, and the lines that went to Lark."""
    _, parse = READERS[suffix]
    read_line = by_lines.read_line
    by_lark = []

    def counted(*args: Any) -> Any:
        by_lark.append(args[5])
        return read_line(*args)

    monkeypatch.setattr(by_lines, "read_line", counted)
    return parse(text), by_lark


@pytest.mark.parametrize("suffix", sorted(READERS))
def test_the_fast_path_reads_every_line_of_a_real_record(
    suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The comparisons mean nothing if the fast path is never taken: no line of the real
    7-point records after the first goes to Lark."""
    text = _seven(suffix)
    match, by_lark = _read_counting_lark(suffix, text, monkeypatch)
    assert len(match.games) == 9 and not match.read_errors
    assert by_lark == []
    assert len(text.splitlines()) > 700


_STANDARD = "0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0"  # (Gibbon's Points{})


def _zeros(text: str, width: int) -> str:
    """``text`` with each number written with zeros before it, ``width`` digits at least."""
    return re.sub(r"[0-9]+", lambda m: m[0].zfill(width), text)


def _padded(suffix: str, width: int = 2) -> str:
    """The real 7-point record with its points, dice and the numbers of its length, score
    and result lines written with zeros before them (valid: Lark reads them alike)."""
    lines = _seven(suffix).split("\r\n" if suffix == ".match" else "\n")
    numbered = r"(?:Roll|Move|Length|Resign)\b" if suffix == ".gmd" else r"(?:[0-9]|1[14]):"
    for k, line in enumerate(lines[1:], 1):
        if re.match(numbered, line):
            head, colon, rest = line.rpartition(":")
            lines[k] = head + colon + _zeros(rest, width)
        if line.startswith("14:"):
            lines[k] = "14:" + re.sub(r"-([0-9]+)", lambda m: "-" + m[1].zfill(4), line[3:])
    return ("\r\n" if suffix == ".match" else "\n").join(lines)


def _set_up() -> str:
    """The real 7-point GMD record with set-ups on its Game: lines, as Gibbon writes them
    (the same standard start, a cube turned in one game)."""
    games = iter(range(100))
    return re.sub(
        r"(?m)^Game:$",
        lambda _: (
            f"Game: Scores{{{next(games)} 0}} Points{{{_STANDARD}}} Dice{{0 0}}"
            + (" Cube{2} May-Double{0 1}" if _ == 0 else "")
            + " Turn{0}"
        ),
        _seven(".gmd"),
    )


SHAPED: dict[str, Callable[[], str]] = {
    ".gmd padded": lambda: _padded(".gmd"),
    ".gmd set-up": _set_up,
    ".match padded": lambda: _padded(".match"),
}


@pytest.mark.parametrize("shape", sorted(SHAPED))
def test_the_fast_path_reads_every_line_of_a_record_of_each_valid_shape(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines of each valid shape the writers may not write but the grammar reads (set-up
    Game: lines, numbers with zeros before them: ``08/04``, ``04 02``, ``Length: 07``)
    went to Lark at about 40 µs a line (16 MiB of them read in 21-27 s CPU; now 1-5 s,
    ``benchmarks/bench_line_shapes.py``): now none does, and each reads as Lark reads it."""
    suffix = shape.split()[0]
    text = SHAPED[shape]()
    assert text != _seven(suffix)
    fast, reference = _both(suffix, text)
    assert fast == reference
    assert not fast[0][0].read_errors and len(fast[0][0].games) == 9
    assert _read_counting_lark(suffix, text, monkeypatch)[1] == []


@pytest.mark.parametrize(
    ("suffix", "head", "double"),
    [
        (
            ".gmd",
            "GMD-2\nLength: 0\nGame:\nRoll:-:: 4 2\nMove:W:: 8/4 6/4\n",
            "Double:B:\nTake:W:\n",
        ),
        (
            ".match",
            "JavaFIBS internal match representation v1.1\n8:Bo:9999\n13:Bo:\n11:You:4 2\n"
            "1:You:8-4 6-4\n",
            "2:Bo:\n4:You:\n",
        ),
    ],
)
def test_a_cube_of_more_digits_than_the_limit_is_refused(
    suffix: str, head: str, double: str
) -> None:
    """Each double doubles a cube the record does not write: 29 doubles make a cube of 9
    digits, 30 one of 10, refused as a number of 10 digits written is (a 16 MiB record of
    doubles and takes held gigabytes of cube values, and the process was killed)."""
    _, parse = READERS[suffix]
    assert parse(head + double * 29).games[0].actions[-2].value == 1 << 29
    fast, reference = _both(suffix, head + double * 30 + double, issues=False)
    assert fast == reference
    assert fast[0][0] == "error" and "max_integer_digits" in fast[0][2]
    assert f":{head.count(chr(10)) + 59}:" in fast[0][2]  # (the 30th double's line)


@pytest.mark.parametrize("suffix", sorted(READERS))
def test_runs_of_blank_lines_read_as_the_reference_reads_them(suffix: str) -> None:
    """Blank lines (blanks, CR) are skipped a run at a time (16 MiB of them took 8.6 s
    one at a time): every line after them keeps its number, faults theirs."""
    newline = "\r\n" if suffix == ".match" else "\n"
    lines = _seven(suffix).split(newline)[:120]
    runs = ["", " ", "\t \r", "\r", " \f "]  # (a form feed: a blank line read one at a time)
    lines[50] = "Move:W:: 8/x" if suffix == ".gmd" else "1:You:8-x"
    lines = [line + newline + f"{runs[k % 5]}\n" * (k % 3) for k, line in enumerate(lines)]
    text = "".join(lines) + " \t"
    fast, reference = _both(suffix, text)
    assert fast == reference
    assert [fault.line for fault in fast[0][1]] == [100]
    # before the first line (16 MiB of them took 11 s: Lark read them with the header);
    # blanks the grammar refuses there (a form feed, a CR alone) cost the record
    for before, error in ((" \n\n\t\r\n" * 20, False), ("\n \f \n", True), ("\r \n", True)):
        fast, reference = _both(suffix, before + text)
        assert fast == reference
        assert (fast[0][0] == "error") == error
        assert error or [fault.line for fault in fast[0][1]] == [100 + before.count("\n")]


@pytest.mark.parametrize("suffix", sorted(READERS))
def test_a_limit_on_digits_is_kept_from_one_reading_to_the_next(suffix: str) -> None:
    """The fast path caches its reading of a move's steps and of a set-up: a number of
    more digits than the limit is Lark's (which raises the limit) under each limit, read
    after or before it is cached under another."""
    text = _padded(suffix, width=5)
    if suffix == ".gmd":
        text = text.replace("Game:\n", f"Game: Scores{{00000 0}} Points{{{_STANDARD}}}\n")
    for digits in (9, 4, 9, 5, 4):
        with using(Limits(max_integer_digits=digits)):
            fast, reference = _both(suffix, text, issues=False)
        assert fast == reference
        assert (fast[0][0] == "error") == (digits == 4), digits
        assert digits != 4 or "max_integer_digits" in fast[0][2]


@pytest.mark.parametrize("suffix", sorted(READERS))
@pytest.mark.parametrize("digits", [1, 2, 3])
def test_a_tight_limit_on_digits_is_kept(suffix: str, digits: int) -> None:
    """Under a limit on digits tighter than the fast path's numbers, Lark reads every
    line (and refuses a number of two digits, a point, under a limit of one)."""
    text = _seven(suffix)
    with using(Limits(max_integer_digits=digits)):
        fast, reference = _both(suffix, text)
    assert fast == reference
    assert (fast[0][0] == "error") == (digits == 1)
    assert digits != 1 or "max_integer_digits" in fast[0][2]


# Lines as each writer writes them, and lines near them: the fast path reads the first
# kind, Lark the second (reading or refusing them as it always has).
EDGES = {
    ".gmd": [
        "Roll:W:: 4 2",
        "Roll:W:: 4 2 ",
        "Roll:W:: 4 2\r",
        "Roll:-:: 3 3",
        "Roll:W:: 7 2",
        "Roll:W:: 0 2",
        "Roll:W::  4 2",
        "Roll:W:: 42",
        "roll:w:: 4 2",
        " Roll:W:: 4 2",
        "Roll:W:123456789012: 4 2",
        "Move:W:: 8/4 6/4",
        "Move:W::",
        "Move:W:: 8/4 6/4 ",
        "Move:W:: 8-4 6-4",
        "Move:W:: 25/4 6/4",
        "Move:W:: 0/4",
        "Move:W:: 08/04",
        "Move:W:: 8/4 6/4 8/4 6/4 8/4",
        "Move:W:: bar/22 off/3",
        "Move:W:: Bar/22 6/Off",
        "Move:W:: 8/4*",
        "Move:W::8/4",
        "Move:-:: 8/4",
        "Double:W:",
        "Double:W:123",
        "Double:W:B",
        "Double:W:: 2",
        "Game:1",
        "Roll:W:: 4 2 1",
        "Move:W:: 8/4 x",
        "Double:W",
        "Double:-:",
        "Take:B:",
        "Drop:B:",
        "Accept:B:",
        "Reject:W:",
        "Resign:W:: 2",
        "Resign:W:: 0",
        "Resign:W:: 1000",
        "Game:",
        "Game: ",
        "Game: Scores{3 2}",
        "GAME:",
        "Length: 7",
        "Length: 007",
        "Length: Money",
        "Length: unlimitedx",
        "Length:1234",
        "Roll : W : 12 : 4\t2",
        "MOVE:b::8/4 6 / 4",
        "Move:W:: 8/46/4",
        "Move:W:: 8/4bar/3",
        "Move:W:: BAR/22",
        "double:b 12",
        "Double:W:1 2",
        "Resign:W:: 007",
        "Resign:W:: 000",
        "Player:w:\r",
        "Rank:B:",
        "Player:W:Snow White ",
        "Player:W x",
        "# a comment\r",
        "  # x",
        "Game :",
        "game:",
        "Location:",
        "Location: Sofia \r",
        "rule : crawford",
        "Rule:",
        "",
        "\t",
        # numbers of any digits, set-ups (read by the fast path since the second pass)
        "Roll:W:: 04 02",
        "Roll:W:: 004\t2",
        "Roll:W:: 00 2",
        "Roll:W:: 07 2",
        "Roll:W:: 0000000004 2",
        "Roll:W:: 000000004 2",
        "Move:W:: 08/04 006/0004",
        "Move:B:: 00/4",
        "Move:W:: 025/4",
        "Move:W:: 000000008/4",
        "Move:W:: 0000000008/4",
        "Move:W:: bar/022 01/off",
        "Length: 0000007",
        "Length: 123456789",
        "Length: 1234567890",
        "Resign:W:: 0001",
        "Resign:W:: 000000002",
        "Resign:W:: 0000000002",
        "Resign:W:: 0000",
        "Game: Scores{3 2} Points{0 -2 0 0 0 0 5 0 3 0 0 0 -5 5 0 0 0 -3 0 -5 0 0 0 0 2 0}",
        "Game: Scores{3 2} Cube{2} May-Double{0 1} Dice{5 3} Turn{-1}",
        "Game:Scores{3 2}Cube{2}",
        "game : scores { 3  -2 }\tMAY-DOUBLE{ 0 1 } \r",
        "Game: Scores{}",
        "Game: Scores{32}",
        "Game: Scores{3-2}",
        "Game: Scores{3--2}",
        "Game: Scores{3 - 2}",
        "Game: Scores{3 2",
        "Game: Scores 3 2}",
        "Game: Scores{3 2}}",
        "Game: Scores{-0 0003}",
        "Game: Scores{000000001 2}",
        "Game: Scores{0000000001 2}",
        "Game: Scores{-000000001 2}",
        "Game: Scores{-0000000001 2}",
        "Game: Scores{3 2} x",
        "Game: Scores3{1}",
        "Game: Scores-{1}",
        "Game: -Scores{1}",
        "Game: Game{1} bar{2} off{} money{1} W{3} Roll{4}",
        "Game: Cube{3}",
        "Game: Points{1 2}",
        "Game: Scores{3 2} Scores{1 1}",
        "Game: S{3 2}",
        "Game: Scores{3.2}",
        "Game: Scores{3,2}",
    ],
    ".match": [
        "0:JoeBlack:3 2",
        "0:JoeBlack:3 2 ",
        "0:JoeBlack :3 2",
        "0: JoeBlack:3 2",
        "0:JoeBlack:7 2",
        "0:JoeBlack:32",
        "11:You:4 2",
        "1:You:17-21 19-21",
        "1:You:17-21 19-21 ",
        "1:You: 17-21",
        "1:You:17-21  19-21",
        "1:You:25-21",
        "1:You:bar-23 23-off",
        "1:You:Bar-23",
        "1:You:1-2 1-2 1-2 1-2 1-2",
        "1:You:",
        "1:Nobody:17-21",
        "15:JoeBlack:",
        "15:JoeBlack:3 2",
        "2:You:",
        "2:You:1",
        "13:JoeBlack:x",
        "0:JoeBlack:3 2 1",
        "6:You:",
        "7:You:",
        "14:SnowWhite-1:",
        "4:JoeBlack:",
        "5:JoeBlack:",
        "12:You:",
        "13:JoeBlack:",
        "13:Other:",
        "3:You:2",
        "7:You:1",
        "7:You:12345",
        "9:JoeBlack:7",
        "8:JoeBlack:7",
        "6:You:JoeBlack",
        "6:You:Joe Black ",
        "14:SnowWhite-1:JoeBlack-0",
        "14:SnowWhite-1 :JoeBlack-0",
        "14:Snow-White-1:JoeBlack-1234",
        "10:You:",
        "",
        " ",
        # numbers of any digits (read by the fast path since the second pass)
        "0:JoeBlack:03 02",
        "11:You:004\t2",
        "0:JoeBlack:00 2",
        "0:JoeBlack:0000000003 2",
        "0:JoeBlack:000000003 2",
        "1:You:017-021 0019-21",
        "1:You:00-4",
        "1:You:025-21",
        "1:You:000000017-21",
        "1:You:0000000017-21",
        "1:You:bar-023 023-off",
        "7:You:00001",
        "7:You:000000001",
        "7:You:0000000001",
        "8:JoeBlack:0007",
        "3:You:0000",
        "14:SnowWhite-0001:JoeBlack-0",
        "14:SnowWhite-000000001:JoeBlack-0",
        "14:SnowWhite-0000000001:JoeBlack-0",
        "14:Snow-White-1:JoeBlack-0000000000",
    ],
}
_LINES = st.sampled_from([line for lines in EDGES.values() for line in lines])


def _with_lines(suffix: str, changes: list[tuple[int, str]], first: int | None = None) -> str:
    """The real 7-point record (its ``first`` lines) with line ``k`` (modulo their
    number) replaced by ``text`` for each change."""
    newline = "\r\n" if suffix == ".match" else "\n"
    lines = _seven(suffix).split(newline)[:first]
    assert len(lines) >= min(first or 700, 700)
    for k, text in changes:
        lines[k % len(lines)] = text
    return newline.join(lines)


@pytest.mark.parametrize(
    ("suffix", "index"),
    [(suffix, k) for suffix in sorted(EDGES) for k in range(len(EDGES[suffix]))],
)
def test_each_edge_line_reads_as_the_reference_reads_it(suffix: str, index: int) -> None:
    text = EDGES[suffix][index]
    for at, strict in ((1, False), (9, True), (40, False), (-2, False)):
        # (the line after the header, a game's start, a move, the last line)
        damaged = _with_lines(suffix, [(at, text)], first=80)  # (two games and more)
        fast, reference = _both(suffix, damaged, strict, issues=False)
        assert fast == reference, (text, at, strict)


def _mutated(draw: st.DrawFn, suffix: str) -> str:
    """The real record with a few lines changed: a character put in, taken out or
    replaced, or a line of either writer put in its place."""
    lines = _seven(suffix).splitlines()
    shapes = {line.split(":")[0] + line[-1:].isdigit() * "#": k for k, line in enumerate(lines)}
    changes = []
    for _ in range(draw(st.integers(1, 4))):
        # a line of each shape as often as any line
        k = draw(st.integers(0, len(lines) - 1) | st.sampled_from(sorted(shapes.values())))
        line = lines[k]
        how = draw(st.sampled_from(["insert", "delete", "replace", "line"]))
        if how == "line":
            line = draw(_LINES)
        else:
            at = draw(st.integers(0, len(line)))
            char = draw(st.sampled_from(list(" :/-0123456789WBbarofYu\t\rx*#")))
            if how == "insert":
                line = line[:at] + char + line[at:]
            elif how == "delete":
                line = line[:at] + line[at + 1 :]
            else:
                line = line[:at] + char + line[at + 1 :]
        changes.append((k, line))
    return _with_lines(suffix, changes)


@st.composite
def _damaged(draw: st.DrawFn) -> tuple[str, str, bool]:
    suffix = draw(st.sampled_from(sorted(READERS)))
    return suffix, _mutated(draw, suffix), draw(st.booleans())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_damaged())
@example((".gmd", _with_lines(".gmd", [(1, "Move:W:: 8/4")]), False))
@example(
    (".gmd", _with_lines(".gmd", [(1, "0:JoeBlack:03 02"), (2, "Move:W:: 0000000008/4")]), True)
)
@example((".gmd", _with_lines(".gmd", [(2, "Move:W:: 0000000008/4"), (9, "Game:x")]), True))
def test_changed_lines_read_as_the_reference_reads_them(case: tuple[str, str, bool]) -> None:
    suffix, text, strict = case
    fast, reference = _both(suffix, text, strict)
    assert fast == reference


def _one_line(suffix: str, text: str, end: str) -> tuple[Any, Any]:
    """What the fast path makes of ``text`` as the line after the real record's first, and
    what Lark's reading of that line alone makes of it (``end``: the line's end)."""
    module, _ = READERS[suffix]
    name = "gmd" if suffix == ".gmd" else "javafibs"
    header = _seven(suffix).splitlines(keepends=True)[0]
    source = header + text + end
    builder = module._GmdBuilder(source, "x") if suffix == ".gmd" else module._Builder(source, "x")
    fast = module._fast_line(source, len(header), len(source), 2)
    lark = by_lines.parser(name, f"{name}_line")
    rule = f"{name}_line"
    try:
        slow = by_lines.read_line(lark, builder, source, len(header), len(source), 2, rule, "", "")
    except BgkitError as err:
        slow = err
    nothing = ("the builder makes nothing of it",)
    return (nothing if fast is by_lines.NOTHING else fast), (nothing if slow is None else slow)


@pytest.mark.parametrize("record", [".gmd", ".match", *sorted(SHAPED)])
def test_every_change_of_a_character_reads_as_lark_reads_it(record: str) -> None:
    """A line of each shape in the real record (its digits aside), or of each new shape
    in a record of :data:`SHAPED`, with each of its characters taken out, replaced or
    preceded by each character that matters to the grammar: where the fast path reads it,
    it reads it as Lark does (the same line, with the same places); else Lark reads it."""
    suffix = record.split()[0]
    lines = (SHAPED[record]() if record in SHAPED else _seven(suffix)).splitlines()[1:]
    if record in SHAPED:  # (the lines of the new shapes: a number with a 0 before it, a set-up)
        lines = [line for line in lines if re.search(r"(?<![0-9])0[0-9]|\{", line)]
    by_shape: dict[str, list[str]] = {}
    for line in dict.fromkeys(lines):
        shape = "".join("9" if c.isdigit() else c for c in line)
        by_shape.setdefault(shape, []).append(line)
    chars = list(" :/-10Wb\tx{}S")
    read = 0
    for line in [shaped[0] for shaped in by_shape.values()]:
        changed = {line}
        for at in range(len(line) + 1):
            changed.add(line[:at] + line[at + 1 :])
            for char in chars:
                changed.add(line[:at] + char + line[at:])
                changed.add(line[:at] + char + line[at + 1 :])
        for text in sorted(changed):
            fast, slow = _one_line(suffix, text, "\r\n" if suffix == ".match" else "\n")
            if fast is not None:
                assert fast == slow, text
                read += 1
    assert read > 200


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(sorted(READERS)),
    st.text(st.sampled_from(list(" :/-0123456789WBbarofYuRlMvGmeDTkSJ\t\rx{}sc")), max_size=24)
    | _LINES,
    st.sampled_from(["\n", "\r\n", ""]),
)
def test_any_line_reads_as_lark_reads_it(suffix: str, text: str, end: str) -> None:
    fast, slow = _one_line(suffix, text, end)
    assert fast is None or fast == slow


@pytest.mark.parametrize(
    ("suffix", "line"), [(".gmd", "Resign:W:: 12345"), (".match", "7:You:12345")]
)
def test_a_limit_a_later_line_passes_is_raised_as_the_reference_raises_it(
    suffix: str, line: str
) -> None:
    """The lines are assembled as they are read, and the reference reads every line
    first: a limit a move passes (its steps) does not hide one a later line passes."""
    text = _with_lines(suffix, [(-3, line)])
    with using(Limits(max_play_steps=1, max_integer_digits=4)):
        fast, reference = _both(suffix, text)
    assert fast == reference
    assert fast[0][0] == "error" and "max_integer_digits" in fast[0][2]
    with using(Limits(max_play_steps=1)):
        fast, reference = _both(suffix, text)
    assert fast == reference
    assert fast[0][0] == "error" and "max_play_steps" in fast[0][2]


@pytest.mark.parametrize(
    ("suffix", "head", "line"),
    [
        (".gmd", "GMD-2\nLength: 7\nGame:\n", "Move:W:: 8/4\n"),
        (".match", "JavaFIBS internal match representation v1.1\n8:Bo:7\n13:Bo:\n", "1:You:8-4\n"),
    ],
)
def test_a_fault_costs_no_count_over_the_text_before_it(suffix: str, head: str, line: str) -> None:
    """A record of a move without a roll over and over has a fault every other line: each
    was a NotationError whose line was a count over the text before it (80,000 lines took
    6.4 s, 16 MB would take half an hour). The assembler's faults are placed on their own
    line now, read leniently or strictly: no count of the text covers more than a line or
    two of it; the reading is as the reference's (the test above)."""
    _, parse = READERS[suffix]
    text = CountedText(head + line * 2000)
    match = parse(text, source_name="x")
    assert len(match.read_errors) == 1000
    assert max(text.counts, default=0) < 100, sorted(text.counts)[-3:]
    with pytest.raises(BgkitError, match="x:4:"):
        parse(text, source_name="x", strict=True)
    assert max(text.counts, default=0) < 100, sorted(text.counts)[-3:]
    fast, reference = _both(suffix, head + line * 50, issues=False)
    assert fast == reference


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["Site", "SITE", "Rank", "rank", "Event", "İ", "ß"]),
            st.text(max_size=2),
        ),
        min_size=60,
        max_size=80,
    ),
    st.sampled_from(["site", "Site", "RANK", "event", "i̇", "ss", "none"]),
)
def test_a_long_list_of_tags_answers_as_the_first_tag_of_the_key(
    tags: list[tuple[str, str]], key: str
) -> None:
    match = Match(("a", "b"), 0, (), tags=tuple(tags))
    first = next((v for k, v in tags if k.lower() == key.lower()), "none!")
    assert match.tag(key, "none!") == first


def test_a_gmd_record_of_many_rank_lines_verifies_in_linear_time() -> None:
    """GMD repeats ``Rank`` lines as often as it likes, each a tag of the match, and the
    verifier looks tags up for each game: 40,000 of them and 1,000 games took 5.9 s
    (0.2 s without them). Now the tags cost about nothing (measured 2.7 s before)."""
    text = _seven(".gmd")
    head, games = text.split("Game:\n", 1)
    body = ("Game:\n" + games) * 20
    times = []
    for ranks in (0, 100_000):
        match = gmd.parse_gmd(head + "Rank:W: 1\n" * ranks + body)
        assert len(match.tags) > ranks and len(match.games) == 180
        started = time.process_time()
        assert verify(match).games == 180
        times.append(time.process_time() - started)
    assert times[1] < 2 * times[0] + 0.3, times


@st.composite
def _respaced(draw: st.DrawFn) -> tuple[str, str]:
    """A line of a real record (or an edge line) with blanks put between, or taken from,
    its tokens and the case of its letters changed: what the grammar reads alike."""
    suffix = draw(st.sampled_from(sorted(READERS)))
    lines = sorted(set(_seven(suffix).splitlines()[1:]) | set(EDGES[suffix]))
    tokens = re.findall(r"[A-Za-z]+|[0-9]+|\s+|.", draw(st.sampled_from(lines)))
    out = []
    for token in tokens:
        if token.isalpha() and draw(st.booleans()):
            token = draw(st.sampled_from([token.upper(), token.lower(), token.title()]))
        elif token.isspace() and draw(st.booleans()):
            token = draw(st.sampled_from(["", " ", "\t", "  "]))
        out.append(token + draw(st.sampled_from(["", "", "", " ", "\t"])))
    return suffix, "".join(out)


@settings(max_examples=400, deadline=None)
@given(_respaced(), st.sampled_from(["\n", "\r\n", ""]))
def test_a_line_with_other_blanks_and_case_reads_as_lark_reads_it(
    case: tuple[str, str], end: str
) -> None:
    suffix, text = case
    fast, slow = _one_line(suffix, text, end)
    assert fast is None or fast == slow
