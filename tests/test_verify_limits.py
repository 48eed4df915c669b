"""Issue 29, item 6: a record of faults costs the verifier no more than ``max_errors`` of
them, and a record of notes no more memory than ``max_notes`` (:mod:`bgkit.limits`).

Each error costs the search for what the player may have meant (the legal plays near the
written one, followed through the game): a 4 MiB ``.mat`` of one game of illegal plays
took 75 s and 670 MB, so 16 MiB would take five minutes. Past ``max_errors`` the rest of
the record is not checked, and one ``unverified`` note says from where; past
``max_notes`` the record is checked to its end and one note counts the notes not listed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bounded import BGKIT, GIB, run

from bgkit.formats.mat import parse_mat
from bgkit.limits import Limits, using
from bgkit.verify import IssueKind, Report, Severity, verify

SCORE = " a : 0                          b : 0\n"
HEAD = " 0 point match\n\n Game 1\n" + SCORE
ILLEGAL = "  1) 31: 6/9 6/7                 31: 6/9 6/7\n"
"""A row of two illegal plays (each moves a checker away from home), at columns 6 and 30."""


def illegal_rows(rows: int) -> str:
    return HEAD + ILLEGAL * rows


def resignations(games: int) -> str:
    """A money session of ``games`` games, each resigned after the opening play (a note)."""
    return " 0 point match\n\n" + "".join(
        f" Game {i}\n{SCORE}  1) 31: 8/5 6/5\n      Wins 1 point\n\n" for i in range(1, games + 1)
    )


def _verify(text: str, limits: Limits | None = None) -> Report:
    with using(limits):
        return verify(parse_mat(text, source_name="x.mat"))


def test_every_fault_is_reported_up_to_max_errors() -> None:
    report = _verify(illegal_rows(10))
    assert len(report.errors) == 20 and not report.notes
    assert {e.kind for e in report.errors} == {IssueKind.ILLEGAL_PLAY}


@pytest.mark.parametrize("cap", [1, 5, 6, 19])
def test_past_max_errors_the_rest_is_not_checked_from_the_first_error_too_many(
    cap: int,
) -> None:
    every = _verify(illegal_rows(10)).errors
    report = _verify(illegal_rows(10), Limits(max_errors=cap))
    assert report.errors == every[:cap]
    *_, last = report.issues
    first_unreported = every[cap]
    assert last.kind is IssueKind.UNVERIFIED and last.severity is Severity.NOTE
    assert (last.line, last.column) == (first_unreported.line, first_unreported.column)
    assert (last.game, last.move, last.player) == (1, 1, first_unreported.player)
    assert str(last).startswith(f"x.mat:{last.line}:{last.column}: note: more than {cap} errors")
    assert "not verified from here on" in last.message
    assert report.actions_checked == cap + 1  # (an error an action: the rest not replayed)


def test_exactly_max_errors_errors_are_all_reported_with_no_note() -> None:
    report = _verify(illegal_rows(10), Limits(max_errors=20))
    assert len(report.errors) == 20 and not report.notes


def test_the_errors_of_earlier_games_count_toward_the_limit() -> None:
    """The limit is the record's: a fault in each game counts as the games go by."""
    text = " 0 point match\n\n" + "".join(f" Game {n}\n{SCORE}{ILLEGAL}" for n in range(1, 6))
    report = _verify(text, Limits(max_errors=3))
    assert len(report.errors) == 3
    assert [e.game for e in report.errors] == [1, 1, 2]
    assert report.issues[-1].kind is IssueKind.UNVERIFIED and report.issues[-1].game == 2


@pytest.mark.parametrize("cap", [0, 1, 3])
def test_past_max_notes_every_action_is_verified_and_one_note_counts_the_rest(cap: int) -> None:
    every = _verify(resignations(6))
    assert [n.kind for n in every.notes] == [IssueKind.RESIGNATION] * 6
    report = _verify(resignations(6), Limits(max_notes=cap))
    assert report.actions_checked == every.actions_checked == 6
    assert report.notes[:cap] == every.notes[:cap]
    unlisted = report.notes[cap:]
    assert [n.kind for n in unlisted] == [IssueKind.UNLISTED]
    assert (unlisted[0].line, unlisted[0].game) == (every.notes[cap].line, cap + 1)
    assert f"this one and {6 - cap - 1} after it are not listed" in unlisted[0].message


def test_exactly_max_notes_notes_are_all_listed() -> None:
    report = _verify(resignations(6), Limits(max_notes=6))
    assert [n.kind for n in report.notes] == [IssueKind.RESIGNATION] * 6


def test_an_error_past_max_notes_is_still_reported() -> None:
    """Notes past the limit go unlisted; errors after them do not."""
    text = resignations(4) + f" Game 5\n{SCORE}{ILLEGAL}"
    report = _verify(text, Limits(max_notes=1))
    assert [e.game for e in report.errors] == [5, 5]
    assert [n.kind for n in report.notes] == [IssueKind.RESIGNATION, IssueKind.UNLISTED]


def test_a_record_of_illegal_plays_at_the_size_limit_is_verified_in_seconds(
    tmp_path: Path,
) -> None:
    """16 MiB of games of illegal plays (800,000 of them, 200 a game: a longer game is
    refused by ``max_game_actions``): 1,000 errors and one note, in seconds and under 400
    MB (measured 2.4 s and 122 MB; before the limit, 4 MiB of one such game took 75 s and
    670 MB). The note's place is the one verify gives in this process to the first
    games alone."""
    game = f"{SCORE}{ILLEGAL * 100}"
    head = " 0 point match\n\n"
    games = (16 * 1024 * 1024 - len(head)) // (len(game) + len(" Game 99999\n"))
    text = head + "".join(f" Game {n}\n{game}" for n in range(1, games + 1))
    path = tmp_path / "illegal.mat"
    path.write_text(text)
    first = head + "".join(f" Game {n}\n{game}" for n in range(1, 11))
    *_, stop = _verify(first, Limits(max_errors=1000)).issues
    assert stop.kind is IssueKind.UNVERIFIED
    ran = run([*BGKIT, "verify", "-j", "1", str(path)], seconds=60, memory=2 * GIB)
    assert ran.code == 1, ran.stderr[-2000:]
    output = ran.stdout + ran.stderr
    assert output.count(": error: ") == 1000
    assert f"{path}:{stop.line}:{stop.column}: note: more than 1,000 errors (max_errors)" in output
    assert "1000 error(s), 1 note(s)" in output
    assert ran.seconds < 30 and ran.max_rss < 400 * 1024 * 1024, (ran.seconds, ran.max_rss)
