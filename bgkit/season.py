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
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bgkit.analysis.metrics import performance_rating
from bgkit.reports.figures import text_as_written
from bgkit.reports.record_html import name_html, plain_page

if TYPE_CHECKING:
    import pandas as pd
    from distributed import Client  # type: ignore[import-not-found, unused-ignore]
    from matplotlib.figure import Figure

__all__ = ["PHASES", "Season", "analyze_season"]

PHASES = ("contact", "race", "bearoff")
"""Game phases (:meth:`bgkit.position.Position.phase`, without its hyphen)."""

#: Matches per point of the rolling mean of :meth:`Season.form_figure`.
WINDOW = 5
#: The figures show the players with most matches, this many.
TOP = 3


def _as_money(rows: pd.DataFrame) -> None:
    """Single-game sessions (BackgammonGalaxy's ``16 point match`` of one game that
    cannot decide it, :data:`bgkit.verify.CONVENTIONS` ``jacoby-session``) are money
    play: ``length`` 0, the points won or lost as the score (``+1``), ``won`` by them."""
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
        if max(mine, theirs) >= int(length):
            continue
        rows.at[index, "length"] = 0
        rows.at[index, "score"] = f"{mine - theirs:+d}"
        rows.at[index, "won"] = None if mine == theirs else mine > theirs


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
        """One row per player and analysed match, in date order (then file order)."""
        rows = self.rows[self.rows["kind"].isna()].copy()
        rows["order"] = range(len(rows))
        rows = rows.sort_values(["date", "order"], na_position="last", kind="stable")
        if len(rows):
            rows["name"] = self._names(rows["name"])
            rows["opponent"] = self._names(rows["opponent"])
            _as_money(rows)
            rows["score"] = [_capped(score, length) for score, length in
                             zip(rows["score"], rows["length"], strict=True)]  # fmt: skip
        keep = [
            "file", "date", "event", "length", "games", "player", "name", "opponent",
            "score", "won", "pr", "error_rate_memg", "luck_rate_memg", "luck_emg",
            "actual_result", "luck_adjusted_result", "unforced_moves",
            "close_cube_decisions", "error_emg", "checker_error_emg", "cube_error_emg",
            *(f"{w}_{p}" for p in PHASES for w in ("moves", "error_emg")), "plies", "met",
        ]  # fmt: skip
        return rows[keep].reset_index(drop=True)

    @property
    def skipped(self) -> pd.DataFrame:
        """The files not analysed: ``file, kind, message`` (unreadable, or breaking a rule)."""
        rows = self.rows[self.rows["kind"].notna()]
        return rows[["file", "kind", "message"]].drop_duplicates("file").reset_index(drop=True)

    @property
    def players(self) -> pd.DataFrame:
        """One row per player name, most matches first: ``name, matches, won, lost,
        unfinished, first, last`` (dates), ``pr`` over all the season's decisions,
        ``error_rate_memg``, ``luck_rate_memg`` (per match, averaged), ``luck_adjusted``
        (the mean luck-adjusted result)."""
        import pandas as pd

        out = []
        for name, part in self.matches.groupby("name", sort=False):
            out.append(
                {
                    "name": name,
                    **_record(part),
                    "first": part["date"].min(),
                    "last": part["date"].max(),
                    "pr": _pr(part),
                    "error_rate_memg": float(part["error_rate_memg"].mean()),
                    "luck_rate_memg": float(part["luck_rate_memg"].mean()),
                    "luck_adjusted": float(part["luck_adjusted_result"].mean()),
                }
            )
        frame = pd.DataFrame(out)
        if frame.empty:
            return frame
        return frame.sort_values(["matches", "name"], ascending=[False, True]).reset_index(
            drop=True
        )

    def opponents(self) -> pd.DataFrame:
        """The :attr:`subject`'s opponents, most matches first: ``opponent, matches, won,
        lost, unfinished, last`` (date), ``pr`` (the subject's, against them),
        ``opponent_pr``."""
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
                    **_record(part),
                    "last": part["date"].max(),
                    "pr": _pr(part),
                    "opponent_pr": _pr(other) if len(other) else math.nan,
                }
            )
        columns = ["opponent", "matches", "won", "lost", "unfinished", "last", "pr",
                   "opponent_pr"]  # fmt: skip
        frame = pd.DataFrame(out, columns=columns)
        return frame.sort_values(["matches", "opponent"], ascending=[False, True],
                                 kind="stable").reset_index(drop=True)  # fmt: skip

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
                    **_record(part),
                    "pr": _pr(part),
                    "luck_rate_memg": float(part["luck_rate_memg"].mean()),
                }
            )
        columns = ["month", "matches", "won", "lost", "unfinished", "pr", "luck_rate_memg"]
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
                    label=f"{name}: rolling mean of {window} ({len(part)} matches)")  # fmt: skip
        dated = bool(len(matches)) and matches["date"].notna().all()
        dated = dated and matches["date"].nunique() > 1
        who = f"{names[0]}'s form" if len(names) == 1 else "Form"
        ax.set_title(f"{who}: PR match by match" + (" (by date)" if dated else ""))
        ax.set_xlabel("date of the match" if dated else "match (in date order, then file order)")
        if dated:
            fig.autofmt_xdate()
        ax.set_ylabel("PR (lower is better)")
        if names:
            ax.legend(loc="upper right")
        return fig

    @text_as_written
    def pr_luck_figure(self) -> Figure:
        """Error rate against luck rate, one point per player and match, wins and losses
        apart: how much of a season's results the dice explain. The axes hold the middle
        of the season (a few wild matches, beginners' or broken records, would squash the
        rest into a corner); the title says how many points lie outside."""
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
            if outside:
                ax.set_title(f"{ax.get_title()}\n({outside} outside the axes)")
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
            ax.bar_label(bars, labels=[f"{m} moves" for m in part["moves"]], fontsize=8)
        ax.set_xticks(range(len(labels)), labels)
        ax.margins(y=0.18)  # room for the move counts over the bars
        ax.set_title("Where the errors are: checker-play error rate by game phase")
        ax.set_ylabel("error rate (mEMG per unforced move)")
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
        summary = pd.DataFrame(
            {
                "matches": me["matches"],
                "won": me["won"],
                "lost": me["lost"],
                "unfinished": me["unfinished"],
                "first": me["first"],
                "last": me["last"],
                "PR": me["pr"].round(1),
                "error rate (mEMG/decision)": me["error_rate_memg"].round(1),
                "luck (mEMG/roll, + lucky)": me["luck_rate_memg"].round(1),
                "luck-adjusted result": me["luck_adjusted"].round(3),
            }
        )
        months = (
            self.by_month()
            .rename(columns={"pr": "PR", "luck_rate_memg": "luck (mEMG/roll)"})
            .round(1)
        )
        opponents = (
            self.opponents()
            .rename(columns={"pr": f"{who}'s PR", "opponent_pr": "their PR", "last": "last match"})
            .round(1)
        )
        shown = pd.DataFrame(
            {
                "date": mine["date"],
                "opponent": mine["opponent"],
                "match": mine["length"].map(lambda n: f"{n}-point" if n else "money"),
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
            f"<style>{_STYLE}</style></head><body>",
            f"<h1>{escape(title)}</h1>",
            f'<p class="meta">{matches["file"].nunique()} matches analysed by GNU'
            f" Backgammon ({level}), {len(mine)} of them played by {escape(str(who))};"
            f" {len(self.skipped)} file(s) not analysed (listed at the end)."
            f" Report by bgkit {__version__}.</p>",
            f"<h2>{escape(str(who))}</h2>",
            _table(summary.T.set_axis([str(who)], axis=1), "players"),
            '<p class="meta">PR: 500 x the equity (EMG) lost per unforced decision over the'
            " whole season, lower is better (about 5 is world class, 10 a strong club"
            " player); error and luck rates in thousandths of EMG per decision and per roll"
            " (+ = lucky); luck-adjusted: the result with both players' luck taken out, in"
            " match-winning chance (points in money play).</p>",
            "<h2>Form</h2>",
            _figure(self.form_figure(), "form", "Each point a match; the line the rolling mean."),
            "<h2>Month by month</h2>",
            _table(months.set_index("month"), "months")
            if len(months)
            else "<p>No match of the season is dated.</p>",
            "<h2>Opponents</h2>",
            _table(opponents.set_index("opponent"), "opponents"),
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
            f"<Season {self.matches['file'].nunique()} matches, {len(self.players)} players,"
            f" {len(self.skipped)} not analysed, {self.plies}-ply>"
        )
