"""How a stream of lines and a column of scores become the BLOBs the workspace stores.

A stream is one compressed BLOB rather than one row per segment: a
100,000-segment test set with nine systems is a dozen rows instead of a
million, which saves and loads faster and takes a third of the space of one row
per segment (``benchmarks/bench_workspace.py`` measures both in one run).

A stream's payload is its lines joined by ``\\n`` (tagged ``L``) when no line
holds a ``\\n`` (lines read from text files never do), otherwise a JSON array
(tagged ``J``), so any text round-trips exactly; the payload is what a
stream's digest is taken of. Payloads are zlib-compressed at level 1 on a
thread per core when there is enough to share (zlib releases the GIL while it
works; for a few megabytes, starting threads costs more than it saves).
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from bleuviz.arrays import FloatArray

#: zlib's level: 1 compresses these texts about 2:1 at several times the default's speed.
COMPRESSION_LEVEL = 1
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
    """Return each payload zlib-compressed (several at once if they are large)."""
    return _map(lambda p: zlib.compress(p, COMPRESSION_LEVEL), payloads)


def decode_all(blobs: Sequence[bytes]) -> list[tuple[str, ...]]:
    """Return the lines of each stored BLOB (decompressing several at once if they are large)."""
    return [lines_of(data) for data in _map(zlib.decompress, blobs)]


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
