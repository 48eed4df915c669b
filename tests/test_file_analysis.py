"""A record's own analysis (gnubg's SGF) read as gnubg reads and counts it, item by item.

The oracle is GNU Backgammon: the references it analysed and saved itself
(``tests/data/sgf_analysis``, see ``tests/make_sgf_references.py``), and the per-game
statistics (``GS``) gnubg writes into every SGF it saves, for the real analysed SGFs of
``data/real/sgf``.
"""

from __future__ import annotations

import gzip
from dataclasses import replace
from pathlib import Path

import pytest
from gnubg_reference import sgf_games

from bgkit import read_match
from bgkit.analysis.evaluator import CubeDecision
from bgkit.analysis.match import analysis_from_file
from bgkit.errors import AnalysisError
from bgkit.formats.annotations import CubeAnalysis
from bgkit.formats.mat import parse_mat
from bgkit.formats.sgf import parse_sgf
from bgkit.formats.sgf_analysis import analysis_of
from bgkit.play import Play, Step
from bgkit.records import Match, Move
from bgkit.replay import replay

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = Path(__file__).parent / "data" / "sgf_analysis"
REAL_SGF = sorted((ROOT / "data" / "real" / "sgf").glob("*.sgf"))


def reference(name: str) -> tuple[str, Match]:
    text = gzip.decompress((REFERENCES / f"{name}.sgf.gz").read_bytes()).decode("utf-8")
    return text, parse_sgf(text, source_name=f"{name}.sgf")


def game_stats(text: str) -> list[list[dict[str, float]]]:
    """gnubg's ``GS`` of every game: per player the figures bgkit's games table has."""
    out = []
    for nodes in sgf_games(text):
        gs = {v[0]: v[2:].split() for v in nodes[0].get("GS", [])}
        m, c, d = gs["M"], gs["C"], gs["D"]
        players = []
        for p in (0, 1):
            cube_emg = sum(float(c[20 + 12 * p + 2 * k]) for k in range(6))
            players.append(
                {
                    "unforced_moves": int(m[p]),
                    "total_moves": int(m[2 + p]),
                    "checker_error_emg": float(m[12 + 2 * p]),
                    "cube_decisions": int(c[p]),
                    "doubles": int(c[2 + p]),
                    "takes": int(c[4 + p]),
                    "passes": int(c[6 + p]),
                    "cube_error_emg": cube_emg,
                    "luck_emg": float(d[10 + 2 * p]),
                }
            )
        out.append(players)
    return out


def compare_games(text: str, match: Match) -> list[str]:
    """bgkit's figures per game and player against gnubg's ``GS`` (6 decimals written)."""
    result = analysis_from_file(match)
    wrong = []
    for index, players in enumerate(game_stats(text)):
        mine = [g for g in result.games_list if g["game"] == match.games[index].number]
        for p, theirs in enumerate(players):
            for key, value in theirs.items():
                # (gnubg sums in single precision and writes 6 decimals)
                ok = abs(mine[p][key] - value) <= 2e-5
                if value != value or value in (float("inf"), float("-inf")):
                    ok = mine[p][key] != mine[p][key]  # gnubg's luck not known: NaN, "n/a"
                if not ok:
                    wrong.append(
                        f"game {index + 1}, {match.players[p]}: {key} {mine[p][key]}"
                        f" against gnubg's {value}"
                    )
    return wrong


@pytest.mark.parametrize("name", ["match7.0ply", "money.0ply", "match3.2ply"])
def test_every_game_gives_gnubgs_own_game_statistics(name: str) -> None:
    text, match = reference(name)
    assert compare_games(text, match) == []


@pytest.mark.parametrize("path", REAL_SGF, ids=lambda p: p.name)
def test_real_analysed_sgfs_read_as_gnubg_counted_them(path: Path) -> None:
    """gnubg 1.07 and 1.08 files: per game, what gnubg wrote in GS (1.08's LU[-inf]: luck
    not known, NaN, not 0 and not a JSON error)."""
    text = path.read_text(encoding="utf-8")
    match = read_match(path)
    if "]A[" not in text:  # (no candidate plays: Gibbon's files)
        with pytest.raises(AnalysisError, match="holds no analysis"):
            analysis_from_file(match)
        return
    assert compare_games(text, match) == []
    import json

    json.dumps(analysis_from_file(match).to_dict(), allow_nan=False)


