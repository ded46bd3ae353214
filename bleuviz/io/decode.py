"""Bring an input file into memory and decode it, refusing what cannot be read.

Every reader in ``bleuviz.io.load`` starts here: a file is read from disk or taken
from an upload as ``NamedBytes``, checked against the size limit and for
emptiness, and decoded as strict UTF-8 with one leading BOM dropped. Only
``\\n`` and ``\\r\\n`` end a line (``str.splitlines`` would also split on
``\\x0b``, ``\\x1c`` or ``\\u2028``, which may occur inside a segment). Every
refusal is an ``InputError`` with a one-line message that names the file and,
where there is one, the line.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from bleuviz.errors import InputError

DEFAULT_MAX_BYTES = 200 * 1024 * 1024
#: Bytes asked of a stream at once past what its size announced (16 MiB).
_CHUNK = 1 << 24

_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class NamedBytes:
    """An input file held in memory: an upload, or a file read from disk.

    Attributes:
        name: display name used in messages, e.g. ``"hyp.sysA.txt"`` or a path.
        data: the file's raw bytes.
    """

    name: str
    data: bytes


def read_path(path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES) -> NamedBytes:
    """Read a file from disk, checking its size before reading it.

    Raises:
        InputError: the file is missing, a directory, unreadable or over ``max_bytes``.
    """
    name = os.fspath(path)
    size = check_path(path, max_bytes)
    try:
        with open(path, "rb") as fh:
            data = read_at_most(fh, max_bytes, size)  # it may have grown since stat
    except FileNotFoundError:
        raise InputError(f"no such file: {name}") from None
    except OSError as e:
        raise InputError(f"{name}: cannot read file: {e.strerror}") from None
    _check_size(name, len(data), max_bytes)
    return NamedBytes(name, data)


def check_path(
    path: str | os.PathLike[str], max_bytes: int = DEFAULT_MAX_BYTES, size: int | None = None
) -> int:
    """Return a file's size, refusing a missing file, a directory or one over ``max_bytes``.

    ``size``: the bytes read of it so far (a file that grew since it was checked).

    Raises:
        InputError: the file is missing, a directory, unreadable or over ``max_bytes``.
    """
    name = os.fspath(path)
    if size is None:
        try:
            info = Path(path).stat()
        except FileNotFoundError:
            raise InputError(f"no such file: {name}") from None
        except OSError as e:
            raise InputError(f"{name}: cannot read file: {e.strerror}") from None
        if stat.S_ISDIR(info.st_mode):
            raise InputError(f"{name}: is a directory, not a file")
        size = info.st_size
    _check_size(name, size, max_bytes)
    return size


def read_at_most(stream: BinaryIO, max_bytes: int, expected: int = _CHUNK) -> bytes:
    """Read ``stream`` to its end, or to ``max_bytes + 1`` bytes if it is longer.

    ``stream.read(max_bytes + 1)`` would allocate that much at once: a limit far
    above the file (``--max-bytes 9007199254740991``) ran out of memory or
    overflowed. The first read asks for ``expected`` bytes (a file's size), later
    ones for at most ``_CHUNK``.
    """
    parts: list[bytes] = []
    size = 0
    ask = min(expected, max_bytes) + 1
    while size <= max_bytes:
        part = stream.read(min(ask, max_bytes + 1 - size))
        if not part:
            break
        parts.append(part)
        size += len(part)
        ask = _CHUNK
    return b"".join(parts)


def decode_lines(f: NamedBytes, max_bytes: int = DEFAULT_MAX_BYTES) -> tuple[str, ...]:
    """Decode a file as strict UTF-8 and split it into lines.

    A leading BOM is dropped, ``\\r\\n`` and ``\\n`` both end a line, a final line end
    adds no empty line, and empty lines elsewhere are kept as ``""``.

    Raises:
        InputError: the file is over ``max_bytes``, empty, or not valid UTF-8.
    """
    return split_lines(decode_text(f, max_bytes))


def check_size_and_emptiness(f: NamedBytes, max_bytes: int) -> None:
    """Refuse a file over ``max_bytes``, or one with no bytes but a BOM."""
    _check_size(f.name, len(f.data), max_bytes)
    if not f.data.removeprefix(_BOM):
        raise InputError(f"{f.name}: file is empty")


def decode_text(f: NamedBytes, max_bytes: int) -> str:
    """Check size and emptiness, decode strict UTF-8 and drop one leading BOM."""
    check_size_and_emptiness(f, max_bytes)
    try:
        text = f.data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise invalid_utf8(f.name, f.data, e) from None
    return text.removeprefix("\ufeff")


def invalid_utf8(
    name: str, data: bytes, error: UnicodeDecodeError, first_line: int = 0, at: int = 0
) -> InputError:
    """The refusal of ``data``'s invalid UTF-8, naming file ``name``, the line and byte offset.

    ``data`` is the file from line ``first_line`` (0-based) and byte ``at`` on.
    """
    line = first_line + data.count(b"\n", 0, error.start) + 1
    return InputError(f"{name}: invalid UTF-8 at line {line} (byte offset {at + error.start})")


def split_lines(text: str) -> tuple[str, ...]:
    """Split on ``\\r\\n`` and ``\\n`` only; a final line end adds no empty line."""
    lines = text.replace("\r\n", "\n").split("\n")
    if len(lines) > 1 and not lines[-1]:  # ends with a line end: no empty line after it
        lines.pop()  # (not text.removesuffix("\n"), which would copy the whole text)
    return tuple(lines)


def file_extension(name: str) -> str:
    """Return the lower-cased last extension of a file name, with its dot."""
    return os.path.splitext(re.split(r"[\\/]", name)[-1])[1].lower()


def plural(n: int, word: str) -> str:
    """Return ``"1 line"`` or ``"3 lines"``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _check_size(name: str, size: int, max_bytes: int) -> None:
    """Refuse a file of ``size`` bytes when it is over ``max_bytes``."""
    if size > max_bytes:
        raise InputError(
            f"{name}: file is {_format_size(size)}, over the {_format_size(max_bytes)} limit"
        )


def _format_size(n: int) -> str:
    """Format a byte count for people: ``"300.0 MB"``, ``"12.5 KB"`` or ``"17 bytes"``."""
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.1f} MB"
    if n >= 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n} bytes"
