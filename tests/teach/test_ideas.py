"""Tests of bleuviz.teach.ideas: recall per reference, signature fields, tokenizers.

Oracles: sacrebleu 2.6's ``sentence_bleu(..., tokenize=NAME)`` and its tokenizers
(``sacrebleu.tokenizers``), computed here; recall counted by hand in the docstring.
"""

from __future__ import annotations

import pytest
import sacrebleu
from sacrebleu.metrics import BLEU

from bleuviz.bleu import BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.teach.examples import EXAMPLE_BY_KEY
from bleuviz.teach.ideas import (
    DEMO_TOKENIZERS,
    SIGNATURE_FIELDS,
    recall_rows,
    signature_frame,
    through_tokenizers,
)
from bleuviz.teach.walkthrough import build_walkthrough

SENTENCE = "Don't stop, it's 3.5%! 我们走吧"
REFERENCE = "Do not stop; it is 3.5 %. 我们走"


def test_recall_against_each_reference_by_hand() -> None:
    """Worked example, 13a. Ref 1 (10 tokens) holds 7 candidate unigrams (all but The, on,
    evening: "On" is capitalized); ref 2 (9 tokens) 8 (all but approved, evening)."""
    e = EXAMPLE_BY_KEY["worked"]
    walk = build_walkthrough(e.hypothesis, e.references, TokenizeConfig(), BleuConfig())
    unigrams = [(r.reference, r.matches, r.ref_ngrams) for r in recall_rows(walk) if r.order == 1]
    assert unigrams == [(1, 7, 10), (2, 8, 9)]


def test_every_signature_field_is_explained() -> None:
    for flavor in ("sacrebleu", "nltk", "tf-nmt"):
        walk = build_walkthrough("a b", ["a b"], TokenizeConfig(), BleuConfig(flavor))
        frame = signature_frame(walk.core.signature)
        assert "—" not in frame["meaning"].tolist(), flavor
        assert "|".join(
            f"{f}:{v}" for f, v in zip(frame["field"], frame["value"], strict=True)
        ) == (walk.core.signature)
    assert {"nrefs", "case", "eff", "tok", "smooth", "version"} <= set(SIGNATURE_FIELDS)


@pytest.mark.parametrize("lowercase", [False, True])
def test_tokenizers_give_sacrebleus_tokens_and_scores(lowercase: bool) -> None:
    config = BleuConfig(effective_order=True)
    rows = through_tokenizers(SENTENCE, [REFERENCE], TokenizeConfig(lowercase=lowercase), config)
    assert [r.tokenizer for r in rows] == list(DEMO_TOKENIZERS)
    for row in rows:
        expected = sacrebleu.sentence_bleu(
            SENTENCE, [REFERENCE], tokenize=row.tokenizer, lowercase=lowercase
        )
        assert row.score == pytest.approx(expected.score, abs=1e-9), row.tokenizer
        tokenizer = BLEU(tokenize=row.tokenizer).tokenizer
        text = SENTENCE.lower() if lowercase else SENTENCE
        assert list(row.hyp_tokens) == tokenizer(text).split(), row.tokenizer
    assert len({r.score for r in rows}) > 2  # the point of the demonstration
