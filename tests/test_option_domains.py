"""Every numeric setting is checked against its domain in the core configs.

The configs are where the command line, links and the Python API meet, so a
value refused here is refused everywhere. sacrebleu is the oracle: a value is
refused where sacrebleu's own ``BLEU`` gives NaN, an infinite score or raises,
and a value accepted scores exactly as sacrebleu scores it.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from sacrebleu.metrics.bleu import BLEU
from sacrebleu.metrics.chrf import CHRF

import bleuviz
from bleuviz.bleu import FLAVORS
from bleuviz.bleu.config import BleuConfig
from bleuviz.bleu.orders import MAX_ORDER
from bleuviz.errors import BleuvizError, ConfigError
from bleuviz.io.testset import TestSet
from bleuviz.limits import (
    MAX_CHRF_BETA,
    MAX_CHRF_ORDER,
    MAX_SMOOTH_VALUE,
    MAX_WEIGHT,
    RESAMPLES,
    SEEDS,
    TRIALS,
    Domain,
)
from bleuviz.metrics.chrf_score import ChrfConfig
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.metrics.spec import Settings
from bleuviz.metrics.ter_config import TerConfig

# No trigram or 4-gram matches: every smoothing acts on those orders.
HYPS = ["the cat sat here on a red mat", "a dog barked"]
REFS = [["a cat sat on the red mat", "the dog barked loudly"]]


def sacrebleu_score(smooth: str, value: float) -> float | None:
    """sacrebleu's corpus BLEU with ``smooth``/``value``, None where it raises."""
    try:
        return BLEU(smooth_method=smooth, smooth_value=value).corpus_score(HYPS, REFS).score
    except (ValueError, ZeroDivisionError):
        return None


def bleuviz_score(config: BleuConfig) -> float:
    testset = TestSet({"A": tuple(HYPS)}, tuple(tuple(r) for r in REFS))
    corpus = bleuviz.compute_corpus_stats(testset, bleuviz.TokenizeConfig("13a"))
    return bleuviz.corpus_score(corpus.systems["A"], config, corpus.tokenize, corpus.n_refs).score


@pytest.mark.parametrize(
    ("smooth", "value"),
    [
        ("floor", math.nan),
        ("floor", math.inf),
        ("floor", -0.1),
        ("add-k", math.nan),
        ("add-k", math.inf),
        ("add-k", -0.5),
    ],
)
def test_smooth_values_sacrebleu_cannot_score_are_refused(smooth: str, value: float) -> None:
    oracle = sacrebleu_score(smooth, value)
    assert oracle is None or not math.isfinite(oracle)  # sacrebleu raises or gives NaN/inf
    with pytest.raises(ConfigError, match=r"^smooth_value: "):
        BleuConfig(smooth=smooth, smooth_value=value)


@pytest.mark.parametrize(
    ("smooth", "value"),
    [("floor", 0.0), ("floor", 0.1), ("floor", 5.0), ("add-k", 0.0), ("add-k", 3.0)],
)
def test_smooth_values_in_range_score_as_sacrebleu(smooth: str, value: float) -> None:
    oracle = sacrebleu_score(smooth, value)
    assert oracle is not None
    got = bleuviz_score(BleuConfig(smooth=smooth, smooth_value=value))
    assert math.isfinite(got) and got == pytest.approx(oracle, abs=1e-9)


