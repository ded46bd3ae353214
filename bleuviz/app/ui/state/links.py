"""Query parameters <-> session state: every setting travels in the link.

A page (or the frame, for the sidebar's settings) declares its parameters as
``LinkParam`` rows. ``apply_links`` runs before the widgets are drawn, on the
first run of a page (a new session, or arriving from another page): each
parameter in the URL is parsed and put into session state, so a link opened in
a fresh browser shows what its sender saw. A value that cannot be used is
reported on the page, naming the parameter and the value, and the default is
shown instead. ``write_links`` runs after the widgets: values that differ from
their defaults are written into the URL, the others are left out of it.

Only the first run reads the URL: on later runs the widgets are the truth. The
browser sends its query string with every rerun, and a rerun can start before
the URL written by the previous run has reached it, so reading it again would
undo the user's last change with the value the URL held before.

Every parameter a run reads or writes is claimed (``apply_links`` and
``write_links`` claim theirs; direct readers call ``claim``). When the page's
run has ended, the URL keeps only claimed parameters (``drop_unclaimed``): a
parameter of a section no longer drawn leaves the link, so a link the app
wrote opens the same sections in a new session and claims all of its
parameters. On a page's first run an unclaimed parameter is a mistake in the
link (``system=`` for ``sys=``), and is named on the page like an unusable
value, with the nearest parameter the page reads; more than a few are named in
one line, with their count and the first ten. (Streamlit itself ignores a whole
query string of more than 1,000 parameters or 512 Ki characters, logging a
warning: the app never sees those.)

``current_query`` is the page's link as far as the run has drawn it, and
``frame_query`` the frame's part of it (settings, test set): the links from one
page to another are built from them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import get_close_matches

import streamlit as st

from bleuviz.app.ui.state.link_values import LinkValueError
from bleuviz.render.labels import code_span
from bleuviz.render.labels import escape_markdown as md

#: Session-state keys: the page of the last run, whether this run reads the URL, the problems,
#: the parameters this run has read or written.
PAGE_KEY, ARRIVING_KEY, PROBLEMS_KEY = "link_page", "link_arriving", "link_problems"
CLAIMED_KEY, APPLIED_KEY = "link_claimed", "link_applied"
#: Session-state key of the frame's part of the link (settings, test set), kept each run.
FRAME_QUERY_KEY = "link_frame_query"

#: A kept message: its pieces, each text and whether it is code (a name or value from the
#: link); drawn escaped (``show_link_problems``), so a link's values and the data's names
#: in a reason stay text.
Message = tuple[tuple[str, bool], ...]


@dataclass(frozen=True, slots=True)
class LinkParam:
    """One query parameter and the session-state value it carries.

    Attributes:
        name: the parameter's name in the URL.
        key: the session-state key of its widget.
        parse: raw text -> the widget's value; raises ``LinkValueError`` with a reason.
        show: the widget's value -> raw text.
        default: the value left out of the URL (None: always written when set).
        default_text: how the problem message names the default, as plain text (escaped
            when shown; derived from ``default`` when empty).
    """

    name: str
    key: str
    parse: Callable[[str], object]
    show: Callable[[object], str] = str
    default: object = None
    default_text: str = ""


def session_starting() -> bool:
    """Whether this run is the session's first (call it before :func:`arrive`).

    Nothing is on the session's screen yet, nor any widget in its state: a run may
    leave out what it likes without the browser or Streamlit forgetting anything.
    """
    return PAGE_KEY not in st.session_state


def arrive(page: str) -> None:
    """Note the page this run shows (its first run reads the link); nothing is claimed yet.

    Moving to another page drops the messages about the link the last page was
    opened with: they name its parameters, which the new page's link does not have.
    """
    state = st.session_state
    if state.get(PAGE_KEY) != page:
        if PAGE_KEY in state:
            state[PROBLEMS_KEY] = {}
        state[PAGE_KEY], state[ARRIVING_KEY] = page, True
    state[CLAIMED_KEY], state[APPLIED_KEY] = set(), {}


def claim(*names: str) -> None:
    """Note parameters this run reads or writes: they stay in the URL."""
    claimed: set[str] = st.session_state.setdefault(CLAIMED_KEY, set())
    claimed.update(names)


def drop_unclaimed() -> None:
    """Take the parameters no section of the page claimed out of the URL.

    On a page's first run each is reported, with the claimed name nearest to it.
    Call it only when the page's run has ended normally: a run that stopped early
    has not reached every section's parameters.
    """
    query = st.query_params
    claimed = sorted(st.session_state.get(CLAIMED_KEY, set()))
    unknown = [name for name in query if name not in claimed]
    if arriving() and len(unknown) > MANY_UNKNOWN:
        _keep_message(UNKNOWN_SUMMARY, unknown_summary(unknown))
    elif arriving():
        for name in unknown:
            nearest = _nearest(name, claimed)
            hint = (_text(" (did you mean "), _code(nearest), _text("?)")) if nearest else ()
            reason = (_text("this page has no parameter of that name"), *hint)
            _keep_problem(name, str(query.get(name)), (*reason, _text("; it was left out")))
    for name in unknown:
        del query[name]


#: More unknown parameters than this are named in one message, the first ``NAMED_UNKNOWN``.
MANY_UNKNOWN, NAMED_UNKNOWN = 5, 10
#: The problems' key of that one message (no parameter is named so: it holds a space).
UNKNOWN_SUMMARY = "unknown parameters"


def unknown_summary(names: Sequence[str]) -> Message:
    """One line naming many unknown parameters: how many, then the first few.

    A link of a thousand stray parameters would otherwise fill the page with a
    thousand warnings; this names them as "1,000 unknown parameters: p0, p1, …
    (first 10)", and says they were left out.
    """
    shown = [p for i, name in enumerate(names[:NAMED_UNKNOWN]) for p in _listed(i, name)]
    more = f", … (first {NAMED_UNKNOWN})" if len(names) > NAMED_UNKNOWN else ""
    return (
        _text(f"{len(names):,} unknown parameters: "),
        *shown,
        _text(f"{more}; this page has no parameters of these names, so they were left out."),
    )


def _listed(i: int, name: str) -> Message:
    """The ``i``-th name of a list: a comma before all but the first."""
    return (_text(", "), _code(name)) if i else (_code(name),)


def _text(text: str) -> tuple[str, bool]:
    return (text, False)


def _code(text: str) -> tuple[str, bool]:
    return (text, True)


def settle() -> None:
    """The page's first run is over: from now on its widgets, not the URL, hold the state."""
    st.session_state[ARRIVING_KEY] = False


