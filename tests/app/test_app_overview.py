"""AppTest of the frame (app.py) and the overview page on the bundled sample.

Golden numbers come from the reference libraries, computed here on the raw
sample files: sacrebleu 2.6 (``BLEU(...).corpus_score`` / ``sentence_score`` and
its signature) for every setting sacrebleu can express, nltk 3.10
(``corpus_bleu`` on sacrebleu's 13a tokens) for the nltk flavour, and the
bleuviz core (``load_plain`` → ``compute_corpus_stats`` → ``corpus_score``) for
everything, including tf-nmt, which has no installable reference.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import pandas as pd
import pytest
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
from sacrebleu.metrics import BLEU
from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
from streamlit.testing.v1 import AppTest

from bleuviz.bleu import BleuConfig, corpus_score
from bleuviz.bleu.corpus import compute_corpus_stats
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.io.decode import read_path
from bleuviz.io.plain import load_plain
from bleuviz.io.testset import TestSet
from tests.app.markup import message_text, signatures

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "bleuviz" / "sample_data"
SYSTEMS = ("literal", "terse", "repeat")
PAGES = (
    "bleuviz/app/page_scripts/overview.py",
    "bleuviz/app/page_scripts/sentences.py",
    "bleuviz/app/page_scripts/compare.py",
    "bleuviz/app/page_scripts/learn.py",
)


def lines(name: str) -> list[str]:
    """Read a sample file as plain lines (LF endings, final newline; see sample_data/README)."""
    return (SAMPLE / name).read_text(encoding="utf-8").removesuffix("\n").split("\n")


HYPS = {name: lines(f"hyp.{name}.en") for name in SYSTEMS}
REFS = [lines("ref.A.en"), lines("ref.B.en")]
DOCIDS = lines("docids.txt")


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    """A fresh AppTest of app.py on the bundled sample, with empty caches.

    The first session after a server starts is the browser tests' job
    (tests/e2e: deep link first, "/" first).
    """
    return new_app()


def run_ok(at: AppTest) -> AppTest:
    """Run (or rerun) the app and check it rendered inside the frame without exception."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    # The frame ran: its sidebar is there (Learn hides the BLEU settings, which it does not use).
    assert at.sidebar.radio(key="data_source").value in ("sample", "cli", "upload")
    return at


def core_testset() -> TestSet:
    """The sample as the core reads it."""
    paths = [SAMPLE / f"hyp.{name}.en" for name in SYSTEMS]
    refs = [SAMPLE / "ref.A.en", SAMPLE / "ref.B.en"]
    return load_plain(
        [read_path(p) for p in paths],
        [read_path(p) for p in refs],
        read_path(SAMPLE / "source.de"),
        read_path(SAMPLE / "docids.txt"),
    )


def core_scores(
    config: BleuConfig, tokenize: TokenizeConfig, testset: TestSet | None = None
) -> dict[str, Any]:
    """Each system's corpus score computed by the core from a fresh test set."""
    testset = testset or core_testset()
    corpus = compute_corpus_stats(testset, tokenize, config.stats_order)
    return {
        name: corpus_score(stats, config, tokenize, corpus.n_refs)
        for name, stats in corpus.systems.items()
    }


def metrics(at: AppTest) -> dict[str, str]:
    """The overview's st.metric values by label."""
    return {m.label: m.value for m in at.metric}


class Case(NamedTuple):
    """Sidebar actions and the settings they should produce."""

    actions: tuple[tuple[str, str, object], ...]  # (widget kind, key, value), applied in order
    config: BleuConfig
    tokenize: TokenizeConfig
    sacrebleu: dict[str, Any] | None  # BLEU(**kwargs) for the same settings; None: none exists


