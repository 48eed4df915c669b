"""``bgkit.audit``: each finding kind on small fixtures made from its description.

The fixtures are records GNU Backgammon wrote (``data/selfplay``: its ``.mat`` export and
its SGF of the same match), real records (``data/real``), and copies of them changed
the one way a finding describes (a header name, a game's names, an analysis removed).
"""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pandas")

import bgkit
from bgkit.audit import audit, level_rank
from bgkit.formats import read_match, write_match
from bgkit.records import Game, Match, Move, Result

SELFPLAY = Path("data/selfplay")


def run(paths: list[Path] | Path, **options: object) -> bgkit.audit.AuditResult:
    return audit(paths, jobs=1, progress=False, **options)  # type: ignore[arg-type]


def kinds(result: bgkit.audit.AuditResult, kind: str) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = result.findings[result.findings["kind"] == kind].to_dict(
        "records"
    )
    return rows


# ---------------------------------------------------------------------- rules


def test_the_rules_are_verify_s_issues_with_their_kinds_places_and_messages() -> None:
    path = Path("data/fixtures/handwritten_3pt_illegal1.mat")
    result = run([path])
    report = bgkit.verify(read_match(path))
    got = [
        (r["kind"], r["line"], r["column"], r["game"], r["move"], r["player"], r["message"])
        for r in result.findings.to_dict("records")
    ]
    want = [
        (i.kind.value, i.line, i.column, i.game, i.move, i.to_dict()["player"], i.message)
        for i in report.issues
    ]
    assert got == want
    assert not result.ok
    assert result.files["verdict"].tolist() == ["errors"]


def test_an_unreadable_file_is_one_error_row() -> None:
    result = run([Path("data/fixtures/handwritten_3pt_syntax3.mat")])
    (row,) = result.findings.to_dict("records")
    assert row["kind"] == "unreadable" and row["severity"] == "error"
    assert (row["line"], row["column"]) == (1, 4)
    assert result.files["verdict"].tolist() == ["unreadable"]


def test_a_bad_line_is_one_located_error_and_the_rest_is_audited() -> None:
    result = run([Path("data/fixtures/handwritten_3pt_syntax2.mat")])
    rows = result.findings.to_dict("records")
    errors = [r for r in rows if r["severity"] == "error"]
    assert [(r["kind"], r["line"], r["column"]) for r in errors] == [("unreadable-line", 9, 6)]
    assert "unverified" in {r["kind"] for r in rows}
    assert result.files["verdict"].tolist() == ["errors"]
    assert result.files["games"].tolist() == [1]


# ---------------------------------------------------------------------- duplicates


def swapped(match: Match) -> Match:
    """The same match with the players' columns swapped (player 0 becomes player 1)."""

    def flip(action: object) -> object:
        return replace(action, player=1 - action.player)  # type: ignore[attr-defined, type-var]

    games = []
    for game in match.games:
        result = game.result
        if result is not None:
            result = Result(1 - result.winner, result.points, result.match_won)
        games.append(
            Game(
                game.number,
                (game.score[1], game.score[0]),
                tuple(flip(a) for a in game.actions),  # type: ignore[misc]
                result,
            )
        )
    return Match((match.players[1], match.players[0]), match.length, tuple(games))


def test_the_same_match_in_two_formats_swapped_and_contained(tmp_path: Path) -> None:
    mat = tmp_path / "a.mat"
    shutil.copy(SELFPLAY / "selfplay_0024.mat", mat)
    sgf = tmp_path / "b.sgf"  # gnubg's own SGF of the same match
    shutil.copy(SELFPLAY / "selfplay_0024.sgf", sgf)
    swap = tmp_path / "c.mat"
    write_match(swapped(read_match(mat)), swap)
    text = mat.read_text()
    part = tmp_path / "d.mat"  # the record cut after its second game
    part.write_text(text[: text.index(" Game 3")])
    other = tmp_path / "e.mat"  # another match: no finding
    shutil.copy(SELFPLAY / "selfplay_0022.mat", other)
    result = run([mat, sgf, swap, part, other])
    found = {
        Path(str(r["file"])).name: (Path(str(r["same_as"])).name, r["message"])
        for r in kinds(result, "duplicate")
    }
    assert set(found) == {"b.sgf", "c.mat", "d.mat"}
    assert found["b.sgf"][0] == "a.mat" and "the same match" in str(found["b.sgf"][1])
    assert found["c.mat"][0] == "a.mat" and "(the players swapped)" in str(found["c.mat"][1])
    assert found["d.mat"][0] == "a.mat"
    assert "2 game(s), all contained in the 7 of" in str(found["d.mat"][1])


