"""The sidebar's settings as link parameters, so a shared link shows the sender's numbers.

``tok``, ``lc``, ``flavor``, ``smooth``, ``smooth_value``, ``order``, ``weights``
(comma-separated), ``eff``, ``sent``, ``reweigh``, ``metrics`` (comma-separated)
and ``stem``; a parameter at its default is left out of the URL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from bleuviz.app.ui.state.link_values import (
    LinkValueError,
    choice,
    choices,
    flag,
    integer,
    number,
    show_flag,
    show_list,
    show_number,
)
from bleuviz.app.ui.state.links import LinkParam, apply_links, write_links
from bleuviz.app.ui.state.settings import (
    FLAVOR_SENTENCES,
    HUMAN_KEY,
    LOWER_KEY,
    NO_HUMAN,
    SENTENCE_SEMANTICS,
)
from bleuviz.bleu import (
    DEFAULT_FLAVOR,
    DEFAULT_ORDER,
    FLAVORS,
    MAX_ORDER,
    BleuConfig,
    get_flavor,
)
from bleuviz.bleu.tokenize import DEFAULT_TOKENIZER, TOKENIZERS
from bleuviz.errors import BleuvizError
from bleuviz.limits import DECIMAL, MAX_SMOOTH_VALUE
from bleuviz.metrics import EXTRA_METRICS


def parse_weights_param(raw: str) -> object:
    """``0.5,0.5`` -> the weights box's text; one to MAX_ORDER numbers in the weights' domain.

    The core owns the domain (``BleuConfig``: finite, 0 to ``MAX_WEIGHT``, a
    positive sum), as on the command line's ``--weights``.
    """
    parts = raw.replace(",", " ").split()
    if not all(DECIMAL.fullmatch(part) for part in parts):
        raise LinkValueError("not a comma-separated list of numbers")
    weights = tuple(float(part) for part in parts)
    if not weights:
        return ""
    if len(weights) > MAX_ORDER:
        raise LinkValueError(f"{len(weights)} weights, at most {MAX_ORDER}")
    try:
        BleuConfig(max_order=len(weights), weights=weights)
    except BleuvizError as exc:
        raise LinkValueError(str(exc)) from None
    return " ".join(f"{w:g}" for w in weights)


def show_weights(value: object) -> str:
    """The weights box's text as ``0.5,0.5``."""
    return ",".join(str(value).replace(",", " ").split())


def smooth_value(flavor: str, smooth: str) -> Callable[[str], object]:
    """A finite value in the range ``BleuConfig`` accepts for this flavour's smoothing.

    The core owns each smoothing's range (sacrebleu's floor and add-k values);
    asking it keeps a link from holding a value the sidebar could not score with.
    """
    finite = number(0.0, MAX_SMOOTH_VALUE)

    def parse(raw: str) -> object:
        value = finite(raw)
        try:
            BleuConfig(flavor=flavor, smooth=smooth, smooth_value=float(value))  # type: ignore[arg-type]
        except BleuvizError as exc:
            raise LinkValueError(f"not a {smooth} value ({exc})") from None
        return value

    return parse


def flavor_free_params() -> list[LinkParam]:
    """The settings that mean the same in every flavour (the flavour itself included)."""
    return [
        LinkParam(
            "tok", "tokenize", choice(list(TOKENIZERS), "tokenizer"), default=DEFAULT_TOKENIZER
        ),
        LinkParam("lc", "lowercase", flag, show_flag, default=False),
        LinkParam("flavor", "flavor", choice(list(FLAVORS), "flavour"), default=DEFAULT_FLAVOR),
        LinkParam("order", "max_order", integer(1, MAX_ORDER), show_number, default=DEFAULT_ORDER),
        LinkParam(
            "weights",
            "weights_text",
            parse_weights_param,
            show_weights,
            default="",
            default_text="the default, uniform weights (1/order each)",
        ),
        LinkParam("eff", "effective_order", flag, show_flag, default=False),
        LinkParam(
            "sent",
            "sentence_semantics",
            choice(list(SENTENCE_SEMANTICS), "sentence semantics"),
            default=FLAVOR_SENTENCES,
        ),
        LinkParam("reweigh", "auto_reweigh", flag, show_flag, default=False),
        LinkParam("metrics", "metrics", choices(list(EXTRA_METRICS), "metric"), show_list, []),
        LinkParam("stem", "rouge_stemmer", flag, show_flag, default=False),
    ]


def flavor_params() -> list[LinkParam]:
    """The smoothing and its value, whose keys depend on the flavour chosen."""
    flavor = get_flavor(str(st.session_state.get("flavor", DEFAULT_FLAVOR)))
    params = [
        LinkParam(
            "smooth",
            f"smooth_{flavor.name}",
            choice(list(flavor.smoothing), f"{flavor.name} smoothing"),
            default=flavor.default_smoothing,
        )
    ]
    smooth = st.session_state.get(f"smooth_{flavor.name}")
    if smooth in flavor.smoothing_values:
        params.append(
            LinkParam(
                "smooth_value",
                f"smooth_value_{smooth}",
                smooth_value(flavor.name, str(smooth)),
                show_number,
                default=flavor.smoothing_values[str(smooth)],
            )
        )
    return params


def apply_setting_links() -> None:
    """Apply the link's settings before the sidebar is drawn (the flavour first)."""
    apply_links(flavor_free_params())
    apply_links(flavor_params()[:1])  # the smoothing, which names its value's key
    apply_links(flavor_params()[1:])


def write_setting_links() -> None:
    """Write the settings that differ from their defaults into the URL."""
    by_flavor = flavor_params()
    write_links([*flavor_free_params(), *by_flavor])
    # A smoothing without a value (exp, none, nltk's methods) takes smooth_value out.
    if "smooth_value" in st.query_params and len(by_flavor) == 1:
        del st.query_params["smooth_value"]


def imported_links(scores: Sequence[tuple[str, bool]]) -> list[LinkParam]:
    """The imported scores' settings: ``lower.NAME`` (1: lower is better) and ``human``.

    ``scores``: each imported score's name and its direction as read (the file's,
    or ``--lower-is-better``), which is the default left out of the URL. ``human``
    names the score taken as the human judgement.
    """
    names = [name for name, _ in scores]
    params = [
        LinkParam(f"lower.{name}", LOWER_KEY + name, flag, show_flag, default=lower)
        for name, lower in scores
    ]
    human = choice([NO_HUMAN, *names], "imported score")
    params.append(LinkParam("human", HUMAN_KEY, human, default=NO_HUMAN, default_text="none"))
    return params
