"""A season's results with the luck taken out, its ratings and its money (issue 33).

The statistics are checked against scipy (``scipy.stats.t``), hand-computed cases and
a published table of the FIBS formula; the season's figures against the per-match
numbers of the analysis, aggregated here by the textbook formulas written out.

Sources:
* FIBS's rating formula: FIBS ``help formula``, reproduced in the Backgammon FAQ
  (https://stason.org/TULARC/games/backgammon/14-FIBS-RATINGS-First-Internet-Backgammon-Server.html)
  and by Patti Beadles on rec.games.backgammon (http://www.bkgm.com/rgb/rgb.cgi?view+1093).
* ``PUBLISHED``: "batting average for favorite to maintain his rating", a table of the
  formula's P(win) by rating difference and match length posted to rec.games.backgammon
  (http://www.bkgm.com/rgb/rgb.cgi?view+45).
"""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from bgkit.season import (
    fibs_rating_change,
    fibs_win_probability,
    mean_interval,
    possible_results,
    ratio_interval,
    t_quantile,
)

stats = pytest.importorskip("scipy.stats")
np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parent.parent

# rating difference -> P(win) of the favourite in 1, 3, 5, 7, 9 and 11-point matches
PUBLISHED = {
    0: (0.500, 0.500, 0.500, 0.500, 0.500, 0.500),
    100: (0.529, 0.550, 0.564, 0.576, 0.585, 0.594),
    200: (0.557, 0.598, 0.626, 0.648, 0.666, 0.682),
    300: (0.585, 0.645, 0.684, 0.714, 0.738, 0.759),
    400: (0.613, 0.689, 0.737, 0.772, 0.799, 0.822),
    500: (0.640, 0.730, 0.784, 0.821, 0.849, 0.871),
    600: (0.666, 0.768, 0.824, 0.861, 0.888, 0.908),
    700: (0.691, 0.802, 0.858, 0.894, 0.918, 0.935),
}


# -- 1. intervals


@pytest.mark.parametrize("confidence", [0.5, 0.8, 0.9, 0.95, 0.99, 0.999])
def test_t_quantile_is_scipys(confidence: float) -> None:
    for df in [*range(1, 61), 99, 100, 250, 1743, 5000]:
        want = stats.t.ppf((1 + confidence) / 2, df)
        assert t_quantile(confidence, df) == pytest.approx(want, rel=1e-10), df


def test_t_quantile_refuses_what_has_none() -> None:
    for args in ((0.0, 3), (1.0, 3), (0.95, 0)):
        with pytest.raises(ValueError):
            t_quantile(*args)


def test_mean_interval_is_scipys_t_interval() -> None:
    rng = np.random.default_rng(33)
    for n in (2, 3, 7, 30, 400):
        xs = rng.normal(0.05, 0.3, n)
        for confidence in (0.9, 0.95):
            mean, low, high = mean_interval(xs, confidence)
            want = stats.t.interval(confidence, n - 1, loc=xs.mean(), scale=stats.sem(xs))
            assert mean == pytest.approx(xs.mean(), abs=1e-12)
            assert (low, high) == pytest.approx(want, abs=1e-12)


def test_mean_interval_by_hand() -> None:
    # won 3 of 4 matches from 0-0: +0.5, +0.5, +0.5, -0.5. Mean 0.25, s = 0.5,
    # s / sqrt(4) = 0.25, t(0.975, 3) = 3.182446305284263
    mean, low, high = mean_interval([0.5, 0.5, 0.5, -0.5])
    assert mean == 0.25
    assert low == pytest.approx(0.25 - 3.182446305284263 * 0.25, abs=1e-12)
    assert high == pytest.approx(0.25 + 3.182446305284263 * 0.25, abs=1e-12)
    assert mean_interval([0.5])[0] == 0.5 and math.isnan(mean_interval([0.5])[1])
    assert mean_interval([0.5, math.nan, -0.5])[:1] == (0.0,)  # (NaN left out)
    assert all(math.isnan(x) for x in mean_interval([]))
    # two matches lost, -0.5 MWC each as summed game by game: no spread, a zero-width
    # interval (not one of 1e-17, which would make "narrower" -1e14)
    mean, low, high = mean_interval([-0.5, -0.49999999999999994])
    assert low == mean == high


