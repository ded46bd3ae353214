"""Assemble the streams a reader has parsed into a validated ``TestSet``.

Every reader ends here, so that system names are made unique the same way
whatever the format: a repeated name gets a suffix (``sysA``, ``sysA (2)``)
instead of overwriting the system loaded before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bleuviz.io.testset import TestSet

if TYPE_CHECKING:
    from bleuviz.io.wmt_xml import Aligned  # the XML reader, loaded only to read XML


def build_testset(
    systems: Sequence[tuple[str, tuple[str, ...]]],
    references: Sequence[tuple[str, ...]],
    source: tuple[str, ...] | None = None,
    doc_ids: tuple[str, ...] | None = None,
    seg_ids: tuple[str, ...] | None = None,
) -> TestSet:
    """Build a ``TestSet``, making system names unique."""
    names = _unique_names([name for name, _ in systems])
    return TestSet(
        systems={name: lines for name, (_, lines) in zip(names, systems, strict=True)},
        references=tuple(references),
        source=source,
        doc_ids=doc_ids,
        seg_ids=seg_ids,
    )


def testset_from_aligned(aligned: Aligned) -> TestSet:
    """Build a ``TestSet`` from streams parsed out of XML or SGML."""
    return build_testset(
        aligned.systems, aligned.references, aligned.source, aligned.doc_ids, aligned.seg_ids
    )


def _unique_names(names: Sequence[str]) -> list[str]:
    """Make names unique by suffixing repeats: ``sysA``, ``sysA (2)``, ``sysA (3)``."""
    seen: set[str] = set()
    unique: list[str] = []
    for name in names:
        candidate, k = name, 1
        while candidate in seen:
            k += 1
            candidate = f"{name} ({k})"
        seen.add(candidate)
        unique.append(candidate)
    return unique
