"""Read eXtreme Gammon's position text exports (English, German, French, Japanese).

XG's "copy position as text" writes the XGID, the players, the score, an ASCII diagram,
the pip counts, the cube, whose turn it is and, when the position was analysed, the
candidate plays or the cube decision. The syntax lives in ``grammars/xg_text.lark``.

:func:`parse_xg_text` builds the :class:`~bgkit.position.Position` from the **diagram and
the text lines** (not from the XGID) and returns it with the XGID as printed, so the two
can be compared; the pip counts XG printed are checked against the diagram.

>>> export = read_xg_text("data/real/xg_txt/kevung__xgparser__01_checkerPosition_FR.txt")
>>> export.position == Position.from_xgid(export.xgid)
True
>>> export.position.dice, export.names
((2, 1), ('Player 2', 'Player 1'))
>>> first = export.checker.candidates[0]
>>> first.play, first.equity, first.level, first.probabilities.win
(Play('19/18 14/12'), -0.491, '4-plis', 0.2545)

**Players.** XG's X (bottom, upper-case in the XGID) is bgkit's player 1 and O player 0,
as in the XGID: :attr:`~bgkit.formats.annotations.PositionExport.names` lists O first.

**What is read.** The diagram: marks ``X``/``O`` from the edge, a number in the fifth row
for a taller point, bar checkers in the middle column (checkers borne off are those
missing from 15). The score line: both scores, the match length (a line without one is a
money game) and ``Crawford``. The cube line: value and owner. The turn line: the side and,
when it ends with two digits, the dice in XG's order. The analysis: each candidate (rank,
level, play, equity, the chances of both sides), or the cube analysis (chances, cubeless
and cubeful equities in XG's order No double, Double/Take, Double/Pass, and XG's verdict
verbatim).

**What is rejected** (:class:`~bgkit.errors.NotationError` with line and column): text
that does not follow the layout, a diagram cell that is neither a mark nor a count, pip
counts that disagree with the diagram, and a diagram that is no position (too many
checkers, both sides on a point).
"""

from __future__ import annotations

import os
import re
from typing import IO, Any

from lark import Token, v_args

from bgkit._grammars import SourceTransformer, build, parse_tree
from bgkit._play_grammar import with_plays
from bgkit.errors import InvalidPositionError
from bgkit.formats import source_text
from bgkit.formats._diagram import (
    DiagramError,
    board_error,
    check_export_size,
    full_lines,
    position_from_grid,
    read_grid,
)
from bgkit.formats.annotations import (
    CandidatePlay,
    CheckerAnalysis,
    CubeAnalysis,
    PositionExport,
    Probabilities,
)
from bgkit.play import Play, Step
from bgkit.position import Position

__all__ = ["Position", "parse_xg_text", "read_xg_text", "sniff_xg_text"]

# (a run of blanks or digits tried from its start only, not from each of its characters:
# the names' blanks and the level's digits took time quadratic in a long run)
_PLAYERS = re.compile(r"X:(?P<x>.*?)(?<!\s)\s+O:(?P<o>.*)$")
_FIRST_INT = re.compile(r"[0-9]+")
_DICE = re.compile(r"([1-6])([1-6])\s*$")
_LEVEL = re.compile(r"XG Roller\+*|(?<![0-9])[0-9]+-ply|Rollout", re.IGNORECASE)


def sniff_xg_text(text: str) -> bool:
    """True when ``text`` starts like an XG position export (an XGID, then ``X:`` names).

    >>> sniff_xg_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10\\n\\nX:A   O:B\\n")
    True
    """
    head = text.lstrip("\ufeff \t\r\n")
    return head.startswith("XGID=") and bool(re.search(r"^X:.*O:", head[:400], re.MULTILINE))


def read_xg_text(
    source: str | os.PathLike[str] | IO[str] | IO[bytes], *, encoding: str | None = None
) -> PositionExport:
    """:func:`parse_xg_text` of a file path or an open file (text or binary).

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the text is not an XG position export.
    """
    text, name = source_text(source, encoding=encoding)
    return parse_xg_text(text, source_name=name)


def parse_xg_text(text: str, *, source_name: str | None = None) -> PositionExport:
    """Read an XG position text export (see the module docstring).

    >>> parse_xg_text("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10\\n\\nScore")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 3:1: unexpected 'Score' in XG position export; expected players
        Score
        ^

    :raises NotationError: when the text is not an XG position export.
    """
    source = text[1:] if text.startswith("\ufeff") else text
    check_export_size(source, "XG position export", source_name)
    tree = parse_tree("xg_text", source, "XG position export", source_name=source_name)
    export: PositionExport = build(
        with_plays(_XgTextBuilder(source, source_name)), tree, source, source_name=source_name
    )
    return export


def _float(token: Token) -> float:
    return float(str(token).strip("()%"))


def _percent(token: Token) -> float:
    return round(float(str(token).rstrip("%")) / 100, 6)


def _words(token: Token | None) -> str:
    return "" if token is None else str(token).strip()


