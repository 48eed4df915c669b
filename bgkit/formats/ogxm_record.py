"""Read and write OGXM, the open backgammon match format (``.ogxm``; GammonView's ``.gvab``).

OGXM is HedgeHog's chunked binary match format, version 2; GammonView's ``.gvab`` files
are OGXM v2 with analysis of its own. Its reference codec, ``libogxm``, ships in the
PyPI package ``ogxm`` (MIT; install ``bgkit[ogxm]``): bgkit hands it the codec's JSON
projection of a match and takes bytes back, and reads a file the other way, so every
byte rule of the format runs in the one codec. What bgkit adds is the meaning: the
projection becomes a :class:`~bgkit.records.Match` (and back), and the verifier then
checks every rule of the game as it does for any other format.

How a match maps onto OGXM:

* bgkit's player 0 (the left column of a ``.mat`` record) is OGXM's White
  (``player_white``, ply ``color`` 1, ``winner`` 0); player 1 is Black.
* A roll is a ply with the dice (``d1 <= d2``) and one step per die, ``from`` counted
  on OGXM's one board (Black's own point numbers; White's point ``p`` is ``25 - p``,
  White's bar 0, Black's bar 25). ``Double``, ``Take``, ``Drop``, ``Beaver``, ``Raccoon``
  are plies of their own; each game ends with a marker ply (24, game over; 26 when it
  ends the match) or, when it ended with the game still running, a resignation (27) by
  the loser at the level the points and the cube say.
* The header: names, length, variant, ``crawford``/``jacoby``/``beavers``/``raccoons``,
  ``cube_limit``, ``event``, ``round`` and ``started_at`` from the tags.
* What OGXM has no field for travels in annotations named ``x-bgkit`` (the namespace the
  format leaves to other programs, split over ``x-bgkit~1``... past 4 KB), each a JSON
  object: on the match, every tag in order, the comments and the match's annotations;
  on a game, its number, score and annotations where they are not what OGXM's own fields
  give back; on a ply, the dice in written order, the play as written (``24/14*``, where
  one step per die does not give it back), the action's annotations (comments...), and a
  ``Take``/``Drop`` that answers a beaver (OGXM's beaver carries the take with it). So a
  match written by bgkit reads back equal, with its written forms, tags and comments.
* Not written: the analysis that actions carry (gnubg's ``A``/``DA``/``LU``, bgkit's
  ``BK``); ``bgkit convert`` says how many actions lose it. Other programs' annotations
  and analysis blocks are not read.

>>> from bgkit.formats import read_match
>>> match = read_match("data/sample.mat")
>>> data = dumps_ogxm(match)
>>> data[:4], parse_ogxm(data) == match
(b'OGXM', True)
>>> doc = ogxm_document(match)
>>> doc["player_white"], doc["games"][0]["plies"][0]["moves"]
('gnubg', [{'from': 24, 'pips': 6}, {'from': 18, 'pips': 2}])
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from types import ModuleType
from typing import IO, Any, NoReturn

from bgkit.errors import LimitError, NotationError, UnsupportedFormatError
from bgkit.fileio import write_atomic
from bgkit.formats import source_data
from bgkit.formats._checkers import Board, game_steps
from bgkit.limits import active, check_game_actions, check_games, json_loads
from bgkit.play import BAR, OFF, Play, Step
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
    "ANALYSIS_KEYS",
    "KEY",
    "dumps_ogxm",
    "match_from_document",
    "ogxm_document",
    "parse_ogxm",
    "read_ogxm",
    "write_ogxm",
]

KEY = "x-bgkit"
"""The annotation key of what OGXM has no field for (a JSON object per match, game, ply)."""

ANALYSIS_KEYS = frozenset({"A", "DA", "LU", "BK"})
"""Annotation keys holding a program's analysis: not written to OGXM."""

