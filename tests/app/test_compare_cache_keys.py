"""Compare's cached work is keyed on the evaluation, and its code asks the metric.

Issue 45: a cached function takes the evaluation (hashed by its content and
settings, ``ui/cache/keys.py``) and its own real arguments, nothing that exists
only to be a key; what a metric can answer (its range, its corpus figure's
note, whether it is BLEU) is asked of it, not decided by its name or a
capability flag. The first two tests read the source of the Compare page's
files; the last runs the page: chrF's tests, which read no tokenization, stay
cached when BLEU's tokenizer changes (the old key, the data's ``DataKey``,
held the tokenization and ran them again).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from bleuviz.app.ui.sections.compare.views import BUCKETS, SIGNIFICANCE
from tests.app.compare_tabs import open_view

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted(
    [
        ROOT / "bleuviz/app/ui/cache/compare.py",
        ROOT / "bleuviz/app/ui/cache/pairs.py",
        ROOT / "bleuviz/app/page_scripts/compare.py",
        ROOT / "bleuviz/analysis/buckets.py",
        *(ROOT / "bleuviz/app/ui/sections/compare").glob("*.py"),
    ]
)
CAPABILITIES = {"imported", "paired_tests", "mean_of_sentences", "rouge_type", "always_on"}
DECORATORS = {"cached_data", "cached_resource"}
#: Parameters that only ever served as cache keys, or carried what the evaluation holds.
KEY_ONLY = {"identity", "key", "settings", "config", "_evaluation", "_scores", "_spec"}
KEY_TYPES = {"DataKey", "Settings", "BleuConfig"}


def _trees() -> list[tuple[str, ast.Module]]:
    return [(str(p.relative_to(ROOT)), ast.parse(p.read_text("utf-8"))) for p in FILES]


def _names_bleu(node: ast.expr) -> bool:
    """Whether ``node`` is the literal "BLEU" (any case) or a name spelled BLEU."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.lower() == "bleu"
    return isinstance(node, ast.Name | ast.Attribute) and (
        getattr(node, "id", None) == "BLEU" or getattr(node, "attr", None) == "BLEU"
    )


def test_compare_asks_the_metric_rather_than_about_it() -> None:
    found = []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and any(
                _names_bleu(side) for side in (node.left, *node.comparators)
            ):
                found.append(f"{path}:{node.lineno}: compares with BLEU")
            if isinstance(node, ast.Attribute) and node.attr in CAPABILITIES:
                found.append(f"{path}:{node.lineno}: tests .{node.attr}")
            if isinstance(node, ast.Assign) and any(_names_bleu(t) for t in node.targets):
                found.append(f"{path}:{node.lineno}: a BLEU constant of its own")
    assert found == []


def _decorator(node: ast.expr) -> str:
    call = node.func if isinstance(node, ast.Call) else node
    return call.id if isinstance(call, ast.Name) else getattr(call, "attr", "")


def test_cached_functions_take_the_evaluation_and_their_own_arguments() -> None:
    cached, found = [], []
    for path, tree in _trees():
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef):
                continue
            decorators = {_decorator(d) for d in node.decorator_list}
            if decorators & {"cache_data", "cache_resource"}:
                found.append(f"{path}:{node.lineno}: {node.name} keyed by st.cache_*'s own hashing")
            if not decorators & DECORATORS:
                continue
            cached.append(node.name)
            params = node.args.args
            if not params or params[0].arg != "evaluation":
                found.append(f"{path}:{node.lineno}: {node.name} takes no evaluation first")
            for param in params:
                annotation = ast.unparse(param.annotation) if param.annotation else ""
                if param.arg in KEY_ONLY or annotation in KEY_TYPES:
                    found.append(f"{path}:{node.lineno}: {node.name}({param.arg}: {annotation})")
    assert found == []
    assert {"_significance", "_every_pair", "_bucket_tests", "_salient"} <= set(cached)


@pytest.fixture
def app(new_app: Callable[..., AppTest]) -> AppTest:
    """Compare on the sample with chrF for both metrics and quick tests."""
    at = new_app()
    at.switch_page("bleuviz/app/page_scripts/compare.py")
    at.session_state["cmp_n_bootstrap"] = 100
    at.session_state["cmp_n_ar"] = 50
    at.session_state["metrics"] = ["chrF"]
    at.session_state["cmp_sig_metric"] = "chrF"
    at.session_state["cmp_metric"] = "chrF"
    at.run()
    assert not at.exception
    return at


def test_chrf_tests_stay_cached_when_bleus_tokenizer_changes(
    app: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bleuviz.app.ui.cache.compare as compare
    import bleuviz.app.ui.sections.compare.buckets as buckets

    runs: list[str] = []

    def counted(name: str, run: Callable[..., object]) -> Callable[..., object]:
        def call(*args: object, **kwargs: object) -> object:
            runs.append(name)
            return run(*args, **kwargs)

        return call

    monkeypatch.setattr(compare, "paired_test", counted("corpus", compare.paired_test))
    monkeypatch.setattr(buckets, "paired_test", counted("bucket", buckets.paired_test))
    app.session_state["cmp_bucket_kind"] = "own"  # by A's sentence chrF: no tokenization
    open_view(app, BUCKETS)
    open_view(app, SIGNIFICANCE)
    assert not app.exception
    assert "bucket" in runs and "corpus" not in runs  # the corpus tests: cached by the first run
    runs.clear()
    corpus = app.metric[0].value
    app.selectbox(key="tokenize").set_value("intl").run()
    open_view(app, BUCKETS)
    open_view(app, SIGNIFICANCE)
    assert not app.exception
    assert app.session_state["tokenize"] == "intl"
    assert runs == []  # chrF reads no tokenization: the same tests, from the cache
    assert app.metric[0].value == corpus
