"""Make the matches ``bgkit audit`` is tested on, with GNU Backgammon (PyPI ``gnubg``) playing
itself at 0-ply.

    python tests/make_audit_data.py loaded            # data/event/loaded_dice_13pt.mat
    python tests/make_audit_data.py fair N OUTDIR     # N matches of fair dice (calibration)

``loaded``: a 13-point match whose dice come from a file (gnubg's ``set rng file``: one die
per line, read in turn for both players, two to a roll) in which a third of the rolls are
doubles instead of a sixth (Python's ``random.Random(2026)``); the dice file is kept beside
the match (``loaded_dice_13pt.dice``). ``fair``: matches with gnubg's own dice (its
default Mersenne Twister, ``set seed`` 1..N), 5 points each, for
``benchmarks/audit_calibration.py``. The names are set after ``new match`` (gnubg resets
them there); ``set display off`` and ``set sound enable off`` must come first (else gnubg
waits forever after the first board).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOADED = ROOT / "data" / "event" / "loaded_dice_13pt.mat"
DOUBLES = 1 / 3
"""The chance of a double on the loaded dice (fair dice: 1/6)."""


def _gnubg() -> object:
    import gnubg  # type: ignore[import-not-found, unused-ignore]

    for command in ("set display off", "set sound enable off", "set threads 1"):
        gnubg.command(command)
    for player in (0, 1):
        gnubg.command(f"set player {player} gnubg")
        gnubg.command(f"set player {player} chequerplay evaluation plies 0")
        gnubg.command(f"set player {player} cubedecision evaluation plies 0")
    return gnubg


def loaded() -> None:
    rng = random.Random(2026)
    dice: list[int] = []
    for _ in range(10_000):  # each roll takes two dice in turn (an opening double too)
        if rng.random() < DOUBLES:
            face = rng.randint(1, 6)
            dice += [face, face]
        else:
            dice += rng.sample(range(1, 7), 2)
    dice_file = LOADED.with_suffix(".dice")
    LOADED.parent.mkdir(exist_ok=True)
    dice_file.write_text("".join(f"{d}\n" for d in dice))
    gnubg: object = _gnubg()
    command = gnubg.command  # type: ignore[attr-defined]
    command(f"set rng file {dice_file}")
    command("new match 13")
    command("set player 0 name Carla")
    command("set player 1 name Dmitri")
    command(f"export match mat {LOADED}")
    text = LOADED.read_text()
    # gnubg writes today's date: the record is dated as made, once
    LOADED.write_text(text)
    print(f"wrote {LOADED} ({text.count(chr(10))} lines)")


def fair(count: int, outdir: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    gnubg: object = _gnubg()
    command = gnubg.command  # type: ignore[attr-defined]
    for seed in range(1, count + 1):
        target = outdir / f"fair_{seed:05d}.mat"
        if target.exists():
            continue
        command(f"set seed {seed}")
        command("new match 5")
        command("set player 0 name Ann")
        command("set player 1 name Bo")
        command(f"export match mat {target}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["loaded"]:
        loaded()
    elif sys.argv[1:2] == ["fair"] and len(sys.argv) == 4:
        fair(int(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
