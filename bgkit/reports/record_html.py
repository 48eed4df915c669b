"""Compact HTML summaries of records, for Jupyter (``Match._repr_html_``, ``Game._repr_html_``).

:func:`match_html` gives the players, the length, the header tags that say where and
when, and one table row per game: the score before it, the rolls, the cube and the
result. :func:`game_html` gives one game the same way. Everything is escaped, and the
markup uses no scripts and only inline styles, so it can go into any page.

Names and file names are shown as :func:`name_html` shows them: control characters and
bidirectional controls made visible (a right-to-left override cannot show "boB" as
"Bob"), in a ``<bdi>`` so that a right-to-left name does not reorder the text around it;
:func:`plain_page` makes such characters visible in a whole page, wherever they came from.

>>> from bgkit.formats.mat import read_mat
>>> match = read_mat("data/fixtures/handwritten_3pt.mat")
>>> page = match_html(match)
>>> page.count("<tr>"), "Alice" in page
(2, True)
>>> "Game 1" in game_html(match.games[0], names=match.players)
True
"""

from __future__ import annotations

import re
from html import escape

from bgkit.errors import visible
from bgkit.records import Beaver, Double, Drop, Game, Match, Move, Raccoon, Take

__all__ = ["game_html", "match_html", "name_html", "plain_page"]

#: Games listed in a match summary; the rest are counted.
MAX_GAMES = 40
_TAGS = ("Event", "Site", "Place", "Date", "EventDate", "Round", "Variation")
_TABLE = 'style="border-collapse:collapse;font-size:90%"'
_CELL = 'style="padding:1px 4px;text-align:left"'
#: The headers and the game, score and rolls columns: short words that never break ("10 5"
#: for 105 rolls at 390 px, where a report breaks its table cells anywhere).
_SHORT = 'style="padding:1px 4px;text-align:left;white-space:nowrap"'


def name_html(text: str) -> str:
    """A player or file name as HTML: escaped, its control and bidirectional characters
    made visible, isolated in ``<bdi>``.

    >>> print(name_html("\u202eecilA <b>"))
    <bdi>\\u202eecilA &lt;b&gt;</bdi>
    """
    return f"<bdi>{escape(visible(text))}</bdi>"


_HIDDEN = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def plain_page(page: str) -> str:
    """``page`` with every bidirectional control, and every control character but tab and
    line breaks, made visible (bgkit's markup has none: any there came from the input)."""
    return _HIDDEN.sub(lambda m: visible(m[0]), page)


def match_html(match: Match) -> str:
    """An HTML summary of ``match``: header line, tags and one row per game."""
    length = f"{match.length}-point match" if match.length else "money session"
    n = len(match.games)
    head = (
        f"<b>{name_html(match.players[0])}</b> vs. <b>{name_html(match.players[1])}</b>, "
        f"{length}, {n} game{'' if n == 1 else 's'}"
    )
    final = _final_score(match)
    if final is not None:
        head += f", final score {final[0]}-{final[1]}"
    parts = [f'<div class="bgkit-match"><div>{head}</div>']
    tags = [(k, v) for k, v in match.tags if k in _TAGS and v]
    if match.source_name or tags:
        items = [f"{escape(k)}: {escape(v)}" for k, v in tags]
        if match.source_name:
            items.insert(0, f"file: {name_html(_file_name(match.source_name))}")
        parts.append(f'<div style="color:#555;font-size:90%">{"; ".join(items)}</div>')
    rows = [_row(game, match.players) for game in match.games[:MAX_GAMES]]
    header = "".join(f"<th {_SHORT}>{h}</th>" for h in ("game", "score", "rolls", "cube", "result"))
    parts.append(f"<table {_TABLE}><thead><tr>{header}</tr></thead><tbody>")
    parts.extend(rows)
    parts.append("</tbody></table>")
    if n > MAX_GAMES:
        parts.append(f"<div>... and {n - MAX_GAMES} more games</div>")
    parts.append("</div>")
    return "".join(parts)


def game_html(game: Game, *, names: tuple[str, str] = ("player 0", "player 1")) -> str:
    """An HTML summary of one game: score before it, rolls, cube actions and result."""
    rolls = len(game.moves)
    lines = [
        f"<b>Game {game.number}</b>, score {game.score[0]}-{game.score[1]}",
        f"{rolls} roll{'' if rolls == 1 else 's'}",
    ]
    cube = _cube_story(game, names)
    if cube:
        lines.append(f"cube: {cube}")
    lines.append(_result(game, names))
    if game.setup is not None:
        lines.append(f"set-up position {escape(game.setup)}")
    return '<div class="bgkit-game">' + "; ".join(lines) + "</div>"


def _row(game: Game, names: tuple[str, str]) -> str:
    cells = (
        str(game.number),
        f"{game.score[0]}-{game.score[1]}",
        str(len(game.moves)),
        _cube_story(game, names) or "-",
        _result(game, names),
    )
    return (
        "<tr>"
        + "".join(f"<td {_SHORT if i < 3 else _CELL}>{c}</td>" for i, c in enumerate(cells))
        + "</tr>"
    )


def _cube_story(game: Game, names: tuple[str, str]) -> str:
    """The cube actions in order: ``Ann doubles to 2, Bo takes``."""
    words: list[str] = []
    for action in game.actions:
        if isinstance(action, Move):
            continue
        who = name_html(names[action.player])
        if isinstance(action, Double):
            words.append(f"{who} doubles to {action.value}")
        elif isinstance(action, Beaver):
            words.append(f"{who} beavers to {action.value}")
        elif isinstance(action, Raccoon):
            words.append(f"{who} raccoons to {action.value}")
        elif isinstance(action, Take):
            words.append(f"{who} takes")
        elif isinstance(action, Drop):
            words.append(f"{who} drops")
    return ", ".join(words)


def _result(game: Game, names: tuple[str, str]) -> str:
    result = game.result
    if result is None:
        return "unfinished"
    points = f"{result.points} point{'' if result.points == 1 else 's'}"
    match = " and the match" if result.match_won else ""
    return f"{name_html(names[result.winner])} wins {points}{match}"


def _file_name(path: str) -> str:
    """The file's name without its folders (a page may travel: the local path is private)."""
    return path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1] or path


def _final_score(match: Match) -> tuple[int, int] | None:
    """The score after the last game, when it has a result."""
    if not match.games or match.games[-1].result is None:
        return None
    last = match.games[-1]
    assert last.result is not None
    score = list(last.score)
    score[last.result.winner] += last.result.points
    return (score[0], score[1])
