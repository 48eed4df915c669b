"""Checker plays: :class:`Step` (one checker, one hop) and :class:`Play` (a whole turn).

Points are numbered from the mover's own side: 24 is the far back point, 1 the ace
point, :data:`BAR` (25) the bar and :data:`OFF` (0) borne off.

A play as *written* in a record may be compact: ``24/14*`` with 64 is one step of
ten pips, ``13/8(2)`` two steps. :meth:`bgkit.Position.resolve` turns such a play
into one step per die, checked against the rules. Plays returned by
:meth:`bgkit.Position.legal_plays` always have one step per die.

>>> Play.parse("24/20*/16 13/8(2)")
Play('24/20* 20/16 13/8 13/8')
>>> str(Play.parse("13/8 13/8 6/1* 1/off"))
'13/8(2) 6/1*/off'
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeAlias

from bgkit.errors import NotationError, OffsetError
from bgkit.limits import check_notation, check_play_steps

__all__ = ["BAR", "OFF", "Play", "Point", "Step", "parse_point", "point_name"]


Point: TypeAlias = int
BAR: Point = 25
OFF: Point = 0


def point_name(point: Point) -> str:
    """``"bar"`` for 25, ``"off"`` for 0, else the number.

    >>> point_name(25), point_name(0), point_name(13)
    ('bar', 'off', '13')
    """
    if point == BAR:
        return "bar"
    if point == OFF:
        return "off"
    return str(point)


def parse_point(text: str) -> Point:
    """The inverse of :func:`point_name` (also accepts ``25`` and ``0``).

    :raises NotationError: for anything that is not a point.
    """
    word = text.strip().lower()
    if word == "bar":
        return BAR
    if word == "off":
        return OFF
    if word.isascii() and word.isdigit() and 0 <= int(word) <= 25:
        return int(word)
    raise NotationError(f"not a point: {text!r} (use 1-24, bar/25 or off/0)", text, 0)


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moving from ``src`` to ``dst`` (mover's numbering).

    ``hit`` is true when the step hits a blot on ``dst``. A step written in a
    record may cover more than one die (``24/14``); engine steps cover one.
    """

    src: Point
    dst: Point
    hit: bool = False

    @property
    def pips(self) -> int:
        """The distance covered (a bear-off counts only the pips to the edge)."""
        return self.src - self.dst

    def __str__(self) -> str:
        return f"{point_name(self.src)}/{point_name(self.dst)}{'*' if self.hit else ''}"

    def __repr__(self) -> str:
        return f"Step({self.src}, {self.dst}{', hit=True' if self.hit else ''})"


@dataclass(frozen=True, slots=True)
class Play:
    """A turn's checker play: the steps in the order they are taken.

    ``Play(())`` is the empty play (a dance, or a record that shows no movement).
    ``Play("13/8 13/11")`` parses notation, like :meth:`parse`.
    ``repr`` spells the steps in their order, one per die, and ``==`` compares them in
    order too: a record's play keeps the order it was written in. The rules engine gives
    its plays in the order ``str`` writes them (:meth:`ordered`).
    """

    steps: tuple[Step, ...] = ()

    def __init__(self, steps: Iterable[Step] | str = ()) -> None:
        if isinstance(steps, str):
            steps = Play.parse(steps).steps
        object.__setattr__(self, "steps", tuple(steps))

    @classmethod
    def parse(cls, text: str, *, source_name: str | None = None) -> Play:
        """Read standard notation: ``13/8 13/11``, ``bar/22*``, ``6/off``, ``8/5(2)``.

        An empty (or all-blank) text is the empty play.

        :raises NotationError: when the text is not a play.
        """
        if not text.strip():
            return cls(())
        check_notation(text, "play")
        from bgkit._play_grammar import parse_steps  # Lark, loaded on first use

        steps = parse_steps(text, source_name)
        check_play_steps(len(steps), text, 0, source_name)
        return cls(steps)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __bool__(self) -> bool:
        return bool(self.steps)

    def __repr__(self) -> str:
        return f"Play({self.spelled()!r})"

    def ordered(self) -> Play:
        """The same steps in the order :func:`str` writes them: from the highest point,
        each checker's hops one after the other. The plays the rules engine gives
        (:meth:`~bgkit.Position.legal_plays`) are in this order; a recorded play keeps
        the order it was written in.

        >>> Play("13/8 24/22").ordered()
        Play('24/22 13/8')
        """
        steps = self.steps
        if len(steps) == 2:  # (most rolls: the order is the sort's; the hot path of hint)
            first, second = steps
            if first.src > second.src or (first.src == second.src and first.dst >= second.dst):
                return self
            ordered: tuple[Step, ...] = (second, first)
        elif len(steps) < 2:
            return self
        else:
            ordered = _in_chain_order(steps)
            if ordered is steps:
                return self
        play = object.__new__(Play)
        object.__setattr__(play, "steps", ordered)
        return play

    def spelled(self) -> str:
        """Every step spelled out in order, nothing joined: ``24/18 18/13 8/5* 6/5``."""
        return " ".join(str(s) for s in self.steps)

    def __str__(self) -> str:
        """Compact standard notation: hops of one checker joined, repeats as ``(n)``."""
        steps = self.steps
        if len(steps) != 2:
            return str(steps[0]) if len(steps) == 1 else format_steps(steps)
        # most plays: two steps, written as format_steps writes them (3x faster so; the
        # rows of an analysis write each play made and each roll's best)
        a, b = steps
        if b.src > a.src or (b.src == a.src and b.dst > a.dst):
            a, b = b, a
        if b.src == a.dst and a.dst != OFF:  # one checker's two hops
            hop = f"/{point_name(a.dst)}*" if a.hit else ""
            return f"{point_name(a.src)}{hop}/{point_name(b.dst)}{'*' if b.hit else ''}"
        first, second = str(a), str(b)
        return f"{first}(2)" if first == second else f"{first} {second}"

    @property
    def pips(self) -> int:
        """Total distance moved by the steps as written."""
        return sum(s.pips for s in self.steps)

    def hits(self) -> frozenset[Point]:
        """The landing points marked as hits."""
        return frozenset(s.dst for s in self.steps if s.hit)


