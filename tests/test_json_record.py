"""Tests for bgkit.formats.json_record: the lossless JSON form and its JSON Schema."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgkit.errors import NotationError
from bgkit.formats.json_record import (
    FORMAT,
    VERSION,
    dumps_json,
    match_schema,
    parse_json,
    read_json,
    write_json,
)
from bgkit.formats.mat import read_mat
from bgkit.formats.sgf import read_sgf
from bgkit.play import Play, Step
from bgkit.records import (
    Action,
    Annotations,
    Beaver,
    Double,
    Drop,
    Game,
    Match,
    Move,
    Raccoon,
    Result,
    Take,
)
from bgkit.verify import verify

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
MATS = (
    sorted((DATA / "real" / "mat").iterdir())
    + sorted((DATA / "dialects").glob("*.mat"))
    + [DATA / "fixtures" / "handwritten_3pt.mat", DATA / "fixtures" / "selfplay_7pt_noisy.mat"]
)
SGFS = sorted((DATA / "real" / "sgf").glob("*.sgf")) + sorted((DATA / "selfplay").glob("*.sgf"))[:5]


def notes(match: Match) -> list[Annotations]:
    out = [match.annotations]
    for game in match.games:
        out.append(game.annotations)
        out.extend(a.annotations for a in game.actions)
    return out


def same(a: Match, b: Match) -> bool:
    """Equal, annotations and Galaxy's loser points included (``==`` skips them)."""
    losers = [g.result.loser_points if g.result else None for g in a.games]
    return (
        a == b
        and notes(a) == notes(b)
        and losers == [g.result.loser_points if g.result else None for g in b.games]
    )


def document(match: Match) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(dumps_json(match))
    return doc


SMALL = Match(
    ("Ann", "Bo"),
    3,
    (
        Game(
            1,
            (0, 0),
            (
                Move(1, (3, 1), Play("8/5 6/5"), annotations=(("LU", ("0.25",)),)),
                Move(0, (6, 4), None),
                Double(1, 2),
                Take(0),
                Move(0, (5, 2), Play()),
                Double(1, 4),
                Drop(0),
            ),
            Result(1, 2, loser_points=2),
            annotations=(("GS", ("M:1 2", "D:0")),),
        ),
    ),
    tags=(("Site", "Club"), ("Site", "twice")),
    comments=("one", ""),
)


# ----------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("path", MATS, ids=lambda p: p.name)
def test_mat_records_round_trip(path: Path) -> None:
    match = read_mat(path)
    text = dumps_json(match)
    back = parse_json(text)
    assert same(back, match)
    assert dumps_json(back) == text


@pytest.mark.parametrize("path", SGFS, ids=lambda p: p.name)
def test_sgf_records_round_trip_with_their_analysis(path: Path) -> None:
    match = read_sgf(path)
    back = parse_json(dumps_json(match))
    assert same(back, match)


def test_everything_a_match_holds() -> None:
    money = Match(
        ("A", "B"),
        0,
        (
            Game(
                7,
                (3, 0),
                (
                    Move(0, (1, 1), Play("bar/24*/23 6/off")),
                    Double(1, 2),
                    Beaver(0, 4),
                    Raccoon(1, 8),
                ),
                None,
                setup="-B-CBBB---a---A---ABcbbbd-/0",
            ),
        ),
        annotations=(("WR", ("1500",)), ("sgf:node", (";B[resign:1]",))),
    )
    for match in (SMALL, money):
        back = parse_json(dumps_json(match))
        assert same(back, match)
    back = parse_json(dumps_json(money))
    move = back.games[0].actions[0]
    assert isinstance(move, Move) and move.play is not None
    assert move.play.steps == (Step(25, 24, True), Step(24, 23), Step(6, 0))
    assert back.games[0].setup == "-B-CBBB---a---A---ABcbbbd-/0"


