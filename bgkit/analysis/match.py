"""Analyse a match: every checker play, cube decision and roll judged by an evaluator.

:func:`analyze` replays a :class:`~bgkit.records.Match` (:mod:`bgkit.replay`), asks an
:class:`~bgkit.analysis.evaluator.Evaluator` (GNU Backgammon by default) about every decision
and computes what GNU Backgammon's ``analyse match`` reports, with its definitions
(:mod:`bgkit.analysis.metrics`): per move the error of the play and of the cube action and the
luck of the roll; per player and per game the totals, rates, marks, ratings, the
luck-adjusted result and a PR.

* Checker play and cube decisions are evaluated at ``plies`` (gnubg counts the static
  evaluation as 0-ply; its default analysis is 2-ply), luck always at 0-ply, all
  cubeful, as gnubg does.
* Equities are EMG (normalised money equity, the player's view); every error and luck
  figure also comes in MWC (match-winning chance, 0..1) in match play, in points in
  money play. Errors are positive magnitudes.

The result is an :class:`Analysis`; ``.moves``, ``.players`` and ``.games`` are pandas
DataFrames (built on first use; pandas is needed only for them), ``.to_dict()`` is the
same as plain data.

>>> from bgkit.formats.mat import read_mat
>>> result = analyze(read_mat("data/fixtures/handwritten_3pt.mat"), 0, jobs=1)
>>> result.players[["name", "unforced_moves", "checker_error_emg", "cube_error_emg"]].round(3)
    name  unforced_moves  checker_error_emg  cube_error_emg
0  Alice               6              0.241           0.635
1    Bob               6              1.190           1.711
>>> result.moves[["name", "dice", "play", "best_play", "error_emg"]].round(3).iloc[3]
name                Bob
dice                 53
play         13/10 13/8
best_play    24/21 13/8
error_emg         0.082
Name: 3, dtype: object
>>> [(row["action"], row["cube_error_kind"]) for row in result.rows][-2:]
[('double', 'wrong double below DP'), ('drop', 'wrong pass')]
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from bgkit import gnubgid
from bgkit._gc import without_gc
from bgkit.analysis.engine_gate import check_cube
from bgkit.analysis.evaluator import CubeDecision, Evaluator
from bgkit.analysis.hints import proper_action
from bgkit.analysis.met import DEFAULT_MET, MatchEquityTable, met_name, shipped_met
from bgkit.analysis.metrics import (
    cube_available,
    cube_errors,
    effective_pip_count,
    is_close_cube,
    luck_label,
    pip_count,
    skill_label,
    skill_thresholds,
)
from bgkit.analysis.recorded import file_figures
from bgkit.analysis.recorded import gnubgs as is_gnubgs
from bgkit.analysis.statistics import RatingScale
from bgkit.analysis.statistics import summaries as _summaries
from bgkit.analysis.tasks import AnalysisTaskError, Figures, Runner, Task, plan_jobs
from bgkit.errors import AnalysisError, BgkitError, EngineLimitError, place
from bgkit.extras import require
from bgkit.formats.annotations import (
    ActionAnalysis,
    CheckerAnalysis,
    CubeAnalysis,
    Probabilities,
)
from bgkit.position import GameState, Position
from bgkit.records import Match, Move
from bgkit.replay import ReplayStep, move_number, replay_game

if TYPE_CHECKING:
    import pandas as pd

    from bgkit.analysis.gnubg_moves import Record


__all__ = [
    "DEFAULT_PLIES",
    "Analysis",
    "AnalysisError",
    "analysis_from_file",
    "analyze",
    "money_rules",
]

# ---------------------------------------------------------------------- analysis


@dataclass
class Analysis:
    """The analysis of a match: per action rows and per player / per game summaries.

    ``rows``, ``players_list`` and ``games_list`` hold plain dicts (JSON-ready);
    :attr:`moves`, :attr:`players` and :attr:`games` are the same as DataFrames.
    """

    match: Match
    plies: int
    evaluator: str
    rating_scale: RatingScale
    rows: list[dict[str, Any]]
    players_list: list[dict[str, Any]]
    games_list: list[dict[str, Any]]
    seconds: float = 0.0
    """How long :func:`analyze` took."""
    jobs: int = 1
    """Processes that evaluated."""
    notes: list[ActionAnalysis | None] = field(default_factory=list)
    """Per row: the candidate plays (the best ones with their chances, and the play
    made) and the cube decision, in the model every source of analysis shares
    (:mod:`bgkit.formats.annotations`); ``None`` for a row nothing was asked about."""
    where: list[tuple[int, int]] = field(default_factory=list, repr=False)
    """Per row: the indices of its game in ``match.games`` and of its action in the game."""
    met: str = DEFAULT_MET
    """The match equity table of the figures (a name of :data:`bgkit.analysis.met.MET_NAMES`)."""
    skipped: list[dict[str, Any]] = field(default_factory=list)
    """The decisions not analysed, and why: the play of a roll the record does not give
    (``???``) and the rest of its game; from the record's own analysis
    (:func:`analysis_from_file`), a decision whose analysis there is damaged (``game``,
    ``move``, ``player``, ``name``, ``action``, ``dice``, ``line``, ``reason``)."""
    jacoby: bool | None = None
    """Money play: the figures follow the Jacoby rule (``None`` in match play)."""
    beavers: bool | None = None
    """Money play: beavers were allowed (``None`` in match play)."""

    def candidates(self, row: int) -> pd.DataFrame:
        """The candidate plays of row ``row`` (of :attr:`moves`), best first: ``rank``,
        ``play``, ``equity``, ``difference`` (to the best), the five chances, ``level``
        and ``played``. Empty for a row without a checker play analysed.

        >>> from bgkit.formats.mat import read_mat
        >>> result = analyze(read_mat("data/fixtures/handwritten_3pt.mat"), 0, jobs=1)
        >>> result.candidates(3)[["rank", "play", "equity", "difference", "win", "played"]].round(3)
           rank        play  equity  difference    win  played
        0     1  24/21 13/8  -0.264       0.000  0.437   False
        1     2     8/3 6/3  -0.309      -0.046  0.423   False
        2     3  13/10 13/8  -0.346      -0.082  0.415    True
        3     4  24/21 6/1*  -0.364      -0.101  0.417   False
        4     5       24/16  -0.380      -0.117  0.419   False
        """
        import pandas as pd

        columns = ["rank", "play", "equity", "difference", "win", "win_gammon"]
        columns += ["win_backgammon", "lose_gammon", "lose_backgammon", "level", "played"]
        note = self.notes[row] if row < len(self.notes) else None
        if note is None or note.checker is None or not note.checker.candidates:
            return pd.DataFrame([], columns=columns)
        checker = note.checker
        best = checker.candidates[0].equity
        ranks = list(range(1, len(checker.candidates) + 1))
        if checker.played is not None and self.rows[row]["rank"] is not None:
            ranks[checker.played] = self.rows[row]["rank"]
        table = []
        for i, (rank, c) in enumerate(zip(ranks, checker.candidates, strict=True)):
            p = c.probabilities
            chances = p.values() if p is not None else (math.nan,) * 5
            table.append(
                (
                    rank,
                    str(c.play),
                    c.equity,
                    c.equity - best,
                    *chances,
                    c.level,
                    i == checker.played,
                )
            )
        return pd.DataFrame(table, columns=columns)

    def annotated_match(self) -> Match:
        """The match with this analysis in its actions' annotations, as GNU Backgammon's
        SGF analysis properties and bgkit's (:func:`bgkit.formats.sgf_analysis.annotate`):
        write it as SGF and gnubg shows the analysis."""
        from bgkit.formats.sgf_analysis import annotate_match

        if self.plies < 0:  # (the record's own analysis is in its annotations already)
            return self.match
        notes: list[list[ActionAnalysis | None]] = [
            [None] * len(g.actions) for g in self.match.games
        ]
        for (game, action), note in zip(self.where, self.notes, strict=True):
            notes[game][action] = note
        # (gnubg writes match-play cube values as MWC by the table it analysed with)
        return annotate_match(self.match, notes, shipped_met(self.met))

    @cached_property
    def moves(self) -> pd.DataFrame:
        """One row per recorded action (see :data:`MOVE_COLUMNS`)."""
        import pandas as pd

        return pd.DataFrame(self.rows, columns=list(MOVE_COLUMNS))

    @cached_property
    def players(self) -> pd.DataFrame:
        """One row per player: totals, rates, marks, ratings, results (:data:`PLAYER_COLUMNS`)."""
        import pandas as pd

        return pd.DataFrame(self.players_list, columns=list(PLAYER_COLUMNS))

    @cached_property
    def games(self) -> pd.DataFrame:
        """One row per game and player, the same figures as :attr:`players`."""
        import pandas as pd

        return pd.DataFrame(self.games_list, columns=["game", *PLAYER_COLUMNS])

    @property
    def level(self) -> str:
        """The depth of the analysis in words: ``"2-ply"``, or for an analysis read from
        the record (:func:`analysis_from_file`) ``"the file's own levels"``."""
        return f"{self.plies}-ply" if self.plies >= 0 else "the file's own levels"

    @property
    def settings(self) -> dict[str, Any]:
        """What produced the figures (``description`` says it in a sentence)."""
        from_file = self.plies < 0
        table = f", {self.met} match equity table" if self.match.length else ""
        if self.jacoby is not None and not from_file:
            table = (
                f", money: Jacoby rule {'on' if self.jacoby else 'off'},"
                f" beavers {'allowed' if self.beavers else 'not allowed'}"
            )
        return {
            "evaluator": self.evaluator,
            "description": (
                f"{self.evaluator}: checker play and cube at {self.level}, luck at 0-ply,"
                f" cubeful{table}"
                if not from_file
                else f"{self.evaluator}: the record's own analysis (checker play, cube and"
                " luck at the levels it names per decision)"
            ),
            "checker_plies": None if from_file else self.plies,
            "cube_plies": None if from_file else self.plies,
            "luck_plies": None if from_file else 0,
            "cubeful": True,
            "met": self.met,
            "jacoby": self.jacoby,
            "beavers": self.beavers,
            "rating_scale": self.rating_scale,
            "pr": "PR (gnubg denominator):"
            " 500 x EMG error / (unforced moves + close cube decisions)",
        }

    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-ready data.

        Keys ``match``, ``settings``, ``seconds``, ``players``, ``games``, ``moves`` and
        ``skipped`` (:attr:`skipped`); NaN figures become ``None``.
        """
        m = self.match
        return {
            "match": {
                "file": m.source_name,
                "players": list(m.players),
                "length": m.length,
                "games": len(m.games),
            },
            "settings": self.settings,
            "seconds": round(self.seconds, 3),
            "players": [_jsonable(r) for r in self.players_list],
            "games": [_jsonable(r) for r in self.games_list],
            "moves": [
                _jsonable({**row, **_note_dict(note)})
                for row, note in zip(self.rows, self.notes or [None] * len(self.rows), strict=True)
            ],
            "skipped": [dict(entry) for entry in self.skipped],
        }

    def __repr__(self) -> str:
        names = " vs. ".join(repr(p) for p in self.match.players)
        return f"<Analysis ({names}, {len(self.rows)} actions, {self.level})>"

    def _repr_html_(self) -> str:
        """For Jupyter: the match viewer with this analysis (:mod:`bgkit.reports.viewer`)."""
        from bgkit.reports.viewer import viewer_html

        return viewer_html(self.match, self)


