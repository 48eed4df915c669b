"""bgkit.reports: each function returns a DataFrame or a labelled Figure with the right numbers.

The figures are also saved as PNG files (``pytest --basetemp=DIR`` keeps them in DIR
to be looked at).
"""

from __future__ import annotations

import math
from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("pandas")
pytest.importorskip("matplotlib")
pytest.importorskip("gnubg")

import pandas as pd
from matplotlib.figure import Figure

from bgkit import Play, Position
from bgkit.analysis.match import Analysis, analyze
from bgkit.formats import read_match
from bgkit.records import Match
from bgkit.reports import figures as reports
from bgkit.reports.svg import SvgWrapper

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"  # 7-point match, 5 games, cube actions
MONEY = ROOT / "data" / "dialects" / "money.mat"  # 2 money games, beaver and raccoon


@cache
def match(path: Path = SAMPLE) -> Match:
    return read_match(path)


@cache
def analysis(path: Path = SAMPLE) -> Analysis:
    return analyze(match(path), 0, jobs=1)


def check_figure(fig: Figure, path: Path, *, axes: int = 1) -> None:
    """Every axes has a title, both axis labels (with units) and a legend; save a PNG."""
    assert isinstance(fig, Figure)
    assert len(fig.axes) == axes
    for ax in fig.axes:
        assert ax.get_title()
        assert ax.get_xlabel() or ax is not fig.axes[-1]  # shared x: labelled at the bottom
        assert "(" in ax.get_ylabel() and ")" in ax.get_ylabel()  # a unit
        legend = ax.get_legend()
        assert legend is not None and legend.get_texts()
    assert "(" in fig.axes[-1].get_xlabel() or "number" in fig.axes[-1].get_xlabel()
    fig.savefig(path, dpi=80)
    assert path.read_bytes().startswith(b"\x89PNG")


# ---------------------------------------------------------------------- race


def test_pip_counts_follow_the_replay() -> None:
    race = reports.pip_counts(match())
    assert isinstance(race, pd.DataFrame)
    first = race.iloc[0]
    assert (first["game"], first["turn"], first["pips_0"], first["pips_1"]) == (1, 1, 167, 167)
    assert list(race["roll"]) == list(range(1, len(race) + 1))
    assert (race["lead_0"] == race["pips_1"] - race["pips_0"]).all()
    ends = race[race["action"] == "end"]
    assert list(ends["game"]) == [g.number for g in match().games]
    rolls = race[race["action"] == "roll"]
    assert len(rolls) == sum(len(g.moves) for g in match().games)
    # the pips before a roll are those after the previous play: replay them by hand
    game1 = match().games[0]
    pos = match().initial_position(0)
    pos = Position.initial(turn=game1.moves[0].player, match_length=7)
    for move, (_, row) in zip(game1.moves[:6], rolls.iterrows(), strict=False):
        assert (row["pips_0"], row["pips_1"]) == pos.pip_counts()
        assert move.play is not None
        pos = pos.with_dice(*move.dice).apply(move.play)


def test_pip_count_figure(tmp_path: Path) -> None:
    fig = reports.pip_count_figure(match())
    check_figure(fig, tmp_path / "pips.png")
    ax = fig.axes[0]
    # one line per player and game, the legend naming each player once
    race_lines = [line for line in ax.get_lines() if line.get_marker() == "."]
    assert len(race_lines) == 2 * len(match().games)
    boundaries = [line for line in ax.get_lines() if line.get_linestyle() == ":"]
    assert len(boundaries) == len(match().games) - 1
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "gnubg (player 0)",
        "root (player 1)",
    ]
    one = reports.pip_count_figure(match(), game=3)
    check_figure(one, tmp_path / "pips_game3.png")
    assert one.axes[0].get_lines()[0].get_xdata()[0] == 1  # turns of game 3
    with pytest.raises(ValueError, match="no game 9"):
        reports.pip_count_figure(match(), game=9)


# ---------------------------------------------------------------------- equity


