"""mat.lark reads the lines that hold only plays as one PLAYS_ROWS token (issue 15: reading
took half the time again); these tests check that it reads every line as the cell-by-cell
rules would.

The reference is the same grammar without the PLAYS_ROWS alternative: every record under
``data/``, a set of awkward lines and generated lines must give the same match (actions,
their lines, columns and move numbers) or the same error message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fields import every_field as _every_field
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark

import bgkit.formats.mat as mat
from bgkit.errors import BgkitError
from bgkit.formats import decode_bytes

DATA = Path(__file__).resolve().parent.parent / "data"
MAT_FILES = sorted(p for p in DATA.rglob("*.mat") if p.is_file())
HEADER = " 0 point match\n\n Game 1\n Ann : 0                        Bo : 0\n"


@pytest.fixture(scope="module")
def cell_by_cell() -> Callable[[str], Lark]:
    """mat.lark's parsers without PLAYS_ROWS (the builder's rules run as they parse), by
    start rule: the whole record's and those of the line-by-line reading."""
    grammar = resources.files("bgkit.grammars").joinpath("mat.lark")
    text = grammar.read_text()
    row = "    | plays\n"
    assert text.count(row) == 2  # (in _game_line and line_game)
    folder = Path(str(grammar)).parent
    built: dict[str, Lark] = {}

    def make(start: str) -> Lark:
        if start not in built:
            built[start] = Lark(
                text.replace(row, ""),
                parser="lalr",
                start=start,
                maybe_placeholders=True,
                transformer=mat._BUILDER,
                import_paths=[str(folder)],
                source_path=str(folder / "mat.lark"),
            )
        return built[start]

    return make


def _outcome(text: str) -> Any:
    """What parse_mat makes of ``text``: every action with its place, the results and the
    comments, or the error."""
    try:
        match = mat.parse_mat(text, source_name="x.mat")
    except BgkitError as err:
        return ("error", str(err))
    return match.read_errors, [
        (
            game.number,
            game.line,
            [(a, a.line, a.column, a.number, a.annotations) for a in game.actions],
            game.result,
            game.annotations,
        )
        for game in match.games
    ]


def _both(
    text: str, cell_by_cell: Callable[[str], Lark], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Any]:
    yield _outcome(text)
    with monkeypatch.context() as patch:
        own = mat.parser

        def reference(name: str, start: str | None = None, **kw: Any) -> Lark:
            return cell_by_cell(start or "mat") if name == "mat" else own(name, start, **kw)

        patch.setattr(mat, "parser", reference)
        yield _outcome(text)