def test_short_games_that_happen_to_agree_are_no_duplicate(tmp_path: Path) -> None:
    game = (
        " 1 point match\n\n Game 1\n Ann : 0                        Bo : 0\n"
        "  1) 31: 8/5 6/5                 42: 8/4 6/4\n"
        "  2)  Doubles => 2                Drops\n      Wins 1 point and the match\n"
    )
    (tmp_path / "one.mat").write_text(game)
    (tmp_path / "two.mat").write_text(game.replace("Ann", "Cy").replace("Bo ", "Di "))
    assert kinds(run(tmp_path), "duplicate") == []


# ---------------------------------------------------------------------- players


def test_a_header_that_names_other_players_than_the_games(tmp_path: Path) -> None:
    path = tmp_path / "m.mat"
    text = (SELFPLAY / "selfplay_0002.mat").read_text()
    path.write_text('; [Player 1 "Alice"]\n; [Player 2 "Robert"]\n' + text)
    (row,) = kinds(run([path]), "players")
    assert (row["line"], row["severity"]) == (1, "warning")
    assert "'Alice' and 'Robert'" in str(row["message"])
    assert "every game 'Alice' and 'Bob'" in str(row["message"])


def test_a_game_whose_score_line_names_another_player(tmp_path: Path) -> None:
    path = tmp_path / "m.mat"
    lines = (SELFPLAY / "selfplay_0022.mat").read_text().splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith(" Game 3")) + 1
    lines[at] = lines[at].replace("Bob :", "Bobby :")
    path.write_text("".join(lines))
    (row,) = kinds(run([path]), "players")
    assert (row["line"], row["game"]) == (at + 1, 3)
    assert "game 3 names the players 'Alice' and 'Bobby', game 1 'Alice' and 'Bob'" in str(
        row["message"]
    )


def test_an_sgf_game_with_other_names(tmp_path: Path) -> None:
    path = tmp_path / "m.sgf"
    text = (SELFPLAY / "selfplay_0022.sgf").read_text()
    roots = [m.start() for m in re.finditer(r"\(;FF\[4\]", text)]
    second = text[roots[1] :].replace("PW[Alice]", "PW[Alicia]", 1)
    path.write_text(text[: roots[1]] + second)
    (row,) = kinds(run([path]), "players")
    assert row["game"] == 2 and "'Alicia'" in str(row["message"])


def test_names_not_on_the_roster_with_the_nearest_suggested(tmp_path: Path) -> None:
    roster = tmp_path / "roster.csv"
    roster.write_text("name,aka\nAlice,Alice Smith\nBobby,\n")
    result = run([SELFPLAY / "selfplay_0002.mat"], players=roster)
    (row,) = kinds(result, "players")
    assert row["message"] == "'Bob' is not on the roster; did you mean 'Bobby'?"
    assert row["player"] == "Bob"
    assert kinds(run([SELFPLAY / "selfplay_0002.mat"], players=["alice", "BOB"]), "players") == []


# ---------------------------------------------------------------------- analysis


def test_levels_order_gnubg_and_xg_names() -> None:
    assert (
        level_rank("0-ply")
        < level_rank("xg:3-ply")
        == level_rank("2-ply")
        < level_rank("XG Roller")
        < level_rank("roller++")
        < level_rank("rollout")
    )
    with pytest.raises(ValueError, match="not a level"):
        level_rank("deep")


def test_an_analysed_sgf_with_one_move_left_unanalysed(tmp_path: Path) -> None:
    source = Path("data/real/sgf/lassehjorthmadsen__gnubg-scripts__test-match01_analyzed.sgf")
    text = source.read_text()
    assert kinds(run([source]), "analysis-missing") == []
    target = re.search(r";B\[63aglo\](A\[0\]\[[^\]]*\](\[[^\]]*\])*)", text)
    assert target is not None
    path = tmp_path / "m.sgf"
    path.write_text(text[: target.start(1)] + text[target.end(1) :])
    (row,) = kinds(run([path]), "analysis-missing")
    line = text[: target.start()].count("\n") + 1
    assert row["line"] == line and row["game"] == 1
    assert str(row["message"]).startswith("1 of 131 decisions not analysed: 1 checker play(s)")


