"""Read BGBlitz's position text exports (English, German, French, Japanese).

BGBlitz writes an ASCII diagram (O's name and pips on the top frame, X's on the bottom
one, the cube in a box right of the board), the GNU Backgammon Position ID and Match ID,
the XGID, the score, whose turn it is and, when analysed, the candidate plays or the cube
decision. The syntax lives in ``grammars/bgblitz_text.lark``.

:func:`parse_bgblitz_text` builds the :class:`~bgkit.position.Position` from the diagram
and the score and turn lines, and returns the printed IDs beside it.

>>> export = read_bgblitz_text("data/real/bgblitz_txt/kevung__bgfparser__01_checkerPosition_DE.txt")
>>> export.position == Position.from_gnubg_id(f"{export.position_id}:{export.match_id}")
True
>>> export.names, export.position.dice
(('Grün', 'Rot'), (1, 2))
>>> best = export.checker.best
>>> best.play, best.equity, best.match_winning_chance
(Play('19/18 14/12'), -0.492, 0.124)

**Dice.** The turn line writes the dice as rolled (``Red to move 1-2``), and so does the
Match ID; BGBlitz's XGID writes them high die first (``21``). The position keeps the
turn line's order, so it equals the position of the GNU IDs exactly and that of the XGID
up to the order of the dice.

**What is read.** The diagram: marks from the edge; in the fifth row BGBlitz writes how
many checkers there are *beyond the four marks* (``2`` on a point of six); bar checkers
in the middle column; the cube box (upper half: O owns it, lower half: X owns it, none:
centred at 1). The names and pips on the frames (the pips are checked). The score line
``Green - 6 Red - 3 in a 7 point match.`` (a line without ``point match`` is a money
game) and ``Crawford``. The turn line: whose name starts it and the dice ``1-2`` if any.
The analysis: candidates (rank, match winning chance, EMG equity, play, chances), or the
cube table (chances of both sides, cubeless and cubeful equity, BGBlitz's verdict
verbatim, and the three options, told apart by their words in any of the four languages;
their second column, the EMG equities, become the cube equities).

**What is rejected** (:class:`~bgkit.errors.NotationError` with line and column): text
not in this layout, a diagram cell that is neither a mark nor a count, pip counts that
disagree with the diagram, names in the score or turn line that are not the frame's, a
diagram that is no position.
"""

from __future__ import annotations

import os
import re
import string
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

__all__ = ["Position", "parse_bgblitz_text", "read_bgblitz_text", "sniff_bgblitz_text"]

_SIDE = re.compile(r"[OX]:")
# Time linear in a line (a line may hold 100,000 characters): a run of blanks or digits
# is tried from its start only (``(?<!\s)``, ``(?<![0-9])``), not again from each of its
# characters, which made each pattern quadratic in the run (the tests keep the old
# patterns, matching as these do: 30,000 digits in the score line took 10 s).
_SCORE = re.compile(
    r"^(?P<a>.+?)(?<!\s)\s+-\s*(?P<sa>[0-9]+)\s+(?P<b>.+?)(?<!\s)\s+-\s*(?P<sb>[0-9]+)\b"
    r"(?P<rest>.*)$"
)
_LENGTH = re.compile(r"(?<![0-9])([0-9]+)\s*point", re.IGNORECASE)
_TURN_DICE = re.compile(r"([1-6])\s*-\s*([1-6])(?:\s*\.)?\s*$")
_CUBE_BOX = re.compile(r"\|\s*([0-9]+)\s*\|")
_NUMBERS = re.compile(r"[-+]?(?<![0-9])[0-9]+\.[0-9]+")
_LAST_WORD = re.compile(r"(?<!\s)\s+\S+$")
_TAKE_WORDS = ("take", "annehmen", "prendre", "受ける")
_PASS_WORDS = ("pass", "ablehnen", "refuser", "降りる", "reject", "drop")


def sniff_bgblitz_text(text: str) -> bool:
    """True when ``text`` starts like a BGBlitz position export (a board frame with a name).

    >>> sniff_bgblitz_text(" +13-14-15-16-17-18------19-20-21-22-23-24-+   O: Green  52\\n")
    True
    """
    head = text.lstrip("\ufeff \t\r\n")
    return bool(re.match(r"\+13-[-0-9]+\+\s+O:", head))


def read_bgblitz_text(
    source: str | os.PathLike[str] | IO[str] | IO[bytes], *, encoding: str | None = None
) -> PositionExport:
    """:func:`parse_bgblitz_text` of a file path or an open file (text or binary).

    :raises FileNotFoundError: when the path does not exist.
    :raises NotationError: when the text is not a BGBlitz position export.
    """
    text, name = source_text(source, encoding=encoding)
    return parse_bgblitz_text(text, source_name=name)


