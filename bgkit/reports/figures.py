"""Tables and figures of a match and its analysis, for notebooks and HTML reports.

Every function takes bgkit objects (a :class:`~bgkit.records.Match`, an
:class:`~bgkit.analysis.match.Analysis`) and returns a pandas ``DataFrame`` or a matplotlib
:class:`~matplotlib.figure.Figure`. Figures are built with the object-oriented API
(``Figure()``, no ``pyplot``), so they work with any backend and in threads, and
nothing is ever shown: a notebook displays the returned figure, a script saves it with
``fig.savefig(path)`` (in Jupyter, run ``%matplotlib inline`` once so that a returned
figure is drawn). pandas and matplotlib (``pip install 'bgkit[reports]'``) are
imported inside the functions, so importing this module costs nothing.

Needs only the record:

* :func:`pip_counts` and :func:`pip_count_figure`: the race, roll by roll.

Needs an analysis (:func:`bgkit.analysis.match.analyze`):

* :func:`equity_figure`: player 0's match-winning chance (match play) or equity (money)
  across a game or the whole match, with errors and big luck marked;
* :func:`luck_table` and :func:`luck_figure`: luck per roll and cumulative luck;
* :func:`error_histogram`: the distribution of checker-play errors;
* :func:`worst_plays`: the N worst decisions, with the board of each;
* :func:`summary_table`: the per-player figures laid out as GNU Backgammon's
  ``show statistics match``;
* :func:`compare` and :func:`error_luck_figure`: many analysed matches side by side.

Units: EMG is normalised (money-equivalent) equity, mEMG thousandths of it; MWC is
match-winning chance. Errors are positive magnitudes in the DataFrames and negative in
:func:`summary_table`, as gnubg prints them.

>>> from bgkit.formats.mat import read_mat
>>> race = pip_counts(read_mat("data/fixtures/handwritten_3pt.mat"))
>>> race[["game", "turn", "player", "pips_0", "pips_1"]].head(3)
   game  turn  player  pips_0  pips_1
0     1     1       0     167     167
1     1     2       1     163     167
2     1     3       0     163     161
>>> fig = pip_count_figure(read_mat("data/fixtures/handwritten_3pt.mat"))
>>> fig.axes[0].get_ylabel()
'pip count (pips)'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from bgkit.analysis.metrics import SKILL_SIGNS, luck_words, skill_label
from bgkit.extras import require
from bgkit.position import Position
from bgkit.records import Match

require("reports", what="bgkit.reports")  # one clear error on the core install

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from bgkit.analysis.match import Analysis
    from bgkit.analysis.met import MatchEquityTable
    from bgkit.replay import ReplayStep

__all__ = [
    "compare",
    "equity_figure",
    "error_histogram",
    "error_luck_figure",
    "luck_figure",
    "luck_table",
    "pip_count_figure",
    "pip_counts",
    "summary_table",
    "worst_plays",
]

#: Line and marker colours of players 0 and 1 (colour-blind safe, print as two greys).
PLAYER_COLORS = ("#1f77b4", "#d95f02")
#: gnubg's error thresholds (EMG): doubtful, bad, very bad.
_SKILL_THRESHOLDS = ((0.03, "doubtful"), (0.06, "bad"), (0.12, "very bad"))


P = ParamSpec("P")
R = TypeVar("R")


def counted(n: int, word: str, words: str | None = None) -> str:
    """``n`` and the noun for it: ``counted(1, "match", "matches")`` is ``"1 match"``,
    ``counted(2, "session")`` ``"2 sessions"``."""
    return f"{n} {word if n == 1 else words or word + 's'}"


def text_as_written(function: Callable[P, R]) -> Callable[P, R]:
    """Draw ``function``'s figure with its text as written: matplotlib reads ``$...$`` as
    mathematics (a player named ``$$$`` stopped the report with a parse error), so the
    figures bgkit draws turn that off (``text.parse_math``) for the text they make."""

    @functools.wraps(function)
    def drawn(*args: P.args, **kwargs: P.kwargs) -> R:
        import matplotlib

        with matplotlib.rc_context({"text.parse_math": False}):
            return function(*args, **kwargs)

    return drawn


# ---------------------------------------------------------------------- the race


def _known_steps(match: Match) -> Iterator[ReplayStep]:
    """The steps of every game up to a roll whose play is not recorded (``???``)."""
    from bgkit.errors import IllegalPlayError
    from bgkit.records import Move
    from bgkit.replay import replay_game

    for index, game in enumerate(match.games):
        done = 0
        try:
            for step in replay_game(match, index):
                done += 1
                yield step
        except IllegalPlayError:
            stop = game.actions[done] if done < len(game.actions) else None
            if not (isinstance(stop, Move) and stop.play is None):
                raise


def pip_counts(match: Match) -> pd.DataFrame:
    """The pip counts before every roll of every game, and at the end of each game.

    One row per roll (``action`` ``"roll"``; ``player`` is the roller, ``dice`` the roll)
    and one per game end (``action`` ``"end"``: after the last action, ``player`` and
    ``dice`` empty). ``turn`` counts the rolls of the game; ``roll`` counts the rows of
    the whole match (for plotting a match on one axis). ``lead_0`` is player 0's lead in
    the race: ``pips_1 - pips_0``.

    Needs only the record (it is replayed with :func:`bgkit.replay.replay`); a game stops
    at a roll whose play the record does not give (``???``).

    :raises IllegalPlayError: at a play the rules forbid (see :func:`bgkit.replay.replay`).
    :raises AmbiguousPlayError: at compact notation that fits several legal plays.
    :raises IllegalActionError: at a cube action or a turn the rules forbid.
    """
    import pandas as pd

    from bgkit.records import Move

    rows: list[dict[str, Any]] = []
    last: dict[int, tuple[int, Position]] = {}
    for step in _known_steps(match):
        number = step.game.number
        last[number] = (step.turn, step.after)
        if not isinstance(step.action, Move):
            continue
        p0, p1 = step.before.pip_counts()
        dice = step.action.dice
        rows.append(
            {
                "game": number,
                "turn": step.turn,
                "move": step.move_number,
                "action": "roll",
                "player": step.player,
                "name": match.players[step.player],
                "dice": f"{dice[0]}{dice[1]}",
                "pips_0": p0,
                "pips_1": p1,
            }
        )
    out: list[dict[str, Any]] = []
    for game in match.games:
        out.extend(r for r in rows if r["game"] == game.number)
        if game.number in last:
            turn, final = last[game.number]
            p0, p1 = final.pip_counts()
            end = dict.fromkeys(("move", "player", "name", "dice"))
            out.append(
                {**end, "game": game.number, "turn": turn + 1, "action": "end",
                 "pips_0": p0, "pips_1": p1}
            )  # fmt: skip
    frame = pd.DataFrame(
        out,
        columns=["game", "turn", "move", "action", "player", "name", "dice", "pips_0", "pips_1"],
    )
    frame["player"] = frame["player"].astype("Int64")
    frame["move"] = frame["move"].astype("Int64")
    frame["lead_0"] = frame["pips_1"] - frame["pips_0"]
    frame.insert(0, "roll", range(1, len(frame) + 1))
    return frame


@text_as_written
def pip_count_figure(match: Match, game: int | None = None) -> Figure:
    """Both players' pip counts roll by roll: one game, or the whole match.

    :param game: a game number of the record (``Game.number``); ``None``: every game,
        one after the other, with the game boundaries marked.
    :raises ValueError: when the record has no game ``game``.
    """
    frame = pip_counts(match)
    title = "Race: pip counts before each roll"
    if game is not None:
        frame = _one_game(frame, game)
        title += f", game {game}"
    x = "turn" if game is not None else "roll"
    fig, ax = _figure()
    for player in (0, 1):
        _by_game(
            ax,
            frame,
            x,
            f"pips_{player}",
            color=PLAYER_COLORS[player],
            marker=".",
            linewidth=1.5,
            label=f"{match.players[player]} (player {player})",
        )
    if game is None:
        _game_boundaries(ax, frame, "roll")
    ax.set_title(f"{title} ({_match_name(match)})")
    _move_ticks(ax, frame, x)
    ax.set_xlabel(_x_label(game))
    ax.set_ylabel("pip count (pips)")
    ax.set_ylim(bottom=0)
    ax.legend(loc="upper right")
    return fig


# ---------------------------------------------------------------------- equity


@text_as_written
def equity_figure(analysis: Analysis, game: int | None = None) -> Figure:
    """Player 0's chances roll by roll, with errors and big luck marked.

    In match play the curve is player 0's match-winning chance in percent (the cubeful
    equity before each roll, from the analysis's luck evaluation, converted with GNU
    Backgammon's match equity table); in money play it is player 0's cubeful equity in
    points (EMG times the cube). Marked on the curve: every decision marked bad or very
    bad or doubtful (checker play or cube), sized and coloured by its mark
    (:data:`MARK_STYLES`) with its player's marker (:data:`PLAYER_MARKERS`, edged in the
    player's colour), and every roll marked lucky or unlucky (luck above 0.3 EMG either
    way), coloured by player. Over the whole match the games are marked with the score
    before each.

    :param game: a game number of the record; ``None``: the whole match.
    :raises ValueError: when the analysis has no game ``game``.
    """
    frame = _equity_frame(analysis)
    is_match = analysis.match.length > 0
    if game is not None:
        frame = _one_game(frame, game)
    x = "turn" if game is not None else "roll"
    fig, ax = _figure()
    _by_game(ax, frame, x, "value", color="#444444", linewidth=1.5, label=frame.attrs["label"])
    ax.axhline(50 if frame.attrs["unit"] == "mwc" else 0, color="#999999", linewidth=0.8)
    names = analysis.match.players
    for player in (0, 1):
        mine = frame[frame["player"] == player]
        marks = mine["error"].map(skill_label)
        for mark, (color, size, sign) in MARK_STYLES.items():
            errors = mine[marks == mark]
            ax.scatter(
                errors[x],
                errors["value"],
                marker=PLAYER_MARKERS[player],
                s=size,
                color=color,
                edgecolors=PLAYER_COLORS[player],
                linewidths=1.5,
                zorder=3,
                label=f"error by {names[player]}: {mark} ({sign})",
            )
        lucky = mine[mine["luck_emg"].abs() > 0.3]
        ax.scatter(
            lucky[x],
            lucky["value"],
            marker="*",
            s=110,
            color=PLAYER_COLORS[player],
            edgecolors="black",
            linewidths=0.5,
            zorder=3,
            label=f"big luck for {names[player]} (|luck| > 0.3 EMG)",
        )
    if game is None:
        scores = {row["game"]: row["score"] for row in analysis.rows}
        _game_boundaries(ax, frame, "roll", scores)
    what = "match-winning chance" if is_match else "equity"
    where = f"game {game}" if game is not None else ("the match" if is_match else "the session")
    ax.set_title(
        f"{names[0]}'s {what} across {where} ({_match_name(analysis.match)}; "
        f"{analysis.level} analysis)"
    )
    _move_ticks(ax, frame, x)
    ax.set_xlabel(_x_label(game, scores=True))
    ax.set_ylabel(frame.attrs["axis"])
    if frame.attrs["unit"] == "mwc":
        ax.set_ylim(0, 100)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncols=3, fontsize="small")
    return fig


#: How the equity figure draws a marked decision: colour, size and gnubg's sign by mark.
MARK_STYLES = {
    "doubtful": ("#f2c744", 35, SKILL_SIGNS["doubtful"]),
    "bad": ("#f28e2b", 75, SKILL_SIGNS["bad"]),
    "very bad": ("#d62728", 140, SKILL_SIGNS["very bad"]),
}
#: Marker shapes of players 0 and 1 (their colour is the marker's edge).
PLAYER_MARKERS = ("o", "D")


def _equity_frame(analysis: Analysis) -> pd.DataFrame:
    """One row per roll: player 0's chances before it, the roller's error and luck."""
    import pandas as pd

    moves = analysis.moves
    is_match = analysis.match.length > 0
    met = _met(analysis) if is_match else None
    rolls = moves[moves["action"] == "move"].copy()
    # a cube error belongs to the roll it precedes (no double) or follows (double...)
    cube_error = moves["cube_error_emg"].astype(float).fillna(0.0)
    turn_key = moves["game"].astype(str) + ":" + moves["turn"].astype(str) + ":"
    turn_key += moves["player"].astype(str)
    cube_by_turn = cube_error.groupby(turn_key).max()
    key = rolls["game"].astype(str) + ":" + rolls["turn"].astype(str) + ":"
    key += rolls["player"].astype(str)
    checker = rolls["error_emg"].astype(float).fillna(0.0)
    cube = key.map(cube_by_turn).fillna(0.0).to_numpy()
    rows: list[dict[str, Any]] = []
    for (_, row), error, cube_err in zip(rolls.iterrows(), checker, cube, strict=True):
        equity = row["equity_before"]
        if equity is None or (isinstance(equity, float) and math.isnan(equity)):
            continue
        pos = Position.from_gnubg_id(str(row["position_id"]))
        mine = float(equity)
        if met is not None:
            chance = met.emg_to_mwc(mine, pos)
            value = 100 * (chance if row["player"] == 0 else 1 - chance)
        else:  # money: points; a match without a MET at hand: EMG
            points = mine if is_match else mine * pos.cube
            value = points if row["player"] == 0 else -points
        luck = row["luck_emg"]
        rows.append(
            {
                "game": row["game"],
                "turn": row["turn"],
                "move": row["move"],
                "player": row["player"],
                "value": value,
                "error": max(float(error), float(cube_err)),
                "luck_emg": 0.0 if luck is None else float(luck),
            }
        )
    columns = ["game", "turn", "move", "player", "value", "error", "luck_emg"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["luck_emg"] = frame["luck_emg"].fillna(0.0)
    frame.insert(0, "roll", range(1, len(frame) + 1))
    name = analysis.match.players[0]
    if met is not None:
        frame.attrs.update(
            unit="mwc",
            label=f"{name}'s match-winning chance",
            axis=f"{name}'s match-winning chance (%)",
        )
    else:
        unit = "emg" if is_match else "points"
        frame.attrs.update(
            unit=unit,
            label=f"{name}'s cubeful equity",
            axis=f"{name}'s cubeful equity ({'EMG' if is_match else 'points'})",
        )
    return frame


def _met(analysis: Analysis) -> MatchEquityTable | None:
    """The match equity table of the analysis, when it covers the match."""
    from bgkit.analysis.met import shipped_met

    table = shipped_met(analysis.met)
    return table if analysis.match.length <= table.max_length else None


# ---------------------------------------------------------------------- luck


def luck_table(analysis: Analysis) -> pd.DataFrame:
    """The luck of every roll, and each player's running total.

    Columns ``game, move, turn, player, name, dice, luck_emg, luck_mwc, luck`` (gnubg's
    label: ``very lucky`` ... ``very unlucky``), then ``total_emg`` and ``total_mwc``: the
    roller's luck so far in the match (MWC in match play, points in money play).
    """
    moves = analysis.moves
    rolls = moves[(moves["action"] == "move") & moves["luck_emg"].notna()]
    frame = rolls[
        ["game", "move", "turn", "player", "name", "dice", "luck_emg", "luck_mwc", "luck"]
    ].reset_index(drop=True)
    frame["luck_emg"] = frame["luck_emg"].astype(float)
    frame["luck_mwc"] = frame["luck_mwc"].astype(float)
    frame["total_emg"] = frame.groupby("player")["luck_emg"].cumsum()
    frame["total_mwc"] = frame.groupby("player")["luck_mwc"].cumsum()
    frame.insert(0, "roll", range(1, len(frame) + 1))
    return frame


@text_as_written
def luck_figure(analysis: Analysis) -> Figure:
    """Luck per roll (bars) and each player's cumulative luck (lines), across the match.

    Both in EMG, from the roller's point of view (gnubg's luck: the roll's equity minus
    the average over all 36 rolls, at 0-ply). The dotted lines mark gnubg's ``lucky``
    and ``unlucky`` thresholds (+-0.3 EMG).
    """
    from matplotlib.figure import Figure

    frame = luck_table(analysis)
    names = analysis.match.players
    fig = Figure(figsize=(10, 6.5), layout="constrained")
    top, bottom = fig.subplots(2, 1, sharex=True)
    for player in (0, 1):
        mine = frame[frame["player"] == player]
        label = f"{names[player]} (player {player})"
        top.bar(mine["roll"], mine["luck_emg"], width=0.9, color=PLAYER_COLORS[player], label=label)
        bottom.step(
            mine["roll"],
            mine["total_emg"],
            where="post",
            color=PLAYER_COLORS[player],
            linewidth=2,
            label=f"{label}: total {mine['total_emg'].iloc[-1]:+.3f} EMG" if len(mine) else label,
        )
    for y in (0.3, -0.3):
        top.axhline(y, color="#777777", linestyle=":", linewidth=1)
    top.axhline(0, color="#999999", linewidth=0.8)
    bottom.axhline(0, color="#999999", linewidth=0.8)
    top.plot([], [], color="#777777", linestyle=":", label="lucky / unlucky (+-0.3 EMG)")
    for ax in (top, bottom):
        _game_boundaries(ax, frame, "roll")
    top.set_title(f"Luck per roll ({_match_name(analysis.match)}; luck at 0-ply)")
    top.set_ylabel("luck of the roll (EMG)")
    top.legend(loc="upper right", fontsize="small")
    bottom.set_title("Cumulative luck per player")
    _move_ticks(bottom, frame, "roll")
    bottom.set_xlabel(_x_label(None))
    bottom.set_ylabel("total luck (EMG)")
    bottom.legend(loc="best", fontsize="small")
    return fig


# ---------------------------------------------------------------------- errors


@text_as_written
def error_histogram(analysis: Analysis) -> Figure:
    """How large each player's checker-play errors are: a histogram over unforced moves.

    Errors in mEMG (thousandths of EMG) in bins of 10; moves played as the evaluator's
    best play fall in the first bin. The dashed lines are gnubg's marks: doubtful (30),
    bad (60), very bad (120). The y axis is logarithmic, so the rare large errors show.
    """
    moves = analysis.moves
    unforced = moves[(moves["action"] == "move") & (moves["legal_plays"].astype(float) > 1)]
    errors = [
        1000 * unforced.loc[unforced["player"] == p, "error_emg"].astype(float).to_numpy()
        for p in (0, 1)
    ]
    top = max([30.0, *(float(e.max()) for e in errors if len(e))])
    bins = [10.0 * i for i in range(math.ceil(top / 10) + 2)]
    fig, ax = _figure()
    names = analysis.match.players
    labels = [f"{names[p]} ({len(errors[p])} unforced moves)" for p in (0, 1)]
    ax.hist(errors, bins=bins, color=list(PLAYER_COLORS), label=labels)
    for (threshold, name), style in zip(_SKILL_THRESHOLDS, ("--", "-.", ":"), strict=True):
        ax.axvline(
            1000 * threshold,
            color="#444444",
            linestyle=style,
            label=f"{name} ({1000 * threshold:g})",
        )
    from matplotlib.ticker import StrMethodFormatter

    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
    ax.set_title(f"Checker-play errors per move ({_match_name(analysis.match)}; {analysis.level})")
    ax.set_xlabel("error of the play (mEMG, thousandths of normalised equity)")
    ax.set_ylabel("moves (log scale)")
    ax.legend(loc="upper right", fontsize="small")
    return fig


def worst_plays(
    analysis: Analysis, n: int = 10, *, boards: bool = True, size: int = 300
) -> pd.DataFrame:
    """The ``n`` largest errors of the match, checker plays and cube decisions, worst first.

    Columns: ``game, move, player, name, kind`` (``checker`` or ``cube``), ``dice``,
    ``played`` (the play, or the cube action taken), ``best`` (the best play, or the right
    cube action for that player: ``take`` or ``pass`` for an answer to a double),
    ``error_emg``, ``error_mwc``, ``skill``, ``position_id`` (GNU Position ID:Match ID
    before the decision) and, with ``boards``, ``board``: an
    :class:`~bgkit.reports.svg.SvgWrapper` of that position, with arrows for the play made or
    with the cube on offer.
    Render the table with ``frame.to_html(escape=False)`` to see the boards.
    """
    from dataclasses import replace

    import pandas as pd

    from bgkit.play import Play
    from bgkit.reports.svg import position as board_svg

    moves = analysis.moves
    rows: list[dict[str, Any]] = []
    for _, row in moves.iterrows():
        common = {
            "game": row["game"],
            "move": row["move"],
            "player": row["player"],
            "name": row["name"],
            "position_id": row["position_id"],
        }
        error = _float(row["error_emg"])
        if row["action"] == "move" and error > 0:
            rows.append(
                {
                    **common,
                    "kind": "checker",
                    "dice": row["dice"],
                    "played": row["play"],
                    "best": row["best_play"],
                    "error_emg": error,
                    "error_mwc": _float(row["error_mwc"]),
                    "skill": row["skill"] or "",
                }
            )
        cube_error = _float(row["cube_error_emg"])
        if cube_error > 0:
            rows.append(
                {
                    **common,
                    "kind": "cube",
                    "dice": None,
                    "played": row["cube_action"],
                    "best": _cube_best(row),
                    "error_emg": cube_error,
                    "error_mwc": _float(row["cube_error_mwc"]),
                    "skill": row["cube_skill"] or "",
                }
            )
    columns = [
        "game", "move", "player", "name", "kind", "dice", "played", "best",
        "error_emg", "error_mwc", "skill", "position_id",
    ]  # fmt: skip
    frame = pd.DataFrame(rows, columns=columns)
    frame = frame.sort_values("error_emg", ascending=False, kind="stable").head(n)
    frame = frame.reset_index(drop=True)
    if boards:
        svgs = []
        for _, row in frame.iterrows():
            pos = Position.from_gnubg_id(str(row["position_id"]))
            play = None
            if row["kind"] == "checker" and row["dice"]:
                pos = pos.with_dice(int(row["dice"][0]), int(row["dice"][1]))
                play = Play.parse(str(row["played"] or ""))
            elif row["played"] in ("take", "drop"):  # show the cube on offer
                pos = replace(pos, doubled=True)
            svgs.append(board_svg(pos, size=size, last_play=play, names=analysis.match.players))
        frame["board"] = pd.Series(svgs, index=frame.index, dtype=object)  # keep the wrappers
    return frame


def _cube_best(row: pd.Series) -> str:
    """The right cube action for the player who made the decision of ``row``.

    The analysis gives the doubler's proper action; the answer to a double is ``take``
    when the doubler does better after a pass (``DT < DP``), else ``pass``.
    """
    if row["cube_action"] in ("take", "drop"):
        return "take" if _float(row["cube_dt"]) < _float(row["cube_dp"]) else "pass"
    return str(row["cube_proper"])


# ---------------------------------------------------------------------- summary


def summary_table(analysis: Analysis) -> pd.DataFrame:
    """The per-player statistics, laid out as GNU Backgammon's ``show statistics match``.

    Rows are indexed by ``(section, statistic)``, one column per player, values as gnubg
    prints them: errors negative, ``EMG (MWC)`` pairs with the MWC in percent in match
    play (points in money play), rates in mEMG per decision. The numbers come from
    :attr:`Analysis.players <bgkit.analysis.match.Analysis.players>`; this table only lays them
    out, so that they can be read beside gnubg's own report.
    """
    import pandas as pd

    is_match = analysis.match.length > 0
    players = analysis.players.to_dict("records")

    def pair(emg: float, other: float, *, sign: int = -1, digits: int = 3) -> str:
        if _nan(emg):
            return "n/a"
        emg, other = sign * emg + 0.0, sign * other + 0.0  # + 0.0: no "-0.000"
        if is_match:
            return f"{emg:+.{digits}f} ({100 * other:+.3f}%)"
        return f"{emg:+.{digits}f} ({other:+.3f})"

    def rate(total_emg: float, total_other: float, count: float, *, sign: int = -1) -> str:
        if not count:
            return "n/a"
        return pair(1000 * total_emg / count, total_other / count, sign=sign, digits=1)

    def result(value: float) -> str:
        if _nan(value):
            return "n/a"
        return f"{100 * value:+.2f}%" if is_match else f"{value:+.3f}"

    def number(value: float, fmt: str = "{:.1f}") -> str:
        return "n/a" if _nan(value) else fmt.format(value)

    spec: list[tuple[str, str, Any]] = [
        ("Checker play", "Total moves", lambda p: str(p["total_moves"])),
        ("Checker play", "Unforced moves", lambda p: str(p["unforced_moves"])),
        ("Checker play", "Moves marked doubtful", lambda p: str(p["doubtful"])),
        ("Checker play", "Moves marked bad", lambda p: str(p["bad"])),
        ("Checker play", "Moves marked very bad", lambda p: str(p["very_bad"])),
        (
            "Checker play",
            "Error total EMG (MWC)",
            lambda p: pair(p["checker_error_emg"], p["checker_error_mwc"]),
        ),
        (
            "Checker play",
            "Error rate mEMG (MWC)",
            lambda p: rate(p["checker_error_emg"], p["checker_error_mwc"], p["unforced_moves"]),
        ),
        ("Checker play", "Checker-play rating", lambda p: p["checker_rating"]),
        ("Luck", "Rolls marked very lucky", lambda p: str(p["very_lucky"])),
        ("Luck", "Rolls marked lucky", lambda p: str(p["lucky"])),
        ("Luck", "Rolls marked unlucky", lambda p: str(p["unlucky"])),
        ("Luck", "Rolls marked very unlucky", lambda p: str(p["very_unlucky"])),
        ("Luck", "Luck total EMG (MWC)", lambda p: pair(p["luck_emg"], p["luck_mwc"], sign=1)),
        (
            "Luck",
            "Luck rate mEMG (MWC)",
            lambda p: rate(p["luck_emg"], p["luck_mwc"], p["total_moves"], sign=1),
        ),
        ("Luck", "Luck rating", lambda p: luck_words(p["luck_rating"])),
        ("Cube", "Total cube decisions", lambda p: str(p["cube_decisions"])),
        ("Cube", "Close or actual cube decisions", lambda p: str(p["close_cube_decisions"])),
        ("Cube", "Doubles", lambda p: str(p["doubles"])),
        ("Cube", "Takes", lambda p: str(p["takes"])),
        ("Cube", "Passes", lambda p: str(p["passes"])),
        ("Cube", "Missed doubles below CP", lambda p: str(p["missed_doubles_below_cp"])),
        ("Cube", "Missed doubles above CP", lambda p: str(p["missed_doubles_above_cp"])),
        ("Cube", "Wrong doubles below DP", lambda p: str(p["wrong_doubles_below_dp"])),
        ("Cube", "Wrong doubles above TG", lambda p: str(p["wrong_doubles_above_tg"])),
        ("Cube", "Wrong takes", lambda p: str(p["wrong_takes"])),
        ("Cube", "Wrong passes", lambda p: str(p["wrong_passes"])),
        (
            "Cube",
            "Error total EMG (MWC)",
            lambda p: pair(p["cube_error_emg"], p["cube_error_mwc"]),
        ),
        (
            "Cube",
            "Error rate mEMG (MWC)",
            lambda p: rate(p["cube_error_emg"], p["cube_error_mwc"], p["close_cube_decisions"]),
        ),
        ("Cube", "Cube decision rating", lambda p: p["cube_rating"]),
        ("Overall", "Error total EMG (MWC)", lambda p: pair(p["error_emg"], p["error_mwc"])),
        (
            "Overall",
            "Error rate mEMG (MWC)",
            lambda p: rate(
                p["error_emg"], p["error_mwc"], p["unforced_moves"] + p["close_cube_decisions"]
            ),
        ),
        ("Overall", "Snowie error rate", lambda p: number(-p["snowie_error_rate"])),
        ("Overall", "Overall rating", lambda p: p["overall_rating"]),
        ("Overall", "PR", lambda p: number(p["pr"])),
        ("Overall", "Actual result", lambda p: result(p["actual_result"])),
        ("Overall", "Luck adjusted result", lambda p: result(p["luck_adjusted_result"])),
    ]
    if is_match:
        spec.append(
            (
                "Overall",
                "Luck based FIBS rating diff.",
                lambda p: number(p["fibs_rating_difference"], "{:+.2f}"),
            )
        )
    spec += [
        (
            "Overall",
            "Error based abs. FIBS rating",
            lambda p: number(p["error_based_fibs_rating"]),
        ),
        ("Overall", "Checker-play errors rating loss", lambda p: number(p["checker_rating_loss"])),
        ("Overall", "Cube errors rating loss", lambda p: number(p["cube_rating_loss"])),
    ]
    index = pd.MultiIndex.from_tuples([(s, label) for s, label, _ in spec], names=["", ""])
    data = {str(p["name"]): [str(how(p)) for _, _, how in spec] for p in players}
    if len(data) < len(players):  # both players have the same name
        data = {f"{p['name']} ({p['player']})": [str(how(p)) for *_, how in spec] for p in players}
    return pd.DataFrame(data, index=index)


# ---------------------------------------------------------------------- many matches


def compare(analyses: Iterable[Analysis]) -> pd.DataFrame:
    """One row per player of each analysed match: the main figures side by side.

    Columns ``file, match, length, games, player, name, total_moves, unforced_moves,
    error_rate_memg, pr, luck_emg, luck_rate_memg, luck_mwc, actual_result,
    luck_adjusted_result, won`` (``won``: the player's actual result is positive).
    """
    import pandas as pd

    keep = [
        "player", "name", "total_moves", "unforced_moves", "error_rate_memg", "pr",
        "luck_emg", "luck_rate_memg", "luck_mwc", "actual_result", "luck_adjusted_result",
    ]  # fmt: skip
    rows: list[dict[str, Any]] = []
    for analysis in analyses:
        m = analysis.match
        for record in analysis.players.to_dict("records"):
            rows.append(
                {
                    "file": m.source_name,
                    "match": _match_name(m),
                    "length": m.length,
                    "games": len(m.games),
                    **{k: record[k] for k in keep},
                }
            )
    frame = pd.DataFrame(rows, columns=["file", "match", "length", "games", *keep])
    frame["won"] = frame["actual_result"].astype(float) > 0
    return frame


@text_as_written
def error_luck_figure(frame: pd.DataFrame) -> Figure:
    """Error rate against luck rate, one point per player and match (from :func:`compare`).

    Winners and losers are drawn apart, so it shows how much of a result the dice explain.
    """
    fig, ax = _figure(figsize=(7.5, 5.5))
    for won, color, label in ((True, "#1b9e77", "won"), (False, "#7570b3", "lost or even")):
        part = frame[frame["won"] == won]
        ax.scatter(
            part["luck_rate_memg"].astype(float),
            part["error_rate_memg"].astype(float),
            color=color,
            edgecolors="black",
            linewidths=0.5,
            s=50,
            label=f"{label} ({len(part)})",
        )
    ax.axvline(0, color="#999999", linewidth=0.8)
    matches = frame["file"].nunique()
    shown = counted(matches, "match", "matches")
    ax.set_title(f"Error rate against luck ({shown}, each player a point)")
    ax.set_xlabel("luck rate (mEMG per roll, + = lucky)")
    ax.set_ylabel("error rate (mEMG per decision)")
    ax.legend(loc="best")
    return fig


# ---------------------------------------------------------------------- helpers


def _figure(figsize: tuple[float, float] = (10, 4.5)) -> tuple[Figure, Axes]:
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def _by_game(ax: Axes, frame: pd.DataFrame, x: str, y: str, **style: Any) -> None:
    """Plot ``y`` against ``x`` as one line per game (no line across a new game's start)."""
    for i, (_, part) in enumerate(frame.groupby("game", sort=False)):
        ax.plot(part[x], part[y], **(style if i == 0 else {**style, "label": "_nolegend_"}))


def _one_game(frame: pd.DataFrame, game: int) -> pd.DataFrame:
    part = frame[frame["game"] == game]
    if part.empty:
        games = sorted(set(frame["game"]))
        raise ValueError(f"no game {game} in this record (games: {games})")
    return part


def _game_boundaries(
    ax: Axes, frame: pd.DataFrame, x: str, scores: dict[int, str] | None = None
) -> None:
    """Dotted lines where each game after the first starts, and the game numbers on top
    (with the score before each game, when ``scores`` gives it)."""
    from matplotlib.transforms import blended_transform_factory

    trans = blended_transform_factory(ax.transData, ax.transAxes)
    starts = frame.groupby("game", sort=False)[x].min()
    several = len(starts) > 1
    span = float(frame[x].max() - frame[x].min()) if len(frame) else 0.0
    room = span / 14  # about the width of a label at the figure's usual size
    rows: list[float] = []  # where the last label of each row of labels starts
    for i, (number, start) in enumerate(starts.items()):
        if i:
            ax.axvline(start - 0.5, color="#bbbbbb", linestyle=":", linewidth=1)
        if not several or len(starts) > 30:
            continue
        # a short game puts its label below the last one, or leaves it out
        row = next((r for r, end in enumerate(rows) if start - end >= room), len(rows))
        if row > 2:
            continue
        if row == len(rows):
            rows.append(float(start))
        rows[row] = float(start)
        score = f"\n{scores[number]}" if scores and number in scores else ""
        ax.text(
            start,
            0.98 - 0.13 * row,
            f"G{number}{score}",
            transform=trans,
            va="top",
            fontsize=8,
            color="#666666",
        )


def _move_ticks(ax: Axes, frame: pd.DataFrame, x: str) -> None:
    """Label the x axis (rolls in order) with the record's move numbers: move 1 of each
    game and every 5th move (every 10th over a whole match), at the move's first roll;
    labels that would touch are left out (a game's move 1 is kept)."""
    several = frame["game"].nunique() > 1
    step = 10 if several else 5
    gap = (frame[x].max() - frame[x].min()) / 40 if len(frame) else 0.0
    ticks: list[tuple[float, int]] = []
    for _, part in frame.groupby("game", sort=False):
        firsts = part[part["move"].notna()].drop_duplicates("move")
        for at, move in zip(firsts[x], firsts["move"].astype(int), strict=True):
            if move != 1 and move % step:
                continue
            if ticks and float(at) - ticks[-1][0] < gap:
                if move != 1 or ticks[-1][1] == 1:
                    continue  # (the game's first move keeps its label)
                ticks.pop()
            ticks.append((float(at), move))
    if ticks:
        ax.set_xticks([at for at, _ in ticks], [str(move) for _, move in ticks])


def _x_label(game: int | None, scores: bool = False) -> str:
    if game is not None:
        return "move (numbered as in the record; both players' rolls in order)"
    return (
        "move of each game (numbered as in the record; G: a game starts"
        f"{', with the score before it' if scores else ''})"
    )


def _match_name(match: Match) -> str:
    length = f"{match.length}-point match" if match.length else "money session"
    return f"{match.players[0]} vs. {match.players[1]}, {length}"


def _float(value: Any) -> float:
    """A table cell as a float, 0 for missing figures."""
    if value is None:
        return 0.0
    number = float(value)
    return 0.0 if math.isnan(number) else number


def _nan(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))
