"""The replay verifier: every recorded action checked against the rules.

:func:`verify` replays each game of a :class:`~bgkit.records.Match` from the
starting position with the rules engine (:class:`~bgkit.position.Position`) and
collects an :class:`Issue` for every problem: illegal plays (with the reason),
dances recorded while a play existed, wrong hit marks, turns out of order,
opening doubles, cube actions the rules forbid, wrong cube values, results that
do not follow from the final position and cube, header scores that do not add
up, games after the match was won.

Nothing is repaired, and every fault is found: after an illegal play (or a dance
recorded while a play existed) the game goes on from the position the record
describes, the written steps made as written, so each later fault is reported once
and none follows from the first. Where a legal play near the illegal one (one that
moves checkers only from and to the points it names: ``8/4 6/4`` for ``8/4 4/6``; or
one with a single point written wrong: ``8/4 6/4`` for ``8/4 6/3``) leaves another
position, the game is followed in that reading too: a later action that breaks a rule
only in the as-written position is no fault of its own (a ``FOLLOWS_FAULT`` note names
the earlier play and its place), the readings the record rules out are dropped, and a
fault in every reading is an error. A play that cannot be made even as written goes on
in its legal readings. A roll recorded with no move while a play existed is one error
naming the plays there were, likeliest first (those the record's next rolls can be played
after); the game goes on from the record's position (no checker moved), and in the legal
plays the record goes on from further than from it (a play lost from the record), as
after an illegal play. Where the record describes no position to go on from (such a
play with no legal play near it, a roll out of turn, a cube action the rules forbid, an
unknown play ``???``, a line the reader could not read: see
:attr:`bgkit.records.Match.read_errors`) the rest of that game is not replayed (one
``UNVERIFIED`` note says which actions were skipped) and the next game is checked
from its own start.

>>> from bgkit.formats.mat import read_mat
>>> report = verify(read_mat("data/fixtures/handwritten_3pt_illegal2.mat"))
>>> report.ok
False
>>> print(report.issues[0].message)
illegal play 24/21 for 21: blocked: 22/21 lands on a point held by 3 opposing checkers
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Generic, TypeVar

from bgkit._gc import without_gc
from bgkit.errors import (
    AmbiguousPlayError,
    BgkitError,
    IllegalActionError,
    IllegalPlayError,
    place,
)
from bgkit.limits import active
from bgkit.movegen import Key, can_play, play_as_written
from bgkit.play import BAR, OFF, Play
from bgkit.position import GameState, Position, ResultKind
from bgkit.records import (
    Action,
    Beaver,
    Double,
    Drop,
    Game,
    GameStream,
    Match,
    Move,
    Raccoon,
    ReadError,
    Result,
    Take,
)
from bgkit.replay import move_number, unread_lines

_T = TypeVar("_T")

__all__ = ["Issue", "IssueKind", "Report", "Severity", "verify"]


class Severity(enum.Enum):
    """``ERROR``: the record breaks a rule. ``NOTE``: a fact worth knowing (a resignation,
    a forfeit, a writer's convention, something that could not be checked)."""

    ERROR = "error"
    NOTE = "note"


class IssueKind(enum.Enum):
    """What kind of problem an :class:`Issue` reports."""

    ILLEGAL_PLAY = "illegal-play"
    """The play is not legal for the position and dice."""
    AMBIGUOUS_PLAY = "ambiguous-play"
    """Compact notation fits several legal plays with different results."""
    ILLEGAL_DANCE = "illegal-dance"
    """No movement was recorded although a legal play existed."""
    HIT_MARK = "hit-mark"
    """The ``*`` marks disagree with what the play hits."""
    WRITTEN_PATH = "written-path"
    """The play's result is legal, but not by the stops written (one is on a made point)."""
    OPENING_DOUBLE = "opening-double"
    """The opening roll is a double (each player rolls one die: never equal)."""
    TURN_ORDER = "turn-order"
    """An action by the wrong player (two rolls in a row, an answer to no double...)."""
    CUBE_ACTION = "cube-action"
    """A double, take, drop, beaver or raccoon that the rules forbid here."""
    CUBE_VALUE = "cube-value"
    """A double written with the wrong cube value."""
    RESULT = "result"
    """The recorded result does not follow from the final position and cube."""
    SCORE = "score"
    """A game's starting score is not the sum of the earlier results."""
    MATCH_END = "match-end"
    """A game after the match was won, or a match declared won too early."""
    MISSING_RESULT = "missing-result"
    """A game that stops unfinished, without a result, while another game follows."""
    AFTER_RESULT = "after-result"
    """A roll or cube action written after the game's result line."""
    UNVERIFIABLE = "unverifiable"
    """Note: a roll or play that the record does not give (``???``)."""
    FOLLOWS_FAULT = "follows-fault"
    """Note: an action that breaks a rule only in the position an earlier illegal play
    leaves when made as written, not after a legal play near it (its step the other way
    round, its points paired otherwise), which the player may have made: not counted as a
    fault; the note names the earlier play and its place."""
    UNVERIFIED = "unverified"
    """Note: actions not replayed because the game cannot be followed past an earlier
    fault (a play that cannot be made even as written and has no legal play near it, a
    line that could not be read...), or the rest of a record that gave more errors than
    ``max_errors`` (:mod:`bgkit.limits`), in place of the first error not reported."""
    UNLISTED = "unlisted"
    """Note: in place of the first note past ``max_notes`` (:mod:`bgkit.limits`), how
    many notes are not listed (the record is verified to its end)."""
    RESIGNATION = "resignation"
    """Note: a game that ends by resignation (a ``Wins`` line before the game is over)."""
    FORFEIT = "forfeit"
    """Note: a match forfeited (credited with the points the winner needed)."""
    UNFINISHED_MATCH = "unfinished-match"
    """Note: the record stops before either player reaches the match length."""
    CONVENTION = "convention"
    """Note: a result scored by a writer's convention rather than the match rules
    (see :data:`CONVENTIONS`)."""
    UNREADABLE_LINE = "unreadable-line"
    """A line of the file that could not be read (the rest of the record was read and is
    verified; the game's actions after that line are not, one ``UNVERIFIED`` note)."""
    UNREADABLE_ANALYSIS = "unreadable-analysis"
    """Note: a part of the record's own analysis beside its actions that cannot be read (a
    damaged value of gnubg's ``A``, ``DA`` or ``LU`` in SGF, a line of the candidate plays
    of gnubg's text export, an XG rollout the file does not hold): the actions are all
    read and verified; ``analyze --use-file-analysis`` reads that decision without it."""
    ENCODING = "encoding"
    """Note: text that is not UTF-8, decoded by a guess (names may read wrong); from the
    reader (:class:`bgkit.errors.DecodingWarning`), not the rules."""

    @property
    def severity(self) -> Severity:
        if self in _NOTES:
            return Severity.NOTE
        return Severity.ERROR


_NOTES = frozenset(
    {
        IssueKind.UNVERIFIABLE,
        IssueKind.UNVERIFIED,
        IssueKind.UNLISTED,
        IssueKind.FOLLOWS_FAULT,
        IssueKind.RESIGNATION,
        IssueKind.FORFEIT,
        IssueKind.UNFINISHED_MATCH,
        IssueKind.CONVENTION,
        IssueKind.ENCODING,
        IssueKind.UNREADABLE_ANALYSIS,
    }
)


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem in a record, with where it is."""

    kind: IssueKind
    message: str
    game: int
    """The game number as the record gives it."""
    move: int
    """The 1-based turn number within the game (a cube action counts with the next turn)."""
    player: int | None
    """0 (left column) or 1 (right column), ``None`` when it concerns no player."""
    player_name: str = ""
    source_name: str | None = None
    line: int = 0
    column: int = 0
    position: Position | None = field(default=None, compare=False, repr=False)
    """The position where the fault happened, before the action: with the dice rolled for
    a roll's issue, ``None`` where no single position is concerned (a score header, a
    game that cannot be set up). A notebook draws it with ``bgkit.reports.svg.position``."""

    @property
    def severity(self) -> Severity:
        return self.kind.severity

    @property
    def location(self) -> str:
        """``file:line:col`` as far as known: no line and column for a binary record (XG),
        whose issues are placed by game and move."""
        return place(self.source_name, self.line, self.column)

    def __str__(self) -> str:
        """``file:line:col: error: message (game, move, player)``, as compilers write."""
        who = f", {self.player_name or _unnamed(self.player)}" if self.player is not None else ""
        where = f"{self.location}: " if self.location else ""
        if self.kind is IssueKind.ENCODING:  # (about the file's bytes, no game or move)
            return f"{where}{self.severity.value}: {self.message}"
        return (
            f"{where}{self.severity.value}: {self.message}"
            f" (game {self.game}, move {self.move}{who})"
        )

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict: ``file, line, column, game, move, player, kind, severity,
        message`` (the shape of every line of ``bgkit verify --json``), and
        ``player_index`` (0 or 1, ``None`` when no player is concerned)."""
        return {
            "file": self.source_name,
            "line": self.line,
            "column": self.column,
            "game": self.game,
            "move": self.move,
            "player": (self.player_name or _unnamed(self.player))
            if self.player is not None
            else None,
            "player_index": self.player,
            "kind": self.kind.value,
            "severity": self.severity.value,
            "message": self.message,
        }

    def to_exception(self) -> BgkitError:
        """The issue as bgkit's exception of the matching type."""
        if self.kind in (IssueKind.ILLEGAL_PLAY, IssueKind.ILLEGAL_DANCE):
            return IllegalPlayError(str(self))
        if self.kind is IssueKind.AMBIGUOUS_PLAY:
            return AmbiguousPlayError(str(self))
        return IllegalActionError(str(self))


