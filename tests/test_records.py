"""Tests for bgkit.records: the plain-data match records."""

from __future__ import annotations

import dataclasses

import pytest

from bgkit.errors import InvalidPositionError, NotationError
from bgkit.play import Play
from bgkit.position import Position
from bgkit.records import (
    Beaver,
    Double,
    Drop,
    Game,
    Match,
    Move,
    Raccoon,
    Result,
    Take,
)


def opening_game(number: int = 1, score: tuple[int, int] = (0, 0)) -> Game:
    return Game(
        number,
        score,
        (Move(0, (3, 1), Play("8/5 6/5")), Move(1, (4, 2), Play("8/4 6/4")), Double(0, 2), Drop(1)),
        Result(0, 1),
    )


def test_positions_do_not_take_part_in_equality() -> None:
    a = Move(0, (6, 5), Play("24/13"), line=3, column=6, number=1)
    b = Move(0, (6, 5), Play("24/13"), line=9, column=34, number=4)
    assert a == b and hash(a) == hash(b)
    assert Result(1, 2, line=4) == Result(1, 2, line=8)
    assert Result(1, 2, loser_points=2) == Result(1, 2)
    g1 = dataclasses.replace(opening_game(), line=5)
    assert g1 == opening_game()
    assert Match(("a", "b"), 3, (), source_name="x.mat") == Match(("a", "b"), 3, ())


def test_values_are_compared() -> None:
    assert Move(0, (6, 5), Play("24/13")) != Move(1, (6, 5), Play("24/13"))
    assert Move(0, (6, 5), Play("24/13")) != Move(0, (5, 6), Play("24/13"))
    assert Move(0, (6, 5), Play()) != Move(0, (6, 5), None)
    cube: list[object] = [Double(0, 2), Beaver(0, 2), Raccoon(0, 2), Take(0), Drop(0)]
    assert len(set(cube)) == 5  # same fields, different kinds of action
    assert Result(0, 1) != Result(0, 1, match_won=True)
    assert opening_game() != opening_game(score=(0, 1))
    assert Match(("a", "b"), 3, ()) != Match(("a", "b"), 3, (), tags=(("Site", "x"),))
    assert Match(("a", "b"), 3, ()) != Match(("a", "b"), 3, (), comments=("hi",))