def test_a_games_luck_is_gnubgs_sum_unless_its_rolls_differ() -> None:
    """Each player's luck in a game is gnubg's own sum (``GS``), not the sum of the rolls'
    five-decimal ``LU``; a game whose record no longer has the rolls gnubg counted (a
    roll's ``LU`` taken out by hand) keeps the sum of what the record says."""
    text, match = reference("match7.0ply")
    gnubgs = game_stats(text)[0]
    rows = analysis_from_file(match).rows
    written = [sum(r["luck_emg"] or 0.0 for r in rows if r["game"] == 1 and r["player"] == p)
               for p in (0, 1)]  # fmt: skip
    first = analysis_from_file(match).games_list[:2]
    for p in (0, 1):
        assert first[p]["luck_emg"] == pytest.approx(gnubgs[p]["luck_emg"], abs=1e-6)
    assert max(abs(w - g["luck_emg"]) for w, g in zip(written, gnubgs, strict=True)) > 1e-6
    game = match.games[0]
    at = next(i for i, a in enumerate(game.actions) if isinstance(a, Move) and a.player == 0)
    move = game.actions[at]
    dropped = replace(move, annotations=tuple(kv for kv in move.annotations if kv[0] != "LU"))
    actions = (*game.actions[:at], dropped, *game.actions[at + 1 :])
    edited = replace(match, games=(replace(game, actions=actions), *match.games[1:]))
    result = analysis_from_file(edited)
    ann, bob = result.games_list[:2]
    lucks = [r["luck_emg"] for r in result.rows if r["game"] == 1 and r["player"] == 0]
    assert ann["luck_emg"] == pytest.approx(sum(x for x in lucks if x is not None), abs=1e-12)
    assert bob["luck_emg"] == pytest.approx(gnubgs[1]["luck_emg"], abs=1e-6)
    # statistics that are not these rolls' (the record analysed again, an earlier
    # analysis's GS kept): Bob's luck 0.001 EMG more than his rolls' is not taken
    stats = dict(game.annotations)["GS"]
    d = stats[2].split()
    d[12] = f"{float(d[12]) + 0.001:.6f}"  # (D: ten counts, then EMG and MWC of each)
    stale = (stats[0], stats[1], " ".join(d))
    kept = tuple((k, stale if k == "GS" else v) for k, v in game.annotations)
    edited = replace(match, games=(replace(game, annotations=kept), *match.games[1:]))
    bob = analysis_from_file(edited).games_list[1]
    assert bob["luck_emg"] == pytest.approx(written[1], abs=1e-12)


def test_a_dance_keeps_its_luck() -> None:
    """gnubg writes no A for a roll without a legal play, only its LU."""
    _, match = reference("match7.0ply")
    result = analysis_from_file(match)
    dances = [
        (step, row)
        for step, row in zip(replay(match), result.rows, strict=True)
        if isinstance(step.action, Move) and step.play == Play()
    ]
    assert len(dances) > 10
    for step, row in dances:
        written = dict(step.action.annotations)["LU"][0]
        note = analysis_of(step.action, step.before)
        assert note is not None and note.checker is not None
        assert note.checker.candidates == () and note.checker.luck == float(written)
        assert row["luck_emg"] == float(written) and row["forced"] and row["error_emg"] == 0.0


def test_candidates_keep_the_hits_gnubg_does_not_write() -> None:
    """gnubg writes one step per die and no hits: ``13/7*/4`` is ``mgmj jm...``."""
    _, match = reference("match5.0ply")
    step = next(s for s in replay(match) if (s.game_index, s.action_index) == (0, 2))
    assert step.action.dice == (6, 3) and step.player == 1
    note = analysis_of(step.action, step.before)
    assert note is not None and note.checker is not None
    plays = [c.play for c in note.checker.candidates]
    assert Play((Step(13, 7, True), Step(7, 4))) in plays
    shown = [str(p) for p in plays]
    assert "13/7*/4" in shown and shown.count("13/4") == 1  # (13/10/4: no hit)
    bare = analysis_of(step.action)  # without the position: gnubg's letters as written
    assert bare is not None and bare.checker is not None
    assert [str(c.play) for c in bare.checker.candidates].count("13/4") == 2


@pytest.mark.parametrize("name", ["match7.0ply", "match5.0ply", "money.0ply", "match3.2ply"])
def test_no_list_shows_a_play_twice_and_the_play_made_has_its_hits(name: str) -> None:
    _, match = reference(name)
    for step in replay(match):
        note = analysis_of(step.action, step.before)
        if note is None or note.checker is None or not note.checker.candidates:
            continue
        shown = [str(c.play) for c in note.checker.candidates]
        assert len(set(shown)) == len(shown), shown
        assert step.play is not None
        made = note.checker.candidates[note.checker.played].play
        assert sum(s.hit for s in made.steps) == sum(s.hit for s in step.play.steps)


