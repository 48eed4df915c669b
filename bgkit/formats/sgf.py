"""Read and write GNU Backgammon's SGF match records (``GM[6]``).

An SGF file is a collection of game trees, one per game; each root node repeats the
match information and each following node holds one action in gnubg's letter code
(``specs/sgf-backgammon.md`` describes it all). The tree syntax lives in
``grammars/sgf.lark``; this module gives the nodes their meaning.

>>> match = parse_sgf('''
... (;FF[4]GM[6]CA[UTF-8]MI[length:3][game:0][ws:0][bs:0]PW[Ann Lee]PB[Bo]RE[W+1]
... ;B[31qtst]
... ;W[52mkmh]LU[-0.07653]
... ;B[64aggk]
... ;W[double]
... ;B[drop])
... ''')
>>> match
<Match ('Ann Lee' vs. 'Bo', 3-pt, 1 game)>
>>> [a for a in match.games[0].actions]  # doctest: +NORMALIZE_WHITESPACE
[Move(player=1, dice=(3, 1), play=Play('8/5 6/5')),
 Move(player=0, dice=(5, 2), play=Play('13/11 13/8')),
 Move(player=1, dice=(6, 4), play=Play('24/18 18/14*')),
 Double(player=0, value=2), Drop(player=1)]
>>> match.games[0].actions[1].annotations
(('LU', ('-0.07653',)),)
>>> parse_sgf(dumps_sgf(match)) == match
True

**Players and points.** White (``W``, ``PW``, ``ws``) is player 0, the left column of a
``.mat`` record; Black is player 1. Point letters are board-fixed: ``a`` to ``x`` are
White's points 1..24 and Black's points 24..1, ``y`` is the bar and ``z`` (or any other
letter) borne off. Hits are not written in SGF: the reader marks them by following the
checkers from the starting position (or the set-up one), so a record reads exactly as
gnubg's own ``.mat`` export of the same match.

**What is read.** Each root: ``MI`` (length, game, ``ws``/``bs`` scores; other tags are
ignored), ``PW``/``PB``, ``RE`` (``W+2``, ``B+1R``, ``W+2Resign``), ``RU`` (``Crawford``,
``CrawfordGame``, ``Jacoby``, ``NoCube``, ``Nackgammon``, ``Hypergammon1``-``3`` and
bgkit's ``Beaver``), and in the first root ``DT``, ``EV``, ``RO``, ``PC``, ``AN``, ``GC``,
``WR``, ``BR``. The nodes: moves ``W[31hefe]`` (dice digits, then one from/to letter pair
per die), ``double``, ``take`` and ``drop`` (a ``double`` by the doubled player is a
:class:`~bgkit.records.Beaver`, a further one a :class:`~bgkit.records.Raccoon`, and the
``take`` that answers them is implicit in the record, as in ``.mat``), ``DI`` (dice set
without a play: an unknown play, ``None``), and the set-up properties ``PL``, ``AE``,
``AB``, ``AW``, ``CV``, ``CP`` and ``CO`` before the first play, which become the game's
:attr:`~bgkit.records.Game.setup` in XG's ``Set Pos`` notation. Game numbers are
gnubg's 0-based ``MI`` ``game`` plus one.

**Tags.** The match header maps to the tags gnubg's ``.mat`` export writes: ``PC`` is
``Site``, ``EV`` ``Event``, ``RO`` ``Round``, ``DT`` ``EventDate`` (``2024-05-01`` is
``2024.05.01``) and ``AN`` ``Transcriber``; then the rules that differ from the defaults:
``Crawford "Off"`` for a match without the Crawford rule, ``Jacoby "On"``,
``Beaver "On"`` (also when a money record holds a beaver), ``Jacoby "Off"`` for a money
session GNU Backgammon wrote without ``Jacoby`` in ``RU`` (it writes the rule when it is in
use), ``Variation`` for nackgammon
and hypergammon, ``CubeLimit "1"`` for ``NoCube``. ``GC`` holds the match comments, one
per line. When these cannot give a match's tags back (a Galaxy or Backgammon Studio
header's ``Match ID``, ``Player 1 Elo``, ``EventTime``, ``ClockType``...), the writer adds
bgkit's ``BT`` to the first root, every tag in order as JSON ``[key, value]`` pairs, and
the reader takes the tags from it. Two more bgkit properties keep what gnubg's SGF has no
room for: ``BP`` on a move whose written steps the per-die letters do not give back
(``24/14*``, a hit mark elsewhere, ``18/13 24/18``), and ``BE[1]`` after ``RE`` for a result
written ``and the match``. So a ``.mat`` record read back from bgkit's SGF is the record
(the same :class:`~bgkit.records.Match`, the same ``.mat`` text). GNU Backgammon ignores
all three (it reads property names of at most two letters).

**Nothing of gnubg's is lost.** Every other property is kept, values unescaped, in the
``annotations`` of the record it belongs to: analysis on a move or cube node (``A``,
``DA``, ``LU``, ``BM``, ``DO``, ``GW``, ``C``...) on that action, root properties
(``GS``, ``C``, ``CV``...) on the :class:`~bgkit.records.Game`, ``WR``/``BR`` on the
:class:`~bgkit.records.Match`. What a record has no place for is kept as SGF text under
keys starting with ``sgf:``: ``sgf:node`` for a node that is not an action (Gibbon's
``B[resign:2]``, a board edit in mid-game, a comment beside the set-up), ``sgf:take`` for
the ``take`` node that answers a beaver, and ``sgf:variation`` for the variations after a
node (only the main line is read as actions, as gnubg does). :func:`dumps_sgf` writes all
of it back in place.

**What is not kept.** ``FF``, ``GM``, ``CA`` and ``AP`` (the writer writes its own), unknown
``MI`` tags and ``RU`` rules, the spelling ``Resign`` after ``RE`` (written back as ``R``),
a centred set-up cube above 1, and ``CO`` when ``CP`` says the same.

**What is rejected** (:class:`~bgkit.errors.NotationError` with line and column): text that
is not an SGF collection, a tree that is not backgammon (no ``GM[6]``), dice that are not
two digits 1-6, a move with an odd number of letters or more than four pairs, a letter
that is no point, and numbers that are not numbers. Only a text of which no game can be
read is refused: any other such node or tree is a :class:`~bgkit.records.ReadError` and
the rest is read (:func:`parse_sgf`). Whether the plays are legal is the verifier's
business: a checker moving away from its home, from off or to the bar is kept as written,
and the verifier reports it as the player's illegal play.

:func:`dumps_sgf` writes what gnubg's ``save match`` writes (property set and order, one
node per line, a per-die letter pair for every checker step), so gnubg loads it.
"""

from __future__ import annotations

import codecs
import functools
import itertools
import json
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import IO, TYPE_CHECKING, NoReturn, cast

from bgkit.errors import (
    LimitError,
    NotationError,
    UnsupportedFormatError,
    excerpt,
)
from bgkit.fileio import write_atomic
from bgkit.formats import decode_bytes, source_data
from bgkit.formats._analysis_faults import KEYS as ANALYSIS_KEYS
from bgkit.formats._analysis_faults import annotation_fault
from bgkit.formats._checkers import (
    Board,
    game_steps,
    set_pos_sides,
    shared_dice,
    shared_play,
)
from bgkit.limits import (
    active,
    check_game_actions,
    check_games,
    check_integer,
    check_name,
    check_text,
    json_loads,
)
from bgkit.play import BAR, OFF, Play, Step
from bgkit.records import (
    _MOVE_SLOTS,
    _NEW,
    Action,
    Annotations,
    Beaver,
    Double,
    Drop,
    Game,
    GameStream,
    Match,
    Move,
    Raccoon,
    ReadError,
    Result,
    Take,
    new_move,
)

if TYPE_CHECKING:
    from lark import UnexpectedInput

__all__ = ["dumps_sgf", "parse_sgf", "read_sgf", "write_sgf"]

_NODE = "sgf:node"
_TAKE = "sgf:take"
_VARIATION = "sgf:variation"
_SGF_KEYS = (_NODE, _TAKE, _VARIATION)

# first-root properties and the tags they stand for, in gnubg's .mat export order
_TAG_PROPS = (("PC", "Site"), ("EV", "Event"), ("RO", "Round"), ("DT", "EventDate"))
_TRANSCRIBER = ("AN", "Transcriber")
_MATCH_PROPS = ("WR", "BR")  # kept as match annotations
_PLAY = "BP"
"""bgkit's property for a play whose written steps the letters do not give back (a hop
written across two dice, ``24/14*``, or a hit mark elsewhere): the steps as written,
``src/dst`` with ``*`` for a hit, 25 the bar and 0 off."""
_MATCH_WON = "BE"
"""bgkit's property for a result written with ``and the match`` (``BE[1]``): gnubg's SGF
and its ``.mat`` export never say it, XG and Galaxy records do."""
_TAGS = "BT"
"""bgkit's property for the match's tags when the standard ones cannot say them all: one
JSON list of ``[key, value]`` pairs, every tag in order (gnubg ignores it; its property
names are two letters at most)."""
_DROPPED = frozenset({"FF", "GM", "CA", "AP"})
_SETUP_PROPS = frozenset({"AE", "AB", "AW", "PL", "CV", "CP", "CO"})

