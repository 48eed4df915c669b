"""Legal-play generation and the reasons a play is illegal.

The functions work on one side's 26 counts from the mover's view: ``me[p]`` is
the mover's count on its point p (0 = borne off, 25 = bar) and ``opp[q]`` the
opponent's count on the opponent's own point q. The mover's point p is the
opponent's point ``25 - p``. :class:`bgkit.Position` wraps them.

Speed matters here (the verifier replays every move of an archive), so the
generator keeps the highest occupied point (``far``) as it goes, which makes each
step's legality check O(1), and builds :class:`~bgkit.play.Step` values from a
table instead of constructing them.

>>> from bgkit.position import STANDARD_BOARD
>>> len(generate(STANDARD_BOARD, STANDARD_BOARD, 6, 6))
11
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias, cast

from bgkit.play import BAR, OFF, Play, Step, point_name

__all__ = ["Key", "Side", "explain", "generate", "play_as_written", "realize"]

Side: TypeAlias = tuple[int, ...]
Key: TypeAlias = tuple[Side, Side]
"""A result of a play: (mover's side, opponent's side) afterwards."""


def _play(steps: tuple[Step, ...]) -> Play:
    """``Play(steps)`` for a tuple of steps, without the constructor's checks (hot path)."""
    play = _NEW(Play)
    _SET_STEPS(play, steps)
    return play


_NEW = object.__new__
_SET_STEPS = Play.steps.__set__  # type: ignore[attr-defined,misc]  # (the slot's descriptor)

# every possible step, built once: _STEPS[src][dst][hit]
_STEPS: list[list[tuple[Step, Step]]] = [
    [(Step(src, dst, False), Step(src, dst, True)) for dst in range(26)] for src in range(26)
]


def _far(me: Sequence[int]) -> int:
    """The mover's highest occupied point (25 = bar), 0 when everything is off."""
    for p in range(25, 0, -1):
        if me[p]:
            return p
    return 0


def _dest(opp: Sequence[int], far: int, src: int, die: int) -> int:
    """Where a checker from ``src`` lands with ``die`` (0 = off), or -1 when illegal."""
    if far == BAR and src != BAR:
        return -1
    dst = src - die
    if dst > 0:
        return -1 if opp[25 - dst] >= 2 else dst
    if far > 6 or (dst < 0 and src != far):
        return -1
    return 0


def _move(
    me: list[int], opp: list[int], far: int, src: int, dst: int
) -> tuple[list[int], list[int], int, bool]:
    """Move one checker; return the new sides, the new ``far`` and whether it hit."""
    me2 = me.copy()
    me2[src] -= 1
    me2[dst] += 1
    if src == far and not me2[src]:
        far = src - 1
        while far > 0 and not me2[far]:
            far -= 1
    if dst and opp[25 - dst] == 1:
        opp2 = opp.copy()
        opp2[25 - dst] = 0
        opp2[BAR] += 1
        return me2, opp2, far, True
    return me2, opp, far, False


def can_play(me_t: Side, opp_t: Side, d1: int, d2: int) -> bool:
    """Whether the roll ``d1 d2`` has a legal play (:func:`generate` is not empty): some
    checker can move by one of the dice, without generating the plays."""
    far = _far(me_t)
    sources = (BAR,) if far == BAR else range(far, 0, -1)
    for die in (d1, d2) if d1 != d2 else (d1,):
        for src in sources:
            if me_t[src] and _dest(opp_t, far, src, die) >= 0:
                return True
    return False


