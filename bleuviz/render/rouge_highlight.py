"""HTML for a ROUGE explanation: the hypothesis and chosen reference, token by token.

Uses the markup of :mod:`bleuviz.render.highlight` (``<span class="bv-tok"
data-status=...>``, every token escaped). Tokens are rouge-score's own
(lowercased, non-alphanumerics dropped, optionally stemmed), so they are shown
as tokens, not as spans of the original text.

Statuses:
    * ROUGE-L: ``match`` for a token of the LCS, ``miss`` otherwise.
    * ROUGE-N: ``match`` for a token inside a matched n-gram occurrence.
    * ROUGE-Lsum: per reference sentence, ``match`` for a counted union-LCS
      token, ``clip`` for one refused by rouge-score's double-count guard,
      ``miss`` otherwise; a hypothesis token is ``match`` if some counted
      reference token is paired with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bleuviz.render.highlight import highlight
from bleuviz.rouge.explain import (
    LcsExplanation,
    LsumExplanation,
    NgramExplanation,
    TypeExplanation,
)

_LSUM_STATUS = {"hit": "match", "clipped": "clip", "miss": "miss"}


def rouge_hypothesis_html(explanation: TypeExplanation) -> str:
    """Return the hypothesis tokens marked for ``explanation``'s ROUGE type."""
    detail = explanation.detail
    if isinstance(detail, LsumExplanation):
        return "".join(_lsum_hypothesis_lines(detail))
    return _pair_line(detail, hypothesis=True)


def rouge_reference_html(explanation: TypeExplanation) -> str:
    """Return the chosen reference's tokens marked for ``explanation``'s ROUGE type."""
    detail = explanation.detail
    if not isinstance(detail, LsumExplanation):
        return _pair_line(detail, hypothesis=False)
    lines = []
    for sentence in detail.ref_sentences:
        statuses = [_LSUM_STATUS[s] for s in sentence.status]
        titles = [_lsum_title(s) for s in sentence.status]
        lines.append(highlight("", sentence.tokens, statuses, None, titles))
    return "".join(lines)


def _pair_line(detail: LcsExplanation | NgramExplanation, hypothesis: bool) -> str:
    """One side of a ROUGE-L or ROUGE-N explanation as a highlighted line."""
    if isinstance(detail, LcsExplanation):
        tokens = detail.hyp_tokens if hypothesis else detail.ref_tokens
        flags = detail.hyp_in_lcs if hypothesis else detail.ref_in_lcs
        return _line(tokens, flags, "in the longest common subsequence")
    tokens = detail.hyp_tokens if hypothesis else detail.ref_tokens
    status = detail.hyp_status if hypothesis else detail.ref_status
    return _line(tokens, [s == "match" for s in status], f"in a matched {detail.n}-gram")


def _lsum_hypothesis_lines(detail: LsumExplanation) -> list[str]:
    """One line per hypothesis sentence; a token matches if any reference sentence counted it."""
    lines = []
    for h, tokens in enumerate(detail.hyp_sentences):
        flags = [
            any(sentence.hyp_in_lcs[h][j] for sentence in detail.ref_sentences)
            for j in range(len(tokens))
        ]
        lines.append(_line(tokens, flags, "paired with a counted union-LCS token"))
    return lines


def _line(tokens: Sequence[str], flags: Sequence[bool], why: str) -> str:
    statuses = ["match" if flag else "miss" for flag in flags]
    titles = [why if flag else f"not {why}" for flag in flags]
    return highlight("", tokens, statuses, None, titles)


def _lsum_title(status: str) -> str:
    if status == "hit":
        return "in the union LCS, counted"
    if status == "clipped":
        return "in the union LCS, not counted: the token's count is used up"
    return "not in the union LCS"
