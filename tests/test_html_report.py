"""bgkit.html_report: a self-contained page that parses, holds every figure and board, and renders.

The rendering test takes a screenshot of the page in headless Chromium (skipped when no
Chromium is installed: ``apt-get install chromium``) and checks that the figures and the
boards were drawn, by their colours.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from functools import cache
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("pandas")
pytest.importorskip("matplotlib")
pytest.importorskip("gnubg")

from bgkit.analysis import Analysis, analyze
from bgkit.formats import read_match
from bgkit.html_report import WORST, html_report, write_html_report
from bgkit.records import Match

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
    assert "worst" in tables
    boards = [a for t, a in parsed.tags if t == "svg" and a.get("class") == "bgkit-board"]
    errors = analysis.moves["error_emg"].astype(float).fillna(0).gt(0).sum()
    errors += analysis.moves["cube_error_emg"].astype(float).fillna(0).gt(0).sum()
    decisions = sum(note is not None for note in analysis.notes)
    assert len(boards) == min(WORST, errors) + decisions  # the worst, and every decision
    text = " ".join(parsed.text)
    for words in ("Alice vs. Bob, 3-point match", "Statistics", "Unforced moves", "Worst"):
        assert words in text
    # self-contained: no scripts, no links to other files
    assert "script" not in names
    assert not [a for _, a in parsed.tags if a.get("src") or a.get("href", "#").startswith("h")]


def test_every_decision_has_its_block_board_candidates_and_marks() -> None:
    match, analysis = analysed()
    page = html_report(match, analysis)
    parsed = parse(page)
    sections = [a for t, a in parsed.tags if t == "section"]
    analysed_rows = [i for i, note in enumerate(analysis.notes) if note is not None]
    assert [a["id"] for a in sections] == [f"d-{i}" for i in analysed_rows]
    rolls = [i for i in analysed_rows if analysis.notes[i].checker]  # type: ignore[union-attr]
    candidate_tables = [
        a for t, a in parsed.tags if t == "table" and a.get("class") == "candidates"
    ]
    assert len(candidate_tables) == sum(
        1
        for i in rolls
        if analysis.notes[i].checker.candidates  # type: ignore[union-attr]
    )
    # every marked decision links to the next one, the last says it is the last
    marked = [
        i for i in analysed_rows if analysis.rows[i]["skill"] or analysis.rows[i]["cube_skill"]
    ]
    links = [
        a["href"] for t, a in parsed.tags if t == "a" and (a.get("href") or "").startswith("#d-")
    ]
    assert links == [f"#d-{marked[0]}"] + [f"#d-{i}" for i in marked[1:]]
    text = " ".join(parsed.text)
    assert "last error" in text and "The match, decision by decision" in text
    assert sum(text.count(m) for m in ("?!", "??")) >= 1
    assert "Game 1, score 0-0" in text and "Cube: no double" in text


def test_the_report_of_xgs_own_analysis() -> None:
    from bgkit.analysis import analysis_from_file

    match = read_match(ROOT / "data" / "real" / "xg" / "kevung__gbf__test.xg")
    analysis = analysis_from_file(match)
    page = html_report(match, analysis)
    parsed = parse(page)
    sections = [a for t, a in parsed.tags if t == "section"]
    assert len(sections) == sum(note is not None for note in analysis.notes) > 300
    text = " ".join(parsed.text)
    assert "Analysed by eXtreme Gammon: the record's own analysis" in text
    assert "→ <b>no double, take</b>" in page and "→ <b></b>" not in page  # every cube worded
    assert "no graph of it" in text  # XG gives no equity before each roll


def test_every_svg_is_valid_xml_and_ids_are_unique() -> None:
    page = html_report(*analysed())
    svgs = re.findall(r"<svg\b.*?</svg>", page, flags=re.S)
    assert len(svgs) >= 5
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
    analysed_rows = sum(note is not None for note in analysis.notes)
    assert dom.count('<section class="decision') == analysed_rows > 10
    assert near("#6b4226")  # the boards' frame
    assert near("#1f77b4")  # player 0's colour in the figures
    assert near("#d95f02")  # player 1's colour
    assert not near("#00ff00")  # (a colour the page does not use)
