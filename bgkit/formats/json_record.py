"""bgkit's own JSON form of a match record: lossless, and described by a JSON Schema.

Everything a :class:`~bgkit.records.Match` holds goes into the JSON and comes back equal:
players, length, tags, comments, games with their scores, set-ups, actions and results
(Galaxy's ``Losses`` number included), plays step by step with their hit marks, unknown
plays (``null``) and empty ones (``[]``), and every ``annotations`` list (SGF analysis).
Only where the record was read from (file name, lines, columns, written move numbers) is
left out. The shape is described by ``bgkit/schemas/match.schema.json``
(:func:`match_schema`)::

    {
      "format": "bgkit-match",
      "version": 1,
      "players": ["Ann Lee", "Bo"],
      "length": 3,
      "tags": [["Site", "Club night"]],
      "comments": [],
      "games": [
        {
          "number": 1,
          "score": [0, 0],
          "setup": null,
          "actions": [
            {"type": "move", "player": 1, "dice": [3, 1], "play": [[8, 5, false], [6, 5, false]]},
            {"type": "double", "player": 0, "value": 2},
            {"type": "drop", "player": 1}
          ],
          "result": {"winner": 0, "points": 1, "match_won": false}
        }
      ]
    }

A step is ``[from, to, hit]`` in the mover's numbering (25 the bar, 0 off). Action types
are ``move``, ``double``, ``take``, ``drop``, ``beaver`` and ``raccoon``; an
``annotations`` list of ``[key, [values...]]`` pairs may follow on an action, a game and
the match.

>>> from bgkit.formats.mat import parse_mat
>>> match = parse_mat(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5  64: 24/14*\\n")
>>> print(dumps_json(match), end="")  # doctest: +NORMALIZE_WHITESPACE
{
  "format": "bgkit-match",
  "version": 1,
  "players": ["A", "B"],
  "length": 1,
  "tags": [],
  "comments": [],
  "games": [
    {
      "number": 1,
      "score": [0, 0],
      "setup": null,
      "actions": [
        {"type": "move", "player": 0, "dice": [3, 1], "play": [[8, 5, false], [6, 5, false]]},
        {"type": "move", "player": 1, "dice": [6, 4], "play": [[24, 14, true]]}
      ],
      "result": null
    }
  ]
}
>>> parse_json(dumps_json(match)) == match
True

**What is rejected** (:class:`~bgkit.errors.NotationError` with line and column): text
that is not JSON, and JSON that is not this shape, with the path of the offending value,
e.g. ``length must be at least 0``. A value that breaks the shape inside a game, a tag, a
comment or an annotation costs only what it spoils (the action, the game's result, the
game, the tag...): it is a :class:`~bgkit.records.ReadError` at its line and column
(``games[2].actions[5].dice must be two numbers 1-6``), and the rest is read.

Every game, action and result read carries the line and column of its value, so that the
verifier places every issue at the token it is about: a move at its ``play`` value, a
double (beaver, raccoon) at its ``value``, a take or drop at its ``type``, a result at its
object, a game at its object and its score line at each score number.
"""

from __future__ import annotations

import json
import os
import re
import sys
from bisect import bisect_right
from collections.abc import Callable, Sequence
from importlib import resources
from typing import IO, Any, NoReturn, TypeVar, cast

from bgkit.errors import NotationError
from bgkit.fileio import write_atomic
from bgkit.formats import source_text
from bgkit.formats._by_lines import MAX_FAULTS, line_starts
from bgkit.limits import (
    active,
    check_game_actions,
    check_games,
    check_integer,
    check_names,
    check_play_steps,
    check_text,
    json_loads,
)
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
    ReadError,
    Result,
    Take,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "dumps_json",
    "match_schema",
    "parse_json",
    "read_json",
    "write_json",
]

FORMAT = "bgkit-match"
"""The ``format`` member of every document."""
VERSION = 1
"""The ``version`` member this module writes and reads."""