@v_args(inline=True)
class _XgTextBuilder(SourceTransformer[PositionExport]):
    """Builds a PositionExport; method names are the rules of ``xg_text.lark``."""

    def players(self, token: Token) -> tuple[str, str]:
        m = _PLAYERS.match(str(token).rstrip("\r"))
        if m is None:  # pragma: no cover - the PLAYERS terminal has this shape
            raise self._fail("expected 'X:name   O:name'", token)
        return (m["o"].strip(), m["x"].strip())

    def score(self, _words: Token | None, x: Token, o: Token, rest: Token | None) -> dict[str, Any]:
        tail = _words_text = _words_of(rest)
        length = _FIRST_INT.search(tail)
        return {
            "score": (self._int(o), self._int(x)),
            "match_length": self._int(Token("INT", length[0])) if length else 0,
            "crawford": "crawford" in _words_text.lower(),
        }

    def board(self, _top: Token, *rows_and_bottom: Token) -> tuple[list[str], list[int]]:
        rows = list(rows_and_bottom[:11])
        return full_lines(self.source, rows)

    def pips(self, _words: Token | None, x: Token, o: Token, _rest: Token | None) -> dict[str, Any]:
        return {"pips": (self._int(o), self._int(x)), "pips_token": x}

    def cube(
        self, _words: Token, value: Token, side: Token | None, _rest: Token | None
    ) -> dict[str, Any]:
        cube = self._int(value)
        owner = None if side is None else (1 if side == "X" else 0)
        return {"cube": cube, "cube_owner": owner}

    def turn(self, side: Token, rest: Token | None) -> dict[str, Any]:
        m = _DICE.search(_words_of(rest))
        dice = (int(m[1]), int(m[2])) if m else None
        return {"turn": 1 if side == "X" else 0, "dice": dice}

    # -- analysis

    def play(self, *parts: list[Step]) -> Play:
        return Play([s for part in parts for s in part])

    def chances(
        self, _label: Token, win: Token, gammon: Token, backgammon: Token
    ) -> tuple[float, float, float]:
        return (_percent(win), _percent(gammon), _percent(backgammon))

    def candidate(
        self,
        _rank: Token,
        level: Token,
        play: Play,
        _eq: Token,
        equity: Token,
        _diff: Token | None,
        me: tuple[float, float, float],
        them: tuple[float, float, float],
    ) -> CandidatePlay:
        return CandidatePlay(play, _float(equity), _chances(me, them), str(level))

    def moves(self, *candidates: CandidatePlay) -> CheckerAnalysis:
        return CheckerAnalysis(tuple(candidates))

    def cubeless(self, _label: Token, _nd: Token, nd: Token, _d: Token, _dv: Token) -> float:
        return _float(nd)

    def equity(self, _label: Token, value: Token, _diff: Token | None) -> float:
        return _float(value)

    def verdict(self, first: Token, second: Token | None) -> str:
        return _words(second) if second is not None else _words(first)

    def wrong(self, _label: Token, _value: Token) -> None:
        return None

    def cube_analysis(
        self,
        header: Token | None,
        me: tuple[float, float, float],
        them: tuple[float, float, float],
        cubeless: float,
        _heading: Token,
        nd: float,
        dt: float,
        dp: float,
        verdict: str,
        _wrong: None,
    ) -> CubeAnalysis:
        heading = _words(header)
        level = _LEVEL.search(heading)
        return CubeAnalysis(
            no_double=nd,
            double_take=dt,
            double_pass=dp,
            probabilities=_chances(me, them),
            cubeless_equity=cubeless,
            level=level[0] if level else (heading or None),
            verdict=verdict,
        )

    def footer(self, _token: Token) -> None:
        return None

    # -- the whole export

    def xg_text(self, xgid: Token, names: tuple[str, str], *items: Any) -> PositionExport:
        fields: dict[str, Any] = {}
        rows: tuple[list[str], list[int]] | None = None
        checker: CheckerAnalysis | None = None
        cube: CubeAnalysis | None = None
        for item in items:
            if isinstance(item, dict):
                fields.update(item)
            elif isinstance(item, tuple):
                rows = item
            elif isinstance(item, CheckerAnalysis):
                checker = item
            elif isinstance(item, CubeAnalysis):
                cube = item
        assert rows is not None  # the grammar requires the board
        lines, starts = rows
        pips = fields.pop("pips")
        pips_token = fields.pop("pips_token")
        try:
            grid = read_grid(lines, _xg_count)
            position = position_from_grid(grid, **fields)
        except (DiagramError, InvalidPositionError) as err:
            raise board_error(err, self.source, starts, self.source_name) from None
        if position.pip_counts() != pips:
            raise self._fail(
                f"the pip counts O {pips[0]}, X {pips[1]} disagree with the diagram"
                f" (O {position.pip_counts()[0]}, X {position.pip_counts()[1]})",
                pips_token,
            )
        return PositionExport(
            position,
            names,
            xgid=str(xgid),
            checker=checker,
            cube=cube,
            line=xgid.line or 1,
        )


def _words_of(token: Token | None) -> str:
    return "" if token is None else str(token).strip()


def _xg_count(text: str, _marks: int) -> int | None:
    """XG writes the point's total in the fifth row (``6`` for six checkers)."""
    return int(text) if text.isascii() and text.isdigit() else None


def _chances(me: tuple[float, float, float], them: tuple[float, float, float]) -> Probabilities:
    return Probabilities(me[0], me[1], me[2], them[1], them[2])
