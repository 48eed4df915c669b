"""The Lark half of :mod:`bgkit.play`: ``grammars/play.lark`` read into steps.

Kept apart so that ``import bgkit`` (positions, plays, records) does not load Lark;
:meth:`bgkit.play.Play.parse` imports this module on first use.
"""

from __future__ import annotations

from typing import TypeVar

from lark import Token, Transformer, v_args
from lark.visitors import merge_transformers

from bgkit._grammars import build, parse_tree
from bgkit.play import BAR, OFF, Step, _chain, _point_number

__all__ = ["parse_steps", "with_plays"]

T = TypeVar("T")


def parse_steps(text: str, source_name: str | None = None) -> list[Step]:
    """The steps of a play written in standard notation (``Play.parse`` checks the rest).

    :raises NotationError: when the text is not a play.
    """
    tree = parse_tree("play", text, "play", source_name=source_name)
    steps: list[Step] = build(_PlayBuilder(), tree, text, source_name=source_name)
    return steps


def with_plays(transformer: Transformer[Token, T]) -> Transformer[Token, T]:
    """``transformer`` with the rules of ``play.lark`` (``play__*``) built into steps, for
    a grammar that imports it (the position exports' candidate plays)."""
    merged: Transformer[Token, T] = merge_transformers(  # type: ignore[no-untyped-call]
        transformer, play=_PlayBuilder()
    )
    return merged


@v_args(inline=True)
class _PlayBuilder(Transformer[Token, list[Step]]):
    """Builds the list of steps; chains are split into hops, repeats expanded."""

    def point_number(self, tok: Token) -> tuple[int, int]:
        return (_point_number(str(tok), tok.start_pos or 0), tok.start_pos or 0)

    def bar(self, tok: Token) -> tuple[int, int]:
        return (BAR, tok.start_pos or 0)

    def off(self, tok: Token) -> tuple[int, int]:
        return (OFF, tok.start_pos or 0)

    def hop(self, point: tuple[int, int], hit: Token | None) -> tuple[int, int, bool]:
        return (point[0], point[1], hit is not None)

    def repeat(self, tok: Token) -> tuple[str, int]:
        return (str(tok), tok.start_pos or 0)

    def part(self, first: tuple[int, int], *rest: object) -> list[Step]:
        *hops, repeat = rest
        return _chain(first[0], hops, repeat)  # type: ignore[arg-type]

    def play(self, *parts: list[Step]) -> list[Step]:
        return [s for p in parts for s in p]
