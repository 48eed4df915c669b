"""Build the XG position files (``.xgp``) of ``data/fixtures/xg/`` (run once, commit the output).

No real ``.xgp`` file, and no ``.xg`` file with a rollout, is in the shared materials or in
the public sources searched (binary files are not stored there). These files are built,
field by field, in the layout ``xg_format.pas`` publishes (Pascal records, every field at
its natural alignment: this script packs them in order and does not use the offsets
``bgkit.formats.xg`` reads them at), from:

* ``cube_rollout.xgp``: XG's own figures for a cube decision it rolled out (5-point match,
  3-1, XG's player 1 on roll, 1296 trials), as ConvertXgToJson_Lib's golden decode of the
  real ``TooGoodAndTake.xgp`` records them (halheinrich/ConvertXgToJson_Lib,
  ``ConvertXgToJson_Lib.Tests/Golden/TooGoodAndTake.xgp.json``, commit 82c3ef13ae23): the
  match and game headers, the cube record with its level-100 analysis and the rollout
  context of ``temp.xgr``;
* ``play.xgp``: XG's own records of one decision of ``data/real/xg/kevung__gbf__test.xg``
  (game 1, the 53 of its second player, its tenth roll), copied byte for byte in XG's
  save-from-match shape: the match header, the game header, the cube record of that turn
  and its move record (XG Roller++ candidates);
* ``play_rollout.xgp``: ``play.xgp`` with its second candidate marked as rolled out
  (level 100, its figures and rollout index pointing to the rollout context of
  ``cube_rollout.xgp``): made up, to read a checker-play rollout.

Run: ``python tests/make_xg_fixtures.py`` (from the project root).
"""

from __future__ import annotations

import struct
import uuid
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "data" / "fixtures" / "xg"
TEST_XG = ROOT / "data" / "real" / "xg" / "kevung__gbf__test.xg"
RECORD = 2560
ROLLOUT = 2184
XGP_GUID = uuid.UUID("2f5af5e1-e021-4832-a423-ef480ec58a0b")  # every XG file's

SIZES = {"B": 1, "b": 1, "?": 1, "h": 2, "H": 2, "l": 4, "L": 4, "f": 4, "d": 8}


class Pascal:
    """Fields packed in order, each at its natural alignment (xg_format.pas's records)."""

    def __init__(self, start: bytes = b"") -> None:
        self.out = bytearray(start)

    def put(self, code: str, *values: Any) -> Pascal:
        size = SIZES[code]
        self.out += bytes(-len(self.out) % size)
        self.out += struct.pack(f"<{len(values)}{code}", *values)
        return self

    def align(self, size: int) -> Pascal:
        """Start a nested record (its alignment is its widest field's)."""
        self.out += bytes(-len(self.out) % size)
        return self

    def short_string(self, text: str, room: int) -> Pascal:
        raw = text.encode("cp1252")
        self.out += bytes([len(raw)]) + raw.ljust(room, b"\0")
        return self

    def wide(self, text: str, room: int) -> Pascal:
        self.out += bytes(-len(self.out) % 2)
        self.out += text.encode("utf-16-le").ljust(2 * room, b"\0")
        return self

    def record(self) -> bytes:
        return bytes(self.out).ljust(RECORD, b"\0")


def record_start(kind: int) -> Pascal:
    return Pascal(struct.pack("<IIB", 0, 0, kind))  # Previous, Next, EntryType


def rich_header(save_name: str) -> bytes:
    head = struct.pack("<4siiqI", b"RGMH", 1, 8232, 0, 0) + XGP_GUID.bytes_le
    names = "".join(text.ljust(1024, "\0") for text in ("", save_name, "", ""))
    return head + names.encode("utf-16-le")


def archive(files: dict[str, bytes]) -> bytes:
    """XG's ZLibArchive: the deflated files, their registry (deflated), the trailer."""
    body = b""
    registry = b""
    for name, data in files.items():
        packed = zlib.compress(data)
        entry = (bytes([len(name)]) + name.encode()).ljust(512, b"\0")
        entry += struct.pack("<iiiIBB", len(data), len(packed), len(body), zlib.crc32(data), 0, 1)
        registry += entry.ljust(532, b"\0")
        body += packed
    registry = zlib.compress(registry)
    tail = body + registry
    trailer = struct.pack("<Iiiiii", zlib.crc32(tail), len(files), 1, len(registry), len(body), 1)
    return tail + trailer.ljust(36, b"\0")


