"""Error spans kept with a saved test set: exactly as given, never replaced unasked."""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuviz.io.error_spans import HUMAN, METRIC, ErrorAnnotations, ErrorSpan, SegmentAnnotation
from bleuviz.io.scores import SegmentScores
from bleuviz.io.testset import TestSet
from bleuviz.workspace import SpansChanged, Workspace
from bleuviz.workspace.span_codec import spans_of, spans_payload

SYSTEMS = ("a", "b", "c")
N = 4
BASE = TestSet(
    systems={s: tuple(f"{s} line {k}" for k in range(N)) for s in SYSTEMS},
    references=(tuple(f"ref {k}" for k in range(N)),),
)

texts = st.text(max_size=12)  # any code point, lone surrogates included
floats = st.floats(allow_nan=False) | st.just(-0.0) | st.just(math.inf)
spans = st.builds(
    ErrorSpan,
    start=st.integers(0, 40),
    end=st.integers(0, 40),
    severity=st.sampled_from(["major", "minor", "neutral", "critical", ""]) | texts,
    category=texts,
    rater=texts,
    on_source=st.booleans(),
    omission=st.booleans(),
    confidence=st.none() | floats,
)
annotations = st.builds(
    SegmentAnnotation,
    raters=st.lists(texts, max_size=3).map(tuple),
    spans=st.lists(spans, max_size=4).map(tuple),
    score=st.none() | floats,
)
per_system = st.lists(st.none() | annotations, min_size=N, max_size=N).map(tuple)


@st.composite
def error_annotations(draw: st.DrawFn, name: str = "MQM") -> ErrorAnnotations:
    systems = draw(st.lists(st.sampled_from(SYSTEMS), min_size=1, unique=True))
    return ErrorAnnotations(
        name,
        draw(texts),
        draw(st.sampled_from([HUMAN, METRIC])),
        {s: draw(per_system) for s in systems},
        draw(st.lists(texts, max_size=3).map(tuple)),
    )


def fields(a: ErrorAnnotations) -> tuple[object, ...]:
    """Everything an annotation holds, system order included (it has no equality)."""
    return (a.name, a.origin, a.kind, list(a.segments.items()), a.skipped)


def span(start: int, severity: str = "major", rater: str = "r1") -> SegmentAnnotation:
    return SegmentAnnotation((rater,), (ErrorSpan(start, start + 1, severity, "Other", rater),))


def mqm(segments: dict[str, tuple[SegmentAnnotation | None, ...]], origin: str = "x.tsv"):
    return ErrorAnnotations("MQM", origin, HUMAN, segments)


ONE = (span(0), None, SegmentAnnotation(("r1",)), span(2, "minor"))
OTHER = (span(1), None, None, None)


@settings(max_examples=60, deadline=None)
@given(first=error_annotations("MQM"), second=error_annotations("xCOMET"))
def test_spans_read_back_exactly(first: ErrorAnnotations, second: ErrorAnnotations) -> None:
    with tempfile.TemporaryDirectory() as folder:
        workspace = Workspace.open(folder)
        testset = TestSet(BASE.systems, BASE.references, error_spans=(first, second))
        set_id = workspace.save_testset(testset, "spans").id
        got = workspace.load(set_id).error_spans
    assert [fields(a) for a in got] == [fields(first), fields(second)]
    for annotation in got:
        for segments in annotation.segments.values():
            for entry in segments:
                for s in entry.spans if entry else ():
                    assert type(s.start) is int and type(s.on_source) is bool


def test_a_repeat_is_a_no_op_and_more_systems_are_added(workspace: Workspace) -> None:
    set_id = workspace.save_testset(BASE.with_error_spans((mqm({"a": ONE}),)), "s").id
    workspace.save_testset(BASE.with_error_spans((mqm({"a": ONE}),)), "s")
    grown = mqm({"a": ONE, "b": OTHER}, origin="y.tsv")
    workspace.save_testset(BASE.with_error_spans((grown,)), "s")
    (got,) = workspace.load(set_id).error_spans
    assert fields(got) == fields(grown)
    workspace.save_testset(BASE.with_error_spans((mqm({"b": OTHER}, origin="y.tsv"),)), "s")
    (kept,) = workspace.load(set_id).error_spans  # fewer systems loaded: the others stay
    assert fields(kept) == fields(grown)


def test_other_spans_under_a_saved_name_are_refused_unless_replaced(workspace: Workspace) -> None:
    set_id = workspace.save_testset(BASE.with_error_spans((mqm({"a": ONE, "b": ONE}),)), "s").id
    changed = BASE.with_error_spans((mqm({"a": OTHER}, origin="new.tsv"),))
    with pytest.raises(SpansChanged, match=r"'MQM'.*new\.tsv") as caught:
        workspace.save_testset(changed, "s")
    assert caught.value.name == "MQM" and caught.value.set_id == set_id
    (kept,) = workspace.load(set_id).error_spans
    assert fields(kept) == fields(mqm({"a": ONE, "b": ONE}))
    for how in ({"replace_spans": ("MQM",)}, {"replace": True}):
        workspace.save_testset(BASE.with_error_spans((mqm({"c": ONE}),)), "s", **how)
        workspace.save_testset(changed, "s", **how)
        (got,) = workspace.load(set_id).error_spans
        assert fields(got) == fields(changed.error_spans[0])  # b's and c's old spans went too