#: The columns of :attr:`Analysis.moves`.
MOVE_COLUMNS: tuple[str, ...] = (
    "game",  # the game number of the record
    "move",  # the record's move number
    "turn",  # rolls of the game so far (cube actions count with the next roll)
    "player",  # 0 (left column) or 1
    "name",
    "action",  # move, double, take, drop, beaver, raccoon
    "position_id",  # GNU Position ID:Match ID before the action
    "score",  # "a-b" before the game
    "cube",  # cube value before the action
    "dice",  # "62" as rolled; None for cube actions
    "play",  # the play (one step per die); "" for no legal play; None: not played
    "pips",
    "opponent_pips",
    "epc",  # effective pip count (bear-off positions), NaN otherwise
    "opponent_epc",
    "phase",  # "contact", "race" or "bear-off" for the player on roll (Position.phase)
    "legal_plays",
    "forced",  # at most one legal play
    "best_play",
    "equity_best",  # cubeful EMG after the best play, the mover's view
    "equity_played",
    "rank",  # 1 = the best play
    "error_emg",  # equity_best - equity_played (>= 0), unforced moves only count
    "error_mwc",
    "skill",  # "", "doubtful", "bad", "very bad"
    "equity_before",  # mean equity of the roller over the rolls (luck reference, 0-ply)
    "luck_emg",
    "luck_mwc",
    "luck",  # "", "lucky", "very lucky", "unlucky", "very unlucky"
    "cube_action",  # "no double", "double", "take", "drop", "beaver" (counted as the
    # doubler's take, as gnubg counts it) when a cube decision was analysed
    "cube_nd",  # no double / double,take / double,pass equities (EMG, doubler's view)
    "cube_dt",
    "cube_dp",
    "cube_optimal",
    "cube_proper",  # the right action
    "cube_error_emg",
    "cube_error_mwc",
    "cube_error_kind",
    "cube_skill",
    "cube_close",
)

