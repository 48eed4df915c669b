"""Issue 28: every record a player has is read, and every fault in it is found.

A line the reader cannot read is an error at that line, and the rest of the file is read
and verified; after an illegal play the game goes on from the position the record
describes, so each later fault is found once; other writers' conventions are no faults.
The records are small fixtures written from the descriptions of real records (see
``data/SOURCES.md``): ``data/faults/`` for the faults, ``data/conventions/`` for the
conventions.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from bgkit.cli import main
from bgkit.formats import read_match
from bgkit.formats.mat import parse_mat
from bgkit.play import BAR, OFF, Play, Step
from bgkit.records import Match, Move
from bgkit.replay import replay
from bgkit.verify import CONVENTIONS, Issue, IssueKind, Report, verify

DATA = Path(__file__).resolve().parent.parent / "data"
FIXTURES = DATA / "fixtures"
FAULTS = DATA / "faults"
CONVENTION_RECORDS = DATA / "conventions"


def report_of(path: Path) -> Report:
    return verify(read_match(path))


def where(issue: Issue) -> tuple[int, int, str, str | None]:
    """What a director reads of an issue: line, column, kind and the player's name."""
    return (issue.line, issue.column, issue.kind.value, issue.player_name or None)


def run_verify(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["verify", str(path)])
    return result.exit_code, result.stderr


# ------------------------------------------------------------ one bad line, the rest read


def test_a_line_of_other_text_is_one_error_and_the_rest_is_verified() -> None:
    # game 2 holds "Illegal play (25;0;1;...)" where three plays were; game 3 an illegal play
    path = FAULTS / "one_bad_line_illegal_play_text.mat"
    match = read_match(path)
    assert [len(g.actions) for g in match.games] == [14, 6, 4]
    report = verify(match)
    assert [where(e) for e in report.errors] == [
        (17, 34, "unreadable-line", "Bob"),
        (24, 6, "illegal-play", "Alice"),
    ]
    assert report.errors[0].message.endswith("found 'Illegal'")
    assert (
        report.errors[1].message == "illegal play 8/4 6/5 for 31: moves 5 pips, but 31 gives only 4"
    )
    # the game cannot be followed past the line; the next game is scored from its header
    notes = [(n.line, n.kind.value, n.message) for n in report.notes]
    assert notes == [
        (18, "unverified", "4 later action(s) of game 2 not verified: line 17 could not be read"),
        (26, "unfinished-match", "the match stops at 3-0 of 5"),
    ]
    code, err = run_verify(path)
    assert code == 1  # errors, not an unreadable file
    assert err.splitlines()[0] == (
        f"{path}:17:34: error: expected a move line like '  1) 31: 8/5 6/5', a cube action,"
        " 'Wins N points' or 'Game N', found 'Illegal' (game 2, move 2, Bob)"
    )


def test_a_game_whose_result_stands_in_no_column_is_one_error() -> None:
    # game 2 has no rolls and "Wins 1 point" at the start of its line: no column, no action
    report = report_of(FAULTS / "one_bad_line_result_in_no_column.mat")
    assert [where(e) for e in report.errors] == [
        (11, 1, "unreadable-line", None),
        (15, 6, "illegal-play", "Alice"),
    ]
    assert report.errors[0].message == "cannot tell who wins: the result stands in no column"
    # no missing result, no wrong score after it: game 3 is headed 2-0 and scored so
    assert [n.message for n in report.notes] == ["the match stops at 3-0 of 5"]


def test_a_step_away_from_home_is_an_illegal_play_of_the_player() -> None:
    path = FAULTS / "step_away_from_home.mat"
    report = report_of(path)
    (error,) = report.errors
    assert where(error) == (7, 6, "illegal-play", "Alice")
    assert error.message == (
        "illegal play 14/8 15/10 6/8 for 65: 6/8 moves a checker away from its home"
    )
    assert [n.kind for n in report.notes] == [IssueKind.UNFINISHED_MATCH]  # all verified
    code, err = run_verify(path)
    assert code == 1
    assert err.startswith(f"{path}:7:6: error: illegal play 14/8 15/10 6/8 for 65:")


