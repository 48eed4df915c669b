"""Which part of a program's analysis kept beside an action cannot be read.

:func:`bgkit.formats.sgf_analysis.analysis_fault` asks of an action's annotations; the SGF
reader asks of a node's properties as it reads them, to place the fault at the damaged
property's line and column (:attr:`bgkit.records.Match.read_errors`, not part of the record:
the verifier's ``unreadable-analysis`` note).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterable, Iterator
from contextvars import ContextVar

BK = "BK"
"""bgkit's SGF property for an analysis (:data:`bgkit.formats.sgf_analysis.PROPERTY`)."""

KEYS = frozenset({"A", "DA", "LU", BK})
"""The properties an analysis is read from."""

# gnubg's own forms of an evaluated candidate play and cube decision, numbers with their
# decimals: a value that fits reads (most values; the checks below say why one does not)
_CANDIDATES = re.compile(r"(?:\S+ E ver 3(?: -?[0-9]+\.[0-9]+){6} \S[^\n]*(?:\n|\Z))++")
_DA = re.compile(r"E ver 3(?: \S+){4}(?: -?[0-9]+\.[0-9]+){14}(?: |\Z)")


def annotation_fault(
    annotations: Iterable[tuple[str, tuple[str, ...]]], move: bool
) -> tuple[str, str] | None:
    """``(key, why)``: the property of ``annotations`` (an action's, a move's when ``move``)
    whose analysis value cannot be read and why, or ``None`` when it all reads or there is
    none. The first of each key counts, as :func:`~bgkit.formats.sgf_analysis.analysis_of`
    reads them; a form it does not read (gnubg's rollouts) is no fault."""
    props: dict[str, tuple[str, ...]] = {}
    for key, values in annotations:
        props.setdefault(key, values)
    if props.get(BK):
        from bgkit.formats.sgf_analysis import bk_reads

        if bk_reads(props[BK][0]):
            return None
        return BK, f"bgkit's analysis {BK}[...] cannot be read"
    fault = _da_fault(props["DA"][0]) if props.get("DA") else None
    if fault is not None:
        return "DA", fault
    if move:
        for luck in props.get("LU", ())[:1]:
            if not _is_number(luck):
                return "LU", f"gnubg's luck of the roll LU[{_cut(luck)}] is not a number"
        fault = _a_fault(props.get("A", ()))
        if fault is not None:
            return "A", fault
    return None


def _da_fault(text: str) -> str | None:
    if _DA.match(text):
        return None
    words = text.split()
    if words[:1] != ["E"]:
        return None  # (a rollout, "X ...", is not read)
    if len(words) < 21 or words[:3] != ["E", "ver", "3"]:
        return f"gnubg's cube analysis DA[{_cut(text)}] is cut short"
    bad = next((w for w in words[7:21] if not _is_number(w)), None)
    if bad is not None:
        return f"gnubg's cube analysis DA[{_cut(text)}] holds {bad!r}, not a number"
    return None


def _a_fault(values: tuple[str, ...]) -> str | None:
    if not values:
        return None
    index = values[0].strip()
    if not (index.isascii() and index.isdigit()):  # ("²" is a digit to str.isdigit)
        return f"gnubg's candidate plays A[{_cut(values[0])}]: the play made is not a number"
    if readable_candidates(values[1:]):
        if int(values[0]) < len(values) - 1:
            return None
        return f"gnubg's candidate plays A[{values[0]}]: the play made is not among them"
    for text in values[1:]:
        words = text.split()
        if len(words) > 1 and words[1] != "E":
            return None  # (a rollout, "X ver 3 ...", is not read)
    for text in values[1:]:
        words = text.split()
        if len(words) < 11 or words[1:4] != ["E", "ver", "3"]:
            return f"gnubg's candidate play A[{_cut(text)}] is cut short"
        bad = next((w for w in words[4:10] if not _is_number(w)), None)
        if bad is not None:
            return f"gnubg's candidate play A[{_cut(text)}] holds {bad!r}, not a number"
    if int(values[0]) >= len(values) - 1:
        return f"gnubg's candidate plays A[{values[0]}]: the play made is not among them"
    return None


def readable_candidates(texts: tuple[str, ...]) -> bool:
    """Whether each of ``texts`` (gnubg's candidate plays, ``A``'s values after the first)
    is an evaluated play in gnubg's own form, its numbers with their decimals: what
    :func:`~bgkit.formats.sgf_analysis.analysis_of` reads without fail. Within
    :func:`remembered`, each list is checked once."""
    verdicts = _VERDICTS.get()
    if verdicts is None:
        return _CANDIDATES.fullmatch("\n".join(texts)) is not None
    verdict = verdicts.get(texts)
    if verdict is None:
        verdict = verdicts[texts] = _CANDIDATES.fullmatch("\n".join(texts)) is not None
    return verdict


_VERDICTS: ContextVar[dict[tuple[str, ...], bool] | None] = ContextVar("_VERDICTS", default=None)


@contextlib.contextmanager
def remembered() -> Iterator[None]:
    """Within it, :func:`readable_candidates` checks each list of candidates once: the
    reader checks a roll's list as it reads it, :func:`~bgkit.formats.sgf_analysis.analysis_of`
    before it keeps the best of them, the analysis's summing up for its damaged parts
    (14 µs each time for a roll's 22 candidates, two kilobytes; the three were 11% of
    a season's reading of gnubg's SGF). The lists are forgotten at its end."""
    if _VERDICTS.get() is not None:
        yield
        return
    token = _VERDICTS.set({})
    try:
        yield
    finally:
        _VERDICTS.reset(token)


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _cut(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:24]}..."