_CHUNK = 4096 - 16  # the codec's longest string, less room for the key's "~n"
_MAX_ANNOTATIONS = 4096
_MAX_ANNOTATION_BYTES = 256 * 1024
_DOUBLE, _TAKE, _DROP, _BEAVER, _RACCOON = 21, 22, 23, 32, 33
_GAME_OVER, _FINAL, _RESIGN_GAME, _RESIGN_MATCH, _FORFEIT = 24, 26, 27, 28, 29
_SET_POSITION = 31
_MARKERS = frozenset({_GAME_OVER, 25, _FINAL, _FORFEIT, 30})
_RESIGN_LEVELS = {"single": 1, "gammon": 2, "backgammon": 3}
_SCOPES = ("match", "game", "ply")
_VARIANTS = {  # bgkit's Match.variant -> OGXM's, and the Variation tag that reads back so
    "standard": ("backgammon", "Backgammon"),
    "nackgammon": ("nackgammon", "Nackgammon"),
    "hypergammon": ("hypergammon", "Hypergammon"),
    "longgammon": ("longgammon", "Longgammon"),
}
_DICE_IDS = {
    (d1, d2): i for i, (d1, d2) in enumerate((a, b) for a in range(1, 7) for b in range(a, 7))
}
_DICE = {i: pair for pair, i in _DICE_IDS.items()}


def _codec() -> ModuleType:
    """The ``ogxm`` package (the reference codec), or a one-line reason it is missing."""
    try:
        return importlib.import_module("ogxm")
    except ImportError:
        raise UnsupportedFormatError(
            "OGXM needs its reference codec, the package ogxm: pip install 'bgkit[ogxm]'"
        ) from None


# -- writing


def dumps_ogxm(match: Match) -> bytes:
    """The match as an OGXM v2 file (the bytes), written by the reference codec.

    :raises UnsupportedFormatError: when the ``ogxm`` package is not installed.
    :raises ValueError: when the match holds what OGXM cannot (a variant it has no name
        for, a play that is not one step per die, an action out of turn...): the message
        names the game and the rule of the format.
    """
    codec = _codec()
    doc = ogxm_document(match)
    problem = codec.v2_problem(doc)
    if problem is not None:
        raise ValueError(_where_broken(codec, doc, problem))
    data: bytes = codec.json_to_binary(doc)
    return data


def _where_broken(codec: ModuleType, doc: dict[str, Any], problem: str) -> str:
    """The message for a document the codec refuses: the first game that breaks the rule."""
    games = doc["games"]
    for i in range(len(games)):
        part = dict(doc, games=games[: i + 1], annotations=[])
        if codec.v2_problem(part) is not None:
            return f"game {i + 1}: OGXM cannot hold it (the format's rule {problem!r})"
    return f"OGXM cannot hold this match (the format's rule {problem!r})"