# ------------------------------------------------------------------- cube_rollout.xgp
# ConvertXgToJson_Lib's golden decode of TooGoodAndTake.xgp (numbers as it prints them).
POSITION = (-1, -2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, -2, 3, 0, 0, 0, -1, -2, -3, -2, -2, 0, 0, 0, 0)
EVAL_ND = (0.00014316337, 0.0035489919, 0.2219286, 0.77807134, 0.40612987, 0.17966479, 1.2543187)
EVAL_DT = (0.00018117027, 0.0034045163, 0.22857381, 0.77142614, 0.47395292, 0.19452979, 1.3582819)
RESULT1 = (0.00014316337, 0.0035489919, 0.2219286, 0.77807134, 0.40612987, 0.17966479, 1.1710503)
RESULT2 = (0.00018117027, 0.0034045163, 0.22857381, 0.77142614, 0.47395292, 0.19452979, 0.60041064)
PREV_EVAL = (5.972702e-05, 0.004248334, 0.20395814, 0.7960418, 0.425119, 0.051181983, 1.3225588)
# the 37 sums of each line (index 0 the total, 1-36 per first roll) are not read by
# bgkit: the totals are kept, the rest spread evenly.
SUM1, SUMSQ1, STDEV1 = 1079.229157924652, 899.1326926153253, 0.017937023789063415
SUM2, SUMSQ2, STDEV2 = 999.7682628929615, 772.8912008486757, 0.035614535853463


def match_header(
    length: int, players: tuple[str, str], version: int = 30, *, jacoby: bool = False
) -> bytes:
    p = record_start(0)
    p.short_string(players[0], 40).short_string(players[1], 40)
    p.put("l", length, 0).put("?", True, jacoby, False, False)  # Crawford, Jacoby, Beaver, Auto
    p.put("d", 1600.0, 1600.0).put("l", 0, 0).put("d", 46241.789)  # Elo, exp, date
    p.short_string("", 128).put("l", 854178929, -1, -1).put("?", False, False, False)
    p.short_string("eXtreme Gammon", 128).put("l", 0).put("?", False).short_string("", 128)
    p.put("l", 1, version).put("L", 0x494C4D44).put("l", 0, 0, 0)  # Invert, version, Magic
    p.put("?", False, False, False).put("l", -1, -1).put("?", False)
    p.put("f", 0.0, 0.0).put("l", 0).put("f", 0.0).put("l", 0, -1)  # money, currency, site
    p.put("l", 10, 0).put("?", False)  # CubeLimit (exponent), AutoDoubleMax, Transcribed
    for text in ("", players[0], players[1], "eXtreme Gammon", ""):
        p.wide(text, 129)
    p.put("l", 0).put("?", False).put("l", 0, 0, 0, 0, 0, 0)  # TimeSetting
    p.put("l", 0, 0, 0, 0).wide("", 129)  # time delays, Transcriber
    return p.record()


def game_header(score: tuple[int, int]) -> bytes:
    p = record_start(1).put("l", *score).put("?", False).put("b", *(0,) * 26)
    return p.put("l", 1).put("?", True).put("l", -1, -1, 0).record()


def cube_record() -> bytes:
    p = record_start(2).put("l", 1, -1, -1, -1, -1, 0).put("b", *POSITION)
    # EngineStructDoubleAction
    p.align(4).put("b", *POSITION).put("l", 100, 2, 4, 1, 0, 0).put("h", 0, 0, 0, -1)
    p.put("f", *EVAL_ND).put("f", 1.1710503, 0.60041064, 1.0).put("h", 100, -1).put("f", *EVAL_DT)
    p.put("d", -1000.0).short_string("42", 2).put("d", -1000.0)  # ErrCube, DiceRolled, ErrTake
    p.put("l", 0, 0, -1).put("d", -1000.0, -1000.0).put("l", -1, 0)  # RolloutindexD = 0
    p.put("b", -1, -1).put("d", -1000.0, -1000.0).put("?", False).put("l", -1)
    return p.record()