CASES = {
    "default": Case((), BleuConfig(), TokenizeConfig(), {}),
    "smooth none": Case(
        (("selectbox", "smooth_sacrebleu", "none"),),
        BleuConfig(smooth="none"),
        TokenizeConfig(),
        {"smooth_method": "none"},
    ),
    "smooth floor": Case(
        (("selectbox", "smooth_sacrebleu", "floor"),),
        BleuConfig(smooth="floor", smooth_value=0.1),
        TokenizeConfig(),
        {"smooth_method": "floor", "smooth_value": 0.1},
    ),
    "smooth add-k default": Case(
        (("selectbox", "smooth_sacrebleu", "add-k"),),
        BleuConfig(smooth="add-k", smooth_value=1.0),
        TokenizeConfig(),
        {"smooth_method": "add-k"},  # sacrebleu's default k is 1
    ),
    "smooth add-k 0.5": Case(
        (("selectbox", "smooth_sacrebleu", "add-k"), ("number_input", "smooth_value_add-k", 0.5)),
        BleuConfig(smooth="add-k", smooth_value=0.5),
        TokenizeConfig(),
        {"smooth_method": "add-k", "smooth_value": 0.5},
    ),
    "effective order": Case(
        (("checkbox", "effective_order", True),),
        BleuConfig(effective_order=True),
        TokenizeConfig(),
        {"effective_order": True},
    ),
    "lowercase": Case(
        (("checkbox", "lowercase", True),),
        BleuConfig(),
        TokenizeConfig(lowercase=True),
        {"lowercase": True},
    ),
    "tokenizer intl": Case(
        (("selectbox", "tokenize", "intl"),),
        BleuConfig(),
        TokenizeConfig("intl"),
        {"tokenize": "intl"},
    ),
    "max order 2": Case(
        (("number_input", "max_order", 2),),
        BleuConfig(max_order=2),
        TokenizeConfig(),
        {"max_ngram_order": 2},
    ),
    "weights 0.5 0.5": Case(
        (("text_input", "weights_text", "0.5 0.5"),),
        BleuConfig(max_order=2, weights=(0.5, 0.5)),
        TokenizeConfig(),
        {"max_ngram_order": 2},
    ),
    "weights 0.1 0.2 0.3 0.4": Case(
        (("text_input", "weights_text", "0.1 0.2 0.3 0.4"),),
        BleuConfig(weights=(0.1, 0.2, 0.3, 0.4)),
        TokenizeConfig(),
        None,
    ),
    "nltk": Case(
        (("selectbox", "flavor", "nltk"),), BleuConfig(flavor="nltk"), TokenizeConfig(), None
    ),
    "nltk method1": Case(
        (("selectbox", "flavor", "nltk"), ("selectbox", "smooth_nltk", "method1")),
        BleuConfig(flavor="nltk", smooth="method1"),
        TokenizeConfig(),
        None,
    ),
    "nltk max order 2": Case(
        (("selectbox", "flavor", "nltk"), ("number_input", "max_order", 2)),
        BleuConfig(flavor="nltk", max_order=2),
        TokenizeConfig(),
        None,
    ),
    "tf-nmt": Case(
        (("selectbox", "flavor", "tf-nmt"),), BleuConfig(flavor="tf-nmt"), TokenizeConfig(), None
    ),
    "tf-nmt smooth": Case(
        (("selectbox", "flavor", "tf-nmt"), ("selectbox", "smooth_tf-nmt", "add-one")),
        BleuConfig(flavor="tf-nmt", smooth="add-one"),
        TokenizeConfig(),
        None,
    ),
}


def apply(at: AppTest, actions: tuple[tuple[str, str, object], ...]) -> AppTest:
    """Set sidebar widgets one at a time, rerunning after each (later widgets may depend)."""
    run_ok(at)
    for kind, key, value in actions:
        getattr(at.sidebar, kind)(key=key).set_value(value)
        run_ok(at)
    return at


def sacrebleu_scores(kwargs: dict[str, Any]) -> dict[str, Any]:
    """sacrebleu's corpus scores and signature for the same settings, on the raw files.

    sacrebleu's signature has no order; bleuviz adds ``ngram:N`` before the version
    when the order is not 4 (bleuviz.bleu.signature).
    """
    out = {}
    order = kwargs.get("max_ngram_order", 4)
    for name in SYSTEMS:
        bleu = BLEU(**kwargs)
        score = bleu.corpus_score(HYPS[name], REFS)  # the signature needs a scored metric
        signature = str(bleu.get_signature())
        if order != 4:
            signature = signature.replace("|version:", f"|ngram:{order}|version:")
        out[name] = (score, signature)
    return out


@pytest.mark.parametrize("page", PAGES)
def test_every_page_renders_inside_the_frame(app: AppTest, page: str) -> None:
    app.switch_page(page)
    run_ok(app)
    assert app.title[0].value
    assert app.sidebar.radio(key="data_source").value == "sample"


