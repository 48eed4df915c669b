"""SVG boards: :func:`position` draws a :class:`~bgkit.position.Position` for Jupyter and HTML.

The board is drawn as GNU Backgammon draws its ASCII board (:mod:`bgkit.ascii_board`):
player 1 (X, dark checkers) at the bottom with its home board at the bottom right,
player 0 (O, light checkers) at the top; ``flip=True`` puts player 0 at the bottom.
The point numbers along the edges are those of the player on roll. The drawing shows
the checkers (every checker is one ``<circle class="checker ...">``; a point with more
than five is packed tighter and shows its count), the checkers on the bar, the
borne-off checkers in the tray at the right, the cube (value and owner: centred in the
middle of the left margin, an owned cube beside its owner's side, an offered cube in the
board), the dice of the player on roll, each player's name and pip count, and optional
arrows for a play. The SVG is plain (no scripts, filters, fonts or ids) and carries
the ASCII board in its ``<desc>``, so it reads well in any browser, in a notebook and in
a text search.

>>> from bgkit.position import Position
>>> board = position(Position.initial().roll(3, 1), size=300)
>>> board.count('<circle class="checker'), board.count('class="die ')
(30, 2)
>>> board.startswith("<svg") and "<desc>" in board
True
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from bgkit.play import BAR, OFF, Play
from bgkit.position import GameState, Position

__all__ = ["SvgWrapper", "position"]

SVG_NS = "http://www.w3.org/2000/svg"

# geometry, in the SVG's own units (= pixels at the natural size)
_R = 15.0  # checker radius
_PW = 32.0  # point width
_PL = 5 * 2 * _R  # point length: five checkers
_CUBE_W = 44.0  # margin at the left for the cube
_F = 12.0  # frame
_BAR_W = 40.0
_TRAY_W = 44.0
_MID = 56.0  # the band between the points (dice, offered cube)
_INFO_H = 26.0  # name and pip count lines
_NUM_H = 18.0  # point number strips

_X_LEFT = _CUBE_W + _F  # left half, inner
_X_LEFT_END = _X_LEFT + 6 * _PW
_X_RIGHT = _X_LEFT_END + _BAR_W
_X_RIGHT_END = _X_RIGHT + 6 * _PW
_X_TRAY = _X_RIGHT_END + _F
_WIDTH = _X_TRAY + _TRAY_W + _F
_Y_TOP = _INFO_H + _NUM_H + _F  # board, inner
_Y_BOT = _Y_TOP + 2 * _PL + _MID
_Y_MID = (_Y_TOP + _Y_BOT) / 2
_HEIGHT = _Y_BOT + _F + _NUM_H + _INFO_H

_COLORS = {
    "frame": "#6b4226",
    "felt": "#f1e7d0",
    "dark_point": "#9c5a3c",
    "light_point": "#cdb98f",
    "tray": "#e3d6b8",
    "arrow": "#1f5fbf",
    "text": "#222222",
}
#: Checker fill and outline of players 0 (O) and 1 (X).
_CHECKER = (("#fbfaf5", "#444444"), ("#2f2f2f", "#000000"))
_CUBE_TEXT_64 = 64  # a centred cube of value 1 shows 64, as boards do


class SvgWrapper(str):
    """An SVG image as a string that Jupyter displays as an image (``_repr_svg_``).

    ``_repr_html_`` returns the same markup, since inline SVG is valid HTML.
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)

    def _repr_html_(self) -> str:
        return str(self)


def position(
    pos: Position,
    *,
    size: int | None = None,
    flip: bool = False,
    last_play: Play | None = None,
    names: tuple[str, str] | None = None,
) -> SvgWrapper:
    """Draw ``pos`` as an SVG board.

    :param size: the width in pixels (the height follows); default: the natural size,
        548 x 468 pixels.
    :param flip: draw player 0 at the bottom (by default player 1 is at the bottom, as in
        GNU Backgammon's ASCII board).
    :param last_play: draw an arrow for each step of this play, numbered from the mover's
        side. The mover is the player on roll when ``pos`` has dice (the play of that
        roll, drawn on the position before it) and otherwise the player not on roll
        (the play that led to ``pos``).
    :param names: the names of players 0 and 1 (default ``"player 0"``, ``"player 1"``).

    >>> from bgkit.position import Position
    >>> pos = Position.from_xgid("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:0:0:0:7:10")
    >>> svg = position(pos, names=("Ann", "Bo"))
    >>> svg.count('class="checker p0"'), svg.count('class="checker p1"')
    (15, 15)
    >>> ">2</text>" in svg and "Ann" in svg
    True
    """
    names = names if names is not None else ("player 0", "player 1")
    bottom = 0 if flip else 1
    board = _Board(pos, bottom, names)
    board.draw()
    if last_play is not None and last_play.steps:
        mover = pos.turn if pos.dice is not None else pos.opponent
        board.arrows(last_play, mover)
    root = board.root
    if size is not None:
        root.set("width", _num(size))
        root.set("height", _num(size * _HEIGHT / _WIDTH))
    return SvgWrapper(ET.tostring(root, encoding="unicode"))