def generate(me_t: Side, opp_t: Side, d1: int, d2: int) -> dict[Key, Play]:
    """Every distinct legal play for the roll ``d1 d2``, keyed by its result.

    Empty when no play is possible.
    """
    if me_t[BAR] and opp_t[d1] >= 2 and opp_t[d2] >= 2:
        return {}  # a dance: both entry points (the opponent's d1 and d2 points) are held
    me, opp = list(me_t), list(opp_t)
    far = _far(me)
    if d1 == d2:
        return _doubles(me, opp, far, d1)
    results: dict[Key, Play] = {}
    singles: dict[int, dict[Key, Play]] = {d1: {}, d2: {}}
    for a, b in ((d1, d2), (d2, d1)):
        for s1 in (BAR,) if far == BAR else range(far, 0, -1):
            if not me[s1]:
                continue
            t1 = _dest(opp, far, s1, a)
            if t1 < 0:
                continue
            me1, opp1, far1, h1 = _move(me, opp, far, s1, t1)
            step1 = _STEPS[s1][t1][h1]
            played_two = False
            for s2 in (BAR,) if far1 == BAR else range(far1, 0, -1):
                if not me1[s2]:
                    continue
                t2 = s2 - b  # (_dest inlined: the innermost loop of generation)
                if t2 > 0:
                    if opp1[25 - t2] >= 2:
                        continue
                elif far1 > 6 or (t2 < 0 and s2 != far1):
                    continue
                else:
                    t2 = 0
                played_two = True
                me2 = me1.copy()
                me2[s2] -= 1
                me2[t2] += 1
                if t2 and opp1[25 - t2] == 1:
                    opp2 = opp1.copy()
                    opp2[25 - t2] = 0
                    opp2[BAR] += 1
                    key = (tuple(me2), tuple(opp2))
                    h2 = True
                else:
                    key = (tuple(me2), opp_t if opp1 is opp else tuple(opp1))
                    h2 = False
                if key not in results:
                    results[key] = _play((step1, _STEPS[s2][t2][h2]))
            if not played_two and not results:
                singles[a].setdefault((tuple(me1), tuple(opp1)), _play((step1,)))
    if results:
        return results
    hi, lo = (d1, d2) if d1 > d2 else (d2, d1)
    return singles[hi] or singles[lo]


def _doubles(me: list[int], opp: list[int], far: int, die: int) -> dict[Key, Play]:
    """Doubles: up to four steps with sources never increasing (each result reached once).

    The plays that use the most dice are kept. The search moves checkers on one pair
    of lists and undoes each move on the way back (no copies), and is written out
    inline because doubles dominate generation time.
    """
    best: dict[Key, Play] = {}
    best_depth = 0
    path: list[Step] = []

    def walk(far_: int, top: int, depth: int) -> None:
        nonlocal best, best_depth
        moved = False
        if depth < 4:
            home = far_ <= 6
            for s in (BAR,) if far_ == BAR else range(min(top, far_), 0, -1):
                if not me[s]:
                    continue
                t = s - die
                if t > 0:
                    held = opp[25 - t]
                    if held >= 2:
                        continue
                elif not home or (t < 0 and s != far_):
                    continue
                else:
                    t, held = 0, 0
                me[s] -= 1
                me[t] += 1
                far2 = far_
                if s == far_ and not me[s]:
                    far2 = s - 1
                    while far2 > 0 and not me[far2]:
                        far2 -= 1
                if held == 1:
                    opp[25 - t] = 0
                    opp[BAR] += 1
                    path.append(_STEPS[s][t][1])
                else:
                    path.append(_STEPS[s][t][0])
                moved = True
                walk(far2, s, depth + 1)  # noqa: F821 (deleted after the walk)
                path.pop()
                if held == 1:
                    opp[25 - t] = 1
                    opp[BAR] -= 1
                me[s] += 1
                me[t] -= 1
        if not moved and depth:
            if depth > best_depth:
                best, best_depth = {}, depth
            if depth == best_depth:
                key = (tuple(me), tuple(opp))
                if key not in best:
                    best[key] = _play(tuple(path))

    walk(far, BAR, 0)
    del walk  # (a cycle otherwise: see realize)
    return best


