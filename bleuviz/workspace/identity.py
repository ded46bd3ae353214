"""Content-derived ids: the same references, source and ids give the same test-set id.

A test set's id is a digest of what defines the task (references, source,
document and segment ids), never of the systems: adding a system output (a new
checkpoint) to a saved test set keeps its id, and uploading the same files
again finds the set already saved.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from bleuviz.io.testset import TestSet
from bleuviz.workspace.codec import payload

#: Hex digits kept of the SHA-256 digest (64 bits: collisions are negligible for a workspace).
ID_LENGTH = 16
#: What stands for a stream the test set does not have (source, document or segment ids).
ABSENT = "-"


def digest(data: bytes) -> str:
    """Return the SHA-256 hex digest of a stream's payload (``bleuviz.workspace.codec``)."""
    return hashlib.sha256(data).hexdigest()


def stream_digest(lines: Sequence[str]) -> str:
    """Return the digest of a stream of lines."""
    return digest(payload(lines))


def testset_id(testset: TestSet) -> str:
    """Return the id of ``testset``: a digest of its references, source, document and segment ids.

    An absent stream digests differently from any present one, so a test set
    without source never shares an id with one that has it.
    """
    parts = [
        [stream_digest(r) for r in testset.references],
        *(
            ABSENT if lines is None else stream_digest(lines)
            for lines in (testset.source, testset.doc_ids, testset.seg_ids)
        ),
    ]
    return hashlib.sha256(json.dumps(parts).encode("ascii")).hexdigest()[:ID_LENGTH]
