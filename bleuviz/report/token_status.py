"""Every hypothesis token of a system marked match, clip or miss at each order, at once.

The status is the highlight's (``SegmentExplanation.token_statuses``): *match*
where a matched n-gram occurrence covers the token, else *clip* where an
occurrence the references hold (beyond its clip count) covers it, else *miss*.
``bleuviz.analysis.token_flags`` already finds the matched occurrences and
places the tokens in their lines; this adds the occurrences the references
hold, with the same columns (``gram_keys`` and ``lookup`` on the
``ReferenceIndex``), so a whole system is marked without a ``Counter`` per
segment (``explain_segment`` takes 1.8 s for one WMT17 system, this a tenth).
tests/report/test_token_status.py holds it to ``explain_segment`` token for token.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from bleuviz.analysis.token_flags import TokenFlags, covered_tokens, order_lookups, token_flags
from bleuviz.bleu.encode import encode_lines
from bleuviz.bleu.ngrams import UNSEEN
from bleuviz.bleu.references import ReferenceIndex

#: A status's code in ``TokenStatuses.codes`` and its one-letter spelling in the report.
MISS, CLIP, MATCH = 0, 1, 2
LETTERS = np.array(["x", "c", "m"])


@dataclass(frozen=True, slots=True, eq=False)
class TokenStatuses:
    """One system's T tokens over N segments, each token's status at every order.

    Attributes:
        flags: where the tokens sit (``token_flags``: offsets, starts, ends, aligned).
        codes: (T, K) MISS, CLIP or MATCH at order k + 1.
        spelled: every token's K letters, token after token (``letters`` slices it).
    """

    flags: TokenFlags
    codes: NDArray[np.int8]
    spelled: str

    def letters(self, segment: int) -> str:
        """The segment's statuses, token after token, each as K letters (``m``, ``c``, ``x``)."""
        k = self.codes.shape[1]
        lo, hi = self.flags.offsets[segment], self.flags.offsets[segment + 1]
        return self.spelled[k * lo : k * hi]


def token_statuses(hypotheses: Sequence[str], refs: ReferenceIndex) -> TokenStatuses:
    """Mark every token of ``hypotheses`` (one line per segment of ``refs``) at every order."""
    flags = token_flags(hypotheses, refs)
    held = _held(hypotheses, refs)
    codes = np.where(flags.flagged, np.where(held, CLIP, MISS), MATCH).astype(np.int8)
    return TokenStatuses(flags, codes, "".join(LETTERS[codes].ravel().tolist()))


def _held(hypotheses: Sequence[str], refs: ReferenceIndex) -> NDArray[np.bool_]:
    """(T, K): an occurrence of order k + 1 the segment's references hold covers the token."""
    encoded = encode_lines(hypotheses, refs.tokenize)
    n_tokens = int(encoded.offsets[-1])
    held = np.zeros((n_tokens, refs.max_order), dtype=bool)
    for order, at, pairs, _ in order_lookups(encoded, refs):
        held[:, order - 1] = covered_tokens(at[pairs != UNSEEN], order, n_tokens)
    return held
