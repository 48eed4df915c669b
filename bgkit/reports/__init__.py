"""Reports: a match and its analysis shown as tables, figures, SVG boards and HTML pages.

One module per concern:

* :mod:`bgkit.reports.svg`: a :class:`~bgkit.position.Position` drawn as an SVG board
  (Jupyter, HTML);
* :mod:`bgkit.reports.figures`: pandas tables and matplotlib figures of a match and its
  analysis (the equity graph, luck, errors, the pip race, gnubg's statistics table);
* :mod:`bgkit.reports.record_html`: compact HTML summaries of a record (a match or a
  game in Jupyter), and names shown safely in HTML;
* :mod:`bgkit.reports.viewer`: the match viewer, one board to step through a match
  (one self-contained HTML fragment);
* :mod:`bgkit.reports.match_report`: the self-contained HTML report page of an analysed
  match (``bgkit analyze FILE --html OUT``), made of the three above.

The names of :mod:`bgkit.reports.figures` are importable from here too (``from bgkit import
reports; reports.equity_figure(analysis)``), loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgkit._moved import lazy_names

if TYPE_CHECKING:
    from bgkit.reports.figures import (
        MARK_STYLES,
        PLAYER_COLORS,
        PLAYER_MARKERS,
        compare,
        equity_figure,
        error_histogram,
        error_luck_figure,
        luck_figure,
        luck_table,
        pip_count_figure,
        pip_counts,
        summary_table,
        text_as_written,
        worst_plays,
    )

__all__ = [
    "MARK_STYLES",
    "PLAYER_COLORS",
    "PLAYER_MARKERS",
    "compare",
    "equity_figure",
    "error_histogram",
    "error_luck_figure",
    "luck_figure",
    "luck_table",
    "pip_count_figure",
    "pip_counts",
    "summary_table",
    "text_as_written",
    "worst_plays",
]
"""The names the module ``bgkit.reports`` had before it became this package."""

__getattr__, __dir__ = lazy_names(__name__, dict.fromkeys(__all__, "figures"))