def test_a_resigns_cell_is_read_and_an_illegal_play_before_it_reported_exactly() -> None:
    text = (CONVENTION_RECORDS / "resigns-cell.mat").read_text()
    clean = verify(parse_mat(text))
    assert clean.ok
    assert [(n.kind, n.message) for n in clean.notes] == [
        (IssueKind.RESIGNATION, "game 1 ends by resignation (2 points) at move 5: Bo resigns"),
        (IssueKind.UNFINISHED_MATCH, "the match stops at 2-0 of 5"),
    ]
    faulty = text.replace("8/5 6/5 ", "8/4 6/5 ")
    (error,) = verify(parse_mat(faulty)).errors
    assert where(error) == (9, 6, "illegal-play", "Ann")
    assert error.message == "illegal play 8/4 6/5 for 31: moves 5 pips, but 31 gives only 4"


def test_a_record_of_which_nothing_can_be_read_is_still_unreadable() -> None:
    code, err = run_verify(FIXTURES / "handwritten_3pt_syntax3.mat")
    assert code == 2
    assert "1:4: error: expected 'N point match', found 'pt'" in err


# a valid record of several games in gnubg's layout, and one of a hand-written match
RECORDS = [DATA / "selfplay" / "selfplay_0002.mat", FIXTURES / "handwritten_3pt.mat"]
_MOVE_LINE = re.compile(r"[ \t]*[0-9]+\)")


def _actions_by_line(match: Match) -> set[tuple[int, int, int, object]]:
    return {
        (action.line, action.column, action.player, action)
        for game in match.games
        for action in game.actions
    }


@settings(max_examples=60, deadline=None)
@given(record=st.sampled_from(RECORDS), which=st.integers(0, 10**6), at=st.integers(0, 10**6))
def test_damaging_one_line_costs_that_line_only(record: Path, which: int, at: int) -> None:
    """A character no move line can hold, put anywhere in one move line of a valid record:
    that line is the one error, every other line is read as before."""
    text = record.read_text()
    lines = text.split("\n")
    moves = [i for i, line in enumerate(lines) if _MOVE_LINE.match(line)]
    index = moves[which % len(moves)]
    line = lines[index]
    cut = at % (len(line) + 1)
    lines[index] = line[:cut] + "@" + line[cut:]
    damaged = parse_mat("\n".join(lines), source_name="damaged.mat")
    original = parse_mat(text)
    (fault,) = damaged.read_errors
    assert fault.line == index + 1 and 1 <= fault.column <= cut + 1
    kept = {a for a in _actions_by_line(original) if a[0] != index + 1}
    assert _actions_by_line(damaged) == kept
    assert [(g.number, g.score) for g in damaged.games] == [
        (g.number, g.score) for g in original.games
    ]
    lost = [
        (a.result, b.result)
        for a, b in zip(original.games, damaged.games, strict=True)
        if a.result != b.result
    ]  # (a result written on the damaged line is that line's too: its only cost)
    assert lost == [] or ("Wins" in line and len(lost) == 1 and lost[0][1] is None)
    # the verifier reports it at its place, with the game's later actions unverified
    issues = verify(damaged).issues
    unread = [i for i in issues if i.kind is IssueKind.UNREADABLE_LINE]
    assert [(i.line, i.column) for i in unread] == [(fault.line, fault.column)]
    assert not [i for i in verify(damaged).errors if i.kind is not IssueKind.UNREADABLE_LINE]


def test_replay_stops_at_a_line_that_could_not_be_read() -> None:
    match = read_match(FAULTS / "one_bad_line_illegal_play_text.mat")
    with pytest.raises(Exception, match=r"17:34: the line could not be read"):
        list(replay(match))


# ------------------------------------------------------------- every illegal play found


def test_three_illegal_plays_in_one_game_are_three_errors() -> None:
    report = report_of(FAULTS / "three_illegal_plays.mat")
    assert [where(e) for e in report.errors] == [
        (5, 6, "illegal-play", "Alice"),
        (6, 34, "illegal-play", "Bob"),
        (8, 6, "illegal-play", "Alice"),
    ]
    assert [e.message for e in report.errors] == [
        "illegal play 8/4 6/5 for 31: moves 5 pips, but 31 gives only 4",
        "illegal play 13/8 13/9 for 53: 13/9 is not a move of the roll 53",
        "illegal play 13/10 13/8 for 43: 13/8 is not a move of the roll 43",
    ]
    # the game was followed to its end: no action left unverified
    assert [n.kind for n in report.notes] == [IssueKind.UNFINISHED_MATCH]


