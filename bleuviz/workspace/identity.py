"""Content-derived ids: the same references, source and ids give the same test-set id.

A test set's id is a digest of what defines the task (references, source,
document and segment ids), never of the systems: adding a system output (a new
checkpoint) to a saved test set keeps its id, and uploading the same files
again finds the set already saved.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import cached_property

from bleuviz.io.testset import TestSet
from bleuviz.workspace.codec import payload

#: Hex digits kept of the SHA-256 digest (64 bits: collisions are negligible for a workspace).
ID_LENGTH = 16
#: What stands for a stream the test set does not have (source, document or segment ids).
ABSENT = "-"


def digest(data: bytes) -> str:
    """Return the SHA-256 hex digest of a stream's payload (``bleuviz.workspace.codec``)."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, eq=False)  # no slots: the digests and the id are cached on it
class DefiningStreams:
    """The payloads of what defines a test set, built once for both its id and its save.

    A 100,000-segment set's streams are tens of megabytes: joining and encoding
    them once, not once for the id and again to store them, keeps a third of the
    work of saving a set off the first page load. Their digests, which the id is
    made of and which the save stores beside each stream, are taken once too.

    Attributes:
        references: each reference stream's payload, in order.
        singles: the source's, document ids' and segment ids' payloads (None: absent).
    """

    references: tuple[bytes, ...]
    singles: tuple[bytes | None, bytes | None, bytes | None]

    @classmethod
    def of(cls, testset: TestSet) -> DefiningStreams:
        """Return the payloads of ``testset``'s references, source, document and segment ids."""
        source, doc_ids, seg_ids = (
            None if lines is None else payload(lines)
            for lines in (testset.source, testset.doc_ids, testset.seg_ids)
        )
        return cls(tuple(payload(r) for r in testset.references), (source, doc_ids, seg_ids))

    @cached_property
    def reference_digests(self) -> tuple[str, ...]:
        """Each reference payload's digest, in order."""
        return tuple(digest(r) for r in self.references)

    @cached_property
    def single_digests(self) -> tuple[str | None, ...]:
        """The source's, document ids' and segment ids' digests (None: absent)."""
        return tuple(None if data is None else digest(data) for data in self.singles)

    @cached_property
    def id(self) -> str:
        """The test set's id: a digest of its references, source, document and segment ids.

        An absent stream digests differently from any present one, so a test set
        without source never shares an id with one that has it.
        """
        parts = [
            list(self.reference_digests),
            *(ABSENT if d is None else d for d in self.single_digests),
        ]
        return hashlib.sha256(json.dumps(parts).encode("ascii")).hexdigest()[:ID_LENGTH]


def testset_id(testset: TestSet) -> str:
    """Return the id of ``testset`` (``DefiningStreams.id``)."""
    return DefiningStreams.of(testset).id