#: The columns of :attr:`Analysis.players` (and of :attr:`Analysis.games` after ``game``).
PLAYER_DTYPES: dict[str, str] = {
    "player": "Int64",
    "name": "string",
    "total_moves": "Int64",
    "unforced_moves": "Int64",
    "checker_error_emg": "float64",
    "checker_error_mwc": "float64",
    "checker_error_rate_memg": "float64",
    "checker_error_rate_mwc": "float64",
    "checker_rating": "string",
    "doubtful": "Int64",
    "bad": "Int64",
    "very_bad": "Int64",
    "luck_emg": "float64",
    "luck_mwc": "float64",
    "luck_rate_memg": "float64",
    "luck_rating": "string",
    "very_lucky": "Int64",
    "lucky": "Int64",
    "unlucky": "Int64",
    "very_unlucky": "Int64",
    "cube_decisions": "Int64",
    "close_cube_decisions": "Int64",
    "doubles": "Int64",
    "takes": "Int64",
    "passes": "Int64",
    "missed_doubles_below_cp": "Int64",
    "missed_doubles_above_cp": "Int64",
    "wrong_doubles_below_dp": "Int64",
    "wrong_doubles_above_tg": "Int64",
    "wrong_takes": "Int64",
    "wrong_passes": "Int64",
    "cube_error_emg": "float64",
    "cube_error_mwc": "float64",
    "cube_error_rate_memg": "float64",
    "cube_rating": "string",
    "error_emg": "float64",
    "error_mwc": "float64",
    "error_rate_memg": "float64",
    "snowie_error_rate": "float64",
    "overall_rating": "string",
    "pr": "float64",
    "actual_result": "float64",
    "luck_adjusted_result": "float64",
    "fibs_rating_difference": "float64",
    "error_based_fibs_rating": "float64",
    "checker_rating_loss": "float64",
    "cube_rating_loss": "float64",
}
"""The per-player columns and their pandas dtypes, in order."""
PLAYER_COLUMNS: tuple[str, ...] = tuple(PLAYER_DTYPES)

#: The depth of gnubg's default analysis ("world class"), bgkit's default.
DEFAULT_PLIES = 2