_Path = list[str | int]
_T = TypeVar("_T")


def match_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of the documents :func:`dumps_json` writes.

    >>> match_schema()["title"]
    'bgkit match record'
    """
    text = resources.files("bgkit").joinpath("schemas", "match.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


# ---------------------------------------------------------------------------- writing


def dumps_json(match: Match) -> str:
    """The match as a JSON document (UTF-8 text, one action per line).

    :raises ValueError: when the match holds what the format cannot: a player other than
        0 and 1, dice outside 1-6, a step that is not from 25..1 to a lower point, or a
        negative number.
    """
    doc = _match_doc(match)
    lines = ["{"]
    top = [(k, v) for k, v in doc.items() if k != "games"]
    for key, value in top:
        lines.append(f"  {_dump(key)}: {_dump(value)},")
    if not doc["games"]:
        lines.append('  "games": []')
    else:
        lines.append('  "games": [')
        for gi, game in enumerate(doc["games"]):
            lines.append("    {")
            items = list(game.items())
            for k, (key, value) in enumerate(items):
                comma = "," if k < len(items) - 1 else ""
                if key == "actions" and value:
                    lines.append('      "actions": [')
                    for ai, action in enumerate(value):
                        lines.append(f"        {_dump(action)}{',' if ai < len(value) - 1 else ''}")
                    lines.append(f"      ]{comma}")
                else:
                    lines.append(f"      {_dump(key)}: {_dump(value)}{comma}")
            lines.append("    }" + ("," if gi < len(doc["games"]) - 1 else ""))
        lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dump(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _annotations(annotations: Annotations) -> list[list[Any]]:
    return [[key, list(values)] for key, values in annotations]


def _match_doc(match: Match) -> dict[str, Any]:
    if match.length < 0:
        raise ValueError("a match length cannot be negative")
    doc: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "players": list(match.players),
        "length": match.length,
        "tags": [[k, v] for k, v in match.tags],
        "comments": list(match.comments),
    }
    if match.annotations:
        doc["annotations"] = _annotations(match.annotations)
    doc["games"] = [_game_doc(g) for g in match.games]
    return doc


def _game_doc(game: Game) -> dict[str, Any]:
    if game.number < 0 or min(game.score) < 0:
        raise ValueError(f"game {game.number}: negative numbers cannot be written")
    doc: dict[str, Any] = {
        "number": game.number,
        "score": list(game.score),
        "setup": game.setup,
        "actions": [_action_doc(game, a) for a in game.actions],
    }
    result = game.result
    if result is None:
        doc["result"] = None
    else:
        if result.winner not in (0, 1) or result.points < 0:
            raise ValueError(f"game {game.number}: cannot write the result {result!r}")
        doc["result"] = {
            "winner": result.winner,
            "points": result.points,
            "match_won": result.match_won,
        }
        if result.loser_points is not None:
            doc["result"]["loser_points"] = result.loser_points
    if game.annotations:
        doc["annotations"] = _annotations(game.annotations)
    return doc


def _action_doc(game: Game, action: Action) -> dict[str, Any]:
    if action.player not in (0, 1):
        raise ValueError(f"game {game.number}: no player {action.player} in {action!r}")
    doc: dict[str, Any] = {"type": _TYPES[type(action)], "player": action.player}
    if isinstance(action, Move):
        if not all(1 <= d <= 6 for d in action.dice) or len(action.dice) != 2:
            raise ValueError(f"game {game.number}: cannot write the dice of {action!r}")
        doc["dice"] = list(action.dice)
        if action.play is None:
            doc["play"] = None
        else:
            for s in action.play.steps:  # (a step away from home is written as read)
                if not (1 <= s.src <= 25 and 0 <= s.dst <= 24):
                    raise ValueError(f"game {game.number}: cannot write the step {s} of {action!r}")
            doc["play"] = [[s.src, s.dst, s.hit] for s in action.play.steps]
    elif isinstance(action, (Double, Beaver, Raccoon)):
        if action.value < 1:
            raise ValueError(f"game {game.number}: cannot write the cube value of {action!r}")
        doc["value"] = action.value
    if action.annotations:
        doc["annotations"] = _annotations(action.annotations)
    return doc


_TYPES: dict[type, str] = {
    Move: "move",
    Double: "double",
    Take: "take",
    Drop: "drop",
    Beaver: "beaver",
    Raccoon: "raccoon",
}


def write_json(match: Match, path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Write :func:`dumps_json` output to ``path`` (UTF-8), atomically.

    :param force: overwrite ``path`` when it exists.
    :raises FileExistsError: when ``path`` exists and ``force`` is false.
    :raises ValueError: as :func:`dumps_json`.
    """
    write_atomic(path, dumps_json(match).encode("utf-8"), force=force)