def parse_bgblitz_text(text: str, *, source_name: str | None = None) -> PositionExport:
    """Read a BGBlitz position text export (see the module docstring).

    >>> parse_bgblitz_text(" +13-14-15-16-17-18------19-20-21-22-23-24-+   O: Green  52\\n")
    Traceback (most recent call last):
    ...
    bgkit.errors.NotationError: 2:1: BGBlitz position export ends too early; expected row ...

    :raises NotationError: when the text is not a BGBlitz position export.
    """
    source = text[1:] if text.startswith("\ufeff") else text
    check_export_size(source, "BGBlitz position export", source_name)
    tree = parse_tree("bgblitz_text", source, "BGBlitz position export", source_name=source_name)
    export: PositionExport = build(
        with_plays(_BgblitzBuilder(source, source_name)), tree, source, source_name=source_name
    )
    return export


def _frame_label(tail: str) -> tuple[str, str, str] | None:
    """``(side, name, pips)`` of the label right of a frame (``O: name  167``), ``None``
    when there is none: what ``([OX]):\\s*(.*?)\\s+([0-9]+)\\s*$`` searched for in
    ``tail`` (one line), read in time linear in it; the pattern backtracked over each
    blank of a long run in a name (1,200 blanks took 4.6 s; a line may hold 100,000)."""
    text = tail.rstrip()
    digits = len(text.rstrip(string.digits))
    if digits == len(text) or digits == 0 or not text[digits - 1].isspace():
        return None
    side = _SIDE.search(text, 0, digits - 1)  # (a blank left between it and the pips)
    if side is None:
        return None
    return side[0][0], text[side.end() : digits].strip(), text[digits:]


def _bgblitz_count(text: str, marks: int) -> int | None:
    """BGBlitz writes the checkers beyond the marks below (``2`` over four marks: six)."""
    return marks + int(text) if text.isascii() and text.isdigit() else None


