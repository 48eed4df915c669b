"""The event's page of an audit: one self-contained HTML file (no scripts, no links out).

Sections: the verdict of every file at a glance, the duplicates, the players' names,
the dice of every player over the submission (a figure of the 21 rolls observed against
expected, drawn as inline SVG) and of every match, the luck and play figures when there
are some, and the findings of each file in a table of its own.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from bgkit.audit import finding_where, given
from bgkit.audit.stats import ROLLS

if TYPE_CHECKING:
    from bgkit.audit import AuditResult

__all__ = ["audit_html", "dice_svg"]

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2327;
background:#f6f7f7;line-height:1.4}
main{max-width:1100px;margin:0 auto;padding:12px}
h1{font-size:1.4rem;margin:.3em 0}h2{font-size:1.15rem;margin:1.4em 0 .4em;
border-bottom:2px solid #c3c4c7}h3{font-size:1rem;margin:1em 0 .3em;word-break:break-all}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch;background:#fff;
border:1px solid #dcdcde;border-radius:6px}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{padding:4px 8px;text-align:left;vertical-align:top;border-bottom:1px solid #eee}
th{background:#f0f0f1;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.file{word-break:break-all;min-width:12em}
td.where{min-width:9em}
@media (max-width:640px){table.stack thead{display:none}
table.stack tr{display:block;padding:4px 8px;border-bottom:1px solid #eee}
table.stack td{display:inline;padding:0 6px 0 0;border:0}
table.stack td:last-child{display:block;padding:2px 0 2px}}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:.8rem;
font-weight:600;white-space:nowrap}
.clean{background:#d1f0d9;color:#0a5c26}.notes{background:#e5eefa;color:#1e4b8f}
.findings{background:#fcefc7;color:#7a5600}.errors,.unreadable,.flag{background:#fbd5d5;
color:#8a1212}.error{color:#8a1212;font-weight:600}.warning{color:#7a5600;font-weight:600}
.note{color:#1e4b8f}
.summary{display:flex;flex-wrap:wrap;gap:8px;margin:.5em 0}
.summary div{background:#fff;border:1px solid #dcdcde;border-radius:6px;padding:6px 12px}
.summary b{display:block;font-size:1.3rem}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:10px}
.card{background:#fff;border:1px solid #dcdcde;border-radius:6px;padding:8px}
.card.flagged{border-color:#d63638;box-shadow:0 0 0 1px #d63638}
.card h3{margin:0 0 4px}.card p{margin:2px 0;font-size:.85rem}
svg{width:100%;height:auto;display:block}
p.help{font-size:.85rem;color:#50575e;max-width:60em}
"""


def audit_html(result: AuditResult) -> str:
    """The page of ``result``: a whole HTML document, every figure inline."""
    findings = result.findings
    files = result.files
    severity = findings["severity"].value_counts().to_dict()
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width,initial-scale=1'>",
        f"<title>Audit of {escape(result.submission)}</title><style>{_CSS}</style></head>",
        f"<body><main><h1>Audit of {escape(result.submission)}</h1>",
        "<div class='summary'>",
        _stat(len(files), "files"),
        _stat(int(files["games"].fillna(0).sum()) if len(files) else 0, "games"),
        _stat(int(severity.get("error", 0)), "errors"),
        _stat(int(severity.get("warning", 0)), "warnings"),
        _stat(int(severity.get("note", 0)), "notes"),
        _stat(result.tests, "dice tests"),
        "</div>",
        _files_section(result),
        _duplicates_section(result),
        _players_section(result),
        _dice_section(result),
        _play_section(result),
        _findings_section(result),
        "</main></body></html>",
    ]
    return "\n".join(parts)


def _stat(value: int, label: str) -> str:
    return f"<div><b>{value}</b>{escape(label)}</div>"


