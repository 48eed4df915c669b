"""GNU Backgammon's match text exports (``export match text``) read as the match they are.

The exports in ``tests/data/gnubg_text`` were written by Debian's GNU Backgammon 1.07 from
``.mat`` records (``tests/make_gnubg_text_data.py``): the match bgkit reads from them is
checked against gnubg's own figures, the Position ID and Match ID it printed above every
action, and the analysis it saved in its SGF of the same analysed match.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest
from bounded import count_parsed
from click.testing import CliRunner
from debian_gnubg import debian_gnubg

import bgkit
from bgkit.cli import main
from bgkit.errors import NotationError
from bgkit.formats import find_records
from bgkit.formats.gnubg_text import (
    gnubg_series,
    parse_gnubg_match,
    parse_gnubg_text,
    read_gnubg_match,
)
from bgkit.formats.sgf_analysis import analysis_of
from bgkit.position import GameState, Position
from bgkit.records import Double, Drop, Move, Take

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "gnubg_text"
SERIES = {  # the export's first file: the .mat record gnubg exported
    "selfplay_0021.txt": ROOT / "data" / "selfplay" / "selfplay_0021.mat",
    "selfplay_0021_analysed.txt": ROOT / "data" / "selfplay" / "selfplay_0021.mat",
    "handwritten_3pt.txt": ROOT / "data" / "fixtures" / "handwritten_3pt.mat",
    "handwritten_3pt_analysed.txt": ROOT / "data" / "fixtures" / "handwritten_3pt.mat",
    "money.txt": ROOT / "data" / "conventions" / "money-session-zero-scores.mat",
    "resignation.txt": ROOT / "data" / "conventions" / "gnubg-resignation.mat",
    "worst_play.txt": DATA / "worst_play.mat",
    "worst_play_analysed.txt": DATA / "worst_play.mat",
    "comment.txt": ROOT / "data" / "fixtures" / "handwritten_3pt.mat",
    "selfplay_0021_31pt.txt": DATA / "selfplay_0021_31pt.mat",  # (past the 25-point MET)
    "selfplay_0021_31pt_analysed.txt": DATA / "selfplay_0021_31pt.mat",
}


def _exported_positions(first: Path) -> list[Position]:
    """gnubg's own Position ID and Match ID above each action of the series, decoded."""
    out = []
    for path in gnubg_series(first):
        for export in parse_gnubg_text(path.read_text(encoding="utf-8")):
            if export.played is None:
                continue  # (gnubg's hint on the last position)
            pos = Position.from_gnubg_id(f"{export.position_id}:{export.match_id}")
            if pos.game_state == GameState.NONE:  # gnubg's first board of a game
                pos = dataclasses.replace(pos, game_state=GameState.PLAYING)
            out.append(pos)
    return out


@pytest.mark.parametrize("name", SERIES)
def test_the_series_is_the_match_gnubg_exported(name: str) -> None:
    match = bgkit.read_match(DATA / name)
    record = bgkit.read_match(SERIES[name])
    assert (match.players, match.length) == (record.players, record.length)
    assert [(g.number, g.score, g.result) for g in match.games] == [
        (g.number, g.score, g.result) for g in record.games
    ]
    kinds = [
        [(type(a), a.player, getattr(a, "dice", None)) for a in g.actions] for g in match.games
    ]
    assert kinds == [
        [(type(a), a.player, getattr(a, "dice", None)) for a in g.actions] for g in record.games
    ]
    # every action is made from the position gnubg printed above it (its IDs)
    steps = list(bgkit.replay(match))
    exported = _exported_positions(DATA / name)
    assert len(steps) == len(exported) == sum(len(g.actions) for g in record.games)
    for step, pos in zip(steps, exported, strict=True):
        before = step.before
        if isinstance(step.action, Move):
            before = before.with_dice(*step.action.dice)
        assert before.gnubg_id() == pos.gnubg_id(), (step.game_index, step.action_index)
        assert (before.score, before.cube, before.cube_owner) == (
            pos.score,
            pos.cube,
            pos.cube_owner,
        )
    # and the plays as gnubg wrote them land where the record's do
    assert [s.after for s in steps] == [s.after for s in bgkit.replay(record)]
    assert bgkit.verify(match).ok


