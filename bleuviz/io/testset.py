"""The in-memory test set: hypotheses of one or more systems, references and source."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from bleuviz.errors import InputError

if TYPE_CHECKING:
    from bleuviz.io.error_spans import ErrorAnnotations
    from bleuviz.io.scores import SegmentScores


@dataclass(frozen=True, slots=True)
class TestSet:
    """Aligned segments of a test set, validated so that every stream has N lines.

    Attributes:
        systems: system name -> its N hypothesis lines, in the order loaded.
        references: one tuple of N lines per reference stream (a line may be empty).
        source: N source lines, or None.
        doc_ids: N document ids (segments of a document are contiguous), or None.
        seg_ids: N segment ids as given by the input (XML ``id`` or 1..N).
        seg_scores: metrics scored outside (COMET, human judgements), one
            ``SegmentScores`` each, with distinct names.
        error_spans: error spans marked outside (MQM, ESA, xCOMET), one
            ``ErrorAnnotations`` per file, with distinct names.
    """

    __test__ = False  # not a pytest class despite its name

    systems: dict[str, tuple[str, ...]]
    references: tuple[tuple[str, ...], ...]
    source: tuple[str, ...] | None = None
    doc_ids: tuple[str, ...] | None = None
    seg_ids: tuple[str, ...] | None = None
    seg_scores: tuple[SegmentScores, ...] = ()
    error_spans: tuple[ErrorAnnotations, ...] = ()

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
        self._check_seg_scores()
        self._check_error_spans()

    def _check_seg_scores(self) -> None:
        """Refuse a repeated metric name, an unknown system or another segment count."""
        seen: set[str] = set()
        for scores in self.seg_scores:
            if scores.name in seen:
                raise InputError(f"{scores.origin}: segment scores named {scores.name!r} twice")
            seen.add(scores.name)
            for system, values in scores.values.items():
                if system not in self.systems:
                    raise InputError(f"{scores.origin}: system {system!r} is not in the test set")
                if len(values) != self.n_segments:
                    raise InputError(
                        f"{scores.origin}: system {system!r} has {len(values)} scores "
                        f"but the test set has {self.n_segments} segments"
                    )

    def _check_error_spans(self) -> None:
        """Refuse a repeated annotation name, an unknown system or another segment count."""
        seen: set[str] = set()
        for spans in self.error_spans:
            if spans.name in seen:
                raise InputError(f"{spans.origin}: error spans named {spans.name!r} twice")
            seen.add(spans.name)
            for system, segments in spans.segments.items():
                if system not in self.systems:
                    raise InputError(f"{spans.origin}: system {system!r} is not in the test set")
                if len(segments) != self.n_segments:
                    raise InputError(
                        f"{spans.origin}: system {system!r} has {len(segments)} "
                        f"segments but the test set has {self.n_segments}"
                    )

    def with_error_spans(self, added: tuple[ErrorAnnotations, ...]) -> TestSet:
        """Return this test set with ``added`` (names must stay distinct)."""
        return replace(self, error_spans=self.error_spans + added)

    def with_seg_scores(self, scores: tuple[SegmentScores, ...]) -> TestSet:
        """Return this test set with ``scores`` added (names must stay distinct)."""
        return replace(self, seg_scores=self.seg_scores + scores)

    def seg_score(self, name: str) -> SegmentScores:
        """Return the imported metric ``name``.

        Raises:
            InputError: no imported metric has that name.
        """
        for scores in self.seg_scores:
            if scores.name == name:
                return scores
        known = ", ".join(s.name for s in self.seg_scores) or "none imported"
        raise InputError(f"segment scores: no metric {name!r} ({known})")

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
