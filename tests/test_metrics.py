"""The analysis formulas (``analysis.metrics``) and match equity (``analysis.met``).

The vectors come from the project's analysis-metrics spec (marked [verified] there:
reproduced with GNU Backgammon 1.1.0a16).
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from bgkit.analysis.evaluator import CubeDecision
from bgkit.analysis.met import (
    MET_NAMES,
    MatchEquityTable,
    default_met,
    gnubg_met_dir,
    met_name,
    met_path,
    shipped_met,
)
from bgkit.analysis.metrics import (
    NON_DOUBLES,
    ROLLS,
    absolute_fibs_rating,
    cube_available,
    cube_errors,
    effective_pip_count,
    is_close_cube,
    luck_label,
    luck_normal,
    luck_opening,
    luck_rating,
    performance_rating,
    pip_count,
    rating,
    relative_fibs_rating,
    skill_label,
)
from bgkit.position import Position

# Spec section 11: selected Kazaross-XG2 values, me-away x opp-away (1, 2, 3, 4, 5, 7)
SPEC_MET = {
    1: (0.5000, 0.6774, 0.7508, 0.8144, 0.8418, 0.9072),
    2: (0.3226, 0.5000, 0.5995, 0.6687, 0.7436, 0.8422),
    3: (0.2492, 0.4005, 0.5000, 0.5715, 0.6479, 0.7621),
    7: (0.0928, 0.1577, 0.2379, 0.3008, 0.3736, 0.5000),
}
SPEC_POST = (0.5000, 0.48803, 0.32264, 0.31002, 0.19012, 0.18072, 0.11559)


@pytest.fixture(scope="module")
def met() -> MatchEquityTable:
    if gnubg_met_dir() is None:
        pytest.skip("gnubg (which ships the Kazaross-XG2 table) is not installed")
    return default_met()


# ---------------------------------------------------------------------- MET


def test_default_met_holds_the_spec_values(met: MatchEquityTable) -> None:
    assert met.length == 25
    for away, row in SPEC_MET.items():
        for opp, value in zip((1, 2, 3, 4, 5, 7), row, strict=True):
            assert met.mwc(away, opp) == pytest.approx(value, abs=1e-4)  # 4 decimals
    for away, value in enumerate(SPEC_POST, 1):
        assert met.post[0][away - 1] == pytest.approx(value, abs=5e-6)
        assert met.mwc(away, 1, post_crawford=True) == pytest.approx(value, abs=5e-6)


def test_default_met_is_gnubgs_table(met: MatchEquityTable) -> None:
    gnubg = pytest.importorskip("gnubg")
    pre, post0, post1 = gnubg.met(25)
    rows = zip(met.pre, pre, strict=True)
    assert max(abs(a - b) for r, s in rows for a, b in zip(r, s, strict=True)) < 1e-6
    # gnubg extrapolates the 25-away post-Crawford entry itself
    assert max(abs(a - b) for a, b in zip(met.post[0][:24], post0[:24], strict=True)) < 1e-6
    assert met.post[1][:24] == met.post[0][:24] and post0 == post1


@pytest.mark.parametrize(
    ("length", "score", "turn", "cube", "win", "lose"),
    [
        (7, (0, 0), 0, 1, 0.56261, 0.43739),
        (7, (4, 2), 0, 2, 0.84179, 0.50000),
        (3, (0, 0), 0, 1, 0.59947, 0.40053),
    ],
)
def test_emg_mwc_vectors(
    met: MatchEquityTable,
    length: int,
    score: tuple[int, int],
    turn: int,
    cube: int,
    win: float,
    lose: float,
) -> None:
    """Spec section 1: W, L, eq2mwc(0) and the MWC worth of one EMG."""
    pos = Position.initial(match_length=length, score=score, turn=turn)
    pos = replace(pos, cube=cube, cube_owner=None if cube == 1 else 1 - turn)
    w, lose_ = met.cube_range(pos)
    assert (w, lose_) == (pytest.approx(win, abs=5e-6), pytest.approx(lose, abs=5e-6))
    assert met.emg_to_mwc(0.0, pos) == pytest.approx((win + lose) / 2, abs=5e-6)
    assert met.emg_cost(1.0, pos) == pytest.approx((win - lose) / 2, abs=5e-6)
    assert met.emg_to_mwc(1.0, pos) == pytest.approx(win, abs=1e-9)
    assert met.emg_to_mwc(-1.0, pos) == pytest.approx(lose, abs=1e-9)
    for emg in (-0.7, 0.0, 0.35, 1.2):
        assert met.mwc_to_emg(met.emg_to_mwc(emg, pos), pos) == pytest.approx(emg)


def test_the_cube_ranges_a_table_keeps_are_bounded() -> None:
    """A table remembers its cube ranges (an analysis asks for the same ones at each row)
    up to a bound, so that a worker analysing match after match stays flat; past it the
    answers are those a fresh table gives."""
    from bgkit.analysis import met as met_module

    table = shipped_met("woolsey")
    fresh = MatchEquityTable.from_xml(met_path("woolsey"))
    asked = 0
    for length in range(1, 33):
        for a in range(length):
            for b in range(length):
                for turn in (0, 1):
                    pos = Position.initial(match_length=length, score=(a, b), turn=turn)
                    assert table.cube_range(pos) == fresh.cube_range(pos)
                    asked += 1
                    assert len(table._ranges) <= met_module._MAX_RANGES
    assert asked > 2 * met_module._MAX_RANGES
    pos = Position.initial(match_length=7, score=(3, 5), turn=1)
    assert table.cube_range(pos) == fresh.cube_range(pos) == table.cube_range(pos)


def test_money_conversions_are_points() -> None:
    table = MatchEquityTable.from_rows("tiny", [[0.5]], [[0.5]])
    pos = replace(Position.initial(), cube=4, cube_owner=1)
    assert table.emg_to_mwc(0.5, pos) == 2.0
    assert table.mwc_to_emg(2.0, pos) == 0.5
    assert table.emg_cost(-0.25, pos) == -1.0


def test_get_me_match_over_and_crawford(met: MatchEquityTable) -> None:
    # winning the points needed wins the match
    assert met.get_me((4, 2), 7, player=0, points=3, winner=0) == 1.0
    assert met.get_me((4, 2), 7, player=1, points=3, winner=0) == 0.0
    # the Crawford game (6-2 in a 7-pt match): a loss leads to a post-Crawford game
    post = met.get_me((6, 2), 7, player=1, points=1, winner=1, crawford=True)
    assert post == pytest.approx(met.post[1][3])  # player 1 then needs 4 against 1-away
    assert met.at_score((6, 2), 7, player=0, crawford=True) == pytest.approx(met.pre[0][4])
    assert met.at_score((6, 3), 7, player=1) == pytest.approx(met.post[1][3])


def test_met_from_xml_rejects_a_parametric_table(tmp_path: pytest.TempPathFactory) -> None:
    path = tmp_path / "zadeh.xml"  # type: ignore[operator]
    path.write_text('<met><pre-crawford-table type="parameters"/></met>')
    with pytest.raises(ValueError, match="explicit"):
        MatchEquityTable.from_xml(path)


def test_met_refuses_matches_longer_than_gnubg_plays() -> None:
    table = MatchEquityTable.from_rows("tiny", [[0.5, 0.6], [0.4, 0.5]], [[0.5, 0.49]])
    assert (table.length, table.max_length) == (2, 64)
    # extended as gnubg extends a table (tests/test_met_extension.py), up to 64 points
    assert 0.0 < table.mwc(3, 1) < table.mwc(2, 1)
    assert table.mwc(64, 64) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="up to 64 points"):
        table.mwc(65, 1)


# ---------------------------------------------------------------------- labels


@pytest.mark.parametrize(
    ("error", "label"),
    [
        (-0.073787, "bad"),
        (-0.12, "bad"),
        (-0.1201, "very bad"),
        (-0.06, "doubtful"),
        (-0.0301, "doubtful"),
        (-0.03, ""),
        (0.0, ""),
    ],
)
def test_skill_labels(error: float, label: str) -> None:
    assert skill_label(error) == label


@pytest.mark.parametrize(
    ("luck", "label"),
    [(0.61, "very lucky"), (0.6, "lucky"), (0.31, "lucky"), (0.3, ""), (-0.3, ""),
     (-0.31, "unlucky"), (-0.61, "very unlucky")],
)  # fmt: skip
def test_luck_labels(luck: float, label: str) -> None:
    assert luck_label(luck) == label


@pytest.mark.parametrize(
    ("error", "current", "legacy"),
    [
        (0.0019, "Super Grandmaster", "Supernatural"),
        (0.0049, "Super Grandmaster", "World class"),
        (0.00796, "Grandmaster", "Expert"),
        (0.0125, "Master", "Intermediate"),
        (0.0309, "Intermediate", "Beginner"),
        (0.1031, "Beginner", "Awful!"),
    ],
)
def test_rating_scales(error: float, current: str, legacy: str) -> None:
    assert rating(error) == current
    assert rating(error, scale="legacy") == legacy
    assert rating(math.nan) == rating(None) == "n/a"


def test_rating_agrees_with_gnubg() -> None:
    gnubg = pytest.importorskip("gnubg")
    names = ["Beginner", "Intermediate", "Advanced", "Master", "Grandmaster", "Super Grandmaster"]
    for e in (0.001, 0.006, 0.01, 0.015, 0.025, 0.05):
        assert rating(e) == names[gnubg.errorrating(e)]


def test_luck_ratings() -> None:
    assert luck_rating(0.0652) == "Go to Las Vegas"
    assert luck_rating(0.04) == "Good dice, man!"
    assert luck_rating(0.0) == "None"
    assert luck_rating(-0.04) == "Bad dice, man!"
    assert luck_rating(-0.07) == "Go to bed"


# ---------------------------------------------------------------------- luck


def test_luck_normal_weights_doubles_once() -> None:
    values = {r: (1.0 if r[0] == r[1] else 0.0) for r in ROLLS}
    luck, mean = luck_normal(values, (3, 3))
    assert mean == pytest.approx(6 / 36)
    assert luck == pytest.approx(1 - 6 / 36)
    luck, _ = luck_normal(values, (1, 3))  # either order of the dice
    assert luck == pytest.approx(-6 / 36)


def test_luck_opening_uses_the_thirty_outcomes() -> None:
    mine = {r: 0.1 * i for i, r in enumerate(NON_DOUBLES)}
    theirs = {r: 0.05 for r in NON_DOUBLES}
    luck, mean = luck_opening(mine, theirs, (2, 1))
    assert len(NON_DOUBLES) == 15
    assert mean == pytest.approx((sum(mine.values()) - 15 * 0.05) / 30)
    assert luck == pytest.approx(mine[(2, 1)] - mean)


# ---------------------------------------------------------------------- cube


def test_cube_decisions_and_errors() -> None:
    double_take = CubeDecision(no_double=0.62, double_take=0.71, double_pass=1.0)
    assert double_take.action == "double, take" and double_take.optimal == 0.71
    assert cube_errors(double_take, "no double") == (pytest.approx(0.09), "missed double below CP")
    assert cube_errors(double_take, "double") == (0.0, "")
    assert cube_errors(double_take, "take") == (0.0, "")
    assert cube_errors(double_take, "drop") == (pytest.approx(0.29), "wrong pass")
    assert is_close_cube(double_take)

    double_pass = CubeDecision(no_double=0.9, double_take=1.4, double_pass=1.0)
    assert double_pass.action == "double, pass"
    assert cube_errors(double_pass, "no double") == (pytest.approx(0.1), "missed double above CP")
    assert cube_errors(double_pass, "take") == (pytest.approx(0.4), "wrong take")

    too_good = CubeDecision(no_double=1.3, double_take=1.6, double_pass=1.0)
    assert too_good.action == "too good" and too_good.optimal == 1.3
    assert cube_errors(too_good, "double") == (pytest.approx(0.3), "wrong double above TG")

    no_double = CubeDecision(no_double=0.40, double_take=0.10, double_pass=1.0)
    assert no_double.action == "no double"
    assert cube_errors(no_double, "double") == (pytest.approx(0.3), "wrong double below DP")
    assert not is_close_cube(no_double)  # 0.40 - 0.10 >= 0.16
    assert is_close_cube(CubeDecision(0.30, 0.15, 1.0))

    unavailable = CubeDecision(0.8, 0.8, 1.0, available=False)
    assert unavailable.action == "cube not available" and unavailable.optimal == 0.8
    with pytest.raises(ValueError, match="unknown cube action"):
        cube_errors(no_double, "beaver")


def test_cube_availability() -> None:
    money = Position.initial()
    assert cube_available(money)
    assert not cube_available(replace(money, cube=2, cube_owner=1))
    assert cube_available(replace(money, cube=2, cube_owner=0))
    assert not cube_available(replace(money, cube_limit=1))
    match = Position.initial(match_length=5, score=(2, 1))
    assert cube_available(match)
    assert not cube_available(replace(match, score=(4, 1), crawford=True))  # Crawford game
    assert not cube_available(replace(match, score=(4, 1)))  # post-Crawford leader
    assert cube_available(replace(match, score=(1, 4)))  # post-Crawford trailer
    assert not cube_available(replace(match, score=(3, 1), cube=2, cube_owner=0))  # dead for him
    assert not cube_available(replace(match, score=(4, 4)))  # double match point


# ---------------------------------------------------------------------- ratings from errors


def test_fibs_rating_estimates_spec_vectors() -> None:
    """Spec section 7, checked against the worked example of section 6.1."""
    assert relative_fibs_rating(0.5, 0.16823, 0.03401, 3) == pytest.approx(934.8, abs=0.1)
    assert math.isnan(relative_fibs_rating(0.5, -0.6, 0.0, 3))  # r >= 1
    assert relative_fibs_rating(-0.499, 0.0, 0.0, 1) == -2100.0  # floored
    absolute, chequer, cube = absolute_fibs_rating(0.03095, 0.1031, 3)
    assert (chequer, cube) == (pytest.approx(535.6, abs=0.1), pytest.approx(71.1, abs=0.1))
    assert absolute == pytest.approx(1443.3, abs=0.1)
    assert all(math.isnan(x) for x in absolute_fibs_rating(0.01, 0.01, 0))


def test_performance_rating() -> None:
    assert performance_rating(0.495, 9) == pytest.approx(27.5)
    assert math.isnan(performance_rating(0.0, 0))


# ---------------------------------------------------------------------- pips


def test_pip_counts() -> None:
    pos = Position.initial()
    assert pip_count(pos.board[0]) == 167 == pos.pip_counts()[0]


@pytest.mark.parametrize(
    ("home", "rolls"),
    [
        ((1, 0, 0, 0, 0, 0), 1.0),
        ((2, 0, 0, 0, 0, 0), 1.0),
        ((0, 0, 0, 0, 0, 1), 1.25),
        ((3, 2, 0, 0, 0, 0), 2.69444),
        ((0, 0, 0, 0, 1, 2), 2.75136),
    ],
)
def test_effective_pip_count_vectors(home: tuple[int, ...], rolls: float) -> None:
    """Spec section 10.2: expected rolls to bear off x 294/36."""
    pytest.importorskip("gnubg_nn")
    side = (15 - sum(home), *home, *([0] * 19))
    assert effective_pip_count(side) == pytest.approx(rolls * 294 / 36, abs=2e-3)


def test_effective_pip_count_only_for_bear_offs() -> None:
    assert effective_pip_count(Position.initial().board[0]) is None


# ---------------------------------------------------------------------- shipped tables


@pytest.mark.parametrize("name", MET_NAMES)
def test_every_shipped_table_reads(name: str) -> None:
    table = shipped_met(name)
    assert table.length in (15, 24, 25)
    n = table.length
    for away in range(1, n + 1):
        for opp in range(1, n + 1):
            assert 0 < table.mwc(away, opp) < 1
            if away < n:  # needing a point more never helps
                assert table.mwc(away + 1, opp) <= table.mwc(away, opp) + 1e-9
            if not name.startswith("jac0") and not name.startswith("jac1"):
                # (jac050 and jac100 make player 0 the favourite; the published tables
                # are rounded to three decimals)
                assert table.mwc(away, opp) + table.mwc(opp, away) == pytest.approx(1, abs=2.5e-3)
    assert met_name(name.upper() + ".xml") == name


@pytest.mark.skipif(not Path("/usr/share/gnubg/met").is_dir(), reason="Debian's gnubg not here")
@pytest.mark.parametrize("name", MET_NAMES[1:])
def test_shipped_tables_are_debians_files(name: str) -> None:
    """Provenance: copied unchanged from Debian's gnubg (Kazaross-XG2 from the PyPI one)."""
    assert (
        met_path(name).read_bytes() == (Path("/usr/share/gnubg/met") / f"{name}.xml").read_bytes()
    )


def test_unknown_table_names_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"no match equity table 'zadeh': choose one of Kaz"):
        met_name("zadeh")
