"""Tests of the Learn page's core: bleuviz.teach.walkthrough and bleuviz.flavor_compare.

Where the numbers come from:

* the walkthrough's recomputed score is held against the core's ``corpus_score``
  of the same one-segment input, for every flavour and smoothing;
* the five ways are held against the live libraries: sacrebleu 2.6
  (``corpus_bleu`` / ``sentence_bleu``) and nltk 3.10 (``sentence_bleu`` with
  ``SmoothingFunction().methodN`` on sacrebleu's 13a tokens, ×100);
* tensorflow/nmt has no installable package and its code stays out of this
  project (see tests/test_bleu_tfnmt.py), so TF_NMT holds literals computed on
  2026-11-21 with tensorflow/nmt@0be8642 nmt/scripts/bleu.py
  ``compute_bleu([[ref tokens, ...]], [hyp tokens], 4, smooth)`` on the same 13a
  tokens (×100); it raised ZeroDivisionError for the empty candidate and the
  empty reference, with and without smoothing, where Hugging Face evaluate's
  copy (metrics/bleu/nmt_bleu.py at 4c312af), which the Learn rows name, sets
  BP = 0 and returns 0;
* the worked example's counts are checked by hand (see test_worked_example_by_hand).
"""

from __future__ import annotations

import math
import warnings

import pytest
import sacrebleu
from nltk.translate.bleu_score import SmoothingFunction
from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
from sacrebleu.metrics import BLEU

from bleuviz.bleu import FLAVORS, BleuConfig
from bleuviz.bleu.tokenize import TokenizeConfig, preprocess
from bleuviz.teach.corpus_vs_sentence import SAMPLE_CORPUS, corpus_frame, corpus_vs_sentence
from bleuviz.teach.examples import EXAMPLE_BY_KEY, EXAMPLES
from bleuviz.teach.flavors import (
    DEFAULT_WAY,
    WAYS,
    compare_ways,
    defaults_frame,
    degenerate_frame,
    replicas_frame,
    ways_frame,
)
from bleuviz.teach.rules import RULES, mean_note
from bleuviz.teach.smoothing import SMOOTHINGS
from bleuviz.teach.tables import ngram_frame, orders_frame
from bleuviz.teach.walkthrough import build_walkthrough

ABS = 1e-9
TOK = TokenizeConfig()
EXTRA_CASES = {
    "tie": ("The cat sat on the mat.", ("The cat sat on a mat", "The cat sat on the red mat.")),
    "four_refs": (
        "The new library will open its doors to the public next spring after two years of work.",
        (
            "The new library opens to the public next spring, after two years of construction.",
            "After two years of work, the new library will welcome the public next spring.",
            "Next spring the library will finally open to the public.",
            "The library opens next spring.",
        ),
    ),
}
CASES = {e.key: (e.hypothesis, e.references) for e in EXAMPLES} | EXTRA_CASES
DEGENERATE = {
    "empty_hyp": ("", ("The cat is on the mat.",)),
    "empty_ref": ("The cat sat on the mat.", ("",)),
    "both_empty": ("", ("",)),
    "one_token": ("mat", ("The cat is on the mat.",)),
    "char_level": ("abc abd", ("abd abc", "ab")),
}
# tensorflow/nmt compute_bleu × 100 (see the module docstring): (no smoothing, smooth=True).
TF_NMT = {
    "worked": (70.71067811865474, 74.19446627365011),
    "clipping": (0.0, 20.556680845025983),
    "short": (0.0, 100.0),
    "brevity": (15.080160032261766, 18.54220746488738),
    "lengths": (90.36020036098448, 93.06048591020996),
    "paraphrase": (0.0, 19.72940627795883),
    "tie": (70.71067811865476, 76.52058832556895),
    "four_refs": (52.62383500703515, 56.04823201660973),
}