def analyze(
    match: Match,
    plies: int = DEFAULT_PLIES,
    *,
    progress: bool | None = None,
    jobs: int | None = None,
    evaluator: Evaluator | None = None,
    rating_scale: RatingScale = "current",
    candidates: int = 5,
    thresholds: tuple[float, float, float] | None = None,
    met: str | None = None,
    jacoby: bool | None = None,
    beavers: bool | None = None,
) -> Analysis:
    """Analyse every decision of ``match`` as GNU Backgammon's ``analyse match`` does.

    :param plies: search depth for checker play and cube decisions (0 = static
        evaluation, a quick look; the default, 2, is gnubg's default analysis, "world
        class"); luck is always 0-ply.
    :param progress: show a progress bar (``tqdm.auto``: a widget in notebooks); by
        default when there is someone to see it: stderr is a terminal, or the code runs in
        a Jupyter kernel (a deeper analysis takes a while).
    :param jobs: processes to use (default: the CPUs this process may use,
        :func:`bgkit.workers.usable_cores`, and one more for a match of several games
        deeper than 0-ply on two or more, to keep them busy while gnubg's commands
        wait); short matches use fewer. Each process runs its own GNU Backgammon.
    :param evaluator: evaluate with this evaluator, in this process (``jobs`` is then
        ignored); default: :class:`~bgkit.analysis.gnubg.GnubgEvaluator`.
    :param rating_scale: ``"current"`` (gnubg since 2024) or ``"legacy"`` rating names.
    :param candidates: how many of the best plays of each roll to keep with their chances
        in :attr:`Analysis.notes` (the play made is kept too).
    :param thresholds: the EMG a decision must lose to be marked doubtful, bad and very
        bad (default gnubg's: 0.03, 0.06, 0.12).
    :param met: GNU Backgammon's match equity table, by name (:data:`bgkit.analysis.met.MET_NAMES`,
        any case; default Kazaross-XG2, gnubg's); not with ``evaluator``, which has its own.
    :param jacoby: money play: the session was played with the Jacoby rule (default:
        what the record says, else gnubg's default, on); ignored in match play.
    :param beavers: money play: beavers were allowed (default: what the record says,
        else gnubg's default, allowed); ignored in match play.
    :raises AnalysisError: when the record does not replay (illegal or ambiguous
        plays, actions out of turn, forbidden cube actions: the verifier's first error
        with its place; a play not recorded, ``???``, is no fault: the rest is analysed
        and :attr:`Analysis.skipped` says what was not), a game starts
        from a position the evaluator does not handle, or the match is longer than the
        table ``met`` covers.
    :raises ValueError: for a table bgkit does not ship, or one given with ``evaluator``.
    """
    if evaluator is None:
        require("analysis", ("gnubg", "pandas"), "bgkit.analyze")  # before any worker starts
    started = time.perf_counter()
    table = _met(evaluator, met, match.length)
    rules = money_rules(match, jacoby=jacoby, beavers=beavers)
    played = _under_rules(match, rules)
    actions = sum(len(g.actions) for g in match.games)
    workers = plan_jobs(jobs, actions, evaluator, plies, len(match.games))
    with Runner(workers, evaluator, met=met) as runner:
        steps, skipped = _replay(played)
        if evaluator is None:
            _within_gnubg(match, steps)  # (before its workers get a task)
        tasks, owners = _tasks(match, steps, plies, candidates)
        if plies and evaluator is None:
            runner.record = _gnubgs_own(played, [steps[i] for i in owners])
        runner.submit(tasks)  # (forks the workers)
        rows = _base_rows(match, steps)  # while the workers evaluate
        bar = _progress_bar(len(tasks), _show_progress() if progress is None else progress)
        try:
            figures = runner.results(bar.update if bar is not None else lambda n: None)
        except (AnalysisTaskError, NotImplementedError, EngineLimitError) as err:
            raise AnalysisError(f"cannot analyse: {err}") from err
        finally:
            if bar is not None:
                bar.close()
    by_step: list[Figures | None] = [None] * len(steps)
    for owner, fig in zip(owners, figures, strict=True):
        by_step[owner] = fig
    _cube_after_beaver(steps, by_step)  # (as gnubg's statistics count them)
    _fill_rows(rows, steps, by_step, table)
    _mark(rows, thresholds)
    notes = _notes(rows, steps, by_step, plies)
    players, games = _summaries(match, steps, rows, table, rating_scale)
    name = evaluator.name if evaluator is not None else _gnubg_name()
    return Analysis(
        match,
        plies,
        name,
        rating_scale,
        rows,
        players,
        games,
        seconds=time.perf_counter() - started,
        jobs=max(1, workers),
        notes=notes,
        where=[(step.game_index, step.action_index) for step in steps],
        met=met_name(met) if met else str(getattr(evaluator, "met", DEFAULT_MET)),
        skipped=skipped,
        jacoby=None if rules is None else rules[0],
        beavers=None if rules is None else rules[1],
    )


def money_rules(
    match: Match, *, jacoby: bool | None = None, beavers: bool | None = None
) -> tuple[bool, bool] | None:
    """The rules a money session was played under: (the Jacoby rule, beavers allowed).

    Each is the one given, else what the record says (its ``Jacoby`` and ``Beaver`` tags:
    XG's ``.mat`` export and ``.xg`` header, an SGF's ``RU``), else GNU Backgammon's
    default (on, allowed), which is also what gnubg imports an untagged ``.mat`` with.
    ``None`` in match play.

    >>> money_rules(Match(("A", "B"), 0, (), tags=(("Jacoby", "Off"),)))
    (False, True)
    """
    if match.length:
        return None
    said_jacoby, said_beavers = match.rule("Jacoby"), match.rule("Beaver")
    if jacoby is None:
        jacoby = True if said_jacoby is None else said_jacoby
    if beavers is None:
        beavers = True if said_beavers is None else said_beavers
    return jacoby, beavers


def _under_rules(match: Match, rules: tuple[bool, bool] | None) -> Match:
    """``match`` with its ``Jacoby`` and ``Beaver`` tags saying ``rules`` (what its replay
    sets up every game with)."""
    if rules is None or (match.jacoby, match.beavers) == rules:
        return match
    kept = tuple((k, v) for k, v in match.tags if k.lower() not in ("jacoby", "beaver"))
    said = (("Jacoby", "On" if rules[0] else "Off"), ("Beaver", "On" if rules[1] else "Off"))
    return replace(match, tags=kept + said)