def test_equity_figure_is_player_0s_match_winning_chance(tmp_path: Path) -> None:
    a = analysis()
    fig = reports.equity_figure(a)
    check_figure(fig, tmp_path / "equity.png")
    ax = fig.axes[0]
    assert ax.get_ylim() == (0, 100)
    assert "match-winning chance (%)" in ax.get_ylabel()
    line = ax.get_lines()[0]
    assert line.get_ydata()[0] == pytest.approx(50)  # the opening roll at 0-0
    moves = a.moves
    rolls = moves[moves["action"] == "move"]
    values = [y for line in ax.get_lines()[: len(a.match.games)] for y in line.get_ydata()]
    assert len(values) == len(rolls)
    assert all(0 <= y <= 100 for y in values)
    # the marks: every marked checker error, sized and coloured by its mark
    drawn = {
        mark: sum(
            len(c.get_offsets())
            for c in ax.collections
            if c.get_label().endswith(f": {mark} ({sign})")  # type: ignore[attr-defined]
        )
        for mark, (_, _, sign) in reports.MARK_STYLES.items()
    }
    sizes = {
        c.get_label().rsplit(": ", 1)[1]: c.get_sizes()[0]  # type: ignore[attr-defined]
        for c in ax.collections
        if c.get_label().startswith("error by") and len(c.get_offsets())  # type: ignore[attr-defined]
    }
    assert sizes["doubtful (?!)"] < sizes["bad (?)"] < sizes["very bad (??)"]
    errors = rolls["error_emg"].astype(float)
    assert drawn["very bad"] >= int((errors > 0.12).sum())
    assert drawn["bad"] + drawn["very bad"] >= int((errors > 0.06).sum())
    assert sum(drawn.values()) >= int((errors > 0.03).sum()) > 0
    stars = sum(
        len(c.get_offsets())
        for c in ax.collections
        if c.get_label().startswith("big luck")  # type: ignore[attr-defined]
    )
    assert stars == int((rolls["luck_emg"].astype(float).abs() > 0.3).sum())


def test_equity_figure_for_one_game_and_for_money(tmp_path: Path) -> None:
    fig = reports.equity_figure(analysis(), game=3)
    check_figure(fig, tmp_path / "equity_game3.png")
    assert "game 3" in fig.axes[0].get_title()
    with pytest.raises(ValueError, match="no game 0"):
        reports.equity_figure(analysis(), game=0)
    money = reports.equity_figure(analysis(MONEY))
    check_figure(money, tmp_path / "equity_money.png")
    assert money.axes[0].get_ylabel() == "Ann's cubeful equity (points)"
    assert "session" in money.axes[0].get_title()


def test_equity_figure_without_a_match_equity_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # a match longer than the analysis' table covers: drawn in EMG, player 0's view
    monkeypatch.setattr(reports, "_met", lambda analysis: None)
    a = analysis()
    ax = reports.equity_figure(a).axes[0]
    assert ax.get_ylabel() == "gnubg's cubeful equity (EMG)"
    rolls = a.moves[a.moves["action"] == "move"]
    first = rolls.iloc[1]  # gnubg's first roll: his own view
    assert first["player"] == 0
    assert ax.get_lines()[0].get_ydata()[1] == pytest.approx(first["equity_before"])


# ---------------------------------------------------------------------- luck


def test_luck_table_adds_up_to_the_players_totals() -> None:
    a = analysis()
    table = reports.luck_table(a)
    assert isinstance(table, pd.DataFrame)
    for player in (0, 1):
        mine = table[table["player"] == player]
        totals = a.players.loc[a.players["player"] == player].iloc[0]
        assert mine["total_emg"].iloc[-1] == pytest.approx(totals["luck_emg"])
        assert mine["total_mwc"].iloc[-1] == pytest.approx(totals["luck_mwc"])
        assert mine["luck_emg"].sum() == pytest.approx(totals["luck_emg"])


def test_luck_figure(tmp_path: Path) -> None:
    fig = reports.luck_figure(analysis())
    check_figure(fig, tmp_path / "luck.png", axes=2)
    top, bottom = fig.axes
    bars = sum(len(c) for c in top.containers)
    assert bars == len(reports.luck_table(analysis()))
    labels = [t.get_text() for t in bottom.get_legend().get_texts()]
    assert labels[0].startswith("gnubg (player 0): total ")


# ---------------------------------------------------------------------- errors


def test_error_histogram_counts_every_unforced_move(tmp_path: Path) -> None:
    a = analysis()
    fig = reports.error_histogram(a)
    check_figure(fig, tmp_path / "errors.png")
    ax = fig.axes[0]
    heights = [sum(p.get_height() for p in container) for container in ax.containers]
    unforced = [int(a.players.loc[p, "unforced_moves"]) for p in (0, 1)]
    assert heights == unforced
    assert ax.get_yscale() == "log"
    assert [round(x.get_xdata()[0]) for x in ax.get_lines()] == [30, 60, 120]


