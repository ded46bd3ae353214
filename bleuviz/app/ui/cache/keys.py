"""The app's cache decorators: Streamlit's, keying an evaluation on its content and settings.

An ``Evaluation`` holds a test set and everything computed from it, so it
cannot be hashed by value; its ``key`` (the test set's content ids and the
settings) says the same in a few bytes. Every cached function of the app is
declared with these decorators, so it takes the evaluation and its own real
arguments, and nothing else, for a key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import streamlit as st

from bleuviz.metrics.evaluation import Evaluation

#: Streamlit's ``hash_funcs``: an evaluation hashes as its content key.
HASH_FUNCS: dict[type | str, Callable[[Any], Any]] = {Evaluation: lambda e: e.key}

F = TypeVar("F", bound=Callable[..., Any])


def cached_data(**options: Any) -> Callable[[F], F]:
    """``st.cache_data`` keyed on evaluations by content (the result is copied on each hit)."""
    return cast("Callable[[F], F]", st.cache_data(hash_funcs=HASH_FUNCS, **options))


def cached_resource(**options: Any) -> Callable[[F], F]:
    """``st.cache_resource`` keyed on evaluations by content (the result is shared: never
    mutate it)."""
    return cast("Callable[[F], F]", st.cache_resource(hash_funcs=HASH_FUNCS, **options))
