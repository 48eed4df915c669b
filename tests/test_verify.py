"""The replay verifier: one planted fault of every kind, found at the right place.

Each test changes one line of the legal hand-written 3-point match
(``data/fixtures/handwritten_3pt.mat``) and checks the kind, line, column and
message of the issue the verifier reports.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bgkit.formats.mat import parse_mat
from bgkit.verify import Issue, IssueKind, Report, VerificationError, verify

DATA = Path(__file__).resolve().parent.parent / "data"
BASE = (DATA / "fixtures" / "handwritten_3pt.mat").read_text()
LINES = BASE.splitlines()


def planted(line_no: int, new: str, *, extra: str = "") -> tuple[Report, str]:
    """The report for the base record with line ``line_no`` (1-based) replaced by ``new``."""
    lines = LINES.copy()
    lines[line_no - 1] = new
    text = "\n".join(lines) + "\n" + extra
    return verify(parse_mat(text, source_name="planted.mat")), new


def col(line: str, token: str) -> int:
    return line.index(token) + 1


def only_error(report: Report) -> Issue:
    errors = report.errors
    assert len(errors) == 1, [str(e) for e in report.issues]
    return errors[0]


UNFINISHED = "the match stops at 1-0 of 3"
"""The note on the base record: one game of a 3-point match."""


def test_base_record_is_clean() -> None:
    report = verify(parse_mat(BASE, source_name="base.mat"))
    assert report.ok
    assert [(i.kind, i.message) for i in report.issues] == [
        (IssueKind.UNFINISHED_MATCH, UNFINISHED)
    ]
    assert (report.notes[0].line, report.notes[0].column) == (12, 7)  # the Wins line
    assert report.games == 1
    assert report.actions_checked == 14


def test_blocked_point() -> None:
    text = (DATA / "fixtures" / "handwritten_3pt_illegal1.mat").read_text()
    report = verify(parse_mat(text, source_name="illegal1.mat"))
    first = only_error(report)
    assert first.kind is IssueKind.ILLEGAL_PLAY
    line = text.splitlines()[first.line - 1]
    assert (first.line, first.column) == (8, col(line, "66:"))
    assert first.player_name == "Bob"
    assert first.game == 1 and first.move == 4
    assert first.message == (
        "illegal play 24/18 18/12 13/7 10/4 for 66: blocked: 18/12 lands on a point held by"
        " 2 opposing checkers"
    )
    # it cannot be made as written (18/12 lands on a made point), but legal plays of the
    # points it names can: the game goes on from the nearest, and every later action is
    # verified in it (they are all legal)
    assert [i.kind for i in report.notes] == [IssueKind.UNFINISHED_MATCH]
    assert report.actions_checked == 14


def test_must_use_both_dice() -> None:
    report, line = planted(9, "  5) 21: 24/22                     52: 11/6 6/4")
    issue = only_error(report)
    assert issue.kind is IssueKind.ILLEGAL_PLAY
    assert (issue.line, issue.column) == (9, col(line, "21:"))
    assert issue.message.startswith("illegal play 24/22 for 21: must use both dice: ")
    assert issue.player_name == "Alice"


def test_single_checker_through_a_blocked_point() -> None:
    text = (DATA / "fixtures" / "handwritten_3pt_illegal2.mat").read_text()
    report = verify(parse_mat(text, source_name="illegal2.mat"))
    issue = only_error(report)
    assert issue.kind is IssueKind.ILLEGAL_PLAY
    assert issue.line == 9
    assert "24/21" in issue.message


def test_more_pips_than_the_dice() -> None:
    text = (DATA / "fixtures" / "handwritten_3pt_illegal3.mat").read_text()
    report = verify(parse_mat(text, source_name="illegal3.mat"))
    issue = only_error(report)
    assert issue.kind is IssueKind.ILLEGAL_PLAY
    assert issue.message == "illegal play 8/4 6/5 for 31: moves 5 pips, but 31 gives only 4"


def test_hit_mark_where_nothing_is_hit() -> None:
    report, line = planted(6, "  2) 64: 24/18 18/14*            53: 13/8 13/10")
    issue = only_error(report)
    assert issue.kind is IssueKind.HIT_MARK
    assert (issue.line, issue.column) == (6, col(line, "64:"))
    assert issue.message == (
        "hit marks in 24/18 18/14* disagree with the play: it hits on nothing, marked 14"
    )


def test_hit_marks_are_not_required_from_writers_that_never_write_them() -> None:
    report, _ = planted(7, "  3) 55: 13/8 13/8 8/3 8/3       62: 24/18 13/11")
    assert [i.message for i in report.issues] == [UNFINISHED]


def test_dance_recorded_while_a_play_exists() -> None:
    report, line = planted(9, "  5) 21:                          52: 11/6 6/4")
    issue = only_error(report)
    assert issue.kind is IssueKind.ILLEGAL_DANCE
    assert (issue.line, issue.column) == (9, col(line, "21:"))
    assert issue.message.startswith("no move recorded for 21, but ")


def test_unknown_play_is_unverifiable_not_illegal() -> None:
    report, line = planted(10, "  6) 61: 9/3 6/5                 44: ???")
    assert report.ok  # a note, not an error
    issue = report.issues[0]
    assert issue.kind is IssueKind.UNVERIFIABLE
    assert (issue.line, issue.column) == (10, col(line, "44:"))
    assert issue.message == "the play for 44 is not recorded"


def test_player_rolls_twice() -> None:
    report, _ = planted(5, "  1) 31: 8/5 6/5")
    issue = only_error(report)
    assert issue.kind is IssueKind.TURN_ORDER
    assert issue.line == 6
    assert issue.message == (
        "Alice rolls out of turn: it is Bob's turn to roll"
        " (the two rolls on this line fit if their columns are swapped)"
    )


def test_opening_double() -> None:
    report, line = planted(5, "  1) 33: 8/5 8/5 6/3 6/3          42: 8/4 6/4")
    issue = only_error(report)
    assert issue.kind is IssueKind.OPENING_DOUBLE
    assert (issue.line, issue.column) == (5, col(line, "33:"))


def test_take_without_double() -> None:
    report, line = planted(11, "  7)  Takes                       Drops")
    issue = only_error(report)
    assert issue.kind is IssueKind.CUBE_ACTION
    assert (issue.line, issue.column) == (11, col(line, "Takes"))
    assert issue.message == "a take without a double"


def test_wrong_cube_value() -> None:
    report, line = planted(11, "  7)  Doubles => 4                Drops")
    issue = only_error(report)
    assert issue.kind is IssueKind.CUBE_VALUE
    assert (issue.line, issue.column) == (11, col(line, "Doubles"))
    assert issue.message == "a double should be to 2, not 4"


def test_wrong_result_points() -> None:
    report, line = planted(12, "      Wins 2 points")
    issue = only_error(report)
    assert issue.kind is IssueKind.RESULT
    assert (issue.line, issue.column) == (12, col(line, "Wins"))
    assert issue.message == ("the game is worth 1 point(s) (the double was dropped, cube 1), not 2")


def test_wrong_winner() -> None:
    report, line = planted(12, "                                  Wins 1 point")
    issue = only_error(report)
    assert issue.kind is IssueKind.RESULT
    assert (issue.line, issue.column) == (12, col(line, "Wins"))
    assert issue.message == "the record gives the game to Bob, but Alice won it"


GAME2 = """
 Game 2
 Alice : {a}                      Bob : {b}
  1) 42: 8/4 6/4                 31: 8/5 6/5
  2)  Doubles => 2                Takes
  3) 65: 24/13                    Wins 2 points