def all_configs() -> list[BleuConfig]:
    """Every flavour and smoothing, with cumulative and individual weights at orders 1, 2, 4, 5."""
    configs = []
    for flavor in FLAVORS:
        for smooth in FLAVORS[flavor].smoothing:
            for effective in (False, True) if flavor == "sacrebleu" else (False,):
                for order in (1, 2, 4, 5):
                    for weights in (None, (0.0,) * (order - 1) + (1.0,)):
                        configs.append(BleuConfig(flavor, order, weights, smooth, None, effective))
    configs.append(BleuConfig("sacrebleu", smooth="floor", smooth_value=0.5))
    configs.append(BleuConfig("sacrebleu", smooth="add-k", smooth_value=0.0))
    configs.append(BleuConfig("nltk", auto_reweigh=True))
    configs.append(BleuConfig("nltk", weights=(0.1, 0.2, 0.3, 0.4)))
    return configs


def config_id(config: BleuConfig) -> str:
    weights = "ind" if config.weights else "cum"
    eff = "-eff" if config.effective_order else ""
    return f"{config.flavor}-{config.smoothing}{eff}-{weights}{config.max_order}"


@pytest.mark.parametrize("config", all_configs(), ids=config_id)
@pytest.mark.parametrize("tokenize", [TOK, TokenizeConfig("char")], ids=["13a", "char"])
def test_steps_reproduce_the_core_score(config: BleuConfig, tokenize: TokenizeConfig) -> None:
    for name, (hyp, refs) in (CASES | DEGENERATE).items():
        walk = build_walkthrough(hyp, refs, tokenize, config)
        core = walk.core
        assert [s.matches for s in walk.orders] == list(core.counts), name
        assert [s.totals for s in walk.orders] == list(core.totals), name
        assert (walk.lengths.hyp_len, walk.lengths.ref_len) == (core.hyp_len, core.ref_len), name
        assert walk.bp == pytest.approx(core.bp, abs=1e-12), name
        assert walk.log_sum == math.fsum(s.term for s in walk.orders), name
        if walk.caveat is not None:  # no weighted order left: see test_no_weighted_order_left
            assert math.isnan(walk.score), name
            continue
        assert walk.score == pytest.approx(core.score, abs=ABS), name
        assert f"{walk.score:.2f}" == f"{core.score:.2f}", name


def test_no_weighted_order_left_is_flagged_not_scored() -> None:
    """Individual 4-gram BLEU of 3 tokens with effective order averages over no order at all."""
    config = BleuConfig(weights=(0.0, 0.0, 0.0, 1.0), effective_order=True)
    walk = build_walkthrough("Good morning.", ["Good morning."], TOK, config)
    assert walk.caveat is not None and math.isnan(walk.score)
    assert [s.used for s in walk.orders] == [True, True, True, False]


def test_worked_example_by_hand() -> None:
    """Counted by hand on the 13a tokens (case-sensitive; "." is a token).

    Candidate (10): The committee approved the new budget on Friday evening .
    Ref 1 (10):     On Friday afternoon the committee approved the new budget .
    Ref 2 (9):      The committee passed the new budget on Friday .

    1-grams: all but "evening" occur in a reference ("The" and "on" only in ref 2,
             "approved" only in ref 1): 9/10.
    2-grams: The committee (2), committee approved (1), approved the (1), the new,
             new budget, budget on (2), on Friday (2) match; Friday evening and
             evening . do not: 7/9.
    3-grams: committee approved the, approved the new, the new budget, new budget on,
             budget on Friday match; The committee approved, on Friday evening,
             Friday evening . do not: 5/8.
    4-grams: committee approved the new, approved the new budget, the new budget on,
             new budget on Friday match; the other three do not: 4/7.
    (9/10)(7/9)(5/8)(4/7) = 1260/5040 = 1/4, c = r = 10 (ref 1), BP = 1,
    BLEU = 100 · (1/4)^(1/4) = 100/√2 = 70.71.
    """
    example = EXAMPLE_BY_KEY["worked"]
    walk = build_walkthrough(example.hypothesis, example.references, TOK, BleuConfig())
    assert [s.fraction for s in walk.orders] == ["9/10", "7/9", "5/8", "4/7"]
    assert (walk.lengths.hyp_len, walk.lengths.ref_len, walk.lengths.chosen) == (10, 10, 0)
    assert walk.bp == 1.0
    assert walk.score == pytest.approx(100 / math.sqrt(2), abs=ABS)
    unigrams = {row.text: row for row in walk.orders[0].rows}
    assert (unigrams["The"].best_ref, unigrams["on"].best_ref) == (1, 1)
    assert unigrams["approved"].best_ref == 0
    assert unigrams["evening"].max_ref_count == 0
    assert sacrebleu.sentence_bleu(example.hypothesis, list(example.references)).score == (
        pytest.approx(walk.score, abs=ABS)
    )


