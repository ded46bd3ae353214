"""Every message box of the app shows user text as text (issue 44, item 22).

Streamlit renders ``st.error``/``warning``/``info``/``success``/``toast``/``exception``
bodies as Markdown, so a system name, file name or uploaded field quoted in one could
carry a live link or an image fetched by the reader's browser. The one helper that
makes text literal is ``bleuviz.render.labels.escape_markdown`` (imported as ``md``),
with ``code_span`` for names shown as code. The scan below proves, for every such call
in ``bleuviz/app``, that its body is a literal, a helper's result, or our own
f-string whose every field is a helper's result or a number (a numeric format spec,
which a string refuses at run time). The behavioural test shows a refusal quoting a
hostile system name: CommonMark (markdown-it, the oracle) renders no link and no image.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from streamlit.testing.v1 import AppTest

from tests.app.markup import message_text
from tests.data import SAMPLE_HYPS, SAMPLE_REFS, SAMPLE_SYSTEM_LINES

ROOT = Path(__file__).resolve().parents[2]
MESSAGES = frozenset({"error", "warning", "info", "success", "toast", "exception"})
HELPERS = frozenset({"md", "escape_markdown", "code_span"})
#: Format types a ``str`` refuses: a field formatted with one holds a number.
NUMERIC_TYPES = frozenset("bcdeEfFgGnoxX%")
#: A system name from the fault probe: a phishing link and a beacon image.
HOSTILE = "[Session expired](https://evil.example/login) ![t](http://127.0.0.1:9/beacon.png)"
COMMONMARK = MarkdownIt("commonmark")


def message_calls() -> Iterator[tuple[str, ast.Call]]:
    """Every call ``<x>.error(...)`` etc. in bleuviz/app, with ``file:line``.

    A call with no argument at all is no message (``Future.exception()``).
    """
    for path in sorted((ROOT / "bleuviz" / "app").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in MESSAGES
                and (node.args or node.keywords)
            ):
                yield f"{path.relative_to(ROOT)}:{node.lineno}", node


def _numeric_spec(spec: ast.expr | None) -> bool:
    if not isinstance(spec, ast.JoinedStr) or len(spec.values) != 1:
        return False
    text = spec.values[0]
    return isinstance(text, ast.Constant) and (
        text.value[-1:] in NUMERIC_TYPES or "," in text.value or "_" in text.value
    )


def escaped(node: ast.expr) -> bool:
    """Whether the body ``node`` can only be Markdown that shows user text literally."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.Call):
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name in HELPERS:
            return True
        if name == "join" and isinstance(func, ast.Attribute) and len(node.args) == 1:
            arg = node.args[0]
            return escaped(func.value) and (
                isinstance(arg, ast.GeneratorExp | ast.ListComp) and escaped(arg.elt)
            )
        return False
    if isinstance(node, ast.JoinedStr):
        return all(
            isinstance(part, ast.Constant)
            or (escaped(part.value) if not _numeric_spec(part.format_spec) else True)
            for part in node.values
            if isinstance(part, ast.Constant | ast.FormattedValue)
        )
    if isinstance(node, ast.IfExp):
        return escaped(node.body) and escaped(node.orelse)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return escaped(node.left) and escaped(node.right)
    return False


def body(call: ast.Call) -> ast.expr | None:
    """The message text of a call: its first argument or ``body=``."""
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "body"), None)


def test_the_scan_finds_the_app_s_message_calls() -> None:
    found = {where.split(":")[0] for where, _ in message_calls()}
    assert "bleuviz/app/ui/cache/data.py" in found and len(found) > 10, found


@pytest.mark.parametrize(
    ("source", "safe"),
    [
        ('st.error("plain")', True),
        ("st.error(md(str(exc)))", True),
        ('st.error(f"{md(name)} has {n:,} lines, {share:.1f}")', True),
        ('st.warning("".join(code_span(t) if c else md(t) for t, c in pieces))', True),
        ("st.error(str(exc))", False),
        ("bar.error(error)", False),
        ('st.info(f"{name} is unknown")', False),
        ('st.info(f"{name:>10}")', False),
        ('st.info(str(exc).capitalize() + ".")', False),
        ('st.warning("".join(t for t in pieces))', False),
    ],
)
def test_the_scan_tells_escaped_from_raw(source: str, safe: bool) -> None:
    (statement,) = ast.parse(source).body
    assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
    text = body(statement.value)
    assert text is not None and escaped(text) is safe


def test_every_message_passes_its_text_through_the_helper() -> None:
    raw = [where for where, call in message_calls() if not escaped(body(call) or ast.Name())]
    assert not raw, f"message text not escaped (use md/code_span): {raw}"


def rendered(markdown: str) -> str:
    """The HTML CommonMark makes of a message body."""
    return COMMONMARK.render(markdown)


@pytest.fixture
def hostile_scores(tmp_path: Path) -> Path:
    """A segment-score file that scores only a system of the hostile name."""
    path = tmp_path / "probe.seg.score"
    n = len(SAMPLE_SYSTEM_LINES["literal"])
    path.write_text("".join(f"{HOSTILE}\t{i}\n" for i in range(n)), encoding="utf-8")
    return path


def test_a_refusal_quoting_a_hostile_name_renders_inert(
    new_app: Callable[..., AppTest], hostile_scores: Path
) -> None:
    argv = ["--ref", *map(str, SAMPLE_REFS), "--hyp", *map(str, SAMPLE_HYPS)]
    at = new_app(*argv, "--seg-scores", str(hostile_scores))
    at.switch_page("bleuviz/app/page_scripts/overview.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    (error,) = [e.value for e in at.error]
    page = rendered(error)
    assert "<a " not in page and "<img" not in page, page
    unescaped = error.replace("\\", "")  # nor a GFM autolink literal (WORD_JOINER)
    assert "https://" not in unescaped and "http://" not in unescaped
    assert "evil.example" in page  # the refusal still names the system...
    assert HOSTILE in message_text(error)  # ...exactly as written