class VerificationError(ExceptionGroup[BgkitError]):
    """All the errors of a :class:`Report`, raised at once by :meth:`Report.raise_for_issues`."""


@dataclass(frozen=True, slots=True)
class Report:
    """What :func:`verify` found: the issues, in record order, and what was checked."""

    issues: tuple[Issue, ...]
    games: int = 0
    """Games in the record."""
    actions_checked: int = 0
    """Actions replayed and checked."""
    source_name: str | None = None

    @property
    def ok(self) -> bool:
        """True when no issue is an error (notes about unverifiable rolls are allowed)."""
        return not self.errors

    @property
    def errors(self) -> tuple[Issue, ...]:
        """The issues that break a rule."""
        return tuple(i for i in self.issues if i.severity is Severity.ERROR)

    @property
    def notes(self) -> tuple[Issue, ...]:
        """The issues that are facts worth knowing, not rule breaks."""
        return tuple(i for i in self.issues if i.severity is Severity.NOTE)

    def __iter__(self) -> Iterator[Issue]:
        return iter(self.issues)

    def __len__(self) -> int:
        return len(self.issues)

    def __bool__(self) -> bool:
        """A report has no truth value: ``if report:`` could mean "has issues" (it has
        notes, and a length) or "is clean". Ask :attr:`ok` (no rule broken) or
        ``len(report)`` (issues, notes included).

        :raises TypeError: always.
        """
        raise TypeError(
            "a Report has no truth value: use report.ok (no rule broken) or len(report)"
            " (the issues, notes included)"
        )

    def raise_for_issues(self) -> None:
        """Raise every error at once as a :class:`VerificationError` (an ``ExceptionGroup``).

        Does nothing when the report is :attr:`ok`.
        """
        if self.errors:
            name = self.source_name or "record"
            raise VerificationError(
                f"{name}: {len(self.errors)} issue(s)", [i.to_exception() for i in self.errors]
            )


@without_gc
def verify(match: Match, *, stop_at_first: bool = False, jacoby: bool = False) -> Report:
    """Replay every game of ``match`` and report every problem found.

    Never raises for problems in the record: they are returned in the report. Past the
    active limits' ``max_errors`` errors (:mod:`bgkit.limits`) the rest of the record is
    not checked, with an ``unverified`` note at the first error not reported; past
    ``max_notes`` notes the record is checked to its end and a last note counts the notes
    not listed.

    :param stop_at_first: stop at the first error (``bgkit verify --strict``).
    :param jacoby: the record is scored with the Jacoby rule (a gammon or backgammon
        with the cube in the middle counts one point), as BackgammonGalaxy's single-game
        sessions are; without it bgkit recognises those sessions by their pattern
        (see :data:`CONVENTIONS`).
    """
    checker = _MatchChecker(match, stop_at_first=stop_at_first, jacoby=jacoby)
    try:
        checker.run()
        checker.count_issues()
    except _TooManyErrors:
        pass  # (the rest is left unchecked: an UNVERIFIED note says from where)
    checker.unlisted_notes()
    return Report(
        tuple(checker.issues),
        games=len(match.games),
        actions_checked=checker.checked,
        source_name=match.source_name,
    )


CONVENTIONS: dict[str, str] = {
    "capped-match-win": "In the game that wins the match, writers put the full value, the"
    " points the winner needed, or the value capped at the match length (BackgammonGalaxy:"
    " 'Wins 3 point and the match' for a gammon on a 2-cube at 1-2 of 3). Any value from the"
    " points needed up to the full value is accepted.",
    "jacoby-session": "BackgammonGalaxy's single-game sessions (a '16 point match' header and"
    " one game) are scored as money with the Jacoby rule: a gammon with the cube in the"
    " middle is written 'Wins 1 point'. bgkit accepts that in a one-game record whose game"
    " cannot decide the match, with a note; --jacoby (verify(..., jacoby=True)) says so for"
    " any record.",
    "forfeit": "When a player leaves, BackgammonGalaxy writes 'Losses N point' and 'Wins N"
    " point and the match' with N the points the winner needed (N may be more than three"
    " times the cube): a match forfeit, reported as a note.",
    "resignation": "A 'Wins' line while the game is still being played is a resignation"
    " (1, 2 or 3 times the cube): legal, reported as a note.",
    "money-score-zero": "In money play (a '0 point match') some writers (BgMatchFormat_Lib)"
    " head every game with a score of 0-0 instead of a running total. Money play has no"
    " match score, so that is accepted as clean; any other total must add up.",
    "resigns-cell": "Some writers mark a resignation with a 'Resigns' cell in the column of"
    " the player who resigns, before the winner's 'Wins' line. It is read as no action"
    " (a 'Wins' line in no column then goes to the other player); the resignation is"
    " reported as a note.",
    "money-and-the-match": "Some writers end every money session with 'Wins N points and"
    " the match' on its last game. Money play has no match to win, so that is accepted"
    " as clean on the last game (on any other it is an error).",
    "record-ends-after-a-roll": "A record that stops with a roll and no play, in a game"
    " without a result, is a match that goes on in another file (the next part of it),"
    " not a dance: a note says the play is not in the record.",
    "resumed-after-crawford": "A record that resumes a match (the second file of it) may"
    " start at a Crawford score such as 6-5 of 7 after the Crawford game was played in the"
    " earlier file. A double in its first game shows that: accepted, with a note. (At"
    " 6-0 the game is the Crawford game whatever came before.)",
    "forfeit-fixed-value": "When a player leaves, some sites write the forfeit as a fixed"
    " value ('Wins 100 points', or 16) instead of the points the winner needed: any value"
    " from the points needed up is a forfeit, reported as a note.",
}
"""The writers' scoring conventions the verifier accepts, by name (documented in the README)."""


_ANALYSIS_ONLY = " (a part of the record's own analysis: every action is read and verified)"

_READINGS = 10
"""At most this many legal readings of illegal plays are followed in a game."""

_NAMED = 3
"""A dance recorded while a play existed: the error names this many of the plays."""

_LOOK_AHEAD = 8
"""A dance recorded while a play existed: the rolls after it that rank its legal plays."""

_LOOK_FURTHER = 32
"""The rolls that tell apart the legal plays of such a dance that fit the first
:data:`_LOOK_AHEAD` alike, when there are more than :data:`_READINGS` of them."""

_FITS_ALL = _LOOK_FURTHER + 1
"""What :func:`_fits` says of a position from which every roll looked at fits."""


class _TooManyErrors(Exception):
    """The record gave more errors than ``max_errors``: the rest is not checked."""


_State = tuple[object, ...]
_STATE = (
    "exchange",
    "dropped",
    "ended_by",
    "cube_taken",
    "consumed",
    "session",
    "here",
    "standing",
)
"""The checker's fields an action's check changes besides its issues (a trial keeps them)."""


@dataclass(frozen=True, slots=True)
class _Reading:
    """A legal play near an illegal one (:func:`_nearby_readings`), which the player may
    have made, and the position the game has reached if he did."""

    position: Position
    play: Play
    fault: Issue
    """The illegal play's error."""
    written: Play
    """The illegal play as the record writes it (no step: a dance recorded while a play
    existed, :attr:`roll` rolled)."""
    roll: str = ""
    """The roll of a dance recorded while a play existed (``"52"``)."""