def test_clipping_example_gives_two_sevenths() -> None:
    example = EXAMPLE_BY_KEY["clipping"]
    walk = build_walkthrough(example.hypothesis, example.references, TOK, BleuConfig())
    first = walk.orders[0]
    assert first.fraction == "2/7"
    assert first.raw == pytest.approx(2 / 7)
    table = ngram_frame(first)
    assert table.to_dict("records") == [
        {
            "n-gram": "the",
            "count in candidate": 7,
            "max count in one reference": 2,
            "held by reference": "1",
            "clipped count": 2,
            "not credited": 5,
        }
    ]
    assert orders_frame(walk)["p_n"].tolist()[0] == "0.2857"


def test_exp_smoothing_is_explained_per_order() -> None:
    """sacrebleu exp: the k-th zero order gets 1/(2^k · t); the clipping example has 3."""
    example = EXAMPLE_BY_KEY["clipping"]
    walk = build_walkthrough(example.hypothesis, example.references, TOK, BleuConfig())
    expected = [1.0 / (2 * 6), 1.0 / (4 * 5), 1.0 / (8 * 4)]
    assert [s.precision for s in walk.orders[1:]] == pytest.approx(expected)
    assert "1/(2^1·6)" in walk.orders[1].note and "1/(2^3·4)" in walk.orders[3].note
    assert walk.orders[0].note == "unchanged"


@pytest.mark.parametrize(
    ("key", "flavor", "r", "bp"),
    [
        ("brevity", "sacrebleu", 15, "0.319"),  # exp(1 - 15/7)
        ("lengths", "sacrebleu", 7, "0.846"),  # closest to c = 6: 7 (distance 1) beats 4 (2)
        ("lengths", "nltk", 7, "0.846"),
        ("lengths", "tf-nmt", 4, "1.000"),  # the shortest reference, c > r
        ("tie", "sacrebleu", 6, "1.000"),  # 6 and 8 are both 1 from c = 7: the shorter wins
    ],
)
def test_reference_length_and_brevity_penalty(key: str, flavor: str, r: int, bp: str) -> None:
    hyp, refs = CASES[key]
    walk = build_walkthrough(hyp, refs, TOK, BleuConfig(flavor))
    assert walk.lengths.ref_len == r
    assert f"{walk.bp:.3f}" == bp == f"{walk.core.bp:.3f}"
    if key == "tie":
        assert "the shorter wins" in walk.lengths.rule


def test_empty_candidate_and_reference_get_each_flavours_brevity_penalty() -> None:
    """sacrebleu: BP 1 unless c < r; nltk checks c = 0 before c = r; tf-nmt: bleuviz's 0."""
    bps = {f: build_walkthrough("", [""], TOK, BleuConfig(f)).bp for f in FLAVORS}
    assert bps == {"sacrebleu": 1.0, "nltk": 0.0, "tf-nmt": 0.0}


def test_every_flavour_has_its_rules_in_words() -> None:
    """A flavour added to the registry must say how it computes BP, the mean, and when 0."""
    assert set(RULES) == set(FLAVORS)
    for name, rules in RULES.items():
        assert rules.mean.endswith(".")
        assert (rules.effective_mean is not None) == FLAVORS[name].effective_order
    assert mean_note(BleuConfig(effective_order=True)).startswith("Effective order leaves out")
    assert mean_note(BleuConfig()).startswith("Without effective order")


