"""A batch's output file (``output=``): resumed from, checkpointed to
``OUTPUT.parts/``, written whole at the end; and rows as DataFrames."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
import uuid
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from bgkit.batch.common import _BASE_COLUMNS, _FIXED, _KEY_COLUMNS, SETTINGS, Row, RowFunction

__all__ = ["CHECKPOINT_ROWS", "CHECKPOINT_SECONDS", "SETTINGS"]
from bgkit.errors import BatchError, BatchNote

if TYPE_CHECKING:
    import pandas as pd

    from bgkit.batch.run import _Item

CHECKPOINT_SECONDS = 10.0
"""With ``output=``, finished rows are saved to ``OUTPUT.parts/`` at least this often."""
CHECKPOINT_ROWS = 20_000
"""... and whenever this many rows are waiting (it bounds the memory they take)."""

_Key: TypeAlias = tuple[str, int, int]
"""A file as an output knows it: its path as given, its size, its modification time."""


def _dtypes(columns: Mapping[str, str] | None) -> dict[str, str] | None:
    if columns is None:
        return None
    return {**_BASE_COLUMNS, **columns, **_KEY_COLUMNS}


def _frame(rows: list[Row], dtypes: Mapping[str, str] | None) -> pd.DataFrame:
    """Rows as a DataFrame: with ``dtypes``, those columns in that order and types."""
    import pandas as pd

    if dtypes is not None:
        # built as objects: a column of integers and None must not pass through floats
        return pd.DataFrame(rows, columns=list(dtypes), dtype=object).astype(dict(dtypes))
    df = pd.DataFrame(rows, columns=_columns(rows), dtype=object)
    return df.astype(_FIXED).infer_objects()


def _columns(rows: list[Row]) -> list[str]:
    """``file, kind, message``, the other columns in order of appearance, ``size, mtime_ns``."""
    middle = dict.fromkeys(name for row in rows for name in row if name not in _FIXED)
    return [*_BASE_COLUMNS, *middle, *_KEY_COLUMNS]


def _none_for_missing(df: pd.DataFrame) -> pd.DataFrame:
    """Missing values as ``None`` (as in a fresh row), but in float columns (``NaN``)."""
    import pandas as pd

    df = df.copy()
    for name, dtype in df.dtypes.items():
        if not pd.api.types.is_float_dtype(dtype):
            column = df[name].astype(object)
            df[name] = column.where(column.notna(), None)
    return df


def _plain(value: Any) -> Any:
    """A value read back from a file as a fresh row has it (``None`` for missing)."""
    if value is None or isinstance(value, str | float | bool | int):
        return value
    import pandas as pd

    if value is pd.NA or value is pd.NaT:
        return None
    item = getattr(value, "item", None)
    return item() if callable(item) else value


def _settings(func: RowFunction) -> str:
    """What the rows of ``func`` depend on besides the file: the limits in force (with
    ``max_size``) and the other settings a :func:`functools.partial` gives (``jacoby``,
    ``plies``...), as the text the output keeps in its ``settings`` column. A rerun
    reuses only the rows made under the same settings: a file refused at 2K is read
    again once the limit is raised."""
    from bgkit.limits import DEFAULT_LIMITS, active

    given = dict(getattr(func, "keywords", None) or {})
    keywords = {k: v for k, v in given.items() if v is not None and v is not False}
    limits = active().with_max_size(given.get("max_size"))
    keywords.pop("max_size", None)
    changed = {
        name: value
        for name in limits.__dataclass_fields__
        if (value := getattr(limits, name)) != getattr(DEFAULT_LIMITS, name)
    }
    return ", ".join(f"{k}={v}" for k, v in sorted({**changed, **keywords}.items())) or "defaults"


class _Store:
    """The output file: resume from it, checkpoint to ``OUTPUT.parts/``, write it at the end.

    Every row it writes carries ``settings`` (:func:`_settings`), and only rows of the
    same settings are reused. A part is synced to the disk before it counts (a power
    loss leaves it whole or absent); a part that cannot be read all the same (a copy, a
    disk error) is set aside as ``part-N.EXT.broken`` with a :class:`BatchNote`, and its
    files are done again.
    """

    def __init__(
        self, path: Path, dtypes: dict[str, str] | None, settings: str = "defaults"
    ) -> None:
        suffix = path.suffix.lower()
        if suffix in (".parquet", ".pq"):
            self.format = "parquet"
        elif suffix == ".csv":
            self.format = "csv"
        else:
            raise BatchError(f"{path}: the output must be a .parquet or .csv file")
        if not path.parent.is_dir():
            raise BatchError(f"{path}: no such directory: {path.parent}")
        for link in (path, path.with_name(path.name + ".parts")):
            if link.is_symlink():
                raise BatchError(
                    f"{link}: a symbolic link; bgkit never writes through a link: name the"
                    " file itself"
                )
        self.path = path
        self.dtypes = {**dtypes, SETTINGS: "string"} if dtypes is not None else None
        self.settings = settings
        self.parts = path.with_name(path.name + ".parts")
        self.buffer: list[Row] = []
        self.written: set[_Key] = set()
        self.mine: list[Path] = []  # this run's parts
        self.saved = time.monotonic()
        old = self._old_parts()
        self.next = int(old[-1].stem.split("-")[-1]) + 1 if old else 1

    def _old_parts(self) -> list[Path]:
        if not self.parts.is_dir():
            return []
        return sorted(self.parts.glob(f"part-*.{self.format}"))

    def load(self, wanted: set[str]) -> dict[_Key, list[Row]]:
        """The stored rows of ``wanted`` files by key (the output first, then any parts),
        of those made under this run's settings."""
        sources = [self.path] if self.path.exists() else []
        sources += self._old_parts()
        done: dict[_Key, list[Row]] = {}
        for source in sources:
            df = self._read_part(source) if source != self.path else self._read(source)
            if df is None:
                continue
            same = df[SETTINGS].eq(self.settings).fillna(False).astype(bool)
            df = df[df["file"].isin(wanted) & df["size"].notna() & df["mtime_ns"].notna() & same]
            df = _none_for_missing(df)
            found: dict[_Key, list[Row]] = {}
            for row in df.to_dict("records"):
                clean = {str(k): _plain(v) for k, v in row.items() if k != SETTINGS}
                key = (clean["file"], int(clean["size"]), int(clean["mtime_ns"]))
                found.setdefault(key, []).append(clean)
            done.update(found)
        return done

    def values(self, column: str) -> set[Any]:
        """The values of ``column`` in the output and its parts (missing ones left out)."""
        found: set[Any] = set()
        for source in [self.path] if self.path.exists() else []:
            found.update(self._column(source, column))
        for source in self._old_parts():
            if self._read_part(source) is not None:
                found.update(self._column(source, column))
        return found

    def _read_part(self, part: Path) -> pd.DataFrame | None:
        """A part of an earlier run, or ``None`` when it cannot be read: it is then set
        aside (``.broken``) with a note, and its files are done again."""
        try:
            return self._read(part)
        except BatchError as err:
            aside = part.with_name(part.name + ".broken")
            os.replace(part, aside)
            size = aside.stat().st_size
            warnings.warn(
                BatchNote(
                    f"{part}: a part of an earlier run that cannot be read ({size} bytes:"
                    f" {str(err).rsplit(': ', 1)[-1]}); set aside as {aside.name}, its files"
                    " are done again"
                ),
                stacklevel=2,
            )
            return None

    def _column(self, source: Path, column: str) -> list[Any]:
        frame = self._read(source)
        return frame[column].dropna().tolist() if column in frame else []

    def _read(self, source: Path) -> pd.DataFrame:
        import pandas as pd

        try:
            if self.format == "parquet":
                df = pd.read_parquet(source)
            else:
                df = pd.read_csv(
                    source,
                    dtype=self.dtypes or _FIXED,
                    keep_default_na=False,
                    na_values=[""],
                )
        except ImportError as err:
            raise BatchError(f"{source}: cannot read it: {err}") from None
        except Exception as err:  # pandas and pyarrow raise many kinds for a bad file
            raise BatchError(f"{source}: cannot read it as {self.format}: {err}") from None
        if SETTINGS not in df.columns:  # (an output of bgkit before issue 29: redone)
            df[SETTINGS] = pd.Series([pd.NA] * len(df), dtype="string", index=df.index)
        missing = [c for c in (*_BASE_COLUMNS, *_KEY_COLUMNS) if c not in df.columns]
        if missing:
            raise BatchError(
                f"{source}: not a bgkit batch output (no {', '.join(missing)} column);"
                " choose another output file"
            )
        if self.dtypes is not None and list(df.columns) != list(self.dtypes):
            raise BatchError(
                f"{source}: holds other results (its columns differ); choose another output file"
            )
        return df

    def add(self, item: _Item, rows: list[Row]) -> None:
        if item.size is not None and item.mtime_ns is not None:
            key = (item.file, item.size, item.mtime_ns)
            if key in self.written:
                return  # a file named twice is stored once
            self.written.add(key)
        self.buffer.extend({**row, SETTINGS: self.settings} for row in rows)
        if (
            len(self.buffer) >= CHECKPOINT_ROWS
            or time.monotonic() - self.saved >= CHECKPOINT_SECONDS
        ):
            self.checkpoint()

    def checkpoint(self) -> None:
        """Save the rows so far as one more part (atomically: a part is whole or absent)."""
        self.saved = time.monotonic()
        if not self.buffer:
            return
        self.parts.mkdir(exist_ok=True)
        part = self.parts / f"part-{self.next:06d}.{self.format}"
        self.next += 1
        self._write(_frame(self.buffer, self.dtypes), part)
        self.mine.append(part)
        self.buffer = []

    def _write(self, df: pd.DataFrame, target: Path) -> None:
        tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
        try:
            if self.format == "parquet":
                df.to_parquet(tmp, index=False)
            else:
                df.to_csv(tmp, index=False)
            _replace_synced(tmp, target)
        finally:
            tmp.unlink(missing_ok=True)

    def finish(self) -> None:
        """Write this run's parts as the output file, then remove the parts."""
        self.checkpoint()
        tmp = self.path.with_name(f".{self.path.name}.{uuid.uuid4().hex}.tmp")
        try:
            if not self.mine:
                self._write(_frame([], self.dtypes), self.path)
            elif self.format == "parquet":
                _concat_parquet(self.mine, tmp)
                _replace_synced(tmp, self.path)
            else:
                _concat_csv(self.mine, tmp)
                _replace_synced(tmp, self.path)
        finally:
            tmp.unlink(missing_ok=True)
        shutil.rmtree(self.parts, ignore_errors=True)


