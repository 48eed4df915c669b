"""match_report: a self-contained page that parses, holds every figure and board, and renders.

The rendering test takes a screenshot of the page in headless Chromium (skipped when no
Chromium is installed: ``apt-get install chromium``) and checks that the figures and the
boards were drawn, by their colours.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pandas")
pytest.importorskip("matplotlib")
pytest.importorskip("gnubg")

from bgkit.analysis.match import Analysis, analyze
from bgkit.formats import read_match
from bgkit.records import Match
from bgkit.reports.match_report import WORST, html_report, write_html_report

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "data" / "fixtures" / "handwritten_3pt.mat"
VOID = {"meta", "br", "img", "hr", "link", "input", "col"}


@cache
def analysed() -> tuple[Match, Analysis]:
    match = read_match(RECORD)
    return match, analyze(match, 0, jobs=1)


class Checker(HTMLParser):
    """Collects the tags and checks that every element is closed in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.problems: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> Checker:
    checker = Checker()
    checker.feed(page)
    checker.close()
    assert checker.problems == []
    assert checker.stack == []
    return checker


def test_the_page_parses_and_holds_figures_tables_and_boards() -> None:
    match, analysis = analysed()
    page = html_report(match, analysis)
    parsed = parse(page)
    names = [t for t, _ in parsed.tags]
    assert names[:3] == ["html", "head", "meta"]
    assert names.count("figure") == 4  # equity, luck, errors, race
    assert names.count("figcaption") == 4
    tables = [a.get("class") or "" for t, a in parsed.tags if t == "table"]
    assert any("summary" in c for c in tables)
    assert any("games" in c for c in tables)
    assert "worst" in [a.get("class") for t, a in parsed.tags if t == "div"]
    boards = [a for t, a in parsed.tags if a.get("data-bgv-board") is not None]
    errors = analysis.moves["error_emg"].astype(float).fillna(0).gt(0).sum()
    errors += analysis.moves["cube_error_emg"].astype(float).fillna(0).gt(0).sum()
    assert len(boards) == min(WORST, errors)  # the worst, drawn by the viewer's script
    assert [a.get("class") for t, a in parsed.tags if t == "div"].count("bgkit-viewer") == 1
    text = " ".join(parsed.text)
    for words in ("Alice vs. Bob, 3-point match", "Statistics", "Unforced moves", "Worst"):
        assert words in text
    # self-contained: scripts in the page only, no links to other files
    assert not [a for _, a in parsed.tags if a.get("src") or a.get("href", "#").startswith("h")]
    for loader in ("fetch(", "XMLHttpRequest", "import(", "WebSocket", "<link", "<iframe"):
        assert loader not in page


def viewer_data(page: str) -> dict[str, Any]:
    start = page.index('<script type="application/json" class="bgv-data">')
    start = page.index(">", start) + 1
    return json.loads(page[start : page.index("</script>", start)])  # type: ignore[no-any-return]


def test_the_viewer_holds_every_action_its_candidates_cube_and_marks() -> None:
    match, analysis = analysed()
    page = html_report(match, analysis)
    steps = viewer_data(page)["steps"]
    actions = [s for s in steps if s["k"] != "end"]
    assert len(actions) == len(analysis.rows)
    assert [s["k"] for s in steps].count("end") == len(match.games)
    for step, row, note in zip(actions, analysis.rows, analysis.notes, strict=True):
        assert step["id"] == row["position_id"].split(":")[0]
        if step["k"] == "move":
            assert step["id"] + ":" + step["mid"] == row["position_id"]
        if note is not None and note.checker is not None and note.checker.candidates:
            assert [c[0] for c in step["cs"]] == [str(c.play) for c in note.checker.candidates]
        if note is not None and note.cube is not None:
            assert step["cu"]["nd"] == round(note.cube.no_double, 4)
            assert step["cu"]["w"] is not None  # the chances behind the equities
    marks = [s.get("m") for s in actions if s.get("m")]
    assert marks and set(marks) <= {"doubtful", "bad", "very bad"}
    assert "The record stops at 1-0 (Alice first)." in page  # who won, when one did