def test_a_play_that_cannot_be_made_as_written_still_ends_the_game_replay() -> None:
    # no checker on the 5-point: the record describes no position to go on from
    text = (FAULTS / "three_illegal_plays.mat").read_text().replace("8/4 6/5", "5/1 4/3")
    report = verify(parse_mat(text))
    assert [where(e) for e in report.errors] == [(5, 6, "illegal-play", "Alice")]
    assert report.notes[0].kind is IssueKind.UNVERIFIED


# ------------------------------------------------------------------ writers' conventions


def test_a_money_session_ended_with_and_the_match_is_clean() -> None:
    report = report_of(CONVENTION_RECORDS / "money-and-the-match.mat")
    assert report.ok
    assert {n.kind for n in report.notes} == {IssueKind.RESIGNATION}


def test_and_the_match_on_a_money_game_before_the_last_is_an_error_at_its_result() -> None:
    text = (CONVENTION_RECORDS / "money-and-the-match.mat").read_text()
    text = text.replace("      Wins 1 point\n", "      Wins 1 point and the match\n", 1)
    (error,) = verify(parse_mat(text)).errors
    assert (error.kind, error.line, error.column, error.move) == (IssueKind.MATCH_END, 8, 7, 1)


def test_a_record_that_ends_with_a_roll_is_unfinished_not_a_dance() -> None:
    report = report_of(CONVENTION_RECORDS / "record-ends-after-a-roll.mat")
    assert report.ok
    assert [(n.line, n.column, n.kind, n.player_name) for n in report.notes] == [
        (10, 34, IssueKind.UNVERIFIABLE, "Bo"),
        (10, 34, IssueKind.UNFINISHED_MATCH, ""),
    ]
    assert report.notes[0].message == (
        "the record ends with the roll 62 and no play (the game goes on after the record)"
    )


def test_a_roll_without_a_play_before_the_end_is_still_a_dance() -> None:
    text = (CONVENTION_RECORDS / "record-ends-after-a-roll.mat").read_text()
    text += "  4) 43: 13/9 13/10\n"
    (error,) = verify(parse_mat(text)).errors
    assert where(error) == (10, 34, "illegal-dance", "Bo")


def test_a_record_resuming_a_match_after_the_crawford_game_may_double() -> None:
    report = report_of(CONVENTION_RECORDS / "resumed-after-crawford.mat")
    assert report.ok
    note = report.notes[0]
    assert (note.line, note.column, note.kind, note.player_name) == (
        9,
        35,
        IssueKind.CONVENTION,
        "Bo",
    )
    assert note.message == (
        "the record starts at 6-5 of 7 and game 9 has a double: the Crawford game was"
        " played before the record starts (a record that resumes a match)"
    )


def test_a_double_at_6_0_is_still_in_the_crawford_game() -> None:
    # the leader reached 6 in the game before: this one is the Crawford game
    text = (CONVENTION_RECORDS / "resumed-after-crawford.mat").read_text()
    (error,) = verify(parse_mat(text.replace("Bo : 5", "Bo : 0"))).errors
    assert where(error) == (9, 35, "cube-action", "Bo")
    assert error.message == "cannot double: no doubling in the Crawford game"


@pytest.mark.parametrize("points", [100, 16])
def test_a_forfeit_written_as_a_sites_fixed_value_is_a_note(points: int) -> None:
    text = (CONVENTION_RECORDS / "forfeit-fixed-value.mat").read_text()
    report = verify(parse_mat(text.replace("Wins 100", f"Wins {points}")))
    assert report.ok
    (note,) = report.notes
    assert (note.kind, note.line, note.column, note.player_name) == (
        IssueKind.FORFEIT,
        9,
        35,
        "ann",
    )
    assert note.message == (
        f"match forfeited at 2-1: ann leaves in game 4, bo is credited {points} points"
        " (the 6 needed)"
    )


@pytest.mark.parametrize(
    "name",
    [
        "resigns-cell",
        "money-and-the-match",
        "record-ends-after-a-roll",
        "resumed-after-crawford",
        "forfeit-fixed-value",
    ],
)
def test_each_convention_is_named_and_has_its_record(name: str) -> None:
    assert (CONVENTION_RECORDS / f"{name}.mat").is_file()
    assert name in CONVENTIONS
    readme = (DATA.parent / "README.md").read_text()
    assert f"`{name}`" in readme


