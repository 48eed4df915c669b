"""A self-contained HTML report of an analysed match (``bgkit analyze FILE --html OUT``).

:func:`html_report` returns one page that needs nothing else: the figures of
:mod:`bgkit.reports` are inline SVG, the match viewer (:mod:`bgkit.reports.viewer`) brings its
data, style and a small plain script in the page, and nothing links to other files or
sites. :func:`write_html_report` writes it atomically
(:func:`bgkit.fileio.write_atomic`), never over an existing file unless asked.

The page holds: the match (players, length, games, where it comes from), who won, and
the analysis settings; the match action by action in the viewer (one large board, the
arrow keys, buttons or a swipe to step, the candidates of each roll with where each
leads, the play made and the best play drawn, the cube decision's three equities and
its chances, marks ``?!`` doubtful, ``?`` bad, ``??`` very bad by gnubg's thresholds,
and the luck of each roll, a move list to jump anywhere); the per-player statistics as
GNU Backgammon's ``show statistics match`` lays them out; the match-winning chance (or
equity) graph with errors and big luck marked (a click on a point shows that roll in the
viewer); luck per roll and in total; the histogram of checker-play errors; the pip count
race; the worst decisions with their boards; a per-game table with each game's PR. The
figures are drawn 5 inches wide with no text under 9 points, so that the page reads on
a phone (390 CSS px) as on a desktop; a 13-point match makes a page under 1 MB.

>>> from bgkit.formats.mat import read_mat
>>> from bgkit.analysis import analyze
>>> match = read_mat("data/fixtures/handwritten_3pt.mat")
>>> page = html_report(match, analyze(match, 0, jobs=1))
>>> page.startswith("<!DOCTYPE html>"), page.count("<figure"), "bgkit-viewer" in page
(True, 4, True)
"""

from __future__ import annotations

import io
import os
import re
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from bgkit.errors import visible
from bgkit.records import Match
from bgkit.reports.record_html import name_html

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from bgkit.analysis.match import Analysis

__all__ = ["MatchReport", "html_report", "write_html_report"]

#: Decisions shown with their boards.
WORST = 10

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1em auto; max-width: 1100px; color: #222;
       line-height: 1.35; padding: 0 0.6em; font-size: 16px; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; overflow-wrap: anywhere; }
h2 { font-size: 1.25em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
.scroll { max-width: 100%; overflow-x: auto; }
table { border-collapse: collapse; font-size: 0.9em; }
table { max-width: 100%; }
th, td { padding: 2px 6px; border-bottom: 1px solid #e4e4e4; text-align: left;
         vertical-align: top; overflow-wrap: anywhere; }
@media (max-width: 600px) { th, td { padding: 2px 3px; } table { font-size: 0.8em; } }
td.num, th.num { text-align: right; }
.meta { color: #555; overflow-wrap: anywhere; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 460px), 1fr));
           gap: 0.5em 1.5em; }
figure { margin: 0.8em 0; min-width: 0; }
figure svg { display: block; width: 100%; max-width: 720px; height: auto; }
figure svg text { font-family: 'DejaVu Sans', Verdana, sans-serif; }
figcaption { color: #555; font-size: 0.9em; }
.bgkit-match table { max-width: 100%; }
.worst { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 330px), 1fr));
         gap: 1em; }
