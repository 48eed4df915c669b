"""A self-contained HTML report of an analysed match (``bgkit analyze FILE --html OUT``).

:func:`html_report` returns one page that needs nothing else: the figures of
:mod:`bgkit.reports` are inline SVG, the boards of the worst decisions are inline SVG
from :mod:`bgkit.svg`, the styles are in the page, and there are no scripts and no
links to other files or sites. :func:`write_html_report` writes it atomically
(:func:`bgkit.fileio.write_atomic`), never over an existing file unless asked.

The page holds: the match (players, length, games, where it comes from) and the
analysis settings, the per-player statistics as GNU Backgammon's ``show statistics
match`` lays them out, the match-winning chance (or equity) graph with errors and big
luck marked, luck per roll and in total, the histogram of checker-play errors, the pip
count race, the worst decisions with their boards, a per-game table, and the match
decision by decision: each analysed roll and cube decision with its board, the play
made and its mark (``?!`` doubtful, ``?`` bad, ``??`` very bad, by gnubg's thresholds),
the best plays with their equities and chances, the cube decision's three equities, the
luck of the roll; a game index and a link from each error to the next.

>>> from bgkit.formats.mat import read_mat
>>> from bgkit.analysis import analyze
>>> match = read_mat("data/fixtures/handwritten_3pt.mat")
>>> page = html_report(match, analyze(match, jobs=1))
>>> page.startswith("<!DOCTYPE html>"), page.count("<svg") >= 5, "<script" in page
(True, True, False)
"""

from __future__ import annotations

import io
import os
import re
from html import escape
from typing import TYPE_CHECKING, Any

from bgkit.errors import visible
from bgkit.html import name_html
from bgkit.records import Match

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from bgkit.analysis import Analysis

__all__ = ["html_report", "write_html_report"]

#: Decisions shown with their boards.
WORST = 10

_STYLE = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 1100px; color: #222;
       line-height: 1.35; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 1.8em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; font-size: 0.9em; }
th, td { padding: 2px 8px; border-bottom: 1px solid #e4e4e4; text-align: left;
         vertical-align: top; }
