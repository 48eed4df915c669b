"""What a maximal record costs: ``bgkit verify`` of a file just under the size limit.

    python benchmarks/bench_large.py [--formats mat,sgf,json,gmd,javafibs,ogxm,xg]
                                     [--size 16M]
                                     [--repeat 1] [--folder DIR] [--keep]

For each format, writes a valid record of ``--size`` bytes at most (default: the default
``max_file_bytes``): a money session of the sample's games over and over
(``data/sample.mat``: every game headed 0-0, so that it verifies clean), or for GMD and
JavaFIBS, which bgkit does not write, of the real 7-point record's games in its writer's
own lines (:func:`real_session`). The binary formats are bounded otherwise: OGXM by its
codec's limits (about 0.6 MB at most, :func:`ogxm_session`), an ``.xg`` by the size its
match file inflates to (``max_inflated_bytes``, :func:`xg_session`). Runs ``bgkit
verify -q -j 1`` on it as a whole process (``--max-size`` raised to the file when needed).
Prints, per format, the file's size, games and actions, the wall and CPU seconds (user +
system, from ``wait4``), the CPU time per action and per byte, and the peak resident
memory of the process (``ru_maxrss``) and its bytes per byte of record: the README's
limits table quotes this.
Files go to ``--folder`` (default: a temporary folder, removed unless ``--keep``); an
existing file of the same name and size is reused.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bgkit.records import Match

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "data" / "sample.mat"
FORMATS = ("mat", "sgf", "json", "gmd", "javafibs", "ogxm", "xg")
REAL = {  # the formats bgkit reads but does not write: a real record's games, repeated
    "gmd": ROOT / "data" / "real" / "gmd" / "gitGNU__gnu_gibbon__7point.gmd",
    "javafibs": ROOT / "data" / "real" / "javafibs" / "gitGNU__gnu_gibbon__7point.match",
}


def session(games: int) -> Match:
    """A money session of ``games`` games, the sample's over and over (every game headed
    0-0, BgMatchFormat's convention, so that it verifies clean)."""
    import bgkit

    source = bgkit.read_match(SAMPLE)
    out = []
    for i in range(games):
        game = source.games[i % len(source.games)]
        result = game.result
        if result is not None and result.match_won:
            result = dataclasses.replace(result, match_won=False)
        out.append(dataclasses.replace(game, number=i + 1, score=(0, 0), result=result))
    return Match(source.players, 0, tuple(out))


def real_session(fmt: str, games: int) -> bytes:
    """A money session in ``fmt`` (``gmd`` or ``javafibs``, which bgkit does not write) of
    :data:`REAL`'s games over and over, each line as its writer wrote it: the record's
    header with the length made unlimited, then its games (a GMD ``Game:`` line or a
    JavaFIBS ``13:`` line and what follows it; JavaFIBS's match-won line left out)."""
    lines = REAL[fmt].read_bytes().decode("utf-8").splitlines(keepends=True)
    starts = ("Game:", "13:")
    first = next(i for i, line in enumerate(lines) if line.startswith(starts))
    head = [
        re.sub(r"^(Length: )[0-9]+|^(8:[^:]*:)[0-9]+", _unlimited, line) for line in lines[:first]
    ]
    blocks: list[list[str]] = []
    for line in lines[first:]:
        if line.startswith(starts):
            blocks.append([])
        if not line.startswith("9:"):
            blocks[-1].append(line)
    body = [line for i in range(games) for line in blocks[i % len(blocks)]]
    return "".join(head + body).encode("utf-8")


def _unlimited(m: re.Match[str]) -> str:
    return f"{m[1]}unlimited" if m[1] else f"{m[2]}9999"


OGXM_GAMES, OGXM_PLIES, OGXM_NOTE_BYTES = 1000, 100_000, 256 * 1024
"""The reference codec's limits on a match (``ogxm`` 2.3.2, found by ``v2_problem``):
1,000 games, 100,000 plies, 4,096 annotations of at most 4,096 bytes and 256 KiB in all.
So no OGXM file the codec reads holds more than about 0.6 MB of match: ``--size`` past
that gives the largest the codec writes, not a larger file."""


