"""Make the GNU Backgammon text exports the gnubg text tests read (run once; the files
are committed in ``tests/data/gnubg_text``).

Debian's GNU Backgammon 1.07 imports each record below (``.mat``, or loads an SGF) and
writes, with its own
``export match text`` (one file per game: ``x.txt``, ``x_002.txt``...), the match without
analysis and, after ``analyse match`` at 0-ply, with its analysis, and ``save match``
the analysed match as gnubg's SGF (the same analysis in another of gnubg's formats, the
oracle the tests compare the text's analysis with).

Usage: python tests/make_gnubg_text_data.py [NAME...]  (the records named, else all)
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "gnubg_text"
RECORDS = {  # name: (record, analysed too)
    "handwritten_3pt": (ROOT / "data" / "fixtures" / "handwritten_3pt.mat", True),
    "selfplay_0021": (ROOT / "data" / "selfplay" / "selfplay_0021.mat", True),
    "money": (ROOT / "data" / "conventions" / "money-session-zero-scores.mat", False),
    "resignation": (ROOT / "data" / "conventions" / "gnubg-resignation.mat", False),
    # Alice's 31 is the worst play of all: gnubg ranks it "??" below the five shown
    "worst_play": (OUT / "worst_play.mat", True),
    # handwritten_3pt as bgkit's SGF, with a comment of two lines on Bob's first move
    "comment": (OUT / "comment.sgf", False),
    # selfplay_0021's games as a 31-point match: gnubg's table extended past its 25 points
    "selfplay_0021_31pt": (OUT / "selfplay_0021_31pt.mat", True),
}


def main() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    from debian_gnubg import debian_gnubg, run_commands

    program = debian_gnubg()
    if program is None:
        sys.exit("Debian's gnubg is not installed")
    OUT.mkdir(parents=True, exist_ok=True)
    lines = ["set display off", "set sound enable off", "set threads 1"]
    chosen = sys.argv[1:] or list(RECORDS)
    for name in chosen:
        record, analysed = RECORDS[name]
        load = "load match" if record.suffix == ".sgf" else "import mat"
        lines += [f"{load} {record}", f"export match text {OUT / name}.txt"]
        if analysed:
            lines += [
                "set analysis chequerplay evaluation plies 0",
                "set analysis cubedecision evaluation plies 0",
                "analyse match",
                f"export match text {OUT / name}_analysed.txt",
                f"save match {OUT / name}_analysed.sgf",
            ]
    run_commands(lines)
    for path in sorted(OUT.iterdir()):
        print(path.relative_to(ROOT), path.stat().st_size)


if __name__ == "__main__":
    main()
