"""The replay verifier: every recorded action checked against the rules.

:func:`verify` replays each game of a :class:`~bgkit.records.Match` from the
starting position with the rules engine (:class:`~bgkit.position.Position`) and
collects an :class:`Issue` for every problem: illegal plays (with the reason),
dances recorded while a play existed, wrong hit marks, turns out of order,
opening doubles, cube actions the rules forbid, wrong cube values, results that
do not follow from the final position and cube, header scores that do not add
up, games after the match was won.

Nothing is repaired. After the first illegal play of a game the rest of that
game is not replayed (one ``UNVERIFIED`` note says which actions were skipped)
and the next game is checked from its own start.

>>> from bgkit.formats.mat import read_mat
>>> report = verify(read_mat("data/fixtures/handwritten_3pt_illegal2.mat"))
>>> report.ok
False
>>> print(report.issues[0].message)
illegal play 24/21 for 21: blocked: 22/21 lands on a point held by 3 opposing checkers
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from bgkit.errors import AmbiguousPlayError, BgkitError, IllegalActionError, IllegalPlayError
from bgkit.play import Play
from bgkit.position import GameState, Position, ResultKind
from bgkit.records import Action, Beaver, Double, Drop, Game, Match, Move, Raccoon, Take
from bgkit.replay import move_number

__all__ = ["Issue", "IssueKind", "Report", "Severity", "verify"]


class Severity(enum.Enum):
    """``ERROR``: the record breaks a rule. ``NOTE``: something could not be checked."""

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
    UNVERIFIABLE = "unverifiable"
    """A roll or play that the record does not give (``???``)."""
    UNVERIFIED = "unverified"
    """Actions not replayed because an earlier play of the game was illegal."""

    @property
    def severity(self) -> Severity:
        if self in (IssueKind.UNVERIFIABLE, IssueKind.UNVERIFIED):
            return Severity.NOTE
        return Severity.ERROR


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

    @property
    def severity(self) -> Severity:
        return self.kind.severity

    @property
    def location(self) -> str:
        """``file:line:col`` (as far as known)."""
        where = f"{self.line}:{self.column}"
        return f"{self.source_name}:{where}" if self.source_name else where

    def __str__(self) -> str:
        who = f", {self.player_name or f'player {self.player}'}" if self.player is not None else ""
        return f"{self.location}: {self.message} (game {self.game}, move {self.move}{who})"

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict with ``file, line, column, game, move, player, kind, message``."""
        return {
            "file": self.source_name,
            "line": self.line,
            "column": self.column,
            "game": self.game,
            "move": self.move,
            "player": self.player_name if self.player is not None else None,
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
        return tuple(i for i in self.issues if i.severity is Severity.ERROR)

    def __iter__(self) -> Iterator[Issue]:
        return iter(self.issues)

    def __len__(self) -> int:
        return len(self.issues)

    def raise_for_issues(self) -> None:
        """Raise every error at once as a :class:`VerificationError` (an ``ExceptionGroup``).

        Does nothing when the report is :attr:`ok`.
        """
        if self.errors:
            name = self.source_name or "record"
            raise VerificationError(
                f"{name}: {len(self.errors)} issue(s)", [i.to_exception() for i in self.errors]
            )


def verify(match: Match, *, stop_at_first: bool = False) -> Report:
    """Replay every game of ``match`` and report every problem found.

    Never raises for problems in the record: they are returned in the report.

    :param stop_at_first: stop at the first error (``bgkit verify --strict``).
    """
    checker = _MatchChecker(match, stop_at_first=stop_at_first)
    checker.run()
    return Report(
        tuple(checker.issues),
        games=len(match.games),
        actions_checked=checker.checked,
        source_name=match.source_name,
    )


@dataclass
class _MatchChecker:
    match: Match
    stop_at_first: bool = False
    issues: list[Issue] = field(default_factory=list)
    checked: int = 0
    hit_marks: bool = True
    exchange: str | None = None
    """Within a cube exchange: "double", "beaver" or "raccoon" was the last word."""
    dropped: tuple[int, int] | None = None
    """(winner, points) of the game ended by a drop."""

    def run(self) -> None:
        m = self.match
        self.hit_marks = _writes_hit_marks(m)
        expected: tuple[int, int] | None = None
        match_over_at: int | None = None
        for index, game in enumerate(m.games):
            if self.stop_at_first and self.issues:
                return
            if match_over_at is not None:
                self.add(
                    IssueKind.MATCH_END,
                    f"game {game.number} is played after the match was won in game {match_over_at}",
                    game,
                    1,
                    None,
                    game.line,
                    1,
                )
            elif index and expected is not None and game.score != expected:
                self.add(
                    IssueKind.SCORE,
                    f"the score at the start of game {game.number} should be"
                    f" {expected[0]}-{expected[1]}, not {game.score[0]}-{game.score[1]}",
                    game,
                    1,
                    None,
                    game.line,
                    1,
                )
            won = self.check_game(game, index)
            score = game.score if expected is None or index == 0 else expected
            if won is not None:
                winner, points = won
                s = list(score)
                s[winner] += points
                expected = (s[0], s[1])
                if m.length and max(expected) >= m.length and match_over_at is None:
                    match_over_at = game.number
            else:
                expected = score
            if (
                game.result is not None
                and game.result.match_won
                and (m.length == 0 or expected is None or max(expected) < m.length)
            ):
                self.add(
                    IssueKind.MATCH_END,
                    "the record says this game wins the match, but the score"
                    f" {expected[0] if expected else 0}-{expected[1] if expected else 0}"
                    f" does not reach {m.length}",
                    game,
                    1,
                    game.result.winner,
                    game.result.line,
                    game.result.column,
                )

    # ---------------------------------------------------------------- one game

    def check_game(self, game: Game, index: int) -> tuple[int, int] | None:
        """Replay one game; return ``(winner, points)`` as recorded (for the running score)."""
        pos = self.start_position(game, index)
        self.exchange, self.dropped = None, None
        if pos is None:
            return self.recorded_result(game)
        turn_no = 0
        started = False
        actions = game.actions
        stopped_at: int | None = None
        ended = False
        for i, action in enumerate(actions):
            if self.stop_at_first and any(x.severity is Severity.ERROR for x in self.issues):
                return self.recorded_result(game)
            if isinstance(action, Move):
                turn_no += 1
            move_no = action.number or move_number(
                max(turn_no, 1) if isinstance(action, Move) else turn_no + 1, actions
            )
            if ended:
                self.add_at(
                    IssueKind.TURN_ORDER,
                    f"{_describe(action)} after the game had ended",
                    game,
                    move_no,
                    action,
                )
                stopped_at = i + 1
                break
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
                        pos = replace(pos, turn=action.player)
                self.exchange = None  # a roll closes any beaver exchange (implicit take)
                if action.player != pos.turn:
                    self.add_at(
                        IssueKind.TURN_ORDER,
                        f"{self.name(action.player)} rolls out of turn:"
                        f" {self.name(pos.turn)} was to "
                        + ("answer the double" if pos.doubled else "roll"),
                        game,
                        move_no,
                        action,
                    )
                    stopped_at = i + 1
                    break
                new = self.check_move(game, move_no, pos, action, last=i == len(actions) - 1)
                if new is None:
                    stopped_at = i + 1
                    break
                pos = new
                ended = pos.game_state != GameState.PLAYING
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
                new = self.check_cube(game, move_no, pos, action)
                if new is None:
                    stopped_at = i + 1
                    break
                pos = new
                ended = pos.game_state != GameState.PLAYING
        if stopped_at is not None and stopped_at < len(actions):
            rest = actions[stopped_at:]
            first = rest[0]
            self.add(
                IssueKind.UNVERIFIED,
                f"{len(rest)} later action(s) of game {game.number} not verified",
                game,
                first.number or move_number(turn_no + 1, actions),
                None,
                first.line,
                first.column,
            )
            return self.recorded_result(game)
        if stopped_at is not None:
            return self.recorded_result(game)
        self.check_result(game, pos)
        return self.recorded_result(game) or self.actual_result(pos)

    def start_position(self, game: Game, index: int) -> Position | None:
        """The game's starting position, or ``None`` (with a note) when it cannot be set up."""
        m = self.match
        try:
            if m.length and max(game.score) >= m.length:
                # a game after the match was won (reported): replay it at a legal score
                game = replace(game, score=_clamp_score(game.score, m.length))
                m = replace(m, games=(*m.games[:index], game, *m.games[index + 1 :]))
            pos = m.initial_position(index)
        except (BgkitError, ValueError) as err:
            self.add(
                IssueKind.UNVERIFIABLE,
                f"cannot set up game {game.number}: {err}",
                game,
                1,
                None,
                game.line,
                0,
            )
            return None
        return pos

    def check_move(
        self, game: Game, move_no: int, pos: Position, action: Move, *, last: bool
    ) -> Position | None:
        d1, d2 = action.dice
        who = action.player
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
            if results and not (last and game.result is not None):
                example = next(iter(results.values()))
                self.add_at(
                    IssueKind.ILLEGAL_DANCE,
                    f"no move recorded for {roll}, but {example} was possible",
                    game,
                    move_no,
                    action,
                )
                return None
            if results:
                # rolled, then resigned before moving (gnubg's reading of the record)
                return rolled
            return rolled.apply(Play())
        try:
            resolved, after, as_written = pos._resolve_checked(action.play, (d1, d2))
        except IllegalPlayError as err:
            written = action.play.spelled()
            self.add_at(
                IssueKind.ILLEGAL_PLAY,
                f"illegal play {written} for {roll}: {err.reason.removeprefix(written + ' ')}",
                game,
                move_no,
                action,
            )
            return None
        except AmbiguousPlayError as err:
            self.add(
                IssueKind.AMBIGUOUS_PLAY, str(err), game, move_no, who, action.line, action.column
            )
            return None
        if not as_written:
            self.add_at(
                IssueKind.WRITTEN_PATH,
                f"{action.play.spelled()} cannot be played as written with {roll}; the same result"
                f" comes from {resolved.spelled()}",
                game,
                move_no,
                action,
            )
        if self.hit_marks:
            marked, hits = action.play.hits(), resolved.hits()
            if marked != hits:
                self.add_at(
                    IssueKind.HIT_MARK,
                    f"hit marks in {action.play.spelled()} disagree with the play:"
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
                    return new
                if pos.doubled:
                    raise IllegalActionError("cannot double: a double is already pending")
                if who != pos.turn:
                    raise IllegalActionError(
                        f"cannot double: it is {self.name(pos.turn)}'s turn to roll"
                    )
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
                return pos.take()
            if isinstance(action, Drop):
                self.dropped = (pos.turn, pos.cube)
                return pos.drop()
            new = pos.beaver()
            self.exchange = "beaver"
            self.check_value(new.cube, action, where)
            return new
        except IllegalActionError as err:
            self.add(IssueKind.CUBE_ACTION, str(err), *where)
            return None

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

    def check_result(self, game: Game, pos: Position) -> None:
        m = self.match
        result = game.result
        actual = self.actual_result(pos)
        if result is None:
            return
        where_line, where_col = result.line, result.column
        move_no = move_number(sum(isinstance(a, Move) for a in game.actions), game.actions)
        needed = m.length - game.score[result.winner] if m.length else None
        if actual is not None:
            winner, points = actual
            ok_points = {points}
            if needed is not None:
                ok_points.add(min(points, needed))
            if result.winner != winner:
                self.add(
                    IssueKind.RESULT,
                    f"the record gives the game to {self.name(result.winner)}, but"
                    f" {self.name(winner)} won it",
                    game,
                    move_no,
                    result.winner,
                    where_line,
                    where_col,
                )
            elif result.points not in ok_points:
                how = (
                    "the double was dropped"
                    if pos.game_state == GameState.DROPPED
                    else _kind_name(pos)
                )
                self.add(
                    IssueKind.RESULT,
                    f"the game is worth {points} point(s) ({how}, cube {pos.cube}),"
                    f" not {result.points}",
                    game,
                    move_no,
                    result.winner,
                    where_line,
                    where_col,
                )
            return
        # unfinished game: the loser resigned; the value must be 1, 2 or 3 x cube
        values = {pos.cube * k for k in (1, 2, 3)}
        if not m.length and pos.jacoby and pos.cube_owner is None and pos.cube == 1:
            values = {1}
        if needed is not None:
            values |= {min(v, needed) for v in values}
        if result.points not in values:
            self.add(
                IssueKind.RESULT,
                f"a resignation is worth 1, 2 or 3 times the cube ({pos.cube}),"
                f" not {result.points} point(s)",
                game,
                move_no,
                result.winner,
                where_line,
                where_col,
            )

    # ---------------------------------------------------------------- helpers

    def name(self, player: int) -> str:
        name = self.match.players[player] if 0 <= player < 2 else ""
        return name or f"player {player}"

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
                source_name=self.match.source_name,
                line=line,
                column=column,
            )
        )


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
    for game in match.games:
        for action in game.actions:
            if isinstance(action, Move) and action.play and action.play.hits():
                return True
    return False
