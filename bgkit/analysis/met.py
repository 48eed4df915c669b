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

gnubg plays matches up to :data:`MAX_LENGTH` (64) points whatever its table covers: it
extends a shorter table (see :meth:`MatchEquityTable.extended`), and so do the lookups
here, so that bgkit's figures for a 26- to 64-point match are gnubg's own.

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

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bgkit.position import Position

__all__ = [
    "DEFAULT_MET",
    "MAX_LENGTH",
    "MET_NAMES",
    "MatchEquityTable",
    "default_met",
    "gnubg_met_dir",
    "met_name",
    "met_path",
    "shipped_met",
]

#: The longest match GNU Backgammon plays (its ``MAXSCORE``): every table is extended to it.
MAX_LENGTH = 64
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


_MAX_RANGES = 4096
"""The most answers a table's :meth:`MatchEquityTable.cube_range` keeps (the summing up of
a 7-point self-play match asked for 10: its scores, cubes and whose turn)."""

_Rows = tuple[tuple[float, ...], ...]
_Post = tuple[tuple[float, ...], tuple[float, ...]]


@dataclass(frozen=True, slots=True)
class MatchEquityTable:
    """A match equity table: pre-Crawford square table and post-Crawford rows."""

    name: str
    pre: tuple[tuple[float, ...], ...]
    """``pre[i][j]``: MWC of the player needing ``i + 1`` against one needing ``j + 1``."""
    post: tuple[tuple[float, ...], tuple[float, ...]]
    """``post[p][j]``: MWC of player ``p`` needing ``j + 1`` against a 1-away leader
    (post-Crawford)."""
    _full: tuple[_Rows, _Post] = field(init=False, repr=False, compare=False)
    # (the tables extended to MAX_LENGTH, which the lookups read: see extended())
    _ranges: dict[tuple[object, ...], tuple[float, float]] = field(
        init=False, repr=False, compare=False
    )
    # (cube_range's answers by score, length, player, cube and Crawford: an analysis asks
    # for the same few again at each of its rows, some ten times a row; emptied when it
    # holds _MAX_RANGES, so that a worker analysing match after match stays flat)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_full", _extend(self.pre, self.post))
        object.__setattr__(self, "_ranges", {})

    @property
    def length(self) -> int:
        """The longest match the table's own figures cover (points to win); lookups answer
        up to :attr:`max_length` (the table extended as gnubg extends it)."""
        return min(len(self.pre), len(self.post[0]), len(self.post[1]))

    @property
    def max_length(self) -> int:
        """The longest match the lookups answer: gnubg's :data:`MAX_LENGTH`, or the table's
        own length when it is longer."""
        return max(MAX_LENGTH, self.length)

    def extended(self) -> MatchEquityTable:
        """The table as gnubg holds it in memory: extended to :data:`MAX_LENGTH` points.

        As gnubg's ``InitMatchEquity`` (``matchequity.c``): the pre-Crawford table past the
        table's length is David Montgomery's extrapolation (``ExtendMET``), and the
        post-Crawford row from the table's length minus one on is Zadeh's recursion
        (``initPostCrawfordMET``, gammon rate 0.25). A table of :data:`MAX_LENGTH` points
        or more is returned as it is.

        >>> table = shipped_met()
        >>> table.length, table.extended().length, table.max_length
        (25, 64, 64)
        >>> round(table.mwc(26, 1), 6)  # gnubg's figure (it shows 0.0821%)
        0.000821
        """
        if self.length >= MAX_LENGTH:
            return self
        pre, post = self._full
        return MatchEquityTable(self.name, pre, post)

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
        # (gnubg reads the whole pre-Crawford table: a post-Crawford row one shorter, as
        # g11's and mec26's, is all it uses of it, see MatchEquityTable.extended)
        n = len(pre)
        return cls.from_rows(name, [r[:n] for r in pre], [r[:n] for r in post])

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
        pre, post = self._full
        if post_crawford:
            if away == 1 and opp_away > 1:
                return 1.0 - post[0][opp_away - 1]
            if opp_away == 1 and away > 1:
                return post[0][away - 1]
        return pre[away - 1][opp_away - 1]

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
            return self._post_crawford(n0, n1, player)
        return self._pre_crawford(n0, n1, player)

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
            return self._post_crawford(n0, n1, player)
        return self._pre_crawford(n0, n1, player)

    def _pre_crawford(self, n0: int, n1: int, player: int) -> float:
        """MWC of ``player`` when player 0 needs ``n0 + 1`` points and player 1 ``n1 + 1``."""
        mwc = self._full[0][n0][n1]
        return 1.0 - mwc if player else mwc

    def _post_crawford(self, n0: int, n1: int, player: int) -> float:
        """As :meth:`_pre_crawford`, after the Crawford game (``n0`` or ``n1`` is 0)."""
        post = self._full[1]
        if n0 == 0:
            return post[1][n1] if player else 1.0 - post[1][n1]
        return 1.0 - post[0][n0] if player else post[0][n0]

    # ------------------------------------------------------------------ conversions

    def cube_range(self, pos: Position) -> tuple[float, float]:
        """``(W, L)``: MWC of the player on roll winning / losing the cube value.

        Match play only; one EMG is worth ``(W - L) / 2`` MWC.
        """
        key = (pos.score, pos.match_length, pos.turn, pos.cube, pos.crawford)
        found = self._ranges.get(key)
        if found is None:
            score, length, me, cube, crawford = key
            win = self.get_me(score, length, player=me, points=cube, winner=me, crawford=crawford)
            lose = self.get_me(
                score, length, player=me, points=cube, winner=1 - me, crawford=crawford
            )
            if len(self._ranges) >= _MAX_RANGES:
                self._ranges.clear()
            found = self._ranges[key] = (win, lose)
        return found

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
        if away > self.max_length:
            raise ValueError(
                f"the MET {self.name!r} covers matches up to {self.max_length} points"
                f" (extended as gnubg extends it), not {away}"
            )


