"""The public API: what ``import bgkit`` offers, and writing as symmetric as reading."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

import bgkit
from bgkit.formats.json_record import parse_json
from bgkit.formats.sgf import parse_sgf

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"


def test_every_public_exception_is_exported_and_a_value_error() -> None:
    errors = [getattr(bgkit, name) for name in bgkit.__all__ if name.endswith("Error")]
    assert {e.__name__ for e in errors} >= {
        "AnalysisError",
        "BatchError",
        "BgkitError",
        "LimitError",
        "NotationError",
        "UnsupportedFormatError",
        "VerificationError",
    }
    for error in errors:
        if error is bgkit.VerificationError:  # an ExceptionGroup of them
            continue
        assert issubclass(error, bgkit.BgkitError) and issubclass(error, ValueError)


@pytest.mark.parametrize("fmt", ["mat", "sgf", "json"])
def test_write_match_to_a_path_and_back(tmp_path: Path, fmt: str) -> None:
    match = bgkit.read_match(SAMPLE)
    target = tmp_path / f"out.{fmt}"
    bgkit.write_match(match, target)
    assert bgkit.read_match(target) == match
    with pytest.raises(FileExistsError):
        bgkit.write_match(match, target)
    bgkit.write_match(match, target, force=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]  # no temporaries


def test_write_match_to_an_open_file_and_the_to_methods() -> None:
    match = bgkit.read_match(SAMPLE)
    for fmt, text, parse in (
        ("sgf", match.to_sgf(), parse_sgf),
        ("json", match.to_json(), parse_json),
    ):
        out = io.StringIO()
        bgkit.write_match(match, out, fmt)
        assert out.getvalue() == text
        assert len(parse(text).games) == len(match.games)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("x.xg", "x.xg: .xg is read-only here; bgkit writes .mat, .sgf, .json, .ogxm"),
        ("x.txt", "x.txt: cannot tell the format from .txt; bgkit writes .mat, .sgf, .json, .ogxm"),
        ("x", "x: cannot tell the format from a name without an extension;"),
    ],
)
def test_write_match_refuses_what_it_cannot_write(tmp_path: Path, name: str, message: str) -> None:
    match = bgkit.read_match(SAMPLE)
    with pytest.raises(bgkit.UnsupportedFormatError) as info:
        bgkit.write_match(match, tmp_path / name)
    assert str(info.value).startswith(f"{tmp_path / name}: {message.split(': ', 1)[1]}")
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(bgkit.UnsupportedFormatError):
        bgkit.write_match(match, io.StringIO())  # an open file needs the format


def test_replay_is_exported() -> None:
    match = bgkit.read_match(SAMPLE)
    steps = list(bgkit.replay(match))
    assert len(steps) == sum(len(g.actions) for g in match.games)
    assert isinstance(steps[0], bgkit.ReplayStep)


def test_read_match_from_a_path_an_open_file_or_text(tmp_path: Path) -> None:
    sample = Path(__file__).resolve().parent.parent / "data" / "sample.mat"
    by_path = bgkit.read_match(sample)
    with sample.open("rb") as binary:
        assert bgkit.read_match(binary) == by_path
    with sample.open(encoding="utf-8") as text_file:
        assert bgkit.read_match(text_file) == by_path
    text = sample.read_text("utf-8")
    assert bgkit.read_match(text=text).games == by_path.games
    assert bgkit.read_match(text=text.encode("utf-8")).games == by_path.games
    sgf = by_path.to_sgf()
    assert bgkit.read_match(text=sgf, format="sgf").games == by_path.games
    with pytest.raises(TypeError, match=r"read_match\(text=\.\.\.\)"):
        bgkit.read_match(text)
    with pytest.raises(TypeError, match="not both"):
        bgkit.read_match(sample, text=text)
    with pytest.raises(bgkit.UnsupportedFormatError, match="unknown format 'pdf'"):
        bgkit.read_match(text=text, format="pdf")
