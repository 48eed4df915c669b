"""Analysis: a match or a position judged by GNU Backgammon's evaluator, gnubg's way.

One module per concern, the lower ones first:

* :mod:`bgkit.analysis.met`: match equity tables (the shipped ones in ``met_tables/``) and
  the conversions between equity and match-winning chance;
* :mod:`bgkit.analysis.metrics`: the formulas of an analysis as gnubg defines them (luck,
  error labels, cube errors, ratings, PR), pure functions of equities;
* :mod:`bgkit.analysis.evaluator`: what bgkit asks of an evaluator (the
  :class:`~bgkit.analysis.evaluator.Evaluator` interface) and a cache in front of one;
* :mod:`bgkit.analysis.engine_gate`: the one gate before gnubg's C code (what it is handed
  is what it supports);
* :mod:`bgkit.analysis.gnubg_process`: GNU Backgammon's process: its module, its
  command channel and threads, what bgkit knows of its one state, forked copies;
* :mod:`bgkit.analysis.gnubg`: GNU Backgammon as the evaluator
  (:class:`~bgkit.analysis.gnubg.GnubgEvaluator`), on that process;
* :mod:`bgkit.analysis.hints`: one position: the ranked plays or the cube decision
  (``bgkit.hint``);
* :mod:`bgkit.analysis.tasks`: the evaluation side of a match's analysis, one task per
  decision, run in worker processes;
* :mod:`bgkit.analysis.match`: a whole match analysed (``bgkit.analyze``), its
  :class:`~bgkit.analysis.match.Analysis` with pandas DataFrames, and an analysis read
  from a file.

The names of :mod:`bgkit.analysis.match` are importable from here too
(``from bgkit.analysis import analyze, Analysis``), loaded on first use: importing this
package, or :mod:`bgkit.analysis.met` alone, loads neither gnubg nor pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bgkit._moved import lazy_names

if TYPE_CHECKING:
    from bgkit.analysis.match import (
        DEFAULT_PLIES as DEFAULT_PLIES,
    )
    from bgkit.analysis.match import (
        MOVE_COLUMNS as MOVE_COLUMNS,
    )
    from bgkit.analysis.match import (
        PLAYER_COLUMNS as PLAYER_COLUMNS,
    )
    from bgkit.analysis.match import (
        Analysis as Analysis,
    )
    from bgkit.analysis.match import (
        AnalysisError as AnalysisError,
    )
    from bgkit.analysis.match import (
        RatingScale as RatingScale,
    )
    from bgkit.analysis.match import (
        analysis_from_file as analysis_from_file,
    )
    from bgkit.analysis.match import (
        analyze as analyze,
    )
    from bgkit.analysis.match import (
        money_rules as money_rules,
    )

_NAMES = {
    name: "match"
    for name in (
        "DEFAULT_PLIES",
        "MOVE_COLUMNS",
        "PLAYER_COLUMNS",
        "Analysis",
        "AnalysisError",
        "RatingScale",
        "analysis_from_file",
        "analyze",
        "money_rules",
    )
}
"""The names the module ``bgkit.analysis`` had before it became this package."""

__getattr__, __dir__ = lazy_names(__name__, _NAMES)

__all__ = sorted(_NAMES)
