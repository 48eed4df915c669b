"""Write ``tests/data/perft.txt``: legal-play counts from GNU Backgammon's move generator.

Run from the repository root (needs ``gnubg-nn``)::

    python tests/make_perft.py            # rewrites tests/data/perft.txt
    python tests/make_perft.py --show     # also prints gnubg's plays, for reading

Every count comes from ``gnubg_nn.moves`` (one entry per distinct resulting board),
never from bgkit. The positions are hand-made edge cases (bar entry, bear-off, the
must-play rules, partial doubles, variant openings) plus positions from seeded random
games (see :mod:`gnubg_oracle`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import gnubg_nn

sys.path.insert(0, str(Path(__file__).parent))

from gnubg_oracle import (
    PARKED,
    RACING_OPP,
    ROLLS,
    VARIANTS,
    Board,
    GamePosition,
    gnubg_count,
    half_of,
    has_contact,
    layout,
    position_id,
    position_of,
    random_positions,
)

OUT = Path(__file__).parent / "data" / "perft.txt"


def variant(name: str) -> Board:
    start = half_of(VARIANTS[name])
    return (start, start)


#: (id, board, checkers a side, what it tests); ids are unique and stable.
HANDMADE: list[tuple[str, Board, int, str]] = [
    ("opening", variant("standard"), 15, "standard starting position"),
    ("nackgammon-opening", variant("nackgammon"), 15, "nackgammon starting position"),
    ("hypergammon-opening", variant("hypergammon"), 3, "hypergammon: 3 checkers a side"),
    (
        "bar-one-open-board",
        layout({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 4, 17: 3, 19: 5, 20: 1}),
        15,
        "one checker on the bar, a blot on the 20-point to hit on entry",
    ),
    (
        "bar-one-four-point-board",
        layout({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {12: 3, 17: 3, 19: 3, 20: 2, 21: 2, 22: 2}),
        15,
        "one on the bar against a 4-point board: enters only with 1 or 2",
    ),
    (
        "bar-two-partial-board",
        layout({25: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 3, 17: 2, 19: 3, 20: 2, 21: 2, 23: 1}),
        15,
        "two on the bar against a 3-point board, a blot on the 23-point",
    ),
    (
        "bar-three",
        layout({25: 3, 13: 4, 8: 3, 6: 5}, {12: 4, 17: 3, 19: 4, 20: 2, 22: 1, 24: 1}),
        15,
        "three on the bar: non-doubles enter at most two, doubles enter all three",
    ),
    (
        "bar-one-closed-board",
        layout(
            {25: 1, 13: 5, 8: 4, 6: 5},
            {12: 2, 17: 1, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2},
        ),
        15,
        "closed board: every roll dances (count 0)",
    ),
    (
        "bar-two-closed-board",
        layout(
            {25: 2, 13: 5, 8: 3, 6: 5},
            {12: 2, 17: 1, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2},
        ),
        15,
        "two on the bar against a closed board (count 0)",
    ),
    (
        "bar-five-point-board",
        layout(
            {25: 1, 13: 5, 8: 4, 6: 5},
            {12: 3, 17: 2, 19: 2, 20: 2, 21: 2, 22: 2, 23: 2},
        ),
        15,
        "5-point board, ace point open: enters only with a 1",
    ),
    (
        "bar-two-one-gap",
        layout(
            {25: 2, 13: 5, 8: 3, 6: 5},
            {12: 3, 17: 2, 19: 2, 20: 2, 21: 2, 23: 2, 24: 2},
        ),
        15,
        "two on the bar, only the 22-point open: a 3 enters one, 33 enters both and plays on",
    ),
    (
        "bar-enter-then-primed",
        layout({25: 1, **PARKED}, {18: 2, 17: 2, 16: 2, 15: 2, 14: 2, 13: 2}),
        15,
        "enters on 19-24, then a 6-prime (18-13) stops the other die; 61 must enter with the 6",
    ),
    (
        "bearoff-all-home",
        layout({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, RACING_OPP),
        15,
        "all 15 home, no contact: plain bear-off",
    ),
    (
        "bearoff-highest-point",
        layout({4: 2, 3: 3, 2: 1}, RACING_OPP),
        15,
        "highest checker on the 4-point: 5s and 6s bear off from the 4-point",
    ),
    (
        "bearoff-one-on-six",
        layout({6: 1}, RACING_OPP),
        15,
        "one checker left, on the 6-point: 61 may be played 6/5/off",
    ),
    (
        "bearoff-one-on-ace",
        layout({1: 1}, RACING_OPP),
        15,
        "one checker left, on the 1-point",
    ),
    (
        "bearoff-six-and-ace",
        layout({6: 1, 1: 1}, RACING_OPP),
        15,
        "two checkers left, on the 6- and 1-point",
    ),
    (
        "bearoff-gap-higher-point",
        layout({6: 2, 2: 3, 1: 2}, RACING_OPP),
        15,
        "a 3, 4 or 5 cannot bear off (the 6-point is occupied): it must move inside",
    ),
    (
        "bearoff-hit-blot",
        layout({6: 3, 5: 3, 4: 2, 2: 2, 1: 2}, {3: 1, 13: 2, 17: 3, 19: 4, 20: 3}),
        15,
        "bearing off with an opponent blot on the 3-point: some plays hit",
    ),
    (
        "bearoff-against-anchor",
        layout({6: 4, 4: 3, 3: 2, 2: 2, 1: 2}, {5: 2, 12: 3, 17: 3, 19: 4, 20: 3}),
        15,
        "bearing off against an anchor on the 5-point",
    ),
    (
        "bearoff-one-outside",
        layout({7: 1, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 1}, RACING_OPP),
        15,
        "one checker on the 7-point: bear off only after it comes home",
    ),
    (
        "bearoff-hit-checker-on-bar",
        layout(
            {25: 1, 6: 3, 5: 3, 4: 3, 3: 2, 2: 2},
            {12: 3, 17: 2, 19: 3, 20: 2, 21: 2, 23: 1, 24: 2},
        ),
        15,
        "hit during the bear-off: enter first (only 2s and 3s), no bear-off this turn",
    ),
    (
        "must-use-both",
        layout({24: 1, 20: 1, 1: 13}, {15: 2, 13: 2}),
        15,
        "65: 24/18 would leave no 5 to play, so only 20/14 24/19 and 20/9 are legal",
    ),
    (
        "higher-die-only",
        layout({24: 1, **PARKED}, {13: 2}),
        15,
        "65: 24/18 or 24/19 but never both (13 is made): the 6 must be played",
    ),
    (
        "lower-die-only",
        layout({24: 1, **PARKED}, {18: 2, 13: 2}),
        15,
        "65: the 6 is blocked and the 5 cannot be followed by it: 24/19 alone",
    ),
    (
        "order-forced",
        layout({20: 1, **PARKED}, {16: 2}),
        15,
        "64: 20/16 is blocked, so only 20/14/10 (the 6 first)",
    ),
    (
        "doubles-two-of-four",
        layout({24: 1, **PARKED}, {18: 2}),
        15,
        "22: 24/22/20, then the 18-point is made: two of four",
    ),
    (
        "doubles-three-of-four",
        layout({24: 1, **PARKED}, {12: 2}),
        15,
        "33: 24/21/18/15, then the 12-point is made: three of four",
    ),
    (
        "doubles-one-of-four",
        layout({24: 1, **PARKED}, {16: 2}),
        15,
        "44: 24/20, then the 16-point is made: one of four",
    ),
    (
        "doubles-bar-partial",
        layout({25: 2, 1: 13}, {12: 3, 17: 2, 19: 2, 20: 2, 22: 2, 23: 2, 24: 2}),
        15,
        "two on the bar, only the 21-point open: 44 enters both, then 17 is blocked",
    ),
    (
        "prime-vs-prime",
        layout(
            {24: 2, 11: 2, 10: 2, 9: 2, 8: 2, 7: 2, 6: 3},
            {2: 2, 13: 2, 15: 2, 16: 2, 17: 2, 18: 2, 19: 3},
        ),
        15,
        "a 6-prime against a broken 6-prime, both with checkers trapped",
    ),
    (
        "backgame",
        layout(
            {24: 2, 22: 2, 13: 2, 6: 4, 5: 3, 4: 2},
            {10: 1, 18: 2, 19: 3, 20: 3, 21: 3, 23: 3},
        ),
        15,
        "a 1-3 backgame against a strong home board",
    ),
    (
        "opponent-on-bar",
        layout({13: 4, 8: 3, 6: 4, 5: 2, 4: 2}, {1: 2, 12: 5, 17: 3, 19: 4}, opp_bar=1),
        15,
        "the opponent is on the bar (does not change the mover's plays)",
    ),
]

RANDOM_SEED = 20240601


def _home(board: Board) -> bool:
    return not any(board[1][6:])


#: Kinds of random-game positions to include: (label, test, how many).
RANDOM_KINDS: list[tuple[str, Callable[[GamePosition], bool], int]] = [
    ("contact", lambda gp: has_contact(gp.board) and not gp.board[1][24], 3),
    ("bar", lambda gp: gp.board[1][24] > 0, 3),
    ("race", lambda gp: not has_contact(gp.board) and not _home(gp.board), 2),
    ("bearoff-race", lambda gp: not has_contact(gp.board) and _home(gp.board), 2),
    ("bearoff-contact", lambda gp: has_contact(gp.board) and _home(gp.board), 2),
    ("hypergammon", lambda gp: gp.checkers == 3, 2),
]


def random_blocks() -> list[tuple[str, Board, int, str]]:
    """Positions from seeded random games, a few of each kind in :data:`RANDOM_KINDS`."""
    pool = random_positions(3000, RANDOM_SEED)
    out = []
    for label, test, count in RANDOM_KINDS:
        chosen = [gp for gp in pool if test(gp)][::37][:count]
        for i, gp in enumerate(chosen, 1):
            about = f"from a random game ({label})"
            out.append((f"random-{label}-{i}", gp.board, gp.checkers, about))
    return out


def header() -> str:
    nn = version("gnubg-nn")
    return f"""\