@pytest.mark.parametrize(
    "name", ["selfplay_0021", "worst_play", "handwritten_3pt", "selfplay_0021_31pt"]
)
def test_the_analysis_is_gnubgs_as_its_sgf_holds_it(name: str) -> None:
    text = bgkit.read_match(DATA / f"{name}_analysed.txt")
    sgf = bgkit.read_match(DATA / f"{name}_analysed.sgf")
    compared = cubes = 0
    for game, sgf_game in zip(text.games, sgf.games, strict=True):
        for action, sgf_action in zip(game.actions, sgf_game.actions, strict=True):
            note, oracle = analysis_of(action), analysis_of(sgf_action)
            if isinstance(action, Move) and action.play:
                assert note is not None and note.checker is not None and oracle is not None
                theirs = oracle.checker
                assert theirs is not None and note.checker.played is not None
                assert theirs.played is not None
                for i, mine in enumerate(note.checker.candidates):
                    # the five best, then "??": the play made, ranked by none of them
                    other = theirs.candidates[i if i < 5 else theirs.played]
                    assert mine.level == other.level == "Cubeful 0-ply"
                    assert mine.equity == pytest.approx(other.equity, abs=5e-4)
                    assert mine.probabilities is not None and other.probabilities is not None
                    assert mine.probabilities.values() == pytest.approx(
                        other.probabilities.values(), abs=5e-4
                    )
                    compared += 1
                mine_played = note.checker.candidates[note.checker.played]
                assert mine_played.play == action.play  # the "*" candidate is the play made
                # the luck of the roll, "Rolled 31 (+0.243):", is gnubg's LU
                assert note.checker.luck is not None and theirs.luck is not None
                assert note.checker.luck == pytest.approx(theirs.luck, abs=5e-4)
            if note is not None and note.cube is not None and isinstance(action, (Move, Double)):
                assert oracle is not None and oracle.cube is not None
                assert note.cube.probabilities is not None and oracle.cube.probabilities is not None
                assert note.cube.probabilities.values() == pytest.approx(
                    oracle.cube.probabilities.values(), abs=5e-4
                )
                assert note.cube.level == "0-ply"
                cubes += 1
    assert compared > 0
    if name != "worst_play":
        assert cubes > 0


def test_a_candidate_ranked_question_marks_is_the_play_made() -> None:
    (move, _) = bgkit.read_match(DATA / "worst_play_analysed.txt").games[0].actions
    note = analysis_of(move)
    assert note is not None and note.checker is not None
    assert len(note.checker.candidates) == 6 and note.checker.played == 5
    made = note.checker.candidates[5]
    assert (str(made.play), made.equity, made.level) == ("8/7 8/5", -0.348, "Cubeful 0-ply")
    assert made.probabilities is not None
    assert made.probabilities.values() == (0.430, 0.114, 0.008, 0.194, 0.019)


def test_take_and_drop_carry_the_doublers_decision() -> None:
    match = bgkit.read_match(DATA / "selfplay_0021_analysed.txt")
    actions = [a for g in match.games for a in g.actions]
    for i, action in enumerate(actions):
        if isinstance(action, (Take, Drop)):
            assert isinstance(actions[i - 1], Double)
            assert analysis_of(action) == analysis_of(actions[i - 1])


CANDIDATE = re.compile(r"(\*?)\s*(\S+)\s+(Cubeful [0-9]+-ply)\s+(.*?)\s+Eq\.: (\S+)")
HEADER = "The score (after 0 games) is: Ann 0, Bo 0 (match to 3 points)\n\n"


def _board_text(name: str) -> str:
    """The first game of an export, up to its second board (what the small fixtures use)."""
    text = (DATA / name).read_text(encoding="utf-8")
    return text[: text.index("Move number 3:")]


