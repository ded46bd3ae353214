"""The server's start-up work: the command line's files read, saved and counted ahead.

``serve.py`` runs :func:`count_ahead` on a thread when the server starts, so the
files are read, saved in the workspace and their n-grams counted (with the
default settings) while the browser is still loading the page; large files are
counted in worker processes, started while the files are read
(:mod:`bleuviz.app.ui.cache.count_workers`). The first session then makes the
same cached call (``register_command_line``) and finds it done, or waits for
it: Streamlit's caches compute a value once, for whoever asks first.
``streamlit run app.py`` still works; it starts the work with the first
session instead.
"""

from __future__ import annotations

import os
from contextlib import suppress

from bleuviz.app.ui.cache.count_workers import prepare_counting, release_counting, worth_workers
from bleuviz.app.ui.frame.data_source import cli_paths, registered_files
from bleuviz.app.ui.state.app_args import app_args
from bleuviz.bleu import DEFAULT_FLAVOR, DEFAULT_ORDER, BleuConfig
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TokenizeConfig
from bleuviz.errors import BleuvizError


def count_ahead() -> str | None:
    """Read, save and start counting the command line's files; return the saved set's id.

    Counted with the settings a new session starts with (a link naming others
    counts again). Nothing happens without files, with a mistake in the
    arguments, or without a writable workspace; a file that cannot be read is
    left for the page to report (None).
    """
    args = app_args()
    paths = cli_paths(args)
    if args.problem is not None or paths is None:
        return None
    # The sidebar's defaults (init_state): a new session counts with these.
    config = BleuConfig(flavor=DEFAULT_FLAVOR, max_order=DEFAULT_ORDER)
    defaults = (TokenizeConfig(DEFAULT_TOKENIZER, lowercase=False), config.stats_order)
    if worth_workers(_bytes((*paths.hyp, *paths.ref))):  # bytes: characters at most
        prepare_counting()  # while the files are read
    try:
        return registered_files(
            paths.key(), paths, args.seg_scores, args.lower_is_better, defaults, args.mqm_weights
        )
    except BleuvizError:
        return None
    finally:
        release_counting()  # unless the count took them


def _bytes(paths: tuple[str, ...]) -> int:
    """The bytes of the files at ``paths`` (a file that cannot be read counts none)."""
    total = 0
    for path in paths:
        with suppress(OSError):
            total += os.stat(path).st_size
    return total
