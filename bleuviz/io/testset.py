"""The in-memory test set: hypotheses of one or more systems, references and source."""

from __future__ import annotations

from dataclasses import dataclass

from bleuviz.errors import InputError


@dataclass(frozen=True, slots=True)
class TestSet:
    """Aligned segments of a test set, validated so that every stream has N lines.

    Attributes:
        systems: system name -> its N hypothesis lines, in the order loaded.
        references: one tuple of N lines per reference stream (a line may be empty).
        source: N source lines, or None.
        doc_ids: N document ids (segments of a document are contiguous), or None.
        seg_ids: N segment ids as given by the input (XML ``id`` or 1..N).
    """

    __test__ = False  # not a pytest class despite its name

    systems: dict[str, tuple[str, ...]]
    references: tuple[tuple[str, ...], ...]
    source: tuple[str, ...] | None = None
    doc_ids: tuple[str, ...] | None = None
    seg_ids: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.references:
            raise InputError("references: at least one reference stream is required")
        n = len(self.references[0])
        streams: list[tuple[str, int]] = [(f"reference 1 ({n} lines)", n)]
        streams += [(f"reference {i + 1}", len(r)) for i, r in enumerate(self.references)]
        streams += [(f"system {name!r}", len(lines)) for name, lines in self.systems.items()]
        if self.source is not None:
            streams.append(("source", len(self.source)))
        if self.doc_ids is not None:
            streams.append(("document ids", len(self.doc_ids)))
        if self.seg_ids is not None:
            streams.append(("segment ids", len(self.seg_ids)))
        bad = [f"{label} has {count}" for label, count in streams if count != n]
        if bad:
            raise InputError(f"line counts differ: expected {n} lines; " + "; ".join(bad))

    @property
    def n_segments(self) -> int:
        """Number of aligned segments."""
        return len(self.references[0])

    @property
    def system_names(self) -> tuple[str, ...]:
        """System names in load order."""
        return tuple(self.systems)

    def segment_label(self, index: int) -> str:
        """Return the user-facing id of segment ``index`` (0-based)."""
        if self.seg_ids is not None:
            return self.seg_ids[index]
        return str(index + 1)
