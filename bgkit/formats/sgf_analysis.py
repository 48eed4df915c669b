"""A program's analysis of a match as SGF properties on its actions, and back.

One model for analysis from any source: XG's, read from an ``.xg`` file, and GNU
Backgammon's, read from its SGF, both become :class:`~bgkit.formats.annotations.ActionAnalysis`
through :func:`analysis_of`, and both travel in the actions'
:attr:`~bgkit.records.Move.annotations`, so every conversion that keeps annotations (SGF,
JSON) keeps the analysis.

:func:`annotate` writes an analysis into an action's annotations twice:

- as **GNU Backgammon's properties** (``specs/sgf-backgammon.md`` section 7), so that gnubg
  shows it when it loads the SGF: ``A`` (the candidate plays with their chances and
  equities, and which was played), ``DA`` (the cube decision: "no double" and "double,
  take", with the cubeful values as match winning chances in match play, as gnubg writes
  them), ``LU`` (the luck of the roll); numbers with gnubg's six decimals;
- as **bgkit's own property** :data:`PROPERTY` (``BK``), one JSON value with every figure
  exactly as the source wrote it and what gnubg's properties have no room for (the
  evaluation level by name, such as ``"XG Roller++"``; the program's own errors of the
  play and the cube actions; "double, pass"). GNU Backgammon ignores properties it does
  not know, but reads property names of two letters at most (a longer one ending in
  ``A`` would overwrite its ``A``): hence the short name.

:func:`analysis_of` reads ``BK`` when it is there, else gnubg's ``A``, ``DA`` and ``LU``.
gnubg writes its candidate plays one step per die and no hits (``6/4 4/3`` for
``6/4*/3``), and in match play its cube values as match winning chances: given the
position before the action (``analysis_of(action, position)``, as
:func:`bgkit.replay.replay` gives it), the reader marks the hits of every candidate and
turns the cube values into EMG as gnubg's ``FindCubeDecision`` does (``mwc2eq``, with the
score, cube and match equity table: gnubg's default, Kazaross-XG2), so that every figure
is gnubg's own in the unit the model names. Without the position the candidates carry no
hit marks and match-play cube values stay as gnubg wrote them. A roll without a legal play
(gnubg writes no ``A`` for it) keeps its luck: a :class:`CheckerAnalysis` with no
candidates. Numbers that are not finite (gnubg 1.08 writes ``LU[-inf]`` when it did not
analyse the luck) count as not analysed.

>>> from bgkit.formats.annotations import CandidatePlay, CheckerAnalysis, Probabilities
>>> from bgkit.play import Play
>>> from bgkit.records import Move
>>> best = CandidatePlay(Play("8/5 6/5"), 0.2504, Probabilities(0.55, 0.17, 0.01, 0.12, 0.005),
...                      level="3-ply")
>>> note = ActionAnalysis(checker=CheckerAnalysis((best,), played=0, luck=0.25))
>>> move = annotate(Move(0, (3, 1), Play("8/5 6/5")), note)
>>> [key for key, _ in move.annotations]
['A', 'LU', 'BK']
>>> move.annotations[0][1][1]
'hefe E ver 3 0.550000 0.170000 0.010000 0.120000 0.005000 0.250400 2C 0 1 0.000000 1'
>>> analysis_of(move) == note
True
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import fields, replace
from typing import Any, TypeVar

from bgkit.analysis.met import MatchEquityTable, shipped_met
from bgkit.formats._analysis_faults import BK, annotation_fault, readable_candidates
from bgkit.formats.annotations import (
    ActionAnalysis,
    CandidatePlay,
    CheckerAnalysis,
    CubeAnalysis,
    Probabilities,
    Rollout,
)
from bgkit.formats.sgf import _POINT_OF, _letter
from bgkit.limits import json_loads
from bgkit.movegen import _STEPS, _play
from bgkit.play import OFF, Play, Step
from bgkit.position import Position
from bgkit.records import Action, Beaver, Double, Game, Match, Move, Raccoon, Take

__all__ = [
    "PROPERTY",
    "CubeContext",
    "analysis_fault",
    "analysis_of",
    "annotate",
    "annotate_match",
    "game_luck",
]

PROPERTY = BK
"""bgkit's SGF property for an analysis, exactly as read (one JSON value)."""

ActionT = TypeVar("ActionT", bound=Action)