def test_a_series_reads_each_game_from_its_own_file(tmp_path: Path) -> None:
    for path in gnubg_series(DATA / "money.txt"):
        shutil.copy(path, tmp_path / path.name)
    second = tmp_path / "money_002.txt"
    second.write_text(
        second.read_text(encoding="utf-8").replace(
            "* Ann moves 24/20 13/11", "* Ann moves 24/20 13/12"
        )
    )
    match = bgkit.read_match(tmp_path / "money.txt")
    assert [g.source_name for g in match.games] == [None, str(second)]
    (error,) = bgkit.verify(match).errors
    assert str(error) == (
        f"{second}:50:13: error: illegal play 24/20 13/12 for 42: 13/12 is not a move of the"
        " roll 42 (game 2, move 2, Ann)"
    )
    # a numbered file alone is its game alone; in a folder, its first file reads it
    alone = bgkit.read_match(second)
    assert [(g.number, g.score) for g in alone.games] == [(2, (0, 0))]
    assert find_records([tmp_path]) == ([tmp_path / "money.txt"], [])
    result = CliRunner().invoke(main, ["verify", "-q", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.splitlines()[0] == str(error)
    # read_gnubg_match joins the files given, in order; series=False reads one
    assert read_gnubg_match([tmp_path / "money.txt", second]) == match
    assert len(read_gnubg_match(tmp_path / "money.txt", series=False).games) == 1


def test_match_information_and_ratings_become_tags() -> None:
    text = HEADER.replace("\n\n", "\n") + (
        "\nMatch Information:\n\nAnn's rating: 1780\nBo's rating: 1650.5\nDate: 11/26/26\n"
        "Event: Club night\nRound: 2\nPlace: Copenhagen\nAnnotator: gnubg\n"
        "Comments: friendly\n\n"
    )
    match = parse_gnubg_match(text)
    assert match.tags == (
        ("Player 1 Elo", "1780"),
        ("Player 2 Elo", "1650.5"),
        ("Date", "11/26/26"),
        ("Event", "Club night"),
        ("Round", "2"),
        ("Site", "Copenhagen"),
        ("Annotator", "gnubg"),
        ("Comment", "friendly"),
    )
    assert [(g.number, g.score, g.actions, g.result) for g in match.games] == [
        (1, (0, 0), (), None)
    ]


def test_a_record_that_starts_after_the_crawford_game() -> None:
    text = "The score (after 8 games) is: Ann 3, Bo 12 (match to 13 points), post-Crawford play\n"
    match = parse_gnubg_match(text)
    assert match.tag("Crawford") == "Off" and match.crawford_game() is None
    crawford = parse_gnubg_match(text.replace("post-Crawford play", "Crawford game"))
    assert crawford.tag("Crawford") is None and crawford.crawford_game() == 0


def test_gnubg_016_spacing_reads_the_same() -> None:
    """gnubg 0.16 wrote the texts right of the board beside the borne-off checkers,
    without 1.07's fixed column: ``| OO 0 points`` (here every text moved left)."""
    text = _board_text("resignation.txt")
    old = "\n".join(
        line[:44] + " " + line[49:] if line[43:44] == "|" and line[44:49].isspace() else line
        for line in text.split("\n")
    )
    assert old != text
    assert parse_gnubg_text(old) == parse_gnubg_text(text)
    assert parse_gnubg_match(old) == parse_gnubg_match(text)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("* Ann moves 8/5 6/5", "* Cy moves 8/5 6/5"),
            "25:1: the line names neither player ('Ann', 'Bo')",
        ),
        (
            ("* Ann moves 8/5 6/5", "* Ann flies 8/5 6/5"),
            "25:1: expected 'moves', 'cannot move',"
            " 'doubles', 'accepts' or 'rejects' after the player's name, found 'flies 8/5 6/5'",
        ),
        (("* Ann moves 8/5 6/5", "* Ann moves 8/5 6/x"), "25:19: unexpected character 'x' in play"),
        (
            ("The score (after 0 games) is: Ann 0, Bo 0 (match to 5 points)", "Score"),
            "8:1: expected the score line ('The score (after N games) is: ...') before the first"
            " board",
        ),
    ],
)
def test_a_broken_export_is_refused_at_its_place(change: tuple[str, str], message: str) -> None:
    text = _board_text("resignation.txt").replace(*change)
    with pytest.raises(NotationError) as err:
        parse_gnubg_match(text, source_name="x.txt", strict=True)
    assert str(err.value).splitlines()[0] == f"x.txt:{message}"
    # read leniently (the default), the line is one read error and the rest is read,
    # unless nothing of the text is a match (no score line)
    line, column, words = message.split(":", 2)
    try:
        match = parse_gnubg_match(text, source_name="x.txt")
    except NotationError as again:
        assert str(again) == str(err.value)
        return
    assert [(e.line, e.column, e.message) for e in match.read_errors] == [
        (int(line), int(column), words.strip())
    ]