def test_moves_are_what_was_written() -> None:
    # (the reader keeps a step away from home as written, for the verifier)
    move = read_match(FAULTS / "step_away_from_home.mat").games[0].actions[4]
    assert isinstance(move, Move) and str(move.play) == "15/10 14/8 6/8"


def test_a_game_line_that_cannot_be_read_is_one_error_for_its_game() -> None:
    # the game it starts is lost with it (its score line tells that it was a Game line)
    text = (FAULTS / "one_bad_line_illegal_play_text.mat").read_text()
    text = text.replace(" Game 2\n", " Gme 2\n")
    report = verify(parse_mat(text, source_name="x.mat"))
    assert [where(e) for e in report.errors] == [
        (14, 2, "unreadable-line", None),
        (24, 6, "illegal-play", "Alice"),  # game 3, scored from its own header
    ]
    assert [g.number for g in parse_mat(text).games] == [1, 3]


def test_a_step_that_does_not_move_is_an_illegal_play() -> None:
    # 6/6 in a play of three parts for 65: read as written, it moved nothing and passed
    text = (FAULTS / "step_away_from_home.mat").read_text().replace("6/8  ", "6/6  ")
    (error,) = verify(parse_mat(text)).errors
    assert where(error) == (7, 6, "illegal-play", "Alice")
    assert error.message == "illegal play 14/8 15/10 6/6 for 65: 6/6 does not move the checker"


# ------------------------------------- no fault follows from an illegal play's position


def test_a_dance_forced_only_by_the_legal_reading_of_an_illegal_play_is_a_note() -> None:
    # Alice writes 8/4* 4/6 for 42: made as written her 4-point is empty and Bob could
    # enter with 44; after 8/4* 6/4 (the step the other way round) he dances, as written
    report = report_of(FAULTS / "illegal_play_then_dance.mat")
    assert [where(e) for e in report.errors] == [
        (6, 6, "illegal-play", "Alice"),
        (8, 6, "illegal-play", "Alice"),  # later faults in every reading: still errors
        (8, 34, "illegal-play", "Bob"),
    ]
    assert [e.message for e in report.errors] == [
        "illegal play 8/4* 4/6 for 42: 4/6 moves a checker away from its home",
        "illegal play 13/8 13/10 for 52: 13/10 is not a move of the roll 52",
        "illegal play 13/11 6/4 for 21: moves 4 pips, but 21 gives only 3",
    ]
    follows = [n for n in report.notes if n.kind is IssueKind.FOLLOWS_FAULT]
    assert [where(n) for n in follows] == [(6, 34, "follows-fault", "Bob")]
    assert follows[0].message == (
        "no move recorded for 44, but 23 plays were possible, such as bar/21 13/9(3),"
        " bar/21 13/5 13/9, bar/21 13/9(2) 8/4, if Alice's illegal play 8/4* 4/6 at 6:6 was"
        " made as written; not if it was 8/4* 6/4: not counted as a fault"
    )
    # the game is followed to its end: no action left unverified
    assert IssueKind.UNVERIFIED not in {n.kind for n in report.notes}
    assert report.actions_checked == 8


def test_a_later_fault_in_every_reading_is_an_error_at_its_place() -> None:
    # Bob moves on with a checker on the bar: illegal whether Alice's play was 8/4* 4/6
    # or 8/4* 6/4, so it is his fault, reported at his play
    text = (FAULTS / "illegal_play_then_dance.mat").read_text().replace("44:", "44: 6/2 6/2")
    report = verify(parse_mat(text))
    assert [where(e) for e in report.errors] == [
        (6, 6, "illegal-play", "Alice"),
        (6, 34, "illegal-play", "Bob"),
        (8, 6, "illegal-play", "Alice"),
        (8, 34, "illegal-play", "Bob"),
    ]
    assert report.errors[1].message == (
        "illegal play 6/2 6/2 for 44: a checker on the bar must enter first: 6/2 is not allowed"
    )
    assert IssueKind.FOLLOWS_FAULT not in {n.kind for n in report.notes}