_VARIATION_RULES = {
    "Nackgammon": ("nackgammon", "Nackgammon"),
    "Hypergammon1": ("hypergammon-1", "Hypergammon (1)"),
    "Hypergammon2": ("hypergammon-2", "Hypergammon (2)"),
    "Hypergammon3": ("hypergammon", "Hypergammon"),
}
_GIBBON_WORDS = ("resign", "accept", "reject")
_RESULT = re.compile(r"([BWbw])\+([0-9]{1,9})(.*)", re.S)
_SGF_DATE = re.compile(r"([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})")
_MAT_DATE = re.compile(r"([0-9]{4})\.([0-9]{1,2})\.([0-9]{1,2})")
_ESCAPE = re.compile(r"\\(.)", re.S)
_IDENT = re.compile(r"[A-Z]+")
_WRITTEN_STEP = re.compile(r"([0-9]{1,2})/([0-9]{1,2})(\*?)")


# ---------------------------------------------------------------------------- the tree


@dataclass(slots=True)
class _Prop:
    """One property: its name (upper-case letters only) and raw values (escapes kept)."""

    ident: str
    values: list[str]
    pos: int
    value_pos: list[int]

    def text(self, i: int = 0) -> str:
        return _unescape(self.values[i])

    def sgf(self) -> str:
        return self.ident + "".join(f"[{v}]" for v in self.values)


@dataclass(slots=True)
class _Node:
    props: list[_Prop]
    pos: int

    def sgf(self) -> str:
        return ";" + "".join(p.sgf() for p in self.props)


@dataclass(slots=True)
class _Run:
    """Nodes of one property with one plain value each (``;B[52bdjl]``), one after the
    other: the text from ``start`` to ``end`` (:data:`_RUN_NODE` reads them in turn).
    Most of a record is such runs, kept so without an object per node."""

    start: int
    end: int

    def nodes(self, source: str) -> Iterator[_Node]:
        """The run's nodes as the general code has them."""
        for m in _RUN_NODE.finditer(source, self.start, self.end):
            at, text = m.start(2), m[2]
            ident = text[: text.index("[")]
            yield _Node([_Prop(ident, [text[len(ident) + 1 : -1]], at, [at + len(ident) + 1])], at)


@dataclass(slots=True)
class _GameTree:
    nodes: list[_Node | _Run]
    children: list[_GameTree] = field(default_factory=list)
    pos: int = 0
    """Where its ``(`` stands (a top-level tree's: where its game starts)."""


def _unescape(raw: str) -> str:
    """SGF text: a soft line break (``\\`` + line end) goes, ``\\x`` stands for ``x``."""
    if "\\" not in raw:
        return raw
    return _ESCAPE.sub(lambda m: "" if m[1] == "\n" else m[1], raw)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _simple_text(name: str) -> str:
    """A player name as SGF SimpleText (``PW``, ``PB``): one line. A name with a line
    break is refused, never written raw for a reader to take as lines of the file the
    name's author chose (SGF has no escape for a hard line break)."""
    bad = next((ch for ch in name if len(f"a{ch}b".splitlines()) > 1), None)
    if bad is not None:
        raise UnsupportedFormatError(
            f"an SGF file cannot hold the player name {name!r} (line break U+{ord(bad):04X})"
        )
    return _escape(name)


def _tree_sgf(tree: _GameTree, source: str) -> str:
    """A game tree as SGF text (without recursion: variations may nest deeply)."""
    out: list[str] = []
    stack: list[_GameTree | str] = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        out.append("(")
        for node in item.nodes:
            if isinstance(node, _Run):
                out.extend(one.sgf() for one in node.nodes(source))
            else:
                out.append(node.sgf())
        stack.append(")")
        stack.extend(reversed(item.children))
    return "".join(out)


# ---------------------------------------------------------------------------- reading


def parse_sgf(text: str, *, source_name: str | None = None, strict: bool = False) -> Match:
    """Read an SGF collection of backgammon games from a string.

    A node that cannot be read is a :class:`~bgkit.records.ReadError` of the match's
    :attr:`~bgkit.records.Match.read_errors` (the verifier reports it, and leaves the
    game's later actions unverified), and the rest is read; a game tree whose root or
    syntax cannot be read is one such error, and reading goes on at the next tree that
    starts a line.

    :param source_name: the file name, used in error messages and kept on the match.
    :param strict: raise at the first node or tree that cannot be read.
    :raises NotationError: when nothing of the text is a backgammon SGF game (see the
        module docstring for what is accepted), or with ``strict`` at the first node or
        tree that cannot be read.

    >>> parse_sgf("(;FF[4]GM[6]MI[length:0]PW[a]PB[b];W[31hefe])").games[0].actions
    (Move(player=0, dice=(3, 1), play=Play('8/5 6/5')),)
    >>> parse_sgf("(;GM[6];W[31hefe)", source_name="x.sgf")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: x.sgf:1:10: a value '[' is never closed by ']'
        (;GM[6];W[31hefe)
                 ^
    """
    source = _normalise(text)
    check_text(source, source_name, lines=False)
    _check_nesting(source, source_name)
    reader = _Reader(source, source_name, strict=strict)
    return reader.match(reader.scan())


def stream_sgf(text: str, *, source_name: str | None = None) -> Match:
    """:func:`parse_sgf` with the games read one at a time as they are gone through
    (:meth:`_Reader.streamed`): for the verifier, which holds a game or two of a long
    record instead of all of it. The text is checked as :func:`parse_sgf` checks it."""
    source = _normalise(text)
    del text
    check_text(source, source_name, lines=False)
    _check_nesting(source, source_name)
    reader = _Reader(source, source_name)
    return reader.streamed(reader.scan())


# the next bracket of a game tree, after the text before it (property values, whose
# brackets do not count, read as _SGF_TOKENS reads them: an escaped line end in one); at
# the end, nothing (so that no place is scanned twice)
_NEXT_PARENTHESIS = re.compile(r"(?:[^()\[]++|\[[^]\\]*+(?:\\.[^]\\]*+)*+\])*+([()]|\Z)", re.S)
# the text up to the first '[' that opens no value (no ']' closes it): every '[' after it
# opens none either (the escapes pair up from it as from the first), so its brackets count
_CLOSED_VALUES = re.compile(r"(?:[^\[]++|\[[^]\\]*+(?:\\.[^]\\]*+)*+\])*+", re.S)
_PARENTHESIS = re.compile(r"[()]")


def _check_nesting(source: str, source_name: str | None) -> None:
    """:func:`~bgkit.limits.check_nesting` of the game trees' brackets, found without a
    step of Python per property value (a long record has millions), and in time linear
    in the text: a '[' that opens no value is looked past once, not once for each '['
    after it (``C[C[C[...``, 100,000 of them, took 17 s)."""
    most = active().max_nesting
    if source.count("(") <= most:
        return  # (each level opens with a '(': fewer cannot nest deeper, in a value or not)
    closed = _CLOSED_VALUES.match(source)
    end = closed.end() if closed is not None else 0
    depth = 0
    for found in itertools.chain(
        _NEXT_PARENTHESIS.finditer(source, 0, end), _PARENTHESIS.finditer(source, end)
    ):
        paren = found[found.lastindex or 0]
        if not paren:
            continue  # (the end of the text up to the first '[' that opens no value)
        at = found.start(found.lastindex or 0)
        depth = depth + 1 if paren == "(" else max(depth - 1, 0)
        if depth > most:
            raise LimitError(
                f"nested more than {most} levels deep (max_nesting)",
                source,
                at,
                source_name=source_name,
                limit="max_nesting",
            )


# the tokens of grammars/sgf.lark: whitespace, brackets, ';', names and values
_SGF_TOKENS = re.compile(
    r"(?P<ws>[ \t\f\r\n]+)|(?P<open>\()|(?P<close>\))|(?P<semi>;)"
    r"|(?P<ident>[A-Za-z]+)|(?P<value>\[[^\\\]]*+(?:\\.[^\\\]]*+)*+\])",
    re.S,
)


# where a top-level game tree starts: '(' at the start of a line (one tree a line or more)
_NEXT_TREE = re.compile(r"\n[ \t]*(?=\()")


class _Lost(Exception):
    """Text the scan cannot read at :attr:`pos` (the Lark parser then says why)."""

    def __init__(self, pos: int) -> None:
        super().__init__(pos)
        self.pos = pos


# A node of one property with one value and no blanks (";B[52bdjl]", most of a record),
# which _SGF_TOKENS would read as three tokens: the name (1) and the value (2).
_SIMPLE_NODE = re.compile(r";([A-Z]+)\[([^\\\]]*+)\]")
# A move's value as gnubg writes it: the dice, then up to four from/to letter pairs.
_PLAIN_MOVE = re.compile(r"([1-6])([1-6])((?:[a-z][a-z]){0,4})")
# The same after the blanks _SGF_TOKENS skips (the next node of a main line).
_NEXT_SIMPLE_NODE = re.compile(r"[ \t\f\r\n]*;([A-Z]+)\[([^\\\]]*+)\]")
# A run of such nodes, up to the last of them (group 1: where the last starts).
_SIMPLE_RUN = re.compile(
    r"(?:[ \t\f\r\n]*+;[A-Z]+\[[^\\\]]*+\](?=[ \t\f\r\n]*;[A-Z]+\[[^\\\]]*+\]))++"
    r"[ \t\f\r\n]*+(;)[A-Z]+\[[^\\\]]*+\]"
)
# A game tree's bracket next (after blanks): no property can join the node before it.
_TREE_BRACKET = re.compile(r"[ \t\f\r\n]*[()]")
# A property's values while none holds a backslash (most do not): read at once.
_PLAIN_VALUES = re.compile(r"(?:\[[^\\\]]*+\])++")
# A run's cube actions as gnubg writes them: the player and the word.
_CUBE_NODES = {
    f"{side}[{word}]": (player, word)
    for player, side in enumerate("WB")
    for word in ("double", "take", "drop")
}
# One node of a run: the blanks before it (1), then its name and value (2).
_RUN_NODE = re.compile(r"([ \t\f\r\n]*);([A-Z]+\[[^\\\]]*+\])")