def play_as_written(
    me_t: Side, opp_t: Side, d1: int, d2: int, play: Play, *, every_die: bool = True
) -> tuple[Key, Play] | None:
    """The result of a play that uses every die, one written step per die, in written order.

    This is how nearly every record writes a play, and such a play is legal exactly
    when each step is (every die is used, so no use-more-dice rule can object). A step
    bearing off takes a larger die when its own is not left (``2/off`` with a 4 once the
    2-point is the mover's highest; any larger die gives the same result). Its result is
    also the only one :func:`realize` finds: the mover's layout is fixed by the steps and
    every blot on a landing point is hit whatever the order. ``None`` when the play is not
    written that way (a step spanning two dice, fewer steps than dice, a step that is
    illegal in the written order): the caller then asks :func:`realize` and
    :func:`generate`.

    With ``every_die=False`` a play of fewer steps than dice is played too (it is then
    legal only when no play uses more dice and the higher die rule allows it: the caller
    asks :func:`generate`).
    """
    steps = play.steps
    if len(steps) != (4 if d1 == d2 else 2) and (every_die or len(steps) > (4 if d1 == d2 else 2)):
        return None
    left = [d1, d1, d1, d1] if d1 == d2 else [d1, d2]
    me = list(me_t)  # changed in place (the hot loop of verify)
    opp: Side | list[int] = opp_t  # (copied at the first hit only)
    hops: list[Step] | None = None  # (made at the first step whose hit mark is wrong)
    for k, s in enumerate(steps):
        src, dst = s.src, s.dst
        die = src - dst
        if die not in left:
            if dst != OFF or src == OFF:  # (also a step that does not move: off/off)
                return None
            # a bear-off with a larger die: any larger die left takes it, the same result
            die = min((d for d in left if d > die), default=0)
            if not die:
                return None
        # (_dest inlined, the mover's highest point looked at only where a rule needs it:
        # a checker on the bar, a bear-off)
        if not me[src] or (me[BAR] and src != BAR):
            return None
        if dst:
            held = opp[25 - dst]
            if held >= 2:
                return None
        elif any(me[7:]) or (die > src and any(me[src + 1 : 7])):
            return None  # (a checker outside home; a bear-off with a larger die from below)
        else:
            held = 0
        left.remove(die)
        me[src] -= 1
        me[dst] += 1
        hit = held == 1
        if hit:
            hitting = list(opp_t) if opp is opp_t else cast(list[int], opp)
            hitting[25 - dst] = 0
            hitting[BAR] += 1
            opp = hitting
        if hops is None:
            if s.hit == hit:
                continue  # (written as it hits: the written step is the play's own)
            hops = list(steps[:k])
        hops.append(_STEPS[src][dst][hit])
    return (
        (tuple(me), opp_t if opp is opp_t else tuple(opp)),
        play if hops is None else Play(tuple(hops)),
    )


def realize(me_t: Side, opp_t: Side, d1: int, d2: int, play: Play) -> dict[Key, Play]:
    """The results of playing the written steps literally, one die per hop, in any order.

    A written step that spans several dice may stop on any open intermediate point;
    a checker landing on a blot (at a written point or an intermediate one) hits it.
    Only the rules of single hops apply here, not the use-all-dice rules. Each
    result maps to the hops that reach it (one :class:`Step` per die used).
    """
    dice = [d1] * 4 if d1 == d2 else [d1, d2]
    found: dict[Key, Play] = {}
    hops: list[Step] = []

    def search(me: list[int], opp: list[int], segs: list[tuple[int, int]], left: list[int]) -> None:
        todo = [i for i, (cur, dst) in enumerate(segs) if cur != dst]
        if not todo:
            found.setdefault((tuple(me), tuple(opp)), Play(tuple(hops)))
            return
        far = _far(me)
        for i in todo:
            cur, dst = segs[i]
            if not me[cur]:
                continue
            for die in set(left):
                land = _dest(opp, far, cur, die)
                if land < 0 or (dst != OFF and land < dst):
                    continue
                me2, opp2, _, hit = _move(me, opp, far, cur, land)
                segs2 = segs.copy()
                segs2[i] = (land, dst)
                left2 = left.copy()
                left2.remove(die)
                hops.append(_STEPS[cur][land][hit])
                search(me2, opp2, segs2, left2)  # noqa: F821 (deleted after)
                hops.pop()

    search(list(me_t), list(opp_t), [(s.src, s.dst) for s in play.steps], dice)
    del search  # (a function that calls itself is a cycle: freed now, not by the collector)
    return found


# ---------------------------------------------------------------------- explanations


