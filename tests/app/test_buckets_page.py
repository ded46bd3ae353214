"""AppTest of the Compare page's buckets: the chosen sentence metric, editable edges, tests.

Oracles: sacrebleu 2.6.0's ``CHRF``/``BLEU`` corpus scores and ``PairedTest`` (paired
bootstrap) run on each bucket's segments alone, on the sample's files.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from sacrebleu.metrics import BLEU, CHRF
from sacrebleu.significance import PairedTest
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import BUCKETS, VIEW_KEY
from tests.app.markup import message_text
from tests.data import SAMPLE_REF_LINES, SAMPLE_SYSTEM_LINES

HYPS = SAMPLE_SYSTEM_LINES
REFS = SAMPLE_REF_LINES


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/compare.py")
    at.session_state["cmp_n_bootstrap"] = 200
    at.session_state["cmp_n_ar"] = 100
    at.session_state["metrics"] = ["chrF"]
    at.session_state[VIEW_KEY] = BUCKETS.label
    at.run()
    assert not at.exception
    return at


def bucket_table(at: AppTest):  # type: ignore[no-untyped-def]
    return next(t.value for t in at.table if t.value.index.name == "bucket")


def test_buckets_score_the_chosen_metric_with_a_test_per_bucket(app: AppTest) -> None:
    app.selectbox(key="cmp_metric").set_value("chrF").run()
    app.text_input(key="cmp_bucket_edges::ref_len::chrF").set_value("15, 25").run()
    assert not app.exception
    table = bucket_table(app)
    assert list(table.index) == ["<15", "15–25", "≥25"]
    tokenize = Tokenizer13a()
    shortest = [min(len(tokenize(r[i].rstrip()).split()) for r in REFS) for i in range(126)]
    groups = [
        [i for i, n in enumerate(shortest) if lo <= n < hi]
        for lo, hi in ((0, 15), (15, 25), (25, 10**6))
    ]
    for label, rows in zip(table.index, groups, strict=True):
        hyps = {n: [HYPS[n][i] for i in rows] for n in ("literal", "terse")}
        refs = [[r[i] for i in rows] for r in REFS]
        a, b = (CHRF().corpus_score(hyps[n], refs).score for n in ("literal", "terse"))
        assert table.loc[label, "chrF A"] == f"{a:.2f}" and table.loc[label, "chrF B"] == f"{b:.2f}"
        assert int(table.loc[label, "segments"]) == len(rows)
        _, res = PairedTest(list(hyps.items()), {"chrF": CHRF()}, refs, "bs", 200)()
        assert table.loc[label, "p (bootstrap)"] == f"{res['chrF2'][1].p_value:.4f}"


def test_bucketing_by_as_own_score_warns(app: AppTest) -> None:
    app.selectbox(key="cmp_bucket_kind").set_value("own").run()
    assert not app.exception
    assert any("regression to the mean" in w.value for w in app.warning)
    table = bucket_table(app)
    assert list(table.index)[:2] == ["<10", "10–20"]  # sentence BLEU in tens
    rows = [
        i
        for i in range(126)
        if BLEU(effective_order=True).sentence_score(HYPS["literal"][i], [r[i] for r in REFS]).score
        < 10
    ]
    assert int(table.loc["<10", "segments"]) == len(rows)


def test_bad_edges_are_one_line_and_the_defaults_stay(app: AppTest) -> None:
    app.text_input(key="cmp_bucket_edges::ref_len::BLEU").set_value("20, 10").run()
    assert not app.exception
    (error,) = [message_text(e.value) for e in app.error]
    assert error == "bucket edges: '20, 10' must increase from left to right"
    assert list(bucket_table(app).index) == ["<10", "10–20", "20–30", "30–40", "≥40"]
