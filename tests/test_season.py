"""A season of matches (``bgkit.season``, ``bgkit analyze FOLDER``), issue 17.

The season of ``data/real/mat`` (87 real records of five sources, 79 that replay) is
analysed once on two local processes and once on a Dask LocalCluster: every number must
be the same. Then what the season says is checked against the records themselves.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("gnubg")
pd = pytest.importorskip("pandas")
pytest.importorskip("matplotlib")

from bgkit.cli import main  # noqa: E402
from bgkit.season import PHASES, Season, analyze_season  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "data" / "real" / "mat"
SELFPLAY = sorted((ROOT / "data" / "selfplay").glob("*.mat"))[:4]


@pytest.fixture(scope="module")
def season() -> Season:
    return analyze_season(FOLDER, jobs=2, progress=False)


def test_a_folder_of_at_least_50_real_matches(season: Season) -> None:
    assert len(list(FOLDER.iterdir())) >= 50
    assert season.matches["file"].nunique() >= 50
    assert len(season.rows) == 2 * season.matches["file"].nunique() + len(season.skipped)


def test_a_dask_cluster_gives_the_same_numbers(season: Season) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            # a free port: None still binds 8787, which another test module may hold
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = analyze_season(FOLDER, client=client, progress=False)
    pd.testing.assert_frame_equal(on_dask.rows, season.rows, check_exact=True)


def test_what_a_season_says_of_a_match(season: Season) -> None:
    rows = season.matches
    galaxy = rows[rows["file"].str.endswith("lassehjorthmadsen__bglab__match12422863.txt")]
    assert galaxy.set_index("name")[["opponent", "date", "event", "score", "won"]].to_dict(
        "index"
    ) == {
        "Hossein Aghili": {
            "opponent": "lasse",
            "date": "2024-10-28",
            "event": "BackgammonGalaxy",
            "score": "2-7",
            "won": False,
        },
        "lasse": {
            "opponent": "Hossein Aghili",
            "date": "2024-10-28",
            "event": "BackgammonGalaxy",
            "score": "7-2",
            "won": True,
        },
    }
    studio = rows[rows["file"].str.contains("Backgammon_Studio_2023_01_09")]
    assert set(studio["date"]) == {"2023-01-09"}  # from the file name


def test_the_phases_split_every_unforced_move_and_its_error(season: Season) -> None:
    rows = season.matches
    moves = sum(rows[f"moves_{p}"] for p in PHASES)
    errors = sum(rows[f"error_emg_{p}"] for p in PHASES)
    assert (moves == rows["unforced_moves"]).all()
    assert ((errors - rows["checker_error_emg"]).abs() < 1e-9).all()


def test_players_over_the_season(season: Season) -> None:
    players = season.players.set_index("name")
    rows = season.matches
    lasse = rows[rows["name"] == "lasse"]
    matches = lasse[lasse["length"] > 0]
    assert players.at["lasse", "matches"] == len(matches) >= 20
    assert players.at["lasse", "sessions"] == (lasse["length"] == 0).sum()
    decisions = lasse["unforced_moves"].sum() + lasse["close_cube_decisions"].sum()
    assert players.at["lasse", "pr"] == pytest.approx(500 * lasse["error_emg"].sum() / decisions)
    assert players.at["lasse", "won"] + players.at["lasse", "lost"] + players.at[
        "lasse", "unfinished"
    ] == len(matches)
    assert players.at["lasse", "first"] < players.at["lasse", "last"]


def test_the_costliest_plays_are_the_worst_of_the_season(season: Season) -> None:
    worst = season.costliest(5)
    assert list(worst["error_emg"]) == sorted(worst["error_emg"], reverse=True)
    assert worst["error_emg"].iloc[0] == season.rows["worst_error_emg"].max()


def test_the_page_in_a_browser(season: Season, tmp_path: Path) -> None:
    page = tmp_path / "season.html"
    season.write_html(page)
    text = page.read_text()
    assert not any(f'{a}="http' in text for a in ("src", "href"))  # (scripts are inline)
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("no Chromium")
    args = [browser, "--headless", "--no-sandbox", "--disable-gpu"]
    dom = subprocess.run(
        [*args, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120
    ).stdout
    assert dom.count("<figure") == 5  # form, results, rating, error against luck, phases
    assert len(re.findall(r'data-bgv-board="\d+"', dom)) == 10
    assert len(re.findall(r'data-board="[-a-oA-O]{26}"', dom)) == 10  # drawn by the script
    assert dom.count("<tr>") > (season.matches["name"] == season.subject).sum()
    shot = tmp_path / "season.png"
    subprocess.run(
        [*args, "--window-size=1200,3000", f"--screenshot={shot}", page.as_uri()],
        capture_output=True,
        timeout=120,
    )
    assert shot.stat().st_size > 50_000


def test_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "season"
    folder.mkdir()
    for path in SELFPLAY:
        shutil.copy(path, folder)
    (folder / "notes.txt").write_text("not a record\n")
    runner = CliRunner()
    done = runner.invoke(main, ["analyze", str(folder), "--plies", "0", "--jobs", "1"])
    assert done.exit_code == 0, done.output
    assert "4 matches analysed (0-ply)" in done.output and "Alice: 4 matches" in done.output
    assert "not analysed: " not in done.output  # (notes.txt is not a record: not looked at)
    out = tmp_path / "s.json"
    parquet = tmp_path / "rows.csv"
    args = ["analyze", str(folder), "-p", "0", "--json", str(out), "--csv", "-", "-o", str(parquet)]
    done = runner.invoke(main, args)
    assert done.exit_code == 0, done.output
    doc = json.loads(out.read_text())
    assert len(doc["matches"]) == 8 and {p["name"] for p in doc["players"]} == {"Alice", "Bob"}
    assert done.output.startswith("file,date,event,length,")
    again = runner.invoke(main, [*args[:4], "--json", str(tmp_path / "t.json"), "-o", str(parquet)])
    assert again.exit_code == 0, again.output  # (resumed: nothing analysed again)
    assert json.loads((tmp_path / "t.json").read_text()) == doc
    wrong = runner.invoke(main, ["analyze", str(folder), "--sgf", str(tmp_path / "x.sgf")])
    assert wrong.exit_code == 2 and "for one match" in wrong.output
    single = runner.invoke(main, ["analyze", str(SELFPLAY[0]), "-o", str(parquet)])
    assert single.exit_code == 2 and "are for a folder" in single.output


def test_names_are_compared_case_blind_and_aliases_merge(season: Season) -> None:
    names = season.players["name"]
    assert names.str.casefold().is_unique  # Llabba and llabba are one player
    most = season.matches["name"].value_counts()
    assert most[season.subject] == most.iloc[0]  # in most matches (of two tied, either)
    about = season.about("LLABBA")
    assert about.subject is not None and about.subject.casefold() == "llabba"
    mine = about.matches[about.matches["name"] == about.subject]
    opponents, months = about.opponents(), about.by_month()
    assert opponents["matches"].sum() + opponents["sessions"].sum() == len(mine)
    assert months["matches"].sum() + months["sessions"].sum() == mine["date"].notna().sum()
    merged = season.about("lasse", {about.subject: "lasse"})
    assert merged.subject == "lasse"
    both = len(season.matches[season.matches["name"].isin(["lasse", about.subject])])
    assert len(merged.matches[merged.matches["name"] == "lasse"]) == both


def test_the_matches_table_is_made_once_and_handed_out_as_a_copy(season: Season) -> None:
    first = season.matches
    assert first is not season.matches  # a copy each time
    first["name"] = "changed"  # the caller's copy: the season's is as it was
    first.loc[first.index[0], "pr"] = -1.0
    again = season.matches
    assert len(again) > 0 and "changed" not in set(again["name"])
    assert again.equals(season.matches)
    assert "_matches" in vars(season)  # made once for this season
    merged = season.about(season.subject, {"Somebody Else": str(season.subject)})
    assert "_matches" not in vars(merged)  # another season: made again, for its names
    assert merged.matches["name"].tolist() == season.matches["name"].tolist()


def test_scores_are_capped_at_the_match_length() -> None:
    from bgkit.season import _capped

    assert _capped("16-4", 13) == "13-4" and _capped("7-2", 7) == "7-2"
    assert _capped("16-4", 0) == "16-4"  # money: as written


def test_the_command_line_about_a_player(tmp_path: Path) -> None:
    folder = tmp_path / "season"
    folder.mkdir()
    for path in SELFPLAY:
        shutil.copy(path, folder)
    text = SELFPLAY[0].read_text().replace("Bob", "bob")  # the same player, written lower
    (folder / "renamed.mat").write_text(text)
    (folder / "broken.mat").write_text(" 5 point match\n\n Game 1\n garbage\n")
    runner = CliRunner()
    quick = ["analyze", str(folder), "--jobs", "1", "--plies", "0"]  # (2-ply: 170 s in CI)
    done = runner.invoke(main, [*quick, "--player", "BOB"])
    assert done.exit_code == 0, done.output
    assert "Bob: 5 matches, won 0, lost 5" in done.output
    assert "broken.mat: unreadable-line: " in done.output and ":4:9:" in done.output
    alias = [*quick, "--player", "B", "--alias", "b=Bob"]
    assert "Bob: 5 matches" in runner.invoke(main, alias).output
    nobody = runner.invoke(main, [*quick, "--player", "zed"])
    assert nobody.exit_code == 2 and "nobody of that name" in nobody.output
    page = tmp_path / "bob.html"
    done = runner.invoke(main, [*alias, "--html", str(page)])
    assert done.exit_code == 0, done.output
    html = page.read_text()
    assert "<h2>Opponents</h2>" in html and "<h2>Bob's matches</h2>" in html
    assert "broken.mat" in html and ">lost<" in html


def test_single_game_sessions_count_as_money_and_scores_as_capped() -> None:
    session = ROOT / "data" / "conventions" / "galaxy-jacoby-session.mat"  # ann loses 1 point
    season = analyze_season([str(session), str(SELFPLAY[0])], jobs=1, progress=False)
    rows = season.matches.set_index(["file", "name"])[["length", "score", "won"]]
    assert rows.loc[(str(session), "ann")].tolist() == [0, "-1", False]
    assert rows.loc[(str(session), "bo")].tolist() == [0, "+1", True]
    raw = season.rows.set_index(["file", "name"])
    written = raw.loc[(str(SELFPLAY[0]), "Alice"), "score"]  # as the record adds it up
    assert written == "8-0" and rows.loc[(str(SELFPLAY[0]), "Alice"), "score"] == "5-0"


def test_the_luck_adjustment_narrows_a_real_season(season: Season) -> None:
    """On real matches (lasse's Galaxy and Backgammon Studio season) the luck-adjusted
    result varies less than the result, and so does the rating it gives."""
    results = season.about("lasse").results().set_index("name")
    assert results.at["lasse", "matches"] >= 20
    assert 0.2 < results.at["lasse", "narrower"] < 1
    track = season.about("lasse").rating()
    assert track["luck_adjusted_change"].std() < 0.8 * track["change"].std()
    money = season.about("lasse").money()
    assert (money["sessions"] > 0).all()  # (Galaxy's single-game sessions, as money)