def read_sgf(
    source: str | os.PathLike[str] | IO[str] | IO[bytes], *, encoding: str | None = None
) -> Match:
    """Read an SGF record from a file path or an open file (text or binary).

    Bytes are decoded with the ``CA`` charset the file names (gnubg writes ``UTF-8``),
    else as :func:`bgkit.formats.decode_bytes` does (UTF-8, then Windows-1252); pass
    ``encoding`` to force a codec.

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the text is not a backgammon SGF record.
    :raises UnicodeDecodeError: when ``encoding`` (or the ``CA`` charset) does not fit.
    """
    data, name = source_data(source)
    if isinstance(data, bytes):
        data = decode_bytes(data, encoding=encoding or _charset(data), source_name=name)
    return parse_sgf(data, source_name=name)


def _charset(data: bytes) -> str | None:
    """The codec of a ``CA[...]`` property near the start, if Python knows it and not UTF-8."""
    m = re.search(rb"CA\s*\[([-A-Za-z0-9_.:]{1,40})\]", data[:4096])
    if m is None:
        return None
    try:
        codec = codecs.lookup(m[1].decode("ascii")).name
    except LookupError:
        return None
    return None if codec == "utf-8" else codec


def _normalise(text: str) -> str:
    """Drop a BOM and turn CR LF (and lone CR) into LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text


_WORDS = {
    "LPAR": "'('",
    "RPAR": "')'",
    "SEMICOLON": "';'",
    "PROP_IDENT": "a property name",
    "VALUE": "a value in brackets",
    "$END": "the end of the text",
}


def _words(expected: Iterable[str]) -> str:
    order = ["SEMICOLON", "PROP_IDENT", "VALUE", "LPAR", "RPAR", "$END"]
    names = sorted(set(expected), key=lambda n: order.index(n) if n in order else len(order))
    words = [_WORDS.get(n, n) for n in names]
    if len(words) <= 1:
        return words[0] if words else "nothing more"
    return ", ".join(words[:-1]) + " or " + words[-1]


def _syntax_error(err: UnexpectedInput, source: str, source_name: str | None) -> NotationError:
    """Turn a Lark error into a NotationError that says what SGF expects there."""
    from lark import UnexpectedCharacters, UnexpectedToken

    if isinstance(err, UnexpectedCharacters):
        pos = err.pos_in_stream or 0
        ch = source[pos] if pos < len(source) else ""
        if ch == "[":
            msg = "a value '[' is never closed by ']'"
        elif ch == "\\":
            msg = "'\\' outside a value"
        else:
            msg = f"unexpected {ch!r}; expected {_words(err.allowed or ())}"
        return NotationError(msg, source, pos, source_name=source_name)
    if isinstance(err, UnexpectedToken):
        expected = set(err.accepts or err.expected or ())
        if err.token.type == "$END":
            msg = f"the SGF text ends inside a game tree; expected {_words(expected)}"
            return NotationError(msg, source, len(source.rstrip()), source_name=source_name)
        pos = err.token.start_pos or 0
        token = str(err.token)
        shown = token if len(token) <= 20 else token[:17] + "..."
        if expected == {"LPAR"} or expected == {"LPAR", "$END"}:
            msg = f"expected '(' to start a game tree, found {shown!r}"
        elif "VALUE" in expected and err.token.type != "VALUE":
            msg = f"a property needs a value in brackets after its name, found {shown!r}"
        else:
            msg = f"unexpected {shown!r}; expected {_words(expected)}"
        return NotationError(msg, source, pos, source_name=source_name)
    return NotationError(
        "not an SGF collection", source, 0, source_name=source_name
    )  # pragma: no cover


@functools.lru_cache(maxsize=1 << 12)
def _letter_steps(letters: str, player: int) -> tuple[Step, ...] | None:
    """The steps of a move's letter pairs (at most four: the caller checks), or ``None``
    when one is not a step (:meth:`_GameState.move_value` then says which). Records
    repeat their moves: each is worked out once."""
    steps = []
    for k in range(0, len(letters), 2):
        a, b = letters[k], letters[k + 1]
        if not ("a" <= a <= "z" and "a" <= b <= "z"):
            return None
        src, dst = _point(a, player), _point(b, player)
        if src == OFF or dst == BAR or dst >= src:
            return None
        steps.append(Step(src, dst))
    return tuple(steps)


_PlainEntry = tuple[
    int, tuple[int, int], str, tuple[tuple[int, int, int, int], ...], dict[int, Play]
]
"""A plain move node read once (:func:`_plain_entry`): the player, the dice, the letters,
each step's ``(src, dst, the opponent's point it lands on or -1 off, its hit bit)``, and
the plays made of it so far, by hit bits."""


def _plain_entry(text: str) -> _PlainEntry | None:
    """What :meth:`_GameState.plain_move` needs of a node's text (``B[52bdjl]``), or
    ``None`` when it is not a move written plainly (:data:`_PLAIN_MOVE`) whose letters
    are steps."""
    ident, _, value = text[:-1].partition("[")
    if ident not in ("W", "B"):
        return None
    plain = _PLAIN_MOVE.fullmatch(value)
    if plain is None:
        return None
    player = 1 if ident == "B" else 0
    steps = _letter_steps(plain[3], player)
    if steps is None:
        return None
    hops = tuple(
        (s.src, s.dst, -1 if s.dst == OFF else 25 - s.dst, 1 << k) for k, s in enumerate(steps)
    )
    return player, shared_dice(int(plain[1]), int(plain[2])), plain[3], hops, {}


@functools.lru_cache(maxsize=1 << 16)
def _marked_play(letters: str, player: int, hits: int) -> Play:
    """The shared :class:`Play` of a move's letter pairs (steps by :func:`_letter_steps`)
    with the steps whose bit is set in ``hits`` marked as hits."""
    steps = _letter_steps(letters, player)
    assert steps is not None  # (the caller has them)
    marked = (Step(s.src, s.dst, bool(hits >> k & 1)) for k, s in enumerate(steps))
    return shared_play(tuple(marked))


#: The mover's point of each point letter, for each player: ``a``-``x`` board-fixed,
#: ``y`` the bar; any other letter is off (:func:`_point`).
_POINT_OF = tuple(
    {chr(ord("a") + k): k + 1 if player == 0 else 24 - k for k in range(24)} | {"y": BAR}
    for player in (0, 1)
)


def _point(letter: str, player: int) -> int:
    """The mover's point for a letter: ``a``-``x`` board-fixed, ``y`` the bar, else off."""
    return _POINT_OF[player].get(letter, OFF)


def _letter(point: int, player: int) -> str:
    if point == BAR:
        return "y"
    if point == OFF:
        return "z"
    return chr(ord("a") + point - 1) if player == 0 else chr(ord("x") - point + 1)


@dataclass(slots=True)
class _Pending:
    """A cube exchange waiting for its answer."""

    doubler: int
    value: int
    redoubles: int  # 0 after a double, 1 after a beaver, 2+ after raccoons