# ---------------------------------------------------------------------------- reading


def parse_json(text: str, *, source_name: str | None = None) -> Match:
    """Read a match from bgkit's JSON form.

    :param source_name: the file name, used in error messages and kept on the match.
    :raises NotationError: when the text is not JSON or not a bgkit match document; the
        message names the offending value by its path and the error points at it. A
        value of a game that breaks the shape costs only its action (or the game's result,
        or the game): it is kept in :attr:`Match.read_errors <bgkit.records.Match.read_errors>`.

    >>> parse_json('''{"format": "bgkit-match", "version": 1, "players": ["a", "b"],
    ...   "length": -1, "games": []}''')
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 2:13: length must be at least 0
          "length": -1, "games": []}
                    ^
    >>> match = parse_json('''{"format": "bgkit-match", "version": 1, "players": ["a", "b"],
    ...   "length": 0, "games": [{"number": 1, "score": [0, 0], "result": null, "actions": [
    ...   {"type": "move", "player": 0, "dice": [3, 7], "play": []}]}]}''')
    >>> [(e.line, e.column, e.message) for e in match.read_errors]
    [(3, 41, 'games[0].actions[0].dice must be two numbers 1-6')]
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    check_text(text, source_name, lines=False)
    try:
        doc = json_loads(text, source_name, parse_int=_parse_int)
    except json.JSONDecodeError as err:
        raise NotationError(
            f"not JSON: {err.msg}", text, err.pos, source_name=source_name
        ) from None
    except _LongNumber as err:
        check_integer(err.digits, text, _find_number(text, err.digits), source_name)
        raise  # not reached: check_integer refuses the number
    # Read leniently, a valid record too: every game, action and result is placed at its
    # value's line:col, so that the verifier locates each issue it finds (about a third more
    # time to read than json.loads and a strict build; see the commit measuring it).
    reader = _Reader(text, source_name, lenient=True)
    before = sys.getrecursionlimit()  # (room to place values nested as deep as read)
    sys.setrecursionlimit(before + min(active().max_nesting, 20_000) + 100)
    try:
        match = reader.match(doc)
    except _Fault as fault:  # (a member that makes the document a match record)
        raise reader.error(fault) from None
    finally:
        sys.setrecursionlimit(before)
    check_names(match.players, text, source_name)
    return match


# strings (whose brackets do not count) and the brackets of arrays and objects


class _LongNumber(Exception):
    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _parse_int(digits: str) -> int:
    """``json.loads``'s integer hook: refuse a number too long before converting it."""
    if len(digits.lstrip("-")) > active().max_integer_digits:
        raise _LongNumber(digits)
    return int(digits)


def _find_number(text: str, digits: str) -> int:
    """The offset of the number ``digits`` in ``text`` (outside strings, as JSON wrote it)."""
    for m in re.finditer(re.escape(digits), text):
        before = text[m.start() - 1] if m.start() else ""
        if not (before.isdigit() or before == '"'):
            return m.start()
    return 0


