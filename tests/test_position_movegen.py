"""bgkit's legal-play generator against an independent oracle, GNU Backgammon's.

* the perft table ``data/perft.txt`` (counts by gnubg's move generator, written by
  ``make_perft.py``): bgkit's count and its set of resulting boards must equal gnubg's;
* a differential test over positions from random games (``BGKIT_DIFF_POSITIONS``
  positions, 3000 by default, times all 21 rolls);
* hypothesis properties of ``legal_plays``/``apply``/``resolve``/``explain``
  (``BGKIT_PROPERTY_EXAMPLES`` examples each, 150 by default);
* one named test per rule of the "Moving" and "Bearing off" sections of
  ``shared/specs/rules.md``, with the exact plays and the exact explanation of an
  illegal play.
"""

from __future__ import annotations

import functools
import itertools
import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from gnubg_oracle import (
    PARKED,
    RACING_OPP,
    ROLLS,
    Board,
    GamePosition,
    bgkit_results,
    board_from_id,
    board_of,
    game_position,
    gnubg_dice_used,
    gnubg_results,
    has_contact,
    layout,
    position_of,
    random_positions,
)
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from strategies import positions as scattered_positions

from bgkit import BAR, OFF, IllegalPlayError, InvalidPositionError, Play, Position, Step
from bgkit.movegen import can_play, play_as_written, realize

PERFT = Path(__file__).parent / "data" / "perft.txt"
DIFF_POSITIONS = int(os.environ.get("BGKIT_DIFF_POSITIONS", "3000"))
DIFF_SEED = 1
PROPERTY_EXAMPLES = int(os.environ.get("BGKIT_PROPERTY_EXAMPLES", "150"))


# ---------------------------------------------------------------------- helpers


def mismatch(board: Board, checkers: int, d1: int, d2: int) -> str | None:
    """``None`` when bgkit and gnubg reach the same boards, else a report of the difference."""
    ours = bgkit_results(position_of(board, checkers), d1, d2)
    theirs = gnubg_results(board, d1, d2)
    if ours == theirs:
        return None
    pos = position_of(board, checkers)
    only_ours = [str(p) for k, p in pos.legal_results(d1, d2).items() if _board(k) in ours - theirs]
    return (
        f"{pos.gnubg_id()} ({checkers} checkers) roll {d1}{d2}: bgkit {len(ours)} plays, "
        f"gnubg {len(theirs)}; only bgkit: {only_ours}; only gnubg: {sorted(theirs - ours)}"
    )


def _board(key: tuple[tuple[int, ...], tuple[int, ...]]) -> Board:
    me, opp = key
    return (opp[1:], me[1:])