class _Trial(Generic[_T]):
    """What a check run aside found (:meth:`_MatchChecker.trial`).

    (This and the two classes below are plain classes, not dataclasses: a dataclass costs
    every ``bgkit verify`` a few tenths of a millisecond to make at its start, issue 31.)
    """

    __slots__ = ("issues", "needs_value", "readings", "state", "value")

    value: _T
    issues: list[Issue]
    state: _State
    readings: list[_Reading]
    needs_value: bool
    """``None`` as the value (no position to go on from) makes the check a fault."""

    def __init__(
        self,
        value: _T,
        issues: list[Issue],
        state: _State,
        readings: list[_Reading],
        *,
        needs_value: bool = True,
    ) -> None:
        self.value, self.issues, self.state = value, issues, state
        self.readings, self.needs_value = readings, needs_value

    @property
    def fits(self) -> bool:
        """Whether the action breaks no rule here."""
        if self.needs_value and self.value is None:
            return False
        return not any(i.severity is Severity.ERROR for i in self.issues)


class _GameOutcome:
    """What replaying one game established."""

    __slots__ = ("result", "unfinished")

    result: tuple[int, int] | None
    """(winner, points) to add to the running score: the verified result where the record's
    is wrong, the record's where it cannot be checked; ``None`` when the game has none."""
    unfinished: bool
    """The replay reached the last action and the game is still being played, no result."""

    def __init__(self, result: tuple[int, int] | None, *, unfinished: bool = False) -> None:
        self.result, self.unfinished = result, unfinished


