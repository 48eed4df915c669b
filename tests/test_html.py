"""record_html: compact, escaped HTML summaries of matches and games (Jupyter's _repr_html_)."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser
from pathlib import Path

from bgkit import Double, Drop, Game, Match, Move, Play, Position, Result, Take
from bgkit.formats import read_match
from bgkit.reports.record_html import MAX_GAMES, game_html, match_html, plain_page

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = read_match(ROOT / "data" / "sample.mat")
MONEY = read_match(ROOT / "data" / "dialects" / "money.mat")


def cells(html: str) -> list[list[str]]:
    """The text of each table row's cells."""

    class Rows(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.rows: list[list[str]] = []
            self.cell: list[str] | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "tr":
                self.rows.append([])
            elif tag in ("td", "th"):
                self.cell = []

        def handle_endtag(self, tag: str) -> None:
            if tag in ("td", "th") and self.cell is not None:
                self.rows[-1].append("".join(self.cell))
                self.cell = None

        def handle_data(self, data: str) -> None:
            if self.cell is not None:
                self.cell.append(data)

    parser = Rows()
    parser.feed(html)
    return parser.rows


def test_match_summary_has_a_row_per_game() -> None:
    html = match_html(SAMPLE)
    rows = cells(html)
    assert rows[0] == ["game", "score", "rolls", "cube", "result"]
    assert rows[1:] == [
        ["1", "0-0", "16", "root doubles to 2, gnubg drops", "root wins 1 point"],
        ["2", "0-1", "7", "root doubles to 2, gnubg drops", "root wins 1 point"],
        ["3", "0-2", "105", "gnubg doubles to 2, root takes", "gnubg wins 4 points"],
        ["4", "4-2", "94", "root doubles to 2, gnubg takes", "root wins 2 points"],
        [
            "5",
            "4-4",
            "69",
            "gnubg doubles to 2, root takes, root doubles to 4, gnubg takes",
            "gnubg wins 4 points",
        ],
    ]
    assert (
        "<b><bdi>gnubg</bdi></b> vs. <b><bdi>root</bdi></b>, 7-point match, 5 games,"
        " final score 8-4"
    ) in html
    assert "EventDate: 2026.11.21" in html


def test_money_session_with_beaver_and_raccoon() -> None:
    rows = cells(match_html(MONEY))
    assert rows[1][3] == "Bo doubles to 2, Ann beavers to 4, Bo raccoons to 8"
    assert rows[1][4] == "Bo wins 8 points"
    assert "money session" in match_html(MONEY)


def test_names_are_escaped() -> None:
    game = Game(1, (0, 0), (Move(0, (3, 1), Play("8/5 6/5")), Double(1, 2), Take(0)), None)
    match = Match(("<b>Ann</b>", "Bo & Co"), 5, (game,), source_name="a<b>.mat")
    html = match_html(match)
    assert "<b>Ann</b>" not in html
    assert "<bdi>Bo &amp; Co</bdi> doubles to 2, <bdi>&lt;b&gt;Ann&lt;/b&gt;</bdi> takes" in html
    assert "a&lt;b&gt;.mat" in html
    assert cells(html)[1][4] == "unfinished"
    assert "final score" not in html


def test_names_show_their_hidden_characters() -> None:
    """Issue 29: a right-to-left override would show "\u202eboB" as "Bob", and a control
    character is no name's: both are shown as escapes, each name isolated in <bdi>."""
    game = Game(1, (0, 0), (Move(0, (3, 1), Play("8/5 6/5")), Double(1, 2), Take(0)), None)
    match = Match(("\u202eboB", "Ann\x1b[2K\n"), 5, (game,), source_name="x\u2067.mat")
    html = match_html(match)
    assert "<b><bdi>\\u202eboB</bdi></b> vs. <b><bdi>Ann\\x1b[2K\\n</bdi></b>" in html
    assert "file: <bdi>x\\u2067.mat</bdi>" in html
    assert plain_page("a\u202eb\x00c\td\n") == "a\\u202eb\\x00c\td\n"


def test_long_sessions_are_cut() -> None:
    game = Game(1, (0, 0), (Move(0, (3, 1), Play("8/5 6/5")), Double(1, 2), Drop(0)), Result(1, 1))
    games = tuple(replace(game, number=i + 1, score=(0, i)) for i in range(MAX_GAMES + 7))
    html = match_html(Match(("A", "B"), 0, games))
    assert len(cells(html)) == MAX_GAMES + 1
    assert "... and 7 more games" in html
    assert "final score 0-47" in html


def test_game_summary() -> None:
    html = game_html(SAMPLE.games[4], names=SAMPLE.players)
    assert html == (
        '<div class="bgkit-game"><b>Game 5</b>, score 4-4; 69 rolls; cube: <bdi>gnubg</bdi>'
        " doubles to 2, <bdi>root</bdi> takes, <bdi>root</bdi> doubles to 4, <bdi>gnubg</bdi>"
        " takes; <bdi>gnubg</bdi> wins 4 points</div>"
    )
    assert "<bdi>player 1</bdi> wins 1 point" in game_html(SAMPLE.games[0])
    setup = replace(SAMPLE.games[0], setup="-B-CBBB---a---A---ABcbbbd-/0")
    assert "set-up position -B-CBBB---a---A---ABcbbbd-/0" in game_html(setup)


def test_repr_methods_render_in_jupyter() -> None:
    # Position._repr_svg_, Match._repr_html_ and Game._repr_html_ use bgkit.reports.svg and
    # bgkit.reports.record_html
    assert Position.initial()._repr_svg_().startswith("<svg")
    assert SAMPLE._repr_html_().startswith(match_html(SAMPLE) + '<div class="bgkit-viewer"')
    game_repr = SAMPLE.games[0]._repr_html_()
    assert re.fullmatch(r'<div class="bgkit-game">.*</div>', game_repr)
