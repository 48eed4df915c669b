"""reports.svg: the SVG board parses, and shows every checker, the cube, dice, pips and arrows."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from strategies import positions

from bgkit import GameState, Play, Position
from bgkit.reports.svg import SvgWrapper, position

NS = {"svg": "http://www.w3.org/2000/svg"}
# player 1 (X) to play 21, a 2-cube owned by player 0, 7-point match (shared/data/real/xg_txt)
REAL = Position.from_xgid("XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10")


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def classes(node: ET.Element) -> list[str]:
    return node.get("class", "").split()


def checkers(root: ET.Element, player: int) -> list[ET.Element]:
    return [
        c
        for c in root.iterfind(".//svg:circle", NS)
        if "checker" in classes(c) and f"p{player}" in classes(c)
    ]


def group(root: ET.Element, name: str) -> list[ET.Element]:
    return [g for g in root.iterfind(".//svg:g", NS) if name in classes(g)]


def texts(node: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in node.iterfind(".//svg:text", NS)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(checkers=None))
def test_every_checker_is_drawn(pos: Position) -> None:
    root = parse(position(pos))
    for player in (0, 1):
        side = pos.board[player]
        on_board = sum(side[1:26])
        assert len(checkers(root, player)) == on_board
        bar = [c for c in checkers(root, player) if "bar" in classes(c)]
        assert len(bar) == side[25]
        off = [r for r in root.iterfind(".//svg:rect", NS) if classes(r) == ["off", f"p{player}"]]
        assert len(off) == side[0]


def test_the_starting_position_has_fifteen_checkers_a_side_and_167_pips() -> None:
    root = parse(position(Position.initial()))
    assert len(checkers(root, 0)) == len(checkers(root, 1)) == 15
    pips = {t.get("class"): "".join(t.itertext()) for t in root.iterfind(".//svg:text", NS)}
    assert pips["pips p0"] == pips["pips p1"] == "pips 167"


def test_pip_counts_names_and_score() -> None:
    root = parse(position(REAL, names=("Ann", "Bo")))
    info = texts(group(root, "info")[0])
    assert "pips 52" in info and "pips 111" in info
    assert "Ann \u00b7 6/7 points" in info
    assert "Bo \u00b7 3/7 points \u00b7 to play" in info


def test_a_stack_of_more_than_five_shows_its_count() -> None:
    pos = Position.from_layout([0] * 5 + [9] + [0] * 19, [2] * 6 + [0] * 19, turn=1)
    root = parse(position(pos))
    counts = [t for t in root.iterfind(".//svg:text", NS) if "count" in classes(t)]
    assert ["".join(c.itertext()) for c in counts] == ["9"]
    ys = sorted(float(c.get("cy", "0")) for c in checkers(root, 0))
    assert len(ys) == 9 and ys[-1] - ys[0] < 5 * 30  # packed into one point's length


def test_cube_centred_owned_offered_crawford_and_cubeless() -> None:
    def cube(pos: Position, **kw: object) -> tuple[list[str], list[str]]:
        root = parse(position(pos, **kw))  # type: ignore[arg-type]
        cubes = [g for g in root.iterfind(".//svg:g", NS) if "cube" in classes(g)]
        return [c.get("class", "") for c in cubes], [t for c in cubes for t in texts(c)]

    assert cube(Position.initial()) == (["cube centred"], ["64"])
    assert cube(REAL) == (["cube owned"], ["2"])
    offered = replace(REAL, dice=None, doubled=True, cube_owner=1)
    assert cube(offered) == (["cube offered"], ["4"])
    crawford = Position.initial(match_length=5, score=(4, 2), crawford=True)
    assert cube(crawford) == ([], [])
    assert "Crawford" in texts(parse(position(crawford)))
    assert cube(replace(Position.initial(), cube_limit=1)) == ([], [])


def test_owned_cube_sits_beside_its_owner() -> None:
    def cube_y(pos: Position, flip: bool) -> float:
        root = parse(position(pos, flip=flip))
        (g,) = group(root, "cube")
        rect = g.find("svg:rect", NS)
        assert rect is not None
        return float(rect.get("y", "0"))

    # REAL's cube belongs to player 0: at the top by default, at the bottom when flipped
    assert cube_y(REAL, flip=False) < cube_y(REAL, flip=True)


@pytest.mark.parametrize("dice", [(2, 1), (6, 6), (5, 3)])
def test_dice_show_their_values(dice: tuple[int, int]) -> None:
    root = parse(position(Position.initial(turn=1).roll(*dice)))
    dice_groups = [g for g in root.iterfind(".//svg:g", NS) if "die" in classes(g)]
    assert [g.get("class") for g in dice_groups] == [f"die d{d}" for d in dice]
    for g, value in zip(dice_groups, dice, strict=True):
        assert len(g.findall("svg:circle", NS)) == value


def test_no_dice_before_the_roll() -> None:
    assert not group(parse(position(Position.initial())), "dice")


def test_flip_puts_player_0_at_the_bottom() -> None:
    def mean_y(svg: str, player: int) -> float:
        ys = [float(c.get("cy", "0")) for c in checkers(parse(svg), player)]
        return sum(ys) / len(ys)

    # at the start 8 of a side's 15 checkers are in its own half: the bottom one for the
    # player drawn at the bottom (player 1 by default, player 0 when flipped)
    plain, flipped = position(Position.initial()), position(Position.initial(), flip=True)
    assert mean_y(plain, 1) > mean_y(plain, 0)
    assert mean_y(flipped, 0) > mean_y(flipped, 1)
    assert mean_y(plain, 1) == mean_y(flipped, 0)


def test_point_numbers_are_the_player_on_rolls() -> None:
    def bottom_right_number(pos: Position, flip: bool = False) -> str:
        root = parse(position(pos, flip=flip))
        labels = [t for t in root.iterfind(".//svg:g[@class='point-numbers']/svg:text", NS)]
        best = max(labels, key=lambda t: (float(t.get("y", "0")), float(t.get("x", "0"))))
        return "".join(best.itertext())

    assert bottom_right_number(Position.initial(turn=1)) == "1"
    assert bottom_right_number(Position.initial(turn=0)) == "24"
    assert bottom_right_number(Position.initial(turn=0), flip=True) == "1"


def test_arrows_one_per_step() -> None:
    rolled = Position.initial().roll(3, 1)
    before = parse(position(rolled, last_play=Play("8/5 6/5")))
    arrows = group(before, "arrow")
    assert len(arrows) == 2
    assert all(a.find("svg:line", NS) is not None for a in arrows)
    assert all(a.find("svg:polygon", NS) is not None for a in arrows)
    after = rolled.apply("8/5 6/5")
    assert len(group(parse(position(after, last_play=Play("8/5 6/5"))), "arrow")) == 2
    assert not group(parse(position(after)), "arrow")
    entering = Position.from_layout([0] * 24 + [1], [2] * 7 + [0] * 18, turn=0).roll(6, 5)
    assert len(group(parse(position(entering, last_play=Play("bar/19 19/14"))), "arrow")) == 2


def test_arrows_point_the_right_way() -> None:
    # player 1 (bottom) plays 24/18 from the top right to the top left: the arrow goes left
    rolled = Position.initial(turn=1).roll(6, 5)
    root = parse(position(rolled, last_play=Play("24/18")))
    (arrow,) = group(root, "arrow")
    line = arrow.find("svg:line", NS)
    assert line is not None
    assert float(line.get("x2", "0")) < float(line.get("x1", "0"))
    assert float(line.get("y1", "0")) < 250  # along the top row


def test_desc_holds_the_ascii_board_and_markup_is_simple() -> None:
    svg = position(REAL, names=("Ann", "Bo"))
    root = parse(svg)
    desc = root.find("svg:desc", NS)
    assert desc is not None and desc.text is not None
    assert "XGID=-B-CBBB---a---A---ABcbbbd-:1:-1:1:21:3:6:0:7:10" in desc.text
    assert "O: Ann (Cube: 2)" in desc.text
    tags = {node.tag.split("}")[1] for node in root.iter()}
    assert tags <= {"svg", "title", "desc", "g", "rect", "circle", "polygon", "line", "text"}
    assert "id=" not in svg


def test_size_and_wrapper() -> None:
    svg = position(Position.initial(), size=274)
    root = parse(svg)
    assert root.get("width") == "274"
    assert root.get("height") == "234"  # 468 x 274 / 548
    assert isinstance(svg, SvgWrapper) and isinstance(svg, str)
    assert svg._repr_svg_() == svg._repr_html_() == str(svg)


def test_finished_game_has_no_one_on_roll() -> None:
    over = replace(
        Position.from_layout([0] * 25, [1] + [0] * 24, turn=1), game_state=GameState.OVER
    )
    info = texts(group(parse(position(over)), "info")[0])
    assert not any("on roll" in t or "to play" in t for t in info)