def test_every_smoothing_is_described() -> None:
    assert set(SMOOTHINGS) == {(n, s) for n, f in FLAVORS.items() for s in f.smoothing}
    assert all(s.latex and s.why.endswith(".") for s in SMOOTHINGS.values())


def test_examples_say_what_the_core_computes() -> None:
    """The lessons quote numbers; they must be the numbers the page then shows."""
    score = {
        key: build_walkthrough(e.hypothesis, e.references, TOK, BleuConfig(effective_order=True))
        for key, e in EXAMPLE_BY_KEY.items()
    }
    quoted = {
        "worked": f"{score['worked'].core.score:.2f}",
        "brevity": f"{score['brevity'].core.bp:.3f}",
    }
    quoted["lengths"] = f"{score['lengths'].core.bp:.3f}"
    assert quoted == {"worked": "70.71", "brevity": "0.319", "lengths": "0.846"}
    for key, number in quoted.items():
        assert f"= {number}" in EXAMPLE_BY_KEY[key].lesson, key
    assert score["short"].core.score == pytest.approx(100.0, abs=ABS)
    short = EXAMPLE_BY_KEY["short"]
    assert build_walkthrough(short.hypothesis, short.references, TOK, BleuConfig()).score == 0


def nltk_tokens(text: str) -> list[str]:
    return preprocess(text, TOK).split()