def ogxm_session(size: int) -> bytes:
    """The largest money session the OGXM codec writes, in at most ``size`` bytes: the
    sample's games (:func:`session`), longest first, repeated up to the codec's limits on
    games and plies (:data:`OGXM_GAMES`, :data:`OGXM_PLIES`), then ``x-bgkit`` comments on
    the first plies up to its limit on annotation bytes, as the codec's own document.

    Not ``dumps_ogxm(session(games))``: that session heads every game 0-0, which OGXM has
    no field for, so each game needs an ``x-bgkit`` annotation and the codec holds 4,096
    at most (and 1,000 games, and 100,000 plies). Here each game's score is the running
    total OGXM gives back, and the games are copied in the document rather than written
    again (the writer finds each play's steps, about 5 ms a game).
    """
    import json

    import ogxm

    from bgkit.formats.ogxm_record import KEY, ogxm_document

    sample = session(len(bgkit_sample().games))
    score = (0, 0)
    headed = []
    for game in sample.games:
        headed.append(dataclasses.replace(game, score=score))
        won = list(score)
        if game.result is not None:
            won[game.result.winner] += game.result.points
        score = (won[0], won[1])
    doc = ogxm_document(dataclasses.replace(sample, games=tuple(headed)))
    assert not doc["annotations"], doc["annotations"]
    source = sorted(doc["games"], key=lambda g: -len(g["plies"]))
    games: list[dict[str, object]] = []
    plies = 0
    for game in source:
        while len(games) < OGXM_GAMES and plies + len(game["plies"]) <= OGXM_PLIES:
            games.append(dict(game, game_index=len(games)))
            plies += len(game["plies"])
    doc["games"] = games
    notes, used = [], 0
    comment = "a comment. " * 360  # each note under the codec's 4,096 bytes
    while used + 4096 <= OGXM_NOTE_BYTES and len(notes) < plies:
        value = json.dumps({"annotations": [["C", [comment]]]}, separators=(",", ":"))
        notes.append({"scope": "ply", "ref": len(notes), "key": KEY, "value": value})
        used += len(value)
    doc["annotations"] = notes
    problem = ogxm.v2_problem(doc)
    if problem is not None:
        raise SystemExit(f"the OGXM codec refuses the session: {problem}")
    data: bytes = ogxm.json_to_binary(doc)
    if len(data) > size:
        raise SystemExit(f"the largest OGXM session is {len(data):,} bytes, over {size:,}")
    return data


XG_SOURCE = ROOT / "data" / "real" / "xg" / "kevung__gbf__test.xg"
XG_RECORD = 2560  # temp.xg is a sequence of such records (bgkit/formats/xg.py)


