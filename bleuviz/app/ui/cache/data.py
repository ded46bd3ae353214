"""What a page gets: the loaded evaluation and the key of its data, or one error and a stop.

The cache boundary's other modules load the test set (``loading``), count
BLEU's statistics (``counting``) and score any metric (``scores``); a page
asks ``current_data`` for all of it at once.
"""

from __future__ import annotations

import streamlit as st

from bleuviz.app.ui.cache.counting import corpus_stats
from bleuviz.app.ui.cache.loading import (
    UploadPending,
    current_testset,
    imported_directions,
    scored_testset,
    with_directions,
)
from bleuviz.app.ui.cache.scores import loaded_evaluation
from bleuviz.app.ui.state.settings import session_settings
from bleuviz.errors import BleuvizError
from bleuviz.metrics.evaluation import Evaluation
from bleuviz.render.labels import escape_markdown as md


def current_data() -> Evaluation:
    """The loaded test set under the sidebar's settings; on a core error, show it and stop.

    The bundle holds the test set with its imported scores (directions as the
    sidebar sets them) and BLEU's statistics, counted here with a progress bar;
    every metric's scores come from it on demand. Its content key is the content
    ids of the files read and of the scores attached, with the directions, so a
    cache keyed on it tells them apart.
    """
    try:
        loaded = current_testset()
        settings = session_settings()
        counted = corpus_stats(loaded, settings.tokenize, settings.bleu.stats_order)
        scored = scored_testset()
        directions: tuple[tuple[str, bool], ...] = ()
        testset = loaded.testset
        if scored.testset.seg_scores:
            directions = imported_directions(scored.testset)
            testset = with_directions(scored.content_id, directions, scored.testset)
    except UploadPending as exc:  # not an error: nothing is chosen yet
        st.info(md(str(exc).removeprefix("upload: ").capitalize() + "."), icon=":material/upload:")
        st.stop()
    except BleuvizError as exc:
        st.error(md(str(exc)), icon=":material/error:")
        st.stop()
    content = (loaded.content_id, scored.content_id, directions)
    bundle = loaded_evaluation(loaded.content_id, counted, settings)
    return bundle.with_testset(testset, content)