@pytest.mark.parametrize("flavor", ["sacrebleu", "nltk", "tf-nmt"])
@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "0.1", True])
def test_a_smooth_value_must_be_a_finite_number_in_every_flavour(
    flavor: str, value: object
) -> None:
    with pytest.raises(ConfigError, match=r"^smooth_value: must be a finite number"):
        BleuConfig(flavor=flavor, smooth_value=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("max_order", [2.5, "4", True])
def test_max_order_must_be_a_whole_number(max_order: object) -> None:
    with pytest.raises(ConfigError, match=r"^max_order: "):
        BleuConfig(max_order=max_order)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"char_order": MAX_CHRF_ORDER + 1}, f"char_order: at most {MAX_CHRF_ORDER}"),
        ({"word_order": MAX_CHRF_ORDER + 1}, f"word_order: at most {MAX_CHRF_ORDER}"),
        ({"char_order": -1}, "char_order: must be at least 0"),
        ({"char_order": 2.5}, "char_order: must be an integer"),
        ({"beta": 0}, "beta: must be at least 1"),
        ({"beta": 10**40}, f"beta: at most {MAX_CHRF_BETA}"),
        ({"lowercase": "yes"}, "lowercase: must be true or false"),
    ],
)
def test_chrf_config_refuses_out_of_domain(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ChrfConfig(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("char_order", "word_order", "beta"), [(MAX_CHRF_ORDER, 0, 1), (6, 2, MAX_CHRF_BETA), (0, 1, 3)]
)
def test_chrf_at_the_limits_scores_as_sacrebleu(
    char_order: int, word_order: int, beta: int
) -> None:
    config = ChrfConfig(char_order, word_order, beta)
    oracle = CHRF(char_order=char_order, word_order=word_order, beta=beta)
    expected = oracle.corpus_score(HYPS, REFS).score
    testset = TestSet({"A": tuple(HYPS)}, tuple(tuple(r) for r in REFS))
    scores = Evaluation(testset, Settings(chrf=config)).scores("chrF")
    assert scores["A"].corpus == pytest.approx(expected, abs=1e-9)


def test_config_errors_are_bleuviz_errors() -> None:
    assert issubclass(ConfigError, BleuvizError)


@pytest.mark.parametrize("option", ["normalized", "no_punct", "asian_support", "case_sensitive"])
def test_ter_switches_must_be_booleans(option: str) -> None:
    with pytest.raises(ConfigError, match=f"^TER {option}: must be true or false, got 'no'"):
        TerConfig(**{option: "no"})  # type: ignore[arg-type]
    assert getattr(TerConfig(**{option: True}), option) is True


@pytest.mark.parametrize("smooth", ["floor", "add-k"])
def test_a_smooth_value_past_the_maximum_is_refused(smooth: str) -> None:
    """Issue 44, item 27: add-k 1e308 scored ``BLEU = inf``; sacrebleu itself overflows."""
    oracle = sacrebleu_score(smooth, 1e308)
    assert oracle is not None and not math.isfinite(oracle)
    with pytest.raises(ConfigError, match=rf"^smooth_value: at most {MAX_SMOOTH_VALUE:,}"):
        BleuConfig(smooth=smooth, smooth_value=1e308)


@pytest.mark.parametrize("smooth", ["floor", "add-k"])
def test_the_largest_smooth_value_scores_as_sacrebleu(smooth: str) -> None:
    oracle = sacrebleu_score(smooth, MAX_SMOOTH_VALUE)
    assert oracle is not None and math.isfinite(oracle)
    got = bleuviz_score(BleuConfig(smooth=smooth, smooth_value=MAX_SMOOTH_VALUE))
    assert got == pytest.approx(oracle, rel=1e-12)


@pytest.mark.parametrize("flavor", ["sacrebleu", "nltk", "tf-nmt"])
def test_weights_past_the_maximum_are_refused(flavor: str) -> None:
    """Four weights of 1e308 summed to infinity: BLEU was NaN."""
    with pytest.raises(ConfigError, match=rf"^weights: each at most {MAX_WEIGHT}, got 1e\+308"):
        BleuConfig(flavor=flavor, weights=(1e308,) * 4)


@pytest.mark.parametrize(
    ("flavor", "smooth"),
    [(name, smooth) for name, flavor in FLAVORS.items() for smooth in flavor.smoothing],
)
def test_the_largest_weights_score_finitely_in_every_smoothing(flavor: str, smooth: str) -> None:
    """Every weight at the maximum, at the highest order: corpus and sentence scores finite."""
    value = MAX_SMOOTH_VALUE if smooth in FLAVORS[flavor].smoothing_values else None
    config = BleuConfig(
        flavor=flavor,
        max_order=MAX_ORDER,
        weights=(float(MAX_WEIGHT),) * MAX_ORDER,
        smooth=smooth,
        smooth_value=value,
    )
    testset = TestSet({"A": tuple(HYPS)}, tuple(tuple(r) for r in REFS))
    corpus = bleuviz.compute_corpus_stats(
        testset, bleuviz.TokenizeConfig("13a"), config.stats_order
    )
    stats = corpus.systems["A"]
    score = bleuviz.corpus_score(stats, config, corpus.tokenize, corpus.n_refs)
    assert math.isfinite(score.score)
    assert np.isfinite(bleuviz.sentence_scores(stats, config).score).all()


def _cli_reads(command: str, option: str, value: int) -> bool:
    """Whether ``bleuviz COMMAND OPTION VALUE`` gets past the parser (nothing is run)."""
    from bleuviz.cli.main import build_parser

    try:
        build_parser([command]).parse_args([command, "--hyp", "h.txt", option, str(value)])
    except SystemExit:
        return False
    return True


def _link_reads(name: str, value: int) -> bool:
    """Whether Compare's link parameter ``name`` takes ``value``."""
    from bleuviz.app.ui.state.link_values import LinkValueError
    from bleuviz.app.ui.state.page_links import significance_links

    (param,) = [p for p in significance_links((1000, 10_000, 12345)) if p.name == name]
    try:
        param.parse(str(value))
    except LinkValueError:
        return False
    return True


def _api_reads(argument: str, value: int) -> bool:
    """Whether the significance functions' check takes ``value`` for ``argument``."""
    from bleuviz.significance.paired import check_counts

    given = {"n_bootstrap": 1, "seed": None, "n_ar": None} | {argument: value}
    try:
        check_counts(given["n_bootstrap"], "n_bootstrap", given["seed"], given["n_ar"])
    except ConfigError:
        return False
    return True


@pytest.mark.parametrize(
    ("cli", "link", "api", "domain"),
    [
        (("compare", "--paired-bs"), "bs", "n_bootstrap", RESAMPLES),
        (("compare", "--paired-ar"), "ar", "n_ar", TRIALS),
        (("compare", "--seed"), "seed", "seed", SEEDS),
        (("score", "--confidence-n"), "bs", "n_bootstrap", RESAMPLES),
        (("score", "--seed"), "seed", "seed", SEEDS),
    ],
)
def test_one_domain_per_option_on_the_command_line_in_links_and_the_api(
    cli: tuple[str, str], link: str, api: str, domain: Domain
) -> None:
    """Issue 44, item 28: compare took Python's int (2**64 passed), the link's seed stopped at
    2**32 - 1 and its ``ar`` refused 0; each now reads exactly ``bleuviz.limits``' domain."""
    for value, inside in [
        (domain.low, True),
        (domain.high, True),
        (domain.low - 1, False),
        (domain.high + 1, False),
        (2**64, False),
    ]:
        assert _cli_reads(*cli, value) is inside, (cli, value)
        assert _link_reads(link, value) is inside, (link, value)
        assert _api_reads(api, value) is inside, (api, value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"smooth": "add-k", "smooth_value": MAX_SMOOTH_VALUE + 1.0}, "got 1000001.0"),
        ({"weights": (MAX_WEIGHT + 1e-6, 1.0, 1.0, 1.0)}, f"got {MAX_WEIGHT + 1e-6!r}"),
    ],
)
def test_a_value_just_past_a_maximum_is_named_as_given(
    kwargs: dict[str, object], message: str
) -> None:
    """``{:g}`` printed 1,000,001 as ``1e+06`` and 10.000001 as ``10``: "at most 10, got 10"
    (review r3's probe)."""
    with pytest.raises(ConfigError, match=re.escape(message) + "$"):
        BleuConfig(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("smooth", ["floor", "add-k"])
def test_a_link_s_smooth_value_names_the_domain_the_command_line_has(smooth: str) -> None:
    """A link's ``smooth_value=-1`` said "out of range (0 to inf)" (review r3's probe)."""
    from bleuviz.app.ui.state.link_values import LinkValueError
    from bleuviz.app.ui.state.setting_links import smooth_value

    parse = smooth_value("sacrebleu", smooth)
    with pytest.raises(LinkValueError, match=rf"^out of range \(0 to {MAX_SMOOTH_VALUE:,}\)$"):
        parse("-1")
    with pytest.raises(LinkValueError, match=rf"^out of range \(0 to {MAX_SMOOTH_VALUE:,}\)$"):
        parse(str(MAX_SMOOTH_VALUE + 1))
    assert parse(str(MAX_SMOOTH_VALUE)) == MAX_SMOOTH_VALUE