def test_records_are_frozen_and_hashable() -> None:
    move = Move(0, (3, 1), Play("8/5 6/5"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.player = 1  # type: ignore[misc]
    game = opening_game()
    match = Match(("Ann", "Bo"), 3, (game,))
    assert len({match, Match(("Ann", "Bo"), 3, (opening_game(),))}) == 1
    assert {game: 1}[opening_game()] == 1


def test_reprs() -> None:
    assert repr(Move(1, (6, 4), None)) == "Move(player=1, dice=(6, 4), play=None)"
    assert repr(Double(0, 4)) == "Double(player=0, value=4)"
    assert repr(Result(0, 2, True)) == (
        "Result(winner=0, points=2, match_won=True, loser_points=None)"
    )
    assert repr(opening_game()) == "<Game 1 (0-0, 4 actions, player 0 wins 1)>"
    unfinished = Game(2, (1, 0), (), None)
    assert repr(unfinished) == "<Game 2 (1-0, 0 actions, unfinished)>"
    assert repr(Match(("gnubg", "BGBlitz"), 7, (opening_game(),) * 9)) == (
        "<Match ('gnubg' vs. 'BGBlitz', 7-pt, 9 games)>"
    )
    assert repr(Match(("a", ""), 0, ())) == "<Match ('a' vs. '', money, 0 games)>"


def test_game_views() -> None:
    game = opening_game()
    assert game.winner == 0
    assert [m.dice for m in game.moves] == [(3, 1), (4, 2)]
    assert Game(1, (0, 0), (), None).winner is None


def test_match_tags_and_rules() -> None:
    match = Match(
        ("a", "b"),
        0,
        (),
        tags=(("Jacoby", "On"), ("beaver", "on"), ("CubeLimit", "1"), ("Jacoby", "Off")),
    )
    assert match.is_money
    assert match.tag("JACOBY") == "On"  # the first of duplicates, any case
    assert match.tag("Site") is None and match.tag("Site", "?") == "?"
    assert match.jacoby and match.beavers
    assert match.cube_limit == 1
    assert not match.crawford  # money play has no Crawford rule
    plain = Match(("a", "b"), 5, ())
    assert plain.crawford and not plain.jacoby and not plain.beavers
    assert plain.cube_limit == 1024
    assert not Match(("a", "b"), 5, (), tags=(("Crawford", "Off"),)).crawford
    assert Match(("a", "b"), 5, (), tags=(("CubeLimit", "x"),)).cube_limit == 1024


@pytest.mark.parametrize(
    ("value", "variant"),
    [
        (None, "standard"),
        ("Backgammon", "standard"),
        ("NackGammon", "nackgammon"),
        ("HyperGammon", "hypergammon"),
        ("HyperGammon (3)", "hypergammon"),
        ("HyperGammon (2)", "hypergammon-2"),
        ("HyperGammon (1)", "hypergammon-1"),
        ("LongGammon", "longgammon"),
        ("Acey-Deucey", "acey-deucey"),
    ],
)
def test_variant(value: str | None, variant: str) -> None:
    tags = () if value is None else (("Variation", value),)
    assert Match(("a", "b"), 1, (), tags=tags).variant == variant


def test_crawford_game() -> None:
    scores = [(0, 0), (4, 2), (4, 4), (6, 4), (6, 5), (6, 6)]
    games = tuple(Game(i + 1, s, (), None) for i, s in enumerate(scores))
    assert Match(("a", "b"), 7, games).crawford_game() == 3
    assert Match(("a", "b"), 7, games, tags=(("Crawford", "Off"),)).crawford_game() is None
    assert Match(("a", "b"), 7, games[:3]).crawford_game() is None
    # both players 1-away at once: no Crawford game (GNU Backgammon's rule)
    assert Match(("a", "b"), 7, (Game(1, (6, 6), (), None),)).crawford_game() is None


def test_initial_position() -> None:
    games = (opening_game(1, (0, 0)), opening_game(2, (2, 1)), opening_game(3, (2, 2)))
    match = Match(("a", "b"), 3, games)
    first = match.initial_position(0)
    assert first == Position.initial(match_length=3)
    crawford = match.initial_position(games[1])
    assert crawford.crawford and crawford.score == (2, 1)
    after = match.initial_position(2)
    assert not after.crawford and after.post_crawford
    right_first = Game(1, (0, 0), (Move(1, (3, 1), Play("8/5 6/5")),), None)
    assert Match(("a", "b"), 3, (right_first,)).initial_position(0).turn == 1


def test_initial_position_rules_and_variants() -> None:
    money = Match(("a", "b"), 0, (opening_game(),), tags=(("Jacoby", "On"), ("Beaver", "On")))
    pos = money.initial_position(0)
    assert pos.jacoby and pos.beavers and pos.match_length == 0
    cubeless = Match(("a", "b"), 5, (opening_game(),), tags=(("CubeLimit", "1"),))
    assert cubeless.initial_position(0).cube_limit == 1
    nack = Match(("a", "b"), 5, (opening_game(),), tags=(("Variation", "NackGammon"),))
    assert nack.initial_position(0).board == Position.initial(variant="nackgammon").board
    assert nack.initial_position(0).pip_counts() == (194, 194)
    long = Match(("a", "b"), 5, (opening_game(),), tags=(("Variation", "LongGammon"),))
    with pytest.raises(ValueError, match="longgammon"):
        long.initial_position(0)
    over = Match(("a", "b"), 3, (opening_game(1, (3, 0)),))
    with pytest.raises(InvalidPositionError):
        over.initial_position(0)


def test_initial_position_from_set_pos() -> None:
    # player 0: two checkers on its 2-point; player 1: two on its 1-point; 2-cube owned by 1
    game = Game(
        1, (1, 0), (Move(0, (2, 1), Play("2/0 2/1")),), None, setup="--B" + "-" * 21 + "b-/1"
    )
    pos = Match(("a", "b"), 5, (game,)).initial_position(0)
    assert pos.board[0][2] == 2 and pos.board[0][0] == 13
    assert pos.board[1][1] == 2 and pos.board[1][0] == 13
    assert (pos.cube, pos.cube_owner, pos.turn, pos.score) == (2, 1, 0, (1, 0))
    broken = dataclasses.replace(game, setup="xyz")
    with pytest.raises(NotationError):
        Match(("a", "b"), 5, (broken,)).initial_position(0)


def test_to_mat_is_dumps_mat() -> None:
    from bgkit.formats.mat import dumps_mat

    match = Match(("Ann", "Bo"), 3, (opening_game(),))
    assert match.to_mat() == dumps_mat(match)
    assert match.to_mat().startswith(" 3 point match\n\n Game 1\n")
