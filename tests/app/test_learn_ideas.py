"""AppTest of the Learn page's ideas: recall, the signature's fields, the tokenizers.

Golden numbers: sacrebleu 2.6 ``sentence_bleu(..., tokenize=NAME)`` computed here.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from bleuviz.teach.examples import EXAMPLE_BY_KEY
from tests.app.learn_app import frame_with, open_learn, run_ok, show_part


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    return open_learn(new_app)


def test_recall_signature_and_tokenizers_on_the_typed_sentence(app: AppTest) -> None:
    run_ok(app)
    example = EXAMPLE_BY_KEY["worked"]
    hyp, refs = example.hypothesis, list(example.references)
    assert any("against reference 1 alone, 7/10" in m.value for m in app.markdown)
    signature = frame_with(app, "meaning")
    assert signature["field"].tolist() == ["nrefs", "case", "eff", "tok", "smooth", "version"]
    assert signature["value"].tolist()[:4] == ["2", "mixed", "yes", "13a"]
    show_part(app, "tokenizers")
    tokens = frame_with(app, "candidate tokens")
    for name, score in zip(tokens["tokenizer"], tokens["BLEU"], strict=True):
        assert score == pytest.approx(sacrebleu.sentence_bleu(hyp, refs, tokenize=name).score)
    assert tokens["tokenizer"].tolist() == ["13a", "intl", "zh", "char", "none"]