class CubeContext:
    """What turns an equity into gnubg's match winning chance for ``DA``: the match
    length, the score, the cube, the player on roll, the Crawford flag and the match
    equity table of the analysis (``None``: gnubg's default).

    ``to_mwc`` is the identity in money play (gnubg writes equities there).
    """

    def __init__(
        self,
        length: int,
        score: tuple[int, int],
        cube: int,
        player: int,
        crawford: bool,
        met: MatchEquityTable | None = None,
    ) -> None:
        self.length, self.score, self.cube = length, score, cube
        self.player, self.crawford = player, crawford
        self.met = met or shipped_met()

    def to_mwc(self, equity: float) -> float:
        if not self.length:
            return equity
        met = self.met
        win, lose = (
            met.get_me(
                self.score,
                self.length,
                player=self.player,
                points=self.cube,
                winner=winner,
                crawford=self.crawford,
            )
            for winner in (self.player, 1 - self.player)
        )
        return 0.5 * ((win - lose) * equity + (win + lose))


def annotate(action: ActionT, note: ActionAnalysis, context: CubeContext | None = None) -> ActionT:
    """``action`` with ``note`` added to its annotations (see the module docstring).

    gnubg's ``A`` and ``LU`` go on moves; ``DA`` on moves (the decision before the roll)
    and doubles, and only with a ``context`` (the score and cube that turn equities into
    gnubg's figures). ``note.comment`` is not written here: the
    readers keep comments as ``C``.
    """
    props: list[tuple[str, tuple[str, ...]]] = []
    cube = note.cube
    if cube is not None and isinstance(action, (Move, Double)):
        da = _da(cube, context)
        if da is not None:
            props.append(("DA", (da,)))
    checker = note.checker
    if checker is not None and isinstance(action, Move) and checker.candidates:
        props.append(("A", _a(checker, action.player)))
        if checker.luck is not None:
            props.append(("LU", (f"{checker.luck:.5f}",)))
    data = _to_json(replace(note, comment=None))
    if data:
        props.append((PROPERTY, (json.dumps(data, separators=(",", ":")),)))
    if not props:
        return action
    return replace(action, annotations=(*action.annotations, *props))


def annotate_match(
    match: Match,
    analysis: Sequence[Sequence[ActionAnalysis | None]],
    met: MatchEquityTable | None = None,
) -> Match:
    """``match`` with ``analysis[g][a]`` in the annotations of ``games[g].actions[a]``
    (:func:`annotate`, with the score and cube of each action as its context, and the
    analysis's match equity table ``met``: gnubg's default when ``None``)."""
    crawford = match.crawford_game()
    games = []
    for index, (game, notes) in enumerate(zip(match.games, analysis, strict=True)):
        cube = 1
        if game.setup is not None:
            with suppress(ValueError):  # (the verifier says what is wrong with the setup)
                cube = match.initial_position(index).cube
        actions = []
        for action, note in zip(game.actions, notes, strict=True):
            if note is not None:
                context = CubeContext(
                    match.length, game.score, cube, action.player, crawford == index, met
                )
                action = annotate(action, note, context)
            actions.append(action)
            if isinstance(action, (Take, Beaver, Raccoon)):
                cube = max(
                    (a.value for a in actions if isinstance(a, (Double, Beaver, Raccoon))),
                    default=cube,
                )
        games.append(replace(game, actions=tuple(actions)))
    return replace(match, games=tuple(games))


def analysis_of(
    action: Action,
    position: Position | None = None,
    *,
    candidates: int | None = None,
    met: MatchEquityTable | None = None,
) -> ActionAnalysis | None:
    """The analysis kept in ``action``'s annotations (bgkit's, else gnubg's), or ``None``.

    ``position`` is the position before the action (for a take or a drop: the double
    pending), as :func:`bgkit.replay.replay` gives it: with it gnubg's candidate plays get
    their hits and its match-play cube values become EMG (see the module docstring) by
    the table ``met`` gnubg analysed with (``None``: gnubg's default; an SGF does not
    say which).
    The comment (``C``) comes with it. A ``BK`` value that is not bgkit's (a file edited
    by hand) is passed over for gnubg's properties; gnubg's that do not parse count as
    no analysis. ``candidates``: how many of gnubg's best plays to read, with every one
    up to the play made (``None``: all its ``A`` holds; reading them is most of
    the cost of this function).
    """
    props: dict[str, tuple[str, ...]] = {}
    for key, values in action.annotations:
        props.setdefault(key, values)
    comment = props["C"][0] if props.get("C") else None
    if props.get(PROPERTY):
        try:
            return _from_json(json_loads(props[PROPERTY][0]), comment)
        except (ValueError, KeyError, TypeError, AttributeError):
            pass
    cube = _from_da(props["DA"][0], position, met) if props.get("DA") else None
    checker = None
    if isinstance(action, Move) and (props.get("A") or props.get("LU")):
        checker = _from_a(props.get("A", ()), action.player, props.get("LU"), position, candidates)
    if cube is None and checker is None and comment is None:
        return None
    return ActionAnalysis(cube=cube, checker=checker, comment=comment)