def test_overview_default_matches_sacrebleu_readme_numbers(app: AppTest) -> None:
    """Golden numbers: sacrebleu.corpus_bleu(hyps, [refA, refB]) as sample_data/README lists."""
    run_ok(app)
    assert metrics(app) == {"literal": "27.99", "terse": "52.84", "repeat": "61.67"}
    assert app.caption[0].value.startswith("126 segments · 2 reference(s) · 3 system(s)")


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_overview_metrics_equal_the_core(app: AppTest, case: Case) -> None:
    apply(app, case.actions)
    expected = core_scores(case.config, case.tokenize)
    assert metrics(app) == {name: f"{s.score:.2f}" for name, s in expected.items()}
    assert signatures(app)[0] == expected["literal"].signature
    assert [m.help for m in app.metric] == [s.signature for s in expected.values()]


@pytest.mark.parametrize(
    "case", [c for c in CASES.values() if c.sacrebleu is not None], ids=lambda c: repr(c.actions)
)
def test_overview_equals_sacrebleu(app: AppTest, case: Case) -> None:
    """Metrics, table and signature equal sacrebleu's for every setting it can express."""
    apply(app, case.actions)
    oracle = sacrebleu_scores(case.sacrebleu or {})
    assert metrics(app) == {name: f"{s.score:.2f}" for name, (s, _) in oracle.items()}
    assert signatures(app)[0] == oracle["literal"][1]
    table = app.table[0].value
    for name, (s, _) in oracle.items():
        row = table.loc[name]
        assert row["BLEU"] == f"{s.score:.2f}"
        assert row["BP"] == f"{s.bp:.3f}"
        assert re.fullmatch(r"\d\.\d{3}", row["BP"])
        assert row["ratio"] == f"{s.sys_len / s.ref_len:.3f}"
        assert (int(row["hyp_len"]), int(row["ref_len"])) == (s.sys_len, s.ref_len)
        assert [row[f"p{n + 1}"] for n in range(len(s.precisions))] == [
            f"{p:.1f}" for p in s.precisions
        ]


@pytest.mark.parametrize(
    "case", [c for c in CASES.values() if c.sacrebleu is not None], ids=lambda c: repr(c.actions)
)
def test_mean_sentence_bleu_equals_sacrebleu_sentence_score(app: AppTest, case: Case) -> None:
    """The table's mean of sentence BLEU is the mean of sacrebleu's sentence_score."""
    apply(app, case.actions)
    kwargs = {**(case.sacrebleu or {}), "effective_order": True}
    table = app.table[0].value
    for name in SYSTEMS:
        bleu = BLEU(**kwargs)
        scores = [
            bleu.sentence_score(h, [a, b]).score for h, a, b in zip(HYPS[name], *REFS, strict=True)
        ]
        assert float(table.loc[name, "mean sentence BLEU"]) == pytest.approx(
            sum(scores) / len(scores), abs=0.005
        )


def test_default_signature_is_sacrebleus(app: AppTest) -> None:
    run_ok(app)
    bleu = BLEU()
    bleu.corpus_score(HYPS["literal"], REFS)
    assert signatures(app)[0] == str(bleu.get_signature())


def nltk_tokens(text: str) -> list[str]:
    """sacrebleu's 13a tokens: the tokens bleuviz hands to every flavour."""
    return Tokenizer13a()(text.rstrip()).split()


@pytest.mark.parametrize(
    ("actions", "weights", "smoothing"),
    [
        ((("selectbox", "flavor", "nltk"),), (0.25,) * 4, None),
        (
            (("selectbox", "flavor", "nltk"), ("selectbox", "smooth_nltk", "method1")),
            (0.25,) * 4,
            SmoothingFunction().method1,
        ),
        (
            (("selectbox", "flavor", "nltk"), ("text_input", "weights_text", "0.5 0.5")),
            (0.5, 0.5),
            None,
        ),
    ],
    ids=["method0", "method1", "weights 0.5 0.5"],
)
def test_nltk_flavour_equals_nltk(
    app: AppTest, actions: tuple[tuple[str, str, object], ...], weights: Any, smoothing: Any
) -> None:
    """nltk.translate.bleu_score.corpus_bleu on the same 13a tokens."""
    apply(app, actions)
    refs = [[nltk_tokens(a), nltk_tokens(b)] for a, b in zip(*REFS, strict=True)]
    expected = {
        name: 100 * nltk_corpus_bleu(refs, [nltk_tokens(h) for h in HYPS[name]], weights, smoothing)
        for name in SYSTEMS
    }
    assert metrics(app) == {name: f"{v:.2f}" for name, v in expected.items()}
    assert app.caption[0].value.endswith("flavour nltk")
    assert signatures(app)[0].startswith("flavor:nltk|")