@v_args(inline=True)
class _BgblitzBuilder(SourceTransformer[PositionExport]):
    """Builds a PositionExport; method names are the rules of ``bgblitz_text.lark``."""

    def board(self, top: Token, *rest: Token) -> dict[str, Any]:
        rows, bottom = list(rest[:11]), rest[11]
        lines, starts = full_lines(self.source, rows)
        labels: dict[str, tuple[str, int]] = {}
        for frame in (top, bottom):
            tail = str(frame).rstrip("\r")
            tail = tail[tail.rfind("+") + 1 :]
            label = _frame_label(tail)
            if label is None:
                raise self._fail("expected 'O: name  pips' right of the frame", frame)
            side, name, pips = label
            if len(pips) > 4:
                raise self._fail(f"pip count too large: {pips[:12]}", frame)
            labels[side] = (name, int(pips))
        if set(labels) != {"O", "X"}:
            raise self._fail("the frames must name O (top) and X (bottom)", top)
        cube, owner = 1, None
        for i, line in enumerate(lines):
            box = _CUBE_BOX.search(line[44:])
            if box is not None and len(box[1]) <= 5:
                cube = int(box[1])
                owner = None if i == 5 else (0 if i < 5 else 1)
        return {
            "lines": lines,
            "starts": starts,
            "names": (labels["O"][0], labels["X"][0]),
            "pips": (labels["O"][1], labels["X"][1]),
            "frame": bottom,
            "cube": cube,
            "cube_owner": owner,
        }

    def ids(self, position_id: Token, match_id: Token) -> tuple[str, str]:
        return (str(position_id), str(match_id))

    # -- analysis

    def play(self, *parts: list[Step]) -> Play:
        return Play([s for part in parts for s in part])

    def candidate(
        self,
        _rank: Token,
        mwc: Token,
        _mwp: Token,
        equity: Token,
        _diff: Token | None,
        play: Play,
        *chances: Token,
    ) -> CandidatePlay:
        w, wg, wb, _l, lg, lb = (float(c) for c in chances)
        return CandidatePlay(
            play, float(equity), Probabilities(w, wg, wb, lg, lb), match_winning_chance=float(mwc)
        )

    def moves(self, _rule: Token, *candidates: CandidatePlay) -> CheckerAnalysis:
        return CheckerAnalysis(tuple(candidates))

    def cube_body(self, *lines: Token) -> dict[str, Any]:
        return {"cube_lines": lines}

    def analysis(self, heading: Token, body: CheckerAnalysis | dict[str, Any]) -> Any:
        if isinstance(body, CheckerAnalysis):
            level = re.search(r"\(([^)]*)\)", str(heading))
            return CheckerAnalysis(
                tuple(
                    CandidatePlay(
                        c.play,
                        c.equity,
                        c.probabilities,
                        level[1] if level else None,
                        c.match_winning_chance,
                    )
                    for c in body.candidates
                )
            )
        return body

    def bgblitz_text(
        self,
        board: dict[str, Any],
        ids: tuple[str, str],
        xgid: Token,
        score: Token,
        turn: Token,
        analysis: Any,
    ) -> PositionExport:
        names: tuple[str, str] = board["names"]
        fields = self.score(score, names)
        fields.update(self.turn(turn, names))
        fields["cube"], fields["cube_owner"] = board["cube"], board["cube_owner"]
        try:
            grid = read_grid(board["lines"], _bgblitz_count)
            position = position_from_grid(grid, **fields)
        except (DiagramError, InvalidPositionError) as err:
            raise board_error(err, self.source, board["starts"], self.source_name) from None
        if position.pip_counts() != board["pips"]:
            raise self._fail(
                f"the pip counts O {board['pips'][0]}, X {board['pips'][1]} disagree with"
                f" the diagram (O {position.pip_counts()[0]}, X {position.pip_counts()[1]})",
                board["frame"],
            )
        checker = analysis if isinstance(analysis, CheckerAnalysis) else None
        cube = None
        if isinstance(analysis, dict):
            cube = self.cube(analysis["cube_lines"], names, position.turn)
        return PositionExport(
            position,
            names,
            xgid=str(xgid),
            position_id=ids[0],
            match_id=ids[1],
            checker=checker,
            cube=cube,
            line=1,
        )

    def score(self, token: Token, names: tuple[str, str]) -> dict[str, Any]:
        m = _SCORE.match(str(token).strip())
        if m is None:
            raise self._fail("expected 'name - score name - score in a N point match'", token)
        scores = {m["a"].strip(): m["sa"], m["b"].strip(): m["sb"]}
        if set(scores) != set(names):
            raise self._fail(
                f"the score line names {sorted(scores)}, the diagram {sorted(names)}", token
            )
        values = [scores[names[0]], scores[names[1]]]
        length = _LENGTH.search(m["rest"])
        for text in (*values, length[1] if length else ""):
            if len(text) > 4:
                raise self._fail(f"number too large: {text[:12]}", token)
        return {
            "score": (int(values[0]), int(values[1])),
            "match_length": int(length[1]) if length else 0,
            "crawford": "crawford" in m["rest"].lower(),
        }

    def turn(self, token: Token, names: tuple[str, str]) -> dict[str, Any]:
        text = str(token).strip()
        starts = [i for i in (0, 1) if text.startswith(names[i])]
        if not starts:
            raise self._fail(f"the turn line names neither {names[0]!r} nor {names[1]!r}", token)
        turn = max(starts, key=lambda i: len(names[i]))
        m = _TURN_DICE.search(text[len(names[turn]) :])
        return {"turn": turn, "dice": (int(m[1]), int(m[2])) if m else None}

    def cube(self, lines: tuple[Token, ...], names: tuple[str, str], turn: int) -> CubeAnalysis:
        rows = {}
        for token in lines[:2]:
            text = str(token).strip()
            numbers = _NUMBERS.findall(text)
            rows[text[: text.find(numbers[0])].strip()] = [
                round(float(n) / 100, 6) for n in numbers[-3:]
            ]
        me, them = rows.get(names[turn]), rows.get(names[1 - turn])
        chances = None
        if me is not None and them is not None:
            chances = Probabilities(me[0], me[1], me[2], them[1], them[2])
        cubeless = _after_colon(lines[2])
        verdict_text = str(lines[4]).strip()
        verdict = verdict_text.split(":")[-1].strip()
        equities: dict[str, float] = {}
        for token in lines[5:8]:
            label, _, values = str(token).partition(":")
            numbers = _NUMBERS.findall(values)
            kind = _option(label)
            if kind is None or len(numbers) < 2 or kind in equities:
                raise self._fail(f"not a cube option: {label.strip()!r}", token)
            equities[kind] = float(numbers[2] if len(numbers) > 2 else numbers[1])
        return CubeAnalysis(
            no_double=equities["nd"],
            double_take=equities["dt"],
            double_pass=equities["dp"],
            probabilities=chances,
            cubeless_equity=cubeless,
            level=verdict_text.split()[-1] if verdict_text.split() else None,
            verdict=_LAST_WORD.sub("", verdict) or None,
        )


def _after_colon(token: Token) -> float | None:
    numbers = _NUMBERS.findall(str(token).partition(":")[2])
    return float(numbers[0]) if numbers else None


def _option(label: str) -> str | None:
    words = label.lower()
    if "/" not in words:
        return "nd"
    if any(w in words for w in _TAKE_WORDS):
        return "dt"
    if any(w in words for w in _PASS_WORDS):
        return "dp"
    return None