"""


def test_score_header_must_add_up() -> None:
    report, _ = planted(12, LINES[11], extra=GAME2.format(a=0, b=0))
    issue = only_error(report)
    assert issue.kind is IssueKind.SCORE
    # at the wrong number of the score line, not at "Game 2"
    assert (issue.line, issue.column) == (15, 10)
    assert issue.player_name == "Alice"
    assert issue.message == "the score at the start of game 2 should be 1-0, not 0-0"


def test_double_in_the_crawford_game() -> None:
    # a record that starts at 2-0 of 3: its first game is the Crawford game
    text = " 3 point match\n" + GAME2.format(a=2, b=0)
    report = verify(parse_mat(text, source_name="crawford.mat"))
    issue = only_error(report)
    assert issue.kind is IssueKind.CUBE_ACTION
    assert (issue.game, issue.line, issue.column) == (2, 6, 7)
    assert issue.message == "cannot double: no doubling in the Crawford game"


def test_match_declared_won_too_early() -> None:
    report, line = planted(12, "      Wins 1 point and the match")
    issue = only_error(report)
    assert issue.kind is IssueKind.MATCH_END
    assert (issue.line, issue.column) == (12, col(line, "Wins"))
    assert issue.message == (
        "the record says this game wins the match, but the score 1-0 does not reach 3"
    )


def test_game_after_the_match_was_won() -> None:
    # game 2: Alice resigns a gammon on Bob's 2-cube: 4 points, 1-4 wins the 3-point match
    game2 = GAME2.format(a=1, b=0).replace("Wins 2 points", "Wins 4 points")
    game3 = GAME2.format(a=1, b=4).replace("Game 2", "Game 3")
    report, _ = planted(12, LINES[11], extra=game2 + game3)
    issue = next(i for i in report.errors if i.kind is IssueKind.MATCH_END)
    assert issue.game == 3
    assert issue.message == "game 3 is played after the match was won in game 2"


def test_raise_for_issues_groups_every_error() -> None:
    report, _ = planted(12, "      Wins 2 points and the match")
    with pytest.raises(VerificationError) as info:
        report.raise_for_issues()
    assert len(info.value.exceptions) == len(report.errors) >= 1
    assert all(isinstance(e, ValueError) for e in info.value.exceptions)


def test_issue_json_has_the_documented_keys() -> None:
    report, _ = planted(11, "  7)  Doubles => 4                Drops")
    data = report.issues[0].to_dict()
    assert {"file", "line", "column", "game", "move", "player", "kind", "message"} <= set(data)
    assert data["file"] == "planted.mat"
    assert data["kind"] == "cube-value"


SET_POS = """ 5 point match

 Game 1
 Ann : 0                        Bo : 0