class _MatchChecker:
    match: Match
    stop_at_first: bool
    jacoby: bool
    issues: list[Issue]
    checked: int
    hit_marks: bool
    exchange: str | None
    """Within a cube exchange: "double", "beaver" or "raccoon" was the last word."""
    dropped: tuple[int, int] | None
    """(winner, points) of the game ended by a drop."""
    ended_by: str
    """What ended the game being replayed, for messages ("Bob's drop on line 11")."""
    cube_taken: str
    """Where the cube owner took it, for messages ("took the double on line 21")."""
    session: bool
    """The record is a single-game session scored with the Jacoby rule (recognised)."""
    here: Position | None
    """The position before the action being checked (see :meth:`position_here`)."""
    here_roll: Move | None
    """The move being checked, whose roll :meth:`position_here` puts on :attr:`here`."""
    unread: list[ReadError]
    """The lines of the game being replayed that could not be read, not yet reported."""
    consumed: int
    """The index of the last action of the game already replayed with an earlier one (the
    second of two rolls written in each other's columns)."""
    readings: list[_Reading]
    """Where an earlier illegal play of the game leaves the position in doubt: the other
    positions the game may be in (see :meth:`among`)."""
    new_readings: list[_Reading]
    """The legal readings of the illegal play just checked (set by :meth:`as_written`)."""
    standing: _Reading | None
    """The legal reading of an earlier illegal play that the game's position stands for
    (``None``: the record's own position, every play as written)."""
    counted: int
    """The issues :meth:`count_issues` has gone through (those after are new)."""
    errors_seen: int
    notes_seen: int
    """Errors and notes found so far, the notes not listed too (see ``max_notes``)."""
    max_errors: int
    max_notes: int
    unlisted_at: int
    """The index in :attr:`issues` of the first note past ``max_notes`` (-1: none yet)."""

    def __init__(self, match: Match, *, stop_at_first: bool = False, jacoby: bool = False) -> None:
        self.match, self.stop_at_first, self.jacoby = match, stop_at_first, jacoby
        self.issues, self.checked, self.hit_marks = [], 0, True
        self.counted, self.errors_seen, self.notes_seen, self.unlisted_at = 0, 0, 0, -1
        limits = active()
        self.max_errors, self.max_notes = limits.max_errors, limits.max_notes
        self.exchange, self.dropped, self.ended_by, self.cube_taken = None, None, "", ""
        self.session, self.here, self.here_roll = False, None, None
        self.unread, self.consumed = [], -1
        self.readings, self.new_readings, self.standing = [], [], None

    def run(self) -> None:
        m = self.match
        self.hit_marks = _writes_hit_marks(m)
        score: tuple[int, int] | None = None  # the verified score before each game
        match_over_at: int | None = None
        crawford_seen = False
        open_game: Game | None = None  # the last game stopped with no result
        unread = unread_lines(m)
        self.read_errors(None, unread[0])  # (between the header and the first game)
        for index, game in enumerate(m.games):
            if self.stop_at_first and self.errors():
                return
            if len(self.issues) > self.counted:
                self.count_issues()
            self.here, self.here_roll = None, None
            if unread[index]:
                # a line before this game could not be read (a game may be lost with it):
                # its score is the record's, and the last game's missing result is no fault
                score, open_game = None, None
            self.unread = list(unread[index + 1])
            if open_game is not None:
                self.add(
                    IssueKind.MISSING_RESULT,
                    f"game {open_game.number} has no result, but game {game.number} follows",
                    game,
                    1,
                    None,
                    game.line,
                    game.column,
                )
            if score is None or (open_game is not None and match_over_at is None):
                # the first game, or one after a game without a result: its score is the
                # record's (one missing result is one error, not a wrong score too)
                score = game.score
            elif match_over_at is not None:
                self.add(
                    IssueKind.MATCH_END,
                    f"game {game.number} is played after the match was won in game {match_over_at}",
                    game,
                    1,
                    None,
                    game.line,
                    game.column,
                )
                score = _clamp_score(game.score, m.length)
            elif game.score != score and not (m.length == 0 and game.score == (0, 0)):
                self.score_error(game, score)
            crawford = False
            if m.crawford and match_over_at is None and not crawford_seen:
                # a game set up with the cube turned comes after the Crawford game
                crawford_seen = m.length - 1 in score
                crawford = crawford_seen and not game.cube_turned_at_start
                if crawford and index == 0 and self.resumed_after_crawford(game, score):
                    crawford = False
            outcome = self.check_game(game, index, score, crawford)
            self.read_errors(game, self.unread)
            open_game = game if outcome.unfinished else None
            if outcome.result is not None and match_over_at is None:
                winner, points = outcome.result
                after = list(score)
                after[winner] += points
                score = (after[0], after[1])
                if m.length and max(score) >= m.length:
                    match_over_at = game.number
            result = game.result
            if (
                result is not None
                and result.match_won
                and (m.length == 0 or max(score) < m.length)
                and not (m.length == 0 and index == len(m.games) - 1)
            ):
                # (a money session's last game "and the match": a writer's way to end it)
                self.add(
                    IssueKind.MATCH_END,
                    "the record says this game wins the match, but the score"
                    f" {score[0]}-{score[1]} does not reach {m.length}",
                    game,
                    _last_move(game),
                    result.winner,
                    result.line,
                    result.column,
                )
        # a Jacoby session is no match, whatever its header says: it cannot be unfinished
        stopped = m.length and score is not None and match_over_at is None
        if m.games and stopped and not (self.jacoby or self.session):
            assert score is not None
            self.unfinished_match(m.games[-1], score, open_game is not None)

    def score_error(self, game: Game, expected: tuple[int, int]) -> None:
        """A ``Game N`` score line that does not add up: at the first wrong number."""
        wrong = 0 if game.score[0] != expected[0] else 1
        line, column = (
            game.score_places[wrong] if len(game.score_places) == 2 else (game.line, game.column)
        )
        self.add(
            IssueKind.SCORE,
            f"the score at the start of game {game.number} should be"
            f" {expected[0]}-{expected[1]}, not {game.score[0]}-{game.score[1]}",
            game,
            1,
            wrong if len(game.score_places) == 2 else None,
            line,
            column,
        )

    def unfinished_match(self, last: Game, score: tuple[int, int], open_game: bool) -> None:
        where: Action | Game | Result = last.result or (last.actions[-1] if last.actions else last)
        why = f" (game {last.number} has no result)" if open_game else ""
        self.add(
            IssueKind.UNFINISHED_MATCH,
            f"the match stops at {score[0]}-{score[1]} of {self.match.length}{why}",
            last,
            _last_move(last),
            None,
            where.line,
            where.column,
        )

    # ---------------------------------------------------------------- one game

    def check_game(
        self, game: Game, index: int, score: tuple[int, int], crawford: bool
    ) -> _GameOutcome:
        """Replay one game from ``score``; what it established for the running score."""
        pos = self.start_position(game, index, score, crawford)
        self.exchange, self.dropped, self.ended_by, self.cube_taken = None, None, "", ""
        self.consumed = -1
        self.readings, self.standing = [], None
        if pos is None:
            return _GameOutcome(self.recorded_result(game))
        turn_no = 0
        started = False
        actions = game.actions
        stopped_at: int | None = None
        ended = False
        skip = -1  # the index of an action already replayed with the one before it
        # a line that could not be read, where the record is lost
        lost = next((e.line for e in self.unread if e.record), None)
        # (move_number inlined: the record's number of a roll of the game is
        # (turn + right_opened + 1) // 2; this loop runs once per action of the record)
        right_opened = int(bool(actions) and actions[0].player == 1)
        stop_at_first = self.stop_at_first
        last_index = len(actions) - 1
        playing = GameState.PLAYING
        hit_marks = self.hit_marks
        for i, action in enumerate(actions):
            if stop_at_first and self.errors():
                return _GameOutcome(self.recorded_result(game))
            if len(self.issues) > self.counted:
                self.count_issues()
            if i <= skip:
                turn_no += 1
                continue
            if lost is not None and lost < action.line:
                # the record does not say what happened on that line: the position is lost
                line = lost
                self.read_errors(game, [e for e in self.unread if e.line < action.line])
                self.unread = [e for e in self.unread if e.line >= action.line]
                self.unverified(game, actions[i:], turn_no, f": line {line} could not be read")
                return _GameOutcome(self.recorded_result(game))
            self.here = pos
            if isinstance(action, Move):
                turn_no += 1
                # (the roll is made into a position only for an issue)
                self.here_roll = action if not pos.doubled and pos.game_state == playing else None
                move_no = action.number or (max(turn_no, 1) + right_opened + 1) // 2
            else:
                self.here_roll = None
                move_no = action.number or (turn_no + 1 + right_opened + 1) // 2
            if ended:
                message = (
                    f"{_describe(action)} after the game had ended: it follows {self.ended_by}"
                )
                going_on = self.still_playing(message, game, move_no, action)
                if going_on is None:
                    self.add_at(IssueKind.TURN_ORDER, message, game, move_no, action)
                    stopped_at = i + 1
                    break
                pos, ended = going_on, False
            self.checked += 1
            if isinstance(action, Move):
                if not started:
                    started = True
                    if action.dice[0] == action.dice[1] and game.setup is None:
                        self.add_at(
                            IssueKind.OPENING_DOUBLE,
                            f"the opening roll {action.dice[0]}{action.dice[1]} is a double"
                            " (each player rolls one die, so it cannot be)",
                            game,
                            move_no,
                            action,
                        )
                    if pos.turn != action.player and game.setup is None:
                        # (_derive for a player 0 or 1: the turn alone is checked)
                        turn = action.player
                        pos = pos._derive(turn=turn) if turn in (0, 1) else replace(pos, turn=turn)
                self.exchange = None  # a roll closes any beaver exchange (implicit take)
                if pos.doubled or action.player != pos.turn:
                    self.add_at(
                        IssueKind.TURN_ORDER,
                        self.out_of_turn(pos, action) + self.swap_hint(pos, actions, i),
                        game,
                        move_no,
                        action,
                    )
                    stopped_at = i + 1
                    break
                last = i == last_index
                if self.readings or self.standing is not None:  # (after an illegal play)
                    check = partial(self.check_move, game, move_no, action=action, last=last)
                    mark, standing = len(self.issues), self.standing
                    new = self.among(pos, check, game, move_no, action)
                    if standing is not None:
                        self.marks_in_doubt(mark, standing)
                else:
                    # nearly every roll: a play written one step per die, each legal in the
                    # written order, hit marks as it hits (check_move's own first answer,
                    # without its calls: the hot loop of verify)
                    new = None
                    play = action.play
                    if play is not None and play.steps and pos.game_state == playing:
                        d1, d2 = action.dice
                        if d1.__class__ is d2.__class__ is int and 0 < d1 < 7 and 0 < d2 < 7:
                            board, turn = pos.board, pos.turn
                            plain = play_as_written(board[turn], board[1 - turn], d1, d2, play)
                            if plain is not None and (plain[1] is play or not hit_marks):
                                new = pos._after(plain[0])
                    if new is None:
                        new = self.check_move(game, move_no, pos, action, last=last)
                        if self.new_readings:
                            self.readings = _distinct(self.new_readings, new)
                            self.new_readings = []
                if new is None:
                    stopped_at = i + 1
                    break
                if self.consumed > i:
                    skip = self.consumed
                pos = new
                ended = pos.game_state != playing
                if ended:
                    self.ended_by = f"{self.name(action.player)}'s bear-off on line {action.line}"
            else:
                if not started and game.setup is None:
                    self.add_at(
                        IssueKind.TURN_ORDER,
                        f"{_describe(action)} before the opening roll (the first roll"
                        " decides who moves first, so no cube action can come before it)",
                        game,
                        move_no,
                        action,
                    )
                    stopped_at = i + 1
                    break
                started = True
                if self.readings or self.standing is not None:
                    check = partial(self.check_cube, game, move_no, action=action)
                    new = self.among(pos, check, game, move_no, action)
                else:
                    new = self.check_cube(game, move_no, pos, action)
                if new is None:
                    stopped_at = i + 1
                    break
                pos = new
                ended = pos.game_state != GameState.PLAYING
                if ended:
                    self.ended_by = f"{self.name(action.player)}'s drop on line {action.line}"
        self.here, self.here_roll = pos, None
        if stopped_at is not None:
            self.unverified(game, actions[stopped_at:], turn_no)
            return _GameOutcome(self.recorded_result(game))
        result = game.result
        held = [e for e in self.unread if e.record]
        if held and (result is None or held[0].line < result.line):
            # a line before the result could not be read: the result cannot be checked
            self.read_errors(game, self.unread)
            self.unread = []
            return _GameOutcome(self.recorded_result(game))
        verified = self.result_among(game, pos, score)
        self.check_after_result(game, turn_no)
        unfinished = verified is None and game.result is None
        return _GameOutcome(verified, unfinished=unfinished)

    def resumed_after_crawford(self, game: Game, score: tuple[int, int]) -> bool:
        """Whether the record's first game, at a Crawford score, is after the Crawford game:
        the record resumes a match with a new game (the trailer has won since the leader
        reached match point, so the Crawford game may have been before the record) and the
        game has a double, which only a post-Crawford game can have. A note says so."""
        double = next((a for a in game.actions if isinstance(a, Double)), None)
        trailer = min(score)
        if double is None or trailer in (0, self.match.length - 1) or game.setup is not None:
            return False  # (a set-up position says by its cube whether it is post-Crawford)
        length = self.match.length
        self.add(
            IssueKind.CONVENTION,
            f"the record starts at {score[0]}-{score[1]} of {length} and game {game.number}"
            " has a double: the Crawford game was played before the record starts (a record"
            " that resumes a match)",
            game,
            double.number or 1,
            double.player,
            double.line,
            double.column,
        )
        return True

    def count_issues(self) -> None:
        """Count the issues found since the last count: drop the notes past ``max_notes``
        (counted, not listed), and past ``max_errors`` errors put an ``unverified`` note
        in place of the first error too many and stop.

        :raises _TooManyErrors: past ``max_errors``."""
        kept = []
        for issue in self.issues[self.counted :]:
            if issue.severity is Severity.ERROR:
                self.errors_seen += 1
                if self.errors_seen > self.max_errors:
                    kept.append(self.stopped_at(issue))
                    self.issues[self.counted :] = kept
                    self.counted = len(self.issues)
                    raise _TooManyErrors
            else:
                self.notes_seen += 1
                if self.notes_seen > self.max_notes + 1:
                    continue
                if self.notes_seen > self.max_notes:
                    self.unlisted_at = self.counted + len(kept)
            kept.append(issue)
        self.issues[self.counted :] = kept
        self.counted = len(self.issues)

    def stopped_at(self, issue: Issue) -> Issue:
        """The note that the record is not checked from ``issue`` on (an error past
        ``max_errors``)."""
        return replace(
            issue,
            kind=IssueKind.UNVERIFIED,
            message=f"more than {self.max_errors:,} errors (max_errors): the record is not"
            " verified from here on",
            position=None,
        )

    def unlisted_notes(self) -> None:
        """In place of the first note past ``max_notes``, one that counts those not
        listed."""
        if self.unlisted_at < 0:
            return
        first = self.issues[self.unlisted_at]
        self.issues[self.unlisted_at] = replace(
            first,
            kind=IssueKind.UNLISTED,
            message=f"more than {self.max_notes:,} notes (max_notes): this one and"
            f" {self.notes_seen - self.max_notes - 1:,} after it are not listed; every"
            " action is verified",
            position=None,
        )

    def unverified(self, game: Game, rest: tuple[Action, ...], turn_no: int, why: str = "") -> None:
        """One note for the actions of ``game`` left unchecked (none: no note)."""
        if not rest:
            return
        first = rest[0]
        self.add(
            IssueKind.UNVERIFIED,
            f"{len(rest)} later action(s) of game {game.number} not verified{why}",
            game,
            first.number or move_number(turn_no + 1, game.actions),
            None,
            first.line,
            first.column,
        )

    def read_errors(self, game: Game | None, errors: list[ReadError]) -> None:
        """An error for each line that could not be read, at its place; a note for a part
        of the record's own analysis (:attr:`ReadError.analysis`: the record around it is
        read)."""
        number = game.number if game is not None else 0
        for err in errors:
            self.issues.append(
                Issue(
                    kind=IssueKind.UNREADABLE_ANALYSIS
                    if err.analysis
                    else IssueKind.UNREADABLE_LINE,
                    message=f"{err.message}{_ANALYSIS_ONLY}" if err.analysis else err.message,
                    game=number,
                    move=max(err.move, 1),
                    player=err.player,
                    player_name=self.name(err.player) if err.player is not None else "",
                    source_name=err.source_name or self.match.source_name,
                    line=err.line,
                    column=err.column,
                )
            )
        if game is not None and errors is self.unread:
            self.unread = []

    def out_of_turn(self, pos: Position, action: Move) -> str:
        """Why a roll comes out of turn, in the players' names."""
        who = self.name(action.player)
        if pos.doubled:
            doubler, taker = self.name(pos.turn), self.name(pos.opponent)
            offer = f"{doubler}'s double to {pos.cube * 2}"
            if action.player == pos.opponent:
                return f"{who} rolls without answering {offer}"
            return f"{who} rolls, but {taker} has not answered {offer}"
        return f"{who} rolls out of turn: it is {self.name(pos.turn)}'s turn to roll"

    def swap_hint(self, pos: Position, actions: tuple[Action, ...], i: int) -> str:
        """A hint when the rolls on this line fit if written in the other columns."""
        return self.swapped(pos, actions, i)[0]

    def swapped(
        self, pos: Position, actions: tuple[Action, ...], i: int
    ) -> tuple[str, Position | None]:
        """:meth:`swap_hint`, and the position after the line's two rolls played in the
        other columns when they fit so (``None`` otherwise)."""
        action = actions[i]
        line = [a for a in actions[i:] if isinstance(a, Move) and a.line == action.line]
        if not action.line or not 1 <= len(line) <= 2 or pos.doubled:
            return "", None
        trial = pos
        try:
            for move in reversed(line):
                if move.play is None or _backwards(move.play) is not None:
                    return "", None
                if move.play:
                    trial = trial._resolve_checked(move.play, move.dice)[1]
                else:
                    rolled = trial.with_dice(*move.dice)
                    if rolled.legal_results():
                        return "", None
                    trial = rolled.apply(Play())
        except BgkitError:
            return "", None
        if len(line) == 2:
            return " (the two rolls on this line fit if their columns are swapped)", trial
        return f" (the roll fits {self.name(pos.turn)}'s column)", None

    def start_position(
        self, game: Game, index: int, score: tuple[int, int], crawford: bool
    ) -> Position | None:
        """The game's starting position at the verified ``score``, or ``None`` (with a note)."""
        m = self.match
        try:  # (the score and Crawford given: a match rebuilt per game was quadratic)
            pos = m.initial_position(index, score=score, crawford=crawford)
            if not m.length and not pos.beavers and m.rule("Beaver") is not False:
                # money play allows beavers unless the record says otherwise (gnubg's and
                # most programs' default; a .mat carries no rule tags); (_derive: the
                # flag does not make a valid position invalid)
                pos = pos._derive(beavers=True)
        except (BgkitError, ValueError) as err:
            self.add(
                IssueKind.UNVERIFIABLE,
                f"cannot set up game {game.number}: {err}",
                game,
                1,
                None,
                game.line,
                game.column,
            )
            return None
        return pos

    def check_after_result(self, game: Game, turn_no: int) -> None:
        """One error for actions written after the result line (the rest are not replayed)."""
        if not game.after_result:
            return
        first = game.after_result[0]
        result = game.result
        where = f" on line {result.line}" if result is not None and result.line else ""
        more = len(game.after_result) - 1
        self.add_at(
            IssueKind.AFTER_RESULT,
            f"{_describe(first)} after the game's result{where}"
            + (f" ({more} more action(s) after it)" if more else ""),
            game,
            first.number or move_number(turn_no + 1, game.actions),
            first,
        )

    def check_move(
        self, game: Game, move_no: int, pos: Position, action: Move, *, last: bool
    ) -> Position | None:
        play = action.play
        if play is not None and play.steps:  # (nearly every roll: checked first)
            return self.check_play(game, move_no, pos, action, play)
        d1, d2 = action.dice
        roll = f"{d1}{d2}"
        if action.play is None:
            self.add_at(
                IssueKind.UNVERIFIABLE,
                f"the play for {roll} is not recorded",
                game,
                move_no,
                action,
            )
            return None
        if not action.play:
            rolled = pos.with_dice(d1, d2)
            results = rolled.legal_results()
            if results and last and game.result is None and game is self.match.games[-1]:
                # the record stops after the roll: the game goes on in another record
                self.add_at(
                    IssueKind.UNVERIFIABLE,
                    f"the record ends with the roll {roll} and no play (the game goes on"
                    " after the record)",
                    game,
                    move_no,
                    action,
                )
                return rolled
            if results and not (last and game.result is not None):
                return self.illegal_dance(game, move_no, action, rolled, results)
            if results:
                # rolled, then resigned before moving (gnubg's reading of the record)
                return rolled
            if rolled.game_state == GameState.PLAYING:
                # a dance: what rolled.apply(Play()) gives, without generating the plays
                # again (one roll in eight of a gnubg record is a dance)
                board, turn = rolled.board, rolled.turn
                return rolled._after((board[turn], board[1 - turn]))
            return rolled.apply(Play())
        return self.check_play(game, move_no, pos, action, action.play)

    def illegal_dance(
        self, game: Game, move_no: int, action: Move, rolled: Position, results: dict[Key, Play]
    ) -> Position:
        """The error for a roll recorded with no move while ``results`` (legal plays)
        existed, naming them, likeliest first (:func:`_dance_readings`); the position the
        record describes (no checker moved), and, in :attr:`new_readings`, the legal plays
        the player may have made (a play lost from the record), each a position the game
        is followed in too."""
        roll = f"{action.dice[0]}{action.dice[1]}"
        actions = game.actions
        rest = actions[_index(actions, action) + 1 :]
        written = rolled.apply(Play(), check=False)  # (the game goes on as written)
        ranked = _dance_readings(rolled, results, rest)
        plays = [str(play) for play, _, _ in ranked]
        if len(plays) == 1:
            possible = f"{plays[0]} was possible"
        else:
            some = ", ".join(plays[:_NAMED])
            possible = (
                f"{len(plays)} plays were possible: {some}"
                if len(plays) <= _NAMED
                else f"{len(plays)} plays were possible, such as {some}"
            )
        self.add_at(
            IssueKind.ILLEGAL_DANCE,
            f"no move recorded for {roll}, but {possible}",
            game,
            move_no,
            action,
        )
        # the game is followed in the legal plays from which the record goes on further
        # than from its own position (a play lost from it), or as far (the rolls looked
        # at all fit both), not in every legal play
        fault, own = self.issues[-1], _fits(written, rest)
        self.new_readings = [
            _Reading(position, play, fault, Play(), roll)
            for play, position, fits in ranked
            if fits > own or fits == own == _FITS_ALL
        ][:_READINGS]
        return written

    def check_play(
        self, game: Game, move_no: int, pos: Position, action: Move, play: Play
    ) -> Position | None:
        """Check a roll's written ``play`` (at least one step); the position after it."""
        try:
            # (the engine finds no legal play with a step away from home: _backwards says why)
            resolved, after, as_written = pos._resolve_checked(play, action.dice)
        except IllegalPlayError as err:
            d1, d2 = action.dice
            roll = f"{d1}{d2}"
            backwards = _backwards(play)
            if backwards is not None:
                self.add_at(
                    IssueKind.ILLEGAL_PLAY,
                    f"illegal play {play.spelled()} for {roll}: {backwards}",
                    game,
                    move_no,
                    action,
                )
                return self.as_written(pos, action)
            written = play.spelled()
            index = _index(game.actions, action)
            hint, swapped = self.swapped(pos, game.actions, index)
            self.add_at(
                IssueKind.ILLEGAL_PLAY,
                f"illegal play {written} for {roll}: {err.reason.removeprefix(written + ' ')}"
                + hint,
                game,
                move_no,
                action,
            )
            if swapped is not None:  # one fault: the game goes on after both rolls
                self.consumed = index + 1
                return swapped
            return self.as_written(pos, action)
        except AmbiguousPlayError as err:
            self.add(
                IssueKind.AMBIGUOUS_PLAY,
                str(err),
                game,
                move_no,
                action.player,
                action.line,
                action.column,
            )
            return None
        if as_written and (resolved is play or not self.hit_marks):
            return after  # (a play written one step per die, as it hits: most rolls)
        roll = f"{action.dice[0]}{action.dice[1]}"
        if not as_written:
            self.add_at(
                IssueKind.WRITTEN_PATH,
                f"{play.spelled()} cannot be played as written with {roll}; the same result"
                f" comes from {resolved.spelled()}",
                game,
                move_no,
                action,
            )
        if self.hit_marks and resolved is not play:  # (else written as it hits)
            marked, hits = play.hits(), resolved.hits()
            if marked != hits:
                self.add_at(
                    IssueKind.HIT_MARK,
                    f"hit marks in {play.spelled()} disagree with the play:"
                    f" it hits on {_points(hits)}, marked {_points(marked)}",
                    game,
                    move_no,
                    action,
                )
        return after

    def check_cube(
        self, game: Game, move_no: int, pos: Position, action: Action
    ) -> Position | None:
        """Check a cube action; return the position after it (``None`` stops the game)."""
        who = action.player
        where = (game, move_no, who, action.line, action.column)
        exchange = self.exchange
        try:
            if isinstance(action, Double) or (
                isinstance(action, Beaver) and exchange == "beaver" and who == pos.turn
            ):
                if exchange == "beaver" and who == pos.turn:
                    # a raccoon (gnubg writes it as one more "Beavers => N")
                    new = pos.raccoon()
                    self.exchange = "raccoon"
                    self.check_value(new.cube, action, where)
                    self.took(action, "raccooned")
                    return new
                if pos.doubled:
                    raise IllegalActionError("cannot double: a double is already pending")
                if who != pos.turn:
                    raise IllegalActionError(
                        f"cannot double: it is {self.name(pos.turn)}'s turn to roll"
                    )
                if pos.cube_owner is not None and pos.cube_owner != who:
                    owner = self.name(pos.cube_owner)
                    how = f" ({self.cube_taken})" if self.cube_taken else ""
                    raise IllegalActionError(f"cannot double: {owner} owns the cube{how}")
                new = pos.double()
                self.check_value(pos.cube * 2, action, where)
                self.exchange = "double"
                return new
            if isinstance(action, Raccoon):
                if exchange != "beaver" or who != pos.turn:
                    raise IllegalActionError("cannot raccoon: no beaver to answer")
                new = pos.raccoon()
                self.exchange = "raccoon"
                self.check_value(new.cube, action, where)
                self.took(action, "raccooned")
                return new
            if exchange in ("beaver", "raccoon"):
                # the answer to a beaver (by the doubler) or a raccoon (by the beaverer)
                answerer = pos.turn if exchange == "beaver" else pos.opponent
                if who != answerer or isinstance(action, Beaver):
                    raise IllegalActionError(f"{_describe(action)} out of turn")
                self.exchange = None
                if isinstance(action, Drop):
                    winner = 1 - who
                    self.dropped = (winner, pos.cube // 2)
                    return replace(pos, game_state=GameState.DROPPED)
                return pos
            if not pos.doubled:
                raise IllegalActionError(f"{_describe(action)} without a double")
            if who == pos.turn:
                raise IllegalActionError(f"{_describe(action)} by the doubler")
            self.exchange = None
            if isinstance(action, Take):
                self.took(action, "took the double")
                return pos.take()
            if isinstance(action, Drop):
                self.dropped = (pos.turn, pos.cube)
                return pos.drop()
            new = pos.beaver()
            self.exchange = "beaver"
            self.check_value(new.cube, action, where)
            self.took(action, "beavered")
            return new
        except IllegalActionError as err:
            self.add(IssueKind.CUBE_ACTION, str(err), *where)
            return None

    def took(self, action: Action, how: str) -> None:
        self.cube_taken = f"{how} on line {action.line}" if action.line else how

    def check_value(
        self, value: int, action: Action, where: tuple[Game, int, int, int, int]
    ) -> None:
        written = getattr(action, "value", value)
        if written != value:
            self.add(
                IssueKind.CUBE_VALUE,
                f"{_describe(action)} should be to {value}, not {written}",
                *where,
            )

    # ---------------------------------------------------------------- results

    def actual_result(self, pos: Position) -> tuple[int, int] | None:
        if pos.game_state == GameState.DROPPED:
            return self.dropped
        res = pos.game_result()
        if res is not None:
            return (res[0], res[2])
        return None

    def recorded_result(self, game: Game) -> tuple[int, int] | None:
        if game.result is None:
            return None
        return (game.result.winner, game.result.points)

    def check_result(
        self, game: Game, pos: Position, score: tuple[int, int]
    ) -> tuple[int, int] | None:
        """Check the ``Wins`` line against the replayed game; the result to score.

        That is the record's result when it is consistent with the game (writers'
        conventions included), else the result the game really had.
        """
        m = self.match
        result = game.result
        actual = self.actual_result(pos)
        if result is None:
            return actual
        where_line, where_col = result.line, result.column
        recorded = (result.winner, result.points)
        needed = m.length - score[result.winner] if m.length else None
        if actual is not None:
            winner, points = actual
            if result.winner != winner:
                self.add(
                    IssueKind.RESULT,
                    f"the record gives the game to {self.name(result.winner)}, but"
                    f" {self.name(winner)} won it",
                    game,
                    _last_move(game),
                    result.winner,
                    where_line,
                    where_col,
                )
                return actual
            if result.points == points or (
                needed is not None and needed <= result.points <= points
            ):
                return recorded  # the full value, or capped in the match-winning game
            if self.jacoby_scored(game, pos, result.points, needed):
                return recorded
            how = (
                "the double was dropped" if pos.game_state == GameState.DROPPED else _kind_name(pos)
            )
            self.add(
                IssueKind.RESULT,
                f"the game is worth {points} point(s) ({how}, cube {pos.cube}),"
                f" not {result.points}",
                game,
                _last_move(game),
                result.winner,
                where_line,
                where_col,
            )
            return actual
        # unfinished game: the loser resigned 1, 2 or 3 x cube, or forfeited the match
        cube = pos.cube
        values = {cube * k for k in (1, 2, 3)}
        if ((m.length == 0 and pos.jacoby) or self.jacoby) and pos.cube_owner is None:
            values = {cube}
        loser = self.name(1 - result.winner)
        if result.points in values or (needed is not None and needed <= result.points <= 3 * cube):
            move_no = _last_move(game)
            self.add(
                IssueKind.RESIGNATION,
                f"game {game.number} ends by resignation ({_pts(result.points)}) at move"
                f" {move_no}: {loser} resigns",
                game,
                move_no,
                1 - result.winner,
                where_line,
                where_col,
            )
        elif needed is not None and result.points >= needed:
            # the points needed, or a site's fixed forfeit value (100 or 16 points)
            credit = (
                f"the {_pts(needed)} needed"
                if result.points == needed
                else f"{_pts(result.points)} (the {needed} needed)"
            )
            self.add(
                IssueKind.FORFEIT,
                f"match forfeited at {score[0]}-{score[1]}: {loser} leaves in game"
                f" {game.number}, {self.name(result.winner)} is credited {credit}",
                game,
                _last_move(game),
                1 - result.winner,
                where_line,
                where_col,
            )
        else:
            self.add(
                IssueKind.RESULT,
                f"a resignation is worth 1, 2 or 3 times the cube ({cube}),"
                f" not {result.points} point(s)",
                game,
                _last_move(game),
                result.winner,
                where_line,
                where_col,
            )
        return recorded

    def jacoby_scored(self, game: Game, pos: Position, written: int, needed: int | None) -> bool:
        """A gammon with a centred cube written as one point, by the Jacoby rule.

        Accepted with ``jacoby=True``, or in a record of one game that this result cannot
        decide (BackgammonGalaxy's single-game sessions), with a note.
        """
        res = pos.game_result()
        if res is None or res[1] == ResultKind.SINGLE or pos.cube_owner is not None:
            return False
        if written != pos.cube:
            return False
        if self.jacoby:
            return True
        session = len(self.match.games) == 1 and needed is not None and res[2] < needed
        if session:
            self.session = True
            result = game.result
            assert result is not None
            self.add(
                IssueKind.CONVENTION,
                f"a single-game session scored with the Jacoby rule: the {_kind_name(pos)}"
                f" with the cube in the middle is written as {_pts(written)}, as"
                " BackgammonGalaxy writes its sessions (--jacoby says so for any record)",
                game,
                _last_move(game),
                result.winner,
                result.line,
                result.column,
            )
        return session

    # ------------------------------------------------ after an illegal play that moved

    def as_written(self, pos: Position, action: Move) -> Position | None:
        """The position after the illegal play of ``action`` (just reported) made as
        written (``None``: the game cannot be followed), and, in :attr:`new_readings`, the
        legal plays near it that the player may have made (see :func:`_nearby_readings`)."""
        assert action.play is not None
        after = _as_written(pos, action.play)
        fault = self.issues[-1]
        readings = [
            _Reading(position, play, fault, action.play)
            for play, position in _nearby_readings(pos, action.dice, action.play, after)
        ]
        if after is None and readings:
            # no position as written: the game goes on in the legal readings, the nearest
            # standing for the record
            self.standing, self.new_readings = readings[0], readings[1:]
            return readings[0].position
        self.standing, self.new_readings = None, readings if after is not None else []
        return after

    def among(
        self,
        pos: Position,
        check: Callable[[Position], Position | None],
        game: Game,
        move_no: int,
        action: Action,
    ) -> Position | None:
        """``check(pos)``: the position after an action, its issues reported. Where an
        earlier illegal play of the game leaves the position in doubt (:attr:`readings`),
        the action is checked in each legal reading of that play too: an action that breaks
        a rule in the game's position (the play made as written, or the reading it stands
        for) but not in another reading is no fault of its own (one note says so, and the
        game goes on in that reading); the readings the action rules out are dropped. A
        fault in every reading is reported as usual."""
        if not self.readings:
            self.new_readings = []
            new = check(pos)
            self.readings = _distinct(self.new_readings, new)
            self.new_readings = []
            return new
        first = self.trial(check, pos)
        tried = [(r, self.trial(check, r.position)) for r in self.readings]
        fitting = [(r, t) for r, t in tried if t.fits]
        if first.fits or not fitting:
            self.commit(first)
            # the readings the action rules out are dropped; after a fault in every reading
            # each goes on from its own position (the action made as written there)
            going = fitting if first.fits else tried
            later = [replace(r, position=t.value) for r, t in going if t.value is not None]
            self.readings = _distinct(first.readings + later, first.value)
            return first.value
        reading, chosen = fitting[0]
        self.follows_trial(first, reading, game, move_no, action)
        self.commit(chosen)
        self.standing = reading
        self.readings = [
            replace(r, position=t.value) for r, t in fitting[1:] if t.value is not None
        ] + chosen.readings
        self.readings = _distinct(self.readings, chosen.value)
        return chosen.value

    def marks_in_doubt(self, mark: int, standing: _Reading) -> None:
        """The hit-mark errors found since ``mark`` made notes: the game's position is a
        legal reading of an earlier illegal play (``standing``), and where the blots stand
        follows from it (a reader that marks the hits itself, SGF's or OGXM's, marked them
        in the position the play makes as written)."""
        for k in range(mark, len(self.issues)):
            issue = self.issues[k]
            if issue.kind is IssueKind.HIT_MARK:
                self.issues[k] = replace(
                    issue,
                    kind=IssueKind.FOLLOWS_FAULT,
                    message=f"{issue.message}, in the position after {self.fault_of(standing)}"
                    f" read as {standing.play.spelled()}: where the blots stand is in doubt,"
                    " so it is not counted as a fault",
                )

    def result_among(
        self, game: Game, pos: Position, score: tuple[int, int]
    ) -> tuple[int, int] | None:
        """:meth:`check_result`, in doubt as :meth:`among` checks an action: a result that
        follows from the game only in a legal reading of an earlier illegal play is no fault."""
        check = partial(self.check_result, game, score=score)
        if not self.readings:
            return check(pos)
        first = self.trial(check, pos, needs_value=False)
        if first.fits:
            self.commit(first)
            return first.value
        for reading in self.readings:
            tried = self.trial(check, reading.position, needs_value=False)
            if tried.fits:
                result = game.result
                where: Action | Result | Game = result if result is not None else game
                self.follows_trial(first, reading, game, _last_move(game), where)
                self.commit(tried)
                self.standing = reading
                return tried.value
        self.commit(first)
        return first.value

    def still_playing(
        self, message: str, game: Game, move_no: int, action: Action
    ) -> Position | None:
        """The position of a legal reading of an earlier illegal play in which the game is
        still being played, when the record's position has ended it before ``action``
        (a note says so), else ``None``."""
        for reading in self.readings:
            if reading.position.game_state == GameState.PLAYING:
                self.follows_fault(message, action.player, reading, game, move_no, action)
                self.readings = [r for r in self.readings if r is not reading]
                self.standing = reading
                return reading.position
        return None

    def follows_fault(
        self,
        message: str,
        player: int | None,
        reading: _Reading,
        game: Game,
        move_no: int,
        where: Action | Result | Game,
    ) -> None:
        """The note for an action (or result) that breaks a rule only in the record's
        position after an earlier illegal play (``message`` says how), not in ``reading``."""
        standing = self.standing
        dance = not reading.written.steps
        played = "played " if dance else ""
        if standing is not None and standing.fault is reading.fault:
            how = played + standing.play.spelled()
        else:
            how = "not played (as recorded)" if dance else "made as written"
        self.add(
            IssueKind.FOLLOWS_FAULT,
            f"{message}, if {self.fault_of(reading)} was {how}; not"
            f" if it was {played}{reading.play.spelled()}: not counted as a fault",
            game,
            move_no,
            player,
            where.line,
            where.column,
        )

    def fault_of(self, reading: _Reading) -> str:
        """The earlier fault ``reading`` is a legal reading of, as the notes name it:
        ``Alice's illegal play 8/4* 4/6 at 6:6``, ``Bob's 52 at 7:34`` (a dance)."""
        fault = reading.fault
        at = place(None, fault.line, fault.column) or f"move {fault.move}"
        who = self.name(fault.player if fault.player is not None else 0)
        if not reading.written.steps:
            return f"{who}'s {reading.roll} at {at}"
        return f"{who}'s illegal play {reading.written.spelled()} at {at}"

    def follows_trial(
        self,
        first: _Trial[_T],
        reading: _Reading,
        game: Game,
        move_no: int,
        where: Action | Result | Game,
    ) -> None:
        """:meth:`follows_fault` for the first error a :meth:`trial` found."""
        error = next(i for i in first.issues if i.severity is Severity.ERROR)
        self.follows_fault(error.message, error.player, reading, game, move_no, where)

    def trial(
        self, check: Callable[[Position], _T], pos: Position, *, needs_value: bool = True
    ) -> _Trial[_T]:
        """``check(pos)`` run aside: its value, the issues it would report and the checker's
        state after it, the checker left as it was (see :meth:`commit`)."""
        issues, state = self.issues, self.snapshot()
        self.issues, self.new_readings, self.here = [], [], pos
        try:
            value = check(pos)
            return _Trial(
                value, self.issues, self.snapshot(), self.new_readings, needs_value=needs_value
            )
        finally:
            self.issues = issues
            self.restore(state)
            self.new_readings = []

    def commit(self, trial: _Trial[_T]) -> None:
        """Make a :meth:`trial` what happened: its issues reported, its state taken."""
        self.issues.extend(trial.issues)
        self.restore(trial.state)

    def snapshot(self) -> _State:
        """The state an action's check changes (besides the issues): :data:`_STATE`."""
        return tuple(getattr(self, name) for name in _STATE)

    def restore(self, state: _State) -> None:
        for name, value in zip(_STATE, state, strict=True):
            setattr(self, name, value)

    # ---------------------------------------------------------------- helpers

    def errors(self) -> bool:
        return any(x.severity is Severity.ERROR for x in self.issues)

    def name(self, player: int) -> str:
        name = self.match.players[player] if 0 <= player < 2 else ""
        return name or _unnamed(player)

    def add_at(self, kind: IssueKind, message: str, game: Game, move: int, action: Action) -> None:
        """:meth:`add` for an issue at ``action``: its player, line and column."""
        self.add(kind, message, game, move, action.player, action.line, action.column)

    def add(
        self,
        kind: IssueKind,
        message: str,
        game: Game,
        move: int,
        player: int | None,
        line: int,
        column: int,
    ) -> None:
        self.issues.append(
            Issue(
                kind=kind,
                message=message,
                game=game.number,
                move=move,
                player=player,
                player_name=self.name(player) if player is not None else "",
                source_name=game.source_name or self.match.source_name,
                line=line,
                column=column,
                position=self.position_here(),
            )
        )

    def position_here(self) -> Position | None:
        """The position of the action being checked (what :attr:`Issue.position` gets):
        for a move, its player on roll with its dice."""
        pos, move = self.here, self.here_roll
        if pos is None or move is None:
            return pos
        return pos._derive(turn=move.player).with_dice(*move.dice)


def _backwards(play: Play) -> str | None:
    """Why a written step cannot be a move at all (``6/8`` moves away from home), or
    ``None``."""
    for step in play.steps:
        if step.dst > step.src:
            return f"{step} moves a checker away from its home"
        if step.dst == step.src:
            return f"{step} does not move the checker"
    return None


def _as_written(pos: Position, play: Play) -> Position | None:
    """The position the record describes after an illegal ``play``: its steps made as
    written, each a checker from its point to another (hitting a lone opposing checker),
    or ``None`` when they cannot be (no checker there, a point held by two or more, a
    step to the bar or back from off), and the game cannot be followed further."""
    if any(s.dst == BAR or s.src == OFF for s in play.steps):
        return None
    try:
        return pos.apply(play, check=False)
    except BgkitError:
        return None


def _nearby_readings(
    pos: Position, dice: tuple[int, int], play: Play, written: Position | None
) -> list[tuple[Play, Position]]:
    """The legal plays of ``dice`` from ``pos`` that a player who wrote the illegal
    ``play`` may have made: those that move his checkers only from and to the points it
    names (``8/4 4/6`` for 42 names 8, 6 and 4: ``8/4 6/4``, a step written the wrong way
    round, and ``8/6 8/4``), then those that leave his checkers as the play made as written
    (the position ``written``; without it, the steps made on his side alone) but for one
    checker on another point than the one written for it (a point written wrong:
    ``12/6 5/3`` for 61, ``12/6 5/4``); each nearest first to the play as written, at
    most :data:`_READINGS`."""
    named = {s.src for s in play.steps} | {s.dst for s in play.steps}
    rolled = pos.with_dice(*dice)
    me0 = pos.board[pos.turn]
    target = written.board[pos.turn] if written is not None else _moved(me0, play)
    found: list[tuple[int, int, Play, Position]] = []
    for key, legal in rolled.legal_results().items():
        me = key[0]
        if all(me[i] == me0[i] for i in range(len(me)) if i not in named):
            rank = 0  # (from and to the points written: the likeliest reading)
        elif target is not None and _slip(me, target, named):
            rank = 1
        else:
            continue
        distance = sum(abs(a - b) for a, b in zip(me, target or me0, strict=True))
        found.append((rank, distance, legal.ordered(), rolled._after(key)))
    found.sort(key=lambda item: item[:2])
    return [(legal, after) for _, _, legal, after in found[:_READINGS]]


def _dance_readings(
    rolled: Position, results: dict[Key, Play], rest: tuple[Action, ...]
) -> list[tuple[Play, Position, int]]:
    """The legal plays of a roll recorded with no move (``results`` from ``rolled``), the
    positions after them and how many of the record's next rolls fit each
    (:func:`_fits`, ``rest`` being the game's actions after the roll), likeliest first:
    those the record goes on from the furthest (a play lost from the record shows in the
    plays after it), then in the order the move generator found them. When more than
    :data:`_READINGS` fit every roll looked at, those are told apart by the rolls up to
    :data:`_LOOK_FURTHER`."""
    plays = [(play, rolled._after(key)) for key, play in results.items()]
    fits = [_fits(after, rest) for _, after in plays]
    further = [0] * len(plays)
    if fits.count(_FITS_ALL) > _READINGS:
        further = [
            _fits(after, rest, _LOOK_FURTHER) if n == _FITS_ALL else 0
            for (_, after), n in zip(plays, fits, strict=True)
        ]
    order = sorted(range(len(plays)), key=lambda i: (-fits[i], -further[i], i))
    return [(plays[i][0].ordered(), plays[i][1], fits[i]) for i in order]


def _index(actions: tuple[Action, ...], action: Action) -> int:
    """The index of ``action`` itself in ``actions`` (``index`` would find an equal action
    before it: the same roll and play written earlier in the game)."""
    return next(k for k, a in enumerate(actions) if a is action)


def _fits(pos: Position, rest: tuple[Action, ...], look_ahead: int = 0) -> int:
    """How many of the rolls of ``rest`` can be played in turn from ``pos`` as the record
    writes them (cube actions passed over); :data:`_FITS_ALL` when each of them fits, or
    the first ``look_ahead`` (:data:`_LOOK_AHEAD`), or those up to the game's end."""
    look_ahead = look_ahead or _LOOK_AHEAD
    fits = 0
    for action in rest:
        if not isinstance(action, Move):
            continue
        if fits == look_ahead:
            break
        if action.play is None or action.player != pos.turn:
            return fits
        try:
            if action.play.steps:
                pos = pos._resolve_checked(action.play, action.dice)[1]
            else:
                board, turn = pos.board, pos.turn
                if can_play(board[turn], board[1 - turn], *action.dice):
                    return fits
                pos = pos.with_dice(*action.dice).apply(Play(), check=False)
        except (BgkitError, ValueError):
            return fits
        if pos.game_state != GameState.PLAYING:
            break
        fits += 1
    return _FITS_ALL


def _slip(me: tuple[int, ...], written: tuple[int, ...], named: set[int]) -> bool:
    """Whether the mover's checkers ``me`` are those of the play made as written but for
    one checker that went to another point than the one the play names for it."""
    extra = [i for i in range(len(me)) if written[i] > me[i]]
    return (
        len(extra) == 1
        and extra[0] in named
        and sum(abs(a - b) for a, b in zip(me, written, strict=True)) == 2
    )


def _distinct(readings: list[_Reading], position: Position | None) -> list[_Reading]:
    """The readings whose positions differ from ``position`` (the game's) and from each
    other's (a reading that has come to the same position leaves no doubt), at most
    :data:`_READINGS`."""
    seen = {position.board} if position is not None else set()
    out = []
    for reading in readings:
        board = reading.position.board
        if board not in seen:
            seen.add(board)
            out.append(reading)
    return out[:_READINGS]


def _moved(side: tuple[int, ...], play: Play) -> tuple[int, ...] | None:
    """The mover's checkers after ``play``'s steps made as written on his side alone (a
    step onto a point the opponent holds counted as made), ``None`` when a step has no
    checker to move or goes to the bar or back from off."""
    me = list(side)
    for step in play.steps:
        if step.dst == BAR or step.src == OFF or me[step.src] == 0:
            return None
        me[step.src] -= 1
        me[step.dst] += 1
    return tuple(me)


def _pts(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _last_move(game: Game) -> int:
    """The record's number of the game's last move (1 when it has none)."""
    return move_number(max(1, sum(isinstance(a, Move) for a in game.actions)), game.actions)


def _unnamed(player: int | None) -> str:
    """How messages name a player whose record gives no name."""
    return f"player {1 if player == 0 else 2} (no name)"


def _describe(action: Action) -> str:
    return {
        Double: "a double",
        Take: "a take",
        Drop: "a drop",
        Beaver: "a beaver",
        Raccoon: "a raccoon",
        Move: "a roll",
    }.get(type(action), "an action")


def _kind_name(pos: Position) -> str:
    res = pos.game_result()
    if res is None:
        return "unfinished"
    return {ResultKind.SINGLE: "single game", ResultKind.GAMMON: "gammon"}.get(res[1], "backgammon")


def _points(points: frozenset[int]) -> str:
    return ", ".join(str(p) for p in sorted(points, reverse=True)) or "nothing"


def _clamp_score(score: tuple[int, int], length: int) -> tuple[int, int]:
    if not length:
        return score
    return (min(score[0], length - 1), min(score[1], length - 1))


def _writes_hit_marks(match: Match) -> bool:
    """Whether the record marks hits at all (some writers never write ``*``)."""
    if isinstance(match.games, GameStream):  # (read ahead to the first game with a hit)
        return match.games.any_game(_marks_hits)
    return any(_marks_hits(game) for game in match.games)


def _marks_hits(game: Game) -> bool:
    return any(isinstance(a, Move) and a.play is not None and a.play.hits() for a in game.actions)
