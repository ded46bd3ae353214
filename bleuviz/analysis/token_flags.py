"""Every hypothesis token of a system: flagged or not at each order, and where it sits.

The highlight (``bleuviz.bleu.explain``, ``SegmentExplanation.token_statuses``)
marks a token *matched* at order n if a matched n-gram occurrence covers it: an
n-gram's first ``min(hyp count, clip count)`` occurrences in the hypothesis are
matched, the clip count being its largest count in any single reference. A
token is *flagged* at order n when it is not matched (clipped or missing). The
sacrebleu, nltk and tf-nmt flavours all clip by that maximum, so the flags do
not depend on the flavour, only on the tokenization and the highest order.

``explain_segment`` does this with Counters one segment at a time; here a whole
system is done at once on the columns the statistics are counted from
(``encode_lines``, the ``ReferenceIndex``): each occurrence's (segment, n-gram)
pair id, its rank among the pair's occurrences, and a cumulative sum for the
tokens each matched occurrence covers. Token positions in the line are found as
``bleuviz.bleu.spans.align_tokens`` finds them, on code-point arrays: the
tokens, joined, must equal the line's non-whitespace characters, else the line
is *unaligned* (a tokenizer that rewrote characters, or lowercasing that changed
the line's length). tests/analysis/test_token_flags.py holds both to
``explain_segment``, token for token.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import NDArray

from bleuviz.arrays import IntArray
from bleuviz.bleu.encode import EncodedLines, encode_lines, ids_in
from bleuviz.bleu.ngrams import UNSEEN, gram_keys, lookup, room
from bleuviz.bleu.references import ReferenceIndex
from bleuviz.errors import InputError
from bleuviz.text.arrow import int_values
from bleuviz.text.whitespace import python_whitespace

BoolArray = NDArray[np.bool_]
#: Marks a token position of an unaligned line.
NO_POSITION = -1
_OFFSET_TYPES = {pa.string(): np.int32, pa.large_string(): np.int64}


@dataclass(frozen=True, slots=True, eq=False)
class TokenFlags:
    """One system's T hypothesis tokens over N segments.

    Attributes:
        offsets: (N + 1,) segment i's tokens are ``offsets[i]:offsets[i + 1]``.
        flagged: (T, K) True where no matched n-gram occurrence of order k + 1
            covers the token.
        starts / ends: (T,) the token's characters in its line, end exclusive;
            NO_POSITION on an unaligned line.
        aligned: (N,) whether the line's tokens were found in it.
        line_starts: (N,) where each line starts in the lines joined end to end
            (the lowercased lines when lowercasing): line-relative offsets plus
            these are increasing over the whole system, for sorted searches.
    """

    offsets: IntArray
    flagged: BoolArray
    starts: IntArray
    ends: IntArray
    aligned: BoolArray
    line_starts: IntArray

    @property
    def segments(self) -> IntArray:
        """(T,) each token's segment."""
        return np.repeat(np.arange(len(self.aligned), dtype=np.int64), np.diff(self.offsets))


def token_flags(hypotheses: Sequence[str], refs: ReferenceIndex) -> TokenFlags:
    """Flag and place every token of ``hypotheses`` (one line per segment of ``refs``).

    Raises:
        InputError: the line count differs from the references'.
    """
    if len(hypotheses) != refs.n_segments:
        raise InputError(
            f"hypotheses: {len(hypotheses)} lines but the references have {refs.n_segments}"
        )
    encoded = encode_lines(hypotheses, refs.tokenize)
    flagged = _flags(encoded, refs)
    starts, ends, aligned, line_starts = _positions(hypotheses, encoded, refs.tokenize.lowercase)
    return TokenFlags(encoded.offsets, flagged, starts, ends, aligned, line_starts)


def _flags(encoded: EncodedLines, refs: ReferenceIndex) -> BoolArray:
    """Return (T, K): no matched occurrence of order k + 1 covers the token."""
    n_tokens = int(encoded.offsets[-1])
    flagged = np.ones((n_tokens, refs.max_order), dtype=bool)
    for order, at, pairs, clip_counts in order_lookups(encoded, refs):
        starts = at[_matched(pairs, clip_counts)]
        flagged[:, order - 1] = ~covered_tokens(starts, order, n_tokens)
    return flagged


def order_lookups(
    encoded: EncodedLines, refs: ReferenceIndex
) -> Iterator[tuple[int, IntArray, IntArray, IntArray]]:
    """Yield, per order, the tokens whose n-gram the references may hold, looked up.

    As bleuviz.bleu.stats counts them: each occurrence's (segment, n-gram) pair
    id, UNSEEN where the segment's references lack the n-gram; only positions
    whose (n-1)-gram the references hold are looked up. Yields ``(order,
    positions, pair ids, the order's clip counts)``; a position is an n-gram's
    first token, in text order.
    """
    ids, offsets = ids_in(encoded, refs.vocabulary), encoded.offsets
    space = room(offsets)
    prefix = np.repeat(np.arange(len(offsets) - 1, dtype=np.int64), np.diff(offsets))
    width = max(len(refs.vocabulary), 1)
    for order, index in enumerate(refs.orders, start=1):
        keys = gram_keys(prefix, ids, order, width)
        keys[space < order] = UNSEEN
        at = np.flatnonzero(keys >= 0)
        pairs = lookup(keys[at], index.keys)
        prefix = np.full(len(ids), UNSEEN, dtype=np.int64)
        prefix[at] = pairs
        yield order, at, pairs, index.clip_counts


