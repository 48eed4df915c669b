"""One fault, one verdict: one-fault copies of a GNU Backgammon record, and the writers'
conventions that are not faults.

Each test changes one thing in ``data/selfplay/selfplay_0002.mat`` (a 5-point match GNU
Backgammon played against itself: Alice and Bob, five games, resignations, a drop) and
checks that the verifier reports exactly one error, at the line and column of the wrong
token, with its message, or the stated note. ``data/conventions/`` holds small records
written from the descriptions of each writer's convention (see ``data/SOURCES.md``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from bgkit.cli import main
from bgkit.formats import read_match
from bgkit.formats.mat import parse_mat
from bgkit.verify import Issue, IssueKind, Report, Severity, verify

DATA = Path(__file__).resolve().parent.parent / "data"
GNUBG = (DATA / "selfplay" / "selfplay_0002.mat").read_text()
LINES = GNUBG.splitlines()
CONVENTIONS = DATA / "conventions"


def line_of(text: str) -> int:
    """The 1-based number of the first line of the record that contains ``text``."""
    return next(i for i, line in enumerate(LINES, 1) if text in line)


def edited(changes: dict[int, str | None], *, insert: dict[int, str] | None = None) -> str:
    """The record with lines replaced (``None`` deletes) and lines inserted after others."""
    out: list[str] = []
    for number, line in enumerate(LINES, 1):
        new = changes.get(number, line)
        if new is not None:
            out.append(new)
        if insert and number in insert:
            out.append(insert[number])
    return "\n".join(out) + "\n"


def check(text: str) -> Report:
    return verify(parse_mat(text, source_name="fault.mat"))


def one_error(report: Report) -> Issue:
    errors = report.errors
    assert len(errors) == 1, [str(i) for i in report.issues]
    return errors[0]


def at(text: str, line: int, token: str) -> tuple[int, int]:
    """``(line, column)`` of ``token`` on ``line`` of ``text``."""
    return (line, text.splitlines()[line - 1].index(token) + 1)


def test_the_gnubg_record_is_clean() -> None:
    report = check(GNUBG)
    assert report.ok
    assert {i.kind for i in report.issues} == {IssueKind.RESIGNATION}


# ---------------------------------------------------------------------- misses fixed


def test_a_game_with_no_result_followed_by_another() -> None:
    wins = line_of("Wins 2 points")  # game 1 ends by Alice's resignation
    text = edited({wins: None})
    issue = one_error(check(text))  # and no wrong score for game 2
    assert issue.kind is IssueKind.MISSING_RESULT
    assert (issue.line, issue.column) == at(text, wins + 1, "Game 2")
    assert issue.message == "game 1 has no result, but game 2 follows"


def test_an_unfinished_match_is_a_note() -> None:
    game3 = line_of(" Game 3")
    text = "\n".join(LINES[: game3 - 2]) + "\n"
    report = check(text)
    assert report.ok
    note = report.notes[-1]
    assert note.kind is IssueKind.UNFINISHED_MATCH
    assert note.message == "the match stops at 2-2 of 5"
    assert note.severity is Severity.NOTE


def test_a_roll_after_the_result_is_one_error_and_the_file_is_read() -> None:
    wins = line_of("Wins 2 points")
    text = edited({}, insert={wins: " 23) 31: 8/5 6/5"})
    report = check(text)
    issue = one_error(report)
    assert issue.kind is IssueKind.AFTER_RESULT
    assert (issue.line, issue.column) == at(text, wins + 1, "31:")
    assert issue.message == f"a roll after the game's result on line {wins}"
    assert issue.player_name == "Alice"
    assert report.games == 5  # the rest of the file is still checked


def test_a_roll_after_the_result_exits_1_not_2(tmp_path: Path) -> None:
    wins = line_of("Wins 2 points")
    path = tmp_path / "after.mat"
    path.write_text(edited({}, insert={wins: " 23) 31: 8/5 6/5"}))
    result = CliRunner().invoke(main, ["verify", str(path)])
    assert result.exit_code == 1
    assert f"{path}:{wins + 1}:6: error: a roll after the game's result" in result.stderr


def test_a_game_after_the_match_was_won_is_one_error() -> None:
    # a copy of game 2 (it has a double) after game 5 won the match at 6-3
    start, end = line_of(" Game 2"), line_of(" Game 3") - 1
    extra = LINES[start - 1 : end]
    extra[0] = " Game 6"
    extra[1] = " Alice : 6                      Bob : 3"
    text = GNUBG + "\n" + "\n".join(extra) + "\n"
    issue = one_error(check(text))  # no "no doubling in the Crawford game"
    assert issue.kind is IssueKind.MATCH_END
    assert issue.message == "game 6 is played after the match was won in game 5"
    assert (issue.line, issue.column) == at(text, len(LINES) + 2, "Game 6")


def test_a_wrong_result_mid_match_is_one_error() -> None:
    drop = line_of("Drops")  # game 3: Bob's double dropped, "Wins 1 point"
    text = edited({drop: LINES[drop - 1].replace("Wins 1 point", "Wins 2 points")})
    issue = one_error(check(text))  # game 4's header (2-3) stays right
    assert issue.kind is IssueKind.RESULT
    assert (issue.line, issue.column) == at(text, drop, "Wins")
    assert issue.message == "the game is worth 1 point(s) (the double was dropped, cube 1), not 2"


def test_a_roll_instead_of_the_answer_to_a_double() -> None:
    take = line_of("13)  Takes")  # Bob doubled on the line before
    text = edited({take: LINES[take - 1].replace(" Takes", "31: 8/5 6/5")})
    issue = one_error(check(text))
    assert issue.kind is IssueKind.TURN_ORDER
    assert (issue.line, issue.column) == at(text, take, "31:")
    assert issue.message == "Alice rolls without answering Bob's double to 2"
    assert issue.player_name == "Alice"


def test_the_doubler_rolls_before_the_answer() -> None:
    take = line_of("13)  Takes")
    text = edited({take: LINES[take - 1].replace(" Takes", "      ")})
    issue = one_error(check(text))
    assert issue.kind is IssueKind.TURN_ORDER
    assert (issue.line, issue.column) == at(text, take, "41:")
    assert issue.message == "Bob rolls, but Alice has not answered Bob's double to 2"


def test_a_wrong_score_header_points_at_the_wrong_number() -> None:
    header = line_of(" Game 3") + 1  # " Alice : 2    Bob : 2"
    wrong = LINES[header - 1].replace("Bob : 2", "Bob : 3")
    text = edited({header: wrong})
    issue = one_error(check(text))
    assert issue.kind is IssueKind.SCORE
    assert (issue.line, issue.column) == (header, wrong.index("3") + 1)
    assert issue.player_name == "Bob"
    assert issue.message == "the score at the start of game 3 should be 2-2, not 2-3"


def test_a_double_by_the_player_without_the_cube_names_the_owner() -> None:
    double = line_of(" 4)  Doubles => 2                Takes")  # game 2: Bob owns the cube
    text = edited({}, insert={double: "  5)  Doubles => 4                Takes"})
    issue = one_error(check(text))
    assert issue.kind is IssueKind.CUBE_ACTION
    assert (issue.line, issue.column) == at(text, double + 1, "Doubles")
    assert issue.message == f"cannot double: Bob owns the cube (took the double on line {double})"


def test_a_take_after_a_drop_says_what_ended_the_game() -> None:
    base = (DATA / "fixtures" / "handwritten_3pt.mat").read_text().splitlines()
    text = "\n".join([*base[:11], "  8)  Takes", *base[11:]]) + "\n"
    issue = one_error(check(text))
    assert issue.kind is IssueKind.TURN_ORDER
    assert (issue.line, issue.column) == (12, 7)
    assert issue.message == "a take after the game had ended: it follows Bob's drop on line 11"


def test_rolls_written_in_the_other_columns_get_a_hint() -> None:
    row = line_of("  3) 63: 25/22 13/7              41: 13/9 9/8")
    swapped = "  3) 41: 13/9 9/8                63: 25/22 13/7"
    text = edited({row: swapped})
    issue = one_error(check(text))
    assert issue.kind is IssueKind.ILLEGAL_PLAY
    assert (issue.line, issue.column) == at(text, row, "41:")
    assert issue.message.endswith("(the two rolls on this line fit if their columns are swapped)")


def test_unnamed_players_are_named_by_their_column() -> None:
    text = edited({6: " : 0                      : 0"})
    take = line_of("13)  Takes")
    text = "\n".join(
        line.replace(" Takes", "31: 8/5 6/5") if n == take else line
        for n, line in enumerate(text.splitlines(), 1)
    )
    issue = one_error(check(text + "\n"))
    assert issue.message == (
        "player 1 (no name) rolls without answering player 2 (no name)'s double to 2"
    )


AMBIGUOUS = """ 5 point match

 Game 1
 Ann : 0                        Bo : 0