@pytest.mark.parametrize("path", MAT_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_records_read_alike(
    path: Path, cell_by_cell: Callable[[str], Lark], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = decode_bytes(path.read_bytes())
    fast, slow = _both(text, cell_by_cell, monkeypatch)
    assert fast == slow


LINES = [
    "  1) 52: 13/8 13/11              64: 24/14*",
    "  1)                             31: 8/5 6/5",
    "  2) 52:                         11: 6/5(4)",
    "  3) 43: bar/21* 6/off           66: 13/7(2), 8/2*(2)",
    "  4) 64: 24/20*/14               53: Bar/22 25/20",
    "  5) 21: 6 / 4 , 4/3             55: 13/3(2)",
    "\t6)\t65: 24/18\t13/8\t31: 8/5 6/5",
    "  7) 73: 13/8 13/11              64: 24/14*",
    "  8) 52: 13/8 13/11 12/9 9/6 6/1 65: 24/18",
    "  9) 52: 13/8 13/14              64: 26/20",
    " 10) 52: 13/8(7)                 64: 24/14*",
    " 11) 52: 13/8 13/11 64: 24/14* 33: 6/3",
    " 12) 52: 0000000013/8            64: 24/14*",
    " 13) 52: 13/8,                   64: 24/14*",
    " 14) 52: 13/8 ,, 13/11           64: 24/14*",
    " 15) 52: 13/8123: 6/5",
    " 16) 52: 13/811/6 64: 24/1424/18",
    " 17) 52: 8/5(2)6/5               44: 6/2(4)",
    " 18) 52:13/8 13/11 64:24/18,13/9",
]


@pytest.mark.parametrize("line", LINES)
def test_lines_read_alike(
    line: str, cell_by_cell: Callable[[str], Lark], monkeypatch: pytest.MonkeyPatch
) -> None:
    fast, slow = _both(HEADER + line + "\n", cell_by_cell, monkeypatch)
    assert fast == slow


_POINT = st.sampled_from(["0", "1", "6", "13", "24", "25", "26", "bar", "Off", "007"])
_BLANK = st.sampled_from(["", " ", "  ", "\t"])


@st.composite
def _part(draw: st.DrawFn) -> str:
    hops = draw(
        st.lists(
            st.tuples(_BLANK, _POINT, st.sampled_from(["", "*", " *"])), min_size=1, max_size=3
        )
    )
    text = draw(_POINT) + "".join(f"{b}/{p}{m}" for b, p, m in hops)
    if draw(st.booleans()):
        text += draw(st.sampled_from(["(2)", " ( 3 )", "(9)"]))
    return text


@st.composite
def _cell(draw: st.DrawFn) -> str:
    dice = draw(st.sampled_from(["52:", "66:", "70:", "1:", "52"]))
    parts = draw(st.lists(_part(), max_size=5))
    seps = [draw(st.sampled_from([" ", ", ", ",", "  ", ""])) for _ in parts]
    return dice + draw(_BLANK) + "".join(s + p for s, p in zip(seps, parts, strict=True))


@settings(max_examples=300, deadline=None)
@given(
    number=st.sampled_from(["1)", " 12)", "3) ", "4"]),
    cells=st.lists(_cell(), min_size=1, max_size=3),
    gap=st.sampled_from([" ", "          ", "\t", ""]),
    tail=st.sampled_from(["", " ", "\t", " Doubles => 2", "*"]),
)
def test_generated_lines_read_alike(
    number: str, cells: list[str], gap: str, tail: str, cell_by_cell: Callable[[str], Lark]
) -> None:
    line = " " + number + " " + gap.join(cells) + tail
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, slow = _both(HEADER + line + "\n", cell_by_cell, monkeypatch)
    assert fast == slow, line


def test_the_lines_of_plays_of_a_record_are_few_tokens() -> None:
    """The comparisons above mean nothing if PLAYS_ROWS never matches: in a gnubg record,
    nearly every move line is read within a PLAYS_ROWS token."""
    from bgkit._grammars import parser

    text = (DATA / "selfplay" / "selfplay_0003.mat").read_text()
    tree = parser("mat").parse(text)
    rows = [t.children[0] for t in tree.iter_subtrees() if t.data == "plays"]
    in_rows = sum(str(token).count(")") for token in rows)
    other = sum(1 for t in tree.iter_subtrees() if t.data == "numbered")
    assert in_rows >= 70 and other < in_rows / 10, (in_rows, other)  # (77 move lines)


# The whole-record fast path (mat._read_fast): the lines gnubg writes read without the
# parser. It must give the record the parser gives, every field (places included), or
# leave the record to the parser, which then reads it or reports its fault as ever.


def _fast_and_parsed(text: str) -> tuple[Any, Any, bool]:
    """What parse_mat makes of ``text`` with the fast path and without it (every field, or
    the error), and whether the fast path read it."""

    def outcome() -> Any:
        try:
            return _every_field(mat.parse_mat(text, source_name="x.mat"))
        except BgkitError as err:
            return ("error", type(err).__name__, str(err))

    used: list[bool] = []
    own = mat._read_fast

    def watched(source: str) -> Any:
        found = own(source)
        used.append(found is not None)
        return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mat, "_read_fast", watched)
        fast = outcome()
        patch.setattr(mat, "_read_fast", lambda source: None)
        parsed = outcome()
    return fast, parsed, any(used)


@pytest.mark.parametrize("path", MAT_FILES, ids=lambda p: str(p.relative_to(DATA)))
def test_the_fast_path_reads_every_record_as_the_parser(path: Path) -> None:
    fast, parsed, _ = _fast_and_parsed(decode_bytes(path.read_bytes()))
    assert fast == parsed


def test_the_fast_path_reads_gnubg_records() -> None:
    """The comparisons mean nothing if the fast path never reads: it reads every
    self-play record gnubg wrote (its cube lines, results and score lines included)."""
    selfplay = [p for p in MAT_FILES if p.parent.name == "selfplay"]
    assert selfplay
    for path in selfplay:
        assert _fast_and_parsed(path.read_text())[2], path


GNUBG_RECORD = """\
; [Site "Club night"]
; [Player 1 "Ann Lee"]

 5 point match

 Game 1
 Ann Lee : 0                    Bo : 0
  1)                             31: 8/5 6/5
  2) 52: 13/8 13/11              64: 24/14*
  3) 11:                          Doubles => 2
  4)  Takes                      31: 14/11* 14/13
  5)  Doubles => 4                Drops
      Wins 2 points

 Game 2
 Ann Lee : 2                    Bo : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Drops                       Wins 1 point and the match
"""

# lines of GNUBG_RECORD and what may stand there instead: each variant read alike
VARIANTS = {
    '; [Site "Club night"]': [
        "",
        "# a comment",
        '; [Site "x"] tail',
        "; Set Pos=-b----E-C---eE---c-e----B-/0",
        "3 point match",
        '   ; [Site "indented"]   ',
    ],
    " 5 point match": [
        " 5 points match",
        " 5 POINT MATCH",
        "5point match",
        " 5 point match x",
        " 0 point match",
        " 5 pt match",
        " 0000000000005 point match",
    ],
    " Game 1": [" game 1", " Game1", " Game 1 x", " Games 1", " Game", " Game 01"],
    " Ann Lee : 0                    Bo : 0": [
        " Ann Lee : 0 Bo : 0",
        " Ann Lee,1712.5 : 0            Bo : 0",
        " : 0                    Bo : 0",
        " Ann, Lee : 0                   Bo : 0",
        " 2Ann : 0                       1Bo : 0",
        " Ann : 02Bo : 0",
        " Ann : 0                        Bo : 0 x",
        " Ann Lee : 0                    Bo:0",
        "\tAnn Lee : 0\t\t\tBo : 0",
    ],
    "  3) 11:                          Doubles => 2": [
        "  3) 11:                          Redoubles => 2",
        "  3) 11:                          DOUBLES=>2",
        "  3) 11:                          Doubles => 231: 6/5",
        "  3) 11:                          Doubles => 2x",
        "  3) 11:                          Doubles 2",
        "  3) 11: 6/5 6/5                  Doubles => 2",
        "  3) 11: 6/5, 6/5                 Doubles => 2",
        "  3) 11: 6/5,                     Doubles => 2",
        "  3) 11: 6/8                      Doubles => 2",
        "  3) 11: 6/5123: 6/5              Doubles => 2",
        "  3) 71:                          Doubles => 2",
        "  3) 11: Cannot Move              Doubles => 2",
        "  3) 11:                          Beavers => 4",
        "  3)",
        "  3) 11:  Doubles => 2  Takes  Doubles => 4",
        "     11:                          Doubles => 2",
        "  3) 11:                          Doubles => 2 4) Takes",
        "  3) 11:                          Doubles => 2 ; comment",
    ],
    "  4)  Takes                      31: 14/11* 14/13": [
        "  4)  Accepts                    31: 14/11* 14/13",
        "  4)  takesx                     31: 14/11* 14/13",
        "  4)  Takes31: 14/11*14/13",
        "  4)  Takes                      31: 14/11* 14/13(2)",
        "  4)  Takes                      31: bar/22* 22/21",
        "  4)  Takes                      31: 14/11* 14/13 Wins 1 point",
        "  4)  Takes                      131: 14/11",
        "  4)  Takes Drops",
        "      Takes",
    ],
    "  5)  Doubles => 4                Drops": [
        "  5)  Doubles => 4                Passes",
        "  5)  Doubles => 4                Rejects Wins 2 points",
        "  5)  Doubles => 4                Dropsx",
        "  5)  Doubles => 4",
    ],
    "      Wins 2 points": [
        "      Wins 2 point",
        "      WINS 2points",
        "Wins 2 points",
        "                                  Wins 2 points",
        "      Wins 2 points and the match",
        "      Wins 2 pointsand the match",
        "      Wins 2 points x",
        "      Wins 2",
        "      Wins 2 points Wins 2 points",
        "      Losses 2 points",
        "      Wins 2 points\n; after the game",
        "      Wins 2 points\n      Wins 2 points",
    ],
    "  2)  Drops                       Wins 1 point and the match": [
        "  2)  Drops                       Wins 1 point",
        "  2)  Drops                       Wins 1 point and the",
        "  2)  Drops                       Wins 1 pointand the match",
        "  2)  Drops                       Wins1point",
        "  2)  Drops                       Wins 1 points x",
        "  2)  Drops                       Resigns",
    ],
}
VARIANT_CASES = [(line, other) for line, others in VARIANTS.items() for other in others]


def _variant(line: str, other: str) -> str:
    assert GNUBG_RECORD.count(line + "\n") == 1, line
    return GNUBG_RECORD.replace(line + "\n", other + "\n")


def test_the_fast_path_reads_the_plain_record() -> None:
    fast, parsed, used = _fast_and_parsed(GNUBG_RECORD)
    assert used and fast == parsed


@pytest.mark.parametrize(("line", "other"), VARIANT_CASES)
def test_the_fast_path_reads_each_variant_as_the_parser(line: str, other: str) -> None:
    fast, parsed, _ = _fast_and_parsed(_variant(line, other))
    assert fast == parsed


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(VARIANT_CASES), max_size=4, unique_by=lambda case: case[0]))
def test_the_fast_path_reads_mixed_variants_as_the_parser(
    cases: list[tuple[str, str]],
) -> None:
    text = GNUBG_RECORD
    for line, other in cases:
        text = text.replace(line + "\n", other + "\n")
    fast, parsed, _ = _fast_and_parsed(text)
    assert fast == parsed, text