def _table(
    head: list[str],
    rows: list[list[str]],
    numeric: set[int] | None = None,
    *,
    stack: bool = False,
) -> str:
    """A table in a box that scrolls sideways; ``stack``: on a phone each row is shown as
    its cells in a line and the last (the message) below them, the whole width of the
    screen, instead (the first cell is then a place, not a file)."""
    numeric = numeric or set()
    first = " class='where'" if stack else " class='file'"
    cells = "".join(f"<th scope='col'>{escape(h)}</th>" for h in head)
    body = []
    for row in rows:
        tds = []
        for i, cell in enumerate(row):
            cls = " class='num'" if i in numeric else first if i == 0 else ""
            tds.append(f"<td{cls}>{cell}</td>")
        body.append("<tr>" + "".join(tds) + "</tr>")
    table = "<table class='stack'>" if stack else "<table>"
    return (
        f"<div class='scroll'>{table}"
        f"<thead><tr>{cells}</tr></thead>"
        f"<tbody>{''.join(body)}</tbody></table></div>"
    )


def _files_section(result: AuditResult) -> str:
    rows = []
    for row in result.files.to_dict("records"):
        verdict = str(row["verdict"])
        rows.append(
            [
                f"<a href='#{_anchor(row['file'])}' title='{escape(str(row['file']))}'>"
                f"{escape(_short(row['file'], result.submission))}</a>",
                f"<span class='badge {verdict}'>{verdict}</span>",
                escape(str(row["players"] or "")),
                _number(row["games"]),
                _number(row["errors"]),
                _number(row["warnings"]),
                _number(row["notes"]),
                escape(str(row["format"])),
            ]
        )
    table = _table(
        ["file", "verdict", "players", "games", "errors", "warnings", "notes", "format"],
        rows,
        {3, 4, 5, 6},
    )
    return f"<h2 id='files'>Files</h2>{table}"


def _duplicates_section(result: AuditResult) -> str:
    dups = result.findings[result.findings["kind"] == "duplicate"]
    if dups.empty:
        return "<h2 id='duplicates'>Duplicates</h2><p>No match was submitted twice.</p>"
    rows = [
        [
            escape(_short(r["file"], result.submission)),
            escape(_short(r["same_as"], result.submission)),
            escape(str(r["message"]).replace(f"{r['same_as']}", "it")),
        ]
        for r in dups.to_dict("records")
    ]
    return "<h2 id='duplicates'>Duplicates</h2>" + _table(["file", "same as", "what"], rows)


def _players_section(result: AuditResult) -> str:
    names = result.findings[result.findings["kind"] == "players"]
    known = sorted(
        {p for text in result.files["players"].dropna() for p in str(text).split(" vs. ") if p}
    )
    listing = ", ".join(escape(n) for n in known) or "none"
    head = f"<h2 id='players'>Players</h2><p>{len(known)} names: {listing}.</p>"
    if names.empty:
        return head + "<p>Every game names the players its file's header names.</p>"
    rows = [
        [
            escape(f"{_short(r['file'], result.submission)} ({_short_place(r)})"),
            escape(str(r["message"])),
        ]
        for r in names.to_dict("records")
    ]
    return head + _table(["where", "what"], rows)