def xg_session(size: int, inflated: int, *, stored: bool = False) -> bytes:
    """An ``.xg`` money session whose match file (``temp.xg``) inflates to at most
    ``inflated`` bytes, with its archive's other files: :data:`XG_SOURCE`'s games (their
    records as XG wrote them, analysis included) over and over, each game's header and
    footer given the running score and its number, the match header made money play
    without Jacoby (so that it verifies clean), re-packed as XG's ZLibArchive (files,
    then an uncompressed registry and the trailer, CRCs recomputed). bgkit has no XG
    writer: this one knows only what the reader reads. ``stored``: the files are stored
    as they are, not deflated (XG's archive allows either), so that the file is as large
    as what it holds."""
    import struct
    import zlib

    data = XG_SOURCE.read_bytes()
    end = len(data) - 36
    _crc, count, version, reg_size, arc_size, compressed = struct.unpack_from("<Iiiiii", data, end)
    start = end - reg_size - arc_size
    registry = data[end - reg_size : end]
    if compressed:
        registry = zlib.decompress(registry)
    entries = []
    for i in range(count):
        name = registry[i * 532 + 1 : i * 532 + 1 + registry[i * 532]].decode("latin-1")
        _osize, csize, offset, _fcrc, kept, level = struct.unpack_from(
            "<iiiIBB", registry, i * 532 + 512
        )
        raw = data[start + offset : start + offset + csize]
        entries.append((i, name, raw if kept else zlib.decompress(raw), level))
    files = {name: body for _, name, body, _ in entries}
    body = files["temp.xg"]
    records = [body[n : n + XG_RECORD] for n in range(0, len(body), XG_RECORD)]
    kinds = [r[8] for r in records]
    first, last = kinds.index(1), len(kinds) - 1 - kinds[::-1].index(4)
    head = bytearray(records[0])
    length = 9 + struct.calcsize("<41B41Bx")  # then the variation (4 bytes), Crawford, Jacoby
    struct.pack_into("<l", head, length, 0)
    struct.pack_into("<B", head, length + 9, 0)
    others = sum(len(b) for n, b in files.items() if n != "temp.xg")
    room = (inflated - others) // XG_RECORD - 1 - (len(records) - last - 1)
    game_records: list[list[bytes]] = [[]]  # each game's records, its footer (kind 4) last
    for rec in records[first : last + 1]:
        game_records[-1].append(rec)
        if rec[8] == 4:
            game_records.append([])
    game_records.pop()
    out = [bytes(head)]
    score = [0, 0]
    number = 0
    while True:
        game = game_records[number % len(game_records)]
        if len(out) - 1 + len(game) > room:
            break
        number += 1
        for rec in game:
            rec = bytearray(rec)
            if rec[8] in (1, 4):
                if rec[8] == 4:
                    winner, points = struct.unpack_from("<ll", rec, 24)
                    if winner in (1, -1) and points > 0:
                        score[0 if winner == 1 else 1] += points
                struct.pack_into("<ll", rec, 12, *score)
            if rec[8] == 1:
                struct.pack_into("<l", rec, 48, number)
            out.append(bytes(rec))
    out += records[last + 1 :]
    files["temp.xg"] = b"".join(out)
    archive, table = b"", b""
    for _, name, _, level in entries:
        packed = files[name] if stored else zlib.compress(files[name], 9)
        table += bytes([len(name)]) + name.encode("latin-1").ljust(255, b"\0")
        table += b"\0" * 256 + struct.pack(
            "<iiiIBB",
            len(files[name]),
            len(packed),
            len(archive),
            zlib.crc32(files[name]),
            stored,
            level,
        )
        table += b"\0" * (532 - len(table) % 532 if len(table) % 532 else 0)
        archive += packed
    blob = archive + table
    trailer = struct.pack("<Iiiiii", zlib.crc32(blob), count, version, len(table), len(archive), 0)
    trailer += data[end + 24 :]
    made = data[:start] + blob + trailer
    if len(made) > size:
        raise SystemExit(f"the .xg is {len(made):,} bytes, over {size:,}")
    return made


def bgkit_sample() -> Match:
    import bgkit

    return bgkit.read_match(SAMPLE)


def dump(match: Match, fmt: str) -> bytes:
    from bgkit.formats.ogxm_record import dumps_ogxm

    if fmt == "ogxm":  # (at most 4,096 games headed 0-0: see ogxm_session)
        return dumps_ogxm(match)
    text = {"mat": match.to_mat, "sgf": match.to_sgf, "json": match.to_json}[fmt]()
    return text.encode("utf-8")


def records(games: int, fmt: str) -> bytes:
    """A money session of ``games`` games in ``fmt``: :func:`session` written by bgkit, or
    for a format bgkit does not write, :func:`real_session`."""
    return real_session(fmt, games) if fmt in REAL else dump(session(games), fmt)