@pytest.mark.parametrize(
    "name", ["LINENO", "DICE", "PART", "_NL", "PLAYS_ROWS", "TAG", "COMMENT", "SET_POS", "NAME"]
)
def test_the_fast_path_matches_the_grammars_terminals(name: str) -> None:
    """The fast path and the pieces of a line of plays match mat.lark's terminals as Lark
    compiles them, so that an edited grammar cannot leave them behind."""
    from bgkit._grammars import parser

    compiled = parser("mat", transformer=mat._BUILDER).get_terminal(name).pattern.to_regexp()
    assert getattr(mat, "_TERM_" + name.strip("_")) == compiled


def test_a_gnubg_record_is_read_without_lark() -> None:
    """Reading (and verifying) a record of gnubg's lines loads no Lark (issue 31: start-up);
    a record with a line the fast path leaves to the parser does."""
    import subprocess
    import sys

    code = "import sys\nfrom bgkit import verify\nverify({path!r})\nprint('lark' in sys.modules)"
    for path, loaded in (
        (DATA / "selfplay" / "selfplay_0003.mat", "False"),
        (DATA / "fixtures" / "handwritten_3pt_syntax1.mat", "True"),
    ):
        run = subprocess.run(
            [sys.executable, "-c", code.format(path=str(path))],
            capture_output=True, text=True, check=True, timeout=60,
        )  # fmt: skip
        assert run.stdout.split() == [loaded], path