def nltk_oracle(hyp: str, refs: tuple[str, ...], method: int) -> float:
    """nltk's sentence_bleu on sacrebleu's 13a tokens, ×100."""
    smoothing = getattr(SmoothingFunction(), f"method{method}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # nltk warns about zero counts
        score = nltk_sentence_bleu(
            [nltk_tokens(r) for r in refs], nltk_tokens(hyp), smoothing_function=smoothing
        )
    return 100.0 * float(score)


def oracle(key: str, hyp: str, refs: tuple[str, ...]) -> float | type[Exception]:
    """What the library behind way ``key`` returns (0-100), or the exception it raises."""
    if key == "sacrebleu-corpus":
        return sacrebleu.corpus_bleu([hyp], [[r] for r in refs]).score
    if key == "sacrebleu-sentence":
        return sacrebleu.sentence_bleu(hyp, list(refs)).score
    if key == "sacrebleu-sentence-score":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # it recommends effective order
            return BLEU().sentence_score(hyp, list(refs)).score
    if key == "evaluate-sacrebleu":
        # evaluate/metrics/sacrebleu/sacrebleu.py (evaluate 0.4) is not installed; its
        # _compute transposes the references and makes exactly this call.
        return sacrebleu.corpus_bleu(
            [hyp],
            [[r] for r in refs],
            smooth_method="exp",
            smooth_value=None,
            force=False,
            lowercase=False,
            use_effective_order=False,
        ).score
    if key.startswith("nltk-method"):
        try:
            return nltk_oracle(hyp, refs, int(key[-1]))
        except AssertionError:
            return AssertionError
    raise KeyError(key)


@pytest.mark.parametrize("case", list(CASES))
def test_five_ways_equal_the_libraries(case: str) -> None:
    hyp, refs = CASES[case]
    results = compare_ways(hyp, refs, TOK)
    assert [r.way.key for r in results] == [w.key for w in WAYS]
    for result in results:
        key = result.way.key
        if key.startswith("tf-nmt"):
            if case not in TF_NMT:  # no literal recorded (examples added later): see TF_NMT
                continue
            expected: float | type[Exception] = TF_NMT[case][key == "tf-nmt-smooth"]
        else:
            expected = oracle(key, hyp, refs)
        if expected is AssertionError:
            assert result.crash == "AssertionError" and result.score.score == 0.0, key
        else:
            assert result.crash is None, key
            assert result.score.score == pytest.approx(expected, abs=ABS), key
    frame = ways_frame(results)
    assert frame["BLEU"].tolist() == [r.score.score for r in results]
    default = next(r.score.score for r in results if r.way.key == DEFAULT_WAY)
    assert frame["vs sentence_bleu"].tolist() == pytest.approx(
        [r.score.score - default for r in results]
    )


@pytest.mark.parametrize("case", ["empty_hyp", "empty_ref"])
def test_degenerate_input_as_the_libraries_report_it(case: str) -> None:
    """bleuviz's value equals the library's, or the library raises what the row says."""
    hyp, refs = CASES["worked"]
    results = compare_ways(hyp, refs, TOK)
    for result in results:
        way = result.way
        value = result.empty_hyp if case == "empty_hyp" else result.empty_ref
        text = way.empty_hyp if case == "empty_hyp" else way.empty_ref
        inputs = ("", refs) if case == "empty_hyp" else (hyp, ("",))
        if way.key.startswith("tf-nmt"):  # evaluate's copy: see the module docstring
            assert value == 0.0 and "BP = 0" in text, way.key
        else:
            assert value == oracle(way.key, *inputs) == 0.0, way.key
        assert text.startswith("0"), way.key
    assert len(degenerate_frame(results)) == len(WAYS)


def test_evaluate_bleu_scores_an_empty_side_0_without_raising() -> None:
    """evaluate's copy of tf-nmt sets BP = 0 where tensorflow/nmt divides by zero."""
    for hyp, refs in (DEGENERATE["empty_hyp"], DEGENERATE["empty_ref"]):
        results = {r.way.key: r for r in compare_ways(hyp, refs, TOK)}
        for key in ("tf-nmt", "tf-nmt-smooth"):
            assert results[key].crash is None, key
            assert (results[key].score.score, results[key].score.bp) == (0.0, 0.0), key


def test_every_library_is_named_by_its_call() -> None:
    """The calls students type are all rows, each naming its replica and its defaults."""
    calls = " ".join(w.call for w in WAYS)
    for typed in (
        "sacrebleu.corpus_bleu(",
        "BLEU().sentence_score(",
        "sacrebleu.sentence_bleu(",
        'evaluate.load("bleu")',
        'evaluate.load("sacrebleu")',
        "smooth=True",
        *(f"smoothing_function=method{i})" for i in range(8)),
    ):
        assert typed in calls, typed
    assert len({w.key for w in WAYS}) == len({w.call for w in WAYS}) == len(WAYS)
    for way in WAYS:
        assert way.replica.startswith(f"bleuviz.bleu.flavors.{way.config.flavor.replace('-', '')}")
        assert way.defaults.ref_length.startswith(way.config.flavor_spec.brevity_reference)
    frame = replicas_frame()
    assert frame["library call"].tolist() == [w.call for w in WAYS]
    defaults = defaults_frame()
    assert defaults["call"].tolist() == [w.short for w in WAYS]
    assert len(set(defaults["call"])) == len(WAYS)


def test_corpus_against_sentence_equals_sacrebleu() -> None:
    hyps = [h for h, _ in SAMPLE_CORPUS]
    refs = [r for _, r in SAMPLE_CORPUS]
    result = corpus_vs_sentence(hyps, refs, TOK, BleuConfig(effective_order=True))
    assert result.corpus.score == pytest.approx(sacrebleu.corpus_bleu(hyps, [refs]).score, abs=ABS)
    sentence = [sacrebleu.sentence_bleu(h, [r]).score for h, r in SAMPLE_CORPUS]
    assert result.sentence == pytest.approx(sentence, abs=ABS)
    assert result.mean_sentence == pytest.approx(sum(sentence) / len(sentence), abs=ABS)
    assert abs(result.corpus.score - result.mean_sentence) > 1  # the point of the example
    frame = corpus_frame(result, 4)
    last = frame.iloc[-1]
    assert last["BLEU"] == result.corpus.score
    assert last["p1"] == f"{result.corpus.counts[0]}/{result.corpus.totals[0]}"
    assert last["c"] == sum(frame["c"].iloc[:-1])