def test_an_annotation_is_the_comment_on_the_action_above() -> None:
    text = bgkit.read_match(DATA / "comment.txt")
    sgf = bgkit.read_match(DATA / "comment.sgf")  # what gnubg loaded to write the export
    notes = [analysis_of(a) for a in text.games[0].actions]
    commented = [(i, n.comment) for i, n in enumerate(notes) if n is not None]
    assert commented == [(1, "A fine play\nsecond line")]
    assert text.games[0].actions[1].annotations == sgf.games[0].actions[1].annotations


@pytest.mark.parametrize("name", ["worst_play_analysed.txt", "selfplay_0021_002.txt"])
def test_show_reads_every_board_of_these_exports(name: str) -> None:
    """The two forms gnubg writes that ``bgkit show`` refused: a candidate ranked ``??``
    and, in a game not analysed, the play made alone under ``Rolled 31:``."""
    path = DATA / name
    result = CliRunner().invoke(main, ["show", str(path)])
    assert result.exit_code == 0, result.stderr
    boards = path.read_text(encoding="utf-8").count("Position ID:")
    assert result.stdout.count(" GNU Backgammon  Position ID: ") == boards > 1


@pytest.mark.skipif(debian_gnubg() is None, reason="Debian's gnubg is not installed")
def test_gnubg_shows_the_analysis_read_from_its_text_again(tmp_path: Path) -> None:
    """The analysed export read by bgkit, written as SGF, loaded by gnubg and exported
    again: gnubg prints the same candidates, equities and chances (the differences and
    percentages it derives from three-decimal figures may round otherwise)."""
    import subprocess

    source = DATA / "selfplay_0021_analysed.txt"
    sgf = tmp_path / "back.sgf"
    bgkit.write_match(bgkit.read_match(source), sgf)
    commands = tmp_path / "c.cmds"
    commands.write_text(
        f"set display off\nset sound enable off\nload match {sgf}\n"
        f"export match text {tmp_path / 'back.txt'}\n"
    )
    program = debian_gnubg()
    assert program is not None
    subprocess.run(
        [program, "-t", "-q", "-c", str(commands)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=120,
        check=True,
    )

    def figures(paths: tuple[Path, ...]) -> list[object]:
        """Each candidate (mark, rank, level, its steps in any order, equity) and each line
        of chances."""
        out: list[object] = []
        for path in paths:
            for line in path.read_text(encoding="utf-8").splitlines():
                m = CANDIDATE.match(line)
                if m is not None:  # (a play made below the five shown: its rank is not kept)
                    rank = m[2] if m[2] in ("1.", "2.", "3.", "4.", "5.") else "??"
                    out.append((m[1], rank, m[3], sorted(m[4].split()), m[5]))
                elif " - " in line and line.strip()[:1].isdigit():
                    out.append(line)
        return out

    mine = figures(gnubg_series(tmp_path / "back.txt"))
    assert len(mine) > 100
    assert mine == figures(gnubg_series(source))


def test_files_of_two_matches_are_not_joined(tmp_path: Path) -> None:
    with pytest.raises(NotationError) as err:
        read_gnubg_match([DATA / "money.txt", DATA / "resignation.txt"])
    assert str(err.value).splitlines()[0] == (
        f"{DATA / 'resignation.txt'}:1:1: not the same match as {DATA / 'money.txt'}: Ann vs."
        " Bo, 5-point, not Ann vs. Bo, 0-point"
    )
    # numbered files that are not gnubg's exports are listed as they are
    for name in ("club.txt", "club_002.txt"):
        (tmp_path / name).write_text(XG_TEXT_MAT)
    assert find_records([tmp_path])[0] == [tmp_path / "club.txt", tmp_path / "club_002.txt"]


XG_TEXT_MAT = " 1 point match\n\n Game 1\n Ann : 0      Bo : 0\n  1) 31: 8/5 6/5\n"


# ------------------------------------------------ a bad line costs its board only (#28)

REAL_EXPORT = (
    ROOT / "data" / "real" / "gnubg_txt" / "lassehjorthmadsen__bglab__0ply__BoardLord_-_"
    "Llabba_7pt_Backgammon_Studio_2023_08_09_18_11_07.txt"
)


def _damaged(find: str, change: tuple[str, str], nth: int = 0) -> tuple[str, int]:
    lines = REAL_EXPORT.read_text().split("\n")
    index = [i for i, line in enumerate(lines) if line.startswith(find)][nth]
    lines[index] = lines[index].replace(*change, 1)
    return "\n".join(lines), index + 1


def test_a_damaged_line_of_analysis_is_a_note_and_the_game_is_verified() -> None:
    text, line = _damaged("       0.", ("0.", "0@"), 3)
    match = parse_gnubg_match(text, source_name="x.txt")
    (fault,) = match.read_errors
    assert (fault.line, fault.record) == (line, False)
    original = parse_gnubg_match(REAL_EXPORT.read_text())
    assert [g.actions for g in match.games] == [g.actions for g in original.games]
    report = bgkit.verify(match)
    assert report.ok  # (a part of gnubg's analysis: no rule broken)
    assert [(e.kind.value, e.line) for e in report.notes][:1] == [("unreadable-analysis", line)]
    assert "unverified" not in {n.kind.value for n in report.notes}


@pytest.mark.parametrize(
    ("find", "change", "message"),
    [
        (" | O           X    |", ("X", "@"), "'@' is not a checker or a count"),
        ("Pip counts", ("Pip counts", "Pip c@unts"), "a board without 'Pip counts: O n, X n'"),
        (" GNU Backgammon  Position ID", ("ID:", "I@:"), "a board without the 'Position ID:'"),
        (" +13-14", ("O: BoardLord", "Q: BoardLord"), "expected 'O: name' or 'X: name'"),
    ],
)
def test_a_damaged_board_is_one_error_and_its_play_is_not_given_to_another(
    find: str, change: tuple[str, str], message: str
) -> None:
    # (a board whose 'Pip counts:' or 'Position ID:' line was lost used to be dropped in
    # silence, its play given to the board above: a false 'rolls out of turn')
    text, _line = _damaged(find, change, 3)
    match = parse_gnubg_match(text, source_name="x.txt")
    (fault,) = match.read_errors
    assert message in fault.message and fault.record
    report = bgkit.verify(match)
    assert [e.kind.value for e in report.errors] == ["unreadable-line"]
    assert [n.kind.value for n in report.notes if n.kind.value == "unverified"] == ["unverified"]
    original = parse_gnubg_match(REAL_EXPORT.read_text())
    kept = {(a.line, a) for g in match.games for a in g.actions}
    assert kept < {(a.line, a) for g in original.games for a in g.actions}
    assert len(kept) == sum(len(g.actions) for g in original.games) - 1


def test_a_damaged_score_line_is_refused_there_not_at_every_play() -> None:
    # its names and length cannot be read: each '* name moves' line named neither player
    text, line = _damaged("The score", ("7 points)", "7 p@ints)"))
    with pytest.raises(NotationError) as info:
        parse_gnubg_match(text, source_name="x.txt")
    assert str(info.value).splitlines()[0] == (
        f"x.txt:{line}:53: expected '(match to N points)' in the score line"
    )
    # a later game's: that game is one error, the others are read
    two = REAL_EXPORT.read_text() + "\n" + text
    match = parse_gnubg_match(two)
    assert [(e.line, e.column) for e in match.read_errors] == [
        (REAL_EXPORT.read_text().count("\n") + 2, 53)
    ]
    assert len(match.games) == 1


def test_the_work_of_reading_past_bad_lines_is_bounded_by_the_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # every row of chances of eight games damaged: each is read again as its block only
    import bgkit.formats.gnubg_text as module

    lines = "\n".join([REAL_EXPORT.read_text()] * 8).split("\n")
    damaged = [i for i, line in enumerate(lines) if line.startswith("       0.")]
    for i in damaged[:900]:
        lines[i] = lines[i].replace("0.", "0.1@", 1)
    text = "\n".join(lines)
    parsed = count_parsed(monkeypatch, module)
    match = parse_gnubg_match(text)
    assert len(match.read_errors) == 900 and not any(e.record for e in match.read_errors)
    assert sum(parsed) < 6 * len(text)  # (the whole text again for each: 900 times)
    assert len(match.games) == 8


def test_an_export_cut_inside_a_board_is_one_error_at_its_end() -> None:
    text = REAL_EXPORT.read_text()
    cut = text[: text.index(" | O  ", 5000) + 30]
    match = parse_gnubg_match(cut)
    assert [(e.line, e.message) for e in match.read_errors] == [
        (cut.count("\n") + 1, "gnubg text export ends too early; expected nl")
    ]
    whole = parse_gnubg_match(text)
    assert match.games[0].actions == whole.games[0].actions[:3]
