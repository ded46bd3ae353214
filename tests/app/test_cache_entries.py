"""What a page run leaves in Streamlit's caches: the evaluation holds BLEU's numbers, no side cache.

Issue 45: BLEU's sentence scores were cached beside the evaluation, one entry per
system (``_sentence_bleu``), so an Overview run on the sample's three systems made
three entries that the evaluation's own memo already held. Every cached function
is now keyed on the evaluation and its real arguments; a BLEU-only cache is keyed on
``evaluation.reading("BLEU")``, so a switch only another metric reads keeps it.
Entries are counted in Streamlit's in-memory caches (the stats providers' source).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from streamlit.runtime.caching import cache_data_api, cache_resource_api
from streamlit.testing.v1 import AppTest

from bleuviz.sample_data import SAMPLE_HYPS

SENTENCES = "bleuviz/app/page_scripts/sentences.py"


def cache_entries() -> Counter[str]:
    """Entries held per cached function (``st.cache_data`` and ``st.cache_resource``)."""
    held: Counter[str] = Counter()
    for caches in cache_resource_api._resource_caches._function_caches.values():
        for cache in caches.values():
            held[cache.display_name] += len(cache._mem_cache)
    for caches in cache_data_api._data_caches._function_caches.values():
        for cache in caches.values():
            held[cache.display_name] += len(getattr(cache.storage, "_mem_cache", ()))
    return +held  # functions without an entry left out


def run_ok(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_an_overview_run_caches_nothing_per_system(new_app: Callable[..., AppTest]) -> None:
    run_ok(new_app())
    held = cache_entries()
    assert held, "the loaders' caches hold the test set"
    per_system = {name: n for name, n in held.items() if n >= len(SAMPLE_HYPS)}
    assert per_system == {}, "BLEU's sentence scores are the evaluation's, not a side cache's"


def test_a_switch_bleu_does_not_read_keeps_the_sentences_table(
    new_app: Callable[..., AppTest],
) -> None:
    at = new_app()
    at.switch_page(SENTENCES)
    run_ok(at)
    at.sidebar.multiselect(key="metrics").set_value(["ROUGE-1"])
    run_ok(at)
    tables = cache_entries()["bleuviz.app.ui.cache.scores.segment_frame"]
    assert tables == 1
    at.sidebar.checkbox(key="rouge_stemmer").check()
    run_ok(at)
    assert cache_entries()["bleuviz.app.ui.cache.scores.segment_frame"] == tables
    at.sidebar.checkbox(key="lowercase").check()  # BLEU's tokenization reads it
    run_ok(at)
    assert cache_entries()["bleuviz.app.ui.cache.scores.segment_frame"] == tables + 1