def test_ratio_interval_by_hand() -> None:
    # two sessions: +3 in 2 games, -1 in 2 games: 2 points in 4 games, 0.5 a game.
    # Residuals 3 - 1 = 2 and -1 - 1 = -2; sqrt(2 / 1 * 8) / 4 = 1; t(0.975, 1) = 12.7062
    ppg, low, high = ratio_interval([3, -1], [2, 2])
    assert ppg == 0.5
    assert (low, high) == pytest.approx((0.5 - 12.706204736174698, 0.5 + 12.706204736174698))
    # sessions of one game each: the ratio is the mean, and the interval scipy's t-interval
    # times sqrt(n / (n - 1)) * sqrt((n - 1) / n) = 1 (the ratio estimator's small-sample
    # factor n / (n - 1) on the sum of squares over n^2 is s^2 / n)
    points = [1, -2, 1, 1, -1, 4, -1]
    ppg, low, high = ratio_interval(points, [1] * len(points))
    want = stats.t.interval(0.95, len(points) - 1, loc=np.mean(points), scale=stats.sem(points))
    assert ppg == pytest.approx(np.mean(points))
    assert (low, high) == pytest.approx(want)


# -- 2. the FIBS formula


def test_fibs_win_probability_is_the_published_table() -> None:
    for difference, row in PUBLISHED.items():
        for length, want in zip((1, 3, 5, 7, 9, 11), row, strict=True):
            assert round(fibs_win_probability(difference, length), 3) == want
            assert fibs_win_probability(-difference, length) == pytest.approx(1 - want, abs=5e-4)


def fibs_help_formula(mine: float, theirs: float, length: int, won: bool) -> float:
    """FIBS's rating change as its ``help formula`` words it (K = 1)."""
    d = abs(mine - theirs)
    p_upset = 1 / (10 ** (d * math.sqrt(length) / 2000) + 1)
    underdog = mine < theirs if won else theirs < mine  # (is the winner the underdog?)
    p = 1 - p_upset if underdog else p_upset
    change = 4 * math.sqrt(length) * p
    return change if won else -change


def test_fibs_rating_change_is_the_help_formula() -> None:
    assert fibs_rating_change(1, 0, 1) == 2.0 and fibs_rating_change(0, 0, 1) == -2.0
    assert fibs_rating_change(1, 0, 9) == 6.0 and fibs_rating_change(1, 0, 25) == 10.0
    for mine, theirs in ((1500, 1500), (1570, 1720), (1850, 1750), (1400, 2000)):
        for length in (1, 3, 5, 7, 11, 25):
            for won in (True, False):
                want = fibs_help_formula(mine, theirs, length, won)
                got = fibs_rating_change(float(won), mine - theirs, length)
                assert got == pytest.approx(want, abs=1e-12)
                # zero-sum: what one wins the other loses
                other = fibs_rating_change(float(not won), theirs - mine, length)
                assert other == pytest.approx(-got, abs=1e-12)


def test_an_even_luck_adjusted_result_changes_nothing() -> None:
    # against an equal opponent: W = P = 0.5; a luck-adjusted win of 0.75 in a 4-point
    # match: 4 * 2 * 0.25 = 2
    assert fibs_rating_change(0.5, 0, 7) == 0.0
    assert fibs_rating_change(0.75, 0, 4) == pytest.approx(2.0)


# -- a season of matches and money sessions

pytest.importorskip("gnubg")
pd = pytest.importorskip("pandas")
pytest.importorskip("matplotlib")

from bgkit.season import Season, analyze_season  # noqa: E402

SELFPLAY = sorted((ROOT / "data" / "selfplay").glob("*.mat"))[:6]
SESSION = ROOT / "data" / "conventions" / "galaxy-jacoby-session.mat"  # bo wins 1 point
MONEY = ROOT / "tests" / "data" / "money"