; Set Pos=------N---------b---A---m-/0
  1) 64: {play}
      Wins 1 point
"""


def test_written_stop_on_a_made_point() -> None:
    # Ann's checker on 20 cannot stop on 16 (Bo holds it): 20/14/10 is the legal way
    report = verify(parse_mat(SET_POS.format(play="20/16 16/10"), source_name="path.mat"))
    issue = only_error(report)
    assert issue.kind is IssueKind.WRITTEN_PATH
    assert (issue.line, issue.column) == (6, 6)
    assert issue.message == (
        "20/16 16/10 cannot be played as written with 64; the same result comes from 20/14 14/10"
    )
    for fine in ("20/14 14/10", "20/10"):
        clean = verify(parse_mat(SET_POS.format(play=fine), source_name="path.mat"))
        assert clean.errors == (), fine
        assert [i.kind for i in clean.notes] == [
            IssueKind.RESIGNATION,
            IssueKind.UNFINISHED_MATCH,
        ]


def test_cube_action_before_the_opening_roll() -> None:
    report, line = planted(5, "  1)  Doubles => 2                Takes")
    issue = only_error(report)
    assert issue.kind is IssueKind.TURN_ORDER
    assert (issue.line, issue.column) == (5, col(line, "Doubles"))
    assert issue.message.startswith("a double before the opening roll")
