"""The match and season reports in a real browser (issue 33): headless Chromium, driven by
Playwright's Python package, at a phone's width (390x844) and a laptop's (1280x800).

Checked on each page: no element past the screen's edge, no text under 9 CSS px (an SVG
text by its size on the screen: its font size times the SVG's scale), no script error;
the viewer steps through every action of ``data/sample.mat`` by the keyboard and shows
each step's Position ID as :func:`bgkit.replay` gives it; the board it draws after each
play and after each candidate is the position bgkit's rules engine gives; a 13-point
match's report is under 1 MB and opens in under a second.

Skipped when Playwright or a Chromium is missing (``pip install playwright``; the
system's ``/usr/bin/chromium``, or any ``chromium`` on the PATH). Set
``BGKIT_SCREENSHOTS=DIR`` to keep a screenshot of each page at each width.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pandas")
pytest.importorskip("matplotlib")
pytest.importorskip("gnubg")
sync_api = pytest.importorskip("playwright.sync_api")

from bgkit.analysis.match import Analysis, analyze  # noqa: E402
from bgkit.formats import read_match  # noqa: E402
from bgkit.records import Match  # noqa: E402
from bgkit.replay import replay  # noqa: E402
from bgkit.reports.match_report import write_html_report  # noqa: E402
from bgkit.reports.viewer import board_code  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"
THIRTEEN = (
    ROOT / "data" / "real" / "mat"
    / "lassehjorthmadsen__bglab__JuliaH_-_Llabba_13pt_Backgammon_Studio_2023_01_18_18_32_47.txt"
)  # fmt: skip
SIZES = ((390, 844), (1280, 800))


def chromium() -> str | None:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


pytestmark = pytest.mark.skipif(chromium() is None, reason="no Chromium to load the pages")


@cache
def analysed(path: Path) -> tuple[Match, Analysis]:
    match = read_match(path)
    return match, analyze(match, plies=0, jobs=1, progress=False)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as play:
        launched = play.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from bgkit.season import analyze_season

    folder = tmp_path_factory.mktemp("reports")
    match_page = folder / "match.html"
    write_html_report(*analysed(SAMPLE), match_page)
    season_page = folder / "season.html"
    records = sorted((ROOT / "data" / "selfplay").glob("*.mat"))[:4]
    money = [ROOT / "data" / "conventions" / "galaxy-jacoby-session.mat",
             ROOT / "tests" / "data" / "money" / "jacoby.mat"]  # fmt: skip
    long = folder / ("Alice_-_Bob_5pt_Backgammon_Studio_2023_01_18_18_32_47_" * 2 + ".mat")
    shutil.copy(records[0], long)  # (a real archive's file names: one word, 110 characters)
    records = [long, *records[1:]]
    season = analyze_season([str(p) for p in records + money], 0, jobs=1, progress=False)
    # (Alice's season holds matches and a money session: every table and figure of it)
    season.about("Alice", {"bo": "Alice"}).write_html(season_page)
    return {"match": match_page, "season": season_page}


# What the page shows too far right or left, and its texts under 9 px.
LAYOUT = """() => {
  const width = document.documentElement.clientWidth, out = [], small = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    if (el.closest('title, desc, script, style, noscript')) continue;
    const svg = el.closest('svg');
    const name = el.tagName + '.' + (el.getAttribute('class') || '') +
      (svg ? ' in svg.' + (svg.getAttribute('class') || '') : '');
    if (r.right > width + 0.5 || r.left < -0.5) {
      out.push(name + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    const m = el instanceof SVGElement && el.getScreenCTM();
    if (m) size *= Math.hypot(m.a, m.b);  // (a rotated text too)
    if (size < 9) small.push(name + ' ' + size.toFixed(1) + 'px: ' + el.textContent.slice(0, 30));
  }
  return {out: out, small: small, scroll: document.documentElement.scrollWidth, width: width};
}"""


def open_page(browser: Any, path: Path, size: tuple[int, int]) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    problems: list[str] = []
    page.on("pageerror", lambda err: problems.append(str(err)))
    page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
    page.goto(path.as_uri())
    return page, problems


def check_layout(page: Any, where: str) -> None:
    found = page.evaluate(LAYOUT)
    assert found["scroll"] <= found["width"], where
    assert found["out"] == [], f"{where}: past the screen's edge: {found['out'][:10]}"
    assert found["small"] == [], f"{where}: text under 9 px: {found['small'][:10]}"


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("name", ["match", "season"])
def test_every_element_on_screen_and_no_tiny_text(
    browser: Any, pages: dict[str, Path], name: str, size: tuple[int, int]
) -> None:
    page, problems = open_page(browser, pages[name], size)
    check_layout(page, f"{name} at {size[0]}x{size[1]}")
    if name == "season":
        for heading in ("Results with the luck taken out", "Rating", "Money sessions"):
            assert page.locator("h2", has_text=heading).count() == 1
    boards = page.locator("[data-bgv-board]").count()
    assert boards >= 5 and page.locator("[data-bgv-board] svg").count() == boards  # all drawn
    if name == "match":  # the viewer's other states: a candidate chosen, the end of a game
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowDown")
        check_layout(page, f"{name} at {size[0]}x{size[1]}, a candidate shown")
        page.keyboard.press("End")
        check_layout(page, f"{name} at {size[0]}x{size[1]}, the end")
    shots = os.environ.get("BGKIT_SCREENSHOTS")
    if shots:
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        page.screenshot(path=str(Path(shots) / f"{name}-{size[0]}.png"), full_page=True)
    assert problems == []
    page.close()


def expected_steps(match: Match) -> list[tuple[str, str, Any]]:
    """(kind, Position ID, replay step) of each viewer step, from bgkit.replay."""
    out: list[tuple[str, str, Any]] = []
    last = None
    for step in replay(match):
        if last is not None and step.game_index != last.game_index:
            out.append(("end", last.after.gnubg_id(), last))
        out.append((step.kind, step.before.gnubg_id(), step))
        last = step
    assert last is not None
    out.append(("end", last.after.gnubg_id(), last))
    return out


SHOWN = """() => {
  const v = document.querySelector('.bgkit-viewer');
  return [v.getAttribute('data-step'), v.getAttribute('data-kind'),
          v.querySelector('.bgv-posid').textContent,
          v.querySelector('svg[data-board]').getAttribute('data-board')];
}"""


def test_the_viewer_steps_through_every_action_by_keyboard(
    browser: Any, pages: dict[str, Path]
) -> None:
    match, _ = analysed(SAMPLE)
    expected = expected_steps(match)
    page, problems = open_page(browser, pages["match"], (1280, 800))
    # what the viewer shows after each key, recorded by the page (one round trip at the end)
    record = f"() => {{ window.shown = [({SHOWN})()];"
    record += f" document.addEventListener('keydown', () => shown.push(({SHOWN})())); }}"
    page.evaluate(record)
    keys: list[str] = []
    for kind, _, step in expected:
        if kind == "move" and step.play is not None:
            keys += ["a", "a"]  # the position after the play, drawn by the page, and back
        keys.append("ArrowRight")
    for key in keys:
        page.keyboard.press(key)
    shown = iter(page.evaluate("() => window.shown"))
    moves = 0
    for index, (kind, position_id, step) in enumerate(expected):
        at, shown_kind, shown_id, board = next(shown)
        assert (int(at), shown_kind, shown_id) == (index, kind, position_id)
        if kind != "end":
            assert board == board_code(step.before)
        if kind == "move" and step.play is not None:
            assert next(shown)[3] == board_code(step.after)
            assert next(shown)[3] == board_code(step.before)
            moves += 1
    assert moves > 250
    assert next(shown)[0] == str(len(expected) - 1)  # the last step stays
    assert next(shown, None) is None
    assert problems == []
    page.close()


def test_each_candidate_leads_to_the_engines_position(browser: Any, pages: dict[str, Path]) -> None:
    match, analysis = analysed(SAMPLE)
    expected = expected_steps(match)[:60]
    page, problems = open_page(browser, pages["match"], (1280, 800))
    notes = iter(analysis.notes)
    checked = 0
    for kind, _, step in expected:
        note = next(notes) if kind != "end" else None
        if note is not None and note.checker is not None and kind == "move":
            for cand in note.checker.candidates:
                page.keyboard.press("ArrowDown")
                want = board_code(step.rolled.apply(cand.play))
                assert page.evaluate(SHOWN)[3] == want, (step, cand.play)
                checked += 1
        page.keyboard.press("ArrowRight")
    assert checked > 100
    # a click on the equity figure's point goes to that roll
    page.locator("circle[data-bgv-step]").nth(20).dispatch_event("click")
    target = page.locator("circle[data-bgv-step]").nth(20).get_attribute("data-bgv-step")
    assert page.evaluate(SHOWN)[0] == target
    assert problems == []
    page.close()


def test_a_13_point_match_report_is_small_and_quick(browser: Any, tmp_path: Path) -> None:
    match, analysis = analysed(THIRTEEN)
    assert match.length == 13 and sum(1 for _ in replay(match)) > 700
    out = tmp_path / "thirteen.html"
    write_html_report(match, analysis, out)
    assert out.stat().st_size < 1_000_000
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(out.as_uri())  # once, so that the browser itself is warm
    best = min(_load_time(page, out) for _ in range(3))
    assert best < 1.0
    page.close()


def _load_time(page: Any, out: Path) -> float:
    start = time.perf_counter()
    page.goto(out.as_uri(), wait_until="load")
    page.wait_for_selector(".bgv-posid")
    return time.perf_counter() - start


def test_two_viewers_in_a_notebook_page_each_keep_their_keys(browser: Any, tmp_path: Path) -> None:
    match, analysis = analysed(SAMPLE)
    page_path = tmp_path / "notebook.html"
    cells = match._repr_html_() + analysis._repr_html_()  # as Jupyter shows two outputs
    page_path.write_text(f"<!DOCTYPE html><html><body>{cells}</body></html>", "utf-8")
    page, problems = open_page(browser, page_path, (1280, 800))
    viewers = page.locator(".bgkit-viewer")
    assert viewers.count() == 2
    viewers.nth(1).focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert viewers.nth(0).get_attribute("data-step") == "0"
    assert viewers.nth(1).get_attribute("data-step") == "3"
    assert viewers.nth(1).locator(".bgv-cands tbody tr").count() >= 1  # analysed: candidates
    assert viewers.nth(0).locator(".bgv-cands").count() == 0
    assert problems == []
    page.close()


# Each finding's cells, and whether each is whole on the screen (the page's tables of
# files may scroll sideways in their box; a finding's message may not hide there).
FINDINGS = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('h3 + .scroll tbody tr')].map(tr =>
    [...tr.cells].map(td => { const r = td.getBoundingClientRect();
      return [td.textContent, r.left >= -0.5 && r.right <= width + 0.5 && r.width > 0]; }));
}"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_audit_page_shows_every_finding_whole(
    browser: Any, tmp_path: Path, size: tuple[int, int]
) -> None:
    from bgkit.audit import audit
    from bgkit.audit.html import audit_html

    result = audit([str(ROOT / "data" / "faults")], jobs=1, progress=False)
    page_path = tmp_path / "audit.html"
    page_path.write_text(audit_html(result), encoding="utf-8")
    page, problems = open_page(browser, page_path, size)
    rows = page.evaluate(FINDINGS)
    assert len(rows) == len(result.findings) > 10
    hidden = [cells for cells in rows if not all(whole for _, whole in cells)]
    assert hidden == [], f"at {size[0]} px, findings not whole on the screen: {hidden[:3]}"
    found = page.evaluate(LAYOUT)
    assert found["scroll"] <= found["width"] and found["small"] == []
    assert problems == []
    page.close()