def test_worst_plays(tmp_path: Path) -> None:
    a = analysis()
    worst = reports.worst_plays(a, 5)
    assert isinstance(worst, pd.DataFrame)
    assert len(worst) == 5
    errors = list(worst["error_emg"])
    assert errors == sorted(errors, reverse=True)
    moves = a.moves
    largest = max(
        moves["error_emg"].astype(float).fillna(0).max(),
        moves["cube_error_emg"].astype(float).fillna(0).max(),
    )
    assert errors[0] == pytest.approx(largest)
    for _, row in worst.iterrows():
        board = row["board"]
        assert isinstance(board, SvgWrapper)
        if row["kind"] == "checker":
            steps = len(Play.parse(row["played"]).steps)
            assert board.count('class="arrow"') == steps
            assert board.count('class="die ') == 2
    html = worst.to_html(escape=False)
    assert html.count("<svg") == 5
    (tmp_path / "worst.html").write_text(html)
    plain = reports.worst_plays(a, 3, boards=False)
    assert "board" not in plain.columns and len(plain) == 3


# ---------------------------------------------------------------------- summary


def test_summary_table_as_gnubg_prints_it() -> None:
    a = analysis()
    table = reports.summary_table(a)
    assert list(table.columns) == ["gnubg", "root"]
    sections = list(dict.fromkeys(table.index.get_level_values(0)))
    assert sections == ["Checker play", "Luck", "Cube", "Overall"]
    p0 = a.players.iloc[0]
    assert table.loc[("Checker play", "Unforced moves"), "gnubg"] == str(p0["unforced_moves"])
    emg, mwc = p0["checker_error_emg"], p0["checker_error_mwc"]
    expected = f"{-emg:+.3f} ({-100 * mwc:+.3f}%)"
    assert table.loc[("Checker play", "Error total EMG (MWC)"), "gnubg"] == expected
    rate = 1000 * emg / p0["unforced_moves"]
    assert table.loc[("Checker play", "Error rate mEMG (MWC)"), "gnubg"].startswith(
        f"{-rate:+.1f} ("
    )
    luck = table.loc[("Luck", "Luck total EMG (MWC)"), "root"]
    p1 = a.players.iloc[1]
    assert luck == f"{p1['luck_emg']:+.3f} ({100 * p1['luck_mwc']:+.3f}%)"
    assert table.loc[("Overall", "Actual result"), "gnubg"] == "+50.00%"
    assert table.loc[("Overall", "Luck based FIBS rating diff."), "root"] == "n/a"
    assert "-0.000" not in table.to_string()


def test_summary_table_for_money_play() -> None:
    table = reports.summary_table(analysis(MONEY))
    assert ("Overall", "Luck based FIBS rating diff.") not in table.index
    assert table.loc[("Overall", "Actual result"), "Bo"] == "+9.000"
    cube = table.loc[("Cube", "Error total EMG (MWC)"), "Ann"]
    assert "%" not in cube  # points, not MWC


# ---------------------------------------------------------------------- many matches


def test_compare_and_error_luck_figure(tmp_path: Path) -> None:
    analyses = [analysis(), analysis(MONEY)]
    frame = reports.compare(analyses)
    assert len(frame) == 4
    assert list(frame["name"]) == ["gnubg", "root", "Ann", "Bo"]
    assert list(frame["won"]) == [True, False, False, True]
    assert frame["error_rate_memg"].notna().all()
    fig = reports.error_luck_figure(frame)
    check_figure(fig, tmp_path / "error_luck.png")
    points = sum(len(c.get_offsets()) for c in fig.axes[0].collections)  # type: ignore[attr-defined]
    assert points == 4
    assert not math.isnan(float(frame["pr"].iloc[0]))


def test_worst_cube_decision_shows_the_cube_on_offer() -> None:
    handwritten = ROOT / "data" / "fixtures" / "handwritten_3pt.mat"
    worst = reports.worst_plays(analysis(handwritten), 3)
    drop = worst[worst["played"] == "drop"].iloc[0]  # Bob drops a double he should take
    assert (drop["kind"], drop["name"], drop["best"]) == ("cube", "Bob", "take")
    assert 'class="cube offered"' in drop["board"]
    assert "Alice \u00b7 0/3 points \u00b7 doubles to 2" in drop["board"]
    double = worst[worst["played"] == "double"].iloc[0]
    assert (double["name"], double["best"]) == ("Alice", "no double")
    assert 'class="cube centred"' in double["board"]
