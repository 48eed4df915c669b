"""bgkit.formats.xg: eXtreme Gammon's binary .xg files."""

from __future__ import annotations

import contextlib
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bgkit.errors import NotationError
from bgkit.formats import read_match
from bgkit.formats.sgf_analysis import analysis_of
from bgkit.formats.xg import _RECORD_SIZE, _Reader, parse_xg, read_xg, read_xg_record, sniff_xg
from bgkit.play import Play
from bgkit.records import Double, Drop, Move, Take
from bgkit.verify import verify

XG = Path(__file__).resolve().parent.parent / "data" / "real" / "xg"
TEST = XG / "kevung__gbf__test.xg"
COMMENTED = XG / "kevung__gbf__match_with_comment.xg"

# players, length, games, final score: from XG's own .mat export of the same files where
# there is one (test.mat, charlot1-charlot2 .mat), else from the match footers.
EXPECTED = {
    "kevung__gbf__test.xg": (("Kévin Unger", "Maxence Job"), 7, 7, (7, 4)),
    "kevung__gbf__charlot1-charlot2_7p_2025-11-08-2305.xg": (
        ("charlot1", "charlot2"),
        7,
        4,
        (7, 2),
    ),
    "kevung__gbf__match_with_comment.xg": (("Nicolas HARMAND", "Kévin UNGER"), 9, 8, (4, 9)),
    "kevung__gbf__ronde3-UngerHarmand-HuyckLarsen.xg": (
        ("Kévin UNGER Nicolas HARMAND", "Johan HUYCK Michael LARSEN"),
        7,
        4,
        (1, 7),
    ),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_real_files_read_and_verify(name: str) -> None:
    match = read_xg(XG / name)
    players, length, games, final = EXPECTED[name]
    assert match.players == players
    assert match.length == length
    assert len(match.games) == games
    last = match.games[-1]
    assert last.result is not None and last.result.match_won
    score = list(last.score)
    score[last.result.winner] += last.result.points
    assert tuple(min(s, length) for s in score) == final  # XG scores a win past the length
    report = verify(match)
    assert report.ok, [str(i) for i in report.issues]
    assert report.actions_checked > 150


def test_first_game_of_the_transcribed_match() -> None:
    # test.mat (XG's own export of this match), game 1: "51: 13/8 24/23", "61: 13/7 8/7" ...
    game = read_xg(TEST).games[0]
    moves = [a for a in game.actions if isinstance(a, Move)]
    assert [(m.player, m.dice) for m in moves[:4]] == [
        (0, (5, 1)),
        (1, (6, 1)),
        (0, (4, 3)),
        (1, (1, 1)),
    ]
    assert moves[0].play == Play("13/8 24/23")
    assert moves[3].play == Play("24/23 23/22 22/21 21/20")
    assert [type(a) for a in game.actions[-2:]] == [Double, Drop]
    assert game.result is not None and (game.result.winner, game.result.points) == (0, 1)


def test_header_tags() -> None:
    match = read_xg(TEST)
    assert match.tag("Site") == "Paris, Fédération Française de Bridge"
    assert match.tag("Event") == "HSBT Paris 2023"
    assert match.tag("Round") == "Tableau Or 2"
    assert match.tag("EventDate") == "2023.11.26"
    assert match.tag("EventTime") == "09.30"
    assert match.tag("Transcriber") == "Kévin Unger"
    assert match.crawford and match.cube_limit == 1024


def test_hits_are_marked_from_xgs_board() -> None:
    match = read_xg(XG / "kevung__gbf__charlot1-charlot2_7p_2025-11-08-2305.xg")
    hits = [
        a
        for g in match.games
        for a in g.actions
        if isinstance(a, Move) and a.play and a.play.hits()
    ]
    assert len(hits) > 10


def test_analysis_is_kept() -> None:
    record = read_xg_record(TEST)
    assert record.version == 32
    first = record.analysis[0][0]
    assert first is not None and first.checker is not None
    assert first.checker.played == 0  # the opening 51 was XG's first choice
    best = first.checker.best
    assert best is not None and best.probabilities is not None
    assert best.play == Play("24/23 13/8")
    assert abs(best.probabilities.win - 0.5) < 0.01
    # every double of the file carries XG's cube equities
    for game, notes in zip(record.match.games, record.analysis, strict=True):
        assert len(notes) == len(game.actions)
        for action, note in zip(game.actions, notes, strict=True):
            if isinstance(action, (Double, Take, Drop)):
                assert note is not None and note.cube is not None
                assert note.cube.double_pass == 1.0


def test_comments_become_text_and_annotations() -> None:
    record = read_xg_record(COMMENTED)
    assert record.comments == (
        "coup assez difficile",
        "les double 66 sont toujpurs difficiles à trouver",
    )
    commented = [
        a for g in record.match.games for a in g.actions if any(k == "C" for k, _ in a.annotations)
    ]
    assert [a.annotations[0] for a in commented] == [
        ("C", ("coup assez difficile",)),
        ("C", ("les double 66 sont toujpurs difficiles à trouver",)),
    ]
    assert [analysis_of(a).comment for a in commented] == list(record.comments)  # type: ignore[union-attr]
    assert isinstance(commented[1], Move) and commented[1].dice == (6, 6)


def test_read_match_by_extension_and_by_content(tmp_path: Path) -> None:
    by_extension = read_match(TEST)
    renamed = tmp_path / "no_extension"
    renamed.write_bytes(TEST.read_bytes())
    assert read_match(renamed) == by_extension
    with TEST.open("rb") as handle:
        assert read_xg(handle) == by_extension
    assert sniff_xg(TEST.read_bytes()[:8])


# ---------------------------------------------------------------------------- errors


def test_not_an_xg_file() -> None:
    with pytest.raises(NotationError) as info:
        parse_xg(b"GMD-2\nLength: 7\n" + bytes(9000), source_name="x.xg")
    assert info.value.line == 1 and info.value.column == 1
    assert "not an .xg file" in str(info.value)


def test_truncated_file_names_the_offset() -> None:
    data = TEST.read_bytes()
    with pytest.raises(NotationError) as info:
        parse_xg(data[:20000], source_name="cut.xg")
    assert info.value.line == 1
    assert info.value.column > 1
    assert str(info.value).startswith("cut.xg:1:")


def test_a_damaged_byte_fails_the_crc() -> None:
    data = bytearray(TEST.read_bytes())
    data[30000] ^= 0xFF
    with pytest.raises(NotationError, match="CRC"):
        parse_xg(bytes(data))


def _temp_xg() -> bytes:
    """The decompressed match file (temp.xg) of test.xg."""
    from bgkit.formats.xg import _archive

    return _archive(TEST.read_bytes(), None)["temp.xg"]


def test_a_bad_record_names_record_and_byte() -> None:
    body = bytearray(_temp_xg())
    move = next(n for n in range(len(body) // _RECORD_SIZE) if body[n * _RECORD_SIZE + 8] == 3)
    struct.pack_into("<2l", body, move * _RECORD_SIZE + 100, 9, 9)  # dice 9 and 9
    with pytest.raises(NotationError, match=rf"record {move + 1} of 'temp.xg', byte 100"):
        _Reader(b"", "t.xg").match(bytes(body))


def test_whole_records_only() -> None:
    with pytest.raises(NotationError, match="whole number"):
        _Reader(b"", None).match(_temp_xg()[:-7])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_fuzz_any_bytes(data: bytes) -> None:
    for blob in (data, b"RGMH" + data, b"RGMH" + data + bytes(9000)):
        with contextlib.suppress(NotationError):
            parse_xg(blob)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40 * _RECORD_SIZE - 1), st.integers(0, 255)), max_size=8))
