"""A match viewer in one HTML fragment: one large board to step through a match.

:func:`viewer_html` returns a self-contained ``<div>`` (its data, style and a small
plain script, no framework, nothing fetched) that shows a match action by action on one
board scaled to the screen: the arrow keys, the buttons or a swipe step through every
recorded action (and the end of each game); a move list jumps anywhere. With an analysis
it shows beside the board the ranked candidates of each roll (choosing one shows where
it leads), the play made (solid arrows) and the best play (dashed arrows), the cube
decision with its three equities and the chances behind them, the marks (``?!``, ``?``,
``??``) and the luck of each roll. Each step shows its GNU Backgammon Position ID and
Match ID.

The page does not hold a drawn board per step: :func:`viewer_data` gives each position
as 26 characters (the signed checker counts of :meth:`Position.signed_points
<bgkit.position.Position.signed_points>` from player 1's side, in XGID's letters) and
the script draws the board of the step shown. The HTML report
(:mod:`bgkit.reports.match_report`) embeds it, and so do ``_repr_html_`` of
:class:`~bgkit.records.Match`, :class:`~bgkit.analysis.match.Analysis` and
:class:`~bgkit.reports.match_report.MatchReport` in Jupyter (each output carries its data
and script: no server). Elements with a ``data-bgv-step`` attribute anywhere in the page
(the points of the report's equity figure) go to that step when clicked.

>>> from bgkit.formats.mat import read_mat
>>> match = read_mat("data/fixtures/handwritten_3pt.mat")
>>> data = viewer_data(match)
>>> data["steps"][0]["id"], data["steps"][0]["b"]
('4HPwATDgc/ABMA', '-b----E-C---eE---c-e----B-')
>>> fragment = viewer_html(match)
>>> fragment.startswith('<div class="bgkit-viewer"'), fragment.count("<script")
(True, 2)
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from bgkit.position import Position

if TYPE_CHECKING:
    from bgkit.analysis.match import Analysis
    from bgkit.play import Play
    from bgkit.records import Match

__all__ = ["board_code", "board_entry", "boards_html", "step_indices", "viewer_data", "viewer_html"]


def board_code(pos: Position) -> str:
    """The checkers of ``pos`` in 26 characters, from player 1's side (XGID's letters).

    Index 0 is player 0's bar, 1-24 the points as player 1 counts them, 25 player 1's
    bar; ``-`` empty, ``A``-``O`` player 1's checkers, ``a``-``o`` player 0's.
    """
    out = []
    for n in pos.signed_points(1):
        out.append("-" if n == 0 else chr(64 + n) if n > 0 else chr(96 - n))
    return "".join(out)


def _steps(play: Play | None) -> list[list[int]]:
    """A play's steps as ``[from, to]`` in the mover's numbering (25 bar, 0 off)."""
    return [] if play is None else [[int(s.src), int(s.dst)] for s in play.steps]


def _num(value: Any, digits: int = 4) -> float | None:
    """A float rounded for the page, ``None`` for a missing or NaN value."""
    if value is None:
        return None
    number = float(value)
    return None if math.isnan(number) else round(number, digits)


def viewer_data(match: Match, analysis: Analysis | None = None) -> dict[str, Any]:
    """The viewer's data: the match and one entry per step (JSON-ready).

    A step is a recorded action (``k``: ``move``, ``double``, ``take``, ...) with the
    position before it, or the end of a game (``k`` = ``end``) with the final position.
    With ``analysis`` (of ``match``) the steps carry the marks, luck, candidates and
    cube decisions.
    """
    names = match.players
    where = {} if analysis is None else {at: i for i, at in enumerate(analysis.where)}
    steps: list[dict[str, Any]] = []
    for index in range(len(match.games)):
        steps += _game_steps(match, index, analysis, where)
    return {
        "names": list(names),
        "length": match.length,
        "checkers": 15,
        "analysed": analysis is not None,
        "steps": steps,
    }


def _game_steps(
    match: Match,
    index: int,
    analysis: Analysis | None,
    where: dict[tuple[int, int], int],
) -> list[dict[str, Any]]:
    """The steps of game ``index``, up to where the record stops saying what happened
    (a play it does not give, ``???``, or a line it could not read), then its end;
    ``where`` gives the analysis row of each (game, action)."""
    from bgkit.errors import BgkitError
    from bgkit.replay import replay_game

    names = match.players
    steps: list[dict[str, Any]] = []
    last: Any = None
    stopped: str | None = None
    try:
        for step in replay_game(match, index):
            steps.append(_entry(step, analysis, where.get((step.game_index, step.action_index))))
            last = step
    except (BgkitError, ValueError) as err:
        stopped = str(err)
    if last is not None:
        steps.append(_end(last, names, stopped))
    return steps


def _entry(step: Any, analysis: Analysis | None, row: int | None) -> dict[str, Any]:
    """One step's entry, with its analysis when ``analysis`` has a row for it."""
    pos = step.before
    entry: dict[str, Any] = {
        "g": step.game.number,
        "n": step.move_number,
        "p": step.player,
        "k": step.kind,
        "id": pos.gnubg_id(),
        "mid": pos.match_id(),
        "b": board_code(pos),
        "s": f"{pos.score[0]}-{pos.score[1]}",
        "c": [pos.cube, -1 if pos.cube_owner is None else pos.cube_owner],
    }
    if pos.crawford:
        entry["cr"] = 1
    if step.kind == "move":
        action = step.action
        dice = getattr(action, "dice", None)
        if dice:
            entry["d"] = f"{dice[0]}{dice[1]}"
        entry["t"] = (
            "(cannot move)"
            if step.play is not None and not step.play
            else (str(step.play) if step.play is not None else "(no play: resigns)")
        )
        entry["pa"] = _steps(step.play)
    if analysis is not None and row is not None:
        _analysis_of(entry, step, analysis.rows[row], analysis.notes[row])
    return entry