def test_the_document_shape() -> None:
    doc = document(SMALL)
    assert list(doc) == ["format", "version", "players", "length", "tags", "comments", "games"]
    assert (doc["format"], doc["version"]) == (FORMAT, VERSION) == ("bgkit-match", 1)
    game = doc["games"][0]
    assert game["actions"][0] == {
        "type": "move",
        "player": 1,
        "dice": [3, 1],
        "play": [[8, 5, False], [6, 5, False]],
        "annotations": [["LU", ["0.25"]]],
    }
    assert game["actions"][1]["play"] is None and game["actions"][4]["play"] == []
    assert game["result"] == {"winner": 1, "points": 2, "match_won": False, "loser_points": 2}
    assert game["annotations"] == [["GS", ["M:1 2", "D:0"]]]
    # one action per line
    lines = dumps_json(SMALL).splitlines()
    assert '        {"type": "double", "player": 1, "value": 2},' in lines


def test_what_json_cannot_hold() -> None:
    bad_moves: list[Action] = [
        Move(2, (3, 1), Play()),
        Move(0, (7, 1), Play()),
        Move(0, (3, 1), Play([Step(3, 25)])),  # (a step away from home is held: 5/8)
        Move(0, (3, 1), Play([Step(26, 3)])),
        Double(0, 0),
    ]
    for action in bad_moves:
        match = Match(("a", "b"), 0, (Game(1, (0, 0), (action,), None),))
        with pytest.raises(ValueError, match="game 1: "):
            dumps_json(match)
    with pytest.raises(ValueError, match="negative"):
        dumps_json(Match(("a", "b"), -1, ()))
    with pytest.raises(ValueError, match="result"):
        dumps_json(Match(("a", "b"), 1, (Game(1, (0, 0), (), Result(3, 1)),)))


# ----------------------------------------------------------------------------- the schema


def _validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    schema = match_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_schema_ships_in_the_package() -> None:
    path = ROOT / "bgkit" / "schemas" / "match.schema.json"
    assert match_schema() == json.loads(path.read_text(encoding="utf-8"))
    assert match_schema()["properties"]["format"] == {"const": FORMAT}


@pytest.mark.parametrize("path", MATS[::7] + SGFS, ids=lambda p: p.name)
def test_documents_validate_against_the_schema(path: Path) -> None:
    validator = _validator()
    match = read_sgf(path) if path.suffix == ".sgf" else read_mat(path)
    errors = list(validator.iter_errors(document(match)))
    assert not errors, [e.message for e in errors[:3]]


def test_small_document_validates() -> None:
    assert not list(_validator().iter_errors(document(SMALL)))


# (path in the document, new value or DELETE, the message parse_json gives)
DELETE = object()
INVALID: list[tuple[list[str | int], object, str]] = [
    (["format"], "bgkit", "format must be 'bgkit-match'"),
    (["version"], 2, "version must be 1 (this bgkit reads version 1)"),
    (["version"], True, "version must be 1 (this bgkit reads version 1)"),
    (["players"], ["a"], "players must be two player names"),
    (["players", 1], 7, "players[1] must be a string"),
    (["length"], -1, "length must be at least 0"),
    (["length"], 1.5, "length must be a whole number"),
    (["tags", 0], ["Site"], "tags[0] must be a pair [key, value] of strings"),
    (["comments", 0], None, "comments[0] must be a string"),
    (
        ["extra"],
        1,
        "extra is not a member of this object (known: format, version, players,"
        " length, games, tags, comments, annotations)",
    ),
    (["games"], {}, "games must be an array"),
    (["games", 0, "number"], DELETE, "games[0] needs the member 'number'"),
    (["games", 0, "score"], [0, -2], "games[0].score[1] must be at least 0"),
    (["games", 0, "setup"], 5, "games[0].setup must be a string"),
    (["games", 0, "result", "winner"], 2, "games[0].result.winner must be 0-1"),
    (["games", 0, "result", "match_won"], "no", "games[0].result.match_won must be true or false"),
    (
        ["games", 0, "actions", 0, "type"],
        "roll",
        "games[0].actions[0].type must be one of move, double, take, drop, beaver, raccoon",
    ),
    (
        ["games", 0, "actions", 0, "player"],
        False,
        "games[0].actions[0].player must be a whole number",
    ),
    (
        ["games", 0, "actions", 0, "dice"],
        [3, 7],
        "games[0].actions[0].dice must be two numbers 1-6",
    ),
    (["games", 0, "actions", 0, "dice"], [3], "games[0].actions[0].dice must be two numbers 1-6"),
    (
        ["games", 0, "actions", 0, "play", 0],
        [8, 5],
        "games[0].actions[0].play[0] must be a step [from, to, hit]",
    ),
    (["games", 0, "actions", 0, "play", 0, 0], 26, "games[0].actions[0].play[0][0] must be 1-25"),
    (
        ["games", 0, "actions", 0, "value"],
        2,
        "games[0].actions[0].value is not a member of this"
        " object (known: type, player, dice, play, annotations)",
    ),
    (["games", 0, "actions", 2, "value"], 0, "games[0].actions[2].value must be at least 1"),
    (
        ["games", 0, "actions", 3, "value"],
        2,
        "games[0].actions[3].value is not a member of this"
        " object (known: type, player, annotations)",
    ),
    (
        ["games", 0, "actions", 0, "annotations", 0],
        ["LU", "0.25"],
        "games[0].actions[0].annotations[0][1] must be an array",
    ),
    (
        ["games", 0, "annotations", 0],
        "GS",
        "games[0].annotations[0] must be a pair [key, [values...]]",
    ),
]