def mixed_folder(folder: Path) -> Path:
    """Six matches of Alice and Bob; three money sessions of gnubg (two against root,
    one of them without the Jacoby rule, and one as ``bo`` in Galaxy's session)."""
    folder.mkdir()
    for path in SELFPLAY:
        shutil.copy(path, folder)
    shutil.copy(SESSION, folder)
    shutil.copy(MONEY / "jacoby.mat", folder)
    text = (MONEY / "plain.mat").read_text()
    (folder / "plain_no_jacoby.mat").write_text('; [Jacoby "Off"]\n' + text)
    return folder


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return mixed_folder(tmp_path_factory.mktemp("mixed") / "season")


@pytest.fixture(scope="module")
def season(folder: Path) -> Season:  # (rows kept: the command line reruns nothing)
    return analyze_season(folder, 0, jobs=1, progress=False, output=folder.parent / "rows.csv")


def test_results_are_the_t_intervals_of_the_matches(season: Season) -> None:
    """Each interval is scipy's t-interval, cut to -50% to +50% (these matches start
    at 0-0); ``narrower`` compares the intervals so cut."""
    rows = season.matches
    results = season.results().set_index("name")
    assert set(results.index) == {"Alice", "Bob"}  # (money sessions are not matches)
    # a finished match from 0-0 gains +-50% MWC
    assert set(rows[rows["length"] > 0]["actual_result"].round(9)) == {0.5, -0.5}
    cuts = 0
    for name in ("Alice", "Bob"):
        mine = rows[(rows["name"] == name) & (rows["length"] > 0)]
        assert results.at[name, "matches"] == len(mine) == 6
        widths = []
        for column, values in (("result", mine["actual_result"]),
                               ("luck_adjusted", mine["luck_adjusted_result"])):  # fmt: skip
            xs = values.to_numpy(float)
            low, high = stats.t.interval(0.95, len(xs) - 1, loc=xs.mean(), scale=stats.sem(xs))
            widths.append(min(high, 0.5) - max(low, -0.5))
            cuts += (low < -0.5) + (high > 0.5)
            assert results.at[name, column] == pytest.approx(xs.mean())
            assert results.at[name, f"{column}_low"] == pytest.approx(max(low, -0.5))
            assert results.at[name, f"{column}_high"] == pytest.approx(min(high, 0.5))
        assert results.at[name, "narrower"] == pytest.approx(1 - widths[1] / widths[0])
    assert cuts  # (six matches: a t-interval reaches past what a match can gain or lose)


def test_possible_results_by_hand() -> None:
    # won from 0-0 (+0.5), lost from 0-0 (-0.5): -50% to +50%
    assert possible_results([0.5, -0.5], [True, False]) == (-0.5, 0.5)
    # won from 30% (a record that starts at another score: +0.7), lost from 80% (-0.8)
    low, high = possible_results([0.7, -0.8], [True, False])
    assert (low, high) == pytest.approx(((-0.3 - 0.8) / 2, (0.7 + 0.2) / 2))
    # an unfinished match (won NA) may have started anywhere: -1 to +1
    won = pd.Series([True, pd.NA], dtype="boolean")
    assert possible_results(pd.Series([0.5, 0.1]), won) == pytest.approx((-0.75, 0.75))
    assert all(math.isnan(x) for x in possible_results([], []))
    # a record whose games do not add up (won, yet +1.2 gained): no start to take
    assert possible_results([1.2, 0.5], [True, True]) == pytest.approx((-0.75, 0.75))