def explain(me: Side, opp: Side, d1: int, d2: int, play: Play, results: dict[Key, Play]) -> str:
    """A plain reason why the written ``play`` is not among the legal ``results``.

    For example ``"blocked: 13/7 lands on a point held by 3 opposing checkers"``,
    ``"must use both dice: 24/18 18/13 was possible"``, ``"the higher die (6) must be
    played: ..."`` or ``"cannot bear off: a checker is still on the 9-point"``.
    """
    dice = [d1] * 4 if d1 == d2 else [d1, d2]
    roll = f"{d1}{d2}"
    max_used = max(len(p.steps) for p in results.values())
    example = next(iter(results.values())).spelled()
    written = play.spelled()

    sums = {sum(dice[:k]) for k in range(1, len(dice) + 1)} | set(dice)
    for s in play.steps:
        if s.dst != OFF and s.src - s.dst not in sums:
            return f"{s} is not a move of the roll {roll}"
    pips = sum(s.src - s.dst for s in play.steps if s.dst != OFF)
    if pips > sum(dice):
        return f"{written} moves {pips} pips, but {roll} gives only {sum(dice)}"

    reasons: list[tuple[int, str]] = []  # (steps placed before the failure, reason)
    complete: list[int] = []  # dice used by a step-by-step realisation of the play

    def search(
        me_: list[int], opp_: list[int], segs: list[tuple[int, int]], left: list[int], used: int
    ) -> None:
        if complete or len(reasons) > 200:
            return
        todo = [i for i, (cur, dst) in enumerate(segs) if cur != dst]
        if not todo:
            complete.append(used)
            return
        if not left:
            reasons.append((used, f"{written} moves more than {roll} allows"))
            return
        for i in todo:
            cur, dst = segs[i]
            for die in sorted(set(left), reverse=True):
                tgt = cur - die
                if dst != OFF and tgt < dst:
                    continue  # overshoots this part's destination
                reason = _step_reason(me_, opp_, cur, die, tgt, dst)
                if reason:
                    reasons.append((used, reason))
                    continue
                land = max(tgt, 0)
                me2, opp2, _, _ = _move(me_, opp_, _far(me_), cur, land)
                segs2 = segs.copy()
                segs2[i] = (land, dst)
                left2 = left.copy()
                left2.remove(die)
                search(me2, opp2, segs2, left2, used + 1)  # noqa: F821 (deleted after)

    search(list(me), list(opp), [(s.src, s.dst) for s in play.steps], dice, 0)
    del search  # (a cycle otherwise: see realize)
    if complete:
        if complete[0] < max_used:
            if d1 == d2:
                many = {1: "one", 2: "two", 3: "three"}.get(max_used, "all four")
                return f"must play {many} {d1}s: {example} was possible"
            return f"must use both dice: {example} was possible"
        return f"the higher die ({max(d1, d2)}) must be played: {example} was possible"
    if reasons:
        # the reason met after the most hops that did work; a rule over a pip count
        deepest = max(r[0] for r in reasons)
        last = [r[1] for r in reasons if r[0] == deepest]
        by_rule = [r for r in last if "more than" not in r]
        return (by_rule or last)[0]
    return f"it does not fit the roll {roll}"  # pragma: no cover - defensive


def _step_reason(
    me: list[int], opp: list[int], src: int, die: int, tgt: int, dst: int
) -> str | None:
    """Why moving a checker from ``src`` by ``die`` (to ``tgt``) is illegal, or ``None``.

    ``dst`` is where the written part ends, to name the part as the record writes it.
    """
    shown = f"{point_name(src)}/{point_name(max(tgt, 0))}"
    part = f"{point_name(src)}/{point_name(dst)}"
    if me[src] <= 0:
        return f"{part}: no checker on the {'bar' if src == BAR else f'{src}-point'}"
    if me[BAR] and src != BAR:
        return f"a checker on the bar must enter first: {part} is not allowed"
    if tgt > 0:
        held = opp[25 - tgt]
        if held >= 2:
            return f"blocked: {shown} lands on a point held by {held} opposing checkers"
        return None
    outside = next((p for p in range(25, 6, -1) if me[p]), None)
    if outside is not None:
        spot = "the bar" if outside == BAR else f"the {outside}-point"
        return f"cannot bear off: a checker is still on {spot}"
    if tgt < 0:
        higher = next((p for p in range(6, src, -1) if me[p]), None)
        if higher is not None:
            return (
                f"cannot bear off {shown} with a {die}: a checker stands on the "
                f"higher {higher}-point"
            )
    return None