def covered_tokens(starts: IntArray, order: int, n_tokens: int) -> BoolArray:
    """Which of ``n_tokens`` tokens an n-gram of ``order`` starting at one of ``starts``
    covers (within its line: an n-gram never crosses one)."""
    count = np.zeros(n_tokens + 1, dtype=np.int64)
    count[starts + 1] = 1
    np.cumsum(count, out=count)
    # count[t + 1] - count[max(t + 1 - order, 0)]: the starts in t - order + 1 .. t
    before = np.concatenate((np.zeros(order - 1, np.int64), count[: n_tokens + 2 - order]))
    covered: BoolArray = count[1:] != before[:n_tokens]
    return covered


def _matched(pairs: IntArray, clip_counts: IntArray) -> BoolArray:
    """Return which occurrences (in text order) are matched: the first clip-count of their pair."""
    found = pairs != UNSEEN
    counts = np.bincount(pairs[found], minlength=len(clip_counts))
    matched: BoolArray = found.copy()
    matched[found] = counts[pairs[found]] <= clip_counts[pairs[found]]
    # Pairs with more occurrences than their clip count (rare): rank the occurrences.
    over = np.flatnonzero(found & ~matched)
    over = over[clip_counts[pairs[over]] > 0]
    if len(over):
        ids = pairs[over]
        order = np.argsort(ids, kind="stable")
        ordered = ids[order]
        first = np.ones(len(ordered), dtype=bool)
        first[1:] = ordered[1:] != ordered[:-1]
        run_start = np.maximum.accumulate(np.where(first, np.arange(len(ordered)), 0))
        rank = np.arange(len(ordered)) - run_start
        matched[over[order]] = rank < clip_counts[ordered]
    return matched


@cache
def _whitespace_table() -> BoolArray:
    """A lookup table: code point -> ``str.isspace()``, for ``np.take(..., mode="clip")``.

    Every whitespace character is below U+3001; the last entry, False, stands for
    all code points from its index on.
    """
    codes = [ord(c) for c in python_whitespace()]
    table = np.zeros(max(codes) + 2, dtype=bool)
    table[codes] = True
    return table


def _code_points(text: str) -> NDArray[np.uint32]:
    """Return ``text``'s code points (one per Python character)."""
    codes: NDArray[np.uint32] = np.frombuffer(
        text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32
    )
    return codes


def _positions(
    lines: Sequence[str], encoded: EncodedLines, lowercase: bool
) -> tuple[IntArray, IntArray, BoolArray, IntArray]:
    """Place every token in its line as ``align_tokens`` does; return starts, ends, aligned.

    A line aligns when its tokens, joined, equal its non-whitespace characters
    (tokens hold no whitespace, and ``align_tokens`` lets only whitespace lie
    between, before or after them), and when lowercasing kept its length.
    """
    hay_lines = [line.lower() for line in lines] if lowercase else lines
    lengths = np.fromiter(map(len, hay_lines), np.int64, len(lines))
    line_starts = np.concatenate(([0], np.cumsum(lengths)))
    hay = _code_points("".join(hay_lines))
    shown = ~np.take(_whitespace_table(), hay, mode="clip")
    visible = np.flatnonzero(shown)  # positions of non-whitespace characters
    per_line = np.diff(np.searchsorted(visible, line_starts))
    token_chars, token_lengths = _token_characters(encoded)
    cum = np.concatenate(([0], np.cumsum(token_lengths)))
    chars_per_line = cum[encoded.offsets[1:]] - cum[encoded.offsets[:-1]]
    aligned = chars_per_line == per_line
    if lowercase:
        aligned &= lengths == np.fromiter(map(len, lines), np.int64, len(lines))
    _drop_differing(aligned, hay[shown], token_chars, per_line, chars_per_line)
    # A token's first character is the line's (chars before it in the line)-th visible one.
    line = np.repeat(np.arange(len(lines)), np.diff(encoded.offsets))
    first = np.concatenate(([0], np.cumsum(per_line)))[line] + cum[:-1] - cum[encoded.offsets[line]]
    last = np.clip(first + token_lengths - 1, 0, max(len(visible) - 1, 0))
    ok = aligned[line]
    top = max(len(visible) - 1, 0)
    at = visible if len(visible) else np.zeros(1, dtype=np.int64)
    starts = np.where(ok, at[np.minimum(first, top)] - line_starts[line], NO_POSITION)
    ends = np.where(ok, at[last] + 1 - line_starts[line], NO_POSITION)
    return starts, ends, aligned, line_starts[:-1]


def _drop_differing(
    aligned: BoolArray,
    shown: NDArray[np.uint32],
    token_chars: NDArray[np.uint32],
    per_line: IntArray,
    chars_per_line: IntArray,
) -> None:
    """Mark unaligned the lines (of those ``aligned`` so far) whose characters differ."""
    if not aligned.all():
        shown = shown[np.repeat(aligned, per_line)]
        token_chars = token_chars[np.repeat(aligned, chars_per_line)]
    differ = np.flatnonzero(shown != token_chars)
    if len(differ):
        kept = np.flatnonzero(aligned)
        ends = np.cumsum(per_line[kept])
        aligned[kept[np.searchsorted(ends, differ, side="right")]] = False


def _token_characters(encoded: EncodedLines) -> tuple[NDArray[np.uint32], IntArray]:
    """Return every token's code points, token after token, and each token's length."""
    if len(encoded.ids) == 0:
        return np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=np.int64)
    tokens = pc.take(encoded.vocabulary, pa.array(encoded.ids))
    lengths = int_values(pc.utf8_length(tokens))
    data = tokens.buffers()[2]
    offsets = np.frombuffer(tokens.buffers()[1], _OFFSET_TYPES[tokens.type])
    first, end = int(offsets[tokens.offset]), int(offsets[tokens.offset + len(tokens)])
    text = b"" if data is None else data.to_pybytes()[first:end]
    return _code_points(text.decode("utf-8")), lengths