def test_few_matches_say_no_more_than_a_match_can_gain(season: Season) -> None:
    """Two matches, one won and one lost: the t-interval (one degree of freedom, t =
    12.7) reaches +-635% MWC; the season says -50% to +50%, all a match from 0-0 can
    gain or lose, on its page and in the terminal."""
    from bgkit.cli.analyze import _season_text

    rows = season.rows
    alice = season.matches[(season.matches["name"] == "Alice") & (season.matches["length"] > 0)]
    files = [alice[alice["won"] == won]["file"].iloc[0] for won in (True, False)]
    two = Season(rows[rows["file"].isin(files)].reset_index(drop=True)).about("Alice")
    result = two.results().set_index("name").loc["Alice"]
    xs = two.matches.query("name == 'Alice'")["actual_result"].to_numpy(float)
    t_low, t_high = stats.t.interval(0.95, 1, loc=xs.mean(), scale=stats.sem(xs))
    assert t_low < -6 and t_high > 6  # (what the interval was before the cut)
    assert (result["result_low"], result["result_high"]) == pytest.approx((-0.5, 0.5))
    adjusted = (result["luck_adjusted_low"], result["luck_adjusted_high"])
    if -0.5 <= result["luck_adjusted"] <= 0.5:
        assert adjusted == pytest.approx((-0.5, 0.5))
    text = _season_text(two, "two", 0)
    assert "(-50.0 to +50.0)" in text and "635" not in text
    if adjusted == pytest.approx((-0.5, 0.5)):
        assert result["narrower"] == 0 and ", 0% narrower" in text  # (as shown)
    assert "\u2212635" not in two.html() and "(\u221250.0 to +50.0)" in two.html()
    months = season.results("month")
    assert list(months["month"]) == ["2026-11"] and months["matches"].sum() == 6


def test_the_terminal_counts_one_match_as_one(season: Season) -> None:
    """One match is "1 match" (not "1 matches"); a player of money sessions alone has no
    match record to show."""
    from bgkit.cli.analyze import _season_text

    rows = season.rows
    alice = season.matches[(season.matches["name"] == "Alice") & (season.matches["length"] > 0)]
    one = Season(rows[rows["file"] == alice["file"].iloc[0]].reset_index(drop=True))
    text = _season_text(one.about("Alice"), "one", 0)
    assert "one: 1 match analysed (0-ply)" in text and "Alice: 1 match, won " in text
    assert "FIBS rating from 1500 after 1 finished match: " in text
    plain = season.matches[season.matches["file"].str.endswith("plain_no_jacoby.mat")]
    money = Season(rows[rows["file"].isin(plain["file"])].reset_index(drop=True))
    text = _season_text(money.about("gnubg"), "money", 0)
    assert "money: 1 money session analysed (0-ply)" in text
    assert "gnubg: 1 money session; PR " in text and "0 matches" not in text


def test_the_ratings_by_hand(season: Season) -> None:
    rows = season.matches
    alice = rows[(rows["name"] == "Alice") & (rows["length"] > 0)].reset_index(drop=True)
    track = season.rating()
    assert len(track) == 6 and list(track["won"]) == list(alice["won"])
    raw = adjusted = 1500.0
    for i, match in alice.iterrows():
        n = int(match["length"])
        won = 1.0 if match["won"] else 0.0
        # W: the match won or lost with Alice's luck taken out and Bob's put back (MWC)
        w = won + match["luck_adjusted_result"] - match["actual_result"]
        p_raw = 1 / (1 + 10 ** (-(raw - 1500) * math.sqrt(n) / 2000))
        p_adjusted = 1 / (1 + 10 ** (-(adjusted - 1500) * math.sqrt(n) / 2000))
        raw += 4 * math.sqrt(n) * (won - p_raw)
        adjusted += 4 * math.sqrt(n) * (w - p_adjusted)
        assert track.at[i, "luck_adjusted_win"] == pytest.approx(w)
        assert track.at[i, "rating"] == pytest.approx(raw)
        assert track.at[i, "luck_adjusted_rating"] == pytest.approx(adjusted)
    first = track.iloc[0]  # the first match, from 1500 against 1500: 4 sqrt(5) (W - 0.5)
    half = 0.5 if alice.at[0, "won"] else -0.5
    assert first["change"] == pytest.approx(4 * math.sqrt(5) * half)
    rated = season.rating(start=1600, opponents={"Bob": 1400})
    favourite = 1 / (1 + 10 ** (-200 * math.sqrt(5) / 2000))
    assert rated.at[0, "win_probability"] == pytest.approx(favourite)