def read_json(
    source: str | os.PathLike[str] | IO[str] | IO[bytes], *, encoding: str | None = None
) -> Match:
    """Read a match from a JSON file path or an open file (text or binary; UTF-8).

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: as :func:`parse_json`.
    """
    text, name = source_text(source, encoding=encoding)
    return parse_json(text, source_name=name)


def _path_text(path: _Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "the document"


class _Fault(Exception):
    """A value of the document that breaks its schema: where it is, and why."""

    def __init__(self, path: _Path, msg: str) -> None:
        super().__init__(msg)
        self.path = path
        self.msg = msg


class _Reader:
    """Checks the shape of a decoded document and builds the match.

    ``lenient``: a value that breaks the schema costs only what it spoils (an action, a
    game's result, a game, a tag, a comment, an annotation), with a
    :class:`~bgkit.records.ReadError` at its place; each game and action is then placed
    at its line and column. Without it the first such value raises (:meth:`error`).
    """

    def __init__(self, text: str, source_name: str | None, *, lenient: bool = False) -> None:
        self.text = text
        self.source_name = source_name
        self.lenient = lenient
        self.faults: list[ReadError] = []
        self.starts: list[int] = line_starts(text) if lenient else []
        self.here: dict[tuple[str | int, ...], int] = {}
        """Lenient: the offset of each game and action read, by its path."""

    def fail(self, path: _Path, msg: str) -> NoReturn:
        raise _Fault(path, msg)

    def error(self, fault: _Fault) -> NotationError:
        """The fault as the error that refuses the document."""
        pos = _locate(self.text, fault.path)
        return NotationError(
            f"{_path_text(fault.path)} {fault.msg}", self.text, pos, source_name=self.source_name
        )

    def offset(self, path: _Path) -> int:
        """The offset of the value at ``path``, found from the nearest game or action
        already placed (no walk from the top of a long document)."""
        for cut in range(len(path), 0, -1):
            start = self.here.get(tuple(path[:cut]))
            if start is not None:
                return _locate(self.text, path[cut:], start)
        return _locate(self.text, path)

    def place(self, pos: int) -> tuple[int, int]:
        """Line and column (1-based) of offset ``pos``."""
        line = bisect_right(self.starts, pos)
        return line, pos - self.starts[line - 1] + 1

    def keep(
        self, fault: _Fault, *, record: bool = True, player: int | None = None, move: int = 0
    ) -> None:
        """Keep ``fault`` as a read error at its value's place (lenient reading)."""
        if len(self.faults) > MAX_FAULTS:
            return
        if len(self.faults) == MAX_FAULTS:
            msg = f"more than {MAX_FAULTS} values could not be read: the others are not listed"
            self.faults.append(ReadError(self.faults[-1].line, 1, msg))
            return
        line, column = self.place(self.offset(fault.path))
        self.faults.append(
            ReadError(
                line,
                column,
                f"{_path_text(fault.path)} {fault.msg}",
                move=move,
                player=player,
                record=record,
            )
        )

    # -- checks

    def obj(
        self, value: object, path: _Path, required: Sequence[str], optional: Sequence[str] = ()
    ) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(path, "must be an object")
        for key in required:
            if key not in value:
                self.fail(path, f"needs the member {key!r}")
        for key in value:
            if key not in required and key not in optional:
                self.fail(
                    [*path, key],
                    f"is not a member of this object (known: {', '.join((*required, *optional))})",
                )
        return value

    def integer(self, value: object, path: _Path, low: int = 0, high: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            self.fail(path, "must be a whole number")
        if value < low or (high is not None and value > high):
            self.fail(
                path, f"must be {low}-{high}" if high is not None else f"must be at least {low}"
            )
        return value

    def string(self, value: object, path: _Path) -> str:
        if not isinstance(value, str):
            self.fail(path, "must be a string")
        return value

    def array(self, value: object, path: _Path) -> list[Any]:
        if not isinstance(value, list):
            self.fail(path, "must be an array")
        return value

    def pair(
        self, value: object, path: _Path, item: Callable[[object, _Path], Any], what: str
    ) -> tuple[Any, Any]:
        if not isinstance(value, list) or len(value) != 2:
            self.fail(path, f"must be {what}")
        return (item(value[0], [*path, 0]), item(value[1], [*path, 1]))

    def annotations(self, doc: dict[str, Any], path: _Path) -> Annotations:
        path = [*path, "annotations"]
        out = []
        for i, entry in enumerate(self.array(doc.get("annotations", []), path)):
            try:
                out.append(self.annotation(entry, [*path, i]))
            except _Fault as fault:
                if not self.lenient:
                    raise
                self.keep(fault, record=False)  # (an annotation costs only itself)
        return tuple(out)

    def annotation(self, entry: object, at: _Path) -> tuple[str, tuple[str, ...]]:
        if not isinstance(entry, list) or len(entry) != 2:
            self.fail(at, "must be a pair [key, [values...]]")
        key = self.string(entry[0], [*at, 0])
        values = tuple(
            self.string(v, [*at, 1, j]) for j, v in enumerate(self.array(entry[1], [*at, 1]))
        )
        return (key, values)

    def each(self, values: list[Any], path: _Path, read: Callable[[object, _Path], _T]) -> list[_T]:
        """``read`` of each item of the array ``values`` at ``path``; lenient, an item that
        breaks the schema is a read error and left out (each item placed first)."""
        if not self.lenient:
            return [read(v, [*path, i]) for i, v in enumerate(values)]
        out = []
        key = tuple(path)
        offsets = _item_offsets(
            self.text, _locate(self.text, path[-1:], self.here.get(key[:-1], 0))
        )
        first = values[0] if values else None
        right = int(isinstance(first, dict) and first.get("player") == 1)
        rolls = 0  # (an action's move number, as a .mat line would give it)
        for i, at in enumerate(offsets[: len(values)]):
            self.here[(*key, i)] = at
        here = self.here
        for i, value in enumerate(values):
            try:
                out.append(read(value, [*path, i]))
            except _Fault as fault:
                player = value.get("player") if isinstance(value, dict) else None
                who = player if player in (0, 1) and not isinstance(player, bool) else None
                move = (rolls + 1 + right + 1) // 2 if path[-1] == "actions" else 0
                self.keep(fault, record=path[0] == "games", player=who, move=move)
            rolls += isinstance(value, dict) and value.get("type") == "move"
            # the item is read: its parsed JSON and its place go (a long record's peak
            # memory is the parsed document's, the match's, and these places')
            values[i] = None
            here.pop((*key, i), None)
        return out

    def at(self, path: _Path, member: str | None = None) -> tuple[int, int]:
        """Lenient: the line and column of the game or action at ``path`` (else 0, 0), or
        of its ``member``'s value."""
        pos = self.here.get(tuple(path))
        if pos is not None and member is not None:
            # (the object's members are checked already: a string of an annotation cannot
            # hold the member's key followed by ':', so the key found before the next item
            # is the member's; a key written with escapes, or the last item, is walked to)
            end = self.here.get((*path[:-1], path[-1] + 1)) if isinstance(path[-1], int) else None
            found = _MEMBER[member].search(self.text, pos, end) if end is not None else None
            pos = found.end() if found else _locate(self.text, [member], pos)
        return (0, 0) if pos is None else self.place(pos)

    # -- the match

    def match(self, doc: object) -> Match:
        doc = self.obj(
            doc,
            [],
            ("format", "version", "players", "length", "games"),
            ("tags", "comments", "annotations"),
        )
        if doc["format"] != FORMAT:
            self.fail(["format"], f"must be {FORMAT!r}")
        if doc["version"] != VERSION or isinstance(doc["version"], bool):
            self.fail(["version"], f"must be {VERSION} (this bgkit reads version {VERSION})")
        players = self.pair(doc["players"], ["players"], self.string, "two player names")
        length = self.integer(doc["length"], ["length"])
        games = self.array(doc["games"], ["games"])
        most = active().max_games
        if len(games) > most:  # (refused before a game is built, at the first one too many)
            check_games(most + 1, self.text, _locate(self.text, ["games", most]), self.source_name)
        tags = self.each(
            self.array(doc.get("tags", []), ["tags"]),
            ["tags"],
            lambda tag, at: self.pair(tag, at, self.string, "a pair [key, value] of strings"),
        )
        comments = self.each(
            self.array(doc.get("comments", []), ["comments"]), ["comments"], self.string
        )
        return Match(
            players,
            length,
            tuple(self.each(games, ["games"], self.game)),
            tags=tuple(tags),
            comments=tuple(comments),
            source_name=self.source_name,
            annotations=self.annotations(doc, []),
            read_errors=tuple(self.faults),
        )

    def game(self, value: object, path: _Path) -> Game:
        doc = self.obj(
            value, path, ("number", "score", "actions", "result"), ("setup", "annotations")
        )
        score = self.pair(doc["score"], [*path, "score"], self.integer, "two scores")
        setup = doc.get("setup")
        if setup is not None:
            self.string(setup, [*path, "setup"])
        number = self.integer(doc["number"], [*path, "number"])
        actions = self.array(doc["actions"], [*path, "actions"])
        most = active().max_game_actions
        if len(actions) > most:  # (refused before an action is built, at the first too many)
            at = _locate(self.text, [*path, "actions", most])
            ordinal = cast(int, path[-1]) + 1
            check_game_actions(most + 1, ordinal, self.text, at, self.source_name)
        try:
            result = self.result(doc["result"], [*path, "result"])
        except _Fault as fault:
            if not self.lenient:
                raise
            self.keep(fault)  # (the result is lost with its value; the game is read)
            result = None
        line, column = self.at(path)
        places = (
            (
                self.place(self.offset([*path, "score", 0])),
                self.place(self.offset([*path, "score", 1])),
            )
            if self.lenient and line
            else ()
        )
        return Game(
            number,
            score,
            tuple(self.each(actions, [*path, "actions"], self.action)),
            result,
            setup,
            line=line,
            column=column,
            annotations=self.annotations(doc, path),
            score_places=places,
        )

    def result(self, value: object, path: _Path) -> Result | None:
        if value is None:
            return None
        doc = self.obj(value, path, ("winner", "points"), ("match_won", "loser_points"))
        match_won = doc.get("match_won", False)
        if not isinstance(match_won, bool):
            self.fail([*path, "match_won"], "must be true or false")
        loser = doc.get("loser_points")
        line, column = self.place(self.offset(path)) if self.lenient else (0, 0)
        return Result(
            self.integer(doc["winner"], [*path, "winner"], 0, 1),
            self.integer(doc["points"], [*path, "points"]),
            match_won,
            None if loser is None else self.integer(loser, [*path, "loser_points"]),
            line=line,
            column=column,
        )

    def action(self, value: object, path: _Path) -> Action:
        if not isinstance(value, dict):
            self.fail(path, "must be an object")
        kind = value.get("type")
        if kind not in _KINDS:
            self.fail(
                [*path, "type"] if "type" in value else path, f"must be one of {', '.join(_KINDS)}"
            )
        fields = {
            "move": ("dice", "play"),
            "double": ("value",),
            "beaver": ("value",),
            "raccoon": ("value",),
        }
        doc = self.obj(value, path, ("type", "player", *fields.get(kind, ())), ("annotations",))
        player = self.integer(doc["player"], [*path, "player"], 0, 1)
        notes = self.annotations(doc, path)
        # placed at the value an issue is about: the play, the cube's value, a take's type
        member = {"move": "play", "double": "value", "beaver": "value", "raccoon": "value"}
        line, column = self.at(path, member.get(kind, "type"))
        where = {"line": line, "column": column} if line else {}
        if kind == "move":
            dice = doc["dice"]
            if not (
                isinstance(dice, list)
                and len(dice) == 2
                and all(
                    isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice
                )
            ):
                self.fail([*path, "dice"], "must be two numbers 1-6")
            return Move(
                player,
                (dice[0], dice[1]),
                self.play(doc["play"], [*path, "play"]),
                annotations=notes,
                **where,
            )
        if kind in ("double", "beaver", "raccoon"):
            value_ = self.integer(doc["value"], [*path, "value"], 1)
            if kind == "double":
                return Double(player, value_, annotations=notes, **where)
            if kind == "beaver":
                return Beaver(player, value_, annotations=notes, **where)
            return Raccoon(player, value_, annotations=notes, **where)
        return (Take if kind == "take" else Drop)(player, annotations=notes, **where)

    def play(self, value: object, path: _Path) -> Play | None:
        if value is None:
            return None
        steps = []
        written = self.array(value, path)
        check_play_steps(
            len(written), self.text, lambda: _locate(self.text, path), self.source_name
        )
        for i, step in enumerate(written):
            at = [*path, i]
            if not isinstance(step, list) or len(step) != 3 or not isinstance(step[2], bool):
                self.fail(at, "must be a step [from, to, hit]")
            src = self.integer(step[0], [*at, 0], 1, 25)
            dst = self.integer(step[1], [*at, 1], 0, 24)
            # (a step away from home is kept as written: the verifier reports it as the
            # player's illegal play)
            steps.append(Step(src, dst, step[2]))
        return Play(steps)


_KINDS = ("move", "double", "take", "drop", "beaver", "raccoon")
_MEMBER = {key: re.compile(f'"{key}"[ \t\n\r]*:[ \t\n\r]*') for key in ("play", "value", "type")}
"""The key of the member an action is placed at, up to its value."""


_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()  # (its raw_decode keeps no state: one for every walk)


def _skip(text: str, pos: int) -> int:
    """The offset of the first character at or after ``pos`` that is not JSON's space."""
    return _SPACE.match(text, pos).end()  # type: ignore[union-attr]  # (always matches)


def _item_offsets(text: str, pos: int) -> list[int]:
    """The offset of each item of the JSON array at ``pos`` of ``text`` (valid JSON), each
    item decoded once (in C)."""
    if text[pos : pos + 1] != "[":
        return []
    decoder = _DECODER
    out: list[int] = []
    pos = _skip(text, pos + 1)
    try:
        while text[pos] != "]":
            out.append(pos)
            pos = _skip(text, decoder.raw_decode(text, pos)[1])
            if text[pos] == ",":
                pos = _skip(text, pos + 1)
    except (IndexError, ValueError, RecursionError):  # (a value nested deep: not placed)
        pass
    return out


def _locate(text: str, path: _Path, start: int = 0) -> int:
    """The offset in ``text`` (valid JSON) of the value at ``path`` from the value at
    ``start`` (the document's top), as near as it can tell."""
    decoder = _DECODER

    def skip(pos: int) -> int:
        return _skip(text, pos)

    pos = skip(start)
    try:
        for part in path:
            opening = text[pos]
            start = pos
            pos = skip(pos + 1)
            index = 0
            while text[pos] not in "}]":
                if opening == "{":
                    key, end = decoder.raw_decode(text, pos)
                    pos = skip(skip(end) + 1)  # past the ':'
                    if key == part:
                        break
                elif index == part:
                    break
                _, end = decoder.raw_decode(text, pos)
                pos = skip(end)
                if text[pos] == ",":
                    pos = skip(pos + 1)
                index += 1
            else:
                return start
    except (IndexError, ValueError, RecursionError):
        return 0
    return pos