def analysis_fault(action: Action) -> str | None:
    """Why part of the analysis kept in ``action``'s annotations cannot be read (a value
    damaged: a file cut short, corrupted or edited by hand), or ``None`` when it all reads
    or there is none. :func:`analysis_of` passes such a part over; a form it does not read
    (gnubg's rollouts of the candidate plays) is no fault.

    >>> from bgkit.records import Move
    >>> move = Move(0, (3, 1), Play("8/5 6/5"), annotations=(("LU", ("0.2x",)),))
    >>> analysis_fault(move)
    "gnubg's luck of the roll LU[0.2x] is not a number"
    """
    fault = annotation_fault(action.annotations, isinstance(action, Move))
    return None if fault is None else fault[1]


def bk_reads(value: str) -> bool:
    """Whether ``value`` reads as bgkit's analysis property :data:`PROPERTY`."""
    try:
        _from_json(json_loads(value), None)
    except (ValueError, KeyError, TypeError, AttributeError):
        return False
    return True


# ---------------------------------------------------------------------- gnubg's properties


def _plies(level: str | None) -> int:
    """gnubg's depth for a level name: XG's "N-ply" is gnubg's N-1; rollers count as 3."""
    if level and level.endswith("-ply") and level[:-4].isascii() and level[:-4].isdigit():
        return max(int(level[:-4]) - 1, 0)
    if level and level.startswith("Cubeful ") and level[8:-4].isascii() and level[8:-4].isdigit():
        return int(level[8:-4])
    return 3 if level else 0


@functools.lru_cache(maxsize=64)
def _level(word: str) -> str:
    """gnubg's depth word of an evaluation (``2C``: 2-ply, cubeful) as a level name."""
    return f"{'Cubeful ' if word.endswith('C') else ''}{word.rstrip('C')}-ply"


#: The level names of gnubg's depth words up to 7 plies, cubeful or not, made once
#: (each evaluated candidate play names one).
_LEVELS = {w: _level(w) for w in (f"{n}{c}" for n in range(8) for c in ("", "C"))}

#: gnubg's words after a candidate's play in ``A`` when it was evaluated (not rolled out).
_EVALUATED = ["E", "ver", "3"]


def _chances(p: Probabilities | None) -> str:
    values = (0.0,) * 5 if p is None else p.values()
    return " ".join(f"{x:.6f}" for x in values)


def _a(checker: CheckerAnalysis, player: int) -> tuple[str, ...]:
    """``A[i][<move> <eval>]...``: gnubg needs the index of the play made; when the play
    made is not among the candidates, the first is named (bgkit's property says none)."""
    values = [str(checker.played if checker.played is not None else 0)]
    for c in checker.candidates:
        letters = "".join(_letter(s.src, player) + _letter(s.dst, player) for s in c.play.steps)
        values.append(
            f"{letters} E ver 3 {_chances(c.probabilities)} {c.equity:.6f}"
            f" {_plies(c.level)}C 0 1 0.000000 1"
        )
    return tuple(values)


def _da(cube: CubeAnalysis, context: CubeContext | None) -> str | None:
    nd, dt = cube.no_double, cube.double_take
    if nd is None or dt is None or context is None:
        return None
    if context.length > context.met.max_length:
        return None  # (no gnubg figure: gnubg plays 64 points at most; BK keeps the analysis)
    to_mwc = context.to_mwc
    head = f"{_chances(cube.probabilities)} {cube.cubeless_equity or 0.0:.6f}"
    return (
        f"E ver 3 {_plies(cube.level)}C 1 0.000000 1"
        f" {head} {to_mwc(nd):.6f} {head} {to_mwc(dt):.6f}"
    )