@without_gc  # (a match's rows and notes: many objects, next to no cycles)
def analysis_from_file(
    match: Match,
    *,
    rating_scale: RatingScale = "current",
    thresholds: tuple[float, float, float] | None = None,
    candidates: int | None = None,
) -> Analysis:
    """The analysis the record itself carries (XG's, read from an ``.xg`` file, or gnubg's
    from its SGF), summed up as :func:`analyze` sums its own: no evaluator runs.

    Each checker play's error is the record's equity of its best candidate less that of
    the play made, each cube error follows from the record's three cube equities (as
    gnubg defines the errors), luck is the record's figure for the roll; PR, ratings and
    marks are computed from those as for :func:`analyze`. Decisions the record did not
    analyse count nowhere. :attr:`Analysis.notes` holds what the record says.

    From gnubg's own SGF the figures are those of gnubg's ``show statistics match``
    (:func:`bgkit.formats.sgf_analysis.analysis_of` with each action's position: cube
    values in EMG, candidate plays with their hits, the luck of dances), counted as gnubg
    counts them: a roll's legal plays are those its list holds (every one, as gnubg
    saves them; a move is forced when it lists one), an accepted beaver is the doubler's
    take, the beaverer's cube after it counts as gnubg's statistics replay it, and the
    luck of a roll recorded without a play (gnubg's ``DI`` node, before a resignation) is
    shown but not summed. A player's luck in a game is gnubg's own sum of it, which the
    SGF keeps in the game's statistics (:func:`~bgkit.formats.sgf_analysis.game_luck`),
    when it counts the rolls the record has: the sum of each roll's five-decimal ``LU``
    can stand 1e-4 EMG off it.

    ``candidates``: how many of the best plays of each roll in gnubg's SGF to keep in
    :attr:`Analysis.notes`, with every one up to the play made (``None``: all it
    holds). The rows and summaries are the same either way; reading every candidate
    is most of this function's cost.

    :raises AnalysisError: when the record breaks a rule (the verifier's first error),
        carries no analysis, or is a match longer than gnubg plays (64 points).
    """
    from bgkit.formats._analysis_faults import remembered
    from bgkit.formats.sgf_analysis import analysis_of, game_luck

    started = time.perf_counter()
    steps, skipped = _replay(match)
    with remembered():  # (a roll's candidates are checked for what keeps and for faults)
        notes = [analysis_of(step.action, step.before, candidates=candidates) for step in steps]
        skipped += _damaged_analysis(match, steps)
    if not any(n is not None and (n.checker or n.cube) for n in notes):
        raise AnalysisError(
            f"{match.source_name or 'the record'}: holds no analysis to report (analyse it"
            " with GNU Backgammon instead)"
        )
    met = _met(None, None, match.length)
    rows = _base_rows(match, steps)
    figures = [file_figures(step, note) for step, note in zip(steps, notes, strict=True)]
    _cube_after_beaver(steps, figures, gnubgs=True)
    _fill_rows(rows, steps, figures, met)
    for row, step in zip(rows, steps, strict=True):
        if isinstance(step.action, Move) and step.play is None and is_gnubgs(step):
            # a roll recorded without a play (gnubg's DI node, before a resignation):
            # gnubg shows its luck but its statistics leave it out (updateStatisticsMove)
            row["_luck_uncounted"] = True
    _mark(rows, thresholds)
    # (gnubg's own sums of the luck, where its SGF has them: its figures, to 1e-6)
    luck = [game_luck(game) for game in match.games]
    players, games = _summaries(match, steps, rows, met, rating_scale, luck)
    suffix = os.path.splitext(match.source_name or "")[1].lower()
    analysers = {".xg": "eXtreme Gammon", ".sgf": "GNU Backgammon"}
    source = analysers.get(suffix, "the record's analyser")
    return Analysis(
        match,
        -1,
        source,
        rating_scale,
        rows,
        players,
        games,
        seconds=time.perf_counter() - started,
        notes=notes,
        where=[(step.game_index, step.action_index) for step in steps],
        skipped=skipped,
    )


def _damaged_analysis(match: Match, steps: Sequence[ReplayStep]) -> list[dict[str, Any]]:
    """A :attr:`Analysis.skipped` entry for each action whose analysis in the record is
    damaged (that part of it counts nowhere), at the action's line."""
    from bgkit.formats.sgf_analysis import analysis_fault

    out = []
    for step in steps:
        fault = analysis_fault(step.action)
        if fault is None:
            continue
        action = step.action
        out.append(
            {
                "game": step.game.number,
                "move": step.move_number,
                "player": action.player,
                "name": match.players[action.player],
                "action": type(action).__name__.lower(),
                "dice": f"{action.dice[0]}{action.dice[1]}" if isinstance(action, Move) else None,
                "line": action.line,
                "reason": f"the record's analysis of it cannot be read: {fault}",
            }
        )
    return out


def _cube_after_beaver(
    steps: Sequence[ReplayStep], figures: list[Figures | None], *, gnubgs: bool = False
) -> None:
    """gnubg's statistics after a beaver that was taken (``gnubgs``: only where the beaver
    holds gnubg's own SGF analysis, for a record's analysis): they replay the beaver as a
    double by the beaverer (``updateStatisticsMove``), so they count the beavered cube as
    the doubler's, and the beaverer's next cube decisions, up to his next double, as made
    with the cube not available (no missed double; a double's error against not
    doubling). The figures of those decisions are changed so; their equities are not."""
    beaverer: int | None = None
    game = -1
    for i, step in enumerate(steps):
        if step.game_index != game:
            beaverer, game = None, step.game_index
        fig = figures[i]
        if step.kind == "beaver":
            own = not gnubgs or is_gnubgs(step)
            beaverer = step.player if _accepted(steps, i) and own else None
        elif beaverer is not None and step.player == beaverer and step.kind in ("move", "double"):
            if fig is not None and fig.cube is not None:
                figures[i] = replace(fig, cube=replace(fig.cube, available=False))
            if step.kind == "double":
                beaverer = None


def _replay(match: Match) -> tuple[list[ReplayStep], list[dict[str, Any]]]:
    """Every action with its positions, and the decisions that cannot be analysed.

    A roll whose play is not recorded (``???``) is analysed as far as its position goes
    (the luck of the roll, the plays there were) and the rest of its game is skipped:
    the second list says which decisions were skipped and why. A record that breaks a
    rule, or holds a line that could not be read, is refused with the verifier's message
    for its first error.
    """
    if match.read_errors:
        _check_record(match)  # (the verifier reports each line it could not read)
    steps: list[ReplayStep] = []
    skipped: list[dict[str, Any]] = []
    for index in range(len(match.games)):
        done: list[ReplayStep] = []
        try:
            done.extend(replay_game(match, index))
        except (BgkitError, ValueError) as err:  # (ValueError: a variant without a start)
            unknown = _unrecorded(match, index, done)
            if unknown is None:
                _check_record(match)  # raises with the verifier's message
                raise AnalysisError(f"cannot analyse: {err}") from err
            done.append(unknown)
            skipped += _skipped(match, index, len(done))
        steps += done
    if any(step.before.checkers != 15 for step in steps):
        raise AnalysisError("cannot analyse: GNU Backgammon analyses 15-checker games only")
    return steps, skipped


