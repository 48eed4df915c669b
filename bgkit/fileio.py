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

import contextlib
import errno
import os
import re
import stat
from pathlib import Path

__all__ = ["check_target", "file_kind", "write_atomic"]

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def write_atomic(path: str | os.PathLike[str], data: bytes, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` so that readers never see a half-written file.

    The bytes go to a temporary file in the same folder, which then takes the place of
    ``path`` in one step. A failure, Ctrl-C or SIGTERM (the ``bgkit`` commands turn it
    into an exception) leaves ``path`` as it was and removes the temporary file; one left
    by a process killed outright (``.NAME.bgkit-PID-HEX.tmp``) is removed by the next
    write to the same path once that process is gone.

    A symbolic link is never written through, with or without ``force`` (an attacker's
    link, dangling or not, would choose where the bytes go): ``path`` must name the file
    itself. The final step renames or hard-links, which never follows a link that
    appears meanwhile, and the temporary file is opened with ``O_NOFOLLOW``.

    :param force: replace ``path`` when it exists.
    :raises FileExistsError: when ``path`` exists and ``force`` is false.
    :raises FileNotFoundError: when the folder of ``path`` does not exist.
    :raises OSError: when ``path`` exists and is not a regular file (a device, a FIFO, a
        socket, a folder, a symbolic link): bgkit never replaces one.
    """
    target = Path(path)
    check_target(path, force=force)
    folder = target.parent
    if not folder.is_dir():
        raise FileNotFoundError(errno.ENOENT, f"no such folder: {folder}", os.fspath(path))
    _remove_stale(target)
    tmp = target.with_name(f".{target.name}.bgkit-{os.getpid()}-{os.urandom(6).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666)
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


def check_target(path: str | os.PathLike[str], *, force: bool = False) -> None:
    """Raise what :func:`write_atomic` raises before it writes anything to ``path``, for a
    caller that checks its outputs before its work (the ``bgkit`` commands).

    :raises OSError: when ``path`` is a symbolic link (``errno.ELOOP``) or exists and is
        not a regular file (``errno.EINVAL``).
    :raises FileExistsError: when ``path`` exists and ``force`` is false.
    """
    if os.path.islink(path):
        where = os.readlink(path)
        raise OSError(
            errno.ELOOP,
            f"a symbolic link (to {where!r}); bgkit never writes through a link: name the"
            " file itself",
            os.fspath(path),
        )
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(info.st_mode):
        what = file_kind(info.st_mode)
        raise OSError(
            errno.EINVAL, f"not a regular file ({what}); bgkit writes only regular files", path
        )
    if not force:
        raise FileExistsError(_exists(Path(path)))


_STALE = re.compile(r"\.(?P<name>.+)\.bgkit-(?P<pid>[0-9]+)-[0-9a-f]+\.tmp")


def _remove_stale(target: Path) -> None:
    """Remove the temporary files of earlier writes to ``target`` whose process is gone."""
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        m = _STALE.fullmatch(name)
        if m is None or m["name"] != target.name or _alive(int(m["pid"])):
            continue
        with contextlib.suppress(OSError):
            (target.parent / name).unlink()


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # someone else's process: leave its file alone
    return True


_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
)


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words: ``"a FIFO"``, ``"a regular file"``..."""
    return next((what for test, what in _FILE_KINDS if test(mode)), "a regular file")


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