def _from_a(
    values: tuple[str, ...],
    player: int,
    luck: tuple[str, ...] | None,
    position: Position | None = None,
    keep: int | None = None,
) -> CheckerAnalysis | None:
    """gnubg's ``A`` (none for a roll without a legal play) and ``LU``; of ``A``, the
    ``keep`` best plays and every one up to the play made, when all of them read."""
    try:
        luck_value = _finite(luck[0]) if luck else None
    except ValueError:
        luck_value = None
    if not values:
        return None if luck_value is None else CheckerAnalysis((), luck=luck_value)
    candidates = []
    opponent = None if position is None else position.board[1 - player]
    point_of = _POINT_OF[player].get
    isfinite = math.isfinite
    texts = values[1:]
    try:
        played = int(values[0])
        if keep is not None and played < len(texts) and readable_candidates(texts):
            texts = texts[: max(keep, played + 1)]  # (the others read: they change nothing)
        for text in texts:
            words = text.split()
            if len(words) < 11 or words[1:4] != _EVALUATED:
                return None  # (a rollout, "X ver 3 ...", is not read here)
            letters = words[0][:8]  # (gnubg reads four steps at most)
            steps = []
            hit = 0  # (the points hit so far: a blot is hit once, by the first step there)
            for i in range(0, len(letters) - 1, 2):
                src, dst = point_of(letters[i], OFF), point_of(letters[i + 1], OFF)
                hits = (
                    opponent is not None
                    and 1 <= dst <= 24
                    and opponent[25 - dst] == 1
                    and not hit >> dst & 1
                )
                if hits:
                    hit |= 1 << dst
                steps.append(_STEPS[src][dst][hits])  # (the engine's Step of each move)
            chances = [float(w) or 0.0 for w in words[4:10]]  # (-0.0 read as 0.0)
            if not all(map(isfinite, chances)):
                return None
            level = _LEVELS.get(words[10]) or _level(words[10])
            candidates.append(
                CandidatePlay(_play(tuple(steps)), chances[5], Probabilities(*chances[:5]), level)
            )
    except (ValueError, IndexError):
        return None
    if not 0 <= played < len(candidates):
        return None
    return CheckerAnalysis(tuple(candidates), played=played, luck=luck_value)


def game_luck(game: Game) -> tuple[tuple[float, float, int], tuple[float, float, int]] | None:
    """The luck of each player in ``game`` as gnubg's statistics of it (``GS``'s ``D:``
    part, which gnubg writes into the game's root node when it saves an SGF) sum it:
    ``(EMG, MWC, rolls)`` for players 0 and 1, ``None`` when the game has no such part,
    a damaged one, or a luck gnubg did not know (not finite).

    gnubg sums each roll's luck as it computed it and writes the sums with six decimals;
    a roll's own luck (``LU``) it writes with five, so that a sum of those can stand up to
    1e-4 EMG off gnubg's over a long game. The rolls are those of each player whose luck
    it counted (its five luck marks: very unlucky to very lucky).

    >>> from bgkit.records import Game
    >>> part = "D:0 0 2 1 31 32 3 2 0 0 1.119220 0.247509 0.366514 -0.001835"
    >>> game_luck(Game(1, (0, 0), (), None, annotations=(("GS", ("M:0", "C:0", part)),)))
    ((1.11922, 0.247509, 36), (0.366514, -0.001835, 35))
    """
    for key, values in game.annotations:
        if key != "GS":
            continue
        for value in values:
            if not value.startswith("D:"):
                continue
            words = value[2:].split()
            try:
                counts = [int(w) for w in words[:10]]
                sums = [float(w) for w in words[10:14]]
            except ValueError:
                return None
            if len(counts) != 10 or len(sums) != 4 or not all(map(math.isfinite, sums)):
                return None
            rolls = (sum(counts[0::2]), sum(counts[1::2]))
            return ((sums[0], sums[1], rolls[0]), (sums[2], sums[3], rolls[1]))
    return None


def _finite(word: str) -> float | None:
    """A number gnubg wrote, ``None`` for ``inf``/``nan`` (not analysed)."""
    value = float(word)
    return value if math.isfinite(value) else None