# Backgammon "perft": legal-play counts for all 21 rolls.
#
# Source: counts computed by GNU Backgammon's move generator (GenerateMoves), as
# exposed by the PyPI package gnubg-nn {nn} (gnubg_nn.moves), never by bgkit.
# A play is counted once per distinct resulting position; 0 = no legal play.
# Written by tests/make_perft.py (python tests/make_perft.py); do not edit by hand.
#
# Format (after python-chess's perft files):
#   id <name>                     # stable name of the test position
#   position <gnubg position id>  # GNU Backgammon Position ID, player on roll's view
#   checkers <n>                  # checkers a side when not 15 (hypergammon)
#   roll <d1><d2> <count>         # 21 lines, higher die first
"""


def build(*, show: bool = False) -> str:
    parts = [header()]
    for name, board, checkers, about in [*HANDMADE, *random_blocks()]:
        position_of(board, checkers)  # bgkit must accept it as a valid position
        lines = [f"id {name}", f"# {about}", f"position {position_id(board)}"]
        if checkers != 15:
            lines.append(f"checkers {checkers}")
        for d1, d2 in ROLLS:
            lines.append(f"roll {d1}{d2} {gnubg_count(board, d1, d2)}")
            if show:
                plays = gnubg_nn.moves([list(board[0]), list(board[1])], d1, d2, 1)
                for _key, steps in plays[:6]:
                    lines.append("#   " + " ".join(f"{a}/{b}" for a, b in steps))
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--show", action="store_true", help="print gnubg's plays too")
    args = parser.parse_args()
    text = build(show=args.show)
    if args.show:
        print(text)
        return
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