def _replace_synced(tmp: Path, target: Path) -> None:
    """Move ``tmp`` to ``target`` once its bytes are on the disk, and sync the folder: a
    power loss then leaves ``target`` whole (old or new), never empty."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, target)
    with contextlib.suppress(OSError):  # (a folder cannot be opened on some systems)
        folder = os.open(target.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _concat_parquet(parts: list[Path], target: Path) -> None:
    """One Parquet file from several, a part at a time (row groups, flat memory)."""
    import importlib

    pa: Any = importlib.import_module("pyarrow")  # no type information
    pq: Any = importlib.import_module("pyarrow.parquet")

    schemas = [pq.read_schema(p) for p in parts]
    schema = pa.unify_schemas(schemas, promote_options="permissive")
    schema = schema.with_metadata(schemas[0].metadata)
    with pq.ParquetWriter(target, schema) as writer:
        for part in parts:
            writer.write_table(pq.read_table(part).cast(schema))


def _concat_csv(parts: list[Path], target: Path) -> None:
    """One CSV file from several: the first header, then every part's lines."""
    headers = []
    for part in parts:
        with part.open("rb") as handle:
            headers.append(handle.readline())
    if len(set(headers)) > 1:  # inferred columns that differ: let pandas line them up
        import pandas as pd

        frames = [
            pd.read_csv(p, dtype=_FIXED, keep_default_na=False, na_values=[""]) for p in parts
        ]
        pd.concat(frames, ignore_index=True).to_csv(target, index=False)
        return
    with target.open("wb") as out:
        out.write(headers[0])
        for part in parts:
            with part.open("rb") as handle:
                handle.readline()
                shutil.copyfileobj(handle, out)