def _past_gnubg(steps: Sequence[ReplayStep]) -> tuple[ReplayStep, EngineLimitError] | None:
    """The first action GNU Backgammon would be handed at a cube its tables do not reach
    (:func:`~bgkit.analysis.engine_gate.check_cube`) and why, ``None`` when there is none:
    what neither bgkit's analysis nor gnubg's own (a season's) may hand it."""
    for step in steps:
        try:
            check_cube(step.before)
        except EngineLimitError as err:
            return step, err
    return None


def _gnubgs_own(match: Match, steps: list[ReplayStep]) -> Record | None:
    """The record for gnubg's own analysis of each deeper piece
    (:mod:`bgkit.analysis.gnubg_moves`), when gnubg's analysis can stand for bgkit's (a
    match or a money session it plays as written:
    :func:`~bgkit.analysis.gnubg_match.gnubg_plays`; with any of gnubg's tables, each
    piece's gnubg has the analysis's loaded, and a session's rules); else ``None``
    (bgkit's own searches: a position set up, a roll without its play...)."""
    from bgkit.analysis.gnubg_match import gnubg_plays
    from bgkit.analysis.gnubg_moves import Record

    if not gnubg_plays(match):
        return None
    return Record(match.to_mat(), steps)


def _within_gnubg(match: Match, steps: Sequence[ReplayStep]) -> None:
    """Refuse, at its place, the first action of :func:`_past_gnubg`, with the game, the
    move and the player, as the verifier places an error.

    :raises AnalysisError: ``file:line:col: cannot analyse: ...``.
    """
    past = _past_gnubg(steps)
    if past is None:
        return
    step, err = past
    action = step.action
    where = place(step.game.source_name or match.source_name, action.line, action.column)
    raise AnalysisError(
        f"{where + ': ' if where else ''}cannot analyse: {err} (game {step.game.number},"
        f" move {step.move_number}, {match.players[step.player]})"
    )


def _unrecorded(match: Match, index: int, done: Sequence[ReplayStep]) -> ReplayStep | None:
    """The step of the roll the replay of game ``index`` stopped at, when its play is not
    recorded (the position before it is known), else ``None``."""
    game = match.games[index]
    if len(done) >= len(game.actions):
        return None
    action = game.actions[len(done)]
    if not isinstance(action, Move) or action.play is not None:
        return None
    if done:
        before = done[-1].after
    else:  # (the game's first roll)
        try:
            before = match.initial_position(index)
        except (BgkitError, ValueError):
            return None
        if game.setup is None:
            before = replace(before, turn=action.player)
    if before.game_state != GameState.PLAYING or before.doubled or before.turn != action.player:
        return None
    turn = sum(isinstance(step.action, Move) for step in done) + 1
    return ReplayStep(
        index,
        game,
        len(done),
        action,
        turn,
        action.number or move_number(turn, game.actions),
        before,
        before.with_dice(*action.dice),
        None,
    )


def _skipped(match: Match, index: int, stop: int) -> list[dict[str, Any]]:
    """The decisions of game ``index`` not analysed: the play of the unrecorded roll
    (action ``stop - 1``) and every action after it."""
    game = match.games[index]
    actions = game.actions
    out = []
    turn = sum(isinstance(a, Move) for a in actions[:stop])
    for i in range(stop - 1, len(actions)):
        action = actions[i]
        if i >= stop and isinstance(action, Move):
            turn += 1
        roll = f"{action.dice[0]}{action.dice[1]}" if isinstance(action, Move) else None
        if i == stop - 1:
            reason = f"the play for {roll} is not recorded"
        else:
            reason = "the position is unknown after an unrecorded play"
        out.append(
            {
                "game": game.number,
                "move": action.number
                or move_number(turn if isinstance(action, Move) else turn + 1, actions),
                "player": action.player,
                "name": match.players[action.player],
                "action": type(action).__name__.lower(),  # move, double, take, drop...
                "dice": roll,
                "line": action.line,
                "reason": reason,
            }
        )
    return out


def _check_record(match: Match) -> None:
    """Raise :class:`AnalysisError` for the first rule the record breaks (its first error;
    notes, such as a resignation, are facts, not faults)."""
    from bgkit.verify import IssueKind, Severity, verify

    harmless = {
        IssueKind.HIT_MARK,
        IssueKind.WRITTEN_PATH,
        IssueKind.CUBE_VALUE,
        IssueKind.RESULT,
        IssueKind.SCORE,
    }
    # a value beside the record's actions that cannot be read (a comment or an annotation
    # of a JSON record; a part of its analysis is a note): the actions are all read, and
    # analysing them anew does not need it (the CLI notes it)
    beside = {(e.line, e.column) for e in match.read_errors if not e.record}
    for issue in verify(match).issues:
        if issue.kind is IssueKind.UNREADABLE_LINE and (issue.line, issue.column) in beside:
            continue
        if issue.severity is Severity.ERROR and issue.kind not in harmless:
            who = f", {issue.player_name}" if issue.player_name else ""
            raise AnalysisError(
                f"{issue.location}: cannot analyse: {issue.message}"
                f" (game {issue.game}, move {issue.move}{who})",
                issue,
            )


def _show_progress() -> bool:
    """Someone may watch a progress bar: stderr is a terminal, or this is a Jupyter kernel."""
    return "ipykernel" in sys.modules or (hasattr(sys.stderr, "isatty") and sys.stderr.isatty())


def _progress_bar(total: int, show: bool) -> Any:
    if not show:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="decision", desc="analysing", leave=False)


