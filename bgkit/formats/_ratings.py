"""Players' ratings as the tags gnubg's ``.mat`` export writes for them.

A rating written in a name (GridGammon's ``BlueNote,1780 : 1`` score line) and gnubg's
``BlueNote's rating: 1780`` (its text export) become the tag ``Player 1 Elo`` (``Player
2 Elo`` for the second player), the one gnubg writes in its ``.mat`` header, so that
every format that keeps tags (``.mat``, SGF, JSON, OGXM) keeps the rating.

>>> rating_tags(("BlueNote", "Red"), {"BlueNote": "1780"}, [("Site", "x")])
[('Site', 'x'), ('Player 1 Elo', '1780')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["rating_key", "rating_tags"]


def rating_key(player: int) -> str:
    """The tag of player ``player``'s (0 or 1) rating: ``Player 1 Elo`` or ``Player 2 Elo``."""
    return f"Player {player + 1} Elo"


def rating_tags(
    players: Sequence[str], ratings: Mapping[str, str], tags: Sequence[tuple[str, str]]
) -> list[tuple[str, str]]:
    """``tags`` with the rating of each player found in ``ratings`` (by name) added, unless
    the tags already rate that player."""
    out = list(tags)
    for index, name in enumerate(players):
        key = rating_key(index)
        if name in ratings and all(k.lower() != key.lower() for k, _ in out):
            out.append((key, ratings[name]))
    return out
