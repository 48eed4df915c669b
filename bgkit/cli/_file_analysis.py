"""``bgkit hint`` of an XG position file (``.xgp``): XG's own analysis, from the file.

An ``.xgp`` holds XG's analysis of its position (the candidate plays of the roll, the cube
decision before it, rolled out or evaluated); ``bgkit hint`` prints it as XG wrote it
instead of asking GNU Backgammon (``--gnubg`` asks gnubg). Every figure is XG's: equities
in XG's units from the view of the player who acts, the level as XG names it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bgkit.formats.annotations import CubeAnalysis, PositionExport, Probabilities, Rollout

__all__ = ["file_analysis", "file_hint_dict", "file_hint_text"]


def file_analysis(argument: str) -> PositionExport | None:
    """The position of ``argument`` with XG's analysis, when it names an XG position file
    that holds some; ``None`` for anything else (a notation, another file).

    :raises NotationError: when it is an XG file that cannot be read as a position.
    :raises OSError: when it cannot be read.
    """
    from bgkit.formats import read_file
    from bgkit.formats.xg import parse_xgp, sniff_xg

    if "\n" in argument or not Path(argument).is_file():
        return None
    with Path(argument).open("rb") as head:
        if not sniff_xg(head.read(4)):
            return None
    export = parse_xgp(read_file(argument), source_name=argument)
    return export if export.checker is not None or export.cube is not None else None


def file_hint_text(export: PositionExport, candidates: int) -> str:
    """XG's analysis of the position as ``bgkit hint`` prints it."""
    from bgkit.cli.hint import _chances

    pos = export.position
    lines = [pos.xgid(), "  eXtreme Gammon's analysis, from the file:"]
    checker = export.checker
    if pos.dice is not None and checker is not None:
        best = checker.candidates[0].equity if checker.candidates else 0.0
        for rank, c in enumerate(checker.candidates[:candidates], 1):
            diff = f" ({c.equity - best:+.3f})" if rank > 1 else ""
            chances = _chances(c.probabilities.values()) if c.probabilities else ""
            lines.append(
                f"  {rank}. {c.play!s:<24} {c.equity:+.3f}{diff:<10} {chances}  {c.level or ''}"
            )
            if c.rollout is not None:
                lines.append(f"     {_rollout_text(c.rollout)}")
    if export.cube is not None:
        lines += _cube_lines(export.cube)
    return "\n".join(line.rstrip() for line in lines)


def file_hint_dict(export: PositionExport, candidates: int) -> dict[str, Any]:
    """The JSON object ``bgkit hint --json`` prints for XG's analysis of the position."""
    pos = export.position
    out: dict[str, Any] = {
        "position": pos.xgid(),
        "gnubg_id": f"{pos.gnubg_id()}:{pos.match_id()}",
        "source": "eXtreme Gammon (from the file)",
    }
    checker = export.checker
    if pos.dice is not None and checker is not None:
        out["dice"] = list(pos.dice)
        best = checker.candidates[0].equity if checker.candidates else 0.0
        out["plays"] = [
            {
                "play": str(c.play),
                "equity": c.equity,
                "difference": c.equity - best,
                "probabilities": _values(c.probabilities),
                "level": c.level,
                "rollout": _rollout_dict(c.rollout),
            }
            for c in checker.candidates[:candidates]
        ]
    cube = export.cube
    if cube is not None:
        out["cube"] = {
            "no_double": cube.no_double,
            "double_take": cube.double_take,
            "double_pass": cube.double_pass,
            "proper_action": cube.proper_action,
            "probabilities": _values(cube.probabilities),
            "level": cube.level,
            "rollout": _rollout_dict(cube.rollout),
            "double_rollout": _rollout_dict(cube.double_rollout),
        }
    return out


def _cube_lines(cube: CubeAnalysis) -> list[str]:
    level = f" ({cube.level})" if cube.level else ""
    lines = [f"  cube decision before the roll{level}:"]
    if cube.probabilities is not None:
        lines.append(f"  chances before the roll: {_chances_of(cube.probabilities)}")
    nd, dt, dp = cube.no_double, cube.double_take, cube.double_pass
    if nd is not None:
        lines.append(f"  no double     {nd:+.3f}")
        if cube.rollout is not None:
            lines.append(f"     {_rollout_text(cube.rollout)}")
        for word, value in (("double, take ", dt), ("double, pass ", dp)):
            if value is not None:
                lines.append(f"  {word} {value:+.3f} ({value - nd:+.3f})")
                if word.startswith("double, take") and cube.double_rollout is not None:
                    lines.append(f"     {_rollout_text(cube.double_rollout)}")
    if cube.proper_action is not None:
        lines.append(f"  proper cube action: {cube.proper_action}")
    return lines


def _rollout_text(r: Rollout) -> str:
    """``rollout: 1296 trials, ±0.009 (95%), checker play 4-ply, cube XG Roller, ...``"""
    parts = [f"rollout: {r.trials} trials"]
    if r.confidence is not None:
        parts.append(f"±{r.confidence:.3f} (95%)")
    parts.append(f"truncated at {r.truncation}" if r.truncation is not None else "not truncated")
    if r.checker_level:
        parts.append(f"checker play {r.checker_level}")
    parts.append(f"cube {r.cube_level}" if r.cube_level else "cubeless")
    if r.late_from is not None:
        parts.append(
            f"from ply {r.late_from} {r.late_checker_level}"
            + (f", cube {r.late_cube_level}" if r.late_cube_level else "")
        )
    if r.variance_reduction:
        parts.append("variance reduction")
    if r.seed is not None:
        parts.append(f"seed {r.seed}")
    return ", ".join(parts)


def _rollout_dict(r: Rollout | None) -> dict[str, Any] | None:
    if r is None:
        return None
    return {
        "trials": r.trials,
        "truncation": r.truncation,
        "standard_error": r.standard_error,
        "confidence": r.confidence,
        "checker_level": r.checker_level,
        "cube_level": r.cube_level,
        "variance_reduction": r.variance_reduction,
        "seed": r.seed,
    }


def _values(p: Probabilities | None) -> list[float] | None:
    return None if p is None else list(p.values())


def _chances_of(p: Probabilities) -> str:
    from bgkit.cli.hint import _chances

    return _chances(p.values())