class _Reader:
    """Turns parsed game trees into a :class:`Match`."""

    def __init__(self, source: str, source_name: str | None, *, strict: bool = False) -> None:
        self.strict = strict
        self.source = source
        self.source_name = source_name
        self._cursor = (0, 1, 0)  # line_col's last answer: (offset, line, its line's start)
        # (those of the reading: a stream's games are read after it)
        self.limits = active()
        self.faults: list[ReadError] = []
        """The nodes and game trees that could not be read (the rest is read)."""
        self.first_syntax_error: NotationError | None = None
        self.plain_moves: dict[str, _PlainEntry | None] = {}
        """What :func:`_plain_entry` made of each node text of a run seen."""

    # -- helpers

    def fail(self, msg: str, pos: int) -> NoReturn:
        raise NotationError(msg, self.source, pos, source_name=self.source_name)

    def line_col(self, pos: int) -> tuple[int, int]:
        """The 1-based line and column of the offset ``pos``, counted from the last offset
        asked (the reader asks in file order, and once a game back to its root): the cost
        is the distance, and no table of every line is kept (a long record has millions)."""
        source = self.source
        at, line, start = self._cursor
        if pos >= at:
            ends = source.count("\n", at, pos)
            if ends:
                line += ends
                start = source.rfind("\n", at, pos) + 1
        else:
            ends = source.count("\n", pos, at)
            if ends:
                line -= ends
                start = source.rfind("\n", 0, pos) + 1
        self._cursor = (pos, line, start)
        return line, pos - start + 1

    def number(self, text: str, pos: int, what: str) -> int:
        digits = text.strip()
        if not digits.isascii() or not digits.isdigit():
            self.fail(f"{what} must be a number, not {excerpt(text, 40)!r}", pos)
        check_integer(digits, self.source, pos, self.source_name)
        return int(digits)

    # -- syntax tree

    def scan(self) -> Iterator[_GameTree]:
        """The game trees of the collection, one top-level tree at a time, read by the
        tokens of ``grammars/sgf.lark`` without building its parse tree: memory holds one
        game's tree, not the file's (a 30 MB SGF hit a 4 GB cap through Lark's tree).
        Text the grammar does not accept is handed to the Lark parser, from the start of
        the game tree it is in, for its error."""
        source = self.source
        stack: list[_GameTree] = []
        node: _Node | None = None
        prop: _Prop | None = None
        fresh = False  # after '(': a ';' must follow
        start = 0  # where the current top-level tree starts
        pos = 0
        end = len(source)
        match = _SGF_TOKENS.match
        simple = _SIMPLE_NODE.match
        simple_run = _SIMPLE_RUN.match
        plain_values = _PLAIN_VALUES.match
        tree_bracket = _TREE_BRACKET.match
        next_simple = _NEXT_SIMPLE_NODE.match
        while pos < end:
            try:
                token = match(source, pos)
                if token is None and (
                    self.strict or node is None or (len(stack) == 1 and stack[0].nodes == [node])
                ):
                    raise _Lost(pos)  # (in a root node: the game tree is lost with it)
                if token is None:
                    # a character no SGF token starts with: the rest of its line is lost
                    # (one error), the tree is read on from the next line
                    pos = self.lost_line(start, pos)
                    if prop is not None and not prop.values:
                        assert node is not None
                        node.props.remove(prop)
                    prop = None
                    continue
                kind, at, pos = token.lastgroup, pos, token.end()
                if kind == "ws":
                    continue
                if kind == "value":
                    if prop is None:
                        raise _Lost(at)
                    prop.values.append(token.group()[1:-1])
                    prop.value_pos.append(at + 1)
                    continue
                if (prop is not None and not prop.values) or (fresh and kind != "semi"):
                    raise _Lost(at)
                prop = None
                if kind == "ident":
                    if node is None:
                        raise _Lost(at)
                    ident = "".join(_IDENT.findall(token.group()))
                    if not ident:
                        self.fail(
                            f"a property name needs upper-case letters: {token[0][:20]!r}", at
                        )
                    prop = _Prop(ident, [], at, [])
                    if not node.props:
                        node.pos = at
                    node.props.append(prop)
                    values = plain_values(source, pos)  # (its values without escapes, at once)
                    if values is not None:
                        at = pos + 1
                        for value in values[0][1:-1].split("]["):
                            prop.values.append(value)
                            prop.value_pos.append(at)
                            at += len(value) + 2
                        pos = values.end()
                elif kind == "semi":
                    if not stack or stack[-1].children:
                        raise _Lost(at)
                    node = _Node([], 0)
                    stack[-1].nodes.append(node)
                    fresh = False
                    plain = simple(source, at)  # most nodes: ";B[52bdjl]", read at once
                    if plain is not None:
                        nodes = stack[-1].nodes
                        # a run of simple nodes is kept as one _Run (text offsets, no
                        # object per node), but for a top-level tree's root and a last
                        # node that more properties may join
                        run = simple_run(source, plain.end())
                        if run is not None:
                            begin = at
                            if len(stack) > 1 or len(nodes) > 1:
                                nodes.pop()  # (the node begun here is the run's first)
                            else:
                                ident = plain[1]
                                node.pos = at + 1
                                node.props.append(
                                    _Prop(ident, [plain[2]], at + 1, [at + 2 + len(ident)])
                                )
                                begin = plain.end()
                            if tree_bracket(source, run.end()) is not None:
                                nodes.append(_Run(begin, run.end()))
                                node, prop, pos = None, None, run.end()
                                continue
                            nodes.append(_Run(begin, run.start(1)))
                            node = _Node([], 0)
                            nodes.append(node)
                            at = run.start(1)
                            plain = simple(source, at)
                            assert plain is not None
                        while True:
                            ident = plain[1]
                            prop = _Prop(ident, [plain[2]], at + 1, [at + 2 + len(ident)])
                            node.pos = at + 1
                            node.props.append(prop)
                            pos = plain.end()
                            # the nodes after it, while each is one (blanks before it)
                            plain = next_simple(source, pos)
                            if plain is None:
                                break
                            at = plain.start(1) - 1
                            node = _Node([], 0)
                            nodes.append(node)
                elif kind == "open":
                    if stack and not stack[-1].nodes:
                        raise _Lost(at)
                    tree = _GameTree([], pos=at)
                    if stack:
                        stack[-1].children.append(tree)
                    else:
                        start = at
                    stack.append(tree)
                    node, fresh = None, True
                else:  # close
                    if not stack:
                        raise _Lost(at)
                    done = stack.pop()
                    node = None
                    if not stack:
                        yield done
            except LimitError:
                raise
            except (_Lost, NotationError) as err:
                # a tree that cannot be read costs that tree only: read on from the next
                pos = self.lost_tree(start, err)
                stack, node, prop, fresh, start = [], None, None, False, pos
        if (stack or (prop is not None and not prop.values) or fresh) and not self.too_many():
            self.lost_tree(start, _Lost(end))

    def lost_line(self, start: int, pos: int) -> int:
        """Keep the error at ``pos`` (the Lark parser's, from the tree at ``start``) and
        return where the next line starts (past the last, after too many errors)."""
        try:
            self.syntax_error(start, pos)
        except NotationError as err:
            self.faults.append(ReadError(err.line, err.column, err.msg))
        if self.too_many():
            return len(self.source)
        end = self.source.find("\n", pos)
        return len(self.source) if end < 0 else end + 1

    def too_many(self) -> bool:
        """Whether more lines could not be read than are worth reading past (a fault
        says so, once); the rest of the file is then not read."""
        if not self.faults:
            return False
        # (here, not at the top: the reading of lines by Lark, which a file without
        # faults never needs, costs 35 ms to import)
        from bgkit.formats._by_lines import MAX_FAULTS, too_many

        if len(self.faults) < MAX_FAULTS:
            return False
        if not self.faults[-1].message.startswith("more than"):
            self.faults.append(too_many(self.faults[-1].line))
        return True

    def lost_tree(self, start: int, err: Exception) -> int:
        """Keep the error of the game tree from ``start`` (``err``, or for a :class:`_Lost`
        the Lark parser's error there) and return where the next top-level tree starts."""
        if isinstance(err, _Lost):
            try:
                self.syntax_error(start, err.pos)
            except NotationError as found:
                err = found
        assert isinstance(err, NotationError)
        if self.strict:
            raise err
        self.first_syntax_error = self.first_syntax_error or err
        self.faults.append(ReadError(err.line, err.column, err.msg))
        after = _NEXT_TREE.search(self.source, max(err.pos, start) + 1)
        if after is None or self.too_many():
            return len(self.source)
        return after.start() + 1

    def syntax_error(self, start: int, pos: int) -> NoReturn:
        """Raise the Lark parser's error for the text from ``start`` (the game tree where
        the scan stopped at ``pos``; what comes before is blanked, so that positions stay
        those of the whole text and only this tree is parsed)."""
        # (the text from the tree's start to a little past ``pos``, read in place: no copy
        # of the file for each error, so reading past many stays linear)
        from lark import UnexpectedInput

        from bgkit._grammars import parser
        from bgkit.formats._by_lines import parse_slice

        end = min(len(self.source), pos + 256)
        line = self.line_col(start)[0]
        for stop in (end, len(self.source)):
            try:
                parse_slice(parser("sgf"), self.source, start, stop, line, "sgf")
            except UnexpectedInput as err:
                error = _syntax_error(err, self.source, self.source_name)
                if stop < len(self.source) and error.pos > pos:
                    continue  # (past the scan's place: where the slice ends; read it all)
                raise error from None
        self.fail("not SGF as grammars/sgf.lark reads it", pos)  # pragma: no cover

    # -- the match

    def games(self, trees: Iterable[_GameTree], header: _Header) -> Iterator[Game]:
        """The games of ``trees``, one at a time (``header`` takes what the roots say of
        the match); raises the first error when no game can be read."""
        last: list[Game] = []  # (the game before: a root without a score follows it)
        first: NotationError | None = None
        limits = active()  # (those of the reading: a stream's games are read after it)
        for index, tree in enumerate(trees):
            if self.too_many():
                break
            if index >= limits.max_games:  # (the trees are scanned one at a time: the
                # rest of the text is not)
                check_games(index + 1, self.source, tree.pos, self.source_name, limits)
            try:
                game = self.game(tree, index, header, last)
            except LimitError:
                raise
            except NotationError as err:
                # a game whose root cannot be read is lost with it, one error
                if self.strict:
                    raise
                first = first or err
                self.faults.append(ReadError(err.line, err.column, err.msg))
                continue
            last = [game]
            yield game
        if not last and (first or self.first_syntax_error) is not None:
            raise first or self.first_syntax_error  # type: ignore[misc]
        if not last:
            self.fail("no game tree: an SGF record starts with '(;'", len(self.source.rstrip()))

    def match(self, trees: Iterable[_GameTree]) -> Match:
        header = _Header()
        games = list(self.games(trees, header))
        tags = header.kept_tags
        if tags is None:
            tags = _with_money_beaver(header.tags(), header.length, games)
        return Match(
            header.players,
            header.length,
            tuple(games),
            tags=tuple(tags),
            comments=header.comments,
            source_name=self.source_name,
            annotations=tuple(header.annotations),
            read_errors=tuple(sorted(self.faults, key=lambda f: (f.line, f.column))),
        )

    def streamed(self, trees: Iterable[_GameTree]) -> Match:
        """:meth:`match` with its games a :class:`~bgkit.records.GameStream`, read as they
        are gone through. What the match says beyond its games is read from the first
        root, reading ahead while a player is not named yet; without the games, the
        ``Beaver`` tag of a money session that holds a beaver is not added (the verifier
        allows beavers in money play unless a record says ``Off``). Its ``read_errors``
        are the stream's :meth:`~bgkit.records.GameStream.unread`."""
        header = _Header()
        stream = GameStream(self.games(trees, header), self.faults)
        stream.any_game(lambda game: all(header.named))
        tags = header.kept_tags
        if tags is None:
            tags = header.tags()
        return Match(
            header.players,
            header.length,
            cast(tuple[Game, ...], stream),
            tags=tuple(tags),
            comments=header.comments,
            source_name=self.source_name,
            annotations=tuple(header.annotations),
        )

    def root(self, node: _Node, first: bool, header: _Header) -> _Root:
        root = _Root()
        game_mark = False
        for prop in node.props:
            ident = prop.ident
            if ident == "GM":
                game_mark = True
                if prop.text().strip() != "6":
                    self.fail(
                        f"not a backgammon game tree: GM[{prop.text()[:10]}] (backgammon is 6)",
                        prop.pos,
                    )
            elif ident in _DROPPED:
                if first and ident == "AP":
                    header.by_gnubg = prop.text().startswith("GNU Backgammon")
                continue
            elif ident == "MI":
                self.match_info(prop, root, first, header)
            elif ident in ("PW", "PB") and (first or not header.named[ident == "PB"]):
                names = list(header.players)
                names[ident == "PB"] = prop.text()
                check_name(names[ident == "PB"], self.source, prop.value_pos[0], self.source_name)
                header.players = (names[0], names[1])
                header.named[ident == "PB"] = True
            elif ident in ("PW", "PB"):
                continue  # repeated in every root; the first says it
            elif ident == "RE" and root.result is None and self.result(prop, root):
                continue
            elif ident == "RU":
                self.rules(prop, first, header)
            elif first and ident in header.text_props:
                header.text_props[ident] = prop.text()
            elif first and ident == "GC":
                header.comments = tuple(prop.text().split("\n"))
            elif first and ident == _TAGS:
                header.kept_tags = self.kept_tags(prop)
            elif ident == _MATCH_WON and prop.text().strip() == "1":
                root.match_won = True
            elif first and ident in _MATCH_PROPS:
                header.annotations.append((ident, tuple(_unescape(v) for v in prop.values)))
            else:
                if ident == "CV":
                    root.cube = self.cube_value(prop)
                if ident == "PL" and prop.text().strip().upper() not in ("W", "B"):
                    self.fail(f"PL is W or B, not {prop.text()[:12]!r}", prop.value_pos[0])
                root.annotations.append((ident, tuple(_unescape(v) for v in prop.values)))
        if not game_mark:
            self.fail("not a backgammon game tree: the root node has no GM[6]", node.pos)
        return root

    def kept_tags(self, prop: _Prop) -> list[tuple[str, str]]:
        """bgkit's ``BT``: the match's tags, every one in order."""
        try:
            pairs = json_loads(prop.text(), self.source_name)
        except LimitError:
            raise
        except ValueError:
            pairs = None
        if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
            for p in pairs
        ):
            self.fail(f"{_TAGS} is not a JSON list of [key, value] pairs", prop.value_pos[0])
        return [(key, value) for key, value in pairs]

    def match_info(self, prop: _Prop, root: _Root, first: bool, header: _Header) -> None:
        for raw, pos in zip(prop.values, prop.value_pos, strict=True):
            key, colon, value = _unescape(raw).partition(":")
            key = key.strip().lower()
            if not colon or key not in ("length", "game", "ws", "bs"):
                continue  # unknown tags are ignored, as the spec asks
            number = self.number(value, pos + len(key) + 1, f"MI {key}")
            if key == "length":
                if first:
                    header.length = number
            elif key == "game":
                root.game = number
            elif key == "ws":
                root.score[0] = number
            else:
                root.score[1] = number

    def result(self, prop: _Prop, root: _Root) -> bool:
        m = _RESULT.fullmatch(prop.text().strip())
        if m is None:
            return False  # "?", "Void", "0": no winner; kept as an annotation
        winner = 0 if m[1].upper() == "W" else 1
        line, column = self.line_col(prop.pos)
        root.result = Result(winner, int(m[2]), line=line, column=column)
        return True

    def rules(self, prop: _Prop, first: bool, header: _Header) -> None:
        if not first:
            return  # the rules are the match's; CrawfordGame follows from the score
        names = set(prop.text().split(":"))
        header.crawford = "Crawford" in names
        header.jacoby = "Jacoby" in names
        header.beaver = "Beaver" in names
        header.no_cube = "NoCube" in names
        for name, (variant, tag) in _VARIATION_RULES.items():
            if name in names:
                header.variant, header.variation_tag = variant, tag

    def cube_value(self, prop: _Prop) -> int:
        value = self.number(prop.text(), prop.value_pos[0], f"{prop.ident} (the cube value)")
        if value < 1 or value & (value - 1):
            self.fail(f"a cube value is a power of 2, not {value}", prop.value_pos[0])
        return value

    # -- one game

    def game(self, tree: _GameTree, index: int, header: _Header, games: list[Game]) -> Game:
        root_node = tree.nodes[0]
        assert isinstance(root_node, _Node)  # (a run never starts a tree)
        root = self.root(root_node, index == 0, header)
        state = _GameState(self, header, root, index + 1)
        # the main line: the first sub-tree continues it, the others are variations
        sequence: list[tuple[_Node | _Run, list[_GameTree]]] = []
        current: _GameTree | None = tree
        while current is not None:
            nodes = current.nodes
            for k, node in enumerate(nodes):
                last = k == len(nodes) - 1
                sequence.append((node, current.children[1:] if last else []))
            current = current.children[0] if current.children else None
        for k, (node, variations) in enumerate(sequence):
            if isinstance(node, _Run):
                if not state.run(node):
                    break
            elif k and not state.node_or_fault(node):
                break
            if variations:
                state.keep(_VARIATION, *(_tree_sgf(v, self.source) for v in variations))
        number = index + 1 if root.game is None else root.game + 1
        if root.score_given:
            score = (root.score[0], root.score[1])
        elif games:
            score = _score_after(games[-1])
        else:
            score = (0, 0)
        setup = state.setup_text()
        result = root.result
        if result is not None and root.match_won:
            result = replace(result, match_won=True)
        annotations = list(root.annotations)
        if not state.actions and state.turn is not None and setup is not None:
            # who is on roll, where the writer would not say it (the last PL, else W)
            said = next((v[0] for k, v in reversed(annotations) if k == "PL" and v), "W")
            if said.upper() != "WB"[state.turn]:
                annotations.append(("PL", ("WB"[state.turn],)))
        annotations.extend(state.game_extra)
        line, column = self.line_col(tree.pos)  # (where its "(" stands)
        return Game(
            number,
            score,
            tuple(state.actions),
            result,
            setup,
            line=line,
            column=column,
            annotations=tuple(annotations),
        )