.worst > div { min-width: 0; }
.worst svg { display: block; width: 100%; max-width: 480px; height: auto; }
.worst button, .jump { font: inherit; font-size: 0.9em; padding: 2px 8px; cursor: pointer; }
.mark { color: #b00020; font-weight: bold; }
"""


def html_report(match: Match, analysis: Analysis) -> str:
    """The report page as a string (see the module documentation for what it shows).

    :param match: the record that was analysed (its name and games head the page).
    :param analysis: :func:`bgkit.analysis.match.analyze`'s result for ``match``.
    """
    from bgkit import __version__
    from bgkit.reports import figures as reports
    from bgkit.reports.record_html import match_html, plain_page
    from bgkit.reports.viewer import viewer_html

    names = match.players
    length = f"{match.length}-point match" if match.length else "money session"
    title = f"{names[0]} vs. {names[1]}, {length}"
    settings = analysis.settings
    marks = " and ".join(f"{('circles', 'diamonds')[p]} ({escape(names[p])})" for p in (0, 1))
    has_equity = any(row["equity_before"] is not None for row in analysis.rows)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(visible(title))}: bgkit analysis</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{name_html(names[0])} vs. {name_html(names[1])}, {length}</h1>",
        f"<p><b>{escape(_outcome(match))}</b></p>",
        f'<p class="meta">Analysed by {escape(str(settings["description"]))};'
        f" ratings on gnubg's {escape(str(settings['rating_scale']))} scale;"
        f" {escape(str(settings['pr']))}. Report by bgkit {__version__}.</p>",
        f'<div class="scroll">{match_html(match)}</div>',
        '<h2 id="viewer">The match, action by action</h2>',
        viewer_html(match, analysis, keys="page"),
        "<h2>Statistics</h2>",
        _table(reports.summary_table(analysis), "summary"),
        '<p class="meta">Errors are negative, as GNU Backgammon prints them; EMG is'
        " normalised (money-equivalent) equity, mEMG thousandths of it"
        + (", MWC match-winning chance." if match.length else ", money figures in points.")
        + "</p>",
        _skipped(analysis),
        "<h2>Match-winning chance</h2>" if match.length else "<h2>Equity</h2>",
        _figure(
            reports.equity_figure(analysis),
            "equity",
            "Before each roll, from the analysis's 0-ply luck evaluation (click a point to"
            f" see it in the viewer). Marked: decisions marked doubtful, bad or very bad as"
            f" {marks}, bigger and redder the worse; stars: rolls marked lucky or unlucky.",
            links=_equity_links(analysis),
        )
        if has_equity
        else '<p class="meta">The record\'s own analysis gives no equity before each roll,'
        " so there is no graph of it.</p>",
        '<div class="figures">',
        _figure(
            reports.luck_figure(analysis),
            "luck",
            "Luck of each roll (the roll's equity minus the average of all 36 rolls) and"
            " each player's running total.",
        ),
        _figure(
            reports.error_histogram(analysis), "errors", "Errors of the unforced moves, in mEMG."
        ),
        _figure(reports.pip_count_figure(match), "race", "Pip counts before each roll."),
        "</div>",
        f"<h2>Worst decisions</h2>{_worst(analysis)}",
        "<h2>Games</h2>",
        _table(_games(analysis), "games"),
        "</body></html>",
    ]
    return plain_page("\n".join(parts) + "\n")


def _skipped(analysis: Analysis) -> str:
    """The decisions not analysed (a roll whose play the record does not give), or ``""``."""
    lines = [
        f"<li>game {s['game']}, move {s['move']}, {escape(str(s['name']))}"
        f" ({escape(str(s['dice']))}): {escape(s['reason'])}</li>"
        for s in analysis.skipped
        if s["reason"].startswith("the play for")
    ]
    if not lines:
        return ""
    return (
        '<p class="meta">Not analysed: these plays, and what follows each in its game.</p><ul>'
        + "".join(lines)
        + "</ul>"
    )


def _outcome(match: Match) -> str:
    """Who won, and the final score; or where an unfinished record stops."""
    from bgkit.reports.record_html import _final_score

    final = _final_score(match)
    names = match.players
    if not match.games:
        return "The record holds no game."
    last = match.games[-1]
    if final is None or last.result is None:
        score = f"{last.score[0]}-{last.score[1]}"
        return f"The record stops during game {last.number} (score {score} before it)."
    winner = last.result.winner
    if match.length and (last.result.match_won or final[winner] >= match.length):
        return f"{names[winner]} wins the match {final[winner]}-{final[1 - winner]}."
    if match.length:
        return f"The record stops at {final[0]}-{final[1]} ({names[0]} first)."
    lead = 0 if final[0] >= final[1] else 1
    if final[0] == final[1]:
        return f"The session ends even, {final[0]}-{final[1]}."
    return (
        f"{names[lead]} wins the session by {final[lead] - final[1 - lead]} points"
        f" ({final[lead]}-{final[1 - lead]})."
    )


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


@dataclass(frozen=True, slots=True)
class MatchReport:
    """The report of an analysed match, as an object: a notebook shows it as the match
    viewer with the statistics (``_repr_html_``, no server needed); :meth:`html` is the
    whole page and :meth:`write` writes it.

    >>> from bgkit.formats.mat import read_mat
    >>> from bgkit.analysis import analyze
    >>> match = read_mat("data/fixtures/handwritten_3pt.mat")
    >>> report = MatchReport(match, analyze(match, 0, jobs=1))
    >>> "bgkit-viewer" in report._repr_html_()
    True
    """

    match: Match
    analysis: Analysis

    def html(self) -> str:
        """The self-contained page (:func:`html_report`)."""
        return html_report(self.match, self.analysis)

    def write(self, path: str | os.PathLike[str], *, force: bool = False) -> None:
        """Write the page to ``path`` (:func:`write_html_report`)."""
        write_html_report(self.match, self.analysis, path, force=force)

    def _repr_html_(self) -> str:
        from bgkit.reports import figures as reports
        from bgkit.reports.viewer import viewer_html

        return (
            f"<p><b>{escape(_outcome(self.match))}</b></p>"
            + viewer_html(self.match, self.analysis)
            + _table(reports.summary_table(self.analysis), "summary")
        )

    def __repr__(self) -> str:
        return f"MatchReport({self.match!r}, {self.analysis!r})"


# ---------------------------------------------------------------------- parts


def _figure(
    fig: Figure, key: str, caption: str, links: list[tuple[float, float, int, str]] | None = None
) -> str:
    """A figure as inline SVG; text stays text and every id gets the prefix ``key``.

    Each figure of a page needs its own ``key``: matplotlib names its clip paths and
    markers by their content, so two figures could otherwise define the same id. The
    figure is redrawn 5 inches wide with no text under 9 points, so that it stays
    readable on a phone (9 CSS px at 390 px). ``links`` are ``(x, y, step, title)``
    points in the first axes' data: each becomes a target that shows viewer step
    ``step``.
    """
    import matplotlib

    buffer = io.StringIO()
    # (text as written, as the figure was drawn: the legend _narrow makes anew, and the
    # saving, would read a '$' in a player's name as mathematics)
    with matplotlib.rc_context(
        {"svg.fonttype": "none", "svg.hashsalt": "bgkit", "text.parse_math": False}
    ):
        _narrow(fig)
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    svg = buffer.getvalue()
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r'(\bid="|url\(#|href="#)', lambda m: f"{m.group(1)}{key}-", svg)
    svg = _compact(svg)
    if links and fig.axes:
        svg = svg.replace("</svg>", _link_layer(fig, links) + "</svg>")
    title = fig.axes[0].get_title() if fig.axes else ""
    return (
        f'<figure aria-label="{escape(title)}">{svg}'
        f"<figcaption>{escape(caption)}</figcaption></figure>"
    )


def _compact(svg: str) -> str:
    """matplotlib's SVG in about half the bytes, drawn the same: coordinates to a hundredth
    of a point (finer than a pixel), no indentation, the font named once by the page."""
    svg = re.sub(r">\s+<", "><", svg)
    svg = re.sub(r'<g id="[^"]*">', "<g>", svg)  # (only clip paths and markers are used)
    svg = re.sub(r' d="[^"]*"', lambda m: re.sub(r"\s+", " ", m.group(0)), svg)
    svg = re.sub(r"font-family: [^;\"]*;? ?", "", svg)
    svg = re.sub(r' (d|x|y|transform)="[^"]*"', _tenths, svg)
    svg = re.sub(r"<[^>]*>", lambda m: re.sub(r"(\.\d\d)\d+", r"\1", m.group(0)), svg)
    while True:  # a group of one element, with nothing of its own, is that element
        shorter = re.sub(r"<g>(<(?:use|path|circle|text)[^>]*/>)</g>", r"\1", svg)
        if shorter == svg:
            return svg
        svg = shorter


def _tenths(match: re.Match[str]) -> str:
    return re.sub(r"(\.\d)\d+", r"\1", match.group(0))


_FIG_WIDTH = 5.0  # inches: at 390 px a 9-point text is 9.7 CSS px
_MIN_FONT = 9.0


def _narrow(fig: Figure) -> None:
    """Redraw ``fig`` :data:`_FIG_WIDTH` wide: titles and labels wrapped, legends in one
    column below their axes, no text under :data:`_MIN_FONT` points."""
    import textwrap

    from matplotlib.text import Text

    width, height = fig.get_size_inches()
    if width <= _FIG_WIDTH:
        return
    handles: list[Any] = []
    labels: list[str] = []
    for ax in fig.axes:
        ax.set_title(textwrap.fill(ax.get_title(), 48), fontsize=11)
        ax.set_xlabel(textwrap.fill(ax.get_xlabel(), 60))
        ax.set_ylabel(textwrap.fill(ax.get_ylabel(), 34))
        legend = ax.get_legend()
        if legend is None:
            continue
        handles.extend(legend.legend_handles)
        labels.extend(t.get_text() for t in legend.get_texts())
        legend.remove()
    if labels:  # one legend for the figure, below it, where it has room
        fig.legend(
            handles, labels, loc="outside lower left", ncols=1, fontsize=_MIN_FONT, frameon=False
        )
    entries = len(labels)
    axes_height = max(3.0, height * (_FIG_WIDTH / width) * 1.3)
    fig.set_size_inches(_FIG_WIDTH, axes_height + 0.2 * entries)
    for text in fig.findobj(Text):
        if float(text.get_fontsize()) < _MIN_FONT:
            text.set_fontsize(_MIN_FONT)


def _link_layer(fig: Figure, links: list[tuple[float, float, int, str]]) -> str:
    """Transparent circles over data points, each going to a step of the viewer."""
    ax = fig.axes[0]
    scale = 72.0 / fig.dpi  # display pixels to the SVG's points
    height = fig.get_size_inches()[1] * 72.0
    out = ['<g class="bgv-links" fill="#000" fill-opacity="0" style="cursor:pointer">']
    for x, y, step, title in links:
        dx, dy = ax.transData.transform((x, y))
        out.append(
            f'<circle cx="{dx * scale:.1f}" cy="{height - dy * scale:.1f}" r="5"'
            f' data-bgv-step="{step}"><title>{escape(title)}</title></circle>'
        )
    out.append("</g>")
    return "".join(out)


def _equity_links(analysis: Analysis) -> list[tuple[float, float, int, str]]:
    """The equity figure's points, each with the viewer step of its roll."""
    from bgkit.reports.figures import _equity_frame
    from bgkit.reports.viewer import step_indices

    steps = step_indices(analysis.rows)
    rolls = [
        i
        for i, row in enumerate(analysis.rows)
        if row["action"] == "move"
        and row["equity_before"] is not None
        and not (
            isinstance(row["equity_before"], float) and row["equity_before"] != row["equity_before"]
        )
    ]
    frame = _equity_frame(analysis)
    if len(frame) != len(rolls):
        return []
    names = analysis.match.players
    return [
        (
            float(x),
            float(y),
            steps[i],
            f"game {analysis.rows[i]['game']}, move {analysis.rows[i]['move']},"
            f" {names[analysis.rows[i]['player']]}",
        )
        for x, y, i in zip(frame["roll"], frame["value"], rolls, strict=True)
    ]


def _table(frame: pd.DataFrame, css: str) -> str:
    """``frame`` as an HTML table, a missing value (a match without a date, in the index
    too) as an empty cell: never pandas' ``<NA>``, which ``na_rep`` misses in object
    columns and in the index."""
    import pandas as pd

    def shown(value: object) -> object:
        return "" if pd.api.types.is_scalar(value) and pd.isna(value) else value

    frame = frame.map(shown)
    if not isinstance(frame.index, pd.MultiIndex):
        frame.index = pd.Index([shown(v) for v in frame.index], name=frame.index.name)
    html: str = frame.to_html(classes=css, border=0, na_rep="", escape=True)
    return html


def _worst(analysis: Analysis) -> str:
    from bgkit.reports import figures as reports
    from bgkit.reports.viewer import step_indices

    frame = reports.worst_plays(analysis, WORST, boards=False)
    if frame.empty:
        return "<p>No errors.</p>"
    steps = step_indices(analysis.rows)
    unit = "MWC" if analysis.match.length else "points"
    blocks = []
    for rank, (_, row) in enumerate(frame.iterrows(), start=1):
        what = (
            f"{escape(str(row['dice']))}: {escape(str(row['played']))}"
            if row["kind"] == "checker"
            else f"cube: {escape(str(row['played']))}"
        )
        cost = row["error_mwc"]
        cost_text = f"{100 * cost:.2f}% MWC" if unit == "MWC" else f"{cost:.3f} points"
        at = _row_of(analysis, row)
        step = steps[at] if at is not None else None
        jump = (
            f' <button type="button" data-bgv-step="{step}">show in the viewer</button>'
            if step is not None
            else ""
        )
        detail = (
            f"<p><b>{rank}. Game {row['game']}, move {row['move']},"
            f" {name_html(str(row['name']))}</b>"
            f"<br>{what}<br>best: {escape(str(row['best']))}<br>"
            f"error {1000 * row['error_emg']:.1f} mEMG ({cost_text})"
            + (f", {escape(str(row['skill']))}" if row["skill"] else "")
            + f'<br><span class="meta">{escape(str(row["position_id"]))}</span>{jump}</p>'
        )
        board = f'<div class="bgv-mini" data-bgv-board="{step}"></div>' if step is not None else ""
        blocks.append(f"<div>{detail}{board}</div>")
    return (
        '<p class="meta">Boards: solid arrows show the play made, dashed ones the best.</p>'
        f'<div class="worst">{"".join(blocks)}</div>'
    )


def _row_of(analysis: Analysis, worst: Any) -> int | None:
    """The analysis row of a line of :func:`bgkit.reports.figures.worst_plays`."""
    for i, row in enumerate(analysis.rows):
        if (row["game"], row["move"], row["player"], row["position_id"]) != (
            worst["game"],
            worst["move"],
            worst["player"],
            worst["position_id"],
        ):
            continue
        if worst["kind"] == "checker" and row["action"] == "move":
            return i
        if worst["kind"] == "cube" and row["cube_error_emg"]:
            return i
    return None


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
        "PR": games["pr"].astype(float).round(1),
    }
    result = games["actual_result"].astype(float)
    if is_match:
        columns["result (MWC %)"] = (100 * result).round(2)
    else:
        columns["result (points)"] = result.round(2)
    return pd.DataFrame(columns).set_index(["game", "player"])