def test_a_roll_after_a_bear_off_made_only_as_written_is_a_note() -> None:
    # Ann bears off both checkers with 51 (6/off 1/off): made as written the game is over
    # and Bo's roll comes after its end; after 6/1 1/off it goes on, as the record does
    report = report_of(FAULTS / "illegal_bear_off.mat")
    assert [where(e) for e in report.errors] == [(8, 6, "illegal-play", "Ann")]
    assert [(n.line, n.column, n.kind.value, n.player_name) for n in report.notes] == [
        (8, 34, "follows-fault", "Bo"),
        (10, 7, "unfinished-match", ""),
    ]
    assert report.notes[0].message == (
        "a roll after the game had ended: it follows Ann's bear-off on line 8, if Ann's"
        " illegal play 6/off 1/off at 8:6 was made as written; not if it was 6/1 1/off:"
        " not counted as a fault"
    )


def test_a_result_that_fits_only_the_legal_reading_is_a_note() -> None:
    # the record stops after the illegal bear-off: "Wins 2 points" is no single game won,
    # as written, but Bo's resignation of a gammon with Ann's last checker on her 1-point
    lines = (FAULTS / "illegal_bear_off.mat").read_text().splitlines()
    text = "\n".join([*lines[:7], "  1) 51: 6/off 1/off", "      Wins 2 points", ""])
    report = verify(parse_mat(text))
    assert [where(e) for e in report.errors] == [(8, 6, "illegal-play", "Ann")]
    assert [(n.line, n.kind.value) for n in report.notes][:2] == [
        (9, "follows-fault"),
        (9, "resignation"),
    ]
    assert report.notes[0].message.startswith(
        "the game is worth 1 point(s) (single game, cube 1), not 2, if Ann's illegal play"
    )


def test_three_illegal_plays_that_change_the_board_are_three_errors_and_no_note() -> None:
    # each of the fixture's plays has legal readings near it: the record rules them out
    # silently, and every later play is checked
    report = report_of(FAULTS / "three_illegal_plays.mat")
    assert len(report.errors) == 3
    assert IssueKind.FOLLOWS_FAULT not in {n.kind for n in report.notes}


def test_a_point_written_wrong_costs_one_error() -> None:
    # Bob's 42 written 8/4 6/3 (for 8/4 6/4): made as written his checker on 3 changed
    # four later plays into faults; the legal play with that one point right goes on
    text = (FIXTURES / "handwritten_3pt.mat").read_text().replace("42: 8/4 6/4", "42: 8/4 6/3")
    report = verify(parse_mat(text))
    assert [where(e) for e in report.errors] == [(5, 34, "illegal-play", "Bob")]
    assert (
        report.errors[0].message == "illegal play 8/4 6/3 for 42: 6/3 is not a move of the roll 42"
    )


def test_after_a_play_that_cannot_be_made_as_written_later_faults_are_found() -> None:
    # Bob's 66 lands on a made point (18/12): the game goes on from the legal play of the
    # points it names, and Alice's later wrong play is found at its place
    text = (FIXTURES / "handwritten_3pt_illegal1.mat").read_text()
    text = text.replace("21: 24/22 6/5", "21: 24/21 6/5")
    report = verify(parse_mat(text))
    assert [where(e) for e in report.errors] == [
        (8, 34, "illegal-play", "Bob"),
        (9, 6, "illegal-play", "Alice"),
    ]
    assert report.errors[1].message == (
        "illegal play 24/21 6/5 for 21: moves 4 pips, but 21 gives only 3"
    )


def _one_fault(match: Match, game: int, index: int, kind: str, step: int) -> Match:
    """``match`` with one play of game ``game`` changed as a transcriber might: one step
    written the wrong way round, or one point written one lower."""
    old = match.games[game]
    action = old.actions[index]
    assert isinstance(action, Move) and action.play is not None
    steps = list(action.play.steps)
    s = steps[step]
    if kind == "reverse" and s.dst != OFF and s.src != BAR:
        steps[step] = Step(s.dst, s.src)
    else:
        steps[step] = Step(s.src, max(OFF, s.dst - 1))
    actions = list(old.actions)
    actions[index] = replace(action, play=Play(steps))
    games = list(match.games)
    games[game] = replace(old, actions=tuple(actions))
    return replace(match, games=tuple(games))


