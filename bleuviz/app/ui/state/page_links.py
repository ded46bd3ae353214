"""Each page's own state as link parameters: which system, segment, filters and choices."""

from __future__ import annotations

from collections.abc import Sequence

from bleuviz.app.ui.state.link_values import (
    choice,
    choices,
    flag,
    integer,
    number_range,
    show_flag,
    show_list,
    show_number,
    text,
)
from bleuviz.app.ui.state.links import LinkParam, frame_query
from bleuviz.io.testset import TestSet
from bleuviz.limits import RESAMPLES, SEEDS, TRIALS
from bleuviz.metrics.evaluation import Evaluation

ALL_DOCUMENTS = "(all)"


def segment_param(name: str, key: str, n_segments: int) -> LinkParam:
    """A segment number, counted from 1 as the page shows it."""
    return LinkParam(
        name, key, integer(1, n_segments), show_number, default_text="the first segment"
    )


def system_param(name: str, key: str, systems: Sequence[str]) -> LinkParam:
    """A system of the test set, by name."""
    return LinkParam(
        name, key, choice(systems, "system"), default_text=f"the first system, {systems[0]}"
    )


def longest_hypothesis(evaluation: Evaluation) -> int:
    """The longest hypothesis of any system, in tokens (at least 1): the length range's top."""
    systems = evaluation.bleu_statistics().systems.values()
    return max(max(int(s.hyp_len.max()) for s in systems), 1)


def document_choices(testset: TestSet) -> list[str]:
    """The document filter's choices: every document in order of appearance, after "(all)"."""
    if testset.doc_ids is None:
        return []
    return [ALL_DOCUMENTS, *dict.fromkeys(testset.doc_ids)]


def sentence_links(
    systems: Sequence[str], n_segments: int, longest: int, documents: Sequence[str]
) -> list[LinkParam]:
    """The Sentences page: system, segment, search, BLEU and length ranges, document."""
    params = [
        system_param("sys", "sent_system", systems),
        segment_param("seg", "sent_seg", n_segments),
        LinkParam("q", "sent_search", text, default=""),
        LinkParam("bleu", "sent_bleu", number_range(0.0, 100.0), show_number, default=(0.0, 100.0)),
        LinkParam(
            "len", "sent_len", number_range(0, longest, whole=True), show_number, (0, longest)
        ),
    ]
    if documents:
        params.append(
            LinkParam("doc", "sent_doc", choice(documents, "document"), default=ALL_DOCUMENTS)
        )
    return params


def error_file_param(key: str, names: Sequence[str]) -> LinkParam:
    """``err_from``: which error-span file a table counts and filters (the first by default)."""
    return LinkParam("err_from", key, choice(names, "error-span file"), default=names[0])


def error_filter_links(
    prefix: str, categories: Sequence[str], severities: Sequence[str]
) -> list[LinkParam]:
    """A segment table's error filter: ``err_cat`` and ``err_sev``, comma-separated choices.

    ``prefix``: the page's (its widgets' keys are ``PREFIX_err_categories`` and
    ``PREFIX_err_severities``). Only the values the table offers are accepted.
    """
    return [
        LinkParam(
            "err_cat",
            f"{prefix}_err_categories",
            choices(categories, "error category"),
            show_list,
            default=[],
            default_text="any category",
        ),
        LinkParam(
            "err_sev",
            f"{prefix}_err_severities",
            choices(severities, "error severity"),
            show_list,
            default=[],
            default_text="any severity",
        ),
    ]


def error_side_param(key: str, sides: Sequence[str]) -> LinkParam:
    """``err_in``: on Compare, whose errors the error filter looks at (A or B by default)."""
    return choice_param("err_in", key, sides, "side")


def imported_range_param(label: str, key: str, low: float, high: float) -> LinkParam:
    """The range of an imported score on the Sentences page, ``range.NAME=low,high``."""
    return LinkParam(
        f"range.{label}", key, number_range(low, high), show_number, default=(low, high)
    )


def compare_links(systems: Sequence[str], n_segments: int) -> list[LinkParam]:
    """The Compare page's pair and segment: ``a``, ``b`` and ``seg``."""
    return [
        system_param("a", "cmp_a", systems),
        system_param("b", "cmp_b", systems),
        segment_param("seg", "cmp_seg", n_segments),
    ]


def compare_metric_links(
    corpus_options: Sequence[str], sentence_options: Sequence[str]
) -> list[LinkParam]:
    """Compare's metrics: ``metric`` (corpus score and tests), ``seg_metric`` (sentences)."""
    return [
        LinkParam(
            "metric", "cmp_sig_metric", choice(corpus_options, "metric"), default=corpus_options[0]
        ),
        LinkParam(
            "seg_metric",
            "cmp_metric",
            choice(sentence_options, "metric"),
            default=sentence_options[0],
        ),
    ]


def significance_links(defaults: tuple[int, int, int]) -> list[LinkParam]:
    """Compare's test settings: ``bs`` (bootstrap samples), ``ar`` (trials), ``seed``.

    Each takes the domain ``bleuviz.limits`` gives its option on the command line
    (``--paired-bs``, ``--paired-ar``, where 0 is off, and ``--seed``).
    """
    n_bs, n_ar, seed = defaults
    return [
        LinkParam(
            "bs",
            "cmp_n_bootstrap",
            integer(RESAMPLES.low, RESAMPLES.high),
            show_number,
            default=n_bs,
        ),
        LinkParam("ar", "cmp_n_ar", integer(TRIALS.low, TRIALS.high), show_number, default=n_ar),
        LinkParam("seed", "cmp_seed", integer(SEEDS.low, SEEDS.high), show_number, default=seed),
    ]


#: Compare's "Test all pairs" switch: ``pairs=1`` tests every pair of systems.
ALL_PAIRS_LINK = LinkParam("pairs", "cmp_all_pairs", flag, show_flag, default=False)


def all_pairs_links(tests: Sequence[str]) -> list[LinkParam]:
    """Every pair's settings: ``pairs=1`` (the switch), ``pairs_test`` and ``holm=1``.

    ``tests``: the test choices, the first the default. The test and the
    correction change the clusters and stars, so a link that drops them would
    show its receiver other results than its sender saw.
    """
    return [
        ALL_PAIRS_LINK,
        LinkParam("pairs_test", "cmp_pairs_test", choice(tests, "test"), default=tests[0]),
        LinkParam("holm", "cmp_pairs_holm", flag, show_flag, default=False),
    ]


def choice_param(name: str, key: str, options: Sequence[str], what: str) -> LinkParam:
    """A choice whose first option is the default (a bucket, an n-gram, a kind)."""
    return LinkParam(name, key, choice(options, what), default=options[0])


def segment_query(system: str, segment: int) -> dict[str, str | list[str]]:
    """The query of a link to one segment on Sentences, with the settings on screen.

    For ``st.page_link(routes.SENTENCES, query_params=...)`` from any page: the
    frame's parameters (settings, test set, imported scores' choices), then
    ``sys`` and ``seg`` (``segment`` counted from 1, as the page shows it).
    """
    query: dict[str, str | list[str]] = dict(frame_query())
    query["sys"], query["seg"] = system, str(segment)
    return query
