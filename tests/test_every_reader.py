"""Issue 28, for every record reader bgkit has: one bad line never costs the rest of the
file, and a rule break is never reported as a line that cannot be read.

:data:`LINE_READERS` holds, for each format of :data:`bgkit.formats.FORMATS` read from
text, a real record, which of its lines hold actions, and the same record with one step
moved away from home. Each test damages lines of the record (generated: ``@`` put into
an action line) or the play, and checks what ``verify`` makes of it. The binary formats
(:data:`BINARY_READERS`) are archives under a checksum: a damaged byte fails it, and the
file is refused at one located error. A format added to ``FORMATS`` without a row here
fails :func:`test_every_format_has_a_row`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from bgkit.cli import main
from bgkit.errors import NotationError
from bgkit.formats import FORMATS, read_match
from bgkit.play import Play, Step
from bgkit.records import Action, Match, Move
from bgkit.verify import IssueKind, verify

DATA = Path(__file__).resolve().parent.parent / "data"
REAL = DATA / "real"
SEVEN = "gitGNU__gnu_gibbon__7point"
GNUBG_TEXT = (
    REAL / "gnubg_txt" / "lassehjorthmadsen__bglab__0ply__BoardLord_-_Llabba_7pt_"
    "Backgammon_Studio_2023_08_09_18_11_07.txt"
)


@dataclass(frozen=True)
class LineReader:
    path: Path
    actions: str
    """A regular expression matching the lines that hold actions."""
    wrong_way: tuple[str, str]
    """A play of the record and the same play with one step away from home."""
    player: str
    """Who makes that play."""
    column: int
    """Where the format places that play on its line (the verifier's error is there)."""


LINE_READERS: dict[str, LineReader] = {
    "mat": LineReader(
        REAL / "mat" / f"{SEVEN}.mat",
        r"  *[0-9]+\) ",
        ("42: 8/4 6/4", "42: 8/4 4/6"),
        "SnowWhite",
        34,
    ),
    "gmd": LineReader(
        REAL / "gmd" / f"{SEVEN}.gmd",
        r"(Roll|Move|Double|Take|Drop):",
        ("Move:W:: 8/4 6/4", "Move:W:: 8/4 4/6"),
        "SnowWhite",
        6,
    ),
    "javafibs": LineReader(
        REAL / "javafibs" / f"{SEVEN}.match",
        r"(0|1|2|4|5|11|15):",
        ("1:You:17-21 19-21", "1:You:17-21 21-19"),
        "SnowWhite",
        3,
    ),
    "sgf": LineReader(
        REAL / "sgf" / f"{SEVEN}.sgf", r";[BW]\[", (";B[42qusu]", ";B[42quus]"), "SnowWhite", 2
    ),
    "gnubg-text": LineReader(
        GNUBG_TEXT,
        r"\* \w+ (moves|doubles|accepts|rejects)",
        ("moves 8/4 6/4", "moves 8/4 4/6"),
        "Llabba",
        16,
    ),
}
"""The formats read from text: a real record of each, its action lines, a wrong-way play."""

BINARY_READERS: dict[str, Callable[[Match], bytes]] = {}
"""The binary formats, each with the writer that makes a record of it to damage."""

DOCUMENT_READERS = {"json"}
"""bgkit's own JSON document: a value that breaks its schema costs the action (or the
game's result, or the game) it stands in, with a read error at its place
(:func:`test_a_damaged_value_of_a_json_record_costs_that_action_only`); a step away from
home is still the verifier's (tests/test_json_record.py)."""


def _binary_writers() -> None:
    from bgkit.formats.ogxm_record import dumps_ogxm

    def xg(_match: Match) -> bytes:
        return (REAL / "xg" / "kevung__gbf__test.xg").read_bytes()

    BINARY_READERS.update({"xg": xg, "ogxm": dumps_ogxm})


_binary_writers()


def test_every_format_has_a_row() -> None:
    names = {f.name for f in FORMATS}
    assert names == set(LINE_READERS) | set(BINARY_READERS) | DOCUMENT_READERS
    assert {f.name for f in FORMATS if f.binary} == set(BINARY_READERS)


def _read(name: str, text: str) -> Match:
    fmt = next(f for f in FORMATS if f.name == name)
    return fmt.parse(text, source_name=f"damaged.{name}")


def _placed(match: Match) -> list[tuple[int, int, int, object]]:
    """Each action where it stands; a move's hit marks left out where the format does not
    write them (SGF: after a node that cannot be read they cannot be known)."""
    unmarked = match.source_name is not None and match.source_name.endswith(".sgf")
    return [
        (action.line, action.column, game.number, _unmarked(action) if unmarked else action)
        for game in match.games
        for action in game.actions
    ]


def _unmarked(action: Action) -> Action:
    if not isinstance(action, Move) or action.play is None:
        return action
    return replace(action, play=Play([Step(s.src, s.dst) for s in action.play.steps]))


def _damage_points(text: str, pattern: str) -> list[int]:
    """Six action lines spread over the record (0-based), each damaged near its start
    and at its end."""
    lines = text.split("\n")
    found = [i for i, line in enumerate(lines) if re.match(pattern, line)]
    assert len(found) >= 6
    return [found[k * (len(found) - 1) // 5] for k in range(6)]


@pytest.mark.parametrize("name", sorted(LINE_READERS))
def test_a_damaged_action_line_costs_that_line_only(name: str) -> None:
    reader = LINE_READERS[name]
    text = reader.path.read_text(encoding="utf-8")
    original = _read(name, text)
    assert not original.read_errors and verify(original).ok
    for index, where in (
        (index, where) for index in _damage_points(text, reader.actions) for where in (3, -1)
    ):
        lines = text.split("\n")
        line = lines[index]
        at = where if where >= 0 else len(line.rstrip("\r"))  # (at its start or its end)
        lines[index] = line[:at] + "@" + line[at:]
        damaged = _read(name, "\n".join(lines))
        # that line is one read error...
        (fault,) = damaged.read_errors
        assert fault.line == index + 1, (name, lines[index], fault)
        # ...every game is read, and every action but those of that line (with its
        # board, or the play whose roll it was) is read as before
        assert len(damaged.games) == len(original.games)
        kept, before = _placed(damaged), _placed(original)
        assert set(kept) <= set(before)
        lost = [a for a in before if a not in set(kept)]
        # (none when what comes before the damage is read: an SGF node before a stray '@')
        assert len(lost) <= 2 and all(a[0] in range(index - 14, index + 3) for a in lost)
        # ...and the verifier reports it at its place and no rule break: the rest of its
        # game is left unverified, the later games are verified
        report = verify(damaged)
        assert [(e.kind, e.line) for e in report.errors] == [(IssueKind.UNREADABLE_LINE, index + 1)]


@pytest.mark.parametrize("name", sorted(LINE_READERS))
def test_a_step_away_from_home_is_the_players_illegal_play(name: str) -> None:
    reader = LINE_READERS[name]
    text = reader.path.read_text(encoding="utf-8")
    assert reader.wrong_way[0] in text
    changed = text.replace(*reader.wrong_way, 1)
    line = text[: text.index(reader.wrong_way[0])].count("\n") + 1
    match = _read(name, changed)
    assert not match.read_errors  # the notation is fine: the play breaks a rule
    first = verify(match).errors[0]
    assert (first.kind, first.line, first.column, first.player_name) == (
        IssueKind.ILLEGAL_PLAY,
        line,
        reader.column,
        reader.player,
    )
    assert re.search(
        r"illegal play .* for 42: 4/6 moves a checker away from its home$", first.message
    )
    result = CliRunner().invoke(main, ["verify", "--from", name, "-"], input=changed)
    assert result.exit_code == 1, result.stderr  # errors, not an unreadable file (2)


@pytest.mark.parametrize("name", sorted(BINARY_READERS))
def test_a_damaged_byte_of_a_binary_record_is_one_located_refusal(name: str) -> None:
    data = BINARY_READERS[name](read_match(REAL / "mat" / f"{SEVEN}.mat"))
    fmt = next(f for f in FORMATS if f.name == name)
    assert fmt.parse_bytes(data).games  # (the record as written reads)
    damaged = bytearray(data)
    damaged[len(data) // 2] ^= 0x55
    with pytest.raises(NotationError) as info:
        fmt.parse_bytes(bytes(damaged), source_name=f"damaged.{name}")
    assert re.search("checksum|CRC", info.value.msg), info.value.msg
    assert str(info.value).startswith(f"damaged.{name}:1:")


def test_a_damaged_value_of_a_json_record_costs_that_action_only() -> None:
    from bgkit.formats.json_record import dumps_json, parse_json

    original = read_match(REAL / "mat" / f"{SEVEN}.mat")
    text = dumps_json(original)
    before = [(g.number, a) for g in original.games for a in g.actions]
    for index in _damage_points(text, r' *\{"type": "'):
        lines = text.split("\n")
        lines[index] = lines[index].replace('"type": "', '"type": "@', 1)
        damaged = parse_json("\n".join(lines), source_name="damaged.json")
        # that value is one read error, at its place...
        (fault,) = damaged.read_errors
        assert (fault.line, fault.column) == (index + 1, lines[index].index('"@') + 1)
        # ...and every game and every other action is read as before
        assert len(damaged.games) == len(original.games)
        kept = [(g.number, a) for g in damaged.games for a in g.actions]
        assert len(kept) == len(before) - 1 and set(kept) <= set(before)
        assert all(a.line for _, a in kept)  # (each placed at its line)
        report = verify(damaged)
        assert [(e.kind, e.line) for e in report.errors] == [(IssueKind.UNREADABLE_LINE, index + 1)]
