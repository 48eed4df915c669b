"""``bgkit audit`` on the command line: text, JSON, CSV, exit codes, resuming, the HTML page
(parsed, and rendered by headless Chromium when it is installed)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("pandas")

from click.testing import CliRunner, Result

from bgkit.audit import FINDING_COLUMNS
from bgkit.cli import main

EVENT = Path("data/event")


def run(*args: str) -> Result:
    return CliRunner().invoke(main, ["audit", *args], catch_exceptions=False)


def test_a_clean_file_exits_0_and_says_so() -> None:
    result = run("data/selfplay/selfplay_0003.mat")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines()[-1].startswith("1 file(s), 2 game(s): 1 without findings")


def test_findings_as_compilers_write_them_and_exit_1() -> None:
    result = run("-q", str(EVENT), "--players", str(EVENT / "roster.csv"))
    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert (
        "data/event/loaded_dice_13pt.mat:7:1: warning: 'Dmitri' is not on the roster;"
        " did you mean 'Dimitri'? (Dmitri)"
    ) in lines
    assert any(
        line.startswith("data/event/match10030560_resubmitted.sgf:1:1: warning: the same match as")
        for line in lines
    )
    assert any(
        line.startswith("data/event/loaded_dice_13pt.mat:7:1: warning: Dmitri's dice in this match")
        for line in lines
    )
    assert not any(": note: " in line for line in lines)  # -q


def test_json_lines_in_verify_s_shape_with_same_as_and_p_value() -> None:
    result = run("--json", str(EVENT))
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    keys = list(FINDING_COLUMNS)
    assert all(list(row) == keys for row in rows)
    (dup,) = [r for r in rows if r["kind"] == "duplicate"]
    assert dup["same_as"] == "data/event/lassehjorthmadsen__bglab__match10030560.txt"
    (dice,) = [r for r in rows if r["kind"] == "dice"]
    assert dice["player"] == "Dmitri" and 0 < dice["p_value"] < 1e-6
    verify = CliRunner().invoke(main, ["verify", "--json", str(EVENT)])
    issues = [json.loads(line) for line in verify.stdout.splitlines()]
    ours = [{k: r[k] for k in keys[:9]} for r in rows if r["kind"] in {i["kind"] for i in issues}]
    assert ours == issues


def test_csv_and_a_bad_level_and_exit_2_for_an_unreadable_file(tmp_path: Path) -> None:
    out = tmp_path / "findings.csv"
    assert run(str(EVENT), "--csv", str(out)).exit_code == 1
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert {r["kind"] for r in rows} >= {"duplicate", "dice", "resignation"}
    assert run(str(EVENT), "--csv", str(out)).exit_code == 2  # no overwrite without --force
    bad = run(str(EVENT), "--require-level", "deep")
    assert bad.exit_code == 2 and "--require-level: not a level" in bad.stderr
    broken = run("data/fixtures/handwritten_3pt_syntax3.mat")
    assert broken.exit_code == 2
    assert broken.stderr.startswith("data/fixtures/handwritten_3pt_syntax3.mat:1:4: error: ")
    # a bad line is a located error, the rest of the file is read: exit 1, not 2
    bad_line = run("data/fixtures/handwritten_3pt_syntax2.mat")
    assert bad_line.exit_code == 1
    assert bad_line.stderr.startswith("data/fixtures/handwritten_3pt_syntax2.mat:9:6: error: ")


def test_output_resumes_and_a_rerun_gives_the_same_findings(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    folder = tmp_path / "event"
    shutil.copytree(EVENT, folder)
    store = tmp_path / "audit.parquet"
    first = run("--json", str(folder), "--output", str(store))
    assert store.exists()
    second = run("--json", str(folder), "--output", str(store), "--alpha", "0.5")
    # the dice findings depend on alpha, computed again from the stored facts
    one = [json.loads(x) for x in first.stdout.splitlines()]
    two = [json.loads(x) for x in second.stdout.splitlines()]
    assert [r for r in one if r["kind"] != "dice"] == [r for r in two if r["kind"] != "dice"]
    assert len([r for r in two if r["kind"] == "dice"]) > 1


class Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.links.append(value)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def page_of(tmp_path: Path) -> Path:
    target = tmp_path / "event.html"
    result = run(str(EVENT), "--players", str(EVENT / "roster.csv"), "--html", str(target))
    assert result.exit_code == 1
    return target


def test_the_page_holds_every_section_and_nothing_from_outside(tmp_path: Path) -> None:
    page = Page()
    page.feed(page_of(tmp_path).read_text())
    text = " ".join(page.text)
    for heading in ("Files", "Duplicates", "Players", "Dice", "Findings by file"):
        assert heading in text
    assert page.links == []  # self-contained
    assert page.tags.count("svg") == 10  # a figure per player who rolled 20 times or more
    assert "match10030560_resubmitted.sgf" in text and "did you mean 'Dimitri'?" in text


BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(BROWSER is None, reason="no Chromium to render the page")
@pytest.mark.parametrize("width", [390, 1280])
def test_chromium_lays_the_page_out_within_the_window(tmp_path: Path, width: int) -> None:
    """Chromium renders the page; no element but the tables' scrolling boxes is wider
    than the window (a phone's 390 px, a desktop's 1280), and every figure is drawn."""
    browser = BROWSER
    assert browser is not None
    page = page_of(tmp_path)
    probe = page.with_name("probe.html")
    script = (
        "<script>window.onload=()=>{const w=document.documentElement.clientWidth;"
        "const wide=[...document.querySelectorAll('main > *')]"
        ".filter(e=>e.getBoundingClientRect().right>w+1).map(e=>e.tagName);"
        "const svgs=[...document.querySelectorAll('svg')].filter(s=>s.getBoundingClientRect()"
        ".width>100).length;document.body.setAttribute('data-probe',"
        "JSON.stringify({w,wide,svgs}));};</script>"
    )
    probe.write_text(page.read_text().replace("</body>", script + "</body>"))
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={tmp_path / 'profile'}", f"--window-size={width},900",
         "--virtual-time-budget=3000", "--dump-dom", probe.as_uri()],
        check=True, capture_output=True, text=True, timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    ).stdout  # fmt: skip
    found = dom.split('data-probe="', 1)[1].split('"', 1)[0].replace("&quot;", '"')
    probe_data = json.loads(found)
    assert probe_data["wide"] == []
    assert probe_data["svgs"] == 10


def test_an_output_of_an_audit_without_luck_is_not_reused_with_luck(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    store = tmp_path / "audit.parquet"
    assert run("data/selfplay/selfplay_0003.mat", "--output", str(store)).exit_code == 0
    again = run("data/selfplay/selfplay_0003.mat", "--output", str(store), "--luck")
    assert again.exit_code == 2
    assert "holds an audit made without --luck; choose another output file" in again.stderr