def test_a_replaced_output_drops_the_spans_on_its_old_lines(workspace: Workspace) -> None:
    both = ErrorAnnotations("ESA", "e.jsonl", HUMAN, {"a": ONE, "b": OTHER})
    set_id = workspace.save_testset(BASE.with_error_spans((both,)), "s").id
    workspace.add_system(set_id, "a", ["new"] * N, replace=True)
    (got,) = workspace.load(set_id).error_spans
    assert list(got.segments.items()) == [("b", OTHER)]
    workspace.add_system(set_id, "b", ["new"] * N, replace=True)
    assert workspace.load(set_id).error_spans == ()


def test_trash_restore_and_read_only_keep_the_spans(tmp_path: Path) -> None:
    workspace = Workspace.open(tmp_path / "ws")
    testset = BASE.with_error_spans((mqm({"a": ONE, "c": OTHER}),))
    set_id = workspace.save_testset(testset, "s").id
    workspace.delete(set_id)
    workspace.restore(set_id)
    reading = Workspace.open(tmp_path / "ws", read_only=True)
    for where in (workspace, reading):
        (got,) = where.load(set_id).error_spans
        assert fields(got) == fields(testset.error_spans[0])


def test_replaced_spans_take_their_score_with_them(workspace: Workspace) -> None:
    def with_score(systems: tuple[str, ...], value: float) -> TestSet:
        scores = SegmentScores("MQM", "f.tsv", {s: np.full(N, value) for s in systems})
        spans = mqm({s: ONE for s in systems})
        return TestSet(BASE.systems, BASE.references, seg_scores=(scores,), error_spans=(spans,))

    set_id = workspace.save_testset(with_score(("a", "b"), -1.0), "s").id
    workspace.save_testset(with_score(("a",), -5.0), "s", replace_spans=("MQM",))
    (scores,) = workspace.load(set_id).seg_scores
    assert list(scores.values) == ["a"] and scores.values["a"][0] == -5.0


def test_stored_fields_are_read_by_name_and_missing_ones_take_their_defaults() -> None:
    """A payload written before a field existed (or in another order) reads as it meant."""
    payload = spans_payload((span(3), None))
    stored = json.loads(payload)
    order = [stored["fields"].index(name) for name in ("rater", "end", "start", "severity")]
    order.append(stored["fields"].index("category"))
    stored["fields"] = [stored["fields"][i] for i in order]
    stored["columns"] = [stored["columns"][i] for i in order]
    stored["string_columns"] = [k for k, i in enumerate(order) if i in stored["string_columns"]]
    (got, none) = spans_of(json.dumps(stored).encode())
    assert none is None and got == span(3)  # on_source, omission, ... as their defaults


def test_the_revision_counts_saves_that_change_data_and_only_those(workspace: Workspace) -> None:
    """A copy loaded at another revision is stale, whichever process saved the change."""
    comet = SegmentScores("COMET", "c.seg.score", {"a": np.arange(N, dtype=float)})
    other = SegmentScores("COMET", "c.seg.score", {"a": np.ones(N)})
    spanned = BASE.with_error_spans((mqm({"a": ONE}),))
    scored, rescored = replace(BASE, seg_scores=(comet,)), replace(BASE, seg_scores=(other,))
    short = ["x"] * N
    first = workspace.save_testset(scored, "s")
    assert first.revision == 1
    steps: list[tuple[str, Callable[[], object], int]] = [
        ("the same set again", lambda: workspace.save_testset(BASE, "s"), 0),
        ("its scores again", lambda: workspace.save_testset(scored, "s"), 0),
        ("spans", lambda: workspace.save_testset(spanned, "s"), 1),
        ("the spans again", lambda: workspace.save_testset(spanned, "s"), 0),
        ("other scores", lambda: workspace.save_testset(rescored, "s"), 1),
        ("a rename", lambda: workspace.rename(first.id, "t"), 0),
        ("a system", lambda: workspace.add_system(first.id, "d", BASE.systems["a"]), 1),
        ("the system again", lambda: workspace.add_system(first.id, "d", BASE.systems["a"]), 0),
        ("output replaced", lambda: workspace.add_system(first.id, "d", short, replace=True), 1),
    ]  # fmt: skip
    revision = first.revision
    for what, step, more in steps:
        step()
        revision += more
        assert workspace.get(first.id).revision == revision, what
