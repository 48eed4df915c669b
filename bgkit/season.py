"""A season of matches: every record of a folder analysed, per player and per match.

Players follow their form across many matches: how well they played (PR, error rate),
how lucky they were, what they won, against whom and when, and in which kind of
position their errors cost most. :func:`analyze_season` analyses every record of a
folder (or a list of files) with GNU Backgammon's evaluator on every core, or on a Dask
cluster, resumable with ``output=`` like ``bgkit verify --output``
(:func:`bgkit.batch.analyze_files`), and returns a :class:`Season`:

* :attr:`Season.matches`: one row per player and match, with the opponent, the date
  (the record's ``EventDate`` tag, else a date in the file name), the final score and the
  outcome, PR, error and luck rates, and the errors by game phase;
* :attr:`Season.players`: one row per player name over the season (a PR over all
  decisions, not an average of averages);
* :attr:`Season.subject`: whose season it is (``bgkit analyze FOLDER --player NAME``,
  :meth:`Season.about`; by default the player in most matches), names compared
  case-blind and aliases merged in every table; :meth:`Season.opponents` (their record
  against each, both PRs) and :meth:`Season.by_month` (PR month by month); final scores
  capped at the match length as the records write them; BackgammonGalaxy's single-game
  sessions counted as money (the points won, ``+1``, and won or lost by them);
* :meth:`Season.results`: the result per match (MWC) next to the luck-adjusted result,
  each with its 95 % confidence interval (Student's t over the matches: why, in its
  documentation), per player or month by month, and how much the luck-adjustment
  narrows the interval; :meth:`Season.results_figure`;
* :meth:`Season.rating`: a variance-reduced rating, the FIBS rating formula fed the
  luck-adjusted win instead of the win, next to the plain FIBS rating, match by match
  (the method and its sources in its documentation); :meth:`Season.rating_figure`;
* :meth:`Season.money`: money sessions in money figures (points per game and the
  luck-adjusted points per game with their intervals, errors per decision, the Jacoby
  rule each was analysed under), never in match winning chances or rating points: a
  folder of matches and money sessions shows each in its own unit;
* :meth:`Season.phases`: error rate per player and game phase (contact, race, bear-off);
* :meth:`Season.costliest`: the most expensive checker plays of the season;
* figures: :meth:`Season.form_figure` (PR match by match and its rolling mean),
  :meth:`Season.pr_luck_figure`, :meth:`Season.phase_figure`;
* :meth:`Season.html` / :meth:`Season.write_html`: one self-contained page of it all
  (``bgkit analyze FOLDER --html OUT``).

The numbers do not depend on where the work ran: every match is analysed whole by one
process with its own evaluator (``jobs=1``, ``jobs=2`` and a Dask cluster give the same
rows; a test checks it).

>>> season = analyze_season(
...     ["data/selfplay/selfplay_0001.mat", "data/selfplay/selfplay_0002.mat"],
...     jobs=1, progress=False)
>>> print(season.players[["name", "matches", "won"]].to_string(index=False))
 name  matches  won
Alice        2    2
  Bob        2    0
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import cached_property
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgkit.analysis.metrics import performance_rating
from bgkit.reports.figures import counted, text_as_written
from bgkit.reports.record_html import name_html, plain_page

if TYPE_CHECKING:
    import pandas as pd
    from distributed import Client  # type: ignore[import-not-found, unused-ignore]
    from matplotlib.figure import Figure

__all__ = [
    "PHASES",
    "Season",
    "analyze_season",
    "fibs_rating_change",
    "fibs_win_probability",
    "mean_interval",
    "possible_results",
    "ratio_interval",
    "t_quantile",
]

PHASES = ("contact", "race", "bearoff")
"""Game phases (:meth:`bgkit.position.Position.phase`, without its hyphen)."""

#: Matches per point of the rolling mean of :meth:`Season.form_figure`.
WINDOW = 5
#: The figures show the players with most matches, this many.
TOP = 3
#: The confidence of the intervals of :meth:`Season.results` and :meth:`Season.money`.
CONFIDENCE = 0.95
#: The season page's own style: a long file name breaks where it must, a month never
#: (a phone).
_SEASON_STYLE = """
.worst p { overflow-wrap: anywhere; }
table.months tbody th, table.results tbody th, table.months td { white-space: nowrap; }
table.opponents thead th { overflow-wrap: normal; }
@media (max-width: 600px) { table.opponents th, table.opponents td { padding: 2px 1px; } }
"""
#: Where the opponents table's headers may break on a phone (soft hyphens: ``matc hes``
#: was what breaking anywhere gave at 390 px).
_SOFT = {"matches": "match\u00ades", "unfinished": "un\u00adfin\u00adished",
         "sessions": "ses\u00adsions", "opponent": "op\u00adpo\u00adnent"}  # fmt: skip
#: Where :meth:`Season.rating` starts the player and puts the opponents (FIBS's start).
START_RATING = 1500.0


def _as_money(rows: pd.DataFrame) -> None:
    """Single-game sessions (BackgammonGalaxy's ``16 point match`` of one game that
    cannot decide it, :data:`bgkit.verify.CONVENTIONS` ``jacoby-session``) are money
    play with the Jacoby rule: ``length`` 0 and the points won or lost as the result.
    :func:`bgkit.batch.analyze_rows` analyses them as money; this mends the rows of an
    ``output=`` file written before it did (their luck-adjusted result, in the MWC of a
    16-point match, is left out)."""
    for index in rows.index:
        length, games, won = (
            rows.at[index, "length"],
            rows.at[index, "games"],
            rows.at[index, "won"],
        )
        try:
            mine, theirs = (int(x) for x in str(rows.at[index, "score"]).split("-"))
        except ValueError:
            continue
        if not (int(length) > 0 and int(games) == 1 and won is not True and won is not False):
            continue
        if str(rows.at[index, "event"]).strip().casefold() != "backgammongalaxy":
            continue  # (another one-game record is a match cut short)
        if max(mine, theirs) >= int(length):
            continue
        rows.at[index, "length"] = 0
        rows.at[index, "jacoby"] = True
        rows.at[index, "actual_result"] = float(mine - theirs)
        rows.at[index, "luck_adjusted_result"] = math.nan  # (analysed in MWC, not points)


def _money_scores(rows: pd.DataFrame) -> None:
    """Money sessions score the points won or lost (``+3``, from the analysis: a record's
    running totals may restart at 0-0 each game), and are won or lost by them."""
    for index in rows.index[rows["length"] == 0]:
        points = rows.at[index, "actual_result"]
        if points is None or points != points:
            continue
        rows.at[index, "score"] = f"{round(float(points)):+d}"
        rows.at[index, "won"] = None if points == 0 else bool(points > 0)


def _capped(score: object, length: object) -> object:
    """A final score as the match ends: each side at most the match length (a record may
    credit the winner the whole value of the last game, ``16-4`` in a 13-point match)."""
    try:
        mine, theirs = (int(x) for x in str(score).split("-"))
        cap = int(str(length))
    except ValueError:
        return score
    if cap <= 0:
        return score
    return f"{min(mine, cap)}-{min(theirs, cap)}"


def _interval(
    mean: float, low: float, high: float, *, percent: bool = True, ascii: bool = False
) -> str:
    """``+8.3% (-24.6 to +41.2)`` (MWC) or ``+0.42 (-0.10 to +0.94)`` (points), with
    typographic minus signs unless ``ascii``."""
    if mean != mean:
        return ""
    scale, unit, digits = (100.0, "%", 1) if percent else (1.0, "", 2)
    text = f"{scale * mean:+.{digits}f}{unit}"
    if low == low and high == high and low == high:
        text += " (all alike: no interval)"  # (a t-interval of zero width says nothing)
    elif low == low and high == high:
        text += f" ({scale * low:+.{digits}f} to {scale * high:+.{digits}f})"
    return text if ascii else text.replace("-", "\u2212")


def _triple(row: Any, name: str) -> tuple[float, float, float]:
    """``row``'s ``name``, ``name_low`` and ``name_high``."""
    return (float(row[name]), float(row[f"{name}_low"]), float(row[f"{name}_high"]))