def test_nonuniform_weights_equal_the_formula_on_sacrebleus_counts(app: AppTest) -> None:
    """BP · exp(Σ w_n log p_n), with sacrebleu's own counts, totals and BP."""
    weights = (0.1, 0.2, 0.3, 0.4)
    apply(app, (("text_input", "weights_text", "0.1, 0.2, 0.3, 0.4"),))
    for name in SYSTEMS:
        s = BLEU().corpus_score(HYPS[name], REFS)
        logs = sum(w * math.log(c / t) for w, c, t in zip(weights, s.counts, s.totals, strict=True))
        assert metrics(app)[name] == f"{100 * s.bp * math.exp(logs):.2f}"
    assert "weights:0.1,0.2,0.3,0.4" in signatures(app)[0]


def documents_table(app: AppTest) -> pd.DataFrame:
    """The Overview's documents grid, indexed by document id."""
    grid = next(d.value for d in app.dataframe if "segments" in d.value.columns)
    return grid.set_index("doc")


@pytest.mark.parametrize(
    ("actions", "sacre"),
    [((), {}), ((("checkbox", "lowercase", True),), {"lowercase": True})],
    ids=["default", "lowercase"],
)
def test_document_scores_equal_fresh_sacrebleu_per_document(
    app: AppTest, actions: tuple[tuple[str, str, object], ...], sacre: dict[str, Any]
) -> None:
    apply(app, actions)
    docs = documents_table(app)
    labels = {doc: doc for doc in dict.fromkeys(DOCIDS)}  # a grid shows the ids as written
    assert list(docs.index) == list(labels)
    for label, doc in labels.items():
        rows = [i for i, d in enumerate(DOCIDS) if d == doc]
        assert int(docs.loc[label, "segments"]) == len(rows)
        for name in SYSTEMS:
            hyps = [HYPS[name][i] for i in rows]
            refs = [[ref[i] for i in rows] for ref in REFS]
            expected = BLEU(**sacre).corpus_score(hyps, refs).score
            assert docs.loc[label, name] == pytest.approx(expected), (doc, name)


@pytest.mark.parametrize("flavor", ["nltk", "tf-nmt"])
def test_document_scores_equal_the_core_on_each_document_alone(app: AppTest, flavor: str) -> None:
    """Per-document numbers from summed statistics equal a fresh core run on that document."""
    apply(app, (("selectbox", "flavor", flavor),))
    docs = documents_table(app)
    full = core_testset()
    labels = {doc: doc for doc in dict.fromkeys(DOCIDS)}
    assert list(docs.index) == list(labels)
    for label, doc in labels.items():
        rows = [i for i, d in enumerate(DOCIDS) if d == doc]
        subset = TestSet(
            systems={n: tuple(full.systems[n][i] for i in rows) for n in SYSTEMS},
            references=tuple(tuple(r[i] for i in rows) for r in full.references),
        )
        fresh = core_scores(BleuConfig(flavor=flavor), TokenizeConfig(), subset)
        assert {n: docs.loc[label, n] for n in SYSTEMS} == {
            n: pytest.approx(s.score) for n, s in fresh.items()
        }


def test_flavour_round_trip_restores_sacrebleu_numbers(app: AppTest) -> None:
    """Settings persist across reruns and switching back gives the original numbers."""
    apply(app, (("selectbox", "flavor", "nltk"),))
    nltk = metrics(app)
    run_ok(app)
    assert metrics(app) == nltk
    app.sidebar.selectbox(key="flavor").set_value("sacrebleu")
    run_ok(app)
    assert metrics(app) == {"literal": "27.99", "terse": "52.84", "repeat": "61.67"}


def test_invalid_weights_show_an_error_not_an_exception(app: AppTest) -> None:
    apply(app, (("text_input", "weights_text", "0.5 x"),))
    assert [message_text(e.value) for e in app.error] == [
        "weights: '0.5 x' is not a list of numbers"
    ]
    assert not app.metric
    app.sidebar.text_input(key="weights_text").set_value("")
    run_ok(app)
    assert metrics(app)["literal"] == "27.99"


def test_settings_carry_over_to_the_sentences_page(app: AppTest) -> None:
    apply(app, (("selectbox", "flavor", "nltk"),))
    app.switch_page("bleuviz/app/page_scripts/sentences.py")
    run_ok(app)
    assert app.sidebar.selectbox(key="flavor").value == "nltk"
    assert app.dataframe[0].value.shape[0] == 126
