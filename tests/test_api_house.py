"""The Python API as a python-chess user tries it (issue 30): what ``bgkit.verify`` and
``bgkit.hint`` take, reports without a truth value, a play's ``repr`` in the order of its
``str``, lazy names in ``dir(bgkit)``, a match's final score, dice in any spelling, bytes
given to ``read_match``, no ranked plays for a game that is over, and one clear error
naming the extra on the core install."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bgkit
from bgkit import IllegalActionError, Match, Play, Position
from bgkit.movegen import generate

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"
FAULTY = ROOT / "data" / "fixtures" / "handwritten_3pt_illegal1.mat"
OPENING = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:7:10"


def test_verify_takes_a_path_a_text_bytes_or_an_open_file() -> None:
    expected = bgkit.verify(bgkit.read_match(FAULTY))
    assert not expected.ok
    text = FAULTY.read_text("utf-8")
    with FAULTY.open("rb") as binary:
        given = [str(FAULTY), FAULTY, text, text.encode("utf-8"), io.StringIO(text), binary]
        reports = [bgkit.verify(source) for source in given]
    for report in reports:
        assert [i.message for i in report.issues] == [i.message for i in expected.issues]
        assert [(i.line, i.column) for i in report.issues] == [
            (i.line, i.column) for i in expected.issues
        ]
    assert str(reports[0].errors[0]).startswith(f"{FAULTY}:")  # a path names the places
    with pytest.raises(FileNotFoundError):
        bgkit.verify("no/such/file.mat")


def test_a_report_has_no_truth_value() -> None:
    clean = bgkit.verify(ROOT / "data" / "conventions" / "galaxy-capped-match-win.mat")
    assert clean.ok and len(clean) == 0
    noted = bgkit.verify(ROOT / "data" / "conventions" / "galaxy-forfeit.mat")
    assert noted.ok and len(noted) == 1  # clean, with a note: `if report:` cannot say which
    faulty = bgkit.verify(FAULTY)
    assert not faulty.ok
    for report in (clean, noted, faulty):
        with pytest.raises(TypeError, match=r"use report\.ok"):
            bool(report)


def test_a_plays_repr_lists_the_steps_in_the_order_of_its_str() -> None:
    rolled = [step.rolled for step in bgkit.replay(bgkit.read_match(SAMPLE)) if step.kind == "move"]
    plays = [play for pos in rolled for play in pos.legal_plays()]
    assert len(plays) > 1000
    for play in plays:
        spelled = repr(play)[len("Play('") : -len("')")]
        assert eval(repr(play)) == play  # still round-trips
        # read left to right, a step continues a checker's hops when it starts where the
        # last one ended: the checkers so found start where str's words start, in order
        starts, end = [], None
        for word in spelled.split():
            src, dst = word.rstrip("*").split("/")
            if src != end:
                starts.append(src)
            end = dst
        words = []
        for word in str(play).split():
            times = int(word[word.index("(") + 1 : -1]) if "(" in word else 1
            words += [word.split("/")[0]] * times
        assert starts == words, (spelled, str(play))
    generated = [
        play
        for pos in rolled
        for play in generate(pos.board[pos.turn], pos.board[1 - pos.turn], *pos.dice).values()
    ]  # (the move generator finds many in another order: 52 as 13/8 24/22)
    assert sum(p != p.ordered() for p in generated) > 100
    written = Play("13/8 24/22")  # a record's play keeps the order it was written in
    assert repr(written) == "Play('13/8 24/22')" and written != written.ordered()
    assert repr(written.ordered()) == "Play('24/22 13/8')"


def test_the_lazy_names_are_in_dir() -> None:
    names = dir(bgkit)
    for name in ("analyze", "hint", *bgkit.__all__):
        assert name in names, name


def test_a_matchs_final_score_and_winner() -> None:
    conventions = ROOT / "data" / "conventions"
    cases = {
        SAMPLE: ((7, 4), 0),  # 4-4 and a 4-point win: capped at the 7 the match ends at
        conventions / "galaxy-forfeit.mat": ((2, 7), 1),  # credited the points needed
        conventions / "galaxy-capped-match-win.mat": ((0, 3), 1),
        conventions / "gnubg-resignation.mat": ((2, 0), None),  # stops before its end
        conventions / "money-session-zero-scores.mat": ((1, 2), 1),  # every game headed 0-0
        conventions / "galaxy-jacoby-session.mat": ((0, 1), None),  # 1 of 16 points
    }
    for path, (score, winner) in cases.items():
        match = bgkit.read_match(path)
        assert (match.score, match.winner) == (score, winner), path.name
    assert Match(("a", "b"), 5, ()).score == (0, 0) and Match(("a", "b"), 5, ()).winner is None


def test_with_dice_takes_a_pair_or_text() -> None:
    pos = Position.from_xgid(OPENING)
    for roll in [(3, 1), [3, 1], "31", "3-1", "3 1"]:
        assert pos.with_dice(roll) == pos.with_dice(3, 1), roll  # type: ignore[arg-type]
    for bad in ["37", "3", (3,), (0, 1), "31x", 31]:
        with pytest.raises(IllegalActionError, match="dice"):
            pos.with_dice(bad)  # type: ignore[arg-type]


def test_read_match_of_bytes_says_how_to_give_them() -> None:
    data = SAMPLE.read_bytes()
    with pytest.raises(TypeError, match=r"read_match\(text=\.\.\.\)"):
        bgkit.read_match(data)  # type: ignore[arg-type]
    assert bgkit.read_match(text=data) == bgkit.read_match(SAMPLE)


def test_no_ranked_hint_for_a_game_that_is_over() -> None:
    from bgkit.analysis.hints import hint

    last = Position.from_xgid("XGID=-A----------------------a-:0:0:1:21:0:0:0:0:10")
    over = last.apply(last.legal_plays()[0])
    assert over.game_state == bgkit.GameState.OVER
    all_off = Position.from_xgid("XGID=----------------------a---:0:0:1:21:0:0:0:0:10")
    for pos in (over, over.with_dice(3, 1), all_off):
        with pytest.raises(IllegalActionError, match="the game is over"):
            hint(pos)


def test_hint_takes_a_notation() -> None:
    pytest.importorskip("gnubg")
    by_text = bgkit.hint(OPENING, candidates=2)
    by_position = bgkit.hint(Position.from_xgid(OPENING), candidates=2)
    assert by_text == by_position and len(by_text.plays) == 2
    assert str(by_text.plays[0].play) == "24/22 13/8"  # gnubg's best 52 (README)
    with pytest.raises(bgkit.NotationError):
        bgkit.hint("XGID=nonsense")


BLOCKER = """\
import sys
for name in ("gnubg", "gnubg_nn", "pandas", "matplotlib", "pyarrow", "dask", "distributed"):
    sys.modules[name] = None  # as on the core install: importing them fails
"""


@pytest.mark.parametrize(
    ("code", "extra", "module"),
    [
        ("bgkit.analyze(bgkit.read_match('data/sample.mat'), progress=False)", "analysis", "gnubg"),
        (f"bgkit.hint({OPENING!r})", "analysis", "gnubg"),
        ("from bgkit.reports import equity_figure", "reports", "pandas"),
    ],
)
def test_the_core_install_gets_one_error_naming_the_extra(
    tmp_path: Path, code: str, extra: str, module: str
) -> None:
    (tmp_path / "sitecustomize.py").write_text(BLOCKER)
    program = textwrap.dedent(f"""\
        import bgkit
        try:
            {code}
        except bgkit.BgkitError as err:
            print(type(err).__name__, err.extra, err)
        """)
    run = subprocess.run(
        [sys.executable, "-c", program],
        cwd=ROOT,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.stderr == ""  # no worker's traceback
    assert run.returncode == 0
    kind, named, message = run.stdout.split(" ", 2)
    assert (kind, named) == ("MissingExtraError", extra)
    assert f"pip install 'bgkit[{extra}]'" in message and repr(module) in message