def _record(part: pd.DataFrame) -> dict[str, int]:
    """Matches played, won, lost and unfinished (``won`` is a nullable boolean)."""
    won = part["won"]
    return {
        "matches": len(part),
        "won": int((won == True).sum()),  # noqa: E712
        "lost": int((won == False).sum()),  # noqa: E712
        "unfinished": int(won.isna().sum()),
    }


def _pr(part: pd.DataFrame) -> float:
    """PR over all the decisions of ``part``'s matches (not an average of averages)."""
    decisions = int(part["unforced_moves"].sum() + part["close_cube_decisions"].sum())
    return performance_rating(float(part["error_emg"].sum()), decisions)


# ---------------------------------------------------------------------- statistics


def t_quantile(confidence: float, df: int) -> float:
    """The two-sided quantile of Student's t with ``df`` degrees of freedom: the ``q``
    with ``P(|T| <= q) = confidence`` (``scipy.stats.t.ppf((1 + confidence) / 2, df)``).

    From the closed form of the t distribution for whole degrees of freedom
    (Abramowitz and Stegun 26.7.3 and 26.7.4), solved by bisection.

    >>> round(t_quantile(0.95, 1), 4), round(t_quantile(0.95, 10), 4)
    (12.7062, 2.2281)
    """
    if not 0.0 < confidence < 1.0 or df < 1:
        raise ValueError(f"t_quantile({confidence!r}, {df!r}): 0 < confidence < 1, df >= 1")
    low, high = 0.0, 1.0
    while _t_within(high, df) < confidence:
        low, high = high, 2 * high
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        if _t_within(middle, df) < confidence:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _t_within(t: float, df: int) -> float:
    """``P(|T| <= t)`` for Student's t with ``df`` (whole) degrees of freedom."""
    theta = math.atan(t / math.sqrt(df))
    sin, cos2 = math.sin(theta), math.cos(theta) ** 2
    total, term = 0.0, 1.0
    if df % 2:
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= cos2 * (2 * k) / (2 * k + 1)
        return 2 / math.pi * (theta + sin * math.cos(theta) * total)
    for k in range(1, df // 2 + 1):
        total += term
        term *= cos2 * (2 * k - 1) / (2 * k)
    return sin * total


def mean_interval(values: Any, confidence: float = CONFIDENCE) -> tuple[float, float, float]:
    """``(mean, low, high)``: the mean of ``values`` (NaNs left out) and its Student-t
    confidence interval, ``mean -+ t * s / sqrt(n)`` with ``s`` the sample standard
    deviation; the interval is NaN for fewer than two values.

    >>> [round(x, 4) for x in mean_interval([0.5, -0.5, 0.5, 0.5])]  # (s 0.5, t 3.1824)
    [0.25, -0.5456, 1.0456]
    """
    xs = [float(x) for x in values if x is not None and float(x) == float(x)]
    n = len(xs)
    if not n:
        return (math.nan, math.nan, math.nan)
    mean = sum(xs) / n
    if n < 2:
        return (mean, math.nan, math.nan)
    spread = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    if spread <= 1e-12 * max(1.0, abs(mean)):  # (all alike but for rounding: +-0.5 MWC
        spread = 0.0  # summed game by game)
    half = t_quantile(confidence, n - 1) * spread / math.sqrt(n)
    return (mean, mean - half, mean + half)


def possible_results(results: Any, won: Any) -> tuple[float, float]:
    """The least and the most a mean of these matches' results can be, in MWC: a match
    gains at most ``1 - start`` and loses at most ``start``, its player's match winning
    chance where its record starts. A finished match says its start: ``won - result``
    (0.5 from 0-0); an unfinished one, or one whose games do not add up to a start
    between 0 and 1 (a game missing from the record), is given the widest, -1 to +1.

    Whatever the player's chances, their expected result per match lies in that range:
    an interval cut to it covers it at least as often as before the cut.

    >>> possible_results([0.5, -0.5, 0.2], [True, False, None])
    (-0.6666..., 0.6666...)
    """
    import pandas as pd

    bounds = []
    for result, finished in zip(results, won, strict=True):
        start = math.nan if pd.isna(finished) or pd.isna(result) else bool(finished) - result
        if 0.0 <= start <= 1.0:
            bounds.append((-start, 1.0 - start))
        else:
            bounds.append((-1.0, 1.0))
    if not bounds:
        return (math.nan, math.nan)
    return (
        sum(low for low, _ in bounds) / len(bounds),
        sum(high for _, high in bounds) / len(bounds),
    )


def _cut(
    interval: tuple[float, float, float], possible: tuple[float, float]
) -> tuple[float, float]:
    """``interval``'s ends (of ``(mean, low, high)``) cut to the ``possible`` range, when
    its mean lies in it (a mean of luck-adjusted results may not: that of two matches
    lost with much luck, say; its interval is then left as it is)."""
    mean, low, high = interval
    least, most = possible
    if not least <= mean <= most:
        return (low, high)
    return (max(low, least), min(high, most))


def ratio_interval(
    points: Any, games: Any, confidence: float = CONFIDENCE
) -> tuple[float, float, float]:
    """``(per game, low, high)``: the points per game of money sessions (all their
    points over all their games, each game weighing the same) and its confidence
    interval. The sessions are the independent units: the standard error is the ratio
    estimator's, ``sqrt(n / (n - 1) * sum((p_i - r g_i)^2)) / sum(g_i)`` over the ``n``
    sessions with ``p_i`` points in ``g_i`` games and ``r`` the points per game, with
    Student's t on ``n - 1`` degrees of freedom (NaN for fewer than two sessions).

    >>> ratio_interval([3, -1], [2, 2])
    (0.5, -12.2062..., 13.2062...)
    """
    pairs = [
        (float(p), float(g))
        for p, g in zip(points, games, strict=True)
        if p is not None and float(p) == float(p) and g
    ]
    n, total = len(pairs), sum(g for _, g in pairs)
    if not total:
        return (math.nan, math.nan, math.nan)
    ratio = sum(p for p, _ in pairs) / total
    if n < 2:
        return (ratio, math.nan, math.nan)
    spread = math.sqrt(n / (n - 1) * sum((p - ratio * g) ** 2 for p, g in pairs)) / total
    half = t_quantile(confidence, n - 1) * spread
    return (ratio, ratio - half, ratio + half)


def fibs_win_probability(difference: float, length: int) -> float:
    """FIBS's chance that a player rated ``difference`` points over the opponent wins a
    ``length``-point match: ``1 / (1 + 10^(-D sqrt(N) / 2000))`` (FIBS ``help formula``).

    >>> round(fibs_win_probability(100, 3), 3)  # (a favourite 100 points up, 3 points)
    0.55
    """
    return 1.0 / (1.0 + float(10.0 ** (-difference * math.sqrt(length) / 2000.0)))


def fibs_rating_change(result: float, difference: float, length: int) -> float:
    """FIBS's rating change of a player after a ``length``-point match against an
    opponent ``difference`` points lower: ``4 sqrt(N) (result - P(win))`` with ``result``
    1 for a win and 0 for a loss (FIBS ``help formula`` for a player of 400 experience
    or more, K = 1). The luck-adjusted rating puts the luck-adjusted win expectation in
    ``result`` (see :meth:`Season.rating`).

    >>> fibs_rating_change(1, 0, 9), fibs_rating_change(0, 0, 9)
    (6.0, -6.0)
    """
    return 4.0 * math.sqrt(length) * (result - fibs_win_probability(difference, length))


def analyze_season(
    paths: str | os.PathLike[str] | list[str | os.PathLike[str]],
    plies: int = 0,
    *,
    met: str | None = None,
    jobs: int | None = None,
    client: Client | str | None = None,
    output: str | os.PathLike[str] | None = None,
    progress: bool | None = None,
) -> Season:
    """Analyse every record of ``paths`` (folders are searched) as one season.

    ``met``, ``jobs``, ``client``, ``output`` and ``progress`` are
    :func:`bgkit.batch.analyze_files`'s: the match equity table, local processes, a Dask
    client or scheduler address, a ``.parquet``/``.csv`` file that keeps the rows and lets
    a rerun skip the files already done.

    :raises ImportError: without GNU Backgammon (``pip install 'bgkit[analysis]'``).
    """
    from bgkit.batch import analyze_files

    rows = analyze_files(
        paths, plies, met=met, jobs=jobs, client=client, output=output, progress=progress
    )
    return Season(rows, plies)


@dataclass(frozen=True)
class Season:
    """The analysis of many matches (see the module documentation)."""

    rows: pd.DataFrame
    """:func:`bgkit.batch.analyze_files`'s rows: one per player and analysed file, and
    one per file that could not be analysed (``kind`` says why)."""
    plies: int = 0
    player: str | None = None
    """Whose season it is (:attr:`subject`); ``None``: the player in most matches."""
    aliases: tuple[tuple[str, str], ...] = ()
    """``(alias, name)`` pairs: the alias is the same person as the name. Names are
    compared case-blind (``Llabba`` and ``llabba`` are one player) in every table."""

    def about(self, player: str | None = None, aliases: dict[str, str] | None = None) -> Season:
        """The same season about ``player`` (case-blind), with ``aliases`` merged."""
        from dataclasses import replace

        pairs = tuple(sorted((aliases or {}).items()))
        return replace(self, player=player, aliases=pairs)

    def _names(self, names: pd.Series) -> pd.Series:
        """Each name as the season writes it: aliases merged, one spelling per name
        compared case-blind (the spelling met most often)."""
        merged = {alias.casefold(): name.casefold() for alias, name in self.aliases}
        keys = names.astype(str).str.casefold().map(lambda k: merged.get(k, k))
        spelling: dict[str, str] = {}
        counts = names.astype(str).groupby(keys).value_counts()
        for (key, name), _ in counts.sort_values(ascending=False, kind="stable").items():
            spelling.setdefault(key, name)
        for _, name in self.aliases:  # (a name met only through its aliases)
            spelling.setdefault(name.casefold(), name)
        return keys.map(spelling)

    @property
    def subject(self) -> str | None:
        """Whose season: :attr:`player` as the season spells it, else the player present
        in most matches; ``None`` for a season without matches (or a player not in it)."""
        names = self.matches["name"]
        if names.empty:
            return None
        if self.player is None:
            return str(names.value_counts().idxmax())
        want = self.player.casefold()
        merged = {alias.casefold(): name.casefold() for alias, name in self.aliases}
        want = merged.get(want, want)
        found = [n for n in names.unique() if str(n).casefold() == want]
        return str(found[0]) if found else None

    @property
    def matches(self) -> pd.DataFrame:
        """One row per player and analysed match or money session (``length`` 0), in date
        order (then file order). Besides the analysis's figures: ``luck_adjusted_win``
        (a finished match: 1 won or 0 lost, minus the player's luck, plus the opponent's,
        in MWC: the match won with the luck taken out), and in money play
        ``points_per_game`` and ``luck_adjusted_ppg`` (``actual_result`` and
        ``luck_adjusted_result`` per game) and ``jacoby`` (the rule it was analysed under).

        Made once per season (every table starts from it): each call hands out a copy,
        which the caller may change."""
        return self._matches.copy()

    @cached_property
    def _matches(self) -> pd.DataFrame:
        """:attr:`matches`, made once (a frozen dataclass keeps it in its ``__dict__``)."""
        import pandas as pd

        rows = self.rows[self.rows["kind"].isna()].copy()
        rows["order"] = range(len(rows))
        rows = rows.sort_values(["date", "order"], na_position="last", kind="stable")
        if "jacoby" not in rows:  # (rows kept by an older bgkit)
            rows["jacoby"] = pd.Series(pd.NA, index=rows.index, dtype="boolean")
        if len(rows):
            rows["name"] = self._names(rows["name"])
            rows["opponent"] = self._names(rows["opponent"])
            _as_money(rows)
            _money_scores(rows)
            rows["score"] = [_capped(score, length) for score, length in
                             zip(rows["score"], rows["length"], strict=True)]  # fmt: skip
        play, money = rows["length"] > 0, rows["length"] == 0
        won = rows["won"].astype("Float64").astype(float)
        luck = (rows["luck_adjusted_result"] - rows["actual_result"]).astype(float)
        rows["luck_adjusted_win"] = (won + luck).where(play & rows["won"].notna())
        games = rows["games"].astype(float)
        rows["points_per_game"] = (rows["actual_result"] / games).where(money)
        rows["luck_adjusted_ppg"] = (rows["luck_adjusted_result"] / games).where(money)
        keep = [
            "file", "date", "event", "length", "games", "jacoby", "player", "name",
            "opponent", "score", "won", "pr", "error_rate_memg", "luck_rate_memg", "luck_emg",
            "actual_result", "luck_adjusted_result", "luck_adjusted_win", "points_per_game",
            "luck_adjusted_ppg", "unforced_moves",
            "close_cube_decisions", "error_emg", "checker_error_emg", "cube_error_emg",
            *(f"{w}_{p}" for p in PHASES for w in ("moves", "error_emg")), "plies", "met",
        ]  # fmt: skip
        return rows[keep].reset_index(drop=True)

    def analysed(self) -> str:
        """What the season holds: ``"6 matches and 3 money sessions analysed"``."""
        files = self.matches.drop_duplicates("file")
        sessions = int((files["length"] == 0).sum())
        parts = (
            [counted(len(files) - sessions, "match", "matches")] if len(files) > sessions else []
        )
        if sessions:
            parts.append(counted(sessions, "money session"))
        return " and ".join(parts or ["0 matches"]) + " analysed"

    @property
    def skipped(self) -> pd.DataFrame:
        """The files not analysed: ``file, kind, message`` (unreadable, or breaking a rule)."""
        rows = self.rows[self.rows["kind"].notna()]
        return rows[["file", "kind", "message"]].drop_duplicates("file").reset_index(drop=True)

    @property
    def players(self) -> pd.DataFrame:
        """One row per player name, most matches first: ``name, matches, won, lost,
        unfinished`` (match play), ``sessions`` (money), ``first, last`` (dates), ``pr``
        over all the season's decisions, ``error_rate_memg``, ``luck_rate_memg`` (per match
        or session, averaged), ``luck_adjusted`` (the mean luck-adjusted result per match,
        in MWC; money sessions, in points, are :meth:`money`'s)."""
        import pandas as pd

        out = []
        for name, part in self.matches.groupby("name", sort=False):
            play = part[part["length"] > 0]
            out.append(
                {
                    "name": name,
                    **_record(play),
                    "sessions": int((part["length"] == 0).sum()),
                    "first": part["date"].min(),
                    "last": part["date"].max(),
                    "pr": _pr(part),
                    "error_rate_memg": float(part["error_rate_memg"].mean()),
                    "luck_rate_memg": float(part["luck_rate_memg"].mean()),
                    "luck_adjusted": float(play["luck_adjusted_result"].mean()),
                }
            )
        frame = pd.DataFrame(out)
        if frame.empty:
            return frame
        frame["played"] = frame["matches"] + frame["sessions"]
        frame = frame.sort_values(["played", "name"], ascending=[False, True])
        return frame.drop(columns="played").reset_index(drop=True)

    def opponents(self) -> pd.DataFrame:
        """The :attr:`subject`'s opponents, most matches first: ``opponent, matches, won,
        lost, unfinished`` (match play), ``sessions`` (money), ``last`` (date), ``pr`` (the
        subject's, against them), ``opponent_pr``."""
        import pandas as pd

        who = self.subject
        matches = self.matches
        mine = matches[matches["name"] == who]
        theirs = matches[matches["opponent"] == who].set_index("file")
        out = []
        for name, part in mine.groupby("opponent", sort=False):
            other = theirs.loc[theirs.index.intersection(part["file"])]
            out.append(
                {
                    "opponent": name,
                    **_record(part[part["length"] > 0]),
                    "sessions": int((part["length"] == 0).sum()),
                    "last": part["date"].max(),
                    "pr": _pr(part),
                    "opponent_pr": _pr(other) if len(other) else math.nan,
                }
            )
        columns = ["opponent", "matches", "won", "lost", "unfinished", "sessions", "last",
                   "pr", "opponent_pr"]  # fmt: skip
        frame = pd.DataFrame(out, columns=columns)
        frame["played"] = frame["matches"] + frame["sessions"]
        frame = frame.sort_values(["played", "opponent"], ascending=[False, True], kind="stable")
        return frame.drop(columns="played").reset_index(drop=True)

    def by_month(self) -> pd.DataFrame:
        """The :attr:`subject`'s season month by month (dated matches): ``month``
        (``YYYY-MM``), ``matches, won, lost, unfinished, pr`` (over the month's decisions),
        ``luck_rate_memg`` (mean per match)."""
        import pandas as pd

        matches = self.matches
        mine = matches[(matches["name"] == self.subject) & matches["date"].notna()].copy()
        mine["month"] = mine["date"].astype(str).str[:7]
        out = []
        for month, part in mine.groupby("month", sort=True):
            out.append(
                {
                    "month": month,
                    **_record(part[part["length"] > 0]),
                    "sessions": int((part["length"] == 0).sum()),
                    "pr": _pr(part),
                    "luck_rate_memg": float(part["luck_rate_memg"].mean()),
                }
            )
        columns = ["month", "matches", "won", "lost", "unfinished", "sessions", "pr",
                   "luck_rate_memg"]  # fmt: skip
        return pd.DataFrame(out, columns=columns)

    def _mine_by(self, rows: pd.DataFrame, by: str) -> tuple[str, list[tuple[str, Any]]]:
        """``rows`` grouped by player (most matches first) or, the subject's, by month."""
        if by == "player":
            order = {name: i for i, name in enumerate(self.players.get("name", []))}
            groups = sorted(rows.groupby("name", sort=False), key=lambda g: order.get(g[0], 0))
            return "name", [(str(k), part) for k, part in groups]
        if by == "month":
            mine = rows[(rows["name"] == self.subject) & rows["date"].notna()]
            months = mine["date"].astype(str).str[:7]
            return "month", [(str(k), part) for k, part in mine.groupby(months, sort=True)]
        raise ValueError(f"by={by!r}: 'player' or 'month'")

    def results(self, by: str = "player", confidence: float = CONFIDENCE) -> pd.DataFrame:
        """Match results with and without the luck, per player (``by="player"``, most
        matches first) or the :attr:`subject`'s month by month (``by="month"``).

        Each match counts once, as the MWC (match winning chance) it gained: ``result``
        is the mean of ``actual_result`` (+0.5 a match won from 0-0, -0.5 one lost; an
        unfinished match what it gained so far), ``luck_adjusted`` the mean of
        ``luck_adjusted_result`` (the same with the player's luck taken out and the
        opponent's put back: gnubg's *luck adjusted result*; the dice's part of a result,
        whose expectation is 0, is what makes a raw result vary). Each has its
        ``confidence`` interval (``_low``, ``_high``), Student's t over the matches
        (:func:`mean_interval`), cut to the results a mean of these matches can take
        (:func:`possible_results`: a match from 0-0 gains at most +50% and loses at most
        -50%, where a t-interval of a few matches reaches far past: +-635% for two
        matches, one won and one lost); ``narrower`` is how much narrower the
        luck-adjusted interval is (0.6: 60 % narrower), as shown: two cut to the same
        range are 0 % narrower, whatever their spreads. Money sessions are
        :meth:`money`'s.

        Why a t-interval rather than a bootstrap: the matches are independent draws and
        the interval is of a mean, which the t-interval covers well from a dozen matches
        (a raw result is +-0.5, bounded); it is exact for the numbers it reports (no
        resampling, no seed, the same page every time), and the bootstrap's percentile
        interval is too narrow for the few matches of a month. With fewer than two
        matches there is no interval (NaN).
        """
        import pandas as pd

        matches = self.matches
        play = matches[
            (matches["length"] > 0)
            & matches["actual_result"].notna()
            & matches["luck_adjusted_result"].notna()
        ]
        key, groups = self._mine_by(play, by)
        out = []
        for value, part in groups:
            raw = mean_interval(part["actual_result"], confidence)
            adjusted = mean_interval(part["luck_adjusted_result"], confidence)
            possible = possible_results(part["actual_result"], part["won"])
            low, high = _cut(raw, possible)
            adjusted_low, adjusted_high = _cut(adjusted, possible)
            width, adjusted_width = high - low, adjusted_high - adjusted_low
            out.append(
                {
                    key: value,
                    "matches": len(part),
                    "result": raw[0],
                    "result_low": low,
                    "result_high": high,
                    "luck_adjusted": adjusted[0],
                    "luck_adjusted_low": adjusted_low,
                    "luck_adjusted_high": adjusted_high,
                    "narrower": 1 - adjusted_width / width if width > 0 else math.nan,
                }
            )
        columns = [key, "matches", "result", "result_low", "result_high", "luck_adjusted",
                   "luck_adjusted_low", "luck_adjusted_high", "narrower"]  # fmt: skip
        return pd.DataFrame(out, columns=columns)

    def money(self, by: str = "player", confidence: float = CONFIDENCE) -> pd.DataFrame:
        """Money sessions in money figures, per player (``by="player"``) or the
        :attr:`subject`'s month by month (``by="month"``): ``sessions, games, points``
        (won, + or -), ``ppg`` (points per game over all the games) and
        ``luck_adjusted_ppg`` with their ``confidence`` intervals (:func:`ratio_interval`:
        the sessions are the independent units), ``error_rate_memg`` (thousandths of EMG
        lost per decision: unforced move or close cube decision), ``pr``, and ``jacoby``
        (the rule the sessions were analysed under, :func:`bgkit.analysis.money_rules`:
        ``"on"``, ``"off"`` or ``"on in 2 of 3"``). No match figures: no MWC, no rating."""
        import pandas as pd

        matches = self.matches
        key, groups = self._mine_by(matches[matches["length"] == 0], by)
        out = []
        for value, part in groups:
            ppg = ratio_interval(part["actual_result"], part["games"], confidence)
            known = part[part["luck_adjusted_result"].notna()]
            adjusted = ratio_interval(known["luck_adjusted_result"], known["games"], confidence)
            on = int((part["jacoby"] == True).sum())  # noqa: E712
            said = int(part["jacoby"].notna().sum())
            jacoby = "on" if on == said else "off" if on == 0 else f"on in {on} of {said}"
            decisions = int(part["unforced_moves"].sum() + part["close_cube_decisions"].sum())
            out.append(
                {
                    key: value,
                    "sessions": len(part),
                    "games": int(part["games"].sum()),
                    "points": float(part["actual_result"].sum()),
                    "ppg": ppg[0],
                    "ppg_low": ppg[1],
                    "ppg_high": ppg[2],
                    "luck_adjusted_ppg": adjusted[0],
                    "luck_adjusted_ppg_low": adjusted[1],
                    "luck_adjusted_ppg_high": adjusted[2],
                    "error_rate_memg": 1000 * float(part["error_emg"].sum()) / decisions
                    if decisions
                    else math.nan,
                    "pr": _pr(part),
                    "jacoby": jacoby if said else "",
                }
            )
        columns = [key, "sessions", "games", "points", "ppg", "ppg_low", "ppg_high",
                   "luck_adjusted_ppg", "luck_adjusted_ppg_low", "luck_adjusted_ppg_high",
                   "error_rate_memg", "pr", "jacoby"]  # fmt: skip
        return pd.DataFrame(out, columns=columns)

    def rating(
        self, start: float = START_RATING, opponents: float | dict[str, float] = START_RATING
    ) -> pd.DataFrame:
        """The :attr:`subject`'s rating match by match by the FIBS formula, as won and
        lost and luck-adjusted (a variance-reduced rating).

        FIBS's formula (its ``help formula``, reproduced in the Backgammon FAQ): after an
        ``N``-point match against an opponent ``D`` rating points lower, a player's rating
        changes by ``4 sqrt(N) (W - P)`` with ``P = 1 / (1 + 10^(-D sqrt(N) / 2000))`` the
        chance the formula gives the player and ``W`` 1 for a win, 0 for a loss
        (:func:`fibs_rating_change`; K = 1, a player of 400 experience or more). The
        luck-adjusted rating puts in ``W`` the luck-adjusted win,
        ``luck_adjusted_win`` of :attr:`matches`: the win (1 or 0) with the player's luck
        taken out and the opponent's put back, in MWC as gnubg measures them. The luck
        has expectation 0 (Douglas Zare, "Hedging Toward Skill", GammonVillage 2000:
        final - initial = net luck + net skill), so the luck-adjusted ``W`` has the
        expectation of the win and far less variance: the rating it gives follows the
        player's skill, not the dice. ``W`` is not clipped to [0, 1] (clipping would bias
        it).

        Finished match-play matches only (an unfinished match or a money session changes
        no FIBS rating), in date order. Each track starts at ``start``; the opponents
        are at ``opponents`` (one rating, or a rating per name: the records carry none).
        Columns: ``date, opponent, length, won, luck_adjusted_win``, then per track the
        chance FIBS gives (``win_probability``, ``luck_adjusted_win_probability``), the
        change and the rating after the match.
        """
        import pandas as pd

        matches = self.matches
        mine = matches[
            (matches["name"] == self.subject) & (matches["length"] > 0) & matches["won"].notna()
        ]
        raw = adjusted = float(start)
        out = []
        for row in mine.itertuples(index=False):
            them = opponents if not isinstance(opponents, dict) else opponents.get(
                str(row.opponent), START_RATING)  # fmt: skip
            length = int(row.length)
            won = 1.0 if bool(row.won) else 0.0
            expected = fibs_win_probability(raw - float(them), length)
            change = fibs_rating_change(won, raw - float(them), length)
            raw += change
            w = float(row.luck_adjusted_win)
            adjusted_expected = fibs_win_probability(adjusted - float(them), length)
            adjusted_change = math.nan
            if w == w:
                adjusted_change = fibs_rating_change(w, adjusted - float(them), length)
                adjusted += adjusted_change
            out.append(
                {
                    "date": row.date,
                    "opponent": row.opponent,
                    "length": length,
                    "won": bool(row.won),
                    "luck_adjusted_win": w,
                    "win_probability": expected,
                    "change": change,
                    "rating": raw,
                    "luck_adjusted_win_probability": adjusted_expected,
                    "luck_adjusted_change": adjusted_change,
                    "luck_adjusted_rating": adjusted,
                }
            )
        columns = ["date", "opponent", "length", "won", "luck_adjusted_win", "win_probability",
                   "change", "rating", "luck_adjusted_win_probability", "luck_adjusted_change",
                   "luck_adjusted_rating"]  # fmt: skip
        return pd.DataFrame(out, columns=columns)

    def phases(self) -> pd.DataFrame:
        """Per player (most matches first) and game phase: unforced checker ``moves``, their
        ``error_emg`` and ``error_rate_memg`` (thousandths of EMG per move): where a
        player's errors cost."""
        import pandas as pd

        matches = self.matches
        out = []
        order = {name: i for i, name in enumerate(self.players.get("name", []))}
        groups = sorted(matches.groupby("name", sort=False), key=lambda g: order.get(g[0], 0))
        for name, part in groups:
            for phase in PHASES:
                moves = int(part[f"moves_{phase}"].sum())
                error = float(part[f"error_emg_{phase}"].sum())
                out.append(
                    {
                        "name": name,
                        "phase": phase.replace("bearoff", "bear-off"),
                        "moves": moves,
                        "error_emg": error,
                        "error_rate_memg": 1000 * error / moves if moves else math.nan,
                    }
                )
        return pd.DataFrame(out, columns=["name", "phase", "moves", "error_emg", "error_rate_memg"])

    def costliest(self, n: int = 10) -> pd.DataFrame:
        """The ``n`` costliest checker plays of the season, one per player and match at
        most: ``file, date, name, opponent, game, move, position_id, dice, played, best,
        error_emg``."""
        rows = self.rows[self.rows["kind"].isna() & self.rows["worst_error_emg"].notna()]
        rows = rows.sort_values("worst_error_emg", ascending=False, kind="stable").head(n)
        frame = rows[
            ["file", "date", "name", "opponent", "worst_game", "worst_move",
             "worst_position_id", "worst_dice", "worst_play", "worst_best_play",
             "worst_error_emg"]
        ]  # fmt: skip
        frame.columns = [
            "file", "date", "name", "opponent", "game", "move", "position_id", "dice",
            "played", "best", "error_emg",
        ]  # fmt: skip
        return frame.reset_index(drop=True)

    # -- figures

    @text_as_written
    def form_figure(self, names: list[str] | None = None, window: int = WINDOW) -> Figure:
        """PR match by match of the season's player (:attr:`subject`, or ``names``), by
        date when every match is dated (else in file order), with the rolling mean over
        ``window`` matches. Lower is better."""
        import pandas as pd
        from matplotlib.figure import Figure

        from bgkit.reports.figures import PLAYER_COLORS

        if names is None:
            names = [self.subject] if self.subject is not None else []
        matches = self.matches
        fig = Figure(figsize=(10, 4.5), layout="constrained")
        ax = fig.add_subplot()
        colors = [*PLAYER_COLORS, "#1b9e77", "#7570b3", "#e7298a"]
        for i, name in enumerate(names):
            part = matches[matches["name"] == name].reset_index(drop=True)
            dates = pd.to_datetime(part["date"], errors="coerce")
            by_date = len(part) and dates.notna().all() and dates.nunique() > 1
            x: Any = dates if by_date else range(1, len(part) + 1)
            color = colors[i % len(colors)]
            pr = part["pr"].astype(float)
            ax.plot(x, pr, "o", color=color, alpha=0.45, markersize=4)
            rolling = pr.rolling(window, min_periods=1).mean()
            ax.plot(x, rolling, "-", color=color, linewidth=2,
                    label=f"{name}: rolling mean of {window}"
                          f" ({counted(len(part), 'match', 'matches')})")  # fmt: skip
        dated = bool(len(matches)) and matches["date"].notna().all()
        dated = dated and matches["date"].nunique() > 1
        who = f"{names[0]}'s form" if len(names) == 1 else "Form"
        ax.set_title(f"{who}: PR match by match" + (" (by date)" if dated else ""))
        ax.set_xlabel("date of the match" if dated else "match (in date order, then file order)")
        if dated:
            fig.autofmt_xdate()
        ax.set_ylabel("PR (lower is better)")
        if not dated:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        if names:
            ax.legend(loc="upper right")
        return fig

    @text_as_written
    def pr_luck_figure(self) -> Figure:
        """Error rate against luck rate, one point per player and match, wins and losses
        apart: how much of a season's results the dice explain. The axes hold the middle
        of the season (a few wild matches, beginners' or broken records, would squash the
        rest into a corner); the title says how many points lie outside."""
        import numpy as np

        from bgkit.reports.figures import error_luck_figure

        frame = self.matches.copy()
        frame["won"] = frame["won"].fillna(False).astype(bool)
        fig = error_luck_figure(frame)
        errors = frame["error_rate_memg"].astype(float).dropna()
        luck = frame["luck_rate_memg"].astype(float).dropna()
        if len(errors) >= 10:
            ax = fig.axes[0]
            top = float(errors.quantile(0.9)) * 2.5
            wide = float(luck.abs().quantile(0.95)) * 1.3
            ax.set_ylim(-0.03 * top, top)
            ax.set_xlim(-wide, wide)
            outside = int(((errors > top) | (luck.abs() > wide)).sum())
            for points in ax.collections:  # (drawn outside, clipped, they would still
                xy = np.asarray(points.get_offsets(), dtype=float)  # widen the page)
                inside = (np.abs(xy[:, 0]) <= wide) & (xy[:, 1] <= top) & (xy[:, 1] >= -0.03 * top)
                points.set_offsets(xy[inside])
            if outside:
                ax.set_title(f"{ax.get_title()}\n({outside} outside the axes)")
        return fig

    @text_as_written
    def results_figure(self, confidence: float = CONFIDENCE) -> Figure:
        """The :attr:`subject`'s result per match over the season and month by month, as
        won and lost and luck-adjusted, each with its ``confidence`` interval
        (:meth:`results`): how much the luck-adjustment narrows what a season says. The
        axis holds -100% to +100% MWC; an interval past it ends in an arrowhead."""
        import pandas as pd
        from matplotlib.figure import Figure

        from bgkit.reports.figures import PLAYER_COLORS

        who = self.subject
        season = self.results("player", confidence)
        season = season[season["name"] == who].rename(columns={"name": "month"})
        season["month"] = "season"
        months = self.results("month", confidence)
        frame = season if len(months) < 2 else pd.concat([season, months], ignore_index=True)
        fig = Figure(figsize=(8, 1.6 + 0.45 * len(frame)), layout="constrained")
        ax = fig.add_subplot()
        ys = list(range(len(frame)))[::-1]
        edge = 100.0
        for y, row in zip(ys, frame.itertuples(index=False), strict=True):
            for shift, (mean, low, high), color, label in (
                (0.16, (row.result, row.result_low, row.result_high), "#888888",
                 "won and lost"),
                (-0.16, (row.luck_adjusted, row.luck_adjusted_low, row.luck_adjusted_high),
                 PLAYER_COLORS[0], "luck-adjusted"),
            ):  # fmt: skip
                # (an interval past +-100% is drawn to the edge, an arrowhead saying so:
                # a luck-adjusted one whose mean lies past what a result can be is not
                # cut, :meth:`results`, and would squash the rest)
                ends = [min(max(100 * v, -edge), edge) for v in (low, high)]
                ax.plot(ends, [y + shift] * 2, "-", color=color, linewidth=2.5,
                        label=label if y == ys[0] else None)  # fmt: skip
                for end, v, mark in ((ends[0], low, "<"), (ends[1], high, ">")):
                    if abs(100 * v) > edge:
                        ax.plot([end], [y + shift], mark, color=color, markersize=7)
                ax.plot([100 * mean], [y + shift], "o", color=color)
        ax.axvline(0, color="#444444", linewidth=0.8)
        ax.set_xlim(-edge * 1.04, edge * 1.04)
        ax.set_ylim(-0.6, len(frame) - 0.4)
        ax.set_yticks(ys, [f"{m} ({n})" for m, n in zip(frame["month"], frame["matches"],
                                                        strict=True)])  # fmt: skip
        ax.set_xlabel(f"result per match (% match winning chance), {confidence:.0%} interval")
        ax.set_title(f"{who}'s results: won and lost, and with the luck taken out")
        if len(frame):
            fig.legend(loc="outside lower center", ncols=2, frameon=False)
        return fig

    @text_as_written
    def rating_figure(
        self, start: float = START_RATING, opponents: float | dict[str, float] = START_RATING
    ) -> Figure:
        """The :attr:`subject`'s FIBS rating match by match, from won and lost and
        luck-adjusted (:meth:`rating`): the luck-adjusted one follows the play."""
        import pandas as pd
        from matplotlib.figure import Figure

        from bgkit.reports.figures import PLAYER_COLORS

        track = self.rating(start, opponents)
        fig = Figure(figsize=(10, 4.5), layout="constrained")
        ax = fig.add_subplot()
        dates = pd.to_datetime(track["date"], errors="coerce")
        dated = len(track) > 1 and dates.notna().all() and dates.nunique() > 1
        x: Any = dates if dated else range(1, len(track) + 1)
        ax.plot(x, track["rating"], ".-", color="#888888", linewidth=1.5,
                label="from the matches won and lost")  # fmt: skip
        ax.plot(x, track["luck_adjusted_rating"], ".-", color=PLAYER_COLORS[0], linewidth=2,
                label="luck-adjusted (variance-reduced)")  # fmt: skip
        ax.axhline(start, color="#444444", linewidth=0.8)
        ax.set_title(f"{self.subject}'s rating by the FIBS formula, from {start:g}")
        ax.set_xlabel("date of the match" if dated else "finished match (in date order)")
        if dated:
            fig.autofmt_xdate()
        else:
            from matplotlib.ticker import MaxNLocator

            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("rating")
        if len(track):
            ax.legend(loc="upper left")
        return fig

    @text_as_written
    def phase_figure(self, names: list[str] | None = None) -> Figure:
        """Error rate by game phase for the players with most matches (or ``names``)."""
        from matplotlib.figure import Figure

        from bgkit.reports.figures import PLAYER_COLORS

        players = self.players
        if names is None:
            names = list(players["name"].head(TOP)) if not players.empty else []
        phases = self.phases()
        fig = Figure(figsize=(8, 4.5), layout="constrained")
        ax = fig.add_subplot()
        width = 0.8 / max(len(names), 1)
        labels = [p.replace("bearoff", "bear-off") for p in PHASES]
        colors = [*PLAYER_COLORS, "#1b9e77", "#7570b3", "#e7298a"]
        for i, name in enumerate(names):
            part = phases[phases["name"] == name].set_index("phase").reindex(labels)
            xs = [k + (i - (len(names) - 1) / 2) * width for k in range(len(labels))]
            bars = ax.bar(xs, part["error_rate_memg"].astype(float), width,
                          color=colors[i % len(colors)], label=name)  # fmt: skip
            ax.bar_label(bars, labels=[f"{m} moves" for m in part["moves"]], fontsize=8,
                         rotation=90, padding=3)  # fmt: skip
        ax.set_xticks(range(len(labels)), labels)
        ax.margins(y=0.45)  # room for the move counts over the bars (upright: no overlap)
        ax.set_title("Where the errors are: checker-play error rate by game phase")
        ax.set_ylabel("mEMG per unforced move")
        if names:
            ax.legend(loc="upper right")
        return fig

    # -- the page

    def html(self, title: str = "A season of matches") -> str:
        """One self-contained page (inline SVG, no script): the players, the figures, the
        costliest plays with their boards, every match, and the files not analysed."""
        import pandas as pd

        from bgkit import __version__
        from bgkit.reports.match_report import _STYLE, _figure, _table

        matches = self.matches
        who = self.subject
        level = f"{self.plies}-ply"
        tables = sorted(set(matches["met"].dropna()))
        if tables:
            level += f", {' and '.join(tables)} match equity table"
        mine = matches[matches["name"] == who]
        me = self.players
        me = me[me["name"] == who]
        results = self.results()
        results = results[results["name"] == who]
        track = self.rating()
        money = self.money()
        money = money[money["name"] == who]
        summary = pd.DataFrame(
            {
                "matches": me["matches"],
                "won": me["won"],
                "lost": me["lost"],
                "unfinished": me["unfinished"],
                "money sessions": me["sessions"],
                "first": me["first"],
                "last": me["last"],
                "PR": me["pr"].round(1),
                "error rate (mEMG/decision)": me["error_rate_memg"].round(1),
                "luck (mEMG/roll, + lucky)": me["luck_rate_memg"].round(1),
            }
        ).T.set_axis([str(who)], axis=1)
        if len(me) and pd.isna(me["first"].iloc[0]):  # (no match of the season is dated)
            summary = summary.drop(["first", "last"])
        if len(me) and not me["matches"].iloc[0]:  # (money sessions only)
            summary = summary.drop(["matches", "won", "lost", "unfinished"])
        elif len(me) and not me["sessions"].iloc[0]:
            summary = summary.drop(["money sessions"])
        if len(results):
            row = results.iloc[0]
            summary.loc["result per match (MWC)"] = _interval(*_triple(row, "result"))
            summary.loc["luck-adjusted result per match (MWC)"] = _interval(
                *_triple(row, "luck_adjusted")
            )
        if len(track):
            summary.loc[f"FIBS rating from {START_RATING:g}"] = f"{track['rating'].iloc[-1]:.0f}"
            last = track["luck_adjusted_rating"].iloc[-1]
            summary.loc["luck-adjusted FIBS rating"] = f"{last:.0f}"
        if len(money):
            row = money.iloc[0]
            summary.loc["money: points per game"] = _interval(
                row["ppg"], row["ppg_low"], row["ppg_high"], percent=False)  # fmt: skip
            summary.loc["money: luck-adjusted points per game"] = _interval(
                row["luck_adjusted_ppg"], row["luck_adjusted_ppg_low"],
                row["luck_adjusted_ppg_high"], percent=False)  # fmt: skip
        months = (
            self.by_month()
            .rename(columns={"pr": "PR", "luck_rate_memg": "luck (mEMG/roll)",
                             "sessions": "money sessions"})
            .round(1)
        )  # fmt: skip
        if not months.empty and not months["money sessions"].any():
            months = months.drop(columns="money sessions")
        opponents = self.opponents()
        if not opponents["sessions"].any():
            opponents = opponents.drop(columns="sessions")
        opponents = opponents.rename(
            columns={"pr": f"{who}'s PR", "opponent_pr": "their PR", "last": "last match"}
        ).round(1)
        shown = pd.DataFrame(
            {
                "date": mine["date"],
                "opponent": mine["opponent"],
                "match": [
                    f"{n}-point"
                    if n
                    else "money"
                    if j is pd.NA
                    else f"money, {'Jacoby' if j else 'no Jacoby'}"
                    for n, j in zip(mine["length"], mine["jacoby"], strict=True)
                ],
                "score": mine["score"],
                "result": mine["won"].map(
                    lambda w: (
                        "unfinished"
                        if w is None or w is pd.NA or w != w
                        else ("won" if w else "lost")
                    )
                ),
                "PR": mine["pr"].astype(float).round(1),
                "luck (mEMG/roll)": mine["luck_rate_memg"].astype(float).round(1),
                "file": mine["file"].map(lambda f: Path(str(f)).name),
            }
        )
        title = title if title != "A season of matches" or who is None else f"{who}'s season"
        parts = [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{escape(title)}: bgkit</title>",
            f"<style>{_STYLE}{_SEASON_STYLE}</style></head><body>",
            f"<h1>{escape(title)}</h1>",
            f'<p class="meta">{escape(self.analysed())} by GNU'
            f" Backgammon ({level}), {len(mine)} of them played by {escape(str(who))};"
            f" {len(self.skipped)} file(s) not analysed (listed at the end)."
            f" Report by bgkit {__version__}.</p>",
            f"<h2>{escape(str(who))}</h2>",
            _table(summary, "players"),
            '<p class="meta">PR: 500 x the equity (EMG) lost per unforced decision over the'
            " whole season, lower is better (about 5 is world class, 10 a strong club"
            " player); error and luck rates in thousandths of EMG per decision and per roll"
            " (+ = lucky). Results per match in match winning chance (MWC: +50% a match won,"
            " -50% one lost), luck-adjusted: with both players' luck taken out; money in"
            f" points. In brackets: the {CONFIDENCE:.0%} confidence interval.</p>",
            "<h2>Form</h2>",
            _figure(self.form_figure(), "form", "Each point a match; the line the rolling mean."),
            "<h2>Month by month</h2>",
            _table(months.set_index("month"), "months")
            if len(months)
            else "<p>No match of the season is dated.</p>",
            *self._results_html(),
            *self._money_html(money),
            "<h2>Opponents</h2>",
            _table(
                opponents.set_index("opponent")
                .rename_axis(_SOFT["opponent"])
                .rename(columns=_SOFT),
                "opponents",
            ),
            "<h2>Error against luck</h2>",
            _figure(self.pr_luck_figure(), "luck", "Each player of each match is a point."),
            "<h2>Where the errors are</h2>",
            _figure(
                self.phase_figure(),
                "phase",
                "Contact: checkers must still pass each other; race: no contact; bear-off:"
                " every checker of the player on roll is home.",
            ),
            _table(self._phase_table(), "phases"),
            "<h2>Costliest plays</h2>",
            self._costliest_html(),
            f"<h2>{escape(str(who))}'s matches</h2>",
            _table(shown.set_index("date"), "matches"),
        ]
        if not self.skipped.empty:
            skipped = pd.DataFrame(
                {
                    "file": self.skipped["file"].map(lambda f: Path(str(f)).name),
                    "why": self.skipped["kind"].astype(str)
                    + ": "
                    + self.skipped["message"].astype(str),
                }
            )
            parts += ["<h2>Not analysed</h2>", _table(skipped.set_index("file"), "skipped")]
        parts.append("</body></html>")
        return plain_page("\n".join(parts) + "\n")

    def _results_html(self) -> list[str]:
        """The results with the luck taken out, month by month, and the rating."""
        from bgkit.reports.match_report import _figure, _table

        results = self.results()
        if not (results["name"] == self.subject).any():
            return []
        months = self.results("month")
        table = months.set_index("month")
        shown = table[["matches"]].assign(
            result=[_interval(*r) for r in zip(table["result"], table["result_low"],
                                               table["result_high"], strict=True)],
            luck_adjusted=[_interval(*r) for r in zip(
                table["luck_adjusted"], table["luck_adjusted_low"],
                table["luck_adjusted_high"], strict=True)],
            narrower=[f"{x:.0%}" if x == x else "" for x in table["narrower"]],
        ).rename(columns={"result": "result (MWC)", "luck_adjusted": "luck-adjusted",
                          "narrower": "interval narrower by"})  # fmt: skip
        track = self.rating()
        spread = track[["change", "luck_adjusted_change"]].std()
        parts = [
            "<h2>Results with the luck taken out</h2>",
            '<p class="meta">Each match counts once, as the match winning chance (MWC) it'
            " gained: +50% a match won, -50% one lost. The luck-adjusted result takes out"
            " the player's luck and puts back the opponent's, as GNU Backgammon measures"
            " them (its <i>luck adjusted result</i>): the dice's part, whose expectation"
            f" is 0, is what makes results vary. In brackets the {CONFIDENCE:.0%} confidence"
            " interval of the mean (Student's t over the matches), cut to what a mean"
            " result can be (-50% to +50% for matches from 0-0); the narrower the"
            " luck-adjusted one, the more of the raw result was the dice.</p>",
            _figure(
                self.results_figure(),
                "results",
                "Each line a confidence interval, the dot its mean; grey: from the"
                " matches won and lost, blue: luck-adjusted.",
            ),
            _table(shown, "results") if len(months) else "",
        ]
        if len(track):
            parts += [
                "<h2>Rating</h2>",
                _figure(self.rating_figure(), "rating",
                        "The rating after each finished match, both tracks from"
                        f" {START_RATING:g} against opponents rated {START_RATING:g}."),
                '<p class="meta">FIBS\'s rating formula (its <i>help formula</i>, in the'
                " Backgammon FAQ): after an N-point match against an opponent D points"
                " lower, the rating changes by 4 &#215; &#8730;N &#215; (W &#8722; P), P ="
                " 1 / (1 + 10<sup>&#8722;D&#8730;N/2000</sup>) the chance the formula gives"
                " the player, W 1 for a win and 0 for a loss (K = 1: 400 experience or"
                " more). The luck-adjusted (variance-reduced) rating puts in W the match won"
                " or lost with the player's luck taken out and the opponent's put back (in"
                " MWC): the same expectation, since luck averages 0 (Douglas Zare, <i>Hedging"
                " Toward Skill</i>), with far less variance. The records carry no ratings:"
                f" the opponents count as {START_RATING:g}. The change per match varies by"
                f" {spread['change']:.1f} rating points (standard deviation) from wins and"
                f" losses, {spread['luck_adjusted_change']:.1f} luck-adjusted.</p>",
            ]  # fmt: skip
        return parts

    def _money_html(self, money: pd.DataFrame) -> list[str]:
        """The subject's money sessions, in money figures (points, not MWC)."""
        from bgkit.reports.match_report import _table

        if money.empty:
            return []
        row = money.iloc[0]
        table = {
            "sessions": f"{row['sessions']}",
            "games": f"{row['games']}",
            "points won (+) or lost (-)": f"{row['points']:+g}",
            "points per game": _interval(row["ppg"], row["ppg_low"], row["ppg_high"],
                                         percent=False),
            "luck-adjusted points per game": _interval(
                row["luck_adjusted_ppg"], row["luck_adjusted_ppg_low"],
                row["luck_adjusted_ppg_high"], percent=False),
            "error rate (mEMG/decision)": f"{row['error_rate_memg']:.1f}",
            "PR": f"{row['pr']:.1f}",
            "Jacoby rule": str(row["jacoby"]),
        }  # fmt: skip
        import pandas as pd

        frame = pd.DataFrame.from_dict(table, orient="index", columns=[str(self.subject)])
        return [
            "<h2>Money sessions</h2>",
            _table(frame, "money"),
            '<p class="meta">Money play in its own unit: points per game over all the'
            " sessions' games (luck-adjusted: with both players' luck taken out, in points),"
            f" the {CONFIDENCE:.0%} interval from the spread between sessions; errors in"
            " thousandths of EMG per decision; the Jacoby rule as the records say it (GNU"
            " Backgammon's default, on, when they do not). No match winning chances and no"
            " rating from money sessions.</p>",
        ]

    def _phase_table(self, most: int = 15) -> pd.DataFrame:
        """Error rate and moves per phase, one row per player (those with most matches)."""
        import pandas as pd

        phases = self.phases()
        rows = {}
        for name in list(self.players["name"].head(most)):
            part = phases[phases["name"] == name].set_index("phase")
            rows[name] = {
                f"{phase} (mEMG/move)": (
                    f"{part.at[phase, 'error_rate_memg']:.2f} ({part.at[phase, 'moves']} moves)"
                    if part.at[phase, "moves"]
                    else ""
                )
                for phase in part.index
            }
        return pd.DataFrame.from_dict(rows, orient="index")

    def _costliest_html(self) -> str:
        from bgkit.play import Play
        from bgkit.position import Position
        from bgkit.reports.viewer import board_entry, boards_html

        frame = self.costliest()
        if frame.empty:
            return "<p>No errors.</p>"
        blocks = []
        entries = []
        for rank, row in enumerate(frame.itertuples(index=False), start=1):
            pos = Position.from_gnubg_id(str(row.position_id))
            dice = str(row.dice)
            pos = pos.with_dice(int(dice[0]), int(dice[1]))
            names = (row.name, row.opponent) if pos.turn == 0 else (row.opponent, row.name)
            best = Play.parse(str(row.best)) if row.best else None
            entries.append(
                board_entry(pos, Play.parse(str(row.played or "")), best,
                            (str(names[0]), str(names[1])))
            )  # fmt: skip
            when = f", {escape(str(row.date))}" if isinstance(row.date, str) else ""
            blocks.append(
                f"<div><p><b>{rank}. {name_html(str(row.name))}</b> against"
                f" {name_html(str(row.opponent))}{when}<br>{name_html(Path(str(row.file)).name)},"
                f" game {row.game}, move {row.move}<br>{escape(dice)}:"
                f" {escape(str(row.played))}<br>best: {escape(str(row.best))}<br>error"
                f" {1000 * float(row.error_emg):.1f} mEMG<br>"
                f'<span class="meta">{escape(str(row.position_id))}</span></p>'
                f'<div class="bgv-mini" data-bgv-board="{rank - 1}"></div></div>'
            )
        return (
            '<p class="meta">Boards: solid arrows show the play made, dashed ones the best.</p>'
            f'<div class="worst">{"".join(blocks)}{boards_html(entries)}</div>'
        )

    def write_html(
        self,
        path: str | os.PathLike[str],
        *,
        title: str = "A season of matches",
        force: bool = False,
    ) -> None:
        """Write :meth:`html` to ``path`` atomically (never over a file unless ``force``)."""
        from bgkit.fileio import write_atomic

        write_atomic(path, self.html(title).encode("utf-8"), force=force)

    def __repr__(self) -> str:
        return (
            f"<Season {counted(self.matches['file'].nunique(), 'match', 'matches')},"
            f" {counted(len(self.players), 'player')},"
            f" {len(self.skipped)} not analysed, {self.plies}-ply>"
        )
