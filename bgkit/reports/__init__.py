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
        MARK_STYLES as MARK_STYLES,
    )
    from bgkit.reports.figures import (
        PLAYER_COLORS as PLAYER_COLORS,
    )
    from bgkit.reports.figures import (
        PLAYER_MARKERS as PLAYER_MARKERS,
    )
    from bgkit.reports.figures import (
        compare as compare,
    )
    from bgkit.reports.figures import (
        equity_figure as equity_figure,
    )
    from bgkit.reports.figures import (
        error_histogram as error_histogram,
    )
    from bgkit.reports.figures import (
        error_luck_figure as error_luck_figure,
    )
    from bgkit.reports.figures import (
        luck_figure as luck_figure,
    )
    from bgkit.reports.figures import (
        luck_table as luck_table,
    )
    from bgkit.reports.figures import (
        pip_count_figure as pip_count_figure,
    )
    from bgkit.reports.figures import (
        pip_counts as pip_counts,
    )
    from bgkit.reports.figures import (
        summary_table as summary_table,
    )
    from bgkit.reports.figures import (
        text_as_written as text_as_written,
    )
    from bgkit.reports.figures import (
        worst_plays as worst_plays,
    )

_NAMES = {
    name: "figures"
    for name in (
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
    )
}
"""The names the module ``bgkit.reports`` had before it became this package."""

__getattr__, __dir__ = lazy_names(__name__, _NAMES)

__all__ = sorted(_NAMES)