def format_steps(steps: Iterable[Step]) -> str:
    """Format steps the way players write them: ``24/20*/16 13/8(2)``.

    Steps are ordered from the highest source point; one checker's consecutive
    hops are chained, keeping intermediate points only where it hit.
    """
    texts: list[str] = []
    for chain in _chains(steps):
        text = point_name(chain[0].src)
        for i, s in enumerate(chain):
            if s.hit or i == len(chain) - 1:
                text += f"/{point_name(s.dst)}{'*' if s.hit else ''}"
        texts.append(text)
    out: list[str] = []
    for text in texts:
        if out and out[-1].split("(")[0] == text:
            prev = out[-1]
            n = int(prev[prev.index("(") + 1 : -1]) if "(" in prev else 1
            out[-1] = f"{text}({n + 1})"
        else:
            out.append(text)
    return " ".join(out)


def _in_chain_order(steps: tuple[Step, ...]) -> tuple[Step, ...]:
    """``steps`` in :func:`_chains` order (``steps`` itself when they are)."""
    ordered = tuple(s for chain in _chains(steps) for s in chain)
    return steps if ordered == steps else ordered


def _chains(steps: Iterable[Step]) -> list[list[Step]]:
    """The steps in the order players write them: from the highest source point, each
    checker's consecutive hops one after the other (one chain per checker)."""
    remaining = sorted(steps, key=lambda s: (-s.src, -s.dst))
    chains: list[list[Step]] = []
    while remaining:
        chain = [remaining.pop(0)]
        while True:
            last = chain[-1]
            nxt = next((s for s in remaining if s.src == last.dst and last.dst != OFF), None)
            if nxt is None:
                break
            remaining.remove(nxt)
            chain.append(nxt)
        chains.append(chain)
    return chains


class _StepError(OffsetError):
    """A written step that cannot be (a hop away from home, a point past 25), at ``pos``."""


def _point_number(word: str, pos: int) -> Point:
    """The point a number in a play stands for (0-25); ``pos`` locates an error."""
    value = int(word) if len(word) <= 9 else BAR + 1  # (int() refuses > 4300 digits)
    if value > BAR:
        raise _StepError(f"point must be 0-25, bar or off: {word!r}", pos)
    return value


def _chain(
    first: Point,
    hops: Iterable[tuple[Point, int, bool]],
    repeat: tuple[str, int] | None,
    *,
    backwards: bool = False,
) -> list[Step]:
    """The steps of one written part: ``first`` then ``(point, position, hit)`` hops,
    and the repeat count's digits and position (``13/8(2)``) if one is written.

    :param backwards: keep a hop away from home (``6/8``) as written, for a record reader
        that leaves that rule break to the verifier.
    :raises _StepError: for a hop away from home (unless ``backwards``) or a repeat count
        outside 1-4.
    """
    steps: list[Step] = []
    src = first
    for dst, pos, is_hit in hops:
        if dst >= src and not backwards:
            raise _StepError(
                f"a checker moves away from its home: {point_name(src)}/{point_name(dst)}", pos
            )
        steps.append(Step(src, dst, is_hit))
        src = dst
    if repeat is None:
        return steps
    digits, pos = repeat
    if len(digits) > 9 or not 1 <= int(digits) <= 4:
        raise _StepError(f"a repeat count must be 1-4: '({digits})'", pos)
    return steps * int(digits)


# the pieces of a part whose shape a grammar has already checked: points, hit marks, repeat
_PART_PIECE = re.compile(r"[0-9]+|bar|off|\*|\([ \t]*([0-9]+)", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def part_steps(text: str, *, backwards: bool = False) -> tuple[Step, ...]:
    """The steps of one part of a play, ``24/20*/16`` or ``13/8(2)``, already known to be
    well formed (the ``PART`` terminal of ``grammars/mat.lark``); cached, as records
    repeat the same parts over and over.

    :raises _StepError: as :class:`_PlayBuilder` would, with the offset in ``text``.
    """
    first: Point | None = None
    hops: list[tuple[Point, int, bool]] = []
    repeat: tuple[str, int] | None = None
    for piece in _PART_PIECE.finditer(text):
        word = piece[0]
        if word == "*":
            dst, pos, _ = hops[-1]
            hops[-1] = (dst, pos, True)
        elif piece[1] is not None:
            repeat = (piece[1], piece.start(1))
        else:
            lower = word.lower()
            point = (
                BAR
                if lower == "bar"
                else OFF
                if lower == "off"
                else _point_number(word, piece.start())
            )
            if first is None:
                first = point
            else:
                hops.append((point, piece.start(), False))
    assert first is not None and hops  # the terminal has this shape
    return tuple(_chain(first, hops, repeat, backwards=backwards))