def sides(pos: Position, mover: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(mover's side, opponent's side) of ``pos``, for comparing with ``legal_results`` keys."""
    return (pos.board[mover], pos.board[1 - mover])


def at(me: dict[int, int], opp: dict[int, int], d1: int, d2: int) -> Position:
    """A position from point maps in the mover's numbering (see ``layout``), dice rolled."""
    return position_of(layout(me, opp)).with_dice(d1, d2)


def plays(pos: Position) -> set[str]:
    """The legal plays of ``pos`` (dice rolled), as notation; also checked against gnubg."""
    assert pos.dice is not None
    assert bgkit_results(pos, *pos.dice) == gnubg_results(board_of(pos), *pos.dice)
    return {str(p) for p in pos.legal_plays()}


# ---------------------------------------------------------------------- (a) perft


@dataclass(frozen=True)
class PerftCase:
    """One ``id`` block of the perft file."""

    name: str
    position_id: str
    checkers: int
    counts: dict[tuple[int, int], int]


def read_perft(path: Path = PERFT) -> list[PerftCase]:
    """Parse the perft file (``id``/``position``/``checkers``/``roll`` lines, ``#`` comments)."""
    cases: list[PerftCase] = []
    fields: dict[str, str] = {}
    counts: dict[tuple[int, int], int] = {}

    def flush() -> None:
        if fields:
            cases.append(
                PerftCase(fields["id"], fields["position"], int(fields.get("checkers", 15)), counts)
            )

    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word == "id":
            flush()
            fields, counts = {"id": rest}, {}
        elif word == "roll":
            dice, count = rest.split()
            counts[(int(dice[0]), int(dice[1]))] = int(count)
        else:
            fields[word] = rest
    flush()
    return cases


PERFT_CASES = read_perft()


def test_perft_table_is_complete() -> None:
    names = [case.name for case in PERFT_CASES]
    assert len(names) >= 40
    assert len(set(names)) == len(names)
    for case in PERFT_CASES:
        assert set(case.counts) == set(ROLLS), case.name


@pytest.mark.parametrize("case", PERFT_CASES, ids=lambda case: case.name)
def test_perft(case: PerftCase) -> None:
    board = board_from_id(case.position_id)
    pos = position_of(board, case.checkers)
    for (d1, d2), count in case.counts.items():
        assert len(pos.legal_plays(d1, d2)) == count, f"{case.name} roll {d1}{d2}"
        assert len(pos.legal_plays(d2, d1)) == count, f"{case.name} roll {d2}{d1}"
        assert mismatch(board, case.checkers, d1, d2) is None


@pytest.mark.parametrize("case", PERFT_CASES, ids=lambda case: case.name)
def test_perft_position_id_reads_the_same_in_bgkit(case: PerftCase) -> None:
    ours = Position.from_gnubg_id(case.position_id)
    opp, me = board_from_id(case.position_id)
    assert (ours.board[ours.turn][1:], ours.board[ours.opponent][1:]) == (me, opp)


# ---------------------------------------------------------------------- (b) differential


@functools.cache
def diff_sample() -> list[GamePosition]:
    return random_positions(DIFF_POSITIONS, DIFF_SEED)


def test_random_game_positions_match_gnubg() -> None:
    """Every roll of ``DIFF_POSITIONS`` positions from random games: same result sets."""
    problems: list[str] = []
    for gp in diff_sample():
        for d1, d2 in ROLLS:
            problem = mismatch(gp.board, gp.checkers, d1, d2)
            if problem:
                problems.append(problem)
    assert not problems, f"{len(problems)} disagreements, first: " + "\n".join(problems[:5])


def test_random_positions_cover_every_phase() -> None:
    """The differential sample has bar, race, bear-off and hypergammon positions."""
    sample = diff_sample()
    on_bar = sum(1 for gp in sample if gp.board[1][24])
    race = sum(1 for gp in sample if not has_contact(gp.board))
    bearing_off = sum(1 for gp in sample if not any(gp.board[1][6:]))
    hyper = sum(1 for gp in sample if gp.checkers == 3)
    assert on_bar > len(sample) // 10
    assert race > len(sample) // 10
    assert bearing_off > len(sample) // 20
    assert hyper > 0


# ---------------------------------------------------------------------- (c) properties


@st.composite
def bearoffs(draw: st.DrawFn) -> Position:
    """Bear-off positions, rare among scattered layouts: the mover's checkers all home
    or off, sometimes with one straggler (on the bar or outside); the opponent anywhere.
    """
    checkers = draw(st.sampled_from((15, 15, 3)))
    me = [0] * 26
    for p in draw(st.lists(st.integers(OFF, 6), min_size=checkers, max_size=checkers)):
        me[p] += 1
    straggler = draw(st.sampled_from((None, None, BAR, 7, 9, 13)))
    home = [p for p in range(1, 7) if me[p]]
    if straggler and home:
        me[home[0]] -= 1
        me[straggler] += 1
    opp = [0] * 26
    for q in draw(st.lists(st.integers(OFF, BAR), min_size=checkers, max_size=checkers)):
        opp[q if q in (OFF, BAR) or not me[25 - q] else OFF] += 1
    turn = draw(st.integers(0, 1))
    board = (tuple(me), tuple(opp)) if turn == 0 else (tuple(opp), tuple(me))
    try:
        return Position(board, turn=turn, checkers=checkers)
    except InvalidPositionError:  # both on the bar against closed boards
        assume(False)
        raise


def positions() -> st.SearchStrategy[Position]:
    """Positions from random games, scattered layouts (any match state) and bear-offs."""
    from_games = st.builds(
        lambda seed, turn: game_position(seed).position(turn=turn),
        st.integers(0, 2**32 - 1),
        st.integers(0, 1),
    )
    return st.one_of(from_games, scattered_positions(checkers=None), bearoffs())


rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))
properties = settings(
    max_examples=PROPERTY_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def dice_fit(steps: tuple[Step, ...], dice: list[int]) -> bool:
    """The steps can be matched one to one with dice: exact pips, or a bear-off within the die."""
    return any(
        all(s.pips == d or (s.dst == OFF and s.pips < d) for s, d in zip(steps, order, strict=True))
        for order in itertools.permutations(dice, len(steps))
    )


@properties
@given(pos=positions())
def test_the_phase_is_contact_as_gnubgs_board_tells_it(pos: Position) -> None:
    """``phase()`` against the board as gnubg_nn holds it (the player on roll second):
    contact while checkers must still pass, bear-off once the player on roll has all its
    checkers left home, else race."""
    opp, me = board_of(pos)
    if has_contact((opp, me)):
        assert pos.phase() == "contact"
    elif any(me[6:]):
        assert pos.phase() == "race"
    else:
        assert pos.phase() == "bear-off"


@properties
@given(pos=positions(), roll=rolls)
def test_applying_a_legal_play_gives_its_result(pos: Position, roll: tuple[int, int]) -> None:
    rolled = pos.with_dice(*roll)
    results = rolled.legal_results()
    # legal_plays: the same plays, their steps in the order str writes them
    assert rolled.legal_plays() == [play.ordered() for play in results.values()]
    for key, play in results.items():
        after = rolled.apply(play)
        assert sides(after, pos.turn) == key, str(play)
        assert after.turn == pos.opponent
        assert sides(rolled.apply(play.ordered()), pos.turn) == key, str(play)
    if not results:
        passed = rolled.apply(Play())
        assert passed.board == pos.board
        assert passed.turn == pos.opponent


@properties
@given(pos=positions(), roll=rolls)
def test_legal_plays_use_the_most_dice(pos: Position, roll: tuple[int, int]) -> None:
    d1, d2 = roll
    most = gnubg_dice_used(board_of(pos), d1, d2)
    dice = [d1] * 4 if d1 == d2 else [d1, d2]
    for play in pos.legal_plays(d1, d2):
        assert len(play.steps) == most, str(play)
        assert dice_fit(play.steps, dice), str(play)


@properties
@given(pos=positions(), roll=rolls)
def test_whether_a_roll_can_be_played_is_gnubgs_answer(
    pos: Position, roll: tuple[int, int]
) -> None:
    """can_play (the verifier's look past a recorded dance) says what gnubg says: some
    die can be used, without generating the plays."""
    d1, d2 = roll
    me, opp = pos.board[pos.turn], pos.board[pos.opponent]
    assert can_play(me, opp, d1, d2) == (gnubg_dice_used(board_of(pos), d1, d2) > 0)
    assert can_play(me, opp, d1, d2) == bool(pos.legal_results(d1, d2))


@properties
@given(pos=positions(), roll=rolls)
def test_resolving_the_notation_of_a_legal_play(pos: Position, roll: tuple[int, int]) -> None:
    rolled = pos.with_dice(*roll)
    for key, play in rolled.legal_results().items():
        text = str(play)
        assert rolled.explain(text) is None, text
        assert sides(rolled.apply(rolled.resolve(text)), pos.turn) == key, text


@properties
@given(pos=positions(), roll=rolls, data=st.data())
def test_an_altered_legal_play_is_explained(
    pos: Position, roll: tuple[int, int], data: st.DataObject
) -> None:
    rolled = pos.with_dice(*roll)
    results = rolled.legal_results()
    me = pos.board[pos.turn]
    if results:
        play = data.draw(st.sampled_from(list(results.values())))
        i = data.draw(st.integers(0, len(play.steps) - 1))
        old = play.steps[i]
        changes = [Step(old.src, d) for d in range(old.src) if d != old.dst]
        changes += [Step(s, old.dst) for s in range(old.dst + 1, 26) if s != old.src]
        steps = list(play.steps)
        steps[i] = data.draw(st.sampled_from(changes))
        altered = Play(steps)
    else:
        occupied = [p for p in range(1, 26) if me[p]]
        assume(occupied)
        src = data.draw(st.sampled_from(occupied))
        altered = Play([Step(src, max(src - roll[0], OFF))])
    mine = list(me)
    for s in altered.steps:
        mine[s.src] -= 1
        mine[s.dst] += 1
    assume(tuple(mine) not in {mover for mover, _ in results})
    reason = rolled.explain(altered)
    assert isinstance(reason, str) and reason.strip(), str(altered)
    with pytest.raises(IllegalPlayError) as err:
        rolled.apply(altered)
    assert err.value.reason == reason


@properties
@given(pos=positions(), roll=rolls, data=st.data())
def test_the_as_written_fast_path_agrees_with_the_full_search(
    pos: Position, roll: tuple[int, int], data: st.DataObject
) -> None:
    """play_as_written (the verifier's fast path) only ever answers what realize and
    generate would: a legal result, the one literal result, with the same hops."""
    rolled = pos.with_dice(*roll)
    me, opp = pos.board[pos.turn], pos.board[pos.opponent]
    results = rolled.legal_results()
    assume(results)
    play = data.draw(st.sampled_from(list(results.values())))
    steps = list(data.draw(st.permutations(play.steps)))
    if data.draw(st.booleans()):  # sometimes an altered, probably illegal step
        i = data.draw(st.integers(0, len(steps) - 1))
        src = data.draw(st.integers(1, 25))
        steps[i] = Step(src, max(src - data.draw(st.sampled_from(roll)), OFF))
    written = Play(steps)
    fast = play_as_written(me, opp, *roll, written)
    literal = realize(me, opp, *roll, written)
    if fast is None:
        return
    key, hops = fast
    assert key in results, str(written)
    assert literal == {key: hops}, str(written)


# ---------------------------------------------------------------------- (d) the rules
#
# Positions are written as {point: checkers} from the mover's side for both players
# (25 = bar); checkers not placed are borne off. Parking 14 checkers on the mover's
# 1-point (PARKED) leaves one free checker: they cannot move while it is outside home.

OPENING_ME = {24: 2, 13: 5, 8: 3, 6: 5}
OPENING_OPP = {1: 2, 12: 5, 17: 3, 19: 5}
CLOSED_BOARD = {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2, 12: 3}


def test_rule_each_die_is_a_separate_move() -> None:
    """Moving: one checker using both dice must stop on an open intermediate point."""
    pos = at({24: 1, 8: 1, 1: 13}, {18: 2}, 6, 3)  # 24/18 is blocked, 24/21 is open
    assert "24/15" in plays(pos)
    assert pos.resolve("24/15").steps == (Step(24, 21), Step(21, 15))
    both_blocked = at({24: 1, 8: 1, 1: 13}, {18: 2, 21: 2}, 6, 3)
    assert "24/15" not in plays(both_blocked)
    assert both_blocked.explain("24/15") == (
        "blocked: 24/18 lands on a point held by 2 opposing checkers"
    )


def test_rule_doubles_are_played_four_times() -> None:
    """Moving: 5-5 is four moves of 5."""
    pos = at(OPENING_ME, OPENING_OPP, 5, 5)
    assert plays(pos) == {"13/8(4)", "13/3 13/8(2)", "13/3(2)", "13/3 8/3(2)"}
    assert all(len(play.steps) == 4 for play in pos.legal_plays())
    assert pos.explain("13/8(2)") == "must play all four 5s: 13/8 13/8 13/8 13/8 was possible"


def test_rule_no_landing_on_a_made_point() -> None:
    """Moving: never land on a point held by two or more opposing checkers."""
    pos = at(OPENING_ME, OPENING_OPP, 5, 1)
    assert plays(pos) == {
        "24/23 13/8",
        "13/7",
        "13/8 6/5",
        "24/23 8/3",
        "8/7 8/3",
        "8/3 6/5",
        "8/2",
        "24/18",
    }
    assert pos.explain("6/1 24/23") == "blocked: 6/1 lands on a point held by 2 opposing checkers"


def test_rule_a_hit_blot_goes_to_the_bar() -> None:
    """Moving: landing on a single opposing checker hits it; it must then enter first."""
    pos = at(OPENING_ME, {1: 2, 12: 5, 17: 3, 19: 4, 20: 1}, 4, 1)
    assert plays(pos) == {
        "24/23 24/20*",
        "24/20* 8/7",
        "24/20* 6/5",
        "24/23 13/9",
        "24/23 8/4",
        "24/23 6/2",
        "13/9 8/7",
        "13/9 6/5",
        "13/8",
        "8/7 8/4",
        "8/7 6/2",
        "8/4 6/5",
        "8/3",
        "6/5 6/2",
    }
    after = pos.apply("24/20* 6/5")
    assert after.board[1][BAR] == 1  # the opponent (player 1) is on the bar
    assert after.board[0][20] == 1
    assert after.with_dice(6, 4).explain("13/7 13/9") == (
        "a checker on the bar must enter first: 13/7 is not allowed"
    )


def test_rule_enter_from_the_bar_first() -> None:
    """Moving: checkers on the bar enter (die n on the 25-n point) before anything else."""
    pos = at({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 4, 17: 3, 19: 5, 20: 1}, 6, 4)
    assert plays(pos) == {"bar/21 24/18", "bar/15", "bar/21 13/7", "bar/21 8/2"}
    assert pos.explain("13/7 13/9") == "a checker on the bar must enter first: 13/7 is not allowed"
    assert pos.explain("bar/19 13/9") == (
        "blocked: bar/19 lands on a point held by 5 opposing checkers"
    )


def test_rule_dance_against_a_closed_board() -> None:
    """Moving: no checker can enter, so the whole roll is forfeited."""
    pos = at({25: 1, 13: 5, 8: 4, 6: 5}, CLOSED_BOARD, 6, 1)
    assert plays(pos) == set()
    assert pos.explain("bar/19") == (
        "no legal play with 61: the player must pass, but bar/19 was played"
    )
    assert pos.apply(Play()).turn == pos.opponent
    assert pos.explain("") is None
    assert pos.resolve("") == Play()


def test_rule_use_both_dice_when_possible() -> None:
    """Must-play rule 1: 24/18 is a legal 6, but then no 5 can be played."""
    pos = at({24: 1, 20: 1, 1: 13}, {15: 2, 13: 2}, 6, 5)
    assert plays(pos) == {"24/19 20/14", "20/9"}
    assert pos.explain("24/18") == "must use both dice: 20/14 24/19 was possible"


def test_rule_the_higher_die_when_only_one_can_be_played() -> None:
    """Must-play rule 2: 24/18 or 24/19, never both (13 is made): the 6 must be played."""
    pos = at({24: 1, **PARKED}, {13: 2}, 6, 5)
    assert plays(pos) == {"24/18"}
    assert pos.explain("24/19") == "the higher die (6) must be played: 24/18 was possible"
    only_lower = at({24: 1, **PARKED}, {18: 2, 13: 2}, 6, 5)  # the 6 is blocked
    assert plays(only_lower) == {"24/19"}


def test_rule_compulsory_order() -> None:
    """Must-play rule 3: the 4 can be played only after the 6 (20/16 is blocked)."""
    pos = at({20: 1, **PARKED}, {16: 2}, 6, 4)
    assert plays(pos) == {"20/10"}
    assert pos.resolve("20/10").steps == (Step(20, 14), Step(14, 10))
    assert pos.explain("20/16") == "blocked: 20/16 lands on a point held by 2 opposing checkers"
    assert pos.explain("20/14") == "must use both dice: 20/14 14/10 was possible"
    # plays are judged by their result (Position.resolve): a path written through the
    # blocked point reaches the legal result 20/14/10, so it is accepted
    assert pos.explain("20/16 16/10") is None


def test_rule_doubles_as_many_as_possible() -> None:
    """Must-play rule 1 for doubles: two or three of the four when that is all there is."""
    two = at({24: 1, **PARKED}, {18: 2}, 2, 2)
    assert plays(two) == {"24/20"}
    assert two.explain("24/22") == "must play two 2s: 24/22 22/20 was possible"
    three = at({24: 1, **PARKED}, {12: 2}, 3, 3)
    assert plays(three) == {"24/15"}
    assert three.explain("24/18") == "must play three 3s: 24/21 21/18 18/15 was possible"


def test_rule_bear_off_only_when_all_home() -> None:
    """Bearing off: only with all 15 checkers in the home board."""
    pos = at({7: 1, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, RACING_OPP, 6, 5)
    assert plays(pos) == {"7/1 6/1", "7/1 5/off", "7/2 6/off"}
    assert pos.explain("6/off 5/off") == "cannot bear off: a checker is still on the 7-point"


def test_rule_a_hit_checker_comes_home_before_bearing_off() -> None:
    """Bearing off: a checker hit during the bear-off must re-enter and come home first."""
    opp = {24: 2, 23: 1, 21: 2, 20: 2, 19: 3, 17: 2, 12: 3}
    pos = at({25: 1, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2}, opp, 3, 2)
    assert plays(pos) == {
        "bar/22 6/4",
        "bar/22 5/3",
        "bar/22 4/2",
        "bar/22 3/1",
        "bar/23* 6/3",
        "bar/23* 5/2",
        "bar/23* 4/1",
    }
    assert pos.explain("6/off 5/off") == (
        "a checker on the bar must enter first: 6/off is not allowed"
    )


def test_rule_higher_die_bears_off_from_the_highest_point() -> None:
    """Bearing off: a die above the highest point bears off from the highest point."""
    pos = at({4: 2, 3: 3, 2: 1}, RACING_OPP, 6, 5)
    assert plays(pos) == {"4/off(2)"}
    assert pos.explain("4/off 3/off") == (
        "cannot bear off 3/off with a 5: a checker stands on the higher 4-point"
    )


def test_a_larger_die_bearing_off_is_its_own_result_on_the_fast_path() -> None:
    """A play written one step per die that bears off with a larger die (``4/off 2/off``
    with a 6-5, ``5/off(2) 4/off(2)`` with 6-6, as gnubg's .mat export writes them) is
    resolved on the verifier's fast path, to a result gnubg reaches; written from below
    the highest point first, it is left to the full search (which finds the same)."""
    cases = [
        ({4: 1, 2: 1, 1: 3}, 6, 5, [Step(4, OFF), Step(2, OFF)]),
        ({4: 1, 2: 1, 1: 3}, 6, 5, [Step(2, OFF), Step(4, OFF)]),  # 2/off first: not fast
        ({5: 2, 4: 2, 3: 1}, 6, 6, [Step(5, OFF), Step(5, OFF), Step(4, OFF), Step(4, OFF)]),
        ({3: 1, 1: 1}, 4, 1, [Step(3, OFF), Step(1, OFF)]),
    ]
    for me, d1, d2, steps in cases:
        pos = at(me, RACING_OPP, d1, d2)
        board = board_of(pos)
        mover, opp = pos.board[pos.turn], pos.board[pos.opponent]
        fast = play_as_written(mover, opp, d1, d2, Play(steps))
        if steps[0] == Step(2, OFF):
            assert fast is None
            after = pos.apply(Play(steps))
            assert (after.board[pos.opponent][1:], after.board[pos.turn][1:]) in gnubg_results(
                board, d1, d2
            )
            continue
        assert fast is not None, steps
        key, play = fast
        assert play == Play(steps)
        assert (key[1][1:], key[0][1:]) in gnubg_results(board, d1, d2)


def test_rule_no_bear_off_from_a_lower_point_while_a_higher_is_held() -> None:
    """Bearing off: with the 6-point held, a 5 or 4 must move a checker inside."""
    pos = at({6: 2, 2: 3, 1: 2}, RACING_OPP, 5, 4)
    assert plays(pos) == {"6/2 6/1"}
    assert pos.explain("2/off 1/off") == (
        "cannot bear off 2/off with a 5: a checker stands on the higher 6-point"
    )


def test_rule_lower_die_first_may_waste_pips() -> None:
    """Bearing off: 61 with one checker on the 6-point: 6/5 5/off is legal."""
    pos = at({6: 1}, RACING_OPP, 6, 1)
    assert plays(pos) == {"6/off"}
    assert pos.explain("6/5 5/off") is None
    assert pos.explain("6/off") is None
    assert pos.resolve("6/5 5/off").steps == (Step(6, 5), Step(5, OFF))
    assert pos.apply("6/5 5/off").game_result() is not None
    two = at({6: 1, 5: 1}, RACING_OPP, 6, 1)  # 6/5 5/off (written 6/off) or 6/off 5/4
    assert plays(two) == {"6/off", "6/off 5/4"}
    assert two.resolve("6/5 5/off").steps == (Step(6, 5), Step(5, OFF))
    assert two.explain("6/5") == "must use both dice: 6/off 5/4 was possible"
