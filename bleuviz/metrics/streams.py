"""The check every metric makes of its input streams."""

from __future__ import annotations

from collections.abc import Sequence

from bleuviz.errors import InputError


def check_streams(hyps: Sequence[str], references: Sequence[Sequence[str]]) -> None:
    """Refuse no segments, no references, or a reference stream of another length."""
    if not hyps:
        raise InputError("hyps: no segments to score")
    if not references:
        raise InputError("references: at least one reference stream is required")
    for i, stream in enumerate(references, start=1):
        if len(stream) != len(hyps):
            raise InputError(
                f"reference {i} has {len(stream)} lines but the hypotheses have {len(hyps)}"
            )
