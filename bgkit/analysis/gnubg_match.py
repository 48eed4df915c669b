"""GNU Backgammon's own analysis of a whole match, in this process: what a season's worker
runs for each match it can (issue 31).

:func:`gnubg_analysis` hands gnubg the record as ``.mat`` text bgkit writes from the record
it read and replayed (gnubg's importer never sees the user's file), runs its ``analyse
match`` with one thread, saves the match as SGF and reads the figures back with
:func:`~bgkit.analysis.match.analysis_from_file`: the candidate plays, the cube decisions
and each roll's luck as gnubg's SGF writes them, and each game's luck as gnubg's
statistics sum it. gnubg analyses a match at about the cost of bgkit's own calls for the
luck of its rolls alone, so a season spread over the cores costs less.

It stands for bgkit's analysis only where it gives the same figures, in gnubg's own
terms: a match (not a money session) of 1 to 64 points of standard backgammon under
gnubg's rules, every game from the starting position and every play recorded, the
default match equity table, and a record that replays with no action at a cube above 64
(gnubg's tables stop there: it would read past them, and bgkit's analysis refuses such
a position, saying so); and only when gnubg's match, read back, has bgkit's games,
scores, results (the game that wins the match by the points it counts: :func:`_games`)
and every action by the same player, in order (else the caller runs
:func:`~bgkit.analysis.match.analyze`). The players' names are the record's, whatever
gnubg's import made of them. With one thread, and from an empty
position cache, its figures are those of gnubg analysing the record alone in a process
of its own (``tests/gnubg_reference.py``), whichever worker runs it.
"""

from __future__ import annotations

from dataclasses import replace

from bgkit.analysis.gnubg import empty_gnubg_cache
from bgkit.analysis.gnubg_process import (
    _lock,
    _searching,
    _session,
    gnubg_file,
    gnubg_module,
)
from bgkit.analysis.match import Analysis, _past_gnubg, _replay, analysis_from_file
from bgkit.analysis.met import DEFAULT_MET, MAX_LENGTH, met_name
from bgkit.analysis.recorded import same_action
from bgkit.errors import BgkitError
from bgkit.position import Position
from bgkit.records import Beaver, Match, Move, Raccoon

__all__ = ["gnubg_analysis", "gnubg_may_analyse", "gnubg_plays"]


def gnubg_may_analyse(match: Match, met: str | None = None) -> bool:
    """Whether :func:`gnubg_analysis` may stand for bgkit's analysis of ``match`` as it is
    written: a match of 1 to 64 points of standard backgammon under gnubg's rules (the
    Crawford rule, no cube limit), every game from the starting position, every play
    recorded, the default match equity table. Whether it does, the record's replay and
    gnubg's reading of it tell."""
    if match.length < 1 or (met is not None and met_name(met) != DEFAULT_MET):
        return False
    return gnubg_plays(match)


def gnubg_plays(match: Match) -> bool:
    """Whether gnubg's import plays ``match`` as it is written, a match of 1 to 64 points
    under the Crawford rule or a money session: standard backgammon, no cube limit, every
    game from the starting position, every play recorded, no beaver (gnubg's import makes
    other actions of one: 201 of a session bgkit reads as 199). What its own ``analyse
    move`` needs to stand for bgkit's searches (:mod:`bgkit.analysis.gnubg_moves`)."""
    if not 0 <= match.length <= MAX_LENGTH or match.variant != "standard":
        return False
    if match.length and not match.crawford:
        return False
    if match.cube_limit != Position.cube_limit:  # (the default: none)
        return False
    return all(
        game.setup is None
        and all(
            a.play is not None if isinstance(a, Move) else not isinstance(a, (Beaver, Raccoon))
            for a in game.actions
        )
        for game in match.games
    )