# GNU Backgammon's extension of a table (matchequity.c, GPL as bgkit): David Montgomery's
# normal approximation for the pre-Crawford table (ExtendMET) and Zadeh's recursion for the
# post-Crawford one (initPostCrawfordMET), as InitMatchEquity applies them to a table read
# from a file.

#: ExtendMET's standard deviation of the points one game moves a player needing n points
#: (index n, 1 to 10; 1.77 past 10).
_GAME_STDDEV = (0.0, 1.24, 1.27, 1.47, 1.50, 1.60, 1.61, 1.66, 1.68, 1.70, 1.72)
#: InitMatchEquity's post-Crawford gammon rate, and its free-drop corrections at 2 and
#: 4 away (initPostCrawfordMET's rFD2 and rFD4).
_POST_GAMMON_RATE, _FREE_DROP_2, _FREE_DROP_4 = 0.25, 0.015, 0.004


def _extend(pre: _Rows, post: _Post) -> tuple[_Rows, _Post]:
    """``pre`` and ``post`` extended to :data:`MAX_LENGTH` points as gnubg extends a table
    of ``len(pre)`` points (unchanged when that is :data:`MAX_LENGTH` or more)."""
    n = len(pre)
    if any(len(row) < n for row in pre):
        raise ValueError(f"a pre-Crawford table of {n} rows needs {n} figures in each")
    if n >= MAX_LENGTH:
        return pre, post
    size = MAX_LENGTH
    table = [[*row[:n], *[0.0] * (size - n)] for row in pre]
    table += [[0.0] * size for _ in range(size - n)]
    for i in range(n, size):  # ExtendMET: the rows past the table, up to the diagonal
        for j in range(i + 1):
            table[i][j] = _extended_mwc(i + 1, j + 1)
    for i in range(size):  # ... and the rest, the opponent's side
        for j in range(n if i < n else i + 1, size):
            table[i][j] = 1.0 - table[j][i]
    # initPostCrawfordMET from n - 1 on: the table's own entry at n-away is not used (a
    # post-Crawford score of an n-point match is n - 1 away at most)
    rows = tuple(_extend_post(row[: n - 1]) for row in post)
    return tuple(tuple(row) for row in table), (rows[0], rows[1])


def _extended_mwc(away: int, opp_away: int) -> float:
    """ExtendMET's MWC of a player needing ``away`` points against ``opp_away`` (not more):
    the chance that the points the player gains on the opponent over
    ``(away + opp_away) / 2`` games, taken as normal (each game's standard deviation per
    player from :data:`_GAME_STDDEV`), exceed ``away - opp_away`` (gnubg's
    NormalDistArea, up to six standard deviations)."""
    sd0 = _GAME_STDDEV[away] if away <= 10 else 1.77
    sd1 = _GAME_STDDEV[opp_away] if opp_away <= 10 else 1.77
    sigma = math.sqrt(sd0 * sd0 + sd1 * sd1) * math.sqrt((away + opp_away) / 2.0)
    lead = away - opp_away
    if 6.0 * sigma <= lead:
        return 0.0
    root2 = math.sqrt(2.0)
    return (math.erf(6.0 / root2) - math.erf(lead / sigma / root2)) / 2.0


def _extend_post(row: Sequence[float]) -> tuple[float, ...]:
    """initPostCrawfordMET: the post-Crawford row past ``row`` (the trailer's MWC needing
    ``i + 1`` points), the trailer doubling at once: a game won is 2 points, a gammon
    (rate 0.25) 4."""
    out = list(row)
    g = _POST_GAMMON_RATE
    for i in range(len(out), MAX_LENGTH):
        after_gammon = out[i - 4] if i >= 4 else 1.0
        after_single = out[i - 2] if i >= 2 else 1.0
        value = g * 0.5 * after_gammon + (1.0 - g) * 0.5 * after_single
        value -= _FREE_DROP_2 if i == 1 else _FREE_DROP_4 if i == 3 else 0.0
        out.append(value)
    return tuple(out)


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
    """The file of a table bgkit ships (a name of :data:`MET_NAMES`, any case): beside
    this module, where pip installs it (``importlib.resources`` found it there at the
    cost of its own import, 10 ms of an analysis's start, issue 31)."""
    return Path(__file__).with_name("met_tables") / f"{met_name(name)}.xml"


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
