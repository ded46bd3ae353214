"""The sidebar's settings as the core's configurations, and the metrics chosen beside BLEU."""

from __future__ import annotations

import streamlit as st

from bleuviz.bleu import FLAVORS, BleuConfig, get_flavor
from bleuviz.bleu.tokenize import TokenizeConfig
from bleuviz.errors import BleuvizError
from bleuviz.metrics import EXTRA_METRICS, MetricOptions, Settings

#: Sentence-level semantics: the flavour's sentence call, or the corpus settings per segment.
FLAVOR_SENTENCES, LIKE_CORPUS = "flavor", "corpus"
SENTENCE_SEMANTICS = {
    FLAVOR_SENTENCES: "sentence_bleu (effective order on)",
    LIKE_CORPUS: "these settings per segment",
}

#: The "Human judgement" choice when no imported score is human, and its session-state key.
NO_HUMAN, HUMAN_KEY = "(none)", "human_metric"
#: Session-state key prefix of an imported metric's "lower is better" switch (then its name).
LOWER_KEY = "imported_lower::"


def chosen_metrics() -> list[str]:
    """The metrics beside BLEU: those chosen in the sidebar, then every imported one."""
    chosen = [label for label in st.session_state.get("metrics", []) if label in EXTRA_METRICS]
    return chosen + list(st.session_state.get("imported_names", []))


def imported_metrics() -> list[str]:
    """The names of the scores imported from files into the current test set."""
    return list(st.session_state.get("imported_names", []))


def human_metric() -> str | None:
    """The imported score marked as a human judgement in the sidebar, if any."""
    name = st.session_state.get(HUMAN_KEY, NO_HUMAN)
    return None if name == NO_HUMAN or name not in chosen_metrics() else str(name)


def smoothing_defaults(smooth_prefix: str, value_prefix: str) -> dict[str, object]:
    """Session-state defaults of every flavour's smoothing and smoothing values.

    Keys are ``{smooth_prefix}{flavour}`` (the smoothing chosen for that flavour)
    and ``{value_prefix}{smoothing}`` (the value of a smoothing that takes one).
    """
    defaults: dict[str, object] = {}
    for name, flavor in FLAVORS.items():
        defaults[f"{smooth_prefix}{name}"] = flavor.default_smoothing
        defaults |= {f"{value_prefix}{s}": v for s, v in flavor.smoothing_values.items()}
    return defaults


def bleu_config_from_state() -> BleuConfig:
    """Build the BleuConfig from the sidebar's widgets."""
    state = st.session_state
    name = state["flavor"]
    flavor = get_flavor(name)
    weights = parse_weights(state.get("weights_text", ""))
    order = len(weights) if weights else int(state["max_order"])
    smooth = state.get(f"smooth_{name}")
    value = state.get(f"smooth_value_{smooth}") if smooth in flavor.smoothing_values else None
    return BleuConfig(
        flavor=name,
        max_order=order,
        weights=weights,
        smooth=smooth,
        smooth_value=value,
        effective_order=bool(state.get("effective_order")) and flavor.effective_order,
        auto_reweigh=bool(state.get("auto_reweigh")) and flavor.auto_reweigh,
        sentence_like_corpus=state.get("sentence_semantics") == LIKE_CORPUS,
    )


def parse_weights(text: str) -> tuple[float, ...] | None:
    """Parse "0.5, 0.5" into weights; empty means uniform."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        return None
    try:
        return tuple(float(p) for p in parts)
    except ValueError:
        raise BleuvizError(f"weights: {text!r} is not a list of numbers") from None


def session_settings() -> Settings:
    """The sidebar's settings, for every metric: BLEU's, chrF's lowercase, ROUGE's stemmer.

    Reads the session's settings: call it on the script thread and pass the
    value (or a metric's part of it, ``MetricSpec.reads``) to cached work.

    Raises:
        BleuvizError: a setting is invalid (the page shows it).
    """
    state = st.session_state
    tokenize = TokenizeConfig(state["tokenize"], state["lowercase"])
    options = MetricOptions(bool(state.get("lowercase")), bool(state.get("rouge_stemmer")))
    return Settings(bleu=bleu_config_from_state(), tokenize=tokenize, options=options)


def stats_settings() -> tuple[TokenizeConfig, int]:
    """The tokenization and the n-gram order the session's settings count BLEU with.

    Raises:
        BleuvizError: a setting is invalid (the page shows it).
    """
    settings = session_settings()
    return settings.tokenize, settings.bleu.stats_order