def test_match_cube_values_become_emg() -> None:
    """gnubg writes match-play cube values as MWC; the model holds EMG (mwc2eq)."""
    _, match = reference("match7.0ply")
    step = next(s for s in replay(match) if s.kind == "double")
    note = analysis_of(step.action, step.before)
    raw = analysis_of(step.action)
    assert note is not None and raw is not None and note.cube and raw.cube
    assert raw.cube.no_double is not None and 0.0 < raw.cube.no_double < 1.0  # a MWC
    from bgkit.analysis.met import shipped_met

    table = shipped_met()
    assert note.cube.no_double == pytest.approx(
        table.mwc_to_emg(raw.cube.no_double, step.before), abs=1e-12
    )
    assert table.emg_to_mwc(note.cube.no_double or 0.0, step.before) == pytest.approx(
        raw.cube.no_double
    )


def test_an_accepted_beaver_counts_as_the_doublers_take() -> None:
    """money.0ply, game 2: Ann doubles, Bob beavers, Ann takes (gnubg writes the take;
    bgkit's record holds it in the beaver): gnubg counts one take for Ann."""
    text, match = reference("money.0ply")
    result = analysis_from_file(match)
    game = match.games[1]
    kinds = [type(a).__name__ for a in game.actions if not isinstance(a, Move)]
    assert kinds[:2] == ["Double", "Beaver"]
    ann = next(g for g in result.games_list if g["game"] == game.number and g["player"] == 0)
    assert ann["takes"] == game_stats(text)[1][0]["takes"] == 1


def _illegal_after_a_resignation() -> Match:
    text = """ 5 point match

 Game 1
 Ann : 0                        Bo : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2)  Wins 1 point

 Game 2
 Ann : 1                        Bo : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 66: 24/18(2) 13/7(2)        21: 13/11 6/5
      Wins 1 point
"""
    match = parse_mat(text, source_name="x.mat")
    game = match.games[1]
    bad = replace(game.actions[2], play=Play("24/12"))  # 66: a play of two dice only
    actions = (*game.actions[:2], bad, *game.actions[3:])
    return replace(match, games=(match.games[0], replace(game, actions=actions)))


def test_a_refusal_names_the_rule_broken_not_the_first_note() -> None:
    match = _illegal_after_a_resignation()
    with pytest.raises(AnalysisError) as caught:
        analysis_from_file(match)
    message = str(caught.value)
    assert message.startswith("x.mat:11:6: cannot analyse: illegal play 24/12 for 66")
    assert message.endswith("(game 2, move 2, Ann)") and "resign" not in message


def test_the_short_verdict_says_too_good_where_gnubg_does() -> None:
    # ND > DP > DT: gnubg's "Too good to double, take"
    decision = CubeDecision(no_double=1.2, double_take=0.9, double_pass=1.0)
    assert decision.action == "too good"
    cube = CubeAnalysis(no_double=1.2, double_take=0.9, double_pass=1.0)
    assert cube.proper_action == "too good, take"
    assert CubeDecision(0.9, 1.4, 1.0).action == "double, pass"
    assert CubeDecision(0.5, 0.3, 1.0).action == "no double"


def test_skipped_decisions_are_in_the_summary() -> None:
    from bgkit.cli.analyze import summary

    _, match = reference("money.2ply")
    result = analysis_from_file(match)
    result.skipped.append(
        {
            "game": 1,
            "move": 3,
            "player": 0,
            "name": "Ann",
            "action": "move",
            "dice": "63",
            "line": 9,
            "reason": "the play for 63 is not recorded",
        }
    )
    assert "not analysed: game 1 move 3 (Ann, 63): the play for 63 is not recorded" in summary(
        result
    )


UNKNOWN_ROLLS = sorted(
    p for p in (ROOT / "data" / "real" / "mat").glob("*.txt") if "????" in p.read_text("utf-8")
)


#: The record of those analysed at 2-ply (the deeper search of a roll with no play to keep);
#: what is skipped does not depend on the depth, so the others are analysed at 0-ply.
UNKNOWN_ROLLS_DEEP = (
    "lassehjorthmadsen__bglab__solnze_-_Lasse_3pt_Backgammon_Studio_2024_05_11_19_56_16.txt"
)


@pytest.mark.parametrize("path", UNKNOWN_ROLLS, ids=lambda p: p.name[:40])
def test_real_records_with_unrecorded_rolls_are_analysed(path: Path) -> None:
    """Backgammon Studio and XG transcriptions write ``????`` for a roll whose play is not
    known: the rest is analysed, and the skipped decisions are the verifier's notes."""
    from bgkit.analysis.match import analyze
    from bgkit.verify import IssueKind, verify

    assert any(p.name == UNKNOWN_ROLLS_DEEP for p in UNKNOWN_ROLLS)
    match = read_match(path)
    notes = [i for i in verify(match).issues if i.kind is IssueKind.UNVERIFIABLE]
    result = analyze(match, 2 if path.name == UNKNOWN_ROLLS_DEEP else 0, jobs=1)
    unknown = [s for s in result.skipped if s["reason"].startswith("the play for")]
    assert [(s["line"], s["game"], s["move"]) for s in unknown] == [
        (i.line, i.game, i.move) for i in notes
    ]
    assert len(result.rows) > 50 and all(p["unforced_moves"] > 10 for p in result.players_list)


