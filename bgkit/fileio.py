"""Safe file writing for every bgkit writer: atomic, and never over a file unless asked.

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> write_atomic(target, b"one")
>>> write_atomic(target, b"two")
Traceback (most recent call last):
...
FileExistsError: ... exists; use --force (force=True) to overwrite it
>>> write_atomic(target, b"two", force=True); target.read_bytes()
b'two'
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: str | os.PathLike[str], data: bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers never see a half-written file.

    The bytes go to a temporary file in the same directory, which then takes the
    place of ``path`` in one step. A failure leaves ``path`` as it was.

    :param force: replace ``path`` when it exists.
    :raises FileExistsError: when ``path`` exists and ``force`` is false.
    """
    target = Path(path)
    if not force and target.exists():
        raise FileExistsError(_exists(target))
    tmp = target.with_name(f".{target.name}.{uuid.uuid4().hex}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if force:
            os.replace(tmp, target)
        else:
            _link_no_clobber(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()


def _exists(target: Path) -> str:
    return f"{target} exists; use --force (force=True) to overwrite it"


def _link_no_clobber(tmp: Path, target: Path) -> None:
    """Move ``tmp`` to ``target`` unless ``target`` exists (atomically where links work)."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise FileExistsError(_exists(target)) from None
    except OSError:  # no hard links here (some network or FAT file systems)
        if target.exists():
            raise FileExistsError(_exists(target)) from None
        os.replace(tmp, target)