def _with_money_beaver(
    tags: list[tuple[str, str]], length: int, games: Sequence[Game]
) -> list[tuple[str, str]]:
    """``tags`` with ``Beaver "On"`` added for a money record that holds a beaver but says
    nothing of the rule (what the reader makes of such a record's header)."""
    beavered = any(isinstance(a, Beaver) for g in games for a in g.actions)
    if length == 0 and beavered and ("Beaver", "On") not in tags:
        return [*tags, ("Beaver", "On")]
    return tags


def _score_after(game: Game) -> tuple[int, int]:
    score = list(game.score)
    if game.result is not None and game.result.winner in (0, 1):
        score[game.result.winner] += game.result.points
    return (score[0], score[1])


@dataclass(slots=True)
class _Header:
    """What the roots say about the whole match."""

    players: tuple[str, str] = ("", "")
    named: list[bool] = field(default_factory=lambda: [False, False])
    length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    no_cube: bool = False
    variant: str = "standard"
    variation_tag: str | None = None
    text_props: dict[str, str | None] = field(
        default_factory=lambda: {p: None for p, _ in (*_TAG_PROPS, _TRANSCRIBER)}
    )
    comments: tuple[str, ...] = ()
    annotations: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    kept_tags: list[tuple[str, str]] | None = None
    """bgkit's ``BT``: every tag, when the record has it."""
    by_gnubg: bool = False
    """Written by GNU Backgammon (``AP``), which states the Jacoby rule of a money
    session in ``RU`` when it is in use: without it, the session was played without."""

    def tags(self) -> list[tuple[str, str]]:
        tags: list[tuple[str, str]] = []
        for prop, key in (*_TAG_PROPS, _TRANSCRIBER):
            value = self.text_props[prop]
            if value is None:
                continue
            if prop == "DT":
                m = _SGF_DATE.fullmatch(value.strip())
                if m is not None:
                    value = f"{m[1]}.{int(m[2]):02d}.{int(m[3]):02d}"
            tags.append((key, value))
        if self.length and not self.crawford:
            tags.append(("Crawford", "Off"))
        if self.jacoby:
            tags.append(("Jacoby", "On"))
        elif not self.length and self.by_gnubg:
            tags.append(("Jacoby", "Off"))
        if self.beaver:
            tags.append(("Beaver", "On"))
        if self.variation_tag is not None:
            tags.append(("Variation", self.variation_tag))
        if self.no_cube:
            tags.append(("CubeLimit", "1"))
        return tags


@dataclass(slots=True)
class _Root:
    """What one root node says about its game."""

    game: int | None = None
    score: list[int] = field(default_factory=lambda: [0, 0])
    result: Result | None = None
    cube: int = 1
    annotations: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    match_won: bool = False
    """bgkit's ``BE[1]``: the record said ``and the match``."""

    @property
    def score_given(self) -> bool:
        return self.game is not None or self.score != [0, 0]