def _mutate(doc: dict[str, Any], path: list[str | int], value: object) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    target: Any = doc
    for part in path[:-1]:
        target = target[part]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


@pytest.mark.parametrize(("path", "value", "message"), INVALID, ids=[m for _, _, m in INVALID])
def test_invalid_values_are_refused_by_reader_and_schema(
    path: list[str | int], value: object, message: str
) -> None:
    """A value of a game, a tag, a comment or an annotation that breaks the schema costs
    what it spoils, with a read error at its place (#28); elsewhere it refuses the
    document: it is no match record."""
    doc = _mutate(document(SMALL), path, value)
    text = json.dumps(doc, indent=2)
    if len(path) >= 2 and path[0] in ("games", "tags", "comments", "annotations"):
        match = parse_json(text, source_name="m.json")
        (fault,) = match.read_errors
        assert fault.message == message
        starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
        pos = starts[fault.line - 1] + fault.column - 1
    else:
        with pytest.raises(NotationError) as info:
            parse_json(text, source_name="m.json")
        err = info.value
        assert err.msg == message
        pos = err.pos
    # the error points at the value its path names (an object that lacks a member)
    named: Any = doc
    for part in re.findall(r"\[(\d+)\]|([A-Za-z_]+)", message.split(" ")[0]):
        named = named[int(part[0])] if part[0] else named[part[1]]
    assert json.JSONDecoder().raw_decode(text, pos)[0] == named
    if "towards home" in message:
        return  # a JSON Schema cannot compare two numbers of a step
    try:
        validator = _validator()
    except pytest.skip.Exception:
        return
    assert list(validator.iter_errors(doc)), "the schema accepts it"


def test_error_location_and_rendering() -> None:
    text = dumps_json(SMALL).replace('"length": 3', '"length": -3')
    with pytest.raises(NotationError) as info:
        parse_json(text, source_name="m.json")
    err = info.value
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "-3" in s)
    assert (err.line, err.column) == (line, text.splitlines()[line - 1].index("-3") + 1)
    assert str(err).startswith(f"m.json:{line}:{err.column}: length must be at least 0")


def test_one_bad_value_costs_its_action_and_the_rest_is_read() -> None:
    text = dumps_json(SMALL).replace('"dice": [5, 2]', '"dice": [5, 9]')
    match = parse_json(text, source_name="m.json")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "[5, 9]" in s)
    (fault,) = match.read_errors
    column = text.splitlines()[line - 1].index("[5, 9]") + 1
    assert (fault.line, fault.column, fault.player, fault.record) == (line, column, 0, True)
    assert fault.message == "games[0].actions[4].dice must be two numbers 1-6"
    kept = [a for i, a in enumerate(SMALL.games[0].actions) if i != 4]
    assert list(match.games[0].actions) == kept
    assert match.games[0].result == SMALL.games[0].result
    # every action is placed at its line, so the verifier places the fault and the rest
    first = match.games[0].actions[0]
    assert first.line == next(i for i, s in enumerate(text.splitlines(), 1) if '"type"' in s)
    report = verify(match)
    assert [(e.kind.value, e.line, e.column, e.player_name) for e in report.errors] == [
        ("unreadable-line", line, column, "Ann")
    ]
    assert str(report.errors[0]).startswith(
        f"m.json:{line}:{column}: error: games[0].actions[4].dice must be two numbers 1-6"
    )


