"""FIBS ``board:`` lines (the CLIP board state, ``specs/position-ids.md`` §4).

A board line has 53 colon-separated items: ``board``, the two names, match length and
scores, 26 signed checker counts, whose turn, both players' dice, the cube and who may
double, the orientation (colour, direction, home, bar), borne-off and bar counts and four
flags. FIBS calls the two sides "player" and "opponent"; bgkit maps the **player to
player 1** (GNU Backgammon's X) and the opponent to player 0, as gnubg does.

Writing follows GNU Backgammon's ``FIBSBoard`` exactly (what ``show board`` prints after
``set output rawboard on``): colour 1, direction -1, home 0, bar 25; the rolled dice in
both dice pairs; "may double" set for each player unless the other owns the cube; "was
doubled" as gnubg's signed extension (1 when the player doubled, -1 when the opponent
did); zeros for the bar, "can move" and "forced move" items; the last two items are
gnubg's post-Crawford and not-Crawford flags.

Reading accepts both colours and both directions: a count belongs to the player when its
sign equals the colour, and with direction 1 the player's point ``p`` is slot ``25 - p``.
Further rules, as gnubg's reader applies them where it has one:

* the turn item names the player on roll (0 means the game is over); during a pending
  double this is the doubler, as gnubg writes it (the sign of "was doubled" is ignored);
* the dice are the on-roll player's pair, or the other pair when that one is ``0:0``;
* the cube owner comes from the "may double" flags: exactly one set means that side owns
  the cube; both set, both clear or a cube of 1 mean centred;
* a match length of 9999 (FIBS's unlimited) is money play;
* the game is the Crawford game when exactly one player is 1-away and neither of the
  last two items is set (gnubg's rule, except that a 1-point match at 0-0 is not Crawford);
* the number of checkers a side is the checkers on the board plus the borne-off item,
  and must be the same for both sides (15, or fewer in hypergammon);
* the bar items (47, 48), "can move" and "forced move" are not used.

Not stored in a board line: the game state (read as playing, or over when the turn item
is 0), a pending resignation, the Jacoby and beaver rules and the cube limit.

>>> pos = Position.initial(match_length=7, turn=1).roll(5, 2)
>>> line = format_fibs_board(pos, names=("root", "gnubg"))
>>> print(line.replace("0:0:0:0:5:0:3", "...:5:0:3"))
board:root:gnubg:7:0:0:0:-2:...:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:5:2:5:2:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1
>>> parse_fibs_board(line) == pos
True
"""

from __future__ import annotations

from lark import Token, Transformer, v_args

from bgkit.errors import NotationError
from bgkit.position import GameState, Position

__all__ = ["format_fibs_board", "parse_fibs_board"]

#: FIBS's match length for an unlimited match (money play).
UNLIMITED = 9999

# the 0-based item numbers of the FIBS specification, for messages
_ITEM_TURN = 32
_ITEM_PLAYER_DICE = 33
_ITEM_CUBE = 37
_ITEM_COLOUR = 41
_ITEM_OFF = 45


def format_fibs_board(pos: Position, *, names: tuple[str, str] = ("player", "opponent")) -> str:
    """The FIBS ``board:`` line of ``pos``, written exactly as GNU Backgammon writes it.

    :param names: the FIBS "player" (bgkit's player 1) and "opponent" (player 0), in the
        order the line holds them; a ``:`` in a name is written as ``_``, as gnubg does.
    :raises ValueError: for an empty name or one with a line break.

    >>> format_fibs_board(Position.initial(), names=("X", "O"))[:60]
    'board:X:O:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:'
    """
    for name in names:
        if not name.strip() or "\n" in name or "\r" in name:
            raise ValueError(f"a FIBS name must be one non-blank line, not {name!r}")
    opp, player = pos.board
    items: list[int] = [pos.match_length, pos.score[1], pos.score[0], -opp[25]]
    for p in range(1, 25):
        items.append(-opp[25 - p] if opp[25 - p] else player[p])
    items.append(player[25])
    items.append(1 if pos.turn == 1 else -1)
    d1, d2 = pos.dice or (0, 0)
    owner = pos.cube_owner
    doubled = (1 if pos.turn == 1 else -1) if pos.doubled else 0
    items += [d1, d2, d1, d2, pos.cube, int(owner != 0), int(owner != 1), doubled]
    items += [1, -1, 0, 25, player[0], opp[0], 0, 0, 0, 0]
    items += [int(pos.post_crawford), int(not pos.crawford)]
    player_name, opp_name = (name.strip().replace(":", "_") for name in names)
    return f"board:{player_name}:{opp_name}:" + ":".join(str(i) for i in items)


def parse_fibs_board(text: str) -> Position:
    """Read a FIBS ``board:`` line (either colour and direction; spaces after colons allowed).

    The names are not part of a :class:`Position` and are not returned.

    >>> pos = parse_fibs_board(
    ...     "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0"
    ...     ":1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0")
    >>> pos.turn, pos.dice, pos.match_length
    (1, (6, 2), 3)

    :raises NotationError: for a malformed line or an item out of range, with its position.
    :raises InvalidPositionError: when it describes an impossible position.
    """
    from bgkit._grammars import build, parse_tree

    tree = parse_tree("fibs", text, "FIBS board")
    return build(_FibsBuilder(text), tree, text)


Items = tuple[Token, ...]