@pytest.mark.parametrize(
    "name",
    [
        "kevung__gbf__test.sgf",  # three rolls gnubg recorded without a play
        "kevung__gnubgparser__charlot1-charlot2_7p_2025-11-08-2305.sgf",  # no error, no luck
    ],
)
def test_the_html_report_of_a_real_analysed_sgf(name: str) -> None:
    from bgkit.reports.figures import summary_table
    from bgkit.reports.match_report import html_report
    from bgkit.reports.viewer import viewer_data

    match = read_match(ROOT / "data" / "real" / "sgf" / name)
    result = analysis_from_file(match)
    page = html_report(match, result)
    assert page.startswith("<!DOCTYPE html>")
    cubes = [s["cu"] for s in viewer_data(match, result)["steps"] if "cu" in s]
    assert cubes and all(cube["dp"] == 1.0 for cube in cubes)  # (gnubg writes no pass)
    assert not summary_table(result).empty
    for entry in result.skipped:  # (kevung__gbf__test.sgf: 3 rolls without a play)
        assert f"game {entry['game']}, move {entry['move']}" in page


@pytest.mark.parametrize(
    "key, values",
    [
        ("LU", ("abc",)),
        ("LU", ("-inf",)),
        ("A", ("x",)),
        ("A", ("0", "qtst E ver 3 0.5 0.1 0 0.1 0 nan 0C 0 1 0.000000 1")),
        ("A", ("3", "qtst E ver 3 0.5 0.1 0 0.1 0 0.1 0C 0 1 0.000000 1")),
        ("DA", ("E ver 3 0C 1 0.0 1 " + " ".join(["inf"] * 14),)),
        ("DA", ("E ver 3 0C 1 0.0 1 " + " ".join(["x"] * 14),)),
    ],
)
def test_gnubg_properties_that_do_not_parse_count_as_not_analysed(
    key: str, values: tuple[str, ...]
) -> None:
    from bgkit.position import Position

    move = Move(1, (3, 1), Play("8/5 6/5"), annotations=((key, values),))
    before = replace(Position.initial(), turn=1, match_length=7)
    for position in (None, before):
        assert analysis_of(move, position) is None


@pytest.mark.parametrize("name", ["match7.0ply", "money.2ply"])
def test_fewer_candidates_read_give_the_same_rows(name: str) -> None:
    """``candidates``: the notes keep the best plays and every one up to the play made;
    the rows and summaries are those of reading every candidate."""
    _, match = reference(name)
    full = analysis_from_file(match)
    for keep in (1, 3):
        brief = analysis_from_file(match, candidates=keep)
        assert repr((brief.rows, brief.players_list, brief.games_list)) == repr(
            (full.rows, full.players_list, full.games_list)
        )
        kept = 0
        for note, whole in zip(brief.notes, full.notes, strict=True):
            if note is None or note.checker is None:
                assert note == whole
                continue
            checker, every = note.checker, whole.checker
            assert every is not None and checker.played == every.played
            assert checker.candidates == every.candidates[: max(keep, (every.played or 0) + 1)]
            kept += len(checker.candidates) < len(every.candidates)
        assert kept > 10


def test_a_damaged_candidate_not_kept_still_counts_the_roll_as_not_analysed() -> None:
    """A damaged value anywhere in ``A`` makes the roll's analysis unreadable, whether or
    not the candidate is kept (as the SGF reader and the verifier report it)."""
    from bgkit.position import Position

    good = "qtst E ver 3 0.5 0.1 0 0.1 0 0.1 0C 0 1 0.000000 1"
    damaged = "qrst E ver 3 0.5 0.1 0 0.1 0 nan 0C 0 1 0.000000 1"
    move = Move(1, (3, 1), Play("8/5 6/5"), annotations=(("A", ("0", good, damaged)),))
    before = replace(Position.initial(), turn=1, match_length=7)
    for keep in (None, 1):
        assert analysis_of(move, before, candidates=keep) is None
    assert analysis_of(replace(move, annotations=(("A", ("0", good, good)),)), before, candidates=1)


def test_each_row_names_the_phase_of_its_position() -> None:
    from bgkit.position import Position

    _, match = reference("match7.0ply")
    rows = analysis_from_file(match).rows
    assert {row["phase"] for row in rows} == {"contact", "race", "bear-off"}
    for row in rows:
        assert row["phase"] == Position.from_gnubg_id(row["position_id"]).phase()