class _Board:
    """Builds the element tree of one board."""

    def __init__(self, pos: Position, bottom: int, names: tuple[str, str]) -> None:
        self.pos = pos
        self.bottom = bottom
        self.names = names
        self.root = ET.Element(
            "svg",
            {
                "xmlns": SVG_NS,
                "version": "1.1",
                "viewBox": f"0 0 {_num(_WIDTH)} {_num(_HEIGHT)}",
                "width": _num(_WIDTH),
                "height": _num(_HEIGHT),
                "font-family": "sans-serif",
                "class": "bgkit-board",
            },
        )
        from bgkit import ascii_board

        title = ET.SubElement(self.root, "title")
        title.text = f"{names[0]} vs. {names[1]}: {pos.xgid()}"
        desc = ET.SubElement(self.root, "desc")
        desc.text = ascii_board.render(pos, names=names)

    # ------------------------------------------------------------------ helpers

    def el(self, parent: ET.Element, tag: str, **attrs: str | float) -> ET.Element:
        attributes = {k.rstrip("_").replace("_", "-"): _attr(v) for k, v in attrs.items()}
        return ET.SubElement(parent, tag, attributes)

    def text(
        self, parent: ET.Element, x: float, y: float, content: str, **attrs: str | float
    ) -> ET.Element:
        node = self.el(parent, "text", x=x, y=y, **attrs)
        node.text = content
        return node

    def point_x(self, point: int) -> float:
        """The centre x of the bottom player's ``point`` (1..24)."""
        if point <= 6:
            return _X_RIGHT_END - (point - 0.5) * _PW
        if point <= 12:
            return _X_LEFT_END - (point - 6.5) * _PW
        if point <= 18:
            return _X_LEFT + (point - 12.5) * _PW
        return _X_RIGHT + (point - 18.5) * _PW

    def bottom_point(self, player: int, point: int) -> int:
        """``player``'s ``point`` in the bottom player's numbering."""
        return point if player == self.bottom else 25 - point

    def slot(self, bottom_point: int, index: int, count: int) -> tuple[float, float]:
        """The centre of the ``index``-th checker (0 = at the edge) of a stack of ``count``."""
        step = 2 * _R if count <= 5 else (_PL - 2 * _R) / (count - 1)
        offset = _R + index * step
        x = self.point_x(bottom_point)
        return (x, _Y_BOT - offset) if bottom_point <= 12 else (x, _Y_TOP + offset)

    # ------------------------------------------------------------------ parts

    def draw(self) -> None:
        self.frame()
        self.points()
        self.checkers()
        self.cube()
        self.dice()
        self.info()

    def frame(self) -> None:
        g = self.el(self.root, "g", class_="frame")
        c = _COLORS
        self.el(g, "rect", x=0, y=0, width=_WIDTH, height=_HEIGHT, fill="#ffffff")
        self.el(
            g,
            "rect",
            x=_CUBE_W,
            y=_Y_TOP - _F,
            width=_WIDTH - _CUBE_W,
            height=_Y_BOT - _Y_TOP + 2 * _F,
            fill=c["frame"],
            rx=4,
        )
        for x in (_X_LEFT, _X_RIGHT):
            self.el(g, "rect", x=x, y=_Y_TOP, width=6 * _PW, height=_Y_BOT - _Y_TOP, fill=c["felt"])
        self.el(g, "rect", x=_X_TRAY, y=_Y_TOP, width=_TRAY_W, height=_PL, fill=c["tray"])
        self.el(g, "rect", x=_X_TRAY, y=_Y_BOT - _PL, width=_TRAY_W, height=_PL, fill=c["tray"])

    def points(self) -> None:
        g = self.el(self.root, "g", class_="points")
        numbers = self.el(self.root, "g", class_="point-numbers", font_size=11)
        on_roll_bottom = self.pos.turn == self.bottom
        for p in range(1, 25):
            x = self.point_x(p)
            fill = _COLORS["dark_point" if p % 2 else "light_point"]
            if p <= 12:
                base, apex, label_y = _Y_BOT, _Y_BOT - _PL + 4, _Y_BOT + _F + 13
            else:
                base, apex, label_y = _Y_TOP, _Y_TOP + _PL - 4, _Y_TOP - _F - 5
            half = _PW / 2
            corners = ((x - half, base), (x + half, base), (x, apex))
            self.el(g, "polygon", points=_points(corners), fill=fill)
            label = p if on_roll_bottom else 25 - p
            self.text(numbers, x, label_y, str(label), text_anchor="middle", fill=_COLORS["text"])

    def checkers(self) -> None:
        g = self.el(self.root, "g", class_="checkers")
        for player in (0, 1):
            side = self.pos.board[player]
            for point in range(1, 25):
                count = side[point]
                for i in range(count):
                    x, y = self.slot(self.bottom_point(player, point), i, count)
                    self.checker(g, player, x, y, "checker")
                if count > 5:
                    x, y = self.slot(self.bottom_point(player, point), count - 1, count)
                    self.count(g, player, x, y, count)
            self.bar(g, player, side[BAR])
            self.tray(g, player, side[OFF])

    def checker(self, g: ET.Element, player: int, x: float, y: float, kind: str) -> None:
        fill, stroke = _CHECKER[player]
        self.el(
            g,
            "circle",
            class_=f"{kind} p{player}",
            cx=x,
            cy=y,
            r=_R - 1,
            fill=fill,
            stroke=stroke,
            stroke_width=1.5,
        )

    def count(self, g: ET.Element, player: int, x: float, y: float, count: int) -> None:
        self.text(
            g,
            x,
            y + 4,
            str(count),
            class_="count",
            text_anchor="middle",
            font_size=12,
            font_weight="bold",
            fill=_CHECKER[1 - player][0],
        )

    def bar(self, g: ET.Element, player: int, count: int) -> None:
        """Checkers on the bar, from the middle towards the player's own side."""
        if not count:
            return
        x = (_X_LEFT_END + _X_RIGHT) / 2
        step = 2 * _R if count <= 4 else (_PL - 2 * _R) / (count - 1)
        sign = 1 if player == self.bottom else -1
        for i in range(count):
            y = _Y_MID + sign * (_R + 4 + i * step)
            self.checker(g, player, x, y, "checker bar")
        if count > 4:
            self.count(g, player, x, _Y_MID + sign * (_R + 4 + (count - 1) * step), count)

    def tray(self, g: ET.Element, player: int, count: int) -> None:
        """Borne-off checkers, as thin bars from the tray's outer edge."""
        x = _X_TRAY + 5
        for i in range(count):
            offset = 2 + i * 9
            y = _Y_BOT - offset - 7 if player == self.bottom else _Y_TOP + offset
            fill, stroke = _CHECKER[player]
            self.el(
                g,
                "rect",
                class_=f"off p{player}",
                x=x,
                y=y,
                width=_TRAY_W - 10,
                height=7,
                rx=2,
                fill=fill,
                stroke=stroke,
                stroke_width=1,
            )

    def cube(self) -> None:
        pos = self.pos
        if pos.cube_limit <= 1:
            return
        if pos.crawford:  # no cube in the Crawford game: say so instead
            self.text(
                self.root,
                _CUBE_W / 2 + 4,
                _Y_MID,
                "Crawford",
                class_="crawford",
                text_anchor="middle",
                font_size=12,
                fill=_COLORS["text"],
                transform=f"rotate(-90 {_num(_CUBE_W / 2 + 4)} {_num(_Y_MID)})",
            )
            return
        size = 32.0
        x = (_CUBE_W - size) / 2
        if pos.doubled:  # offered: in the doubler's half of the board
            value = pos.cube * 2
            x = self.half_centre(pos.turn) - size / 2
            y = _Y_MID - size / 2
            where = "offered"
        elif pos.cube_owner is None:
            value = pos.cube if pos.cube > 1 else _CUBE_TEXT_64
            y = _Y_MID - size / 2
            where = "centred"
        elif pos.cube_owner == self.bottom:
            value, y, where = pos.cube, _Y_BOT - size - 4, "owned"
        else:
            value, y, where = pos.cube, _Y_TOP + 4, "owned"
        g = self.el(self.root, "g", class_=f"cube {where}")
        owner = "" if pos.cube_owner is None else f" by {self.names[pos.cube_owner]}"
        title = ET.SubElement(g, "title")
        title.text = f"cube {value} {where}{owner}"
        self.el(
            g,
            "rect",
            x=x,
            y=y,
            width=size,
            height=size,
            rx=5,
            fill="#ffffff",
            stroke="#000000",
            stroke_width=1.5,
        )
        self.text(
            g,
            x + size / 2,
            y + size / 2 + 6,
            str(value),
            text_anchor="middle",
            font_size=17 if value < 100 else 13,
            font_weight="bold",
            fill=_COLORS["text"],
        )

    def half_centre(self, player: int) -> float:
        """The centre x of the board half where ``player``'s dice lie (the right for the bottom)."""
        if player == self.bottom:
            return (_X_RIGHT + _X_RIGHT_END) / 2
        return (_X_LEFT + _X_LEFT_END) / 2

    def dice(self) -> None:
        pos = self.pos
        if pos.dice is None:
            return
        fill, stroke = _CHECKER[pos.turn]
        dot = _CHECKER[1 - pos.turn][0]
        size = 30.0
        centre = self.half_centre(pos.turn)
        g = self.el(self.root, "g", class_="dice")
        for i, value in enumerate(pos.dice):
            x = centre + (-size - 4 if i == 0 else 4)
            y = _Y_MID - size / 2
            die = self.el(g, "g", class_=f"die d{value}")
            self.el(
                die,
                "rect",
                x=x,
                y=y,
                width=size,
                height=size,
                rx=5,
                fill=fill,
                stroke=stroke,
                stroke_width=1.5,
            )
            for dx, dy in _DOTS[value]:
                self.el(die, "circle", cx=x + size * dx, cy=y + size * dy, r=size / 11, fill=dot)

    def info(self) -> None:
        """Each player's line: name, score (``2/7`` in a match), on roll; pip count at the right."""
        pos = self.pos
        pips = pos.pip_counts()
        g = self.el(self.root, "g", class_="info", font_size=13, fill=_COLORS["text"])
        for player in (0, 1):
            y = _HEIGHT - 8 if player == self.bottom else 18
            fill, stroke = _CHECKER[player]
            self.el(g, "circle", cx=_CUBE_W + 8, cy=y - 4.5, r=6, fill=fill, stroke=stroke)
            parts = [self.names[player]]
            if pos.is_match:
                parts.append(f"{pos.score[player]}/{pos.match_length} points")
            if player == pos.turn and pos.game_state == GameState.PLAYING:
                if pos.doubled:
                    parts.append(f"doubles to {2 * pos.cube}")
                else:
                    parts.append("on roll" if pos.dice is None else "to play")
            self.text(g, _CUBE_W + 20, y, " \u00b7 ".join(parts), class_="name")
            self.text(
                g,
                _WIDTH - 4,
                y,
                f"pips {pips[player]}",
                class_=f"pips p{player}",
                text_anchor="end",
            )

    # ------------------------------------------------------------------ arrows

    def anchor(self, player: int, point: int, index: int) -> tuple[float, float]:
        """Where an arrow at ``player``'s ``point`` (own numbering, 0 = off, 25 = bar) ends.

        ``index`` is the checker's place in the stack (0 = at the edge of the board).
        """
        if point == BAR:
            sign = 1 if player == self.bottom else -1
            return (_X_LEFT_END + _X_RIGHT) / 2, _Y_MID + sign * (_R + 4)
        if point == OFF:
            y = _Y_BOT - _PL / 2 if player == self.bottom else _Y_TOP + _PL / 2
            return _X_TRAY + _TRAY_W / 2, y
        return self.slot(self.bottom_point(player, point), min(index, 4), 5)

    def arrows(self, play: Play, mover: int) -> None:
        """One arrow per step, from the checker that moves to the place where it lands."""
        g = self.el(self.root, "g", class_="arrows", opacity=0.85)
        counts = list(self.pos.board[mover])
        if self.pos.dice is None:  # drawn after the play: take the checkers back first
            for step in play.steps:
                counts[step.src] += 1
                counts[step.dst] -= 1
        for step in play.steps:
            counts[step.src] -= 1
            x1, y1 = self.anchor(mover, step.src, max(counts[step.src], 0))
            x2, y2 = self.anchor(mover, step.dst, max(counts[step.dst], 0))
            counts[step.dst] += 1
            _arrow(self, g, x1, y1, x2, y2)


def _arrow(board: _Board, g: ET.Element, x1: float, y1: float, x2: float, y2: float) -> None:
    """A line with a triangular head (a polygon, not a marker: no ids in the markup)."""
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1.0
    ux, uy = dx / length, dy / length
    head, wing = 13.0, 7.0
    bx, by = x2 - ux * head, y2 - uy * head
    color = _COLORS["arrow"]
    a = board.el(g, "g", class_="arrow")
    board.el(a, "line", x1=x1, y1=y1, x2=bx, y2=by, stroke=color, stroke_width=4)
    corners = (
        (x2, y2),
        (bx - uy * wing, by + ux * wing),
        (bx + uy * wing, by - ux * wing),
    )
    board.el(a, "polygon", points=_points(corners), fill=color)


_DOTS: dict[int, Sequence[tuple[float, float]]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78)),
}


def _num(x: float) -> str:
    """A coordinate without needless decimals: ``12``, ``12.5``."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _points(corners: Sequence[tuple[float, float]]) -> str:
    """A polygon's ``points`` attribute."""
    return " ".join(f"{_num(x)},{_num(y)}" for x, y in corners)


def _attr(value: str | float) -> str:
    return value if isinstance(value, str) else _num(value)