def test_the_report_of_xgs_own_analysis() -> None:
    from bgkit.analysis.match import analysis_from_file

    match = read_match(ROOT / "data" / "real" / "xg" / "kevung__gbf__test.xg")
    analysis = analysis_from_file(match)
    page = html_report(match, analysis)
    text = " ".join(parse(page).text)
    steps = viewer_data(page)["steps"]
    assert len([s for s in steps if s["k"] != "end"]) == len(analysis.rows) > 300
    assert "Analysed by eXtreme Gammon: the record's own analysis" in text
    verdicts = [s["cu"]["v"] for s in steps if "cu" in s]
    assert "no double, take" in verdicts and "" not in verdicts  # every cube worded
    assert "no graph of it" in text  # XG gives no equity before each roll


def test_every_svg_is_valid_xml_and_ids_are_unique() -> None:
    page = html_report(*analysed())
    page = re.sub(r"<script\b.*?</script>", "", page, flags=re.S)  # (the viewer's own)
    svgs = re.findall(r"<svg\b.*?</svg>", page, flags=re.S)
    assert len(svgs) == 4  # the figures (the boards are drawn by the viewer)
    for svg in svgs:
        ET.fromstring(svg)
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert ids and len(ids) == len(set(ids))
    for ref in set(re.findall(r"url\(#([^)]+)\)", page)):
        assert ref in ids


def test_write_is_atomic_and_never_overwrites_without_force(tmp_path: Path) -> None:
    match, analysis = analysed()
    out = tmp_path / "report.html"
    write_html_report(match, analysis, out)
    first = out.read_text(encoding="utf-8")
    assert first.startswith("<!DOCTYPE html>")
    with pytest.raises(FileExistsError, match="--force"):
        write_html_report(match, analysis, out)
    out.write_text("old", encoding="utf-8")
    write_html_report(match, analysis, out, force=True)
    assert out.read_text(encoding="utf-8") == first  # the same page again
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]  # no temporary files left


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.mark.skipif(chromium() is None, reason="no Chromium to render the page")
def test_chromium_renders_the_figures_and_boards(tmp_path: Path) -> None:
    from matplotlib.image import imread

    match, analysis = analysed()
    page = tmp_path / "report.html"
    write_html_report(match, analysis, page)
    shot = tmp_path / "report.png"
    browser = chromium()
    assert browser is not None
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--hide-scrollbars",
            "--window-size=1200,6000",
            f"--screenshot={shot}",
            page.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    import numpy as np

    image = np.rint(255 * imread(shot)[:, :, :3]).astype(int)
    assert image.shape[:2] == (6000, 1200)
    codes = np.unique(image.reshape(-1, 3) @ np.array([65536, 256, 1]))
    pixels = np.stack([codes // 65536, codes // 256 % 256, codes % 256], axis=1)
    assert len(pixels) > 200  # text, figures and boards, not a blank page

    def near(color: str) -> bool:
        want = np.array([int(color[i : i + 2], 16) for i in (1, 3, 5)])
        return bool((np.abs(pixels - want).max(axis=1) <= 6).any())

    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
         f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", page.as_uri()],
        check=True, capture_output=True, text=True, timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    ).stdout  # fmt: skip
    errors = analysis.moves["error_emg"].astype(float).fillna(0).gt(0).sum()
    errors += analysis.moves["cube_error_emg"].astype(float).fillna(0).gt(0).sum()
    drawn = re.findall(r'data-board="[-a-oA-O]{26}"', dom)  # by the viewer's script
    assert len(drawn) == 1 + min(WORST, errors)
    assert near("#6b4226")  # the boards' frame
    assert near("#1f77b4")  # player 0's colour in the figures
    assert near("#d95f02")  # player 1's colour
    assert not near("#00ff00")  # (a colour the page does not use)


def test_a_match_shows_the_viewer_in_jupyter_up_to_a_fault() -> None:
    match, analysis = analysed()
    shown = match._repr_html_()
    assert shown.count('<div class="bgkit-viewer"') == 1 and "Alice" in shown
    assert '"analysed":false' in shown  # a record alone: its actions, no candidates
    assert '"analysed":true' in analysis._repr_html_()
    illegal = read_match(ROOT / "data" / "fixtures" / "handwritten_3pt_illegal1.mat")
    shown = illegal._repr_html_()
    assert shown.count('<div class="bgkit-viewer"') == 1  # (the game up to its fault)
    assert "the record says no more of this game: " in shown and ":8:34: blocked" in shown
