"""Rebuild the analysis test data in ``tests/data/analysis`` (needs the PyPI ``gnubg``).

Usage::

    python tests/make_analysis_data.py            # the reference JSON of every record
    python tests/make_analysis_data.py --selfplay # also play selfplay_7pt_cube_noise.mat anew

The reference of each record is GNU Backgammon's own analysis at 0-ply, written by
``tests/gnubg_reference.py`` in a subprocess.

``--selfplay`` lets gnubg play a new 7-point match against itself at 0-ply with noise on
both players' cube decisions (0.35) and a little on their checker play (0.02), seed 12.
``set seed`` fixes the dice but not gnubg's evaluation noise, so each run plays a
different match: the record kept in the repository is one that holds every kind of cube
error gnubg counts (missed doubles below and above the cash point, wrong doubles below
the double point and above the too-good point, a wrong take and a wrong pass). Check
that a new one does too before keeping it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = ROOT / "tests" / "data" / "analysis"

#: (record, name of its reference JSON without ``.0ply.json``)
RECORDS: tuple[Path, ...] = (
    ROOT / "data" / "fixtures" / "selfplay_7pt_noisy.mat",
    ROOT / "data" / "fixtures" / "handwritten_3pt.mat",
    ROOT / "data" / "selfplay" / "selfplay_0002.mat",
    ROOT / "data" / "selfplay" / "selfplay_0004.mat",
    ROOT / "data" / "selfplay" / "selfplay_0005.mat",
    ROOT / "data" / "selfplay" / "selfplay_0006.mat",
    ROOT / "data" / "selfplay" / "selfplay_0010.mat",
    HERE / "example_a.mat",
    HERE / "selfplay_7pt_cube_noise.mat",
    HERE / "selfplay_3pt_one_game.mat",
    HERE / "cube_noise_31pt.mat",  # (the same games as a 31-point match: past the MET's 25)
)

#: (record, match equity table) of the references with another table than gnubg's default
TABLES: tuple[tuple[Path, str], ...] = (
    (HERE / "selfplay_7pt_cube_noise.mat", "woolsey"),
    (HERE / "selfplay_7pt_cube_noise.mat", "jac100"),
    (ROOT / "data" / "fixtures" / "selfplay_7pt_noisy.mat", "woolsey"),
)

_SELFPLAY = """
import sys, gnubg
out, length, seed, chequer, cube = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \\
    float(sys.argv[4]), float(sys.argv[5])
for c in ("set display off", "set sound enable off", "set threads 1"):
    gnubg.command(c)
for p in (0, 1):
    gnubg.command(f"set player {p} gnubg")
    for k, noise in (("chequerplay", chequer), ("cubedecision", cube)):
        gnubg.command(f"set player {p} {k} evaluation plies 0")
        gnubg.command(f"set player {p} {k} evaluation noise {noise}")
        gnubg.command(f"set player {p} {k} evaluation deterministic off")
gnubg.command(f"set seed {seed}")
gnubg.command(f"new match {length}")
gnubg.command("set player 0 name Alice")
gnubg.command("set player 1 name Bob")
gnubg.command(f"export match mat {out}")
"""


def selfplay(out: Path, length: int = 7, seed: int = 12) -> None:
    """Let gnubg play ``out`` with noisy cube decisions (see the module docstring)."""
    args = [str(out), str(length), str(seed), "0.02", "0.35"]
    subprocess.run(
        [sys.executable, "-c", _SELFPLAY, *args], check=True, capture_output=True, text=True
    )


def reference(record: Path, plies: int = 0, met: str | None = None) -> Path:
    """Write gnubg's analysis of ``record`` (with the match equity table ``met``, default
    gnubg's) next to the test data; return the JSON path."""
    out = HERE / f"{record.stem}.{plies}ply{'.' + met if met else ''}.json"
    script = ROOT / "tests" / "gnubg_reference.py"
    table = ["--met", met] if met else []
    subprocess.run(
        [sys.executable, str(script), str(record), str(plies), "--json", str(out), *table],
        check=True,
        capture_output=True,
        text=True,
    )
    return out


def main(argv: list[str]) -> int:
    if "--selfplay" in argv:
        selfplay(HERE / "selfplay_7pt_cube_noise.mat")
    for record in RECORDS:
        print(reference(record).relative_to(ROOT))
    for record, met in TABLES:
        print(reference(record, 0, met).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