def _end(step: Any, names: tuple[str, str], stopped: str | None = None) -> dict[str, Any]:
    """The step that shows a game's final position and result (or, ``stopped``, why the
    record says no more of the game)."""
    pos = step.after
    result = step.game.result
    if stopped is not None:
        text = f"the record says no more of this game: {stopped}"
    elif result is None:
        text = "the game is not finished in the record"
    else:
        points = f"{result.points} point{'' if result.points == 1 else 's'}"
        text = f"{names[result.winner]} wins {points}" + (
            " and the match" if result.match_won else ""
        )
    return {
        "g": step.game.number,
        "n": step.move_number,
        "p": step.player,
        "k": "end",
        "id": pos.gnubg_id(),
        "mid": pos.match_id(),
        "b": board_code(pos),
        "s": f"{pos.score[0]}-{pos.score[1]}",
        "c": [pos.cube, -1 if pos.cube_owner is None else pos.cube_owner],
        "t": text,
    }


def _analysis_of(entry: dict[str, Any], step: Any, row: dict[str, Any], note: Any) -> None:
    """Add a step's analysis (marks, luck, candidates, cube) to its entry."""
    skill = row.get("skill") if step.kind == "move" else row.get("cube_skill")
    if skill:
        entry["m"] = str(skill)
    if row.get("cube_skill") and step.kind == "move":
        entry["cm"] = str(row["cube_skill"])
    if row.get("luck"):
        entry["l"] = str(row["luck"])
    luck = _num(row.get("luck_emg"))
    if luck is not None:
        entry["lu"] = luck
    error = _num(row.get("error_emg") if step.kind == "move" else row.get("cube_error_emg"))
    if error:
        entry["er"] = round(1000 * error, 1)
    if note is None:
        return
    if note.checker is not None and note.checker.candidates and step.kind == "move":
        candidates = []
        for cand in note.checker.candidates:
            chances = cand.probabilities
            candidates.append(
                [
                    str(cand.play) or "(cannot move)",
                    _num(cand.equity),
                    _num(chances.win, 3) if chances is not None else None,
                    _num(chances.win_gammon, 3) if chances is not None else None,
                    _num(chances.lose_gammon, 3) if chances is not None else None,
                    _steps(cand.play),
                ]
            )
        entry["cs"] = candidates
        played = note.checker.played
        entry["pi"] = -1 if played is None else played
        if played is not None and candidates[played][5] == entry.get("pa"):
            del entry["pa"]  # (the script takes the play made from its candidate)
            if candidates[played][0] == entry.get("t"):
                del entry["t"]
    if note.cube is not None:
        cube = note.cube
        chances = cube.probabilities
        entry["cu"] = {
            "nd": _num(cube.no_double),
            "dt": _num(cube.double_take),
            "dp": _num(cube.double_pass),
            "v": str(cube.verdict or cube.proper_action or ""),
            "w": _num(chances.win) if chances is not None else None,
            "wg": _num(chances.win_gammon) if chances is not None else None,
            "lg": _num(chances.lose_gammon) if chances is not None else None,
            "er": round(1000 * float(row.get("cube_error_emg") or 0.0), 1),
            "act": str(row.get("cube_action") or ""),
        }


def step_indices(rows: list[dict[str, Any]]) -> list[int]:
    """The viewer step of each analysis row (the viewer adds a step at each game's end)."""
    out: list[int] = []
    games = 0
    last = None
    for i, row in enumerate(rows):
        if last is not None and row["game"] != last:
            games += 1
        last = row["game"]
        out.append(i + games)
    return out