def arriving() -> bool:
    """Whether this run is a page's first, which reads the URL."""
    return bool(st.session_state.get(ARRIVING_KEY, True))


def _nearest(name: str, names: Sequence[str]) -> str | None:
    """The name in ``names`` a mistyped ``name`` most likely meant.

    A name one starts the other with (``system`` for ``sys``, ``segment`` for
    ``seg``) comes first, the longest such; then difflib's closest match.
    """
    lower = name.lower()
    prefixes = [n for n in names if lower.startswith(n.lower()) or n.lower().startswith(lower)]
    if prefixes:
        return max(prefixes, key=len)
    close = get_close_matches(name, names, n=1)
    return close[0] if close else None


def apply_links(params: Sequence[LinkParam]) -> None:
    """On a page's first run, put the URL's values into session state; report unusable ones."""
    claim(*(param.name for param in params))
    applied: dict[str, LinkParam] = st.session_state.setdefault(APPLIED_KEY, {})
    applied.update((param.name, param) for param in params)
    if not arriving():
        return
    query, state = st.query_params, st.session_state
    for param in params:
        raw = query.get(param.name)
        if raw is None:
            continue
        try:
            state[param.key] = param.parse(raw)
        except LinkValueError as exc:
            report_problem(param, raw, str(exc))
            if param.default is not None:
                state[param.key] = param.default


def report_problem(param: LinkParam, raw: str, reason: str) -> None:
    """Keep a one-line message about an unusable value until dismissed or another page opens."""
    shown: Message = ()
    default = "" if param.default is None else param.show(param.default)
    if param.default_text:
        shown = (_text(f"; showing {param.default_text}"),)
    elif default.strip():
        shown = (_text("; showing the default, "), _code(default))
    elif param.default is not None:  # an empty default (no weights, no metric) reads as a blank
        shown = (_text("; showing the default (none)"),)
    _keep_problem(param.name, raw, (_text(reason), *shown))


def _keep_problem(name: str, raw: str, reason: Message) -> None:
    """Keep the one-line message "``name=raw``: reason." until dismissed or another page opens."""
    _keep_message(name, (_code(f"{name}={raw}"), _text(": "), *reason, _text(".")))


def _keep_message(key: str, message: Message) -> None:
    """Keep one line about the link under ``key`` until dismissed or another page opens."""
    problems = dict(st.session_state.get(PROBLEMS_KEY, {}))
    problems[key] = message
    st.session_state[PROBLEMS_KEY] = problems


def write_links(params: Sequence[LinkParam]) -> None:
    """Write each value that differs from its default into the URL; drop the others."""
    claim(*(param.name for param in params))
    query, state = st.query_params, st.session_state
    for param in params:
        value = state.get(param.key)
        if value is None or (
            param.default is not None and param.show(value) == param.show(param.default)
        ):
            if param.name in query:
                del query[param.name]
            continue
        raw = param.show(value)
        if query.get(param.name) != raw:
            query[param.name] = raw


def current_query() -> dict[str, list[str]]:
    """The link of what the page shows now, as far as this run has drawn it.

    The URL, with each parameter applied so far this run set from its widget's
    value: ``write_links`` may not have run yet, and until it does the URL holds
    the value before the user's last change. A link to come back here is built
    from this.
    """
    query = {name: st.query_params.get_all(name) for name in st.query_params}
    state = st.session_state
    for name, param in st.session_state.get(APPLIED_KEY, {}).items():
        value = state.get(param.key)
        if value is None or (
            param.default is not None and param.show(value) == param.show(param.default)
        ):
            query.pop(name, None)
        else:
            query[name] = [param.show(value)]
    return query


def keep_frame_query() -> None:
    """Keep the parameters claimed so far, the frame's: its settings and the test set.

    Called by the frame before the page runs, so that a page can link to another
    page with the same settings (``frame_query``) without its own parameters,
    which the other page does not have.
    """
    claimed = st.session_state.get(CLAIMED_KEY, set())
    query = st.query_params
    st.session_state[FRAME_QUERY_KEY] = {
        name: query.get_all(name) for name in query if name in claimed
    }


def frame_query() -> dict[str, list[str]]:
    """The frame's part of this run's link: the settings and the test set (see above)."""
    return dict(st.session_state.get(FRAME_QUERY_KEY, {}))


def show_link_problems() -> None:
    """The unusable link values, one line each, with a button that dismisses them."""
    problems = st.session_state.get(PROBLEMS_KEY)
    if not problems:
        return
    with st.container(border=True):
        for message in problems.values():
            st.warning(
                "".join(code_span(text) if code else md(text) for text, code in message),
                icon=":material/link_off:",
            )
        st.button("Dismiss", key="link_problems_dismiss", on_click=_dismiss)


def _dismiss() -> None:
    st.session_state[PROBLEMS_KEY] = {}


# Parsers: each returns the widget's value or raises LinkValueError naming what is allowed.
