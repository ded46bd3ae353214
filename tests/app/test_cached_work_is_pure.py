"""AppTest: Compare's cached tests, run on a worker thread, follow the lowercase switch.

The significance tests and the buckets' tests run on a worker thread
(``bleuviz.app.ui.cache.background.with_progress``), where Streamlit's session
state reads as empty: whatever they need of the settings must be passed in.

Oracles: sacrebleu 2.6.0's ``CHRF(lowercase=True)`` corpus scores and ``PairedTest``
(paired bootstrap and approximate randomization) on the sample's files, on the
whole corpus and on each bucket's segments alone. Case matters on the sample:
literal's chrF is 53.27 case-sensitive and 54.20 lowercased.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sacrebleu.metrics import CHRF
from sacrebleu.significance import PairedTest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import BUCKETS, SIGNIFICANCE, VIEW_KEY
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

HYPS = SAMPLE_SYSTEM_LINES
REFS = SAMPLE_REF_LINES
PAIR = ("literal", "terse")


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    """Compare on the sample with the lowercase switch on and chrF chosen for both metrics."""
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/compare.py")
    at.session_state["cmp_n_bootstrap"] = 200
    at.session_state["cmp_n_ar"] = 100
    at.session_state["metrics"] = ["chrF"]
    at.session_state["cmp_sig_metric"] = "chrF"
    at.session_state["cmp_metric"] = "chrF"
    at.run()
    assert not at.exception
    at.checkbox(key="lowercase").check().run()
    assert not at.exception
    return at


def lowercased_tests(rows: list[int]) -> tuple[float, float, float, float]:
    """sacrebleu's lowercased chrF of A and B on ``rows``, B's bootstrap and AR p-values."""
    hyps = [(n, [HYPS[n][i] for i in rows]) for n in PAIR]
    refs = [[r[i] for i in rows] for r in REFS]
    bs = PairedTest(hyps, {"chrF": CHRF(lowercase=True)}, refs, "bs", 200)()[1]["chrF2"]
    ar = PairedTest(hyps, {"chrF": CHRF(lowercase=True)}, refs, "ar", 100)()[1]["chrF2"]
    return bs[0].score, bs[1].score, bs[1].p_value, ar[1].p_value


def test_buckets_chrf_tests_follow_the_lowercase_switch(app: AppTest) -> None:
    app.session_state[VIEW_KEY] = BUCKETS.label
    app.run()
    app.text_input(key="cmp_bucket_edges::ref_len::chrF").set_value("15, 25").run()
    assert not app.exception
    table = next(t.value for t in app.table if t.value.index.name == "bucket")
    tokenize = Tokenizer13a()
    shortest = [min(len(tokenize(r[i].rstrip()).split()) for r in REFS) for i in range(126)]
    groups = [
        [i for i, n in enumerate(shortest) if lo <= n < hi]
        for lo, hi in ((0, 15), (15, 25), (25, 10**6))
    ]
    assert list(table.index) == ["<15", "15–25", "≥25"]
    for label, rows in zip(table.index, groups, strict=True):
        a, b, p_bs, _ = lowercased_tests(rows)
        shown = table.loc[label]
        assert (shown["chrF A"], shown["chrF B"]) == (f"{a:.2f}", f"{b:.2f}"), label
        assert shown["p (bootstrap)"] == f"{p_bs:.4f}", label


def test_corpus_chrf_significance_follows_the_lowercase_switch(app: AppTest) -> None:
    app.session_state[VIEW_KEY] = SIGNIFICANCE.label
    app.run()
    assert not app.exception
    a, b, p_bs, p_ar = lowercased_tests(list(range(126)))
    shown = {m.label: m.value for m in app.metric}
    assert shown["chrF of A · literal"] == f"{a:.2f}"
    assert shown["chrF of B · terse"] == f"{b:.2f}"
    assert shown["p-value, bootstrap"] == f"{p_bs:.4f}"
    assert shown["p-value, randomization"] == f"{p_ar:.4f}"
