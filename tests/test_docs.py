"""The documentation site (issue 14): it builds from the sources with warnings as errors,
and has the pages a user looks for. Its code examples are doctested by pytest itself
(``--doctest-glob=*.md`` covers ``docs/``)."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

pytest.importorskip("sphinx", reason="the docs extra is not installed")
pytest.importorskip("gnubg", reason="the docs draw figures of an analysis")

from bgkit.cli import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("html")
    build = subprocess.run(
        [sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html",
         "docs", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    assert build.stderr == "", build.stderr  # no warning at all
    return out


def text_of(page: Path) -> str:
    return re.sub(r"<[^>]+>", "", page.read_text("utf-8"))


def test_the_pages_a_user_looks_for(site: Path) -> None:
    for page in ["index", "quickstart", "rules", "limits", "cli", "api/index"]:
        assert (site / f"{page}.html").is_file(), page
    for guide in ["validate", "jupyter", "convert", "batch", "audit"]:
        assert (site / "guides" / f"{guide}.html").is_file(), guide
    for fmt in ["mat", "sgf", "json", "xg", "gmd", "javafibs", "exports", "notation"]:
        assert (site / "formats" / f"{fmt}.html").is_file(), fmt


def test_the_cli_reference_has_every_command_and_option(site: Path) -> None:
    text = text_of(site / "cli.html")
    assert isinstance(main, click.Group)
    for name, command in main.commands.items():
        assert f"bgkit {name}" in text, name
        for param in command.params:
            if isinstance(param, click.Option):
                assert param.opts[0] in text, (name, param.opts[0])


def test_the_api_reference_comes_from_the_docstrings(site: Path) -> None:
    from bgkit.verify import Issue

    text = text_of(site / "api" / "verify.html")
    assert "bgkit.verify.verify" in text
    first_line = (Issue.__doc__ or "").splitlines()[0]
    assert first_line in text
    for name in ["read_match", "write_match", "verify", "replay", "analyze"]:
        assert f"bgkit.{name}" in text_of(site / "api" / "index.html"), name


LEFTOVER = re.compile(r"``|:[a-z]+:`|(?<![\w/])~[a-z_]+\.[\w.]+")
"""reST markup that did not become HTML: double backquotes, a role (``:func:`x```), or a
``~module.name`` reference printed as it was written (a signature Sphinx could not parse)."""


def leftover_markup(site: Path) -> dict[str, list[str]]:
    """Per page of the built site: the leftover reST markup in its text, with context.

    Code is left out (``<pre>`` blocks and inline ``<code>``, where backquotes may be
    meant), and so are the highlighted sources (``_modules/``) and the search pages.
    """
    found: dict[str, list[str]] = {}
    for page in sorted(site.rglob("*.html")):
        name = page.relative_to(site).with_suffix("").as_posix()
        if name.startswith(("_modules/", "_sources/")) or name in ("search", "genindex"):
            continue
        markup = page.read_text("utf-8")
        markup = re.sub(r"<(pre|code|script|style)\b.*?</\1>", " ", markup, flags=re.S)
        text = html.unescape(re.sub(r"<[^>]+>", "", markup))
        hits = [text[max(0, m.start() - 30) : m.end() + 30] for m in LEFTOVER.finditer(text)]
        if hits:
            found[name] = [" ".join(hit.split()) for hit in hits]
    return found


def test_no_page_shows_raw_rest_markup(site: Path) -> None:
    # -W does not catch these: `` N point match`` (a literal may not start with a space),
    # ``A``..``P`` (nor start after a full stop), ``x`` inside **bold**, and `~a.B` in a
    # signature with a dataclass field's <factory> default
    assert leftover_markup(site) == {}


def test_boards_and_figures_are_drawn(site: Path) -> None:
    images = {p.name for p in (site / "_images").iterdir()}
    assert {"opening.svg", "fault.svg", "equity.png", "luck.png"} <= images
    svg = (site / "_images" / "opening.svg").read_text("utf-8")
    assert svg.startswith("<svg") and svg.count("<circle") >= 30  # the 30 checkers


def test_each_kind_of_issue_is_described_in_its_own_words(site: Path) -> None:
    # an enum member's __doc__ is its class's: the table once said the same of every kind
    from bgkit.verify import IssueKind

    page = (site / "rules.html").read_text("utf-8")
    rows = {}
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", page, re.S):
        cells = [html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
                 for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]  # fmt: skip
        if len(cells) == 3:
            rows[cells[0]] = cells[2]
    assert set(rows) >= {kind.value for kind in IssueKind}
    said = [rows[kind.value] for kind in IssueKind]
    assert len(set(said)) == len(said)
    assert rows["illegal-play"] == "The play is not legal for the position and dice."
    assert rows["hit-mark"] == "The * marks disagree with what the play hits."
    assert "``" not in page and ":attr:" not in page