def make(fmt: str, size: int, folder: Path) -> Path:
    """A record of ``fmt`` of at most ``size`` bytes, as close under it as whole games
    allow (the number of games is scaled from a small record, then trimmed); for OGXM,
    the largest its codec writes (:func:`ogxm_session`); for XG, one whose match file
    inflates to the limit (:func:`xg_session`; stored, not deflated, from 64 MiB on)."""
    path = folder / f"max_{size}.{fmt}"
    if path.exists() and path.stat().st_size <= size:
        return path
    if fmt == "ogxm":
        path.write_bytes(ogxm_session(size))
        return path
    if fmt == "xg":
        from bgkit.limits import DEFAULT_LIMITS

        inflated = DEFAULT_LIMITS.with_max_size(size).max_inflated_bytes
        if size >= inflated:  # a file as large as the limits allow: its files stored
            path.write_bytes(xg_session(size, size - (1 << 16), stored=True))
        else:
            path.write_bytes(xg_session(size, inflated))
        return path
    probe = len(records(200, fmt)) / 200
    games = int(size / probe)
    while True:
        data = records(games, fmt)
        if len(data) <= size:
            break
        games -= max(1, int((len(data) - size) / probe) + 1)
    path.write_bytes(data)
    return path


@dataclasses.dataclass
class Measured:
    wall: float
    cpu: float
    max_rss: int  # bytes
    summary: str


LAUNCH = Path(__file__).resolve().parent / "launch.py"
"""Starts the measured command from a small process of its own, so that its peak memory
is its own, not this process's, which has held the records it made (the script says why)."""


def measure(path: Path) -> Measured:
    """``bgkit verify -q -j 1 path`` as a whole process: wall, CPU and peak memory."""
    args = [sys.executable, "-m", "bgkit", "verify", "-q", "-j", "1"]
    args += ["--max-size", str(max(path.stat().st_size, 1 << 20)), str(path)]
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        spec = json.dumps({"args": args, "report": str(report)})
        err = subprocess.run(
            [sys.executable, str(LAUNCH), spec],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            check=True,
        ).stderr
        code, wall, cpu, max_rss, _late = json.loads(report.read_text())
    if code != 0:
        raise SystemExit(f"bgkit verify {path} exited {code}:\n{err}")
    lines = err.strip().splitlines()
    return Measured(wall, cpu, max_rss, lines[-1])


def parse_size(text: str) -> int:
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if text[-1:].upper() in units:
        return int(float(text[:-1]) * units[text[-1].upper()])
    return int(text)


def main() -> None:
    from bgkit.limits import DEFAULT_LIMITS

    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("--formats", default=",".join(FORMATS))
    cli.add_argument("--size", type=parse_size, default=DEFAULT_LIMITS.max_file_bytes)
    cli.add_argument("--repeat", type=int, default=1)
    cli.add_argument("--folder", type=Path)
    cli.add_argument("--keep", action="store_true")
    args = cli.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="bgkit-large-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"# bgkit verify -q -j 1 on records of at most {args.size:,} bytes ({folder})")
    print(
        "| format | bytes | games | actions | wall s | CPU s | CPU µs/action"
        " | CPU µs/byte | peak MB | bytes/byte |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    try:
        for fmt in args.formats.split(","):
            path = make(fmt, args.size, folder)
            size = path.stat().st_size
            for _ in range(args.repeat):
                got = measure(path)
                words = got.summary.split()
                games, actions = int(words[2]), int(words[4])
                print(
                    f"| {fmt} | {size:,} | {games:,} | {actions:,} | {got.wall:.1f}"
                    f" | {got.cpu:.1f} | {got.cpu / actions * 1e6:.1f}"
                    f" | {got.cpu / size * 1e6:.2f} | {got.max_rss / 1e6:.0f}"
                    f" | {got.max_rss / size:.1f} |",
                    flush=True,
                )
    finally:
        if args.folder is None and not args.keep:
            shutil.rmtree(folder)


if __name__ == "__main__":
    main()
