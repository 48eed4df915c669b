"""GNU Backgammon's Position ID (14 characters) and Match ID (12 characters).

Both are Base64 renderings of a little-endian bit string (``specs/position-ids.md``
§1-2; GNU Backgammon's ``positionid.c`` and ``matchid.c``):

* the **Position ID** packs 80 bits: for the player *not* on roll and then for the
  player on roll, each of its points 1..24 and its bar as that many 1-bits followed by
  a 0-bit. Borne-off checkers are not stored: they are 15 minus the checkers on the
  board, so an ID with no checkers at all decodes to both sides borne off.
* the **Match ID** packs 72 bits of match state (cube, player on roll, dice, score,
  ...), described field by field by :class:`MatchState`.

How the fields map to :class:`~bgkit.position.Position`:

* gnubg's players 0 and 1 are bgkit's players 0 and 1; ``fMove`` (bit 6, the player on
  roll) is :attr:`Position.turn`, and the Position ID is written from that player's side.
* ``fTurn`` (bit 11, the player who must act) is the other player while a double or a
  resignation is pending, else the player on roll. A Match ID where the two differ
  without a pending double or resignation is rejected.
* gnubg writes the larger die first, so a Match ID does not keep the order of the
  dice: decoding gives them as stored.
* bit 66 is gnubg's "Jacoby rule *not* in use". It is read only in money play; in match
  play it is ignored and written as 1, as current gnubg does. The Match ID has no
  beaver bit and no cube limit, so those fields keep their defaults.

Reading is stricter than gnubg's, so that every ID bgkit accepts is one gnubg would write
(apart from the order of the dice and bits 66-71 of a Match ID): a 1-bit after the 50th
separator, set padding bits in the last character, one die without the other, a double
with dice, and a score that reaches the match length while the game is still on are all
rejected. A cube-owner code of 2 reads as centred, as in gnubg.

>>> pos = parse_gnubg_id("4HPwATDgc/ABMA:cAkAAAAAAAAE")
>>> pos == Position.initial(turn=1)
True
>>> position_id(pos), match_id(pos)
('4HPwATDgc/ABMA', 'cAkAAAAAAAAE')
"""

from __future__ import annotations

import binascii
from dataclasses import dataclass
from typing import Any

from bgkit.errors import InvalidPositionError, NotationError
from bgkit.position import GameState, Position, Side

__all__ = [
    "MatchState",
    "gnubg_id",
    "match_id",
    "parse_gnubg_id",
    "parse_match_id",
    "parse_position_id",
    "position_id",
]

#: Base64 in RFC 2045 order, as GNU Backgammon uses it.
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
_POSITION_KEY_BITS = 80
_MATCH_KEY_BITS = 72

#: gnubg's ``MAXSCORE``: the longest match a Match ID may describe.
MAX_MATCH_LENGTH = 64

# ---------------------------------------------------------------------- Base64 <-> key