def rollout_context() -> bytes:
    p = Pascal()
    p.put("?", False, False).put("l", 0, 1296).put("d", 0.0).put("l", 5184, 3, 3, 0)
    p.put("?", True, False, False).put("l", 1000, 3).put("L", 0).put("l", 0, 1676125652, 97688624)
    p.put("?", False).put("f", 1.0).put("l", 0).put("?", False, False, False).put("l", 1296)
    p.put("?", False)
    for total, kind in ((SUM1, 1), (SUMSQ1, 1), (SUM2, 1), (SUMSQ2, 1)):
        p.put("d", total, *(total / 36 * kind,) * 36)
    p.put("d", STDEV1, *(STDEV1,) * 36).put("d", STDEV2, *(STDEV2,) * 36)
    p.put("l", 1296, *(36,) * 36)
    p.put("f", 0.008834839, 0.017504454).put("f", *RESULT1).put("f", *RESULT2)
    p.put("f", 0.8327385, 0.77142614).put("l", 1002).put("f", *PREV_EVAL)
    p.put("f", 1.0487738, 0.8409749, 1656.462).put("l", 0, 1296, 324).put("?", False, False)
    p.put("f", 0.999, 0.001).put("?", False).put("l", 0).put("?", False).put("H", 2, 10)
    p.put("l", 0, 0)
    assert len(p.out) <= ROLLOUT, len(p.out)
    return bytes(p.out).ljust(ROLLOUT, b"\0")


# ------------------------------------------------------------------- play.xgp


def real_records() -> list[bytes]:
    """temp.xg of test.xg, record by record (the archive read as the format says)."""
    data = TEST_XG.read_bytes()
    end = len(data) - 36
    _crc, count, _v, reg_size, arc_size, compressed = struct.unpack_from("<Iiiiii", data, end)
    start = end - reg_size - arc_size
    registry = data[end - reg_size : end]
    registry = zlib.decompress(registry) if compressed else registry
    for i in range(count):
        at = i * 532
        name = registry[at + 1 : at + 1 + registry[at]]
        _size, csize, offset, _crc, stored, _level = struct.unpack_from(
            "<iiiIBB", registry, at + 512
        )
        if name == b"temp.xg":
            raw = data[start + offset : start + offset + csize]
            body = raw if stored else zlib.decompress(raw)
            return [body[n : n + RECORD] for n in range(0, len(body), RECORD)]
    raise SystemExit("test.xg holds no temp.xg")


def play_records() -> list[bytes]:
    """Match header, game 1's header, and the cube and move records of its tenth played
    move (XG's second player rolls 53)."""
    records = real_records()
    game = next(i for i, r in enumerate(records) if r[8] == 1)
    moves = [i for i, r in enumerate(records) if r[8] == 3 and i > game]
    move = moves[9]
    assert records[move - 1][8] == 2, "a cube record precedes every move"
    assert struct.unpack_from("<l2l", records[move], 64 + 32)[1:] == (5, 3)
    return [records[0], records[game], records[move - 1], records[move]]


def with_rolled_out_second(move: bytes) -> bytes:
    """The move record with candidate 2 as a rollout: level 100, the rollout's figures
    and index 0 (offsets from the published EngineStructBestMove / tsMove layout)."""
    rec = bytearray(move)
    best = 124  # DataMoves inside tsMove: 9 + 26 + 26, aligned, + 8 ints + 2 + 1 + double + int
    struct.pack_into("<h", rec, best + 68 + 32 * 26 + 32 * 8 + 4, 100)  # EvalLevel[2]
    struct.pack_into("<7f", rec, best + 68 + 32 * 26 + 32 * 8 + 32 * 4 + 28, *RESULT1)
    rollout_index = best + 2184 + 4 + 8 + 8 + 4 + 4 + 8  # Played..InitEq, then RolloutindexM
    struct.pack_into("<l", rec, rollout_index + 4, 0)
    return bytes(rec)


def write(name: str, save_name: str, records: list[bytes], rollouts: list[bytes]) -> None:
    files = {"temp.xg": b"".join(records), "temp.xgi": records[0] + records[-1]}
    if rollouts:
        files["temp.xgr"] = b"".join(rollouts)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_bytes(rich_header(save_name) + archive(files))
    print(f"wrote {OUT / name}")


def main() -> None:
    cube = [match_header(5, ("Player 1", "Player 2")), game_header((3, 1)), cube_record()]
    write("cube_rollout.xgp", "Position: 5 point match 3-1", cube, [rollout_context()])
    play = play_records()
    write("play.xgp", "Position: 7 point match 0-0", play, [])
    rolled = [*play[:3], with_rolled_out_second(play[3])]
    write("play_rollout.xgp", "Position: 7 point match 0-0", rolled, [rollout_context()])


if __name__ == "__main__":
    main()
