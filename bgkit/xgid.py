"""eXtreme Gammon's position identifier, the XGID (``specs/position-ids.md`` §3).

``XGID=<board>:<cube>:<cube pos>:<turn>:<dice>:<score X>:<score O>:<rules>:<length>:<max cube>``

* The 26-letter board is the signed view from X's side (:meth:`Position.signed_points`
  with player 1): character 0 is O's bar, 1..24 are X's points 1..24, 25 is X's bar;
  ``A`` to ``P`` count X's checkers, ``a`` to ``p`` O's, ``-`` is empty.
* X (upper case, XG's bottom player) is gnubg's and bgkit's **player 1**, O is player 0.
* ``cube`` is the exponent of the cube value; ``cube position`` 0 centred, 1 X owns,
  -1 O owns; ``turn`` 1 X on roll, -1 O on roll.
* ``dice`` is ``00`` before the roll or the two dice in the order given (kept as
  written); ``D`` means a double is being offered.
* ``rules`` is the Crawford flag in match play (:attr:`Position.crawford`) and, in money
  play, the bits ``jacoby | beavers << 1``.
* ``max cube`` is the exponent of :attr:`Position.cube_limit`; 0 means cubeless.

**A pending double** (``D``): bgkit reads and writes it as gnubg's XGID reader
(``SetXGID``) reads it.
The turn field names the player who doubled (:attr:`Position.turn`, with
:attr:`Position.doubled` set and no dice) and the cube fields hold the cube *before* the
double; the other player must take or drop. (XG's own convention here is not
documented.) ``B``/``R`` (beaver, raccoon) in the dice field are rejected.

The XGID does not hold everything a :class:`Position` holds. Writing and reading back
gives the same position except for: the game state and a pending resignation (read as
a game in play), the number of checkers (read as 15, borne-off counts follow), the
Jacoby and beaver flags in match play (the rules field holds the Crawford flag there)
and a cube limit that is not a power of two (written rounded down).

Reading checks every field and points at the bad one: scores below the match length, the
rules field 0-1 in a match and 0-3 in money play, dice ``00`` or two dice 1-6, no owner
for a cube of 1 (except cubeless), and exponents up to 15 (cube 32768). Match lengths are
not limited (gnubg stops at 64).

>>> pos = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10")
>>> pos.turn, pos.dice, pos.match_length
(1, (5, 2), 7)
>>> format_xgid(pos)
'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10'
"""

from __future__ import annotations

from lark import (
    Token,
    Transformer,
    UnexpectedCharacters,
    UnexpectedInput,
    UnexpectedToken,
    v_args,
)

from bgkit.errors import InvalidPositionError, NotationError
from bgkit.position import Position

__all__ = ["format_xgid", "parse_xgid"]

#: The largest cube or cube-limit exponent bgkit reads (cube 32768).
MAX_CUBE_EXPONENT = 15

_DOUBLE_OFFERED = "D"


def format_xgid(pos: Position) -> str:
    """The XGID of ``pos``, ``XGID=`` prefix included.

    >>> format_xgid(Position.initial())
    'XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:0:0:0:0:10'
    """
    letters = []
    for count in pos.signed_points(1):
        if count > 0:
            letters.append(chr(ord("A") + count - 1))
        elif count < 0:
            letters.append(chr(ord("a") - count - 1))
        else:
            letters.append("-")
    cube_position = {None: 0, 1: 1, 0: -1}[pos.cube_owner]
    if pos.doubled:
        dice = _DOUBLE_OFFERED
    elif pos.dice is None:
        dice = "00"
    else:
        dice = f"{pos.dice[0]}{pos.dice[1]}"
    rules = int(pos.crawford) if pos.is_match else int(pos.jacoby) | int(pos.beavers) << 1
    fields = (
        "".join(letters),
        pos.cube.bit_length() - 1,
        cube_position,
        1 if pos.turn == 1 else -1,
        dice,
        pos.score[1],
        pos.score[0],
        rules,
        pos.match_length,
        max(pos.cube_limit.bit_length() - 1, 0),
    )
    return "XGID=" + ":".join(str(f) for f in fields)


def parse_xgid(text: str) -> Position:
    """Read an XGID; the ``XGID=`` prefix is optional and whitespace around fields is ignored.

    >>> pos = parse_xgid("-b----E-C---eE---c-e----B-:1:1:1:D:2:4:0:9:10")
    >>> pos.turn, pos.doubled, pos.cube, pos.cube_owner, pos.score
    (1, True, 2, 1, (4, 2))

    :raises NotationError: for a malformed XGID or a field out of range, with its position.
    :raises InvalidPositionError: when it describes an impossible position
        (more than 15 checkers a side, both players on the bar against closed boards).
    """
    from bgkit._grammars import build, notation_error, parser

    try:
        tree = parser("xgid").parse(text)
    except UnexpectedInput as err:
        error = notation_error(err, text, "XGID")
        at = _dice_field_error(err)
        if at is not None:
            error = NotationError(
                f"unexpected {text[at]!r} in the XGID dice field; "
                "use two digits (00 before the roll) or D for a double",
                text,
                at,
            )
        raise error from None
    return build(_XgidBuilder(text), tree, text)