def test_fuzz_damaged_records(changes: list[tuple[int, int]]) -> None:
    body = bytearray(_TEMP[: 40 * _RECORD_SIZE])
    for offset, value in changes:
        body[offset] = value
    with contextlib.suppress(NotationError):
        _Reader(b"", None).match(bytes(body))


def test_a_rebuilt_archive_reads_the_same() -> None:
    """temp.xg packed into a new archive (no thumbnail) reads the same match."""
    original = TEST.read_bytes()
    body = _temp_xg()
    packed = zlib.compress(body)
    entry = bytearray(532)
    entry[0] = len(b"temp.xg")
    entry[1:8] = b"temp.xg"
    struct.pack_into("<iiiIBB", entry, 512, len(body), len(packed), 0, zlib.crc32(body), 0, 1)
    archive = packed + bytes(entry)
    trailer = struct.pack("<Iiiiii", zlib.crc32(archive), 1, 1, 532, len(packed), 0) + bytes(12)
    header = bytearray(original[:8232])
    struct.pack_into("<iqI", header, 8, 8232, 0, 0)  # no thumbnail
    rebuilt = bytes(header) + archive + trailer
    assert parse_xg(rebuilt) == parse_xg(original)
    with pytest.raises(NotationError, match="CRC"):
        parse_xg(rebuilt[:9000] + b"x" + rebuilt[9001:])


_TEMP = _temp_xg()
