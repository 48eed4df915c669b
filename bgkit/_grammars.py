"""The only module that builds Lark parsers.

Grammars live in the top-level ``grammars/`` folder of the repository and are
shipped inside the wheel as the package ``bgkit.grammars``. Each parser is built
once per process, on first use (``import bgkit`` builds nothing).
"""

from __future__ import annotations

import functools

from lark import Lark, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from bgkit.errors import NotationError

__all__ = ["notation_error", "parser"]


@functools.cache
def parser(name: str, start: str | None = None, *, strict: bool = False) -> Lark:
    """The LALR parser of ``grammars/<name>.lark`` (cached per process).

    :param start: the start rule; defaults to the grammar's own name.
    :param strict: build with Lark's strict mode (conflicts and regex collisions raise);
        used by the tests.
    """
    return Lark.open_from_package(
        "bgkit.grammars",
        f"{name}.lark",
        ("",),
        parser="lalr",
        start=start or name,
        maybe_placeholders=True,
        strict=strict,
    )


def _describe_expected(expected: set[str] | frozenset[str]) -> str:
    names = sorted(expected)
    pretty = {
        "INT": "a number",
        "HIT": "'*'",
        "SLASH": "'/'",
        "BAR": "'bar'",
        "OFF": "'off'",
        "COLON": "':'",
        "LPAR": "'('",
        "RPAR": "')'",
        "COMMA": "','",
        "$END": "end of input",
        "<END-OF-FILE>": "end of input",
    }
    words = [pretty.get(n, n.lower().strip("_")) for n in names[:6]]
    return ", ".join(words)


def notation_error(
    err: UnexpectedInput, text: str, what: str, *, source_name: str | None = None
) -> NotationError:
    """Turn a Lark parse error into bgkit's :class:`NotationError` (the one place this happens).

    :param what: what was being parsed, for the message ("play", "XGID", ...).
    """
    if (isinstance(err, UnexpectedToken) and err.token.type == "$END") or isinstance(
        err, UnexpectedEOF
    ):
        expected: set[str] = set(getattr(err, "expected", None) or ())
        msg = f"{what} ends too early"
        if expected:
            msg += f"; expected {_describe_expected(expected)}"
        return NotationError(msg, text, len(text), source_name=source_name)
    if isinstance(err, UnexpectedCharacters):
        at = err.pos_in_stream or 0
        ch = text[at] if at < len(text) else ""
        msg = f"unexpected character {ch!r} in {what}"
        return NotationError(msg, text, at, source_name=source_name)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        pos = tok.start_pos if tok.start_pos is not None else 0
        msg = f"unexpected {str(tok)!r} in {what}"
        if err.expected:
            msg += f"; expected {_describe_expected(err.expected)}"
        return NotationError(msg, text, pos, source_name=source_name)
    return NotationError(f"cannot parse {what}", text, 0, source_name=source_name)