@pytest.mark.parametrize("name", ["selfplay_0002.mat", "selfplay_0003.mat"])
def test_one_transcription_fault_is_one_error_at_its_place(name: str) -> None:
    """Each play of two clean gnubg records, in turn, changed as a transcriber might: the
    verifier reports that play (when the change breaks a rule) and nothing else. Made as
    written, the change left a checker where the player had none; 1 in 3 such changes
    then gave later errors of plays that were right (measured on 1,095 changes of 45
    records: 355 before the legal readings, 2 with them)."""
    match = read_match(DATA / "selfplay" / name)
    assert verify(match).ok
    tried = 0
    for g, game in enumerate(match.games):
        for i, action in enumerate(game.actions):
            if not isinstance(action, Move) or not action.play or len(action.play.steps) < 2:
                continue
            kind = ("reverse", "lower")[i % 2]
            faulty = _one_fault(match, g, i, kind, i % len(action.play.steps))
            report = verify(faulty)
            tried += 1
            elsewhere = [
                str(e) for e in report.errors if (e.line, e.column) != (action.line, action.column)
            ]
            assert not elsewhere, (str(action.play), kind, elsewhere)
    assert tried > 100


# ------------------------------------------- a roll recorded with no move, a play lost


def test_a_lost_play_is_one_error_naming_the_plays_and_the_game_goes_on() -> None:
    # a real record (Dueller, gnubg v BGBlitz) whose gnubg's "12: 25/24 9/7" is written
    # with no move: made as written gnubg stays on the bar, and ten of his later plays
    # were errors (seven actions not verified); the record's next plays show the play
    # that was lost, which the error names first, and the game is followed in it
    report = report_of(FAULTS / "lost_play.mat")
    assert [where(e) for e in report.errors] == [(27, 6, "illegal-dance", "gnubg")]
    assert report.errors[0].message == (
        "no move recorded for 12, but 5 plays were possible, such as bar/24 9/7,"
        " bar/24 6/4, bar/24 5/3"
    )
    assert [where(n) for n in report.notes] == [(28, 6, "follows-fault", "gnubg")]
    assert report.notes[0].message == (
        "illegal play 13/7 9/4 for 56: no legal play with 56: the player must pass, but"
        " 13/7 9/4 was played, if gnubg's 12 at 27:6 was not played (as recorded); not if"
        " it was played bar/24 9/7: not counted as a fault"
    )
    assert report.actions_checked == 55  # every action of the record


def test_a_later_fault_after_a_lost_play_is_an_error_at_its_place() -> None:
    # "13/9 6/3" for 24 is a fault in every reading of the lost play
    text = (FAULTS / "lost_play.mat").read_text()
    text = text.replace(" 16) 24: 13/9 6/4 ", " 16) 24: 13/9 6/3 ")
    report = verify(parse_mat(text))
    assert [where(e) for e in report.errors] == [
        (27, 6, "illegal-dance", "gnubg"),
        (29, 6, "illegal-play", "gnubg"),
    ]
    assert IssueKind.UNVERIFIED not in {n.kind for n in report.notes}
    assert report.actions_checked == 55


def test_a_dance_error_names_the_plays_there_were() -> None:
    # Bo's 62 written with no play: 21 plays were possible; Ann's next roll fits after
    # each, so they are named in the move generator's order
    text = (CONVENTION_RECORDS / "record-ends-after-a-roll.mat").read_text()
    text += "  4) 43: 13/9 13/10\n"
    report = verify(parse_mat(text))
    (error,) = report.errors
    assert where(error) == (10, 34, "illegal-dance", "Bo")
    assert error.message == (
        "no move recorded for 62, but 21 plays were possible, such as 24/16, 24/18 10/8, 24/18 8/6"
    )
    assert error.position is not None and len(error.position.legal_results()) == 21
    assert IssueKind.FOLLOWS_FAULT not in {n.kind for n in report.notes}


def test_rolls_written_without_their_plays_are_each_one_error() -> None:
    # every play of a clean gnubg record erased (dice alone): each roll that had a play
    # is one error; the record goes on from its own position no further in any play
    # there was, so no game is followed in them (the work stays that of the rolls)
    text = (DATA / "selfplay" / "selfplay_0001.mat").read_text()
    bare = re.sub(
        r"([1-6][1-6]:)((?: (?![1-6][1-6]:)[0-9a-z/*()]+)+)", lambda m: m[1] + " " * len(m[2]), text
    )
    match = parse_mat(bare)
    assert not match.read_errors
    report = verify(match)
    assert {e.kind for e in report.errors} == {IssueKind.ILLEGAL_DANCE}
    assert len({(e.line, e.column) for e in report.errors}) == len(report.errors) == 79
    assert report.actions_checked == sum(len(g.actions) for g in match.games)
    assert IssueKind.FOLLOWS_FAULT not in {n.kind for n in report.notes}