def write_ogxm(match: Match, path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Write :func:`dumps_ogxm` output to ``path``, atomically.

    :param force: overwrite ``path`` when it exists.
    :raises FileExistsError: when ``path`` exists and ``force`` is false.
    :raises ValueError: as :func:`dumps_ogxm`.
    """
    write_atomic(path, dumps_ogxm(match), force=force)


def ogxm_document(match: Match) -> dict[str, Any]:
    """The match as the OGXM codec's JSON projection (what ``ogxm.json_to_binary`` takes).

    :raises ValueError: as :func:`dumps_ogxm`, for what no document can hold.
    """
    variant = _VARIANTS.get(match.variant)
    if variant is None:
        raise ValueError(f"OGXM has no name for the variant {match.variant!r}")
    if match.length < 0:
        raise ValueError(f"OGXM cannot hold a match length of {match.length}")
    doc: dict[str, Any] = {
        "ogxm": {"major": 2, "minor": 0},
        "checksum": "crc32",
        "player_white": match.players[0],
        "player_black": match.players[1],
        "match_length": match.length,
        "variant": variant[0],
    }
    doc.update(_rules(match))
    doc.update(_context(match))
    notes = _Notes()
    extra: dict[str, Any] = {}
    if match.tags:
        extra["tags"] = [list(tag) for tag in match.tags]
    if match.comments:
        extra["comments"] = list(match.comments)
    if match.annotations:
        extra["annotations"] = _annotation_list(match.annotations)
    notes.add("match", 0, extra)
    games: list[dict[str, Any]] = []
    score = match.games[0].score if match.games else (0, 0)
    if any(score):
        doc["white_score_start"], doc["black_score_start"] = score
    plies = 0  # a ply's annotations name it by its number in the whole match
    for index, game in enumerate(match.games):
        games.append(_GameWriter(match, index, score, notes, plies).document())
        plies += len(games[-1]["plies"])
        score = _score_after(game, score)
    doc["games"] = games
    doc["annotations"] = notes.entries()
    return doc


def _rules(match: Match) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if match.length > 0:
        out["crawford"] = match.crawford
    if match.jacoby:
        out["jacoby"] = True
    if match.tag("CubeLimit") is not None:
        out["cube_limit"] = match.cube_limit
    actions = [a for g in match.games for a in g.actions]
    if any(isinstance(a, Beaver) for a in actions) or _on(match, "Beaver"):
        out["beavers"] = True
    if any(isinstance(a, Raccoon) for a in actions):
        out["raccoons"] = True
    return out


def _on(match: Match, tag: str) -> bool:
    return (match.tag(tag) or "").strip().lower() == "on"


def _context(match: Match) -> dict[str, Any]:
    out: dict[str, Any] = {}
    event = match.tag("Event")
    if event and len(event.encode("utf-8")) <= 120:
        out["event"] = event
    round_ = (match.tag("Round") or "").strip()
    if round_.isascii() and round_.isdigit() and int(round_) < 2**31:
        out["round"] = int(round_)
    started = _started_at(match.tag("EventDate"), match.tag("EventTime"))
    if started is not None:
        out["started_at"] = started
    return out


def _started_at(date: str | None, time: str | None) -> int | None:
    """``EventDate`` (``2024.10.28``) and ``EventTime`` (``18.46``) as UTC milliseconds."""
    if not date:
        return None
    try:
        day = datetime.strptime(date.strip(), "%Y.%m.%d")
        if time:
            clock = datetime.strptime(time.strip().replace(":", "."), "%H.%M")
            day = day.replace(hour=clock.hour, minute=clock.minute)
    except ValueError:
        return None
    return int(day.replace(tzinfo=UTC).timestamp()) * 1000


def _score_after(game: Game, score: tuple[int, int]) -> tuple[int, int]:
    if game.result is None or game.result.winner not in (0, 1):
        return score
    won = list(score)
    won[game.result.winner] += game.result.points
    return won[0], won[1]


def _annotation_list(annotations: Annotations) -> list[list[Any]]:
    return [[key, list(values)] for key, values in annotations]


def _absolute(board: Board) -> list[int]:
    """The checkers on OGXM's one board: White's (player 0) positive, at ``25 - p`` for its
    point ``p`` and its bar at 0; Black's negative at its own points, its bar at 25."""
    white, black = board.sides
    out = [0] * 26
    for p in range(1, 25):
        out[25 - p] += white[p]
        out[p] -= black[p]
    out[0], out[25] = white[BAR], -black[BAR]
    return out


def _board(absolute: Sequence[int], checkers: int) -> Board:
    """The inverse of :func:`_absolute` (borne-off checkers are the ones not on it)."""
    white, black = [0] * 26, [0] * 26
    for p in range(1, 25):
        white[p] = max(absolute[25 - p], 0)
        black[p] = max(-absolute[p], 0)
    white[BAR], black[BAR] = max(absolute[0], 0), max(-absolute[25], 0)
    white[OFF] = max(checkers - sum(white), 0)
    black[OFF] = max(checkers - sum(black), 0)
    board = Board(white, black)
    board.checkers = checkers
    return board


def _color(player: int) -> int:
    """OGXM's ply colour of a bgkit player: White (player 0) is 1."""
    return 1 if player == 0 else 0


def _from(point: int, player: int) -> int:
    """OGXM's board point of ``player``'s own point (Black's numbering; bars 0 and 25)."""
    return 25 - point if player == 0 else point


class _Notes:
    """The ``x-bgkit`` annotations, in the codec's order."""

    def __init__(self) -> None:
        self.items: list[tuple[int, int, str, str]] = []

    def add(self, scope: str, ref: int, extra: dict[str, Any]) -> None:
        if not extra:
            return
        text = json.dumps(extra, ensure_ascii=False, separators=(",", ":"))
        rank = _SCOPES.index(scope)
        for i, part in enumerate(_chunks(text)):
            self.items.append((rank, ref, KEY if i == 0 else f"{KEY}~{i}", part))

    def entries(self) -> list[dict[str, Any]]:
        if len(self.items) > _MAX_ANNOTATIONS:
            raise ValueError(
                f"OGXM holds {_MAX_ANNOTATIONS} annotations; this match needs {len(self.items)}"
                " for what OGXM has no field for (written forms, comments, annotations)"
            )
        size = sum(len(value.encode("utf-8")) for *_, value in self.items)
        if size > _MAX_ANNOTATION_BYTES:
            raise ValueError(
                f"OGXM holds {_MAX_ANNOTATION_BYTES // 1024} KB of annotations; this match"
                f" needs {size:,} bytes for what OGXM has no field for"
            )
        ordered = sorted(self.items, key=lambda item: (item[0], item[1], _chunk_index(item[2])))
        return [
            {"scope": _SCOPES[rank], "ref": ref, "key": key, "value": value}
            for rank, ref, key, value in ordered
        ]


def _chunks(text: str) -> Iterator[str]:
    """``text`` in pieces of at most :data:`_CHUNK` UTF-8 bytes, cut between characters."""
    part: list[str] = []
    size = 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        if size + n > _CHUNK:
            yield "".join(part)
            part, size = [], 0
        part.append(ch)
        size += n
    yield "".join(part)


def _chunk_index(key: str) -> int:
    _, _, n = key.partition("~")
    return int(n) if n.isascii() and n.isdigit() else 0


class _GameWriter:
    """One game as the codec's game object; its ``x-bgkit`` notes go to ``notes``."""

    def __init__(
        self, match: Match, index: int, score: tuple[int, int], notes: _Notes, ply_base: int
    ) -> None:
        self.match, self.index, self.notes, self.ply_base = match, index, notes, ply_base
        self.game = match.games[index]
        self.score = score
        self.found = game_steps(match, self.game, self.fail)
        self.plies: list[dict[str, Any]] = []
        self.extras: list[dict[str, Any]] = []
        self.cube = 1  # the value of the cube after the actions written so far

    def fail(self, reason: str) -> NoReturn:
        raise ValueError(f"game {self.game.number}: OGXM {reason}")

    def document(self) -> dict[str, Any]:
        game = self.game
        previous: Action | None = None
        if game.setup is not None:
            # OGXM's set-up: a first ply with the board, by the side that acts first; the
            # opening roll comes next, so no cube action can
            if game.actions and not isinstance(game.actions[0], Move):
                self.fail(
                    "cannot hold a set-up game that starts with a cube action (after its"
                    " set-up position the opening roll comes first)"
                )
            first = game.actions[0].player if game.actions else 0
            board = Board.start(self.match.variant, game.setup)
            self.plies.append(
                {
                    "color": _color(first),
                    "action_id": _SET_POSITION,
                    "set_position": _absolute(board),
                }
            )
            self.extras.append({})
        for k, action in enumerate(game.actions):
            if action.player not in (0, 1):
                self.fail(f"cannot hold player {action.player}: {action!r}")
            if isinstance(action, (Take, Drop)) and isinstance(previous, (Beaver, Raccoon)):
                # OGXM's beaver holds its take; a drop of it has no ply of its own either
                answer: dict[str, Any] = {
                    "action": "take" if isinstance(action, Take) else "drop",
                    "player": action.player,
                }
                self.keep_annotations(answer, action.annotations, "annotations")
                self.extras[-1].setdefault("after", []).append(answer)
                previous = action
                continue
            ply, extra = self.ply(k, action)
            if isinstance(action, (Double, Beaver, Raccoon)):
                self.cube = max(action.value, 1)
            self.plies.append(ply)
            self.extras.append(extra)
            previous = action
        self.end()
        out: dict[str, Any] = {"game_index": self.index, "plies": self.plies}
        if self.index == self.match.crawford_game():
            out["is_crawford"] = True
        result = game.result
        if result is not None:
            if result.winner not in (0, 1) or result.points < 0:
                self.fail(f"cannot hold the result {result!r}")
            out["winner"] = result.winner
            out["points_won"] = result.points
        self.game_notes(result)
        for i, extra in enumerate(self.extras):
            self.notes.add("ply", self.ply_base + i, extra)
        return out

    def ply(self, k: int, action: Action) -> tuple[dict[str, Any], dict[str, Any]]:
        extra: dict[str, Any] = {}
        self.keep_annotations(extra, action.annotations, "annotations")
        colour = _color(action.player)
        if isinstance(action, Move):
            low, high = sorted(action.dice)
            if (low, high) not in _DICE_IDS:
                self.fail(f"cannot hold the dice {action.dice}")
            if action.dice != (high, low):
                extra["dice"] = list(action.dice)
            moves = [
                {"from": _from(s.src, action.player), "pips": s.src - s.dst}
                for s in self.found.steps.get(k, [])
            ]
            if action.play is None:
                extra["play"] = None
            elif k in self.found.written:
                extra["play"] = self.found.written[k]
            roll = {"color": colour, "action_id": _DICE_IDS[(low, high)], "d1": low, "d2": high}
            return {**roll, "moves": moves}, extra
        if isinstance(action, Double):
            if action.value != self.cube * 2:
                extra["value"] = action.value
            return {"color": colour, "action_id": _DOUBLE}, extra
        if isinstance(action, Take):
            return {"color": colour, "action_id": _TAKE}, extra
        if isinstance(action, Drop):
            return {"color": colour, "action_id": _DROP}, extra
        if isinstance(action, Beaver):
            if action.value != self.cube * 2:
                extra["value"] = action.value
            return {"color": colour, "action_id": _BEAVER}, extra
        if action.value != self.cube * 2:
            extra["value"] = action.value
        return {"color": colour, "action_id": _RACCOON}, extra

    def keep_annotations(self, extra: dict[str, Any], annotations: Annotations, key: str) -> None:
        kept = tuple((k, v) for k, v in annotations if k not in ANALYSIS_KEYS)
        if kept:
            extra[key] = _annotation_list(kept)

    def end(self) -> None:
        """The ply that ends the game: the loser's resignation, else a marker."""
        result = self.game.result
        if result is None or result.winner not in (0, 1):
            return
        dropped = any(isinstance(a, Drop) for a in self.game.actions)
        if not dropped and not self.found.board.borne_off(result.winner):
            level = next((n for n in (1, 2, 3) if self.cube * n >= result.points), 3)
            name = {1: "single", 2: "gammon", 3: "backgammon"}[level]
            self.plies.append(
                {
                    "color": _color(1 - result.winner),
                    "action_id": _RESIGN_GAME,
                    "resign_value": name,
                }
            )
        else:
            final = self.index == len(self.match.games) - 1 and self.match_won(result)
            self.plies.append({"action_id": _FINAL if final else _GAME_OVER})
        self.extras.append({})

    def match_won(self, result: Result) -> bool:
        length = self.match.length
        return length > 0 and self.score[result.winner] + result.points >= length

    def game_notes(self, result: Result | None) -> None:
        game = self.game
        extra: dict[str, Any] = {}
        if game.number != self.index + 1:
            extra["number"] = game.number
        if game.score != self.score:
            extra["score"] = list(game.score)
        if result is not None and result.match_won != self.match_won(result):
            extra["match_won"] = result.match_won
        if game.setup is not None:
            extra["setup"] = game.setup
        if game.annotations:
            extra["annotations"] = _annotation_list(game.annotations)
        self.notes.add("game", self.index, extra)


# -- reading


def parse_ogxm(data: bytes, *, source_name: str | None = None) -> Match:
    """The match in an OGXM file's bytes (v1 or v2, as the reference codec reads them).

    :raises UnsupportedFormatError: when the ``ogxm`` package is not installed.
    :raises NotationError: when the bytes are not an OGXM file the codec reads (with the
        format's rule they break), or hold what a bgkit record cannot (the game and ply
        are named).
    """
    if not data.startswith(b"OGXM"):
        raise NotationError(
            "not an OGXM file: it does not start with 'OGXM'",
            source_name=source_name,
            byte_offset=0,
        )
    codec = _codec()
    try:
        doc = codec.binary_to_json(bytes(data))
    except codec.OgxmError as err:
        rule, _ = codec.verify(bytes(data))
        why = f"it breaks the format's rule {rule!r}" if rule else str(err)
        raise NotationError(
            f"not an OGXM file the reference codec reads: {why}", source_name=source_name
        ) from None
    return match_from_document(doc, source_name=source_name)


def read_ogxm(source: str | os.PathLike[str] | IO[bytes]) -> Match:
    """Read an OGXM file from a path or a binary file object (see :func:`parse_ogxm`)."""
    data, name = source_data(source)
    if isinstance(data, str):
        raise TypeError("read_ogxm reads bytes: open the file in binary mode ('rb')")
    return parse_ogxm(data, source_name=name)


def match_from_document(doc: dict[str, Any], *, source_name: str | None = None) -> Match:
    """The match in the OGXM codec's JSON projection of a file (``ogxm.binary_to_json``).

    :raises NotationError: for what a bgkit record cannot hold, naming the game and ply.
    """
    return _Reader(doc, source_name).match()


class _Reader:
    def __init__(self, doc: dict[str, Any], source_name: str | None) -> None:
        self.doc = doc
        self.source_name = source_name
        self.notes = _read_notes(doc.get("annotations"), source_name)
        self.where = ""

    def fail(self, msg: str) -> NoReturn:
        raise NotationError(f"{self.where}{msg}", source_name=self.source_name)

    def value(self, obj: dict[str, Any], key: str, kind: type, default: Any = None) -> Any:
        value = obj.get(key, default)
        if value is not default and (
            not isinstance(value, kind) or isinstance(value, bool) != (kind is bool)
        ):
            self.fail(f"{key} is not a {kind.__name__}: {value!r}")
        return value

    def count(self, extra: dict[str, Any], key: str, default: int) -> int:
        """A whole number kept by bgkit under ``key``, else ``default``."""
        value = extra.get(key, default)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 2**31:
            self.fail(f"{key} kept by bgkit is not a count: {value!r}")
        return value

    def match(self) -> Match:
        doc = self.doc
        names = (self.value(doc, "player_white", str, ""), self.value(doc, "player_black", str, ""))
        limit = active().max_name_chars
        for name in names:
            if len(name) > limit:
                self.fail(
                    f"a player name of {len(name)} characters, more than the limit of"
                    f" {limit} (max_name_chars)"
                )
        length = self.value(doc, "match_length", int, 0)
        extra = self.notes.get(("match", 0), {})
        tags = _pairs(extra.get("tags")) if "tags" in extra else self.tags()
        comments = tuple(str(c) for c in extra.get("comments", ()))
        annotations = _annotations(extra.get("annotations"))
        games_doc = self.value(doc, "games", list, [])
        most = active().max_games
        if len(games_doc) > most:  # (before a game is built; the codec's projection has
            # no places: the file is named, as for its other faults)
            check_games(most + 1, "", 0, self.source_name)
        score = (
            self.value(doc, "white_score_start", int, 0),
            self.value(doc, "black_score_start", int, 0),
        )
        games = []
        ply_base = 0
        for index, game_doc in enumerate(games_doc):
            if not isinstance(game_doc, dict):
                self.fail(f"game {index + 1} is not an object")
            self.where = f"game {index + 1}: "
            game = _GameReader(self, game_doc, index, score, length, ply_base).game()
            games.append(game)
            ply_base += len(game_doc.get("plies") or ())
            score = _score_after(game, score)
        self.where = ""
        return Match(
            names,
            length,
            tuple(games),
            tuple(tags),
            comments,
            source_name=self.source_name,
            annotations=annotations,
        )

    def tags(self) -> list[tuple[str, str]]:
        """Tags for what another program's OGXM header says (no ``x-bgkit`` to read)."""
        doc = self.doc
        tags: list[tuple[str, str]] = []
        event = doc.get("event")
        if isinstance(event, str) and event:
            tags.append(("Event", event))
        round_ = doc.get("round")
        if isinstance(round_, int) and not isinstance(round_, bool):
            tags.append(("Round", str(round_)))
        started = doc.get("started_at")
        if isinstance(started, int) and not isinstance(started, bool) and started > 0:
            with_time = datetime.fromtimestamp(started / 1000, UTC)
            tags.append(("EventDate", with_time.strftime("%Y.%m.%d")))
            tags.append(("EventTime", with_time.strftime("%H.%M")))
        variant = doc.get("variant")
        names = {ogxm: tag for ogxm, tag in _VARIANTS.values()}
        if isinstance(variant, str) and variant != "backgammon" and variant in names:
            tags.append(("Variation", names[variant]))
        if doc.get("match_length") and doc.get("crawford") is False:
            tags.append(("Crawford", "Off"))
        if doc.get("jacoby") is True:
            tags.append(("Jacoby", "On"))
        if doc.get("beavers") is True:
            tags.append(("Beaver", "On"))
        limit = doc.get("cube_limit")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
            tags.append(("CubeLimit", str(limit)))
        return tags


def _read_notes(
    raw: object, source_name: str | None = None
) -> dict[tuple[str, int], dict[str, Any]]:
    """The ``x-bgkit`` objects by (scope, ref); other programs' annotations are skipped."""
    parts: dict[tuple[str, int], list[tuple[int, str]]] = {}
    for item in raw if isinstance(raw, list) else ():
        if not isinstance(item, dict):
            continue
        key, value = item.get("key"), item.get("value")
        if not isinstance(key, str) or not isinstance(value, str):
            continue
        base, _, n = key.partition("~")
        if base != KEY or (n and not (n.isascii() and n.isdigit())):
            continue
        ref = item.get("ref")
        place = (str(item.get("scope")), ref if isinstance(ref, int) else 0)
        parts.setdefault(place, []).append((int(n or 0), value))
    notes = {}
    for place, pieces in parts.items():
        try:
            value = json_loads("".join(text for _, text in sorted(pieces)))
        except LimitError as err:  # (a 3 KB file nested 3,000 deep was a RecursionError)
            raise LimitError(
                f"an {KEY} annotation ({place[0]} {place[1]}): {err.msg}",
                source_name=source_name,
                limit=err.limit,
            ) from None
        except ValueError:
            continue  # not ours after all
        if isinstance(value, dict):
            notes[place] = value
    return notes


def _pairs(raw: object) -> list[tuple[str, str]]:
    return (
        [(str(p[0]), str(p[1])) for p in raw if isinstance(p, list) and len(p) == 2]
        if isinstance(raw, list)
        else []
    )


def _annotations(raw: object) -> Annotations:
    if not isinstance(raw, list):
        return ()
    return tuple(
        (str(item[0]), tuple(str(v) for v in item[1]))
        for item in raw
        if isinstance(item, list) and len(item) == 2 and isinstance(item[1], list)
    )


class _GameReader:
    def __init__(
        self,
        reader: _Reader,
        doc: dict[str, Any],
        index: int,
        score: tuple[int, int],
        length: int,
        ply_base: int,
    ) -> None:
        self.reader, self.doc, self.index, self.score, self.length = (
            reader,
            doc,
            index,
            score,
            length,
        )
        self.ply_base = ply_base
        self.extra = reader.notes.get(("game", index), {})
        self.actions: list[Action] = []
        self.cube = 1

    def game(self) -> Game:
        reader, extra = self.reader, self.extra
        setup = extra.get("setup") if isinstance(extra.get("setup"), str) else None
        variant = _bgkit_variant(reader.doc.get("variant"))
        board = Board.start(variant, setup)
        plies = reader.value(self.doc, "plies", list, [])
        most = active().max_game_actions
        for i, ply in enumerate(plies):
            reader.where = f"game {self.index + 1}, ply {i + 1}: "
            if not isinstance(ply, dict):
                reader.fail("not an object")
            if i == 0 and ply.get("action_id") == _SET_POSITION and "d1" not in ply:
                board = self.set_up(ply, board)
                if setup is None:
                    setup = board.set_pos(1, None)
                continue
            self.ply(i, ply, board)
            if len(self.actions) > most:  # (placed as max_games is: the file is named)
                check_game_actions(most + 1, self.index + 1, "", 0, reader.source_name)
        reader.where = f"game {self.index + 1}: "
        number = reader.count(extra, "number", self.index + 1)
        score = extra.get("score", list(self.score))
        if not isinstance(score, list) or len(score) != 2:
            reader.fail(f"the score kept by bgkit is not two numbers: {score!r}")
        score = (reader.count({"s": score[0]}, "s", 0), reader.count({"s": score[1]}, "s", 0))
        winner = reader.value(self.doc, "winner", int, 255)
        result = None
        if winner in (0, 1):
            points = reader.value(self.doc, "points_won", int, 0)
            won = self.length > 0 and self.score[winner] + points >= self.length
            result = Result(winner, points, extra.get("match_won", won) is True)
        elif winner != 255:
            reader.fail(f"the winner is {winner}, neither White (0) nor Black (1)")
        return Game(
            number,
            score,
            tuple(self.actions),
            result,
            setup,
            annotations=_annotations(extra.get("annotations")),
        )

    def set_up(self, ply: dict[str, Any], board: Board) -> Board:
        """The board a game's leading set-position ply states."""
        absolute = ply.get("set_position")
        if (
            not isinstance(absolute, list)
            or len(absolute) != 26
            or not all(isinstance(n, int) and abs(n) <= board.checkers for n in absolute)
        ):
            self.reader.fail(f"not a board of 26 checker counts: {absolute!r}")
        return _board(absolute, board.checkers)

    def ply(self, i: int, ply: dict[str, Any], board: Board) -> None:
        reader = self.reader
        extra = reader.notes.get(("ply", self.ply_base + i), {})
        action_id = reader.value(ply, "action_id", int, -1)
        player = 0 if ply.get("color", 0) == 1 else 1
        notes = _annotations(extra.get("annotations"))
        number = i + 1
        if 0 <= action_id <= 20:
            self.actions.append(self.move(ply, player, extra, board, action_id, number, notes))
        elif action_id in (_DOUBLE, _BEAVER, _RACCOON):
            self.cube = reader.count(extra, "value", self.cube * 2)
            if action_id == _DOUBLE:
                self.actions.append(Double(player, self.cube, number=number, annotations=notes))
            elif action_id == _BEAVER:
                self.actions.append(Beaver(player, self.cube, number=number, annotations=notes))
            else:
                self.actions.append(Raccoon(player, self.cube, number=number, annotations=notes))
        elif action_id == _TAKE:
            self.actions.append(Take(player, number=number, annotations=notes))
        elif action_id == _DROP:
            self.actions.append(Drop(player, number=number, annotations=notes))
        elif action_id in _MARKERS or action_id in (_RESIGN_GAME, _RESIGN_MATCH):
            pass  # the game's winner and points say how it ended
        elif (
            action_id == _SET_POSITION
            and isinstance(ply.get("d1"), int)
            and isinstance(ply.get("d2"), int)
        ):
            self.actions.append(self.restated(ply, board, number, notes))
        elif action_id == _SET_POSITION:
            reader.fail("a position set during the game without the roll that led to it")
        else:
            reader.fail(f"action {action_id} has no meaning bgkit knows")
        for answer in extra.get("after", ()):
            if isinstance(answer, dict) and answer.get("player") in (0, 1):
                kind = Take if answer.get("action") == "take" else Drop
                answered = _annotations(answer.get("annotations"))
                self.actions.append(kind(answer["player"], number=number, annotations=answered))

    def move(
        self,
        ply: dict[str, Any],
        player: int,
        extra: dict[str, Any],
        board: Board,
        action_id: int,
        number: int,
        notes: Annotations,
    ) -> Move:
        reader = self.reader
        low, high = _DICE[action_id]
        dice = extra.get("dice", [high, low])
        if not isinstance(dice, list) or sorted(dice) != [low, high]:
            reader.fail(f"the dice {dice!r} kept by bgkit are not the ply's {low}{high}")
        raw = reader.value(ply, "moves", list, [])
        limit = active().max_play_steps
        if len(raw) > limit:
            reader.fail(
                f"{len(raw)} steps in one play, more than the limit of {limit} (max_play_steps)"
            )
        steps = []
        for m in raw:
            src, pips = (m.get("from"), m.get("pips")) if isinstance(m, dict) else (None, None)
            if (
                not isinstance(src, int)
                or not isinstance(pips, int)
                or not 0 <= src <= 25
                or not 1 <= pips <= 7
            ):
                reader.fail(f"not a step: {m!r}")
            own = 25 - src if player == 0 else src
            if own == 0:
                reader.fail(f"a step from {src}, the other player's bar: {m!r}")
            steps.append(Step(own, max(own - pips, OFF)))
        marked = board.play(player, steps)
        play: Play | None = Play(marked)
        if "play" in extra:
            play = None if extra["play"] is None else self.written(extra["play"])
        return Move(player, (dice[0], dice[1]), play, number=number, annotations=notes)

    def restated(self, ply: dict[str, Any], board: Board, number: int, notes: Annotations) -> Move:
        """A play OGXM restates as the board after it (a writer's way with a play it holds
        illegal): the roll of the side not on roll, whose checkers went from the points it
        left to the points it reached (paired from the back)."""
        mover = 1 if ply.get("color") == 1 else 0  # the set-up's side is on roll next
        dice = (ply["d1"], ply["d2"])
        if not all(1 <= d <= 6 for d in dice):
            self.reader.fail(f"the dice {dice} are not two dice")
        after = self.set_up(ply, board)
        before = board.sides[mover]
        now = after.sides[mover]
        left = [p for p in range(25, 0, -1) for _ in range(max(before[p] - now[p], 0))]
        reached = [p for p in range(24, -1, -1) for _ in range(max(now[p] - before[p], 0))]
        if len(left) != len(reached) or len(left) > active().max_play_steps:
            self.reader.fail("the position set after a roll is not one the roll can reach")
        board.sides = after.sides
        steps = [Step(src, dst) for src, dst in zip(left, reached, strict=True)]
        return Move(mover, (max(dice), min(dice)), Play(steps), number=number, annotations=notes)

    def written(self, text: object) -> Play:
        """The play as written, kept by bgkit (``24/14*``)."""
        if not isinstance(text, str):
            self.reader.fail(f"the written play kept by bgkit is not text: {text!r}")
        try:
            return Play(text)
        except NotationError as err:
            self.reader.fail(f"the written play {text!r} kept by bgkit: {err.msg}")


def _bgkit_variant(name: object) -> str:
    for variant, (ogxm, _) in _VARIANTS.items():
        if name == ogxm:
            return variant
    return "standard"
