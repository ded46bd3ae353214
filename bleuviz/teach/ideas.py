"""The ideas around BLEU's numbers, on the typed sentence: recall, the signature, tokenizers.

* Why precision with a brevity penalty and not recall: the candidate's n-gram
  recall against each reference alone (matches clipped by that reference over
  its n-grams), next to BLEU's precision (clipped by any reference) and BP.
  Papineni et al. (2002, section 2.2.2) explain that recall over several
  references is ill-defined, and the brevity penalty stands in for it.
* What each field of sacrebleu's signature means (``BLEUSignature`` in
  sacrebleu/metrics/bleu.py, plus bleuviz's ``flavor`` field).
* The same input through sacrebleu's tokenizers, with its tokens and its score.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pandas as pd

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.teach.walkthrough import Walkthrough, build_walkthrough

#: The tokenizers the page demonstrates (the others need extra packages).
DEMO_TOKENIZERS = ("13a", "intl", "zh", "char", "none")

#: Every signature field sacrebleu or bleuviz writes, and what it means.
SIGNATURE_FIELDS = {
    "flavor": "which implementation's rules were replicated (bleuviz; absent for sacrebleu)",
    "nrefs": "how many references each segment has",
    "case": "mixed: case-sensitive; lc: lowercased first",
    "eff": "effective order: yes averages only the orders the candidate has n-grams for",
    "tok": "the tokenizer that split the text into the tokens counted",
    "smooth": "the smoothing of zero n-gram counts",
    "version": "the version of the implementation, so the number can be reproduced",
    "nc": "chrF's character n-gram order",
    "nw": "chrF's word n-gram order (0 for chrF, 2 for chrF++)",
    "space": "whether chrF keeps whitespace in character n-grams",
}


@dataclass(frozen=True, slots=True)
class RecallRow:
    """One reference, one order: the candidate's matches against it alone, and its recall."""

    reference: int
    order: int
    matches: int
    ref_ngrams: int

    @property
    def recall(self) -> float | None:
        """matches / reference n-grams, or None for a reference without n-grams."""
        return self.matches / self.ref_ngrams if self.ref_ngrams else None


def _counts(tokens: Sequence[str], n: int) -> Counter[tuple[str, ...]]:
    return Counter(tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1))


def recall_rows(walk: Walkthrough) -> tuple[RecallRow, ...]:
    """The candidate's n-gram recall against each reference alone, per order."""
    expl, rows = walk.explanation, []
    for i, ref in enumerate(expl.ref_tokens):
        for n in range(1, walk.config.max_order + 1):
            hyp, other = _counts(expl.hyp_tokens, n), _counts(ref, n)
            matches = sum(min(count, other[gram]) for gram, count in hyp.items())
            rows.append(RecallRow(i + 1, n, matches, sum(other.values())))
    return tuple(rows)


def recall_frame(walk: Walkthrough) -> pd.DataFrame:
    """Recall against each reference next to BLEU's precision of the same order."""
    rows = recall_rows(walk)
    return pd.DataFrame(
        {
            "reference": [r.reference for r in rows],
            "n": [r.order for r in rows],
            "recall (matches / reference n-grams)": [
                "—" if r.recall is None else f"{r.matches}/{r.ref_ngrams} = {r.recall:.4f}"
                for r in rows
            ],
            "BLEU's precision p_n": [walk.orders[r.order - 1].fraction for r in rows],
        }
    )


def signature_frame(signature: str) -> pd.DataFrame:
    """One row per field of a signature: its name, its value and what it means."""
    fields = [part.partition(":") for part in signature.split("|") if part]
    return pd.DataFrame(
        {
            "field": [name for name, _, _ in fields],
            "value": [value for _, _, value in fields],
            "meaning": [SIGNATURE_FIELDS.get(name, "—") for name, _, _ in fields],
        }
    )


@dataclass(frozen=True, slots=True)
class Tokenized:
    """The input through one tokenizer: the tokens of every text and the score."""

    tokenizer: str
    hyp_tokens: tuple[str, ...]
    ref_tokens: tuple[tuple[str, ...], ...]
    score: float


def through_tokenizers(
    hypothesis: str, references: Sequence[str], tokenize: TokenizeConfig, config: BleuConfig
) -> tuple[Tokenized, ...]:
    """Score the input with each of DEMO_TOKENIZERS (case and settings unchanged)."""
    out = []
    for name in DEMO_TOKENIZERS:
        tok = replace(tokenize, name=name)
        walk = build_walkthrough(hypothesis, references, tok, config)
        expl = walk.explanation
        refs = tuple(tuple(r) for r in expl.ref_tokens)
        out.append(Tokenized(name, tuple(expl.hyp_tokens), refs, walk.core.score))
    return tuple(out)


def tokenizers_frame(rows: Sequence[Tokenized]) -> pd.DataFrame:
    """One row per tokenizer: the candidate's and first reference's tokens, counts, score."""
    return pd.DataFrame(
        {
            "tokenizer": [r.tokenizer for r in rows],
            "candidate tokens": [" · ".join(r.hyp_tokens) for r in rows],
            "c": [len(r.hyp_tokens) for r in rows],
            "reference 1 tokens": [" · ".join(r.ref_tokens[0]) for r in rows],
            "BLEU": [r.score for r in rows],
        }
    )
