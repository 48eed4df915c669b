"""GNU Backgammon's own analysis of a ``.mat`` record, as JSON: the reference for bgkit's.

Usage::

    python tests/gnubg_reference.py MATFILE [PLIES] [--json OUT] [--met NAME] [--no-jacoby]
        [--threads N]

``--met NAME`` loads the match equity table ``bgkit/analysis/met_tables/NAME.xml`` first
(gnubg's ``set matchequitytable``; its default is Kazaross-XG2). ``--no-jacoby`` imports
a money session without the Jacoby rule (``set jacoby off``; gnubg's default is on).
``--threads N`` analyses with N calculation threads (default 1: the reference; with
more, gnubg analyses several moves at once and its figures may differ from run to run).

A copy, adapted, of the project's shared ``tools/gnubg_import_analyse.py``: the PyPI
``gnubg`` module imports the record, runs ``analyse match`` (chequer play and cube at
PLIES, luck at 0-ply, gnubg's defaults otherwise), saves the match as SGF and reads
the figures back from it: per move the candidate scores (``A[]``), the luck (``LU[]``),
the marks and the cube analysis (``DA[]``); per player the per-game statistics
(``GS[]``) summed; and the ``show statistics match`` table as text. ``timing`` gives
the seconds ``import mat`` and ``analyse match`` took (and the CPU seconds of the latter).

Run it in a subprocess of its own: gnubg is a process-wide singleton and its command
interpreter must not share a process with other gnubg sessions. The tests use the
JSON this script wrote once (``tests/data/analysis/*.json``, see the README there); the
benchmark runs it live to time gnubg.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from typing import Any

SKILLS = ("verybad", "bad", "doubtful", "none")
LUCKS = ("veryunlucky", "unlucky", "none", "lucky", "verylucky")


def setup(gnubg: Any, plies: int, threads: int = 1) -> None:
    """Quiet, single-threaded (unless told), and the analysis depth for chequer play and
    cube."""
    for command in ("set display off", "set sound enable off", f"set threads {threads}"):
        gnubg.command(command)
    for kind in ("chequerplay", "cubedecision"):
        gnubg.command(f"set analysis {kind} evaluation plies {plies}")


def capture_stdout(fn: Callable[[], object]) -> str:
    """What ``fn`` prints on file descriptor 1 (gnubg prints there, not to ``sys.stdout``)."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            fn()
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
        tmp.seek(0)
        return tmp.read().decode("utf-8", "replace")


def parse_stats_text(text: str, names: list[str]) -> dict[str, dict[str, list[str]]]:
    """``show statistics match`` -> ``{section: {row label: [player 0, player 1]}}``.

    The table is fixed-width: the columns start where the players' names do on the
    ``Player`` line.
    """
    out: dict[str, dict[str, list[str]]] = {}
    section = ""
    cols: list[int] | None = None
    for line in text.splitlines():
        if line.startswith("Player "):
            first = line.index(names[0], len("Player "))
            cols = [first, line.index(names[1], first + len(names[0]))]
            continue
        if cols is None or not line.strip():
            continue
        if len(line) < cols[0] or not line[cols[0] - 1 :].strip():
            section = line.strip()
            out[section] = {}
            continue
        label = line[: cols[0]].strip()
        out.setdefault(section, {})[label] = [
            line[cols[0] : cols[1]].strip(),
            line[cols[1] :].strip(),
        ]
    return out


_PROP = re.compile(r"([A-Z]{1,2})((?:\[(?:[^\]\\]|\\.)*\])+)", re.S)
_VAL = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)


def sgf_games(text: str) -> Iterator[list[dict[str, list[str]]]]:
    """The nodes of each game tree: ``{property: [values]}`` per node."""
    for tree in re.findall(r"\(;(.*?)\)\s*(?=\(|$)", text, re.S):
        nodes = []
        for node in tree.split("\n;"):
            props: dict[str, list[str]] = {}
            for name, vals in _PROP.findall(node):
                props.setdefault(name, []).extend(_VAL.findall(vals))
            nodes.append(props)
        yield nodes


def decode_move(letters: str, player: int) -> str:
    """gnubg's SGF move letters -> ``24/18 13/11`` (points from the mover's side)."""
    parts = []
    for i in range(0, len(letters) - 1, 2):
        points = []
        for ch in letters[i : i + 2]:
            if ch == "y":
                points.append("bar")
            elif ch == "z":
                points.append("off")
            else:
                idx = (ord("x") - ord(ch)) if player == 1 else (ord(ch) - ord("a"))
                points.append(str(idx + 1))
        parts.append("/".join(points))
    return " ".join(parts)