def test_json_syntax_errors_have_line_and_column() -> None:
    with pytest.raises(NotationError) as info:
        parse_json('{\n  "format": "bgkit-match",\n  "version": 1,,\n}', source_name="x.json")
    err = info.value
    assert (err.line, err.column) == (3, 16)
    assert err.msg == "not JSON: Expecting property name enclosed in double quotes"
    with pytest.raises(NotationError, match="the document must be an object"):
        parse_json("[]")
    with pytest.raises(NotationError, match=r"nested more than 1000 levels deep \(max_nesting\)"):
        parse_json("[" * 100000 + "]" * 100000)


# ----------------------------------------------------------------------------- files


def test_write_json_is_atomic_and_refuses_to_overwrite(tmp_path: Path) -> None:
    target = tmp_path / "m.json"
    write_json(SMALL, target)
    assert same(read_json(target), SMALL)
    assert read_json(target).source_name == str(target)
    with pytest.raises(FileExistsError):
        write_json(SMALL, target)
    write_json(SMALL, target, force=True)
    assert [p.name for p in tmp_path.iterdir()] == ["m.json"]
    data = target.read_bytes()
    assert same(read_json(io.BytesIO(b"\xef\xbb\xbf" + data)), SMALL)
    assert same(read_json(io.StringIO(data.decode("utf-8"))), SMALL)


# ----------------------------------------------------------------------------- fuzzing


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_parses_or_raises_notation_error(text: str) -> None:
    try:
        parse_json(text)
    except NotationError as err:
        assert err.line >= 1 and err.column >= 1


_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.floats(allow_nan=False)
    | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_json_value_parses_or_raises_notation_error(data: st.DataObject) -> None:
    doc = document(SMALL)
    # replace one value somewhere in a good document, or take any JSON at all
    paths: list[list[str | int]] = [[]]
    stack: list[tuple[Any, list[str | int]]] = [(doc, [])]
    while stack:
        value, path = stack.pop()
        items = (
            value.items()
            if isinstance(value, dict)
            else enumerate(value)
            if isinstance(value, list)
            else ()
        )
        for key, child in items:
            paths.append([*path, key])
            stack.append((child, [*path, key]))
    path = data.draw(st.sampled_from(paths))
    new = data.draw(_JSON)
    mutated = new if not path else _mutate(doc, path, new)
    try:
        match = parse_json(json.dumps(mutated))
    except NotationError:
        return
    assert same(parse_json(dumps_json(match)), match)


_TEXT = st.text(max_size=6)
_NOTES = st.lists(st.tuples(_TEXT, st.lists(_TEXT, max_size=3).map(tuple)), max_size=2).map(tuple)


@st.composite
def steps(draw: st.DrawFn) -> Step:
    src = draw(st.integers(1, 25))
    return Step(src, draw(st.integers(0, src - 1)), draw(st.booleans()))


@st.composite
def actions(draw: st.DrawFn) -> Action:
    player = draw(st.integers(0, 1))
    notes_ = draw(_NOTES)
    kind = draw(st.sampled_from(["move", "double", "take", "drop", "beaver", "raccoon"]))
    if kind == "move":
        dice = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        play = draw(st.none() | st.lists(steps(), max_size=4).map(Play))
        return Move(player, dice, play, annotations=notes_)
    if kind in ("double", "beaver", "raccoon"):
        value = draw(st.integers(1, 4096))
        if kind == "double":
            return Double(player, value, annotations=notes_)
        if kind == "beaver":
            return Beaver(player, value, annotations=notes_)
        return Raccoon(player, value, annotations=notes_)
    return (Take if kind == "take" else Drop)(player, annotations=notes_)