; Set Pos=------N-----------ama---A-/0
  1) 64: 24/14*
      Wins 1 point
"""


def test_compact_notation_that_fits_two_plays_is_ambiguous() -> None:
    # Bo has blots on 20 and 18: 24/14* with 64 hits either one
    issue = one_error(check(AMBIGUOUS))
    assert issue.kind is IssueKind.AMBIGUOUS_PLAY
    assert (issue.line, issue.column) == (6, 6)
    assert "24/14*" in issue.message


# ---------------------------------------------------------------------- conventions


def conventions(name: str, *, jacoby: bool = False) -> Report:
    return verify(read_match(CONVENTIONS / name), jacoby=jacoby)


@pytest.mark.parametrize("written", [3, 4])
def test_match_winning_points_capped(written: int) -> None:
    # a gammon on a 2-cube (4 points) wins a 3-point match from 0-0: Galaxy writes
    # min(4, 3) = 3; the points needed (3) or the full value (4) are consistent too
    text = (CONVENTIONS / "galaxy-capped-match-win.mat").read_text()
    report = verify(parse_mat(text.replace("Wins 3 point", f"Wins {written} point")))
    assert report.issues == ()


@pytest.mark.parametrize("written", [2, 5])
def test_match_winning_points_outside_the_range_are_an_error(written: int) -> None:
    text = (CONVENTIONS / "galaxy-capped-match-win.mat").read_text()
    report = verify(parse_mat(text.replace("Wins 3 point", f"Wins {written} point")))
    issue = one_error(report)
    assert issue.kind is IssueKind.RESULT
    assert issue.message == f"the game is worth 4 point(s) (gammon, cube 2), not {written}"


def test_galaxy_single_game_session_is_scored_with_jacoby() -> None:
    report = conventions("galaxy-jacoby-session.mat")
    assert report.ok
    (note,) = report.issues
    assert note.kind is IssueKind.CONVENTION
    assert note.message.startswith(
        "a single-game session scored with the Jacoby rule: the backgammon with the cube"
        " in the middle is written as 1 point"
    )
    # said by the user, no note is needed
    assert conventions("galaxy-jacoby-session.mat", jacoby=True).issues == ()


def test_the_jacoby_pattern_needs_a_single_game_that_cannot_decide_the_match() -> None:
    # the same game as the second game of a record is a wrong result
    header, game = (CONVENTIONS / "galaxy-jacoby-session.mat").read_text().split(" Game 1\n")
    first = (CONVENTIONS / "gnubg-resignation.mat").read_text().split(" Game 1\n")[1]
    first = first.replace("Ann", "ann").replace("Bo ", "bo ")
    second = game.replace("ann : 0", "ann : 2", 1)
    record = f"{header} Game 1\n{first}\n Game 2\n{second}"
    issue = one_error(verify(parse_mat(record)))
    assert issue.kind is IssueKind.RESULT
    assert issue.message == "the game is worth 3 point(s) (backgammon, cube 1), not 1"


def test_a_forfeit_is_a_note() -> None:
    report = conventions("galaxy-forfeit.mat")
    assert report.ok
    (note,) = report.issues
    assert note.kind is IssueKind.FORFEIT
    assert note.message == (
        "match forfeited at 2-1: ann leaves in game 4, bo is credited the 6 points needed"
    )
    assert note.player_name == "ann"


def test_a_resignation_is_a_note() -> None:
    report = conventions("gnubg-resignation.mat")
    assert report.ok
    assert [(i.kind, i.message) for i in report.issues] == [
        (IssueKind.RESIGNATION, "game 1 ends by resignation (2 points) at move 4: Bo resigns"),
        (IssueKind.UNFINISHED_MATCH, "the match stops at 2-0 of 5"),
    ]


def test_a_resignation_worth_more_than_three_cubes_is_an_error() -> None:
    text = (CONVENTIONS / "gnubg-resignation.mat").read_text().replace("Wins 2", "Wins 4")
    issue = one_error(verify(parse_mat(text)))
    assert issue.kind is IssueKind.RESULT
    assert issue.message == "a resignation is worth 1, 2 or 3 times the cube (1), not 4 point(s)"


def test_money_games_all_headed_0_0_are_clean() -> None:
    report = conventions("money-session-zero-scores.mat")
    assert report.ok
    assert {i.kind for i in report.issues} == {IssueKind.RESIGNATION}


def test_a_wrong_running_money_score_is_an_error() -> None:
    text = (CONVENTIONS / "money-session-zero-scores.mat").read_text()
    lines = text.splitlines()
    lines[10] = lines[10].replace("Bo : 0", "Bo : 1")  # game 2 headed 0-1 after Ann won 1
    record = "\n".join(lines) + "\n"
    issue = one_error(verify(parse_mat(record)))
    assert issue.kind is IssueKind.SCORE
    assert issue.message == "the score at the start of game 2 should be 1-0, not 0-1"
    assert (issue.line, issue.column) == at(record, 11, "0")


def test_a_gibbon_game_set_up_with_a_turned_cube_is_not_the_crawford_game() -> None:
    # Gibbon's position at 3-6 of 7 with the cube on 2: the Crawford game was earlier
    record = (
        "GMD-2 # Created by Gibbon version 0.2.0\nLength: 7\nPlayer:W: Snow White\n"
        "Player:B: Joe Black\nRule: Crawford\nGame: Scores{3 6} Points{2 0 0 0 0 0 5 0 3 0 1"
        " 0 0 4 0 0 0 0 0 0 0 0 -1 0 0 0} Cube{2} Turn{-1} May-Double{0 1}\nDouble:B:\n"
    )
    match = read_match(text=record, format="gmd")
    assert match.crawford_game() is None
    report = verify(match)
    assert report.ok, [str(i) for i in report.issues]
    # the same position with the cube in the middle is the Crawford game: no double
    centred = record.replace("Cube{2}", "Cube{1}").replace(" May-Double{0 1}", "")
    issue = one_error(verify(read_match(text=centred, format="gmd")))
    assert issue.message == "cannot double: no doubling in the Crawford game"
    assert (issue.line, issue.column) == (7, 8)


def test_results_of_gibbon_and_sgf_records_are_located() -> None:
    # a resignation note points at the line and column of what ended the game
    gmd = read_match(DATA / "real" / "gmd" / "gitGNU__gnu_gibbon__win-by-resignation.gmd")
    (note,) = verify(gmd).issues
    assert (note.line, note.column) == (8, 8)  # Accept:B: names the winner's colour
    sgf = DATA / "real" / "sgf" / "lassehjorthmadsen__gnubg-scripts__test-match01_analyzed.sgf"
    first = verify(read_match(sgf)).issues[0]
    assert first.kind is IssueKind.RESIGNATION
    line = sgf.read_text().splitlines()[first.line - 1]
    assert line[first.column - 1 :].startswith("RE[")


def test_an_issue_carries_its_position_with_the_dice() -> None:
    from bgkit.reports import svg

    row = line_of("  3) 63: 25/22 13/7              41: 13/9 9/8")
    text = edited({row: "  3) 41: 13/9 9/8                63: 25/22 13/7"})
    issue = one_error(check(text))
    pos = issue.position
    assert pos is not None
    assert (pos.turn, pos.dice) == (0, (4, 1))  # Alice to play the 41 written in her column
    assert pos.explain("13/9 9/8") is not None  # the illegal play, judged on that position
    assert svg.position(pos).startswith("<svg")
    # a score header concerns no single position
    header = line_of(" Game 3") + 1
    wrong = edited({header: LINES[header - 1].replace("Bob : 2", "Bob : 3")})
    assert one_error(check(wrong)).position is None