def _dice_section(result: AuditResult) -> str:
    dice = result.dice
    help_text = (
        "<p class='help'>Each player's rolls (the opening rolls left out) are tested against"
        " fair dice four ways: the 21 rolls' counts (chi-square), the doubles, the pips and"
        " the rolls from the bar that could enter. A player's p-value is four times the"
        f" smallest of the four; it is flagged when, multiplied by the {result.tests} tests"
        f" of the submission, it stays below alpha = {result.alpha:g}. Hand transcriptions"
        " make mistakes that look like odd dice: read a flag as a reason to look, not as"
        " proof.</p>"
    )
    if dice.empty:
        return f"<h2 id='dice'>Dice</h2>{help_text}<p>No player rolled enough to test.</p>"
    cards = []
    overall = set(dice.loc[dice["scope"] == "submission", "player"])
    copies = set(result.findings.loc[result.findings["kind"] == "duplicate", "file"])
    for row in dice.sort_values("p_value").to_dict("records"):
        # a player's rolls over the submission, or in his one match (not its copy); every flag
        alone = row["player"] not in overall and row["file"] not in copies
        if row["flagged"] or row["scope"] == "submission" or alone:
            cards.append(_dice_card(row, result.submission))
    rows = []
    for row in dice.sort_values("p_value").to_dict("records"):
        rows.append(
            [
                escape(_short(row["file"], result.submission)),
                escape(str(row["player"])),
                _number(row["rolls"]),
                f"{row['doubles']} / {row['doubles_expected']:.1f}",
                f"{row['pips']} / {row['pips_expected']:.0f}",
                f"{row['bar_entered']} of {row['bar_rolls']} / {row['bar_expected']:.1f}",
                f"{row['p_value']:.3g}",
                f"{row['p_adjusted']:.3g}",
                "<span class='badge flag'>flagged</span>" if row["flagged"] else "",
            ]
        )
    table = _table(
        [
            "file",
            "player",
            "rolls",
            "doubles / expected",
            "pips / expected",
            "bar entries / expected",
            "p",
            "corrected",
            "",
        ],
        rows,
        {2, 6, 7},
    )
    return (
        f"<h2 id='dice'>Dice</h2>{help_text}<div class='cards'>{''.join(cards)}</div>"
        f"<h3>Every test</h3>{table}"
    )


def _dice_card(row: dict[str, Any], submission: str) -> str:
    where = (
        "over the submission"
        if row["scope"] == "submission"
        else escape(_short(row["file"], submission))
    )
    cls = "card flagged" if row["flagged"] else "card"
    flag = " <span class='badge flag'>flagged</span>" if row["flagged"] else ""
    return (
        f"<div class='{cls}'><h3>{escape(str(row['player']))}{flag}</h3>"
        f"<p>{where}: {row['rolls']} rolls, p = {row['p_value']:.3g}"
        f" (21 rolls {row['p_rolls']:.2g}, doubles {row['p_doubles']:.2g},"
        f" pips {row['p_pips']:.2g}, bar {row['p_bar']:.2g})</p>"
        f"{dice_svg(row['counts'], row['expected'], str(row['player']))}</div>"
    )


def dice_svg(counts: list[int], expected: list[float], title: str = "") -> str:
    """The 21 rolls as bars (observed) with a mark at each expected count, inline SVG.

    >>> svg = dice_svg([1] * 21, [1.0] * 21, "Ann")
    >>> svg.startswith("<svg") and svg.count("<rect") == 22
    True
    """
    width, height, left, bottom, top = 420, 170, 28, 30, 10
    top_value = max([*counts, *expected, 1]) * 1.1
    step = (width - left - 4) / 21
    plot = height - bottom - top

    def y(value: float) -> float:
        return top + plot * (1 - value / top_value)

    parts = [
        f"<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 {width} {height}' role='img'"
        f" aria-label='rolls of {escape(title)}: observed bars, expected marks'>",
        f"<title>{escape(title)}: rolls observed (bars) and expected (marks)</title>",
        f"<rect x='0' y='0' width='{width}' height='{height}' fill='#fff'/>",
    ]
    for tick in _ticks(top_value):
        parts.append(
            f"<line x1='{left}' x2='{width - 4}' y1='{y(tick):.1f}' y2='{y(tick):.1f}'"
            f" stroke='#eee'/><text x='{left - 4}' y='{y(tick) + 3:.1f}' font-size='9'"
            f" text-anchor='end' fill='#50575e'>{tick:g}</text>"
        )
    for i, ((a, b), seen, wanted) in enumerate(zip(ROLLS, counts, expected, strict=True)):
        x = left + i * step
        colour = "#2271b1" if a != b else "#8c5fbf"
        parts.append(
            f"<rect x='{x + 2:.1f}' y='{y(seen):.1f}' width='{step - 4:.1f}'"
            f" height='{max(y(0) - y(seen), 0):.1f}' fill='{colour}'>"
            f"<title>{a}{b}: {seen} rolled, {wanted:.1f} expected</title></rect>"
            f"<line x1='{x + 1:.1f}' x2='{x + step - 1:.1f}' y1='{y(wanted):.1f}'"
            f" y2='{y(wanted):.1f}' stroke='#d63638' stroke-width='2'/>"
            f"<text x='{x + step / 2:.1f}' y='{height - bottom + 12}' font-size='9'"
            f" text-anchor='middle' fill='#1d2327'>{a}{b}</text>"
        )
    parts.append(
        f"<text x='{left}' y='{height - 4}' font-size='9' fill='#50575e'>bars: rolled"
        " (purple: doubles) · red marks: expected with fair dice</text></svg>"
    )
    return "".join(parts)


