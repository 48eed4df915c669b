"""The only module that builds Lark parsers.

Grammars live in the top-level ``grammars/`` folder of the repository and are
shipped inside the wheel as the package ``bgkit.grammars``. Each parser is built
once per process, on first use (``import bgkit`` builds nothing).

Building a parser means analysing its grammar (the LALR tables, and Lark's check of
terminal collisions when ``interegular`` is installed): 200 ms for ``mat.lark``, in
every process that reads a record. Lark keeps the result in a cache file that loads in
about 2 ms; bgkit puts those files in a folder of the user's own
(``$XDG_CACHE_HOME/bgkit`` or ``~/.cache/bgkit``, created private), never in the shared
temporary folder (Lark's default, where another user could plant a pickle). The file's
name carries a hash of every grammar file, Lark's version and Python's, so an edited
grammar or another Lark never loads a stale parser. Set ``BGKIT_CACHE_DIR`` to use
another folder, or to an empty string to build every parser afresh; when the folder
cannot be made or is not private, parsers are built without a cache.
"""

from __future__ import annotations

import functools
import hashlib
import os
import stat
import sys
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from lark import (
    Lark,
    Token,
    Transformer,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)
from lark.exceptions import VisitError

from bgkit.errors import BgkitError, NotationError, OffsetError
from bgkit.limits import check_integer, check_text

__all__ = [
    "OffsetError",
    "SourceText",
    "SourceTransformer",
    "build",
    "notation_error",
    "parse_tree",
    "parser",
]

T = TypeVar("T")


@functools.cache
def parser(
    name: str,
    start: str | None = None,
    *,
    strict: bool = False,
    transformer: Transformer[Token, Any] | None = None,
) -> Lark:
    """The LALR parser of ``grammars/<name>.lark`` (cached per process).

    :param start: the start rule; defaults to the grammar's own name.
    :param strict: build with Lark's strict mode (conflicts and regex collisions raise);
        used by the tests.
    :param transformer: run this transformer's rules while parsing (no tree is built,
        which is much faster); ``parse`` then returns what it builds. One parser is
        kept per transformer object, so the caller keeps the object.
    """
    start = start or name
    cache = False if strict else _cache_file(name, start)  # strict builds check the grammar
    return Lark.open_from_package(
        "bgkit.grammars",
        f"{name}.lark",
        ("",),
        parser="lalr",
        start=start,
        maybe_placeholders=True,
        strict=strict,
        transformer=transformer,
        cache=cache,
    )


def cache_folder() -> Path | None:
    """The private folder of the parser cache, made if need be; ``None`` for no cache."""
    chosen = os.environ.get("BGKIT_CACHE_DIR")
    if chosen == "":
        return None
    if chosen is None:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        chosen = os.path.join(base, "bgkit")
    folder = Path(chosen)
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = folder.stat()
    except OSError:
        return None
    private = not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    owner = os.getuid() if hasattr(os, "getuid") else info.st_uid  # (no owners on Windows)
    if not stat.S_ISDIR(info.st_mode) or not private or info.st_uid != owner:
        return None
    return folder


@functools.cache
def _grammars_hash() -> str:
    import lark

    digest = hashlib.sha256(f"{lark.__version__} {sys.version_info[:2]}".encode())
    package = resources.files("bgkit.grammars")
    for entry in sorted(package.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".lark"):
            digest.update(entry.name.encode() + b"\0" + entry.read_bytes())
    return digest.hexdigest()[:20]


def _cache_file(name: str, start: str) -> str | bool:
    folder = cache_folder()
    if folder is None:
        return False
    return str(folder / f"{name}-{start}-{_grammars_hash()}.lark")


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


def parse_tree(name: str, text: str, what: str, *, source_name: str | None = None) -> Tree[Token]:
    """Parse ``text`` with ``grammars/<name>.lark``; a syntax error becomes a NotationError.

    :param what: what is being parsed, for the message ("GMD record", "FIBS board").
    """
    check_text(text, source_name)
    try:
        return parser(name).parse(text)
    except UnexpectedInput as err:
        raise notation_error(err, text, what, source_name=source_name) from None


class SourceText:
    """The text a reader works on and its name, so that an error at a token points into it."""

    def __init__(self, source: str, source_name: str | None) -> None:
        self.source = source
        self.source_name = source_name

    def _fail(self, msg: str, token: Token) -> NotationError:
        """A NotationError at ``token`` (for the caller to raise)."""
        return NotationError(msg, self.source, token.start_pos or 0, source_name=self.source_name)

    def _int(self, token: Token) -> int:
        """The number ``token`` writes, refusing more digits than ``max_integer_digits``."""
        check_integer(str(token), self.source, token.start_pos or 0, self.source_name)
        return int(token)


class SourceTransformer(SourceText, Transformer[Token, T]):
    """A transformer of ``source``'s parse tree, with :class:`SourceText`'s errors."""

    def __init__(self, source: str, source_name: str | None) -> None:
        SourceText.__init__(self, source, source_name)
        Transformer.__init__(self, visit_tokens=False)


def build(
    transformer: Transformer[Token, T],
    tree: Tree[Token],
    source: str,
    *,
    source_name: str | None = None,
) -> T:
    """Run a bgkit transformer over a parse tree, letting bgkit's own errors through.

    Lark wraps an error raised inside a transformer in ``VisitError``; this unwraps
    it, so callers see the :class:`~bgkit.errors.NotationError` (or other
    :class:`~bgkit.errors.BgkitError`) the transformer raised. For a grammar that
    imports ``play.lark``, pass :func:`bgkit._play_grammar.with_plays` of the transformer.
    """
    try:
        result: T = transformer.transform(tree)
    except VisitError as err:
        exc = err.orig_exc
        if isinstance(exc, OffsetError):
            raise NotationError(exc.msg, source, exc.pos, source_name=source_name) from None
        if isinstance(exc, BgkitError):
            raise exc from None
        raise
    return result
