"""AppTest of the metrics beside BLEU (sidebar "Other metrics") on the bundled sample.

Oracles: sacrebleu's ``CHRF``/``TER`` ``corpus_score``, ``sentence_score`` and
``PairedTest``, and rouge-score's ``RougeScorer.score_multi``, run here on the
sample's files; the page must show their numbers, formatted as it formats them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator

import pytest
from rouge_score import rouge_scorer
from sacrebleu.metrics import CHRF, TER
from sacrebleu.significance import PairedTest
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import SEGMENTS, VIEW_KEY
from bleuviz.rouge.stats import lcs_pairs
from bleuviz.rouge.tokenize import tokenize
from tests.app.markup import html_bodies, signatures
from tests.app.segment_buttons import segment_table
from tests.data import SAMPLE_HYPS, SAMPLE_REFS

HYP = {path.name.split(".")[1]: path.read_text("utf-8").splitlines() for path in SAMPLE_HYPS}
REFS = [path.read_text("utf-8").splitlines() for path in SAMPLE_REFS]


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> Iterator[AppTest]:
    yield new_app()


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def test_overview_adds_corpus_columns_and_signatures(app: AppTest) -> None:
    app.session_state["metrics"] = ["chrF", "TER", "ROUGE-L"]
    app.run()
    assert not app.exception
    table = app.table[0].value
    scorer = rouge_scorer.RougeScorer(["rougeL"])
    for name, hyps in HYP.items():
        row = table.loc[name]
        assert row["chrF"] == f"{CHRF().corpus_score(hyps, REFS).score:.2f}"
        assert row["TER"] == f"{TER().corpus_score(hyps, REFS).score:.2f}"
        f = [
            scorer.score_multi([r[i] for r in REFS], h)["rougeL"].fmeasure
            for i, h in enumerate(hyps)
        ]
        assert row["mean ROUGE-L F"] == f"{sum(f) / len(f):.4f}"
    chrf = CHRF()
    chrf.corpus_score(HYP["literal"], REFS)
    codes = signatures(app)
    assert chrf.get_signature().format() in codes
    assert any(code.startswith("nrefs:2|type:rougeL|stem:no") for code in codes)


def test_sentences_table_and_drill_down_show_the_chosen_metrics(app: AppTest) -> None:
    app.session_state["metrics"] = ["chrF++", "ROUGE-L"]
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    app.query_params["sys"] = "terse"
    app.query_params["seg"] = "5"
    app.run()
    assert not app.exception
    table = segment_table(app, "sent_table").value
    want = [
        CHRF(word_order=2).sentence_score(h, [r[i] for r in REFS]).score
        for i, h in enumerate(HYP["terse"])
    ]
    assert table["chrF++"].tolist() == pytest.approx(want, abs=1e-9)
    assert metrics(app)["Sentence chrF++"] == f"{want[4]:.2f}"
    # The drill-down marks exactly rouge-score's LCS tokens of the chosen reference.
    hyp, refs = HYP["terse"][4], [r[4] for r in REFS]
    best = rouge_scorer.RougeScorer(["rougeL"]).score_multi(refs, hyp)["rougeL"]
    html = "".join(html_bodies(app))
    shown_ref = int(re.search(r"against reference (\d)", " ".join(c.value for c in app.caption))[1])
    ref_tokens = tokenize(refs[shown_ref - 1]).tokens
    hyp_tokens = tokenize(hyp).tokens
    pairs = lcs_pairs(ref_tokens, hyp_tokens)
    assert len(pairs) / max(len(hyp_tokens), 1) == pytest.approx(best.precision, abs=1e-12)
    hyp_marked = "".join(
        f'data-status="{"match" if j in {q for _, q in pairs} else "miss"}"'
        for j in range(len(hyp_tokens))
    )
    statuses = "".join(re.findall(r'data-status="(?:match|miss)"', html))
    assert hyp_marked in statuses


def test_compare_runs_chrf_significance_as_paired_test(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(os.environ, "SACREBLEU_SEED", "12345")
    app.switch_page("bleuviz/app/page_scripts/compare.py")
    app.session_state["cmp_sig_metric"] = "chrF"
    app.session_state["cmp_metric"] = "TER"
    app.session_state["cmp_n_bootstrap"] = 200
    app.session_state["cmp_n_ar"] = 300
    app.session_state[VIEW_KEY] = SEGMENTS.label
    app.run()
    assert not app.exception
    systems = [("literal", HYP["literal"]), ("terse", HYP["terse"])]
    bs = PairedTest(systems, {"chrF": CHRF()}, REFS, test_type="bs", n_samples=200)()[1]
    ar = PairedTest(systems, {"chrF": CHRF()}, REFS, test_type="ar", n_samples=300)()[1]
    shown = metrics(app)
    assert shown["chrF of A · literal"] == f"{bs['chrF2'][0].score:.2f}"
    assert shown["chrF of B · terse"] == f"{bs['chrF2'][1].score:.2f}"
    assert shown["p-value, bootstrap"] == f"{bs['chrF2'][1].p_value:.4f}"
    assert shown["p-value, randomization"] == f"{ar['chrF2'][1].p_value:.4f}"
    # Sentence differences by TER: lower is better, so the gain of B is A - B.
    seg = app.number_input("cmp_seg").value
    ter = [TER().sentence_score(h[seg - 1], [r[seg - 1] for r in REFS]).score for _, h in systems]
    assert shown["Sentence TER of A · literal"] == f"{ter[0]:.2f}"
    assert shown["Sentence difference A − B (gain of B)"] == f"{ter[0] - ter[1]:+.2f}"
    table = segment_table(app, "cmp_table").value
    assert table["diff"].tolist() == pytest.approx((table["score_a"] - table["score_b"]).tolist())