def gnubg_analysis(
    match: Match, plies: int, met: str | None = None, *, candidates: int | None = None
) -> Analysis | None:
    """gnubg's ``analyse match`` of ``match`` at ``plies`` (chequer play and cube; luck at
    0-ply), run in this process, or ``None`` when it cannot stand for
    :func:`~bgkit.analysis.match.analyze`'s (see the module's docstring). ``candidates``:
    how many of gnubg's best plays of each roll to keep in the notes, with every one
    up to the play made (``None``: all; the rows are the same either way).

    Runs gnubg's commands in this process (its thread pool set to one thread): for a
    process that analyses match after match, a season's or a Dask worker, or a forked
    one.
    """
    if not gnubg_may_analyse(match, met):
        return None
    try:
        steps, skipped = _replay(match)
    except BgkitError:
        return None  # (analyze says why, at its place)
    if skipped or not steps:
        return None
    if _past_gnubg(steps) is not None:
        return None  # (nothing unchecked reaches gnubg's C code: analyze says why)
    text = _analysed(match.to_mat(), plies)
    if text is None:
        return None
    from bgkit._gc import paused
    from bgkit.formats._analysis_faults import remembered
    from bgkit.formats.sgf import parse_sgf

    try:
        # (each roll's candidates checked as read, not again after; the collector off
        # while the match's objects are made, as for any record read: next to no cycles)
        with remembered(), paused():
            back = parse_sgf(text, source_name="match.sgf")
            # (the names are the record's: gnubg's import reads some otherwise, an empty
            # one as ": 0", and the figures do not depend on them)
            back = replace(back, players=match.players)
            result = analysis_from_file(back, candidates=candidates)
    except BgkitError:
        return None
    # the same actions, in order, each by the same player, with the same roll and play
    if len(result.where) != len(steps) or _games(back) != _games(match):
        return None
    for step, (game, action) in zip(steps, result.where, strict=True):
        if game != step.game_index or not same_action(step, back.games[game].actions[action]):
            return None
    return result


def _games(match: Match) -> list[tuple[object, ...]]:
    """Each game's starting score and result: who won, and the points that count (in the
    game that wins the match, no more than the winner needed: writers put the full value
    or the points needed, :data:`bgkit.verify.CONVENTIONS` ``capped-match-win``, and
    gnubg's import scores the game itself; the figures do not depend on it)."""
    found: list[tuple[object, ...]] = []
    for g in match.games:
        if g.result is None:
            found.append((g.score, None))
            continue
        winner = g.result.winner
        found.append((g.score, (winner, min(g.result.points, match.length - g.score[winner]))))
    return found


def _analysed(mat: str, plies: int) -> str | None:
    """The SGF gnubg saves after importing the ``.mat`` text ``mat`` and analysing it at
    ``plies`` (:func:`_analyse`), ``None`` when it saved none; both files in memory where
    the system has such files (:func:`~bgkit.analysis.gnubg_process.gnubg_file`)."""
    with gnubg_file("match.mat", mat.encode("utf-8")) as source, gnubg_file("match.sgf") as sgf:
        _analyse(source.path, sgf.path, plies)
        text = sgf.read()
    # (gnubg writes UTF-8; what it made of a name is not taken: the record's is)
    return text.decode("utf-8", "replace") if text else None


def _analyse(mat: str, sgf: str, plies: int) -> None:
    """gnubg imports ``mat``, analyses it at ``plies`` with one thread and saves it as
    ``sgf``, from an empty position cache of gnubg's default size, as in a process of its
    own: what its cache holds changes its figures in their last digits (measured: 0-ply
    seasons run on other workers gave a luck 1e-6 and a PR 1e-4 apart)."""
    empty_gnubg_cache()
    gnubg = gnubg_module()
    with _lock:
        session = _session()
        session.start_threads(gnubg, 1)
        session.forget()  # (an import sets the match's rules: given again when needed)
        _searching(plies)
        for kind in ("chequerplay", "cubedecision"):
            session.run(gnubg, f"set analysis {kind} evaluation plies {plies}")
        with session.one_cpu():
            session.run(gnubg, f"import mat {mat}")
            session.run(gnubg, "analyse match")
            session.run(gnubg, f"save match {sgf}")