@st.composite
def matches(draw: st.DrawFn) -> Match:
    games = []
    for _ in range(draw(st.integers(0, 3))):
        result = draw(
            st.none()
            | st.builds(
                Result,
                st.integers(0, 1),
                st.integers(0, 64),
                st.booleans(),
                st.none() | st.integers(0, 64),
            )
        )
        games.append(
            Game(
                draw(st.integers(0, 99)),
                (draw(st.integers(0, 30)), draw(st.integers(0, 30))),
                tuple(draw(st.lists(actions(), max_size=6))),
                result,
                draw(st.none() | _TEXT),
                annotations=draw(_NOTES),
            )
        )
    return Match(
        (draw(_TEXT), draw(_TEXT)),
        draw(st.integers(0, 25)),
        tuple(games),
        tags=tuple(draw(st.lists(st.tuples(_TEXT, _TEXT), max_size=3))),
        comments=tuple(draw(st.lists(_TEXT, max_size=3))),
        annotations=draw(_NOTES),
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matches())
def test_any_match_round_trips(match: Match) -> None:
    text = dumps_json(match)
    back = parse_json(text)
    assert same(back, match)
    assert dumps_json(back) == text


def test_a_step_away_from_home_is_an_illegal_play_not_a_bad_document() -> None:
    # (#28) the rules are the verifier's: the step is read as written and reported there
    text = (
        '{"format": "bgkit-match", "version": 1, "players": ["Ann", "Bo"], "length": 3,'
        ' "games": [{"number": 1, "score": [0, 0], "result": null, "actions": ['
        '{"type": "move", "player": 0, "dice": [3, 1], "play": [[8, 5, false], [6, 7, false]]}'
        "]}]}"
    )
    match = parse_json(text)
    (move,) = match.games[0].actions
    assert isinstance(move, Move) and move.play == Play([Step(8, 5), Step(6, 7)])
    (error,) = verify(match).errors
    assert (error.kind.value, error.player_name) == ("illegal-play", "Ann")
    assert error.message == "illegal play 8/5 6/7 for 31: 6/7 moves a checker away from its home"
    # and written back as read, so that convert keeps the record's fault (the writer
    # refused the step: found by the hypothesis test below)
    assert same(parse_json(dumps_json(match)), match)
    assert json.loads(dumps_json(match))["games"][0]["actions"][0]["play"] == [
        [8, 5, False],
        [6, 7, False],
    ]


def test_a_valid_records_issues_are_placed_at_the_values_they_are_about() -> None:
    """Every issue in a valid JSON record carries the line:col of its value: an illegal
    play at its ``play``, a wrong double at its ``value``, a wrong result at its object
    (data/faults/illegal_play_cube_result.json, converted from a .mat written for it)."""
    from bgkit.verify import IssueKind, Severity, verify

    path = DATA / "faults" / "illegal_play_cube_result.json"
    text = path.read_text(encoding="utf-8").splitlines()
    errors = [i for i in verify(read_json(path)).issues if i.severity is Severity.ERROR]
    assert [(i.line, i.column, i.kind, i.player) for i in errors] == [
        (16, 50, IssueKind.CUBE_VALUE, 0),
        (34, 63, IssueKind.ILLEGAL_PLAY, 0),
        (53, 17, IssueKind.RESULT, 0),
    ]
    starts = ("4}", "[[24, 21, false]]", '{"winner": 0, "points": 2')
    for issue, start in zip(errors, starts, strict=True):
        assert text[issue.line - 1][issue.column - 1 :].startswith(start)


def test_each_action_is_placed_at_its_member_even_when_a_key_is_escaped() -> None:
    text = (
        '{"format": "bgkit-match", "version": 1, "players": ["a", "b"], "length": 0, "games": [\n'
        '{"number": 1, "score": [0, 0], "result": null, "actions": [\n'
        ' {"type": "double", "player": 0, "value": 2},\n'
        ' {"\\u0074ype": "take", "player": 1},\n'
        ' {"type": "move", "player": 0, "dice": [3, 1], "play": [[8, 5, false]]},\n'
        ' {"player": 1, "type": "drop"}]}]}\n'
    )
    game = parse_json(text).games[0]
    assert [(a.line, a.column) for a in game.actions] == [(3, 43), (4, 16), (5, 56), (6, 24)]
    assert game.score_places == ((2, 25), (2, 28))