def _dice_field_error(err: UnexpectedInput) -> int | None:
    """Where a bad dice field starts, when ``err`` is one (for a specific message)."""
    if isinstance(err, UnexpectedCharacters) and "ROLL" in err.allowed:
        return err.pos_in_stream or 0
    if isinstance(err, UnexpectedToken) and err.token.type != "$END" and "ROLL" in err.expected:
        return err.token.start_pos or 0
    return None


class _XgidBuilder(Transformer[Token, Position]):
    """Builds the :class:`Position` and checks each field's range, pointing at the field."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def _fail(self, msg: str, tok: Token, offset: int = 0) -> NotationError:
        return NotationError(msg, self.text, (tok.start_pos or 0) + offset)

    def _int(self, tok: Token, what: str, lo: int, hi: int | None = None) -> int:
        value = int(tok) if len(tok.lstrip("-")) <= 9 else None
        if value is None or value < lo or (hi is not None and value > hi):
            allowed = f"{lo}-{hi}" if hi is not None else f"at least {lo}"
            raise self._fail(f"XGID {what} must be {allowed}, not {tok}", tok)
        return value

    @v_args(inline=True)
    def rolled(self, tok: Token) -> Token:
        return tok

    def double_offered(self, _children: list[Token]) -> str:
        return _DOUBLE_OFFERED

    @v_args(inline=True)
    def xgid(
        self,
        _prefix: Token | None,
        board: Token,
        cube: Token,
        cube_position: Token,
        turn: Token,
        dice: Token | str,
        score_x: Token,
        score_o: Token,
        rules: Token,
        length: Token,
        max_cube: Token,
    ) -> Position:
        sides = self._board(board)
        cube_exp = self._int(cube, "cube exponent", 0, MAX_CUBE_EXPONENT)
        owners = {"0": None, "-0": None, "1": 1, "-1": 0}
        if str(cube_position) not in owners:
            raise self._fail(
                f"XGID cube position must be 0 (centred), 1 (X) or -1 (O), not {cube_position}",
                cube_position,
            )
        owner = owners[str(cube_position)]
        if turn not in ("1", "-1"):
            raise self._fail(f"XGID turn must be 1 (X) or -1 (O), not {turn}", turn)
        player = 1 if turn == "1" else 0
        doubled = not isinstance(dice, Token)
        rolled = self._dice(dice) if isinstance(dice, Token) else None
        length_value = self._int(length, "match length", 0)
        score = (self._int(score_o, "score of O", 0), self._int(score_x, "score of X", 0))
        if length_value:
            for tok, points in ((score_x, score[1]), (score_o, score[0])):
                if points >= length_value:
                    raise self._fail(
                        f"XGID score {points} is not below the match length {length_value}", tok
                    )
            crawford = bool(self._int(rules, "rules field in match play (Crawford flag)", 0, 1))
            jacoby = beavers = False
        else:
            bits = self._int(rules, "rules field in money play (1 Jacoby + 2 beavers)", 0, 3)
            crawford, jacoby, beavers = False, bool(bits & 1), bool(bits & 2)
        max_exp = self._int(max_cube, "maximum cube exponent", 0, MAX_CUBE_EXPONENT)
        if owner is not None and cube_exp == 0 and max_exp > 0:
            raise self._fail("a cube of 1 cannot be owned: use cube position 0", cube_position)
        return Position(
            sides,
            turn=player,
            dice=rolled,
            cube=1 << cube_exp,
            cube_owner=owner,
            match_length=length_value,
            score=score,
            crawford=crawford,
            jacoby=jacoby,
            beavers=beavers,
            doubled=doubled,
            cube_limit=1 << max_exp,
        )

    def _dice(self, tok: Token) -> tuple[int, int] | None:
        d1, d2 = int(tok[0]), int(tok[1])
        if d1 == d2 == 0:
            return None
        for i, die in enumerate((d1, d2)):
            if not 1 <= die <= 6:
                raise self._fail(f"XGID dice must be 00 or two dice 1-6, not {tok}", tok, i)
        return (d1, d2)

    def _board(self, tok: Token) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if len(tok) != 26:
            raise self._fail(
                f"an XGID board has 26 characters (O's bar, points 1-24, X's bar), not {len(tok)}",
                tok,
                min(len(tok), 26),
            )
        x_side = [0] * 26
        o_side = [0] * 26
        for i, ch in enumerate(tok):
            if ch == "-":
                continue
            upper = ch.isupper()
            count = ord(ch) - ord("A" if upper else "a") + 1
            if count > 16:
                raise self._fail(
                    f"{ch!r} is not a checker count: A-P are 1-16 of X's checkers, a-p of O's",
                    tok,
                    i,
                )
            if i == 0 and upper:
                raise self._fail(
                    "the first XGID character is O's bar: X's checkers cannot be there", tok, i
                )
            if i == 25 and not upper:
                raise self._fail(
                    "the last XGID character is X's bar: O's checkers cannot be there", tok, i
                )
            if upper:
                x_side[i] = count
            else:
                o_side[25 - i] = count
        for name, side in (("O", o_side), ("X", x_side)):
            on_board = sum(side)
            if on_board > 15:
                raise InvalidPositionError(
                    f"impossible XGID board {str(tok)!r}: "
                    f"{name} has {on_board} checkers (at most 15)"
                )
            side[0] = 15 - on_board
        return (tuple(o_side), tuple(x_side))