def test_money_sessions_in_money_figures(season: Season) -> None:
    rows = season.matches
    gnubg = season.about("gnubg", {"bo": "gnubg"})
    money = gnubg.money().set_index("name")
    mine = gnubg.matches[(gnubg.matches["name"] == "gnubg")]
    assert (mine["length"] == 0).all() and len(mine) == 3
    assert money.at["gnubg", "sessions"] == 3
    assert money.at["gnubg", "games"] == 11  # 5 + 5 + 1
    assert money.at["gnubg", "points"] == 11  # 5 + 5 + Galaxy's 1 (not 16-point MWC)
    assert money.at["gnubg", "jacoby"] == "on in 2 of 3"
    games = mine["games"].to_numpy(float)
    for column, points in (("ppg", mine["actual_result"]),
                           ("luck_adjusted_ppg", mine["luck_adjusted_result"])):  # fmt: skip
        ps = points.to_numpy(float)
        ratio = ps.sum() / games.sum()
        se = math.sqrt(3 / 2 * ((ps - ratio * games) ** 2).sum()) / games.sum()
        half = stats.t.ppf(0.975, 2) * se
        assert money.at["gnubg", column] == pytest.approx(ratio)
        assert money.at["gnubg", f"{column}_low"] == pytest.approx(ratio - half)
        assert money.at["gnubg", f"{column}_high"] == pytest.approx(ratio + half)
    decisions = mine["unforced_moves"].sum() + mine["close_cube_decisions"].sum()
    assert money.at["gnubg", "error_rate_memg"] == pytest.approx(
        1000 * mine["error_emg"].sum() / decisions
    )
    # Galaxy's single-game session, analysed as money under the Jacoby rule
    galaxy = rows[rows["file"].str.endswith(SESSION.name)].set_index("name")
    assert galaxy.at["bo", "length"] == 0 and galaxy.at["bo", "jacoby"]
    assert galaxy.at["bo", "actual_result"] == 1.0 and galaxy.at["bo", "score"] == "+1"
    assert galaxy.at["ann", "points_per_game"] == -1.0
    # ... but another record of one game that does not decide its match is a match cut
    # short (a handwritten 3-point match of one game won by 1 point), not money
    from bgkit.batch import analyze_rows

    short = analyze_rows(ROOT / "data" / "fixtures" / "handwritten_3pt.mat")
    assert {row["length"] for row in short} == {3} and short[0]["jacoby"] is None
    # no match figures from money: no MWC result, no rating
    assert gnubg.results().query("name == 'gnubg'").empty and gnubg.rating().empty
    assert season.players.set_index("name").at["gnubg", "matches"] == 0


def test_the_page_and_the_terminal_show_both_units(season: Season, folder: Path) -> None:
    from click.testing import CliRunner

    from bgkit.cli import main

    both = season.about("Alice", {"bo": "Alice"})  # six matches and one money session
    html = both.html()
    for heading in ("Results with the luck taken out", "Rating", "Money sessions"):
        assert f"<h2>{heading}</h2>" in html
    assert "luck-adjusted result per match (MWC)" in html and "money, Jacoby" in html
    only_money = season.about("gnubg").html()
    assert "<h2>Money sessions</h2>" in only_money and "<h2>Rating</h2>" not in only_money
    assert "no Jacoby" in only_money
    runner = CliRunner()
    kept = ["-p", "0", "--jobs", "1", "-o", str(folder.parent / "rows.csv")]
    done = runner.invoke(main, ["analyze", str(folder), *kept])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0].endswith(": 6 matches and 3 money sessions analysed (0-ply), 0 file(s) not"
                             " analysed")  # fmt: skip
    assert any(line.startswith("result per match in MWC (95% interval): ") for line in lines)
    rating = "FIBS rating from 1500 after 6 finished matches: "
    assert any(line.startswith(rating) for line in lines)
    money = runner.invoke(main, ["analyze", str(folder), *kept, "--player", "gnubg",
                                 "--alias", "bo=gnubg"])  # fmt: skip
    assert "money: 3 session(s), 11 game(s), +11 points; per game +1.00" in money.output
    assert "Jacoby rule on in 2 of 3" in money.output and "FIBS rating" not in money.output
    csv = runner.invoke(main, ["analyze", str(folder), *kept, "--csv", "-"])
    header = csv.output.splitlines()[0].split(",")
    for column in ("jacoby", "luck_adjusted_win", "points_per_game", "luck_adjusted_ppg"):
        assert column in header
