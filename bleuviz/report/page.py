"""The report as one HTML page: a Jinja2 template with autoescape, its script allowed by hash.

The page makes no request: styles, charts (inline SVG), the segments (packed
in a data block) and its one script are inline. Its Content-Security-Policy
(a ``<meta>`` tag) allows nothing by default, the script by its SHA-256 only
(no ``'unsafe-inline'`` for scripts) and inline styles (the charts' SVG and the
stylesheet), so markup injected into the page could not run even if escaping
failed. Every piece of user text reaches the page through the template engine,
which escapes it; the script writes user text with ``textContent`` and
attributes with ``setAttribute`` only.
"""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from importlib.resources import files

from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from bleuviz.render.highlight import STYLE, legend
from bleuviz.report.build import Report
from bleuviz.report.layout import sections


@cache
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("bleuviz.report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        keep_trailing_newline=True,
    )


def _asset(name: str) -> str:
    return (files("bleuviz.report") / "templates" / name).read_text(encoding="utf-8")


def script() -> str:
    """The page's one script, exactly as it is inlined."""
    return _asset("report.js")


def content_security_policy(code: str) -> str:
    """The policy: nothing by default, ``code`` by its hash, inline styles."""
    digest = base64.b64encode(hashlib.sha256(code.encode("utf-8")).digest()).decode("ascii")
    return (
        f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; "
        "img-src 'none'; base-uri 'none'; form-action 'none'"
    )


def _stylesheet() -> str:
    """The report's own styles, then the app's token and error-span styles."""
    highlight = STYLE.replace("<style>", "").replace("</style>", "").strip()
    return _asset("report.css") + highlight + "\n"


def held_text(report: Report) -> str:
    """What the segment browser holds, said at its top."""
    held = report.held
    if held.whole:
        return f"All {held.total:,} segments, every system's output with its evidence."
    return (
        f"This report holds {len(held.indices):,} of the {held.total:,} segments (at most "
        f"{report.options.max_segments:,} segment × system rows): the {held.telling:,} most "
        "telling (the largest disagreements with the human score, then the largest spread "
        f"between systems) and a sample of {held.sampled:,} drawn with seed {held.seed}. Every "
        f"section above covers all {held.total:,} segments. It cannot be reopened whole."
    )


def render_page(report: Report) -> str:
    """The whole page (same report, same text)."""
    code = script()
    columns = report.ranking.columns
    systems, segments = len(report.systems), report.n_segments
    provenance = report.options.provenance
    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            csp=content_security_policy(code),
            version=provenance.version,
            title=report.options.title,
            summary=f"{systems} systems × {segments:,} segments, built {provenance.date}.",
            css=Markup(_stylesheet()),
            sections=sections(report),
            held=held_text(report),
            systems=report.systems,
            metrics=[c.name for c in columns],
            orders=range(1, len(report.anatomy[0].precisions) + 1) if report.anatomy else (),
            legend=Markup(legend()),
            packed=report.packed,
            script=Markup(code),
        )
    )