def per_move_rows(sgf_text: str, names: list[str]) -> list[dict[str, Any]]:
    """One row per move, double, take and drop node, with gnubg's analysis of it."""
    rows = []
    for g, nodes in enumerate(sgf_games(sgf_text), 1):
        for n, props in enumerate(nodes[1:], 1):
            side = "B" if "B" in props else "W" if "W" in props else None
            if side is None:
                continue
            player = 1 if side == "B" else 0
            val = props[side][0]
            row: dict[str, Any] = {"game": g, "node": n, "player": player, "name": names[player]}
            if val in ("double", "take", "drop"):
                row["action"] = val
            else:
                row.update(action="move", dice=val[:2], move=decode_move(val[2:], player))
            if "A" in props:
                played = int(props["A"][0])
                scores = [float(c.split()[9]) for c in props["A"][1:] if " E ver " in c]
                # the five best and the play made, as gnubg wrote them ("lrqr E ver 3 p0..p4
                # equity 0C ..."): decode with decode_move(letters, player)
                row["candidates"] = [
                    c for i, c in enumerate(props["A"][1:]) if i < 5 or i == played
                ]
                if scores and played < len(scores):
                    row.update(
                        equity_best=scores[0],
                        equity_played=scores[played],
                        error=scores[0] - scores[played],
                        rank=played + 1,
                        n_candidates=len(props["A"]) - 1,
                    )
            if "LU" in props:
                row["luck"] = float(props["LU"][0])
            if "BM" in props:
                row["mark"] = "bad" if props["BM"][0] == "1" else "very bad"
            elif "DO" in props:
                row["mark"] = "doubtful"
            if "DA" in props:
                row["cube_analysis"] = props["DA"][0]
            rows.append(row)
    return rows


def per_player_stats(sgf_text: str, names: list[str]) -> list[dict[str, Any]]:
    """The ``GS[]`` statistics of every game (gnubg's ``sgf.c: WriteStatContext``) summed."""
    tot: list[dict[str, Any]] = [
        {
            "name": nm,
            "unforced": 0,
            "moves": 0,
            "chequer_err_emg": 0.0,
            "chequer_err_mwc": 0.0,
            "luck_emg": 0.0,
            "luck_mwc": 0.0,
            **{f"skill_{s}": 0 for s in SKILLS},
            **{f"luck_{s}": 0 for s in LUCKS},
        }
        for nm in names
    ]
    for nodes in sgf_games(sgf_text):
        for gs in nodes[0].get("GS", []):
            kind, _, body = gs.partition(":")
            v = body.split()
            if kind == "M":
                for p in (0, 1):
                    t = tot[p]
                    t["unforced"] += int(v[p])
                    t["moves"] += int(v[2 + p])
                    for k, s in enumerate(SKILLS):
                        t[f"skill_{s}"] += int(v[4 + 2 * k + p])
                    t["chequer_err_emg"] += float(v[12 + 2 * p])
                    t["chequer_err_mwc"] += float(v[13 + 2 * p])
            elif kind == "D":
                for p in (0, 1):
                    t = tot[p]
                    for k, s in enumerate(LUCKS):
                        t[f"luck_{s}"] += int(v[2 * k + p])
                    t["luck_emg"] += float(v[10 + 2 * p])
                    t["luck_mwc"] += float(v[11 + 2 * p])
    return tot


def analyse(
    path: str, plies: int, met: str | None = None, jacoby: bool = True, threads: int = 1
) -> dict[str, Any]:
    """Import, analyse and read back: the JSON-ready reference of one record."""
    import gnubg

    capture_stdout(lambda: setup(gnubg, plies, threads))
    if not jacoby:
        capture_stdout(lambda: gnubg.command("set jacoby off"))
    if met is not None:
        table = os.path.join(
            os.path.dirname(__file__), "..", "bgkit", "analysis", "met_tables", met + ".xml"
        )
        assert os.path.isfile(table), table
        capture_stdout(lambda: gnubg.command(f'set matchequitytable "{os.path.abspath(table)}"'))
    started = time.perf_counter()
    capture_stdout(lambda: gnubg.command(f"import mat {os.path.abspath(path)}"))
    t_import = time.perf_counter() - started
    info = gnubg.match(analysis=0, boards=0)["match-info"]
    names = [info["X"]["name"], info["O"]["name"]]
    started, cpu = time.perf_counter(), time.process_time()
    capture_stdout(lambda: gnubg.command("analyse match"))
    t_analyse, cpu_analyse = time.perf_counter() - started, time.process_time() - cpu
    table = capture_stdout(lambda: gnubg.command("show statistics match"))
    stats = parse_stats_text(table, names)
    with tempfile.TemporaryDirectory() as folder:
        sgf_path = os.path.join(folder, "analysed.sgf")
        capture_stdout(lambda: gnubg.command(f"save match {sgf_path}"))
        with open(sgf_path, encoding="utf-8") as handle:
            sgf = handle.read()
    return {
        "file": os.path.basename(path),
        "plies": plies,
        **({"met": met} if met is not None else {}),
        "gnubg": str(getattr(gnubg, "version", "?")),
        "names": names,
        "timing": {"import_s": t_import, "analyse_s": t_analyse, "analyse_cpu_s": cpu_analyse},
        "players": per_player_stats(sgf, names),
        "stats_text": stats,
        "moves": per_move_rows(sgf, names),
    }


def _option(argv: list[str], args: list[str], flag: str) -> str | None:
    """The value after ``flag`` in ``argv`` (taken out of ``args``), or ``None``."""
    if flag not in argv:
        return None
    value = argv[argv.index(flag) + 1]
    args.remove(value)
    return value


def main(argv: list[str]) -> int:
    args = [a for a in argv if a not in ("--json", "--met", "--no-jacoby", "--threads")]
    out = _option(argv, args, "--json")
    met = _option(argv, args, "--met")
    threads = _option(argv, args, "--threads") or "1"
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    plies = int(args[1]) if len(args) > 1 else 0
    result = analyse(args[0], plies, met, jacoby="--no-jacoby" not in argv, threads=int(threads))
    text = json.dumps(result, indent=1, sort_keys=True)
    if out is None:
        print(text)
    else:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