class _GameState:
    """The nodes of one game's main line, turned into actions one by one."""

    def __init__(self, reader: _Reader, header: _Header, root: _Root, number: int) -> None:
        self.reader = reader
        self.number = number  # the game's ordinal in the record
        self.most = reader.limits.max_game_actions
        self.variant = header.variant
        self.actions: list[Action] = []
        self.game_extra: list[tuple[str, tuple[str, ...]]] = []
        self.turn: int | None = None
        self.cube = root.cube
        self.pending: _Pending | None = None
        # set-up, allowed until the first real action (a play or a cube action)
        self.in_setup = True
        self.board = Board.start(self.variant, None)
        self.lost = False  # a node of the game could not be read
        self.setup_board: Board | None = None
        self.setup_cube: int | None = None
        self.setup_owner: int | None = None
        self.setup_seen = False
        self.setup_pos = 0

    def count(self, pos: int) -> None:
        """Refuse the action at ``pos`` about to be added past ``max_game_actions``.

        :raises LimitError: naming ``max_game_actions``, at ``pos``.
        """
        if len(self.actions) >= self.most:
            reader = self.reader
            count = len(self.actions) + 1
            source, name = reader.source, reader.source_name
            check_game_actions(count, self.number, source, pos, name, reader.limits)

    # -- where things that are not actions go

    def keep(self, key: str, *values: str) -> None:
        """Keep ``key`` on the last action, or on the game before the first one."""
        if not self.actions:
            self.game_extra.append((key, values))
            return
        last = self.actions[-1]
        self.actions[-1] = replace(last, annotations=(*last.annotations, (key, values)))

    # -- nodes

    def node_or_fault(self, node: _Node) -> bool:
        """:meth:`node`, where a node that cannot be read costs that node only (a fault);
        ``False`` when the game is not read further (too many faults)."""
        reader = self.reader
        try:
            self.node(node)
        except LimitError:
            raise
        except NotationError as err:
            if reader.strict:
                raise
            reader.faults.append(ReadError(err.line, err.column, err.msg))
            self.lost = True
            if reader.too_many():
                return False
        return True

    def run(self, run: _Run) -> bool:
        """:meth:`node_or_fault` for each node of ``run``: a plain move (most nodes) is
        read here at once, anything else by the general code. The moves' lines and
        columns are counted along the run, from the reader's last place."""
        reader = self.reader
        source = reader.source
        plain_moves = reader.plain_moves
        append = self.actions.append
        sides = self.board.sides
        set_player, set_dice, set_play, set_line, set_column, set_number, set_notes = _MOVE_SLOTS
        # (the place of the run's first node, from the reader's cursor)
        line, column = reader.line_col(run.start)
        line_start = run.start - column + 1
        lost, pending = self.lost, self.pending is not None
        player = -1  # the player of the last move read here, not yet said to the state
        for m in _run_nodes(source, run.start, run.end):
            blanks, text = m.groups()
            if blanks == "\n":  # (one node a line: most records)
                line += 1
                column = 2
                line_start = m.start(2) - 1
            else:
                if blanks:
                    ends = blanks.count("\n")
                    if ends:
                        line += ends
                        line_start = m.start(1) + blanks.rfind("\n") + 1
                column = m.start(2) - line_start + 1
            entry = plain_moves.get(text)
            if entry is None and text not in plain_moves:
                entry = plain_moves[text] = _plain_entry(text)
            if entry is None or lost:
                if player >= 0:
                    self.in_setup, self.turn, player = False, 1 - player, -1
                at = m.start(2)
                reader._cursor = (at, line, line_start)
                ident = text[: text.index("[")]
                value = text[len(ident) + 1 : -1]
                prop = _Prop(ident, [value], at, [at + len(ident) + 1])
                node = _Node([prop], at)
                cube = None if lost else _CUBE_NODES.get(text)
                if cube is not None:  # (what node() makes of it, without the steps there)
                    self.cube_action(node, prop, *cube)
                elif not self.node_or_fault(node):
                    return False
                at = m.end()
                line, column = reader.line_col(at)
                line_start = at - column + 1
                sides = self.board.sides  # (a set-up node gives the game a new board)
                lost, pending = self.lost, self.pending is not None
                continue
            player, dice, letters, hops, plays = entry
            if pending:
                self.close_exchange()
                pending = False
            me, opp = sides[player], sides[1 - player]
            hits = 0
            for src, dst, landing, bit in hops:
                if landing >= 0 and opp[landing] == 1:
                    opp[landing] = 0
                    opp[BAR] += 1
                    hits |= bit
                if me[src] > 0:
                    me[src] -= 1
                me[dst] += 1
            play = plays.get(hits)
            if play is None:
                play = plays[hits] = _marked_play(letters, player, hits)
            move = _NEW(Move)
            set_player(move, player)
            set_dice(move, dice)
            set_play(move, play)
            set_line(move, line)
            set_column(move, column)
            set_number(move, 0)
            set_notes(move, ())
            if len(self.actions) >= self.most:
                self.count(m.start(2))
            append(move)
        if player >= 0:
            self.in_setup, self.turn = False, 1 - player
        reader._cursor = (m.end(), line, line_start)  # (the end of the run's last node)
        return True

    def node(self, node: _Node) -> None:
        props = node.props
        if len(props) == 1 and props[0].ident in ("B", "W"):  # (most nodes)
            prop = props[0]
            plain = None if self.lost else _PLAIN_MOVE.fullmatch(prop.values[0])
            if plain is None or not self.plain_move(prop, plain):
                self.action(node, prop)
            return
        move = next((p for p in props if p.ident in ("B", "W")), None)
        if move is not None:
            self.action(node, move)
            return
        dice = next((p for p in node.props if p.ident == "DI"), None)
        if dice is not None:
            self.set_dice(node, dice)
            return
        if self.in_setup and any(p.ident in _SETUP_PROPS for p in node.props):
            others = [p for p in node.props if p.ident not in _SETUP_PROPS]
            for prop in node.props:
                if prop.ident in _SETUP_PROPS:
                    self.setup(prop)
            if others:  # a comment or analysis beside the set-up stays in a node of its own
                self.keep(_NODE, _Node(others, others[0].pos).sgf())
            return
        self.keep(_NODE, node.sgf())

    def annotations(self, node: _Node, used: _Prop, *also: str, move: bool = True) -> Annotations:
        if len(node.props) == 1:  # (the action's own property alone: most nodes)
            return ()
        kept = [p for p in node.props if p is not used and p.ident not in also]
        notes = tuple((p.ident, _values(p)) for p in kept)
        if any(p.ident in ANALYSIS_KEYS for p in kept):
            self.analysis_fault(kept, notes, move)
        return notes

    def analysis_fault(self, kept: list[_Prop], notes: Annotations, move: bool) -> None:
        """A fault, at its property, for the analysis beside an action (gnubg's ``A``,
        ``DA`` or ``LU``, bgkit's ``BK``) that cannot be read: not part of the record (the
        action is read), a note of the verifier's; ``analyze`` reads the action without it."""
        fault = annotation_fault(notes, move)
        if fault is None:
            return
        prop = next(p for p in kept if p.ident == fault[0])
        line, column = self.reader.line_col(prop.pos)
        self.reader.faults.append(ReadError(line, column, fault[1], record=False, analysis=True))

    def where(self, prop: _Prop) -> dict[str, int]:
        line, column = self.reader.line_col(prop.pos)
        return {"line": line, "column": column}

    def action(self, node: _Node, prop: _Prop) -> None:
        player = 1 if prop.ident == "B" else 0
        value = prop.text().strip()
        word = value.lower()
        if word in ("double", "take", "drop"):
            self.cube_action(node, prop, player, word)
            return
        if word.startswith(_GIBBON_WORDS):  # Gibbon's resign:N, accept, reject
            self.keep(_NODE, node.sgf())
            return
        dice, steps = self.move_value(prop, player)
        self.close_exchange()
        self.in_setup = False
        # (after a node that could not be read the checkers are not known: no hit marks)
        marked = steps if self.lost else self.board.play(player, steps)
        props = node.props
        written = None if len(props) == 1 else next((p for p in props if p.ident == _PLAY), None)
        self.count(prop.pos)
        self.actions.append(
            Move(
                player,
                dice,
                shared_play(tuple(marked)) if written is None else self.written_play(written),
                **self.where(prop),
                annotations=self.annotations(node, prop, _PLAY),
            )
        )
        self.turn = 1 - player

    def plain_move(self, prop: _Prop, plain: re.Match[str]) -> bool:
        """:meth:`action` for a move node of that property alone, written plainly (dice
        and letter pairs, :data:`_PLAIN_MOVE`), as nearly every node is; ``False`` when the
        letters are no steps (:meth:`action` says why)."""
        player = 1 if prop.ident == "B" else 0
        steps = _letter_steps(plain[3], player)
        if steps is None:
            return False
        if self.pending is not None:
            self.close_exchange()
        self.in_setup = False
        play = _marked_play(plain[3], player, self.board.play_hits(player, steps))
        dice = shared_dice(int(plain[1]), int(plain[2]))
        self.count(prop.pos)
        line, column = self.reader.line_col(prop.pos)
        self.actions.append(new_move(player, dice, play, line, column, 0))
        self.turn = 1 - player
        return True

    def written_play(self, prop: _Prop) -> Play:
        """bgkit's ``BP``: the play's steps as the record wrote them."""
        steps = []
        for word in prop.text().split():
            m = _WRITTEN_STEP.fullmatch(word)
            if m is None or not 0 <= int(m[2]) < int(m[1]) <= 25:
                self.fail_at(
                    f"{_PLAY} holds steps such as 24/18*, not {word[:20]!r}", prop.value_pos[0]
                )
            steps.append(Step(int(m[1]), int(m[2]), bool(m[3])))
        return Play(steps)

    def move_value(self, prop: _Prop, player: int) -> tuple[tuple[int, int], list[Step]]:
        raw = prop.values[0]
        text = prop.text()
        start = prop.value_pos[0] + (len(raw) - len(raw.lstrip()))
        value = text.strip()
        if len(value) < 2 or not all(c in "123456" for c in value[:2]):
            what = "a cube action" if value.isalpha() else "two dice 1-6"
            self.fail_at(f"a move starts with {what}, not {value[:12]!r}", start)
        dice = shared_dice(int(value[0]), int(value[1]))
        letters = value[2:]
        if len(letters) % 2:
            self.fail_at(
                f"a move needs a from/to letter pair per die: {letters!r} has an odd length",
                start + 2,
            )
        if len(letters) > 8:
            self.fail_at("a move has at most four letter pairs", start + 10)
        known = _letter_steps(letters, player)
        if known is not None:
            return dice, list(known)
        steps: list[Step] = []  # (a fault: found and placed here)
        for k in range(0, len(letters), 2):
            a, b = letters[k], letters[k + 1]
            for j, ch in enumerate((a, b)):
                if not ("a" <= ch <= "z"):
                    self.fail_at(
                        f"{ch!r} is no point letter (a-x, y for the bar, z off)", start + 2 + k + j
                    )
            # (a step away from home, from off or to the bar is kept as written: the
            # verifier reports it as the player's illegal play)
            steps.append(Step(_point(a, player), _point(b, player)))
        return dice, steps

    def fail_at(self, msg: str, pos: int) -> NoReturn:
        self.reader.fail(msg, pos)

    def cube_action(self, node: _Node, prop: _Prop, player: int, word: str) -> None:
        notes = self.annotations(node, prop, move=False)
        where = self.where(prop)
        pending = self.pending
        action: Action
        if word == "double":
            self.in_setup = False
            if pending is not None and player != pending.doubler:
                value = pending.value * 2
                kind = Beaver if pending.redoubles == 0 else Raccoon
                action = kind(player, value, **where, annotations=notes)
                self.pending = _Pending(player, value, pending.redoubles + 1)
            else:
                self.close_exchange()
                value = self.cube * 2
                action = Double(player, value, **where, annotations=notes)
                self.pending = _Pending(player, value, 0)
        elif word == "take":
            if pending is not None and pending.redoubles:
                # the answer to a beaver or raccoon is implicit in the record
                self.cube, self.pending = pending.value, None
                if node.sgf() != f";{'WB'[player]}[take]":  # (the writer writes that one)
                    self.keep(_TAKE, node.sgf())
                return
            if pending is not None:
                self.cube = pending.value
            self.pending = None
            action = Take(player, **where, annotations=notes)
        else:
            self.pending = None
            action = Drop(player, **where, annotations=notes)
        self.in_setup = False
        self.count(prop.pos)
        self.actions.append(action)
        self.turn = player if word == "double" else 1 - player

    def close_exchange(self) -> None:
        if self.pending is not None and self.pending.redoubles:
            self.cube = self.pending.value  # the beaver was taken without a node
        self.pending = None

    def set_dice(self, node: _Node, prop: _Prop) -> None:
        text = prop.text().strip()
        if len(text) != 2 or not all(c in "123456" for c in text):
            self.fail_at(f"DI needs two dice 1-6, not {text[:12]!r}", prop.value_pos[0])
        pl = next((p for p in node.props if p.ident == "PL"), None)
        player = self.player_of(pl) if pl is not None else self.turn
        if player is None:
            player = 0
        self.close_exchange()
        self.count(prop.pos)
        self.actions.append(
            Move(
                player,
                (int(text[0]), int(text[1])),
                None,
                **self.where(prop),
                annotations=self.annotations(node, prop, "PL"),
            )
        )
        self.turn = 1 - player

    def player_of(self, prop: _Prop) -> int:
        text = prop.text().strip().upper()
        if text not in ("W", "B"):
            self.fail_at(f"PL is W or B, not {prop.text()[:12]!r}", prop.value_pos[0])
        return 0 if text == "W" else 1

    # -- set-up

    def setup(self, prop: _Prop) -> None:
        ident = prop.ident
        if not self.setup_seen:
            self.setup_pos = prop.pos
        if ident == "PL":
            self.turn = self.player_of(prop)
            return
        if ident == "CV":
            self.setup_cube = self.cube = self.reader.cube_value(prop)
            self.setup_seen = True
            return
        if ident in ("CP", "CO"):
            text = prop.text().strip().lower()
            if text not in ("c", "w", "b", "n"):
                self.fail_at(
                    f"{ident} is c (centred), w or b, not {prop.text()[:12]!r}", prop.value_pos[0]
                )
            self.setup_owner = {"w": 0, "b": 1}.get(text)
            self.setup_seen = True
            return
        board = self.setup_board or self.board.copy()
        for raw, pos in zip(prop.values, prop.value_pos, strict=True):
            for letter in self.letters(_unescape(raw), pos):
                if ident == "AE":
                    board.sides[0][_point(letter, 0)] = 0
                    board.sides[1][_point(letter, 1)] = 0
                else:
                    player = 0 if ident == "AW" else 1
                    board.sides[player][_point(letter, player)] += 1
        for side in board.sides:
            side[0] = max(0, board.checkers - sum(side[1:]))
        self.setup_board = board
        self.board = board.copy()
        self.setup_seen = True

    def letters(self, text: str, pos: int) -> list[str]:
        """The point letters of an AE/AB/AW value: ``f`` or a range ``a:y``."""
        value = text.strip()
        first, colon, last = value.partition(":")
        if not colon:
            first = last = value
        if not (len(first) == len(last) == 1 and "a" <= first <= last <= "y"):
            self.fail_at(f"a point is a letter a-y (or a range 'a:y'), not {text[:12]!r}", pos)
        return [chr(c) for c in range(ord(first), ord(last) + 1)]

    def setup_text(self) -> str | None:
        if not self.setup_seen:
            return None
        board = self.setup_board or Board.start(self.variant, None)
        try:
            return board.set_pos(self.setup_cube or 1, self.setup_owner)
        except ValueError as err:
            self.reader.fail(f"the set-up position cannot be recorded: {err}", self.setup_pos)