def _gnubg_name() -> str:
    """The default evaluator's name, without starting gnubg in this process: the version
    of its module when it is imported (the runner imports it before forking), else its
    package's (importlib.metadata: 20 ms)."""
    loaded = sys.modules.get("gnubg")
    if loaded is not None and isinstance(getattr(loaded, "__version__", None), str):
        return f"GNU Backgammon {loaded.__version__}"
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"GNU Backgammon {version('gnubg')}"
    except PackageNotFoundError:  # pragma: no cover (then the analysis failed already)
        return "GNU Backgammon"


def _met(evaluator: Evaluator | None, name: str | None, length: int) -> MatchEquityTable:
    """The evaluator's MET; for gnubg the table ``name`` as bgkit ships it (gnubg not
    started here: the workers load it), checked to cover a match of ``length`` points."""
    if evaluator is not None:
        if name is not None:
            raise ValueError("give the match equity table to the evaluator, not to analyze()")
        return evaluator.match_equity_table()
    table = shipped_met(name or DEFAULT_MET)
    if length > table.max_length:
        # (gnubg extends a table to 64 points, as the lookups do: see MatchEquityTable.extended)
        raise AnalysisError(
            f"the {met_name(name or DEFAULT_MET)} match equity table covers matches up to"
            f" {table.max_length} points, not {length}"
        )
    return table


def _tasks(
    match: Match, steps: Sequence[ReplayStep], plies: int, candidates: int = 5
) -> tuple[list[Task], list[int]]:
    """One task per roll and per double; ``owners[i]`` is the step index of task ``i``.

    As gnubg, a position that is the variant's starting position gets no cube analysis
    and, for a roll that is not a double, the luck of an opening roll.
    """
    start = Position.initial(variant=match.variant).board
    tasks: list[Task] = []
    owners: list[int] = []
    game = -1  # the index of the last task's game
    for i, step in enumerate(steps):
        pos = step.before
        if isinstance(step.action, Move):
            dice = step.action.dice
            initial = pos.board == start
            played = None
            if step.play is not None:
                mover = step.after.board[pos.turn]
                played = (mover, step.after.board[pos.opponent])
            cube = not initial and cube_available(pos)
            opening = initial and dice[0] != dice[1]
            tasks.append(Task(pos, dice, played, cube, opening, plies, candidates))
        elif step.kind == "double" and pos.board != start:
            tasks.append(Task(pos, None, None, True, False, plies, candidates))
        else:
            continue
        owners.append(i)
        if step.game_index != game:
            tasks[-1] = replace(tasks[-1], first=True)
            game = step.game_index
    return tasks, owners


# ---------------------------------------------------------------------- rows


def _base_rows(match: Match, steps: Sequence[ReplayStep]) -> list[dict[str, Any]]:
    """The rows with what the record and the rules say (no evaluation yet)."""
    rows: list[dict[str, Any]] = []
    epc: dict[tuple[int, ...], float] = {}
    for step in steps:
        pos = step.before
        me, opp = pos.board[step.player], pos.board[1 - step.player]
        row: dict[str, Any] = dict.fromkeys(MOVE_COLUMNS)
        row.update(
            game=step.game.number,
            move=step.move_number,
            turn=step.turn,
            player=step.player,
            name=match.players[step.player],
            action=step.kind,
            position_id=_gnubg_id(pos),
            score=f"{pos.score[0]}-{pos.score[1]}",
            cube=pos.cube,
            pips=pip_count(me),
            opponent_pips=pip_count(opp),
            epc=_epc(me, epc),
            opponent_epc=_epc(opp, epc),
            phase=pos.phase(),
        )
        if isinstance(step.action, Move):
            row["dice"] = f"{step.action.dice[0]}{step.action.dice[1]}"
            row["play"] = None if step.play is None else str(step.play)
        rows.append(row)
    return rows


def _epc(side: tuple[int, ...], known: dict[tuple[int, ...], float]) -> float:
    if side not in known:
        found = effective_pip_count(side)
        known[side] = math.nan if found is None else found
    return known[side]


def _fill_rows(
    rows: list[dict[str, Any]],
    steps: Sequence[ReplayStep],
    figures: Sequence[Figures | None],
    met: MatchEquityTable,
) -> None:
    """Add the evaluator's figures to the rows: errors, luck, cube decisions (the
    beaverer's cube after a beaver as gnubg's statistics count it: see
    :func:`_cube_after_beaver`, applied to ``figures`` before)."""
    pending: tuple[CubeDecision, Position] | None = None  # the double being answered
    for i, (row, step, fig) in enumerate(zip(rows, steps, figures, strict=True)):
        pos = step.before
        if isinstance(step.action, Move):
            if fig is not None:
                _checker(row, fig, pos, met)
                if fig.cube is not None:
                    _cube(row, fig.cube, "no double", pos, met)
        elif step.kind == "double":
            pending = None
            if fig is not None and fig.cube is not None:
                pending = (fig.cube, pos)
                _cube(row, fig.cube, "double", pos, met)
        elif step.kind in ("take", "drop") and pending is not None:
            decision, at = pending
            _cube(row, decision, step.kind, at, met)
            pending = None
        elif step.kind == "beaver" and pending is not None and _accepted(steps, i):
            # the doubler's take of the beaver, implicit in the record: gnubg counts it
            # as a take (its error from the double's figures, on the beavered cube)
            decision, at = pending
            take = dict.fromkeys(MOVE_COLUMNS)
            take.update(player=at.turn, action="take")
            _cube(take, decision, "take", replace(at, cube=at.cube * 2), met)
            row["_take"] = take
            pending = None


def _accepted(steps: Sequence[ReplayStep], i: int) -> bool:
    """The beaver of step ``i`` is taken without a take in the record (the next action
    of its game is no answer to it)."""
    later = steps[i + 1] if i + 1 < len(steps) else None
    if later is None or later.game_index != steps[i].game_index:
        return True
    return later.kind not in ("take", "drop", "raccoon")


