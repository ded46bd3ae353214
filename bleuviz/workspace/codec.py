"""How a stream of lines and a column of scores become the BLOBs the workspace stores.

A stream is one compressed BLOB rather than one row per segment: a
100,000-segment test set with nine systems is a dozen rows instead of a
million, which saves and loads faster and takes a third of the space of one row
per segment (``benchmarks/bench_workspace.py`` measures both in one run).

A stream's payload is its lines joined by ``\\n`` (tagged ``L``) when no line
holds a ``\\n`` (lines read from text files never do), otherwise a JSON array
(tagged ``J``), so any text round-trips exactly; the payload is what a
stream's digest is taken of. Payloads are compressed with Zstandard at level 1
(pyarrow's codec) on a thread per core when there is enough to share (for a few
megabytes, starting threads costs more than it saves). Against zlib at level 1,
which workspaces before it used and which are still read, Zstandard compresses
a 17 MB reference stream in 0.07 s instead of 0.19 s, to 5.9 MB instead of 6.7:
saving a new test set is part of the first page load of the command line's files.
A BLOB is ``Z``, the payload's size (8 bytes, little-endian: Zstandard through
pyarrow needs it to decompress) and the Zstandard frame; a zlib stream never
starts with ``Z`` (its first byte's low four bits are 8, deflate).
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa

from bleuviz.arrays import FloatArray

#: Zstandard's level: 1 compresses these texts about 3:1 at several times the default's speed.
COMPRESSION_LEVEL = 1
#: What a Zstandard BLOB starts with (zlib BLOBs, from earlier workspaces, never do).
_ZSTD_TAG = b"Z"
_SIZE_BYTES = 8
#: Scores are stored as little-endian float64, whatever the machine.
SCORE_DTYPE = np.dtype("<f8")
#: Below this many bytes in all, streams are (de)compressed on the calling thread.
PARALLEL_BYTES = 8 << 20
#: Payload tags: lines joined by newlines, or a JSON array of lines.
_JOINED, _JSON = b"L", b"J"
#: Lone surrogates cannot come from a decoded file, but must not make a save fail.
_ERRORS = "surrogatepass"


def payload(lines: Sequence[str]) -> bytes:
    """Return the uncompressed bytes that stand for ``lines`` (joined, or JSON if need be)."""
    text = "\n".join(lines)
    if lines and text.count("\n") == len(lines) - 1:
        return _JOINED + text.encode("utf-8", _ERRORS)
    return _JSON + json.dumps(list(lines), ensure_ascii=False).encode("utf-8", _ERRORS)


def lines_of(data: bytes) -> tuple[str, ...]:
    """Return the lines a ``payload`` stands for."""
    text = data[1:].decode("utf-8", _ERRORS)
    if data[:1] == _JOINED:
        return tuple(text.split("\n"))
    return tuple(json.loads(text))


def compress_all(payloads: Sequence[bytes]) -> list[bytes]:
    """Return each payload compressed (several at once if they are large)."""
    return _map(compress, payloads)


def compress(data: bytes) -> bytes:
    """Return ``data`` as a BLOB: the tag, its size and its Zstandard frame."""
    frame: bytes = _zstd().compress(data, asbytes=True)
    return _ZSTD_TAG + len(data).to_bytes(_SIZE_BYTES, "little") + frame


def decompress(blob: bytes) -> bytes:
    """Return the payload of a BLOB ``compress`` wrote, or of a zlib one (earlier workspaces)."""
    if blob[:1] != _ZSTD_TAG:
        return zlib.decompress(blob)
    size = int.from_bytes(blob[1 : 1 + _SIZE_BYTES], "little")
    frame = memoryview(blob)[1 + _SIZE_BYTES :]
    data: bytes = _zstd().decompress(frame, decompressed_size=size, asbytes=True)
    return data


def _zstd() -> pa.Codec:
    """pyarrow's Zstandard codec at ``COMPRESSION_LEVEL``."""
    return pa.Codec("zstd", compression_level=COMPRESSION_LEVEL)


def decode_all(blobs: Sequence[bytes]) -> list[tuple[str, ...]]:
    """Return the lines of each stored BLOB (decompressing several at once if they are large)."""
    return [lines_of(data) for data in _map(decompress, blobs)]


def encode_scores(values: FloatArray) -> bytes:
    """Return a column of scores as little-endian float64 bytes (NaN kept)."""
    return np.asarray(values, dtype=SCORE_DTYPE).tobytes()


def decode_scores(blob: bytes) -> FloatArray:
    """Return the read-only float64 column ``encode_scores`` stored."""
    array: FloatArray = np.frombuffer(blob, dtype=SCORE_DTYPE).astype(np.float64)
    array.flags.writeable = False
    return array


def _map(fn: Callable[[bytes], bytes], items: Sequence[bytes]) -> list[bytes]:
    """``fn`` over ``items``, on a thread per core if they hold ``PARALLEL_BYTES`` or more."""
    workers = min(len(items), os.cpu_count() or 1)
    if workers < 2 or sum(len(item) for item in items) < PARALLEL_BYTES:
        return [fn(item) for item in items]
    with ThreadPoolExecutor(workers) as pool:
        return list(pool.map(fn, items))