def _encode_key(key: int, nbits: int, nchars: int) -> str:
    """Base64 of the ``nbits``-bit little-endian ``key`` (bytes read MSB first), unpadded:
    the standard Base64 of its bytes, the padding cut off."""
    data = key.to_bytes(nbits // 8, "little")
    return binascii.b2a_base64(data, newline=False)[:nchars].decode("ascii")


def _stream_char(bit: int) -> int:
    """Index of the Base64 character that holds key bit ``bit``."""
    return (8 * (bit // 8) + 7 - bit % 8) // 6


def _decode_key(text: str, source: str, start: int, nbits: int, what: str) -> int:
    """The little-endian key of the Base64 ``text`` (found at ``source[start:]``).

    :raises NotationError: for a character outside the alphabet or set padding bits.
    """
    stream = 0
    for i, ch in enumerate(text):
        value = _VALUE.get(ch)
        if value is None:
            raise NotationError(
                f"{ch!r} is not a Base64 character ({what} character {i + 1})",
                source,
                start + i,
            )
        stream = stream << 6 | value
    pad = 6 * len(text) - nbits
    if stream & ((1 << pad) - 1):
        raise NotationError(
            f"the last character of a {what} holds only {6 - pad} bits; "
            f"{text[-1]!r} sets unused bits",
            source,
            start + len(text) - 1,
        )
    return int.from_bytes((stream >> pad).to_bytes(nbits // 8, "big"), "little")


# ---------------------------------------------------------------------- Position ID


def _key_of_sides(behind: Side, on_roll: Side) -> int:
    """gnubg's key: for each point 1-24 and the bar of each side in turn, a 1 bit per
    checker and a 0, from the lowest bit up (written out as bits, then read reversed)."""
    unary = _UNARY
    bits = [unary[n] if n < 16 else "1" * n + "0" for n in (*behind[1:26], *on_roll[1:26])]
    return int("".join(bits)[::-1], 2)


_UNARY = tuple("1" * n + "0" for n in range(16))
"""A point's bits in the key for each count a point can hold (more is spelt out)."""


def position_id(pos: Position) -> str:
    """The 14-character Position ID of ``pos``, from the side of the player on roll.

    >>> position_id(Position.initial())
    '4HPwATDgc/ABMA'
    """
    key = _key_of_sides(pos.board[pos.opponent], pos.board[pos.turn])
    return _encode_key(key, _POSITION_KEY_BITS, POSITION_ID_LENGTH)


def _sides_of_key(key: int, source: str, start: int, checkers: int) -> tuple[list[int], list[int]]:
    """(player not on roll, player on roll) as 25 counts each (points 1..24, bar)."""
    sides: tuple[list[int], list[int]] = ([0] * 25, [0] * 25)
    zeros = 0
    for bit in range(_POSITION_KEY_BITS):
        if key >> bit & 1:
            if zeros >= 50:
                raise NotationError(
                    "malformed Position ID: a checker (1-bit) after the 50th separator (0-bit)",
                    source,
                    start + _stream_char(bit),
                )
            sides[zeros // 25][zeros % 25] += 1
        else:
            zeros += 1
    for which, side in zip(("the player not on roll", "the player on roll"), sides, strict=True):
        if sum(side) > checkers:
            raise InvalidPositionError(
                f"impossible Position ID {source[start : start + POSITION_ID_LENGTH]!r}: "
                f"{which} has {sum(side)} checkers on the board (at most {checkers})"
            )
    return sides


def parse_position_id(text: str, *, checkers: int = 15) -> tuple[Side, Side]:
    """Decode a bare 14-character Position ID to ``(not on roll, on roll)`` sides.

    Each side is a 26-tuple as in :attr:`Position.board` (0 = borne off, 25 = bar);
    the borne-off count is ``checkers`` minus the checkers on the board.

    >>> behind, on_roll = parse_position_id("AACAAAAABAAAAA")
    >>> behind[24], on_roll[25], on_roll[0]
    (1, 1, 14)

    :raises NotationError: for a bad character, length or bit pattern.
    :raises InvalidPositionError: when a side has more than ``checkers`` checkers, both
        players are on one point or both are on the bar against closed boards.
    """
    body, start = _strip(text, "Position ID")
    if len(body) != POSITION_ID_LENGTH:
        raise NotationError(
            f"a Position ID has {POSITION_ID_LENGTH} characters, not {len(body)}", text, start
        )
    key = _decode_key(body, text, start, _POSITION_KEY_BITS, "Position ID")
    behind, on_roll = _sides_of_key(key, text, start, checkers)
    sides = ((checkers - sum(behind), *behind), (checkers - sum(on_roll), *on_roll))
    Position(sides, turn=1, checkers=checkers)  # checks the position
    return sides


# ---------------------------------------------------------------------- Match ID

# (name, first bit, width) of every Match ID field, as in matchid.c
_FIELDS: tuple[tuple[str, int, int], ...] = (
    ("cube", 0, 4),
    ("cube owner", 4, 2),
    ("player on roll", 6, 1),
    ("Crawford", 7, 1),
    ("game state", 8, 3),
    ("player to act", 11, 1),
    ("double", 12, 1),
    ("resignation", 13, 2),
    ("die 1", 15, 3),
    ("die 2", 18, 3),
    ("match length", 21, 15),
    ("score of player 0", 36, 15),
    ("score of player 1", 51, 15),
    ("no Jacoby", 66, 1),
)
_BIT = {name: (first, width) for name, first, width in _FIELDS}
_FIRST = tuple(first for _, first, _ in _FIELDS)
_LIMIT = tuple(1 << width for _, _, width in _FIELDS)


@dataclass(frozen=True, slots=True)
class MatchState:
    """The fields of a GNU Backgammon Match ID, with gnubg's meaning.

    >>> ms = MatchState.parse("QYkqASAAIAAA")  # the example in gnubg's manual
    >>> ms.cube, ms.cube_owner, ms.on_roll, ms.dice, ms.match_length, ms.score
    (2, 0, 1, (5, 2), 9, (2, 4))
    >>> MatchState.of(Position.initial(match_length=5).roll(4, 5)).match_id()
    'MIGyAAAAAAAE'
    """

    cube: int = 1
    """The cube value (a power of two, at most 2**15)."""
    cube_owner: int | None = None
    """The player who owns the cube, ``None`` when centred (bits 4-5)."""
    on_roll: int = 0
    """gnubg's ``fMove`` (bit 6): the player on roll, or the doubler during a double."""
    crawford: bool = False
    """This game is the Crawford game (bit 7)."""
    game_state: GameState = GameState.PLAYING
    """Bits 8-10."""
    to_act: int = 0
    """gnubg's ``fTurn`` (bit 11): the player who must act now."""
    doubled: bool = False
    """A double is offered (bit 12); ``to_act`` must take or drop."""
    resigned: int = 0
    """A resignation is offered (bits 13-14): 1 single, 2 gammon, 3 backgammon."""
    dice: tuple[int, int] = (0, 0)
    """The dice as stored (gnubg writes the larger first); ``(0, 0)`` before the roll."""
    match_length: int = 0
    """Points to win the match (bits 21-35); 0 for money play."""
    score: tuple[int, int] = (0, 0)
    """Scores of players 0 and 1 (bits 36-50 and 51-65)."""
    jacoby: bool = False
    """Bit 66 is clear: the Jacoby rule is in use (meaningful in money play only)."""

    @classmethod
    def of(cls, pos: Position) -> MatchState:
        """The Match ID fields of ``pos``.

        >>> MatchState.of(Position.initial(turn=1)).to_act
        1
        """
        return cls(*_fields_of(pos))

    @classmethod
    def parse(cls, text: str) -> MatchState:
        """Decode a 12-character Match ID (surrounding whitespace is ignored).

        >>> MatchState.parse("cBHgADAACAAE").doubled
        True

        :raises NotationError: naming the character or field that is wrong.
        """
        body, start = _strip(text, "Match ID")
        return _decode_match(body, text, start)

    def match_id(self) -> str:
        """The 12-character Match ID, written as gnubg writes it (larger die first).

        >>> MatchState(dice=(1, 3), on_roll=1, to_act=1, jacoby=True).match_id()
        'cIkFAAAAAAAA'

        :raises InvalidPositionError: when a value does not fit its field
            (a cube above 2**15, a score or length above 32767).
        """
        return _pack_match_id(
            self.cube,
            self.cube_owner,
            self.on_roll,
            self.crawford,
            self.game_state,
            self.to_act,
            self.doubled,
            self.resigned,
            self.dice,
            self.match_length,
            self.score,
            self.jacoby,
        )

    def __str__(self) -> str:
        return self.match_id()


def _decode_match(body: str, source: str, start: int) -> MatchState:
    if len(body) != MATCH_ID_LENGTH:
        raise NotationError(
            f"a Match ID has {MATCH_ID_LENGTH} characters, not {len(body)}", source, start
        )
    key = _decode_key(body, source, start, _MATCH_KEY_BITS, "Match ID")

    def field(name: str) -> int:
        first, width = _BIT[name]
        return key >> first & ((1 << width) - 1)

    def fail(name: str, msg: str) -> NotationError:
        return NotationError(
            f"bad Match ID field {name!r}: {msg}", source, start + _stream_char(_BIT[name][0])
        )

    owner_bits = field("cube owner")
    owner = owner_bits if owner_bits in (0, 1) else None
    state_value = field("game state")
    if state_value > max(GameState):
        raise fail("game state", f"{state_value} is not a game state (0-{max(GameState)})")
    state = GameState(state_value)
    d1, d2 = field("die 1"), field("die 2")
    for name, die in (("die 1", d1), ("die 2", d2)):
        if die > 6:
            raise fail(name, f"a die shows 1-6, not {die}")
    if (d1 == 0) != (d2 == 0):
        raise fail("die 2" if d2 == 0 else "die 1", f"dice {d1} and {d2}: both or neither")
    length = field("match length")
    if length > MAX_MATCH_LENGTH:
        raise fail("match length", f"{length} is longer than {MAX_MATCH_LENGTH} points")
    score = (field("score of player 0"), field("score of player 1"))
    if length:
        over = state in (GameState.OVER, GameState.RESIGNED, GameState.DROPPED)
        for player, points in enumerate(score):
            if points > length or (points == length and not over):
                raise fail(
                    f"score of player {player}",
                    f"{points} points in a {length}-point match that is still on",
                )
    crawford = bool(field("Crawford"))
    if crawford and not length:
        raise fail("Crawford", "the Crawford rule needs a match, not money play")
    on_roll, to_act = field("player on roll"), field("player to act")
    doubled, resigned = bool(field("double")), field("resignation")
    if doubled and resigned:
        raise fail("resignation", "a double and a resignation cannot both be pending")
    if doubled and d1:
        raise fail("double", f"a double is pending but the dice show {d1}{d2}")
    pending = doubled or resigned
    if pending and to_act == on_roll:
        what = "a double" if doubled else "a resignation"
        raise fail(
            "player to act",
            f"{what} is pending, so player {1 - on_roll} must act, not player {to_act}",
        )
    if not pending and to_act != on_roll:
        raise fail(
            "player to act",
            f"player {to_act} cannot act when player {on_roll} is on roll "
            "and no double or resignation is pending",
        )
    cube = 1 << field("cube")
    if owner is not None and cube == 1:
        raise fail("cube owner", f"player {owner} cannot own a cube of 1")
    return MatchState(
        cube=cube,
        cube_owner=owner,
        on_roll=on_roll,
        crawford=crawford,
        game_state=state,
        to_act=to_act,
        doubled=doubled,
        resigned=resigned,
        dice=(d1, d2),
        match_length=length,
        score=score,
        jacoby=not field("no Jacoby"),
    )


def parse_match_id(text: str) -> MatchState:
    """Decode a 12-character Match ID (the same as :meth:`MatchState.parse`).

    >>> parse_match_id("cBHgADAACAAE").doubled
    True

    :raises NotationError: naming the character or field that is wrong.
    """
    return MatchState.parse(text)


def match_id(pos: Position) -> str:
    """The 12-character Match ID of ``pos``.

    >>> match_id(Position.initial(match_length=7, score=(6, 4), crawford=True, turn=1).roll(6, 2))
    '8AnrAGAAIAAE'

    :raises InvalidPositionError: when a value does not fit its field (cube above
        2**15, match length or score above 32767).
    """
    return _pack_match_id(*_fields_of(pos))


def _fields_of(pos: Position) -> tuple[Any, ...]:
    """The Match ID fields of ``pos``, in :class:`MatchState`'s order."""
    pending = pos.doubled or pos.resigned
    return (
        pos.cube,
        pos.cube_owner,
        pos.turn,
        pos.crawford,
        pos.game_state,
        pos.opponent if pending else pos.turn,
        pos.doubled,
        pos.resigned,
        pos.dice or (0, 0),
        pos.match_length,
        pos.score,
        pos.jacoby and not pos.is_match,
    )


def _pack_match_id(
    cube: int,
    cube_owner: int | None,
    on_roll: int,
    crawford: bool,
    game_state: int,
    to_act: int,
    doubled: bool,
    resigned: int,
    dice: tuple[int, int],
    match_length: int,
    score: tuple[int, int],
    jacoby: bool,
) -> str:
    """The Match ID of :class:`MatchState`'s fields, given in its order.

    :raises InvalidPositionError: when a value does not fit its field.
    """
    d1, d2 = dice
    values = (  # (in the order of _FIELDS)
        cube.bit_length() - 1,
        3 if cube_owner is None else cube_owner,
        on_roll,
        int(crawford),
        int(game_state),
        to_act,
        int(doubled),
        resigned,
        max(d1, d2),
        min(d1, d2),
        match_length,
        score[0],
        score[1],
        int(not jacoby or match_length > 0),
    )
    key = 0
    for value, first, limit in zip(values, _FIRST, _LIMIT, strict=True):
        if not 0 <= value < limit:
            name, _, width = _FIELDS[_FIRST.index(first)]
            raise InvalidPositionError(
                f"cannot write a Match ID: the {name} field holds {width} bits, too few for {value}"
            )
        key |= value << first
    return _encode_key(key, _MATCH_KEY_BITS, MATCH_ID_LENGTH)


def gnubg_id(pos: Position) -> str:
    """gnubg's combined ``PositionID:MatchID`` (what ``gnubg.gnubgid()`` returns).

    >>> gnubg_id(Position.initial(match_length=5).roll(5, 4))
    '4HPwATDgc/ABMA:MIGyAAAAAAAE'
    """
    return f"{position_id(pos)}:{match_id(pos)}"


# ---------------------------------------------------------------------- text


def _strip(text: str, what: str) -> tuple[str, int]:
    body = text.strip()
    start = len(text) - len(text.lstrip())
    if not body:
        raise NotationError(f"empty {what}", text, 0)
    return body, start


def _parts(text: str) -> list[tuple[str, int]]:
    """The ``:``-separated parts of ``text``, stripped, with their offsets."""
    parts = []
    offset = 0
    for raw in text.split(":"):
        lead = len(raw) - len(raw.lstrip())
        parts.append((raw.strip(), offset + lead))
        offset += len(raw) + 1
    return parts


def parse_gnubg_id(text: str, *, checkers: int = 15) -> Position:
    """Read a GNU Backgammon ID: ``"POSID"``, ``"POSID:MATCHID"`` or ``"MATCHID:POSID"``.

    Surrounding whitespace is ignored, as gnubg's ``set gnubgid`` does. A Position ID
    alone gives player 0 on roll and default match fields. ``checkers`` is the number
    of checkers per side (15; 1-3 in hypergammon), which the IDs do not store.

    >>> pos = parse_gnubg_id(" 4HPwATDgc/ABMA:QYkqASAAIAAE ")
    >>> pos.turn, pos.dice, pos.cube, pos.cube_owner, pos.score, pos.match_length
    (1, (5, 2), 2, 0, (2, 4), 9)
    >>> parse_gnubg_id("4HPwATDgc/ABMA") == Position.initial()
    True

    :raises NotationError: for a bad character, length or field, with its position.
    :raises InvalidPositionError: when the ID describes an impossible position.
    """
    body, start = _strip(text, "GNU Backgammon ID")
    parts = [(part, start + off) for part, off in _parts(body)]
    if len(parts) > 2:
        colon = start + body.index(":", body.index(":") + 1)
        raise NotationError(
            "a GNU Backgammon ID has at most two parts, Position ID:Match ID", text, colon
        )
    pos_part: tuple[str, int] | None = None
    match_part: tuple[str, int] | None = None
    for part, off in parts:
        if not part:
            raise NotationError("empty part in a GNU Backgammon ID", text, off)
        bad = next((i for i, ch in enumerate(part) if ch not in _VALUE), None)
        if bad is not None:
            raise NotationError(
                f"{part[bad]!r} is not a Base64 character (character {bad + 1} of {part!r})",
                text,
                off + bad,
            )
        if len(part) == POSITION_ID_LENGTH and pos_part is None:
            pos_part = (part, off)
        elif len(part) == MATCH_ID_LENGTH and match_part is None:
            match_part = (part, off)
        elif len(part) in (POSITION_ID_LENGTH, MATCH_ID_LENGTH):
            kind = "Position" if len(part) == POSITION_ID_LENGTH else "Match"
            raise NotationError(f"a second {kind} ID", text, off)
        else:
            raise NotationError(
                f"{part!r} has {len(part)} characters: a Position ID has "
                f"{POSITION_ID_LENGTH} and a Match ID {MATCH_ID_LENGTH}",
                text,
                off,
            )
    if pos_part is None:
        raise NotationError(
            "a Match ID alone describes no checkers; give the Position ID too", text, start
        )
    ms = _decode_match(match_part[0], text, match_part[1]) if match_part else MatchState()
    key = _decode_key(pos_part[0], text, pos_part[1], _POSITION_KEY_BITS, "Position ID")
    behind, on_roll = _sides_of_key(key, text, pos_part[1], checkers)
    sides = {
        ms.on_roll: (checkers - sum(on_roll), *on_roll),
        1 - ms.on_roll: (checkers - sum(behind), *behind),
    }
    dice = ms.dice if ms.dice[0] else None
    return Position(
        (sides[0], sides[1]),
        turn=ms.on_roll,
        dice=dice,
        cube=ms.cube,
        cube_owner=ms.cube_owner,
        match_length=ms.match_length,
        score=ms.score,
        crawford=ms.crawford,
        jacoby=ms.jacoby and not ms.match_length,
        game_state=ms.game_state,
        doubled=ms.doubled,
        resigned=ms.resigned,
        checkers=checkers,
    )
