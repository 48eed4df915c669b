"""Match equity tables (MET) and the conversions between equity and match-winning chance.

A :class:`MatchEquityTable` holds, as GNU Backgammon does (``matchequity.c``), a
pre-Crawford table ``pre[i][j]`` (the match-winning chance, MWC, of a player who
needs ``i + 1`` points against one who needs ``j + 1``; a 1-away row or column is the
Crawford game) and a post-Crawford row per player ``post[p][j]`` (the MWC of player
``p`` needing ``j + 1`` points against a 1-away leader after the Crawford game).

:meth:`MatchEquityTable.get_me` is gnubg's ``getME``; :meth:`~MatchEquityTable.emg_to_mwc`
and :meth:`~MatchEquityTable.mwc_to_emg` are its ``eq2mwc`` and ``mwc2eq``, the linear map
between normalised money-game equity (EMG: +1 = winning a single game with the current
cube, -1 = losing one) and MWC at a given score and cube.

Tables are read from GNU Backgammon's XML format (``met/*.xml``,
:meth:`MatchEquityTable.from_xml`). bgkit ships the explicit tables GNU Backgammon
ships (:data:`MET_NAMES`; :func:`shipped_met` reads one, Kazaross-XG2 by default, as
gnubg); an analysis can use any of them (``bgkit analyze --met NAME``).

>>> met = MatchEquityTable(  # the 3-away corner of Kazaross-XG2
...     "excerpt",
...     pre=((0.5, 0.67736, 0.75076), (0.32264, 0.5, 0.59947), (0.24924, 0.40053, 0.5)),
...     post=((0.5, 0.48803, 0.32264), (0.5, 0.48803, 0.32264)),
... )
>>> met.mwc(1, 2)  # 1-away (the Crawford game) against 2-away
0.67736
>>> met.get_me((0, 0), 3, player=0, points=1, winner=0)  # 3-pt, 0-0: win 1 point
0.59947
>>> from bgkit.position import Position
>>> pos = Position.initial(match_length=3)
>>> met.cube_range(pos)
(0.59947, 0.40053)
>>> round(met.emg_to_mwc(1.0, pos), 5), round(met.mwc_to_emg(0.5, pos), 5)
(0.59947, 0.0)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bgkit.position import Position

__all__ = [
    "DEFAULT_MET",
    "MET_NAMES",
    "MatchEquityTable",
    "default_met",
    "gnubg_met_dir",
    "met_name",
    "met_path",
    "shipped_met",
]

#: GNU Backgammon's default table.
DEFAULT_MET = "Kazaross-XG2"
#: The tables bgkit ships (``bgkit/analysis/met_tables``), by file name: every explicit table of
#: GNU Backgammon's ``met`` folder (its parametric ``mec`` and ``zadeh`` are left out).
#: Kazaross-XG2, Rockwell-Kazaross, g11 and mec26 cover 24-25 points; Jacobs-Trice
#: (``jacobs``, and ``jac050`` / ``jac100`` for a 50 / 100 Elo favourite) 25; ``ortega``,
#: ``snowie`` and ``woolsey`` 15.
MET_NAMES = (
    "Kazaross-XG2", "Rockwell-Kazaross", "g11", "jac050", "jac100", "jacobs", "mec26",
    "ortega", "snowie", "woolsey",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class MatchEquityTable:
    """A match equity table: pre-Crawford square table and post-Crawford rows."""

    name: str
    pre: tuple[tuple[float, ...], ...]
    """``pre[i][j]``: MWC of the player needing ``i + 1`` against one needing ``j + 1``."""
    post: tuple[tuple[float, ...], tuple[float, ...]]
    """``post[p][j]``: MWC of player ``p`` needing ``j + 1`` against a 1-away leader
    (post-Crawford)."""

    @property
    def length(self) -> int:
        """The longest match the table covers (points to win)."""
        return min(len(self.pre), len(self.post[0]), len(self.post[1]))

    @classmethod
    def from_rows(
        cls,
        name: str,
        pre: Sequence[Sequence[float]],
        post: Sequence[Sequence[float]],
    ) -> MatchEquityTable:
        """Build from nested sequences (as ``gnubg.met()`` returns them: pre, post0, post1).

        ``post`` holds one row (both players) or two (players 0 and 1).
        """
        rows = tuple(tuple(float(x) for x in row) for row in pre)
        posts = tuple(tuple(float(x) for x in row) for row in post)
        if len(posts) == 1:
            posts = (posts[0], posts[0])
        if len(posts) != 2 or not rows:
            raise ValueError("a MET needs a pre-Crawford table and one or two post-Crawford rows")
        return cls(name, rows, (posts[0], posts[1]))

    @classmethod
    def from_xml(cls, path: str | os.PathLike[str]) -> MatchEquityTable:
        """Read a table in GNU Backgammon's XML format (explicit tables only).

        :raises ValueError: for a parametric table (``type="parameters"``) or a file
            without the tables.
        """
        import xml.etree.ElementTree as ET  # (imported when a table is read)

        root = ET.parse(path).getroot()
        name = (root.findtext("info/name") or Path(path).stem).strip()
        pre_el = root.find("pre-crawford-table")
        if pre_el is None or pre_el.get("type", "explicit") != "explicit":
            raise ValueError(f"{path}: no explicit pre-Crawford table")
        pre = [[float(me.text or "nan") for me in row.findall("me")] for row in pre_el]
        posts: dict[str, list[float]] = {}
        for post_el in root.findall("post-crawford-table"):
            if post_el.get("type", "explicit") != "explicit":
                raise ValueError(f"{path}: the post-Crawford table is not explicit")
            row = post_el.find("row")
            values = [] if row is None else [float(me.text or "nan") for me in row.findall("me")]
            posts[post_el.get("player", "both")] = values
        if "both" in posts:
            post = [posts["both"]]
        elif "0" in posts and "1" in posts:
            post = [posts["0"], posts["1"]]
        else:
            raise ValueError(f"{path}: no post-Crawford table")
        n = min(len(pre), *(len(r) for r in post))
        return cls.from_rows(name, [r[:n] for r in pre[:n]], [r[:n] for r in post])

    # ------------------------------------------------------------------ lookups

    def mwc(self, away: int, opp_away: int, *, post_crawford: bool = False) -> float:
        """MWC of a player needing ``away`` points against one needing ``opp_away``.

        With ``post_crawford`` one of them must be 1-away (the game after the Crawford
        game); otherwise a 1-away player is in the Crawford game.
        """
        if away <= 0:
            return 1.0
        if opp_away <= 0:
            return 0.0
        self._check(max(away, opp_away))
        if post_crawford:
            if away == 1 and opp_away > 1:
                return 1.0 - self.post[0][opp_away - 1]
            if opp_away == 1 and away > 1:
                return self.post[0][away - 1]
        return self.pre[away - 1][opp_away - 1]

    def get_me(
        self,
        score: tuple[int, int],
        length: int,
        *,
        player: int,
        points: int,
        winner: int,
        crawford: bool = False,
    ) -> float:
        """MWC of ``player`` after ``winner`` wins ``points`` at ``score`` (gnubg's ``getME``).

        ``crawford`` says the current game is the Crawford game.
        """
        n0 = length - (score[0] + (points if winner == 0 else 0)) - 1
        n1 = length - (score[1] + (points if winner == 1 else 0)) - 1
        if n0 < 0:
            return 0.0 if player else 1.0
        if n1 < 0:
            return 1.0 if player else 0.0
        self._check(max(n0, n1) + 1)
        if crawford or length - score[0] == 1 or length - score[1] == 1:
            # the next game is post-Crawford
            if n0 == 0:
                return self.post[1][n1] if player else 1.0 - self.post[1][n1]
            return 1.0 - self.post[0][n0] if player else self.post[0][n0]
        return 1.0 - self.pre[n0][n1] if player else self.pre[n0][n1]

    def at_score(
        self, score: tuple[int, int], length: int, *, player: int, crawford: bool = False
    ) -> float:
        """MWC of ``player`` at ``score`` before a game (gnubg's ``getMEAtScore``).

        ``crawford`` says this game is the Crawford game.
        """
        n0 = length - score[0] - 1
        n1 = length - score[1] - 1
        if n0 < 0:
            return 0.0 if player else 1.0
        if n1 < 0:
            return 1.0 if player else 0.0
        self._check(max(n0, n1) + 1)
        if not crawford and (n0 == 0 or n1 == 0):
            if n0 == 0:
                return self.post[1][n1] if player else 1.0 - self.post[1][n1]
            return 1.0 - self.post[0][n0] if player else self.post[0][n0]
        return 1.0 - self.pre[n0][n1] if player else self.pre[n0][n1]

    # ------------------------------------------------------------------ conversions

    def cube_range(self, pos: Position) -> tuple[float, float]:
        """``(W, L)``: MWC of the player on roll winning / losing the cube value.

        Match play only; one EMG is worth ``(W - L) / 2`` MWC.
        """
        score, length, me, cube, crawford = (
            pos.score,
            pos.match_length,
            pos.turn,
            pos.cube,
            pos.crawford,
        )
        win = self.get_me(score, length, player=me, points=cube, winner=me, crawford=crawford)
        lose = self.get_me(score, length, player=me, points=cube, winner=1 - me, crawford=crawford)
        return win, lose

    def emg_to_mwc(self, emg: float, pos: Position) -> float:
        """MWC of the player on roll for an equity ``emg`` (gnubg's ``eq2mwc``).

        In money play the result is points: ``emg`` times the cube value.
        """
        if not pos.match_length:
            return emg * pos.cube
        win, lose = self.cube_range(pos)
        return 0.5 * ((win - lose) * emg + (win + lose))

    def mwc_to_emg(self, mwc: float, pos: Position) -> float:
        """The equity (EMG) of the player on roll for a MWC ``mwc`` (gnubg's ``mwc2eq``).

        In money play ``mwc`` is points and the result is ``mwc`` divided by the cube.
        """
        if not pos.match_length:
            return mwc / pos.cube
        win, lose = self.cube_range(pos)
        return (2.0 * mwc - (win + lose)) / (win - lose)

    def emg_cost(self, emg: float, pos: Position) -> float:
        """An EMG difference (an error, a roll's luck) in MWC, or in points in money play.

        gnubg's ``eq2mwc(x) - eq2mwc(0)``, that is ``x * (W - L) / 2``; ``x * cube`` for money.
        """
        if not pos.match_length:
            return emg * pos.cube
        win, lose = self.cube_range(pos)
        return 0.5 * (win - lose) * emg

    def _check(self, away: int) -> None:
        if away > self.length:
            raise ValueError(f"the MET {self.name!r} covers matches up to {self.length} points")


def gnubg_met_dir() -> Path | None:
    """The ``met`` folder of an installed GNU Backgammon Python package, if any (not imported)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("gnubg")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location) / "data" / "met"
        if folder.is_dir():
            return folder
    return None


def met_name(text: str) -> str:
    """The name in :data:`MET_NAMES` that ``text`` spells (any case, ``.xml`` or not).

    >>> met_name("WOOLSEY.xml")
    'woolsey'

    :raises ValueError: for a name bgkit does not ship, with the names it does.
    """
    wanted = text.strip().removesuffix(".xml").lower()
    for name in MET_NAMES:
        if name.lower() == wanted:
            return name
    raise ValueError(f"no match equity table {text!r}: choose one of {', '.join(MET_NAMES)}")


def met_path(name: str = DEFAULT_MET) -> Path:
    """The file of a table bgkit ships (a name of :data:`MET_NAMES`, any case)."""
    from importlib import resources

    return Path(str(resources.files("bgkit.analysis.met_tables") / f"{met_name(name)}.xml"))


@cache
def shipped_met(name: str = DEFAULT_MET) -> MatchEquityTable:
    """A table bgkit ships (copied from GNU Backgammon; each file's notice permits copying),
    without gnubg: for the match winning chances an analysis, the reports and the SGF
    analysis properties (:mod:`bgkit.formats.sgf_analysis`) convert to and from.

    >>> round(shipped_met().mwc(1, 2), 4)  # Crawford game, 1-away against 2-away
    0.6774
    >>> table = shipped_met("woolsey")
    >>> table.name, table.length, table.mwc(1, 2)
    ('Kit Woolsey', 15, 0.7)
    """
    return MatchEquityTable.from_xml(met_path(name))


@cache
def default_met() -> MatchEquityTable:
    """GNU Backgammon's default table (Kazaross-XG2), read from the installed gnubg package.

    :raises FileNotFoundError: when no installed gnubg ships the table.
    """
    folder = gnubg_met_dir()
    path = folder / "Kazaross-XG2.xml" if folder else None
    if path is None or not path.is_file():
        raise FileNotFoundError(
            "Kazaross-XG2.xml not found: install the 'gnubg' package (pip install bgkit[analysis])"
            " or read a table with MatchEquityTable.from_xml()"
        )
    return MatchEquityTable.from_xml(path)