def _from_da(
    text: str, position: Position | None = None, met: MatchEquityTable | None = None
) -> CubeAnalysis | None:
    """gnubg's ``DA``: no double and double/take, as EMG with the position before the
    decision (from MWC in match play, by ``met``, else gnubg's default table; double/pass
    is then 1 EMG), else as written."""
    words = text.split()
    if len(words) < 21 or words[:3] != ["E", "ver", "3"]:
        return None
    try:
        out = [_finite(w) for w in words[7:21]]
    except ValueError:
        return None
    if any(x is None for x in out):
        return None
    values = [float(x or 0.0) for x in out]
    nd, dt = values[6], values[13]
    dp = None
    if position is not None:
        dp = 1.0  # (gnubg's double/pass: the cube value won, 1 EMG)
        if position.match_length:
            at = position if not position.doubled else replace(position, doubled=False)
            try:
                table = met or shipped_met()
                nd, dt = table.mwc_to_emg(nd, at), table.mwc_to_emg(dt, at)
            except (ValueError, ZeroDivisionError):  # (a score the table does not cover)
                return None
    return CubeAnalysis(
        no_double=nd,
        double_take=dt,
        double_pass=dp,
        probabilities=Probabilities(*values[:5]),
        cubeless_equity=values[5],
        level=_level(words[3]),
    )


# ---------------------------------------------------------------------- bgkit's property


def _to_json(note: ActionAnalysis) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if note.cube is not None:
        c = note.cube
        out["cube"] = _drop_none(
            {
                "no_double": c.no_double,
                "double_take": c.double_take,
                "double_pass": c.double_pass,
                "probabilities": _probability_list(c.probabilities),
                "cubeless_equity": c.cubeless_equity,
                "level": c.level,
                "verdict": c.verdict,
                "error_double": c.error_double,
                "error_take": c.error_take,
                "rollout": _rollout_to_json(c.rollout),
                "double_rollout": _rollout_to_json(c.double_rollout),
            }
        )
    if note.checker is not None:
        k = note.checker
        out["checker"] = _drop_none(
            {
                "candidates": [
                    _drop_none(
                        {
                            "steps": [[s.src, s.dst, int(s.hit)] for s in c.play.steps],
                            "equity": c.equity,
                            "probabilities": _probability_list(c.probabilities),
                            "level": c.level,
                            "match_winning_chance": c.match_winning_chance,
                            "rollout": _rollout_to_json(c.rollout),
                        }
                    )
                    for c in k.candidates
                ],
                "played": k.played,
                "error": k.error,
                "luck": k.luck,
            }
        )
    return out


def _from_json(data: dict[str, Any], comment: str | None) -> ActionAnalysis:
    if not isinstance(data, dict) or not data.keys() & {"cube", "checker"}:
        raise TypeError("not bgkit's analysis")
    cube = checker = None
    if "cube" in data:
        c = data["cube"]
        cube = CubeAnalysis(
            no_double=c.get("no_double"),
            double_take=c.get("double_take"),
            double_pass=c.get("double_pass"),
            probabilities=_probabilities(c.get("probabilities")),
            cubeless_equity=c.get("cubeless_equity"),
            level=c.get("level"),
            verdict=c.get("verdict"),
            error_double=c.get("error_double"),
            error_take=c.get("error_take"),
            rollout=_rollout_from_json(c.get("rollout")),
            double_rollout=_rollout_from_json(c.get("double_rollout")),
        )
    if "checker" in data:
        k = data["checker"]
        checker = CheckerAnalysis(
            tuple(
                CandidatePlay(
                    Play(tuple(Step(s, d, bool(h)) for s, d, h in c["steps"])),
                    c["equity"],
                    _probabilities(c.get("probabilities")),
                    level=c.get("level"),
                    match_winning_chance=c.get("match_winning_chance"),
                    rollout=_rollout_from_json(c.get("rollout")),
                )
                for c in k["candidates"]
            ),
            played=k.get("played"),
            error=k.get("error"),
            luck=k.get("luck"),
        )
    return ActionAnalysis(cube=cube, checker=checker, comment=comment)


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _probability_list(p: Probabilities | None) -> list[float] | None:
    return None if p is None else list(p.values())


def _probabilities(values: list[float] | None) -> Probabilities | None:
    return None if values is None else Probabilities(*values)


def _rollout_to_json(r: Rollout | None) -> dict[str, Any] | None:
    """A rollout's settings and confidence, every field that is set."""
    if r is None:
        return None
    return _drop_none({f.name: getattr(r, f.name) for f in fields(Rollout)})


def _rollout_from_json(data: dict[str, Any] | None) -> Rollout | None:
    if data is None:
        return None
    return Rollout(**{f.name: data[f.name] for f in fields(Rollout) if f.name in data})