def board_entry(
    pos: Position,
    played: Play | None = None,
    best: Play | None = None,
    names: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """A position for :func:`boards_html`: ``pos`` (with its dice), the play made (solid
    arrows) and the best play (dashed), the players' names."""
    entry: dict[str, Any] = {
        "k": "move" if pos.dice else "position",
        "p": pos.turn,
        "b": board_code(pos),
        "s": f"{pos.score[0]}-{pos.score[1]}",
        "c": [pos.cube, -1 if pos.cube_owner is None else pos.cube_owner],
        "len": pos.match_length,
        "pa": _steps(played),
    }
    if pos.dice:
        entry["d"] = f"{pos.dice[0]}{pos.dice[1]}"
    if best is not None and best != played:
        entry["bs"] = _steps(best)
    if names is not None:
        entry["nm"] = list(names)
    return entry


def boards_html(entries: list[dict[str, Any]]) -> str:
    """The data and script that draw ``entries`` (:func:`board_entry`) into the elements
    ``<div data-bgv-board="i">`` of the same parent element, as the viewer draws its board."""
    data = _json({"names": ["", ""], "length": 0, "checkers": 15, "steps": entries})
    return (
        f'<script type="application/json" class="bgv-boards">{data}</script>'
        f"<script>{VIEWER_JS}\nbgkitViewer.boards(document.currentScript.previousSibling);"
        "</script>"
    )


def _json(data: Any) -> str:
    """JSON safe inside a ``<script>`` element."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def viewer_html(
    match: Match,
    analysis: Analysis | None = None,
    *,
    keys: str = "focus",
    style: bool = True,
) -> str:
    """The viewer as one HTML fragment (data, style and script included).

    :param analysis: the match's analysis, for candidates, cube decisions, marks and luck.
    :param keys: ``"page"``: the arrow keys work anywhere on the page (a report with one
        viewer); ``"focus"``: once the viewer has been clicked or focused (a notebook).
    :param style: include the style sheet (a page with several viewers needs it once).
    """
    data = _json(viewer_data(match, analysis))
    css = f"<style>{VIEWER_CSS}</style>" if style else ""
    return (
        f'<div class="bgkit-viewer" tabindex="0" data-keys="{keys}"'
        ' aria-label="match viewer: arrow keys step through the match">'
        f"{css}"
        "<noscript><p>The match viewer needs JavaScript.</p></noscript>"
        f'<script type="application/json" class="bgv-data">{data}</script>'
        f"<script>{VIEWER_JS}\nbgkitViewer(document.currentScript.parentNode);</script>"
        "</div>"
    )


VIEWER_CSS = """
.bgkit-viewer { font-family: system-ui, sans-serif; font-size: 15px; color: #222;
  line-height: 1.35; outline: none; max-width: 100%; box-sizing: border-box; }
.bgkit-viewer * { box-sizing: border-box; }
.bgv-main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
@media (min-width: 860px) {
  .bgv-main { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
}
.bgv-board svg { display: block; width: 100%; height: auto; max-height: 78vh;
  touch-action: pan-y; user-select: none; }
.bgv-bar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin: 6px 0; }
.bgv-bar button, .bgv-list button { font: inherit; font-size: 15px; padding: 4px 10px;
  border: 1px solid #aaa; border-radius: 6px; background: #f6f6f6; cursor: pointer; }
.bgv-bar button:hover { background: #e8eefc; }
.bgv-count { color: #555; font-size: 14px; }
.bgv-head { font-weight: 600; margin: 2px 0 4px; overflow-wrap: anywhere; }
.bgv-ids { font-family: ui-monospace, monospace; font-size: 13px; color: #444;
  overflow-wrap: anywhere; }
.bgv-note { margin: 4px 0; overflow-wrap: anywhere; }
.bgv-mark { color: #b00020; font-weight: 700; }
.bgv-cands { border-collapse: collapse; width: 100%; font-size: 14px; margin: 4px 0; }
.bgv-cands th, .bgv-cands td { padding: 3px 4px; border-bottom: 1px solid #e4e4e4;
  text-align: right; white-space: nowrap; }
.bgv-cands th:first-child, .bgv-cands td:first-child { text-align: left; }
.bgv-cands td.bgv-play { text-align: left; white-space: normal; overflow-wrap: anywhere; }
.bgv-cands tbody tr { cursor: pointer; }
.bgv-cands tbody tr:hover { background: #f0f4ff; }
.bgv-cands tr.bgv-played td { font-weight: 700; }
.bgv-cands tr.bgv-chosen { background: #dfe8ff; }
.bgv-key { display: inline-block; width: 22px; height: 6px; vertical-align: middle;
  margin: 0 4px 0 8px; }
.bgv-list { max-height: 320px; overflow-y: auto; border: 1px solid #ddd; padding: 4px;
  margin-top: 8px; font-size: 14px; }
.bgv-list h4 { margin: 6px 0 2px; font-size: 14px; }
.bgv-list button { display: block; width: 100%; text-align: left; border: 0;
  background: none; padding: 2px 6px; border-radius: 4px; font-size: 14px;
  overflow-wrap: anywhere; }
.bgv-list button.bgv-now { background: #dfe8ff; }
.bgv-list button.bgv-err { color: #b00020; }
.bgv-help { color: #555; font-size: 13px; }
"""

VIEWER_JS = r"""
var bgkitViewer = window.bgkitViewer || (function () {
"use strict";
var R = 17, PW = 36, CW = 46, F = 10, BW = 40, TW = 44, MID = 46, INFO = 28, NUM = 22;
var XL = CW + F, XLE = XL + 6 * PW, XR = XLE + BW, XRE = XR + 6 * PW, XT = XRE + F;
var W = XT + TW + F, PL = 10 * R, YT = INFO + NUM + F, YB = YT + 2 * PL + MID;
var YM = (YT + YB) / 2, H = YB + F + NUM + INFO, XBAR = (XLE + XR) / 2;
var INK = ["#fbfaf5", "#2f2f2f"], EDGE = ["#444", "#000"];
var SIGNS = {"doubtful": "?!", "bad": "?", "very bad": "??"};
function esc(s) {
  return String(s).replace(/[&<>"']/g, function (c) {
    return {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c];
  });
}
function decode(b) {
  var a = [];
  for (var i = 0; i < 26; i++) {
    var c = b.charCodeAt(i);
    a.push(c === 45 ? 0 : c < 96 ? c - 64 : 96 - c);
  }
  return a;
}
function px(p) {
  if (p <= 6) return XRE - (p - 0.5) * PW;
  if (p <= 12) return XLE - (p - 6.5) * PW;
  if (p <= 18) return XL + (p - 12.5) * PW;
  return XR + (p - 18.5) * PW;
}
function gap(n) { return n > 5 ? (PL - 2 * R) / (n - 1) : 2 * R; }
function py(p, k, n) {
  return p > 12 ? YT + R + k * gap(n) : YB - R - k * gap(n);
}
// where a player's checker on point q (its own numbering; 25 bar, 0 off) is drawn
function spot(q, who, a) {
  if (q === 25) return [XBAR, who === 1 ? YM - MID / 2 - R : YM + MID / 2 + R];
  if (q === 0) return [XT + TW / 2, who === 1 ? YB - 40 : YT + 40];
  var p = who === 1 ? q : 25 - q, n = Math.abs(a[p]);
  var k = Math.max(0, Math.min(n, 5) - 1);
  return [px(p), py(p, k, Math.min(n, 5))];
}
function checker(x, y, who) {
  return '<circle cx="' + x + '" cy="' + y + '" r="' + (R - 1) + '" fill="' + INK[who] +
    '" stroke="' + EDGE[who] + '" stroke-width="1.5"/>';
}
function label(x, y, text, size, color, anchor) {
  return '<text x="' + x + '" y="' + y + '" font-size="' + size + '" fill="' +
    (color || "#222") + '" text-anchor="' + (anchor || "middle") +
    '" dominant-baseline="central">' + esc(text) + "</text>";
}
function die(x, y, v, who) {
  var s = 34, o = [], h = s / 2, q = s / 4;
  var pips = {1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
    4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
    6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]]}[v] || [];
  o.push('<rect x="' + (x - h) + '" y="' + (y - h) + '" width="' + s + '" height="' + s +
    '" rx="6" fill="' + INK[who] + '" stroke="' + EDGE[who] + '" stroke-width="1.5"/>');
  pips.forEach(function (d) {
    o.push('<circle cx="' + (x + d[0] * q * 1.2) + '" cy="' + (y + d[1] * q * 1.2) +
      '" r="3.4" fill="' + INK[1 - who] + '"/>');
  });
  return o.join("");
}
function arrow(from, to, color, dash) {
  var dx = to[0] - from[0], dy = to[1] - from[1], l = Math.sqrt(dx * dx + dy * dy) || 1;
  var ux = dx / l, uy = dy / l, hx = to[0] - ux * 14, hy = to[1] - uy * 14;
  var line = '<line x1="' + from[0] + '" y1="' + from[1] + '" x2="' + hx + '" y2="' + hy +
    '" stroke="' + color + '" stroke-width="4.5" stroke-linecap="round"' +
    (dash ? ' stroke-dasharray="9 7"' : "") + ' opacity="0.9"/>';
  var head = '<polygon points="' + to[0] + "," + to[1] + " " + (hx - uy * 8) + "," +
    (hy + ux * 8) + " " + (hx + uy * 8) + "," + (hy - ux * 8) + '" fill="' + color +
    '" opacity="0.9"/>';
  return line + head;
}
function arrows(steps, who, a, color, dash) {
  var o = [];
  (steps || []).forEach(function (s) {
    o.push(arrow(spot(s[0], who, a), spot(s[1], who, a), color, dash));
  });
  return o.join("");
}
// the board after a play: steps [from, to] in the mover's numbering (25 bar, 0 off)
function apply(a, steps, who) {
  var b = a.slice(), s = who === 1 ? 1 : -1;
  (steps || []).forEach(function (st) {
    var f = st[0], t = st[1];
    b[f === 25 ? (who === 1 ? 25 : 0) : who === 1 ? f : 25 - f] -= s;
    if (t === 0) return;
    var ti = who === 1 ? t : 25 - t;
    if (b[ti] === -s) { b[ti] = 0; b[who === 1 ? 0 : 25] -= s; }
    b[ti] += s;
  });
  return b;
}
function code(a) {
  return a.map(function (n) {
    return n === 0 ? "-" : String.fromCharCode(n > 0 ? 64 + n : 96 - n);
  }).join("");
}
function pips(a) {
  var x = 0, o = 0;
  for (var p = 1; p <= 24; p++) {
    if (a[p] > 0) x += a[p] * p; else if (a[p] < 0) o -= a[p] * (25 - p);
  }
  return [o + 25 * -a[0], x + 25 * a[25]];
}
function board(D, st, a, extra) {
  var o = [], onroll = st.p, i, p;
  o.push('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ' + W + " " + H +
    '" role="img" aria-label="backgammon board" data-board="' + code(a) + '">');
  o.push('<rect x="0" y="0" width="' + W + '" height="' + H + '" fill="#fff"/>');
  o.push('<rect x="' + CW + '" y="' + (YT - F) + '" width="' + (W - CW) + '" height="' +
    (YB - YT + 2 * F) + '" fill="#6b4226" rx="4"/>');
  o.push('<rect x="' + XL + '" y="' + YT + '" width="' + (6 * PW) + '" height="' + (YB - YT) +
    '" fill="#f1e7d0"/><rect x="' + XR + '" y="' + YT + '" width="' + (6 * PW) +
    '" height="' + (YB - YT) + '" fill="#f1e7d0"/>');
  o.push('<rect x="' + XT + '" y="' + YT + '" width="' + TW + '" height="' + (YB - YT) +
    '" fill="#e3d6b8"/>');
  for (p = 1; p <= 24; p++) {
    var x = px(p), t = p > 12, base = t ? YT : YB, tip = t ? YT + PL : YB - PL;
    o.push('<polygon points="' + (x - PW / 2) + "," + base + " " + (x + PW / 2) + "," + base +
      " " + x + "," + tip + '" fill="' + (p % 2 ? "#9c5a3c" : "#cdb98f") + '"/>');
    var shown = onroll === 1 ? p : 25 - p;
    o.push(label(x, t ? INFO + NUM / 2 : YB + F + NUM / 2, String(shown), 15, "#444"));
  }
  for (p = 1; p <= 24; p++) {
    var n = a[p], who = n > 0 ? 1 : 0, m = Math.abs(n);
    for (i = 0; i < Math.min(m, 5); i++) o.push(checker(px(p), py(p, i, Math.min(m, 5)), who));
    if (m > 5) {
      o.push(label(px(p), py(p, 4, 5), String(m), 16, INK[1 - who]));
    }
  }
  [[25, 1], [0, 0]].forEach(function (bw) {
    var m = Math.abs(a[bw[0]]), w = bw[1];
    for (i = 0; i < Math.min(m, 4); i++) {
      var y = w === 1 ? YM - MID / 2 - R - i * 2 * R : YM + MID / 2 + R + i * 2 * R;
      o.push(checker(XBAR, y, w));
    }
    if (m > 1) o.push(label(XBAR, w === 1 ? YM - MID / 2 - R : YM + MID / 2 + R, String(m),
      16, INK[1 - w]));
  });
  var counts = [0, 0];
  for (p = 0; p < 26; p++) { if (a[p] > 0) counts[1] += a[p]; else counts[0] -= a[p]; }
  [0, 1].forEach(function (w) {
    var off = D.checkers - counts[w];
    for (i = 0; i < off; i++) {
      var y = w === 1 ? YB - 6 - i * 10 : YT + 2 + i * 10;
      o.push('<rect x="' + (XT + 5) + '" y="' + y + '" width="' + (TW - 10) +
        '" height="8" rx="2" fill="' + INK[w] + '" stroke="' + EDGE[w] + '"/>');
    }
    if (off) o.push(label(XT + TW / 2, w === 1 ? YB - 16 - off * 10 : YT + 14 + off * 10,
      String(off), 15, "#222"));
  });
  var cube = st.c[0], owner = st.c[1], cy = owner === 1 ? YB - 22 : owner === 0 ? YT + 22 : YM;
  var cx = CW / 2, cv = cube === 1 && owner === -1 ? 64 : cube;
  if (st.k === "double" || st.k === "beaver" || st.k === "raccoon") {
    cx = onroll === 1 ? (XR + XRE) / 2 : (XL + XLE) / 2; cy = YM; cv = cube * 2;
  }
  o.push('<rect x="' + (cx - 19) + '" y="' + (cy - 19) + '" width="38" height="38" rx="5"' +
    ' fill="#fff" stroke="#222" stroke-width="1.5"/>' + label(cx, cy, String(cv), 19, "#222"));
  if (st.d && !extra.after) {
    var dx = onroll === 1 ? (XR + XRE) / 2 : (XL + XLE) / 2;
    o.push(die(dx - 22, YM, +st.d[0], onroll) + die(dx + 22, YM, +st.d[1], onroll));
  }
  var pc = pips(a), sc = st.s.split("-"), names = st.nm || D.names;
  var length = st.len != null ? st.len : D.length;
  [0, 1].forEach(function (w) {
    var y = w === 1 ? H - INFO / 2 : INFO / 2;
    var text = names[w] + " (" + (w ? "X" : "O") + ") · pips " + pc[w] +
      (length ? " · " + sc[w] + " of " + length : "");
    o.push(label(XL, y, text, 16, w === onroll && st.k !== "end" ? "#000" : "#555", "start"));
    if (w === onroll && st.k !== "end") o.push(checker(XL - 24, y, w).replace(
      'r="' + (R - 1) + '"', 'r="8"'));
  });
  o.push(extra.svg || "");
  o.push("</svg>");
  return o.join("");
}
function pct(x) { return x == null ? "" : (100 * x).toFixed(1) + "%"; }
function sgn(x, d) { return x == null ? "" : (x >= 0 ? "+" : "") + x.toFixed(d); }
function mark(m) {
  return m && SIGNS[m] ? ' <span class="bgv-mark" title="' + esc(m) + '">' + SIGNS[m] +
    "</span>" : "";
}
function actionText(D, st) {
  var who = D.names[st.p];
  if (st.k === "move") return who + (st.d ? " rolls " + st.d + ": " : ": ") + st.t;
  if (st.k === "end") return st.t;
  return who + " " + {double: "doubles", take: "takes", drop: "passes", beaver: "beavers",
    raccoon: "raccoons"}[st.k];
}
function make(root) {
  var D = JSON.parse(root.querySelector(".bgv-data").textContent), S = D.steps;
  S.forEach(function (st) {
    if (st.cs && st.pi >= 0) {
      if (!st.pa) st.pa = st.cs[st.pi][5];
      if (st.t == null) st.t = st.cs[st.pi][0];
    }
  });
  var at = 0, chosen = null, after = false, i;
  var wrap = document.createElement("div");
  wrap.innerHTML =
    '<div class="bgv-main"><div><div class="bgv-board"></div>' +
    '<div class="bgv-bar">' +
    '<button data-go="game-" title="previous game (Page Up)">« game</button>' +
    '<button data-go="-1" title="previous (←)" aria-label="previous step">◀</button>' +
    '<button data-go="+1" title="next (→)" aria-label="next step">▶</button>' +
    '<button data-go="game+" title="next game (Page Down)">game »</button>' +
    '<button data-go="after" title="the position after this action (a)">after</button>' +
    '<span class="bgv-count"></span></div></div>' +
    '<div class="bgv-side"><div class="bgv-head"></div><div class="bgv-ids"></div>' +
    '<div class="bgv-info"></div><div class="bgv-list" role="listbox"' +
    ' aria-label="move list"></div>' +
    '<p class="bgv-help">← → step, ↑ ↓ candidates, Page Up/Down games, Home/End;' +
    ' swipe on the board. Arrows: <svg class="bgv-key" viewBox="0 0 22 6" height="6">' +
    '<line x1="0" y1="3" x2="22" y2="3" stroke="#c2185b" stroke-width="4"/></svg>' +
    'the play made, <svg class="bgv-key" viewBox="0 0 22 6" height="6"><line x1="0" y1="3"' +
    ' x2="22" y2="3" stroke="#1565c0" stroke-width="4" stroke-dasharray="6 4"/></svg>' +
    'the best play.</p></div></div>';
  root.appendChild(wrap);
  var boardEl = wrap.querySelector(".bgv-board"), headEl = wrap.querySelector(".bgv-head");
  var idsEl = wrap.querySelector(".bgv-ids"), infoEl = wrap.querySelector(".bgv-info");
  var countEl = wrap.querySelector(".bgv-count"), listEl = wrap.querySelector(".bgv-list");
  var list = [], game = null, lit = 0;
  for (i = 0; i < S.length; i++) {
    var st = S[i];
    if (st.g !== game) {
      game = st.g;
      var h = document.createElement("h4");
      h.textContent = "Game " + st.g + " · score " + st.s;
      listEl.appendChild(h);
    }
    var b = document.createElement("button");
    b.type = "button";
    b.setAttribute("data-i", i);
    b.innerHTML = esc((st.k === "end" ? "" : st.n + ". ") + actionText(D, st)) + mark(st.m) +
      (st.cm ? mark(st.cm) : "");
    if (st.m || st.cm) b.className = "bgv-err";
    listEl.appendChild(b);
    list.push(b);
  }
  function go(n) {
    at = Math.max(0, Math.min(S.length - 1, n));
    chosen = null; after = false;
    draw();
  }
  function best(st) { return st.cs && st.cs.length ? st.cs[0] : null; }
  function draw() {
    var st = S[at], extra = {svg: ""}, a = decode(st.b), shown = a, bp = best(st);
    if (chosen !== null && st.cs && st.cs[chosen]) {
      shown = apply(a, st.cs[chosen][5], st.p); extra.after = true;
      extra.svg = arrows(st.cs[chosen][5], st.p, shown, chosen === st.pi ?
        "#c2185b" : "#1565c0", chosen !== st.pi);
    } else if (after && st.k === "move") {
      shown = apply(a, st.pa, st.p); extra.after = true;
      extra.svg = arrows(st.pa, st.p, shown, "#c2185b", false);
    } else if (st.k === "move") {
      if (bp && st.pi !== 0) extra.svg += arrows(bp[5], st.p, a, "#1565c0", true);
      extra.svg += arrows(st.pa, st.p, a, "#c2185b", false);
    }
    boardEl.innerHTML = board(D, st, shown, extra);
    var length = D.length ? D.length + "-point match" : "money";
    headEl.innerHTML = esc("Game " + st.g + (st.k === "end" ? ", end" : ", move " + st.n) +
      " · score " + st.s + " (" + length + (st.cr ? ", Crawford" : "") + ")") + "<br>" +
      esc(actionText(D, st)) + mark(st.m);
    idsEl.innerHTML = 'Position ID: <span class="bgv-posid">' + esc(st.id) +
      '</span> · Match ID: <span class="bgv-matchid">' + esc(st.mid) + "</span>";
    infoEl.innerHTML = info(st);
    countEl.textContent = "step " + (at + 1) + " of " + S.length +
      (chosen !== null ? " · showing candidate " + (chosen + 1) :
        after ? " · after the action" : "");
    root.setAttribute("data-step", at);
    root.setAttribute("data-kind", st.k);
    if (list[lit]) list[lit].classList.remove("bgv-now");
    list[at].classList.add("bgv-now");
    lit = at;
    var cur = list[at], top = cur.offsetTop - listEl.offsetTop;
    if (top < listEl.scrollTop || top > listEl.scrollTop + listEl.clientHeight - 30) {
      listEl.scrollTop = top - listEl.clientHeight / 3;
    }
  }
  function info(st) {
    var o = [];
    if (st.er) o.push('<p class="bgv-note">Error ' + (-st.er).toFixed(1) + " mEMG" +
      mark(st.m) + "</p>");
    if (st.lu != null && st.k === "move") o.push('<p class="bgv-note">Luck of the roll ' +
      sgn(st.lu, 3) + " EMG" + (st.l ? " (" + esc(st.l) + ")" : "") + "</p>");
    if (st.cu) {
      var c = st.cu;
      o.push('<p class="bgv-note"><b>Cube decision</b> (' + esc(D.names[st.p]) + " on roll): " +
        "no double " + sgn(c.nd, 3) + " · double/take " + sgn(c.dt, 3) + " · double/pass " +
        sgn(c.dp, 3) + " → <b>" + esc(c.v) + "</b>" +
        (c.w != null ? "<br>Chances (cubeless): win " + pct(c.w) + ", win gammon " +
          pct(c.wg) + ", lose " + pct(1 - c.w) + ", lose gammon " + pct(c.lg) : "") +
        (c.er ? "<br>" + esc(c.act) + ": error " + (-c.er).toFixed(1) + " mEMG" +
          mark(st.cm || st.m) : "") + "</p>");
    }
    if (st.cs) {
      o.push('<table class="bgv-cands"><thead><tr><th>play</th><th>equity</th><th>diff.</th>' +
        "<th>win</th><th>gam.</th><th>lose g.</th></tr></thead><tbody>");
      var top = st.cs[0][1];
      st.cs.forEach(function (c, k) {
        o.push('<tr data-k="' + k + '" class="' + (k === st.pi ? "bgv-played " : "") +
          (k === chosen ? "bgv-chosen" : "") + '" tabindex="-1"><td class="bgv-play">' +
          (k + 1) + ". " + esc(c[0]) + (k === st.pi ? " ◀" : "") + "</td><td>" + sgn(c[1], 3) +
          "</td><td>" + (k ? sgn(c[1] - top, 3) : "") + "</td><td>" + pct(c[2]) + "</td><td>" +
          pct(c[3]) + "</td><td>" + pct(c[4]) + "</td></tr>");
      });
      o.push("</tbody></table>");
      if (st.pi === -1) o.push('<p class="bgv-note">The play made is not among them.</p>');
    } else if (st.k === "move" && D.analysed) {
      o.push('<p class="bgv-note">No choice to analyse.</p>');
    }
    return o.join("");
  }
  function pick(delta) {
    var st = S[at];
    if (!st.cs) return false;
    var n = st.cs.length;
    chosen = chosen === null ? (delta > 0 ? 0 : n - 1) : chosen + delta;
    if (chosen < 0 || chosen >= n) chosen = null;
    draw();
    return true;
  }
  function nextGame(dir) {
    var g = S[at].g, j = at;
    if (dir > 0) { while (j < S.length && S[j].g === g) j++; if (j >= S.length) j = S.length - 1; }
    else {
      while (j > 0 && S[j - 1].g === g) j--;
      if (j === at && j > 0) { g = S[j - 1].g; while (j > 0 && S[j - 1].g === g) j--; }
    }
    go(j);
  }
  wrap.addEventListener("click", function (e) {
    var t = e.target.closest("[data-go],[data-i],tr[data-k]");
    if (!t) return;
    if (t.hasAttribute("data-i")) { go(+t.getAttribute("data-i")); return; }
    if (t.hasAttribute("data-k")) {
      var k = +t.getAttribute("data-k");
      chosen = chosen === k ? null : k; after = false; draw(); return;
    }
    var g = t.getAttribute("data-go");
    if (g === "game-") nextGame(-1); else if (g === "game+") nextGame(1);
    else if (g === "after") { after = !after; chosen = null; draw(); }
    else go(at + +g);
  });
  function key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    var tag = (e.target && e.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var k = e.key, done = true;
    if (k === "ArrowRight") go(at + 1);
    else if (k === "ArrowLeft") go(at - 1);
    else if (k === "ArrowDown") done = pick(1);
    else if (k === "ArrowUp") done = pick(-1);
    else if (k === "PageDown") nextGame(1);
    else if (k === "PageUp") nextGame(-1);
    else if (k === "Home") go(0);
    else if (k === "End") go(S.length - 1);
    else if (k === "a") { after = !after; chosen = null; draw(); }
    else if (k === "Escape") { chosen = null; after = false; draw(); }
    else done = false;
    if (done) {
      e.preventDefault();
      if (root.getAttribute("data-keys") !== "page") e.stopPropagation();  // (not Jupyter's)
    }
  }
  if (root.getAttribute("data-keys") === "page") document.addEventListener("keydown", key);
  else root.addEventListener("keydown", key);
  var x0 = null, y0 = null;
  boardEl.addEventListener("touchstart", function (e) {
    x0 = e.touches[0].clientX; y0 = e.touches[0].clientY;
  }, {passive: true});
  boardEl.addEventListener("touchend", function (e) {
    if (x0 === null) return;
    var dx = e.changedTouches[0].clientX - x0, dy = e.changedTouches[0].clientY - y0;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 1.5 * Math.abs(dy)) go(at + (dx < 0 ? 1 : -1));
    x0 = null;
  });
  if (root.getAttribute("data-keys") === "page") {  // (the page's boards come after it)
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", function () { minis(D, document); });
    } else minis(D, document);
  }
  root.bgv = {go: go, size: S.length, at: function () { return at; }};
  go(0);
  return root.bgv;
}
// draw each [data-bgv-board=i] element of scope: step i of D, its play and the best
function minis(D, scope) {
  scope.querySelectorAll("[data-bgv-board]").forEach(function (el) {
    var st = D.steps[+el.getAttribute("data-bgv-board")];
    if (!st) return;
    var a = decode(st.b), extra = {svg: ""};
    var bs = st.bs || (st.cs && st.pi !== 0 && st.cs.length ? st.cs[0][5] : null);
    var pa = st.pa || (st.cs && st.pi >= 0 ? st.cs[st.pi][5] : null);
    if (st.k === "move") {
      if (bs) extra.svg += arrows(bs, st.p, a, "#1565c0", true);
      extra.svg += arrows(pa, st.p, a, "#c2185b", false);
    }
    el.innerHTML = board(D, st, a, extra);
  });
}
make.boards = function (data) {
  minis(JSON.parse(data.textContent), data.parentNode);
};
document.addEventListener("click", function (e) {
  var t = e.target.closest && e.target.closest("[data-bgv-step]");
  if (!t) return;
  var v = document.querySelector(".bgkit-viewer");
  if (!v || !v.bgv) return;
  v.bgv.go(+t.getAttribute("data-bgv-step"));
  v.scrollIntoView({block: "start"});
});
return make;
})();
window.bgkitViewer = bgkitViewer;
"""