td.num, th.num { text-align: right; }
.meta { color: #555; }
figure { margin: 0.8em 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.9em; }
.worst td.board svg { width: 330px; height: auto; }
nav.games a { margin-right: 0.7em; }
.decision { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; padding: 0.6em 0;
            border-bottom: 1px solid #e4e4e4; }
.decision .board svg { width: 280px; max-width: 100%; height: auto; }
.decision .text { flex: 1 1 320px; min-width: 0; }
.decision table.candidates { margin: 0.3em 0; }
.decision tr.played td { font-weight: bold; }
.mark { color: #b00020; font-weight: bold; }
.luck { color: #555; font-style: italic; }
"""


def html_report(match: Match, analysis: Analysis) -> str:
    """The report page as a string (see the module documentation for what it shows).

    :param match: the record that was analysed (its name and games head the page).
    :param analysis: :func:`bgkit.analysis.analyze`'s result for ``match``.
    """
    from bgkit import __version__, reports
    from bgkit.html import match_html, plain_page

    names = match.players
    length = f"{match.length}-point match" if match.length else "money session"
    title = f"{names[0]} vs. {names[1]}, {length}"
    settings = analysis.settings
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(visible(title))}: bgkit analysis</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{name_html(names[0])} vs. {name_html(names[1])}, {length}</h1>",
        f'<p class="meta">Analysed by {escape(str(settings["description"]))};'
        f" ratings on gnubg's {escape(str(settings['rating_scale']))} scale;"
        f" {escape(str(settings['pr']))}. Report by bgkit {__version__}.</p>",
        match_html(match),
        "<h2>Statistics</h2>",
        _table(reports.summary_table(analysis), "summary"),
        '<p class="meta">Errors are negative, as GNU Backgammon prints them; EMG is'
        " normalised (money-equivalent) equity, mEMG thousandths of it"
        + (", MWC match-winning chance." if match.length else ", money figures in points.")
        + "</p>",
        "<h2>Match-winning chance</h2>" if match.length else "<h2>Equity</h2>",
        _figure(
            reports.equity_figure(analysis),
            "equity",
            "Before each roll, from the analysis's 0-ply luck evaluation. Crosses: decisions"
            " marked bad or very bad; stars: rolls marked lucky or unlucky.",
        )
        if any(row["equity_before"] is not None for row in analysis.rows)
        else '<p class="meta">The record\'s own analysis gives no equity before each roll,'
        " so there is no graph of it.</p>",
        "<h2>Luck</h2>",
        _figure(
            reports.luck_figure(analysis),
            "luck",
            "Luck of each roll (the roll's equity minus the average of all 36 rolls) and"
            " each player's running total.",
        ),
        "<h2>Checker-play errors</h2>",
        _figure(
            reports.error_histogram(analysis), "errors", "Errors of the unforced moves, in mEMG."
        ),
        "<h2>Race</h2>",
        _figure(reports.pip_count_figure(match), "race", "Pip counts before each roll."),
        f"<h2>Worst decisions</h2>{_worst(analysis)}",
        "<h2>Games</h2>",
        _table(_games(analysis), "games"),
        _decisions(analysis),
        "</body></html>",
    ]
    return plain_page("\n".join(parts) + "\n")


def write_html_report(
    match: Match,
    analysis: Analysis,
    path: str | os.PathLike[str],
    *,
    force: bool = False,
) -> None:
    """Write :func:`html_report` to ``path`` (UTF-8), atomically.

    :param force: replace ``path`` when it exists.
    :raises FileExistsError: when ``path`` exists and ``force`` is false.
    """
    from bgkit.fileio import write_atomic

    write_atomic(path, html_report(match, analysis).encode("utf-8"), force=force)


# ---------------------------------------------------------------------- parts


def _figure(fig: Figure, key: str, caption: str) -> str:
    """A figure as inline SVG; text stays text and every id gets the prefix ``key``.

    Each figure of a page needs its own ``key``: matplotlib names its clip paths and
    markers by their content, so two figures could otherwise define the same id.
    """
    import matplotlib

    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "bgkit"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r'(\bid="|url\(#|href="#)', lambda m: f"{m.group(1)}{key}-", svg)
    title = fig.axes[0].get_title() if fig.axes else ""
    return (
        f'<figure aria-label="{escape(title)}">{svg}'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _table(frame: pd.DataFrame, css: str) -> str:
    html: str = frame.to_html(classes=css, border=0, na_rep="", escape=True)
    return html


def _worst(analysis: Analysis) -> str:
    from bgkit import reports

    frame = reports.worst_plays(analysis, WORST, boards=True, size=330)
    if frame.empty:
        return "<p>No errors.</p>"
    unit = "MWC" if analysis.match.length else "points"
    head = "<tr><th>#</th><th>decision</th><th>board (arrows: the play made)</th></tr>"
    rows = []
    for rank, (_, row) in enumerate(frame.iterrows(), start=1):
        what = (
            f"{escape(str(row['dice']))}: {escape(str(row['played']))}"
            if row["kind"] == "checker"
            else f"cube: {escape(str(row['played']))}"
        )
        cost = row["error_mwc"]
        cost_text = f"{100 * cost:.2f}% MWC" if unit == "MWC" else f"{cost:.3f} points"
        detail = (
            f"<b>Game {row['game']}, move {row['move']}, {name_html(str(row['name']))}</b><br>"
            f"{what}<br>best: {escape(str(row['best']))}<br>"
            f"error {1000 * row['error_emg']:.1f} mEMG ({cost_text})"
            + (f", {escape(str(row['skill']))}" if row["skill"] else "")
            + f'<br><span class="meta">{escape(str(row["position_id"]))}</span>'
        )
        rows.append(
            f'<tr><td class="num">{rank}</td><td>{detail}</td>'
            f'<td class="board">{row["board"]}</td></tr>'
        )
    return f'<table class="worst">{head}{"".join(rows)}</table>'


_LUCK = {
    "very lucky": "joker",
    "very unlucky": "anti-joker",
    "lucky": "lucky",
    "unlucky": "unlucky",
}


def _decisions(analysis: Analysis) -> str:
    """Every analysed decision of the match in order, grouped by game (see the module)."""
    from bgkit import Position
    from bgkit.play import Play
    from bgkit.svg import position as board_svg

    rows, notes = analysis.rows, analysis.notes
    shown = [i for i, note in enumerate(notes) if note is not None]
    errors = [i for i in shown if rows[i]["skill"] or rows[i]["cube_skill"]]
    next_error = dict(zip(errors, [*errors[1:], None], strict=True))
    games: dict[int, list[int]] = {}
    for i in shown:
        games.setdefault(rows[i]["game"], []).append(i)
    index = " ".join(
        f'<a href="#game-{g}">game {g} ({escape(str(rows[items[0]]["score"]))})</a>'
        for g, items in games.items()
    )
    first = f' <a href="#d-{errors[0]}">first error</a>' if errors else ""
    out = [
        '<h2 id="decisions">The match, decision by decision</h2>',
        f'<nav class="games">{index}{first}</nav>',
    ]
    names = analysis.match.players
    for game, items in games.items():
        out.append(
            f'<h3 id="game-{game}">Game {game}, score {escape(str(rows[items[0]]["score"]))}</h3>'
        )
        for i in items:
            row, note = rows[i], notes[i]
            assert note is not None
            pos = Position.from_gnubg_id(str(row["position_id"]))
            play = None
            if row["action"] == "move" and row["dice"]:
                pos = pos.with_dice(int(row["dice"][0]), int(row["dice"][1]))
                play = Play.parse(str(row["play"] or ""))
            board = board_svg(pos, size=280, last_play=play, names=names)
            text = [f"<p><b>{row['move']}. {name_html(str(row['name']))}</b> "]
            label = str((row["skill"] if row["action"] == "move" else row["cube_skill"]) or "")
            if row["action"] == "move":
                what = row["play"] if row["play"] is not None else "(no play)"
                text.append(f"rolls {escape(str(row['dice']))}: {escape(str(what))}")
            else:
                text.append(escape(str(row["action"])))
            text.append(_mark(label))
            luck = _LUCK.get(str(row["luck"] or ""))
            if luck:
                text.append(f' <span class="luck">{luck}</span>')
            text.append("</p>")
            if note.cube is not None:
                text.append(_cube_line(row, note.cube))
            if note.checker is not None and note.checker.candidates:
                text.append(_candidates_table(note.checker))
            if i in next_error:
                after = next_error[i]
                link = f'<a href="#d-{after}">next error</a>' if after is not None else "last error"
                text.append(f'<p class="meta">{link} · <a href="#decisions">index</a></p>')
            css = "decision error" if i in next_error else "decision"
            out.append(
                f'<section class="{css}" id="d-{i}"><div class="board">{board}</div>'
                f'<div class="text">{"".join(text)}</div></section>'
            )
    return "\n".join(out)


def _mark(label: str) -> str:
    """A decision's mark as gnubg signs it (``?!``, ``?``, ``??``), named on hover."""
    from bgkit.metrics import SKILL_SIGNS

    if label not in SKILL_SIGNS:
        return ""
    return f' <span class="mark" title="{escape(label)}">{SKILL_SIGNS[label]}</span>'


def _cube_line(row: dict[str, Any], cube: Any) -> str:
    parts = [
        f"no double {cube.no_double:+.3f}",
        f"double/take {cube.double_take:+.3f}",
        f"double/pass {cube.double_pass:+.3f}",
    ]
    error = row["cube_error_emg"] or 0.0
    done = escape(str(row["cube_action"] or ""))
    mark = _mark(str(row["cube_skill"] or ""))
    cost = f"; {done}: error {1000 * error:.1f} mEMG{mark}" if error else ""
    verdict = cube.verdict or cube.proper_action or ""  # (XG's files do not word it)
    return f"<p>Cube: {' · '.join(parts)} → <b>{escape(str(verdict))}</b>{cost}</p>"


def _candidates_table(checker: Any) -> str:
    best = checker.candidates[0].equity
    head = (
        "<tr><th>play</th><th class=num>equity</th><th class=num>diff.</th>"
        "<th class=num>win</th><th class=num>gammon</th><th class=num>lose g.</th></tr>"
    )
    body = []
    for k, c in enumerate(checker.candidates):
        p = c.probabilities
        chances = (
            f"<td class=num>{100 * p.win:.1f}%</td><td class=num>{100 * p.win_gammon:.1f}%</td>"
            f"<td class=num>{100 * p.lose_gammon:.1f}%</td>"
            if p is not None
            else "<td></td><td></td><td></td>"
        )
        css = ' class="played"' if k == checker.played else ""
        body.append(
            f"<tr{css}><td>{escape(str(c.play))}</td><td class=num>{c.equity:+.3f}</td>"
            f"<td class=num>{c.equity - best:+.3f}</td>{chances}</tr>"
        )
    return f'<table class="candidates">{head}{"".join(body)}</table>'


def _games(analysis: Analysis) -> pd.DataFrame:
    """Per game and player: errors, luck and result."""
    import pandas as pd

    games = analysis.games
    is_match = analysis.match.length > 0
    columns: dict[str, Any] = {
        "game": games["game"],
        "player": games["name"],
        "unforced moves": games["unforced_moves"],
        "error rate (mEMG)": games["error_rate_memg"].astype(float).round(1),
        "luck (EMG)": games["luck_emg"].astype(float).round(3),
    }
    result = games["actual_result"].astype(float)
    if is_match:
        columns["result (MWC %)"] = (100 * result).round(2)
    else:
        columns["result (points)"] = result.round(2)
    return pd.DataFrame(columns).set_index(["game", "player"])