def _mark(rows: Sequence[dict[str, Any]], thresholds: tuple[float, float, float] | None) -> None:
    """Mark the decisions by other thresholds than gnubg's (``None``: keep gnubg's marks)."""
    if thresholds is None:
        return
    table = skill_thresholds(*thresholds)
    for row in rows:
        if row["error_emg"] is not None and row["skill"] is not None:
            row["skill"] = skill_label(row["error_emg"], table)
        if row["cube_error_emg"] is not None and row["cube_skill"] is not None:
            row["cube_skill"] = skill_label(row["cube_error_emg"], table)


def _note_dict(note: ActionAnalysis | None) -> dict[str, Any]:
    """A row's candidate plays and cube decision for :meth:`Analysis.to_dict`."""
    out: dict[str, Any] = {}
    if note is not None and note.checker is not None and note.checker.candidates:
        best = note.checker.candidates[0].equity
        out["candidates"] = [
            {
                "play": str(c.play),
                "equity": c.equity,
                "difference": c.equity - best,
                "probabilities": None
                if c.probabilities is None
                else list(c.probabilities.values()),
                "level": c.level,
                "played": i == note.checker.played,
            }
            for i, c in enumerate(note.checker.candidates)
        ]
    if note is not None and note.cube is not None:
        cube = note.cube
        out["cube_decision"] = {
            "no_double": cube.no_double,
            "double_take": cube.double_take,
            "double_pass": cube.double_pass,
            "proper_action": cube.verdict,
            "probabilities": None
            if cube.probabilities is None
            else list(cube.probabilities.values()),
        }
    return out


def _notes(
    rows: Sequence[dict[str, Any]],
    steps: Sequence[ReplayStep],
    figures: Sequence[Figures | None],
    plies: int,
) -> list[ActionAnalysis | None]:
    """Each row's candidate plays and cube decision as :class:`ActionAnalysis`."""
    notes: list[ActionAnalysis | None] = []
    pending: CubeAnalysis | None = None  # the double being answered
    for row, step, fig in zip(rows, steps, figures, strict=True):
        cube = checker = None
        if fig is not None and fig.cube is not None:
            cube = _cube_analysis(fig, step.before, plies, row)
        if isinstance(step.action, Move) and fig is not None and fig.legal is not None:
            played = None
            if fig.rank is not None:
                played = min(fig.rank, len(fig.candidates)) - 1
            error = None
            if fig.best is not None and fig.played is not None:
                error = min(0.0, fig.played - fig.best)
            checker = CheckerAnalysis(fig.candidates, played, error, fig.luck)
        if step.kind == "double":
            pending = cube
        elif step.kind in ("take", "drop"):
            cube, pending = pending, None
        notes.append(None if cube is None and checker is None else ActionAnalysis(cube, checker))
    return notes


def _cube_analysis(fig: Figures, pos: Position, plies: int, row: dict[str, Any]) -> CubeAnalysis:
    decision = fig.cube
    assert decision is not None and fig.cube_chances is not None
    return CubeAnalysis(
        no_double=decision.no_double,
        double_take=decision.double_take,
        double_pass=decision.double_pass,
        probabilities=Probabilities(*fig.cube_chances),
        level=f"Cubeful {plies}-ply",
        verdict=proper_action(decision, pos, fig.cube_chances),
        error_double=0.0 - row["cube_error_emg"]
        if row["cube_action"] in ("no double", "double")
        else None,
        error_take=0.0 - row["cube_error_emg"] if row["cube_action"] in ("take", "drop") else None,
    )


def _checker(row: dict[str, Any], fig: Figures, pos: Position, met: MatchEquityTable) -> None:
    if fig.luck is not None:
        row.update(
            equity_before=fig.luck_mean,
            luck_emg=fig.luck,
            luck_mwc=met.emg_cost(fig.luck, pos),
            luck=luck_label(fig.luck),
        )
    if fig.legal is None:
        return
    row.update(legal_plays=fig.legal, forced=fig.legal <= 1)
    if fig.best is None or fig.played is None:  # no legal play
        row.update(error_emg=0.0, error_mwc=0.0, skill="")
        return
    error = max(0.0, fig.best - fig.played)
    row.update(
        best_play=fig.best_play,
        equity_best=fig.best,
        equity_played=fig.played,
        rank=fig.rank,
        error_emg=error,
        error_mwc=met.emg_cost(error, pos),
        skill=skill_label(error),
    )


def _cube(
    row: dict[str, Any],
    decision: CubeDecision,
    action: str,
    pos: Position,
    met: MatchEquityTable,
) -> None:
    error, kind = cube_errors(decision, action)
    row.update(
        cube_action=action,
        cube_nd=decision.no_double,
        cube_dt=decision.double_take,
        cube_dp=decision.double_pass,
        cube_optimal=decision.optimal,
        cube_proper=decision.action,
        cube_error_emg=error,
        cube_error_mwc=met.emg_cost(error, pos),
        cube_error_kind=kind,
        cube_skill=skill_label(error),
        cube_close=action != "no double" or is_close_cube(decision),
    )


def _gnubg_id(pos: Position) -> str:
    clean = replace(pos, doubled=False, resigned=0) if pos.doubled or pos.resigned else pos
    if clean.game_state != GameState.PLAYING:
        clean = replace(clean, game_state=GameState.PLAYING)
    return gnubgid.gnubg_id(clean)


def _jsonable(row: dict[str, Any]) -> dict[str, Any]:
    """NaN becomes ``None`` (JSON has no NaN); private keys are dropped."""
    return {
        k: (None if isinstance(v, float) and math.isnan(v) else v)
        for k, v in row.items()
        if not k.startswith("_")
    }
