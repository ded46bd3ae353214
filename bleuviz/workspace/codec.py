"""How a stream of lines and a column of scores become the BLOBs the workspace stores.

A stream is one compressed BLOB rather than one row per segment: a
100,000-segment test set with nine systems is a dozen rows instead of a
million, so saving and loading it is one compression and one JSON parse per
stream (see the save/load benchmark in ``benchmarks/``). Lines are JSON-encoded
so that any text, tabs and newlines included, round-trips exactly.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence

import numpy as np

from bleuviz.arrays import FloatArray

#: zlib's level: 1 compresses text about 3:1 at several times the speed of the default.
COMPRESSION_LEVEL = 1
#: Scores are stored as little-endian float64, whatever the machine.
SCORE_DTYPE = np.dtype("<f8")


def encode_lines(lines: Sequence[str]) -> bytes:
    """Return ``lines`` as zlib-compressed JSON."""
    data = json.dumps(list(lines), ensure_ascii=False).encode("utf-8")
    return zlib.compress(data, COMPRESSION_LEVEL)


def decode_lines(blob: bytes) -> tuple[str, ...]:
    """Return the lines ``encode_lines`` stored."""
    return tuple(json.loads(zlib.decompress(blob).decode("utf-8")))


def encode_scores(values: FloatArray) -> bytes:
    """Return a column of scores as little-endian float64 bytes (NaN kept)."""
    return np.asarray(values, dtype=SCORE_DTYPE).tobytes()


def decode_scores(blob: bytes) -> FloatArray:
    """Return the read-only float64 column ``encode_scores`` stored."""
    array: FloatArray = np.frombuffer(blob, dtype=SCORE_DTYPE).astype(np.float64)
    array.flags.writeable = False
    return array