def _ticks(top: float) -> list[float]:
    for size in (1, 2, 5, 10, 20, 50, 100, 200, 500):
        if top / size <= 5:
            return [size * k for k in range(int(top / size) + 1)]
    return [0.0]


def _play_section(result: AuditResult) -> str:
    play = result.play
    if play.empty:
        return ""
    rows = []
    for row in play.to_dict("records"):
        rows.append(
            [
                escape(str(row["file"])),
                escape(str(row["player"])),
                _float(row["luck_emg"], 3),
                _float(row["luck_z"], 2),
                _float(row["pr"], 2),
                _percent(row["first_choice"]),
                _number(row["matches"]),
                _float(row["luck_z_others"], 2),
                _float(row["pr_others"], 2),
                _percent(row["first_choice_others"]),
            ]
        )
    table = _table(
        [
            "file",
            "player",
            "luck (EMG)",
            "luck z",
            "PR",
            "first choice",
            "matches",
            "luck z, others",
            "PR, others",
            "first choice, others",
        ],
        rows,
        {2, 3, 4, 5, 6, 7, 8, 9},
    )
    return (
        "<h2 id='play'>Luck and play</h2><p class='help'>Figures of GNU Backgammon at 0-ply,"
        " never flags: the luck of the rolls in EMG and as a z-score (the luck divided by"
        " its expected spread), the PR and the share of unforced moves that were the"
        " engine's first choice, beside the mean of the same player's other matches.</p>" + table
    )


def _findings_section(result: AuditResult) -> str:
    out = ["<h2 id='findings'>Findings by file</h2>"]
    findings = result.findings
    groups = list(dict.fromkeys(findings["file"].tolist()))
    if not groups:
        out.append("<p>Nothing to report.</p>")
    for file in groups:
        rows = []
        for row in findings[findings["file"] == file].to_dict("records"):
            sev = str(row["severity"])
            rows.append(
                [
                    escape(_short_place(row)),
                    f"<span class='{sev}'>{sev}</span>",
                    escape(str(row["kind"])),
                    escape(str(row["message"])),
                ]
            )
        out.append(f"<h3 id='{_anchor(file)}'>{escape(str(file))}</h3>")
        out.append(_table(["where", "severity", "kind", "message"], rows, stack=True))
    return "".join(out)


def _short_place(row: dict[str, Any]) -> str:
    parts = [f"line {int(row['line'])}"] if given(row.get("line")) and row["line"] else []
    return ", ".join(parts + finding_where(row)) or "file"


def _short(file: Any, submission: str) -> str:
    """A file's path inside the submission's folder (the submission itself: "all files")."""
    text = str(file)
    if text == submission:
        return "all files"
    prefix = submission.rstrip("/") + "/"
    return text[len(prefix) :] if text.startswith(prefix) else text


def _anchor(file: Any) -> str:
    return "f-" + "".join(c if c.isalnum() else "-" for c in str(file))


def _number(value: Any) -> str:
    return str(int(value)) if given(value) else ""


def _float(value: Any, digits: int) -> str:
    return f"{float(value):.{digits}f}" if given(value) else ""


def _percent(value: Any) -> str:
    return f"{100 * float(value):.0f}%" if given(value) else ""
