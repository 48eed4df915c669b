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
e.g. ``games[2].actions[5].dice must be two numbers 1-6``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from importlib import resources
from typing import IO, Any, NoReturn

from bgkit.errors import NotationError
from bgkit.fileio import write_atomic
from bgkit.formats import source_text
from bgkit.limits import (
    active,
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
            for s in action.play.steps:
                if not (0 <= s.dst < s.src <= 25):
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
        message names the offending value by its path and the error points at it.

    >>> parse_json('''{"format": "bgkit-match", "version": 1, "players": ["a", "b"],
    ...   "length": 0, "games": [{"number": 1, "score": [0, 0], "result": null, "actions": [
    ...   {"type": "move", "player": 0, "dice": [3, 7], "play": []}]}]}''')
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 3:41: games[0].actions[0].dice must be two numbers 1-6
          {"type": "move", "player": 0, "dice": [3, 7], "play": []}]}]}
                                                ^
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
    match = _Reader(text, source_name).match(doc)
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


class _Reader:
    """Checks the shape of a decoded document and builds the match."""

    def __init__(self, text: str, source_name: str | None) -> None:
        self.text = text
        self.source_name = source_name

    def fail(self, path: _Path, msg: str) -> NoReturn:
        pos = _locate(self.text, path)
        raise NotationError(
            f"{_path_text(path)} {msg}", self.text, pos, source_name=self.source_name
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
            at = [*path, i]
            if not isinstance(entry, list) or len(entry) != 2:
                self.fail(at, "must be a pair [key, [values...]]")
            key = self.string(entry[0], [*at, 0])
            values = tuple(
                self.string(v, [*at, 1, j]) for j, v in enumerate(self.array(entry[1], [*at, 1]))
            )
            out.append((key, values))
        return tuple(out)

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
        tags = []
        for i, tag in enumerate(self.array(doc.get("tags", []), ["tags"])):
            tags.append(self.pair(tag, ["tags", i], self.string, "a pair [key, value] of strings"))
        comments = tuple(
            self.string(c, ["comments", i])
            for i, c in enumerate(self.array(doc.get("comments", []), ["comments"]))
        )
        games = tuple(
            self.game(g, ["games", i]) for i, g in enumerate(self.array(doc["games"], ["games"]))
        )
        return Match(
            players,
            self.integer(doc["length"], ["length"]),
            games,
            tags=tuple(tags),
            comments=comments,
            source_name=self.source_name,
            annotations=self.annotations(doc, []),
        )

    def game(self, value: object, path: _Path) -> Game:
        doc = self.obj(
            value, path, ("number", "score", "actions", "result"), ("setup", "annotations")
        )
        score = self.pair(doc["score"], [*path, "score"], self.integer, "two scores")
        setup = doc.get("setup")
        if setup is not None:
            self.string(setup, [*path, "setup"])
        actions = tuple(
            self.action(a, [*path, "actions", i])
            for i, a in enumerate(self.array(doc["actions"], [*path, "actions"]))
        )
        return Game(
            self.integer(doc["number"], [*path, "number"]),
            score,
            actions,
            self.result(doc["result"], [*path, "result"]),
            setup,
            annotations=self.annotations(doc, path),
        )

    def result(self, value: object, path: _Path) -> Result | None:
        if value is None:
            return None
        doc = self.obj(value, path, ("winner", "points"), ("match_won", "loser_points"))
        match_won = doc.get("match_won", False)
        if not isinstance(match_won, bool):
            self.fail([*path, "match_won"], "must be true or false")
        loser = doc.get("loser_points")
        return Result(
            self.integer(doc["winner"], [*path, "winner"], 0, 1),
            self.integer(doc["points"], [*path, "points"]),
            match_won,
            None if loser is None else self.integer(loser, [*path, "loser_points"]),
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
            )
        if kind in ("double", "beaver", "raccoon"):
            value_ = self.integer(doc["value"], [*path, "value"], 1)
            if kind == "double":
                return Double(player, value_, annotations=notes)
            if kind == "beaver":
                return Beaver(player, value_, annotations=notes)
            return Raccoon(player, value_, annotations=notes)
        return (Take if kind == "take" else Drop)(player, annotations=notes)

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


def _locate(text: str, path: _Path) -> int:
    """The offset in ``text`` (valid JSON) of the value at ``path``, as near as it can tell."""
    decoder = json.JSONDecoder()

    def skip(pos: int) -> int:
        while pos < len(text) and text[pos] in " \t\n\r":
            pos += 1
        return pos

    pos = skip(0)
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
    except (IndexError, ValueError):
        return 0
    return pos