class _FibsBuilder(Transformer[Token, Position]):
    """Builds the :class:`Position`, checking each item and pointing at the bad one."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def _items(self, children: list[Token]) -> Items:
        return tuple(children)

    match = points = dice = cube = orientation = pair = flags = _items

    def _fail(self, msg: str, tok: Token) -> NotationError:
        return NotationError(msg, self.text, tok.start_pos or 0)

    def _int(self, tok: Token, what: str, allowed: range | None = None) -> int:
        value = int(tok) if len(tok.lstrip("-")) <= 9 else None
        if value is None or (allowed is not None and value not in allowed):
            if allowed is None:
                span = "a number of at most 9 digits"
            elif len(allowed) <= 3:
                span = " or ".join(str(v) for v in allowed)
            else:
                span = f"{allowed.start}-{allowed.stop - 1}"
            raise self._fail(f"FIBS {what} must be {span}, not {tok}", tok)
        return value

    @v_args(inline=True)
    def fibs(
        self,
        _player: Token,
        _opponent: Token,
        match: Items,
        points: Items,
        turn: Token,
        player_dice: Items,
        opponent_dice: Items,
        cube: Items,
        orientation: Items,
        borne_off: Items,
        _on_bar: Items,
        flags: Items,
    ) -> Position:
        counts = range(0, 16)
        length = self._int(match[0], "match length", range(0, 10**9))
        if length == UNLIMITED:
            length = 0
        scores = [self._int(t, "score", range(0, 10**9)) for t in match[1:]]
        colour = self._int(orientation[0], f"colour (item {_ITEM_COLOUR})", range(-1, 2, 2))
        direction = self._int(orientation[1], "direction (item 42)", range(-1, 2, 2))
        home, bar = (0, 25) if direction == -1 else (25, 0)
        self._int(
            orientation[2], f"home (item 43) with direction {direction}", range(home, home + 1)
        )
        self._int(orientation[3], f"bar (item 44) with direction {direction}", range(bar, bar + 1))

        # sides[1] = the FIBS player, sides[0] = the opponent
        sides = ([0] * 26, [0] * 26)
        for slot, tok in enumerate(points):
            value = self._int(tok, f"checker count (slot {slot})", range(-15, 16))
            if slot in (0, 25):
                owner = 1 if slot == bar else 0
                sides[owner][25] = abs(value)
                continue
            mine = slot if direction == -1 else 25 - slot
            if value * colour > 0:
                sides[1][mine] = abs(value)
            elif value:
                sides[0][25 - mine] = abs(value)

        off = [
            self._int(t, f"borne-off count (item {_ITEM_OFF + i})", counts)
            for i, t in enumerate(borne_off)
        ]
        totals = [sum(sides[1][1:]) + off[0], sum(sides[0][1:]) + off[1]]
        if totals[0] != totals[1] or not 1 <= totals[0] <= 15:
            raise self._fail(
                f"the player has {totals[0]} checkers (on the board and borne off) and the "
                f"opponent {totals[1]}: both sides need the same number, 1-15",
                borne_off[0],
            )
        checkers = totals[0]
        sides[1][0], sides[0][0] = off

        turn_value = self._int(turn, f"turn (item {_ITEM_TURN})", range(-1, 2))
        player_on_roll = turn_value * colour > 0
        on_roll = 1 if turn_value == 0 or player_on_roll else 0
        state = GameState.OVER if turn_value == 0 else GameState.PLAYING
        pairs = [self._dice(player_dice, _ITEM_PLAYER_DICE), self._dice(opponent_dice, 35)]
        rolled = pairs[0] if on_roll == 1 else pairs[1]
        rolled = rolled or pairs[1 - on_roll]

        value = self._int(cube[0], f"cube value (item {_ITEM_CUBE})", range(1, 1 << 30))
        if value & (value - 1):
            raise self._fail(f"the FIBS cube value must be a power of two, not {value}", cube[0])
        may = [
            self._int(t, f"may-double flag (item {38 + i})", range(0, 2))
            for i, t in enumerate(cube[1:3])
        ]
        cube_owner = (1 if may[0] else 0) if may[0] != may[1] and value > 1 else None
        doubled = self._int(cube[3], "was-doubled item (40)", range(-1, 2)) != 0
        if doubled and rolled is not None:
            raise self._fail("a double is pending (item 40) but dice are rolled", cube[3])

        score = (scores[1], scores[0])
        if length and state == GameState.PLAYING:
            for tok, points_won in zip(match[1:], scores, strict=True):
                if points_won >= length:
                    raise self._fail(
                        f"FIBS score {points_won} is not below the match length {length}", tok
                    )
        post, non_crawford = (self._int(t, "flag", range(0, 10**9)) for t in flags[2:])
        one_away = length > 0 and [s == length - 1 for s in score].count(True) == 1
        crawford = one_away and not post and not non_crawford
        return Position(
            (tuple(sides[0]), tuple(sides[1])),
            turn=on_roll,
            dice=rolled,
            cube=value,
            cube_owner=cube_owner,
            match_length=length,
            score=score,
            crawford=crawford,
            game_state=state,
            doubled=doubled,
            checkers=checkers,
        )

    def _dice(self, pair: Items, item: int) -> tuple[int, int] | None:
        d1, d2 = (self._int(t, f"die (item {item + i})", range(0, 7)) for i, t in enumerate(pair))
        if (d1 == 0) != (d2 == 0):
            raise self._fail(f"FIBS dice {d1}:{d2}: both dice or neither", pair[0])
        return (d1, d2) if d1 else None