def test_decisions_below_the_required_level_counted_and_located() -> None:
    from bgkit.formats.xg import read_xg_record

    path = Path("data/real/xg/kevung__gbf__test.xg")
    record = read_xg_record(path)
    levels = []  # XG's level of every roll with a choice of plays
    for step in bgkit.replay(record.match):
        note = record.analysis[step.game_index][step.action_index]
        if isinstance(step.action, Move) and len(step.rolled.legal_results()) > 1:
            assert note is not None and note.checker is not None
            levels.append(note.checker.candidates[0].level or "")
    below = sum(level_rank(level, engine="xg") < level_rank("xg:XG Roller++") for level in levels)
    assert 0 < below < len(levels)
    (row,) = kinds(run([path], require_level="XG Roller++"), "analysis-level")
    assert str(row["message"]).startswith(f"{below} of ")
    assert (
        kinds(run([path], require_level="2-ply"), "analysis-level")[0]["message"]
        != (row["message"])
    )


def test_xg_transcription_and_invalid_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    import struct

    from bgkit.formats import xg

    path = Path("data/real/xg/kevung__gbf__test.xg")
    (note,) = kinds(run([path]), "transcribed")
    assert note["severity"] == "note" and note["message"] == (
        "XG says the match was transcribed by Kévin Unger"
    )
    real = xg._archive

    def marked(data: bytes, name: str | None) -> dict[str, bytes]:
        files = dict(real(data, name))
        body = bytearray(files["temp.xg"])
        size = xg._RECORD_SIZE
        moves = [n for n in range(len(body) // size) if body[n * size + 8] == xg._MOVE]
        struct.pack_into("<l", body, moves[2] * size + 2480, 1)  # the third roll of game 1
        files["temp.xg"] = bytes(body)
        return files

    monkeypatch.setattr(xg, "_archive", marked)
    (row,) = kinds(run([path]), "xg-invalid")
    assert (row["game"], row["move"], row["player"]) == (1, 2, "Kévin Unger")
    assert "invalid move" in str(row["message"])


# ---------------------------------------------------------------------- dice


def test_the_loaded_dice_match_is_flagged_and_the_real_ones_are_not() -> None:
    result = run(Path("data/event"))
    (row,) = kinds(result, "dice")
    assert Path(str(row["file"])).name == "loaded_dice_13pt.mat"
    assert row["player"] == "Dmitri" and float(str(row["p_value"])) < 1e-6
    dice = result.dice
    assert dice["flagged"].sum() == 1
    lasse = dice[(dice["scope"] == "submission") & (dice["player"] == "lasse")]
    assert len(lasse) == 1 and int(lasse["rolls"].iloc[0]) > 600  # over his 8 matches
    # a match submitted twice counts once in the player's totals
    files = [p for p in Path("data/event").iterdir() if not p.name.endswith("_resubmitted.sgf")]
    alone = run(files).dice
    assert alone[alone["scope"] == "submission"].set_index("player").loc["lasse", "rolls"] == (
        int(lasse["rolls"].iloc[0])
    )


def test_gnubg_s_fair_dice_are_rarely_flagged() -> None:
    """The quick version of ``benchmarks/audit_calibration.py``: 30 matches of fair dice
    (60 tests at the per-test level alpha 0.05: about 3 expected), none at 0.001."""
    result = run(sorted(SELFPLAY.glob("*.mat")), alpha=0.001)
    per_file = result.dice[result.dice["scope"] == "file"]
    assert len(per_file) >= 50
    assert (per_file["p_value"] < 0.05).sum() <= 10
    assert kinds(result, "dice") == []


def test_the_alpha_correction_counts_the_tests() -> None:
    result = run(Path("data/event"), alpha=0.01)
    dice = result.dice
    assert result.tests == len(dice)
    assert (dice["p_adjusted"] == (dice["p_value"] * len(dice)).clip(upper=1)).all()
    assert (dice["flagged"] == (dice["p_adjusted"] < 0.01)).all()


# ---------------------------------------------------------------------- luck and play


def test_luck_and_play_figures_are_the_analysis_s_with_the_spread_of_the_rolls() -> None:
    """Luck and PR are those of ``bgkit.analyze`` at 0-ply (checked against gnubg's own
    statistics in test_analysis); the spread is the square root of the summed variance
    of the roll's equity over the 21 rolls, so that the z-score of a fair game is of
    order one; the other matches' means are those of the other rows."""
    pytest.importorskip("gnubg")
    files = [SELFPLAY / "selfplay_0003.mat", SELFPLAY / "selfplay_0004.mat"]
    result = run(files, luck=True)
    play = result.play
    assert len(play) == 4
    assert "<h2 id='play'>Luck and play</h2>" in result.to_html()
    for path in files:
        analysis = bgkit.analyze(read_match(path), 0, jobs=1)
        moves = analysis.moves
        for player in analysis.players.to_dict("records"):
            row = play[(play["file"] == str(path)) & (play["player"] == player["name"])].iloc[0]
            assert row["luck_emg"] == pytest.approx(player["luck_emg"], abs=1e-9)
            assert row["pr"] == pytest.approx(player["pr"], abs=1e-9)
            mine = moves[
                (moves["player"] == player["player"])
                & (moves["action"] == "move")
                & ~moves["forced"].astype(bool)
                & moves["rank"].notna()
            ]
            assert row["unforced_moves"] == len(mine)
            assert row["first_choice"] == pytest.approx((mine["rank"] == 1).mean())
            rolls = int(moves[(moves["player"] == player["player"])]["luck_emg"].notna().sum())
            assert 0.05 * rolls**0.5 < row["luck_sd"] < 1.0 * rolls**0.5
            assert row["luck_z"] == pytest.approx(row["luck_emg"] / row["luck_sd"])
    alice = play[play["player"] == "Alice"]
    assert alice["pr_others"].tolist() == alice["pr"].tolist()[::-1]


def test_gnubg_text_exports_in_a_folder_are_audited_for_their_analysis(tmp_path: Path) -> None:
    from bgkit.formats.gnubg_text import read_gnubg_text

    name = "lassehjorthmadsen__bglab__4ply__Magic_-_Lasse_5pt_Backgammon_Studio_" + (
        "2024_04_22_19_06_30.txt"
    )
    shutil.copy(Path("data/real/gnubg_txt") / name, tmp_path / name)
    boards = read_gnubg_text(tmp_path / name)
    plays = [
        b for b in boards if b.position.dice is not None and len(b.position.legal_results()) > 1
    ]
    shallow = [
        b for b in plays if b.checker and level_rank(b.checker.candidates[0].level or "") < 4
    ]
    result = run(tmp_path, require_level="4-ply")
    assert result.files["file"].tolist() == [str(tmp_path / name)]
    (row,) = kinds(result, "analysis-level")
    assert str(row["message"]).startswith(f"{len(shallow)} of ")
    assert 0 < len(shallow) < len(plays)
    assert kinds(run(tmp_path, require_level="0-ply"), "analysis-level") == []


def test_a_player_spelled_two_ways_is_one_player_over_the_submission(tmp_path: Path) -> None:
    one, two = tmp_path / "a.mat", tmp_path / "b.mat"
    shutil.copy(SELFPLAY / "selfplay_0002.mat", one)
    two.write_text((SELFPLAY / "selfplay_0003.mat").read_text().replace("Alice :", "ALICE :"))
    dice = run(tmp_path).dice
    overall = dice[dice["scope"] == "submission"]
    assert sorted(overall["player"]) == ["Alice", "Bob"]


# The pattern the audit read a score line's names with, and the rating it took off each:
# the reference for the reader that replaced them (the pattern backtracked over each
# blank of a long run in a name: quadratic in it).
_OLD_SCORE_NAMES = re.compile(r"^\s*(.*?)\s*:\s*-?[0-9]+\s+(.*?)\s*:\s*-?[0-9]+\s*$")
_OLD_RATING = re.compile(r"\s*\([0-9.]+\)$|,[0-9.]+$")


@settings(max_examples=3000, deadline=None)
@given(line=st.text(alphabet=" \t:-0123456789ab()., \u00a0", max_size=40))
def test_a_score_lines_names_are_read_as_the_pattern_read_them(line: str) -> None:
    from bgkit.audit.files import _score_names

    found = _OLD_SCORE_NAMES.match(line)
    expected = None
    if found is not None:
        one, two = (_OLD_RATING.sub("", name).strip() for name in found.groups())
        expected = (one, two)
    assert _score_names(line) == expected


def test_a_score_line_with_long_runs_of_blanks_is_read_in_linear_time() -> None:
    """A name of 90,000 blanks (the old pattern: 0.16 s for 10,000, quadratic): the bound
    leaves a loaded machine room and still fails the pattern (about 13 s)."""
    import time

    from bgkit.audit.files import _score_names

    for line in (
        " Alice" + " " * 90_000 + "x : 3       Bob : 5",
        " Alice : 3 " + "b " * 45_000 + "c",
        " A" + ": 1 x" * 18_000,
    ):
        start = time.monotonic()
        _score_names(line)
        assert time.monotonic() - start < 1, line[:40]
    assert _score_names(" Alice (1650.2) : 3       Bob,1700 : 5") == ("Alice", "Bob")