def _run_nodes(source: str, start: int, end: int) -> Iterator[re.Match[str]]:
    """The nodes of a run (:data:`_RUN_NODE`), each where the one before ends, up to the
    blanks after the last: ``finditer`` would try those from each of them, in time
    quadratic in a long run of blanks (30,000: 4.2 s)."""
    match = _RUN_NODE.match
    found = match(source, start, end)
    while found is not None:
        yield found
        found = match(source, found.end(), end)


def _values(prop: _Prop) -> tuple[str, ...]:
    return tuple(_unescape(v) for v in prop.values)


def _name(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


# ---------------------------------------------------------------------------- writing


def dumps_sgf(match: Match) -> str:
    """The match as SGF text, written as GNU Backgammon's ``save match`` writes it.

    One game tree per game: the root with ``FF``, ``GM``, ``CA``, ``AP``, ``MI``, the
    names, in the first game the match header (``WR``/``BR`` and the other match
    annotations, ``DT``, ``EV``, ``RO``, ``PC``, ``AN`` from the tags, ``GC`` from the
    comments), ``RU``, ``RE`` and the game's annotations (gnubg's ``GS`` statistics...);
    then the set-up nodes of a game that starts from a position (``PL``/``AE``/``AW``/``AB``,
    ``CV``, ``CP``) and one node per action, each on its own line, with its annotations
    after it. ``RE`` ends in ``R`` when the game is neither borne off nor dropped (a
    resignation).

    Plays are written one letter pair per die, never with hit marks: a play written that
    way (``8/5 6/5``, in any order a checker can follow) keeps its order; a compact one
    (``24/14*``, ``13/11(4)`` is already per die) is resolved against the position by the
    rules engine; where the letters do not give the written play back, bgkit's ``BP``
    holds it. So a ``.mat`` record read back from SGF is equal to it. A beaver is written
    as gnubg writes it: the beaverer's ``double``, then the original doubler's ``take``
    before his next roll.

    >>> from bgkit.formats.mat import parse_mat
    >>> m = parse_mat(" 1 point match\\n Game 1\\n A : 0   B : 0\\n  1) 31: 8/5 6/5  64: 24/14*\\n")
    >>> print(dumps_sgf(m), end="")  # doctest: +ELLIPSIS
    (;FF[4]GM[6]CA[UTF-8]AP[bgkit:...]MI[length:1][game:0][ws:0][bs:0]PW[A]PB[B]RU[Crawford]
    ;W[31hefe]
    ;B[64aggk]BP[24/14*])

    :raises ValueError: when the match holds what SGF cannot: no game, a player other
        than 0 and 1, dice outside 1-6, a step that is not from 25..1 to a lower point, a
        compact play that the position cannot resolve, a negative number, or an
        annotation key that is not an SGF property name.
    """
    if not match.games:
        raise ValueError("SGF holds a match as its game trees: a match without a game has none")
    first = _GameWriter(match, 0).text()
    if match.tags and _tags_back(first, match) != list(match.tags):
        first = _GameWriter(match, 0, keep_tags=True).text()  # keep them all in BT
    return first + "".join(_GameWriter(match, i).text() for i in range(1, len(match.games)))


def _tags_back(first: str, match: Match) -> list[tuple[str, str]]:
    """The tags the reader finds for ``match`` written as SGF whose first game tree is
    ``first`` (the header is the first root's: no need to read the other games)."""
    return _with_money_beaver(list(parse_sgf(first).tags), match.length, match.games)


def write_sgf(match: Match, path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Write :func:`dumps_sgf` output to ``path`` (UTF-8, LF line ends), atomically.

    :param force: overwrite ``path`` when it exists.
    :raises FileExistsError: when ``path`` exists and ``force`` is false.
    :raises ValueError: as :func:`dumps_sgf`.
    """
    write_atomic(path, dumps_sgf(match).encode("utf-8"), force=force)


_SET_POS = re.compile(r"(?P<board>[-A-Pa-p]{26})/(?P<cube>-?[0-9]{1,2})")


def _check_key(key: str) -> None:
    if not _IDENT.fullmatch(key):
        raise ValueError(f"an SGF property name is upper-case letters, not {key!r}")


def _properties(annotations: Annotations, skip: Sequence[str] = ()) -> str:
    out: list[str] = []
    for key, values in annotations:
        if key in _SGF_KEYS or key in skip:
            continue
        _check_key(key)
        out.append(key + ("".join(f"[{_escape(v)}]" for v in values) or "[]"))
    return "".join(out)


def _verbatim(annotations: Annotations, key: str) -> list[str]:
    """The SGF texts kept under ``key``, checked to be one node (one game tree for variations)."""
    from lark import Tree, UnexpectedInput

    from bgkit._grammars import parser

    texts = [v for k, values in annotations if k == key for v in values]
    what = "game tree" if key == _VARIATION else "node"
    for text in texts:
        try:
            tree = parser("sgf").parse(text if key == _VARIATION else f"({text})")
        except UnexpectedInput:
            raise ValueError(f"{key} is not one SGF {what}: {text[:40]!r}") from None
        trees = [t for t in tree.children if isinstance(t, Tree)]
        nodes = [n for n in trees[0].children if isinstance(n, Tree)] if len(trees) == 1 else []
        if len(trees) != 1 or (key != _VARIATION and len(nodes) != 1):
            raise ValueError(f"{key} is not one SGF {what}: {text[:40]!r}")
    return texts


class _GameWriter:
    """Writes one game tree."""

    def __init__(self, match: Match, index: int, *, keep_tags: bool = False) -> None:
        self.match = match
        self.index = index
        self.keep_tags = keep_tags
        self.game = game = match.games[index]
        # follow the checkers: the steps to write, and how the game ended
        found = game_steps(match, game, lambda reason: self.fail(f"SGF {reason}"))
        self.steps, self.written, self.board = found.steps, found.written, found.board

    def fail(self, msg: str) -> NoReturn:
        raise ValueError(f"game {self.game.number}: {msg}")

    def text(self) -> str:
        game = self.game
        first = game.actions[0].player if game.actions else None
        pl = None  # a position to set up with nobody to act: PL says who is on roll
        if game.setup is not None and first is None:
            # the reader adds the set-up's PL after any in the root: the last one says it
            pl = next((v[0] for k, v in reversed(game.annotations) if k == "PL" and v), "W")
        out = [self.root(skip=("PL",) if pl is not None else ())]
        # (node text, variations after it); variations on the game follow the root part
        items: list[tuple[str, list[str]]] = []
        if game.setup is not None:
            setup_pl = pl if first is None else "WB"[first]
            items.extend((node, []) for node in self.setup_nodes(game.setup, setup_pl or "W"))
        items.extend((node, []) for node in _verbatim(game.annotations, _NODE))
        root_variations = _verbatim(game.annotations, _VARIATION)
        if root_variations and items:
            items[-1][1].extend(root_variations)
            root_variations = []
        actions = game.actions
        for k, action in enumerate(actions):
            items.append((self.action_node(k, action), []))
            if isinstance(action, (Beaver, Raccoon)):
                take = self.implicit_take(action, actions[k + 1] if k + 1 < len(actions) else None)
                if take is not None:
                    items.append((take, []))
            items.extend((node, []) for node in _verbatim(action.annotations, _NODE))
            items[-1][1].extend(_verbatim(action.annotations, _VARIATION))
        # a branch: "(" the rest of the main line ")" then the variations
        closers: list[str] = []
        empty = False
        if root_variations:
            out.append("\n(")
            closers.append(")" + "".join(root_variations))
            empty = True
        for text, variations in items:
            out.append("\n" + text)
            empty = False
            if variations:
                out.append("\n(")
                closers.append(")" + "".join(variations))
                empty = True
        if empty:
            out.append(";")  # a main line cannot be empty: keep an empty node
        out.extend(reversed(closers))
        out.append(")\n")
        return "".join(out)

    # -- the root

    def root(self, *, skip: Sequence[str]) -> str:
        from bgkit import __version__

        m, game = self.match, self.game
        if any(n < 0 for n in (m.length, game.number, *game.score)):
            self.fail("SGF cannot hold negative numbers")
        out = [
            f"(;FF[4]GM[6]CA[UTF-8]AP[bgkit:{__version__}]",
            f"MI[length:{m.length}][game:{max(game.number - 1, 0)}]"
            f"[ws:{game.score[0]}][bs:{game.score[1]}]",
            f"PW[{_simple_text(m.players[0])}]PB[{_simple_text(m.players[1])}]",
        ]
        if self.index == 0:
            out.append(_properties(m.annotations))
            date = m.tag("EventDate")
            if date is not None:
                d = _MAT_DATE.fullmatch(date.strip())
                if d is not None:
                    date = f"{d[1]}-{int(d[2]):02d}-{int(d[3]):02d}"
                out.append(f"DT[{_escape(date)}]")
            for prop, key in (("EV", "Event"), ("RO", "Round"), ("PC", "Site"), _TRANSCRIBER):
                value = m.tag(key)
                if value is not None:
                    out.append(f"{prop}[{_escape(value)}]")
            if m.comments:
                out.append(f"GC[{_escape(chr(10).join(m.comments))}]")
            if self.keep_tags:
                tags = json.dumps([list(tag) for tag in m.tags], ensure_ascii=False)
                out.append(f"{_TAGS}[{_escape(tags)}]")
        rules = self.rules()
        if rules:
            out.append(f"RU[{':'.join(rules)}]")
        out.append(self.result())
        out.append(_properties(game.annotations, skip))
        return "".join(out)

    def rules(self) -> list[str]:
        m = self.match
        rules = []
        if m.cube_limit == 1:
            rules.append("NoCube")
        if m.crawford:
            rules.append("Crawford")
            if self.index == m.crawford_game():
                rules.append("CrawfordGame")
        if (m.tag("Jacoby") or "").strip().lower() == "on":
            rules.append("Jacoby")
        rules.extend(name for name, (v, _) in _VARIATION_RULES.items() if v == m.variant)
        if (m.tag("Beaver") or "").strip().lower() == "on":
            rules.append("Beaver")
        return rules

    def result(self) -> str:
        result = self.game.result
        if result is None:
            return ""
        if result.winner not in (0, 1) or result.points < 0:
            self.fail(f"SGF cannot hold the result {result!r}")
        # a game that was neither dropped nor borne off ended in a resignation
        dropped = any(isinstance(a, Drop) for a in self.game.actions)
        borne_off = self.board.sides[result.winner][OFF] >= self.board.checkers
        resigned = "" if dropped or borne_off else "R"
        said = f"{_MATCH_WON}[1]" if result.match_won else ""
        return f"RE[{'WB'[result.winner]}+{result.points}{resigned}]{said}"

    def setup_nodes(self, setup: str, pl: str) -> list[str]:
        m = _SET_POS.fullmatch(setup.strip())
        if m is None:
            self.fail(f"not a set-up position: {setup!r}")
        exponent = int(m["cube"])
        if abs(exponent) > 12:
            self.fail(f"the cube 2**{abs(exponent)} is too large")
        side0, side1 = set_pos_sides(m["board"])
        white = "".join(f"[{_letter(p, 0)}]" * side0[p] for p in range(1, 26))
        black = "".join(f"[{_letter(p, 1)}]" * side1[p] for p in range(1, 26))
        owner = "c" if exponent == 0 else "w" if exponent < 0 else "b"
        return [
            f";PL[{pl}]AE[a:y]" + (f"AW{white}" if white else "") + (f"AB{black}" if black else ""),
            f";CV[{2 ** abs(exponent)}]",
            f";CP[{owner}]",
        ]

    # -- actions

    def action_node(self, k: int, action: Action) -> str:
        if action.player not in (0, 1):
            self.fail(f"no player {action.player}: {action!r}")
        colour = "WB"[action.player]
        notes = _properties(action.annotations)
        if isinstance(action, Move):
            if action.play is None:
                return f";PL[{colour}]DI[{action.dice[0]}{action.dice[1]}]{notes}"
            letters = "".join(
                _letter(s.src, action.player) + _letter(s.dst, action.player) for s in self.steps[k]
            )
            written = f"{_PLAY}[{self.written[k]}]" if k in self.written else ""
            return f";{colour}[{action.dice[0]}{action.dice[1]}{letters}]{written}{notes}"
        if isinstance(action, (Double, Beaver, Raccoon)):
            if action.value < 0:
                self.fail(f"SGF cannot hold {action!r}")
            return f";{colour}[double]{notes}"
        if isinstance(action, Take):
            return f";{colour}[take]{notes}"
        return f";{colour}[drop]{notes}"

    def implicit_take(self, action: Beaver | Raccoon, after: Action | None) -> str | None:
        """The ``take`` node that answers a beaver or raccoon, when the record goes on."""
        if after is None or isinstance(after, (Drop, Beaver, Raccoon)):
            return None
        kept = _verbatim(action.annotations, _TAKE)
        return kept[0] if kept else f";{'WB'[1 - action.player]}[take]"
